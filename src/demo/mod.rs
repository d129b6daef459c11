//! `backoffice demo-data`: a realistic office, deterministic for a seed. Societies named as they
//! are really written, GSTINs that pass the check, a catalog with dated price changes and an SMS
//! rate card, subscriptions with milestones in every stage, and years of documents through every
//! lifecycle path (quotes won and lost, proformas converted, invoices paid in part with TDS,
//! credit notes, cancellations), payments and advances, and the audit rows all of that writes;
//! SMS subscriptions with their gateway logins and a month of daily balance checks; a support desk
//! of about ten tickets per society in every status, with their timelines (old ones closed, the
//! last weeks' still open, a few hundred past the SLA); and leads, one society in forty that came
//! in over the last months and has bought nothing yet (the pipeline's bare clients); and the
//! cloud costs of the societies that run on the cloud, month by month for two years; and the
//! TANs of the societies that deduct TDS with the Form 16A certificates they sent (or not).
//!
//! It writes straight to the tables in one transaction (the API would take hours for a large
//! office), using the same rules as the API: line taxes from `documents::rules::line_tax`,
//! numbers gapless per series and financial year in date order, allocations never beyond what an
//! invoice owes.

mod calls;
mod cloud;
pub mod form26as;
mod gst;
mod history;
mod legacy;
mod names;
mod sms;
mod tds;
mod tickets;
mod work;
mod write;

use crate::auth::rules as auth_rules;
use crate::plumbing::error::AppError;
use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub clients: usize,
    pub years: u32,
    pub seed: u64,
}

/// What was written.
#[derive(Debug, Default)]
pub struct Summary {
    pub staff: usize,
    pub clients: usize,
    pub subscriptions: usize,
    pub milestones: usize,
    pub documents: usize,
    pub lines: usize,
    pub payments: usize,
    pub allocations: usize,
    /// Payments cancelled with a reason, and refunds of advances.
    pub cancelled_payments: usize,
    pub refunds: usize,
    pub audit: usize,
    /// The follow-up work: service contracts, recurring plans, interactions, reminders.
    pub contracts: usize,
    pub plans: usize,
    pub interactions: usize,
    pub reminders: usize,
    /// DB and portal passwords the old system left encrypted.
    pub legacy_credentials: usize,
    /// Clients still in the pipeline: no subscription, no document.
    pub leads: usize,
    /// Support tickets, those still open (open, in progress or waiting on the client), and the
    /// lines of their timelines.
    pub tickets: usize,
    pub tickets_open: usize,
    pub ticket_events: usize,
    /// Active SMS subscriptions (counted in `subscriptions` too), those below the default
    /// low-balance threshold and those flagged by their last check; the balance checks of the
    /// last month and the changes of a read balance among them (each audited).
    pub sms_subscriptions: usize,
    pub sms_low: usize,
    pub sms_flagged: usize,
    pub sms_checks: usize,
    pub sms_balance_changes: usize,
    /// Societies on the cloud and their monthly cost rows (the last 24 months).
    pub cloud_clients: usize,
    pub cloud_costs: usize,
    /// Societies that deducted TDS, those with their TAN on record, and the Form 16A
    /// certificates recorded for past quarters.
    pub tds_clients: usize,
    pub tds_tans: usize,
    pub tds_certificates: usize,
    /// Entries of the Form 26AS uploaded (last year's and this year's), and the societies'
    /// quarters it shows short or not filed.
    pub tds_26as_entries: usize,
    pub tds_26as_short: usize,
}

/// Days of daily SMS balance checks the demo holds.
pub const SMS_DAYS: usize = sms::DAYS;

/// The password of every demo employee (they are past their first sign-in).
pub const STAFF_PASSWORD: &str = "demo-office-2026";

/// A small deterministic generator (SplitMix64): the same seed gives the same office.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.bits() % n.max(1)
    }
    /// lo..=hi.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1).max(1) as u64) as i64
    }
    /// True with `percent` in 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    /// A ULID for something that happened `at`: ids sort in time order, as the server's do.
    pub fn id(&mut self, at: DateTime<Utc>) -> String {
        let random = (u128::from(self.bits()) << 64) | u128::from(self.bits());
        ulid::Ulid::from_parts(at.timestamp_millis().max(0) as u64, random).to_string()
    }
    /// A moment in office hours (09:00–18:00 IST) on `day`.
    pub fn office_time(&mut self, day: NaiveDate) -> DateTime<Utc> {
        let seconds = self.range(3 * 3600 + 1800, 12 * 3600 + 1800);
        Utc.from_utc_datetime(&day.and_hms_opt(0, 0, 0).expect("midnight")) + Duration::seconds(seconds)
    }
}

/// The owner's id: the author of what the demo writes on the office's behalf.
fn owner_id(conn: &rusqlite::Connection) -> Result<String, AppError> {
    Ok(conn.query_row(
        "SELECT id FROM staff WHERE role = 'owner' ORDER BY id LIMIT 1",
        [],
        |r| r.get(0),
    )?)
}

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
    let plan = history::plan(&mut rng, options, start, today);
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
