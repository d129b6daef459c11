//! The daily scan (spec 6.3): reads what is due on `as_of` and raises each reminder at most once
//! (the idempotency key is unique in the table, so two scans at once cannot double a row). The
//! reading is one pass on a read connection; the writes go through the one write path in
//! batches, so requests interleave with a long scan.

use crate::plumbing::clock;
use crate::plumbing::db::Db;
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Warning};
use crate::reminders::rules::{self, Schedule};
use crate::reminders::schedule;
use crate::reminders::sentences;
use crate::reminders::store::{self, Due, blank, raise_in};
use chrono::{Days, NaiveDate};
use rusqlite::Connection;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// What a scan raised: the `daily_scan` job's counts. Run now, the drain's `sent` and `failed`
/// are added to it (`jobs::routes`, decisions 11).
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct Raised {
    pub as_of: Option<NaiveDate>,
    /// Reminders raised, by kind (every kind present, 0 when none).
    pub created: BTreeMap<String, i64>,
    /// What went wrong on the side without failing the run (bounces_unread).
    pub warnings: Vec<Warning>,
}

/// How many reminders one write transaction raises: small enough that a request waiting for the
/// writer behind a batch waits a few milliseconds, not the whole scan.
const BATCH: usize = 100;

fn date(text: &str) -> Option<NaiveDate> {
    clock::date(text.get(..10)?)
}

fn shifted(day: NaiveDate, days: i64) -> NaiveDate {
    if days >= 0 {
        day.checked_add_days(Days::new(days as u64))
    } else {
        day.checked_sub_days(Days::new(days.unsigned_abs()))
    }
    .unwrap_or(day)
}

/// Every reminder due on `as_of` under the schedule then in force (what already exists is
/// left to the unique key).
pub fn due(conn: &Connection, as_of: NaiveDate) -> Result<Vec<Due>, AppError> {
    let schedule = schedule::in_force(conn, as_of)?.schedule;
    let mut out = Vec::new();
    renewals(conn, as_of, &schedule, &mut out)?;
    contracts(conn, as_of, &schedule, &mut out)?;
    overdue(conn, as_of, &schedule, &mut out)?;
    quotes(conn, as_of, &schedule, &mut out)?;
    follow_ups(conn, as_of, &mut out)?;
    out.extend(crate::tds::reminders_due(conn, as_of)?);
    Ok(out)
}

fn renewals(conn: &Connection, as_of: NaiveDate, s: &Schedule, out: &mut Vec<Due>) -> Result<(), AppError> {
    let ladder = &s.renewal_due.days_before;
    let rows = store::renewals_ahead(conn, as_of, ladder_end(as_of, ladder))?;
    let place = |due: &mut Due, id| due.client_module_id = Some(id);
    ahead(
        as_of,
        ladder,
        "renewal_due",
        rows,
        place,
        sentences::renewal_reason,
        out,
    );
    Ok(())
}

fn contracts(conn: &Connection, as_of: NaiveDate, s: &Schedule, out: &mut Vec<Due>) -> Result<(), AppError> {
    let ladder = &s.amc_expiring.days_before;
    let rows = store::contracts_ahead(conn, as_of, ladder_end(as_of, ladder))?;
    let place = |due: &mut Due, id| due.contract_id = Some(id);
    ahead(
        as_of,
        ladder,
        "amc_expiring",
        rows,
        place,
        sentences::contract_reason,
        out,
    );
    Ok(())
}

/// The far end of a days-before ladder read on `as_of`.
fn ladder_end(as_of: NaiveDate, ladder: &[i64]) -> NaiveDate {
    shifted(as_of, *ladder.iter().max().unwrap_or(&0))
}

/// A days-before ladder over `rows`, whose dates lie from `as_of` to the ladder's far end
/// ([`ladder_end`]); `place` puts the id on the reminder.
fn ahead(
    as_of: NaiveDate,
    ladder: &[i64],
    kind: &'static str,
    rows: Vec<store::Ahead>,
    place: impl Fn(&mut Due, String),
    reason: fn(&str, NaiveDate, NaiveDate) -> String,
    out: &mut Vec<Due>,
) {
    for r in rows {
        let Some(due_on) = date(&r.due_on) else {
            continue;
        };
        let Some(rung) = rules::before_rung(due_on, ladder, as_of) else {
            continue;
        };
        let mut due = Due {
            key: rules::key(kind, &r.id, due_on, Some(rung)),
            owner_id: r.owner_id,
            offset_days: Some(rung),
            reason: reason(&r.name, due_on, as_of),
            ..blank(kind, r.client_id, due_on)
        };
        place(&mut due, r.id);
        out.push(due);
    }
}

fn overdue(conn: &Connection, as_of: NaiveDate, s: &Schedule, out: &mut Vec<Due>) -> Result<(), AppError> {
    let ladder = &s.invoice_overdue.days_after;
    let latest_due = shifted(as_of, -*ladder.iter().min().unwrap_or(&0));
    for r in store::unsettled_invoices(conn, latest_due)? {
        let Some(due_on) = r.due_on.as_deref().and_then(date) else {
            continue;
        };
        let Some(rung) = rules::rung_reached(due_on, ladder.iter().copied(), as_of) else {
            continue;
        };
        let doc_no: String = r.doc_no.unwrap_or_default();
        out.push(Due {
            key: rules::key("invoice_overdue", &r.id, due_on, Some(rung)),
            doc_id: Some(r.id),
            owner_id: r.created_by,
            offset_days: Some(rung),
            reason: sentences::overdue_reason(&doc_no, due_on, as_of, r.outstanding),
            ..blank("invoice_overdue", r.client_id, due_on)
        });
    }
    Ok(())
}

fn quotes(conn: &Connection, as_of: NaiveDate, s: &Schedule, out: &mut Vec<Due>) -> Result<(), AppError> {
    let ladder = &s.quote_followup.day_offsets;
    let policy = if s.quote_followup.policy == "auto" {
        "auto"
    } else {
        "manual"
    };
    let offset = settings::office_offset(conn)?;
    for r in store::quotes_to_follow(conn)? {
        let Some(sent_on) = r.first_sent_at.and_then(|at| clock::office_date(&at, offset)) else {
            continue;
        };
        let Some(rung) = rules::rung_reached(sent_on, ladder.iter().copied(), as_of) else {
            continue;
        };
        let doc_no: String = r.doc_no.unwrap_or_default();
        out.push(Due {
            key: rules::key("quote_followup", &r.id, sent_on, Some(rung)),
            doc_id: Some(r.id),
            owner_id: r.created_by,
            offset_days: Some(rung),
            reason: sentences::quote_reason(&doc_no, sent_on, as_of),
            policy,
            ..blank("quote_followup", r.client_id, sent_on)
        });
    }
    Ok(())
}

fn follow_ups(conn: &Connection, as_of: NaiveDate, out: &mut Vec<Due>) -> Result<(), AppError> {
    let first = shifted(as_of, -rules::FOLLOW_UP_LOOKBACK_DAYS);
    for r in store::follow_ups_between(conn, first, as_of)? {
        let Some(due_on) = date(&r.follow_up_on) else {
            continue;
        };
        out.push(Due {
            key: rules::key("follow_up", &r.id, due_on, None),
            interaction_id: Some(r.id),
            owner_id: r.author_id,
            reason: sentences::follow_up_reason(&r.notes, due_on),
            ..blank("follow_up", r.client_id, due_on)
        });
    }
    Ok(())
}

/// The daily scan job (spec 6.3): the bounces read from the mail provider, then the scan for
/// `as_of`. A provider that cannot be read is a warning of the run, not its failure. The
/// auto-send drain is a job of its own that runs after the recurring generation
/// (`crate::jobs::JOBS`, spec 6.3), so it comes after everything the day's scan and
/// generation wrote.
pub fn daily(state: &crate::state::AppState, as_of: NaiveDate) -> Result<Raised, AppError> {
    let bounced = crate::reminders::bounces::poll(state, as_of);
    let mut outcome = run(&state.db, as_of)?;
    match bounced {
        Ok(n) => *outcome.created.entry("email_bounced".into()).or_insert(0) += n,
        Err(e) => outcome.warnings.push(Warning {
            code: e.code,
            message: e.message.clone(),
        }),
    }
    Ok(outcome)
}

/// Runs the scan for `as_of`: one read, then the new reminders in batches through the writer.
pub fn run(db: &Db, as_of: NaiveDate) -> Result<Raised, AppError> {
    let due = db.read_blocking(move |c| due(c, as_of))?;
    let mut outcome = Raised {
        as_of: Some(as_of),
        created: rules::KINDS.iter().map(|k| (k.to_string(), 0)).collect(),
        ..Default::default()
    };
    for batch in due.chunks(BATCH) {
        let batch = batch.to_vec();
        for (kind, n) in db.write_blocking(move |tx| raise_in(tx, &batch))? {
            *outcome.created.entry(kind).or_insert(0) += n;
        }
    }
    Ok(outcome)
}
