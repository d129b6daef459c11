//! The demo office filled: the history planned, then each pass written in order in the one
//! transaction; and the small office the demo's own tests fill.

use crate::auth::rules as auth_rules;
use crate::demo::{Options, Rng, Summary};
use crate::demo::{cloud, form26as, gst, legacy, planner, sms, tds, tickets, work, write};
use crate::plumbing::error::AppError;
use chrono::{Duration, NaiveDate};

/// The password of every demo employee (they are past their first sign-in).
pub const STAFF_PASSWORD: &str = "demo-office-2026";

/// Fills an office that has no clients yet. `owner_id` is the owner bootstrap created; `today`
/// is the office's date, the end of the history.
pub fn fill(
    conn: &rusqlite::Connection,
    options: Options,
    owner_id: &str,
    today: NaiveDate,
) -> Result<Summary, AppError> {
    let clients: i64 = conn.query_row("SELECT COUNT(*) FROM client", [], |r| r.get(0))?;
    if clients > 0 {
        return Err(AppError::conflict(
            "not_empty",
            "demo-data fills a new office: this data file already has clients.",
        ));
    }
    let mut rng = Rng::new(options.seed);
    let start = today - Duration::days(365 * i64::from(options.years.max(1)));
    let plan = planner::plan(&mut rng, options, start, today);
    let staff_hash = auth_rules::hash_password(STAFF_PASSWORD);
    let mut summary = write::write(conn, &mut rng, &plan, owner_id, &staff_hash, start, today)?;
    summary.leads = plan.clients.iter().filter(|c| c.is_lead()).count();
    work::write(conn, &mut rng, today, &mut summary)?;
    tickets::write(conn, &mut rng, today, &mut summary)?;
    legacy::write(conn, &mut rng, &mut summary)?;
    // After the legacy pass: the SMS logins take its one-in-forty themselves, and their month
    // of checks must know which passwords no pass could send.
    sms::write(conn, &mut rng, today, &mut summary)?;
    cloud::write(conn, &mut rng, today, &mut summary)?;
    tds::write(conn, &mut rng, today, &mut summary)?;
    // Last, with a generator of its own: the GSTR-1 tables beyond B2B and B2C small.
    gst::write(conn, options.seed, owner_id, today, &mut summary)?;
    // After every receipt: the Form 26AS is made from the TDS they booked.
    form26as::write(conn, options.seed, owner_id, today, &mut summary)?;
    Ok(summary)
}

/// A small demo office for the demo's own tests: its directory (kept for the test's life), a
/// connection to its file, what was written and the office's today.
#[cfg(test)]
pub(crate) fn small_office(
    options: Options,
) -> (tempfile::TempDir, rusqlite::Connection, Summary, NaiveDate) {
    let dir = tempfile::TempDir::new().unwrap();
    let config = crate::plumbing::config::Config {
        data: dir.path().join("demo.db"),
        owner_password: Some("demo-owner-password".into()),
        ..Default::default()
    };
    let boot = crate::setup::first_start::bootstrap(&config).unwrap();
    let today = boot
        .db
        .read_blocking(crate::plumbing::db::settings::office_today)
        .unwrap();
    let summary = boot
        .db
        .write_blocking(|tx| {
            let owner: String =
                tx.query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))?;
            fill(tx, options, &owner, today)
        })
        .unwrap();
    let conn = rusqlite::Connection::open(&config.data).unwrap();
    (dir, conn, summary, today)
}
