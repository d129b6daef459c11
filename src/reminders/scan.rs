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
use crate::reminders::store::{Due, blank, raise_in};
use chrono::{Days, NaiveDate};
use rusqlite::{Connection, params};
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
    let sql = format!(
        "SELECT cm.id, cm.client_id, cm.next_renewal, c.owner_id, m.name
         FROM client_module cm JOIN client c ON c.id = cm.client_id JOIN module m ON m.id = cm.module_id
         WHERE {}",
        crate::renewals::store::MODULE_DUE
    );
    let place = |due: &mut Due, id| due.client_module_id = Some(id);
    ahead(
        conn,
        as_of,
        &s.renewal_due.days_before,
        "renewal_due",
        &sql,
        place,
        rules::renewal_reason,
        out,
    )
}

fn contracts(conn: &Connection, as_of: NaiveDate, s: &Schedule, out: &mut Vec<Due>) -> Result<(), AppError> {
    let sql = format!(
        "SELECT sc.id, sc.client_id, sc.period_to, c.owner_id, sc.description
         FROM service_contract sc JOIN client c ON c.id = sc.client_id
         WHERE {}
           AND (sc.renewal_invoice_id IS NULL
                OR (SELECT status FROM document WHERE id = sc.renewal_invoice_id) = 'cancelled')",
        crate::renewals::store::CONTRACT_DUE
    );
    let place = |due: &mut Due, id| due.contract_id = Some(id);
    ahead(
        conn,
        as_of,
        &s.amc_expiring.days_before,
        "amc_expiring",
        &sql,
        place,
        rules::contract_reason,
        out,
    )
}

/// A days-before ladder over the rows `(id, client_id, date, owner_id, name)` of `sql`, whose
/// dates lie from ?1 (`as_of`) to ?2 (the ladder's far end); `place` puts the id on the reminder.
#[allow(clippy::too_many_arguments)]
fn ahead(
    conn: &Connection,
    as_of: NaiveDate,
    ladder: &[i64],
    kind: &'static str,
    sql: &str,
    place: impl Fn(&mut Due, String),
    reason: fn(&str, NaiveDate, NaiveDate) -> String,
    out: &mut Vec<Due>,
) -> Result<(), AppError> {
    let last = shifted(as_of, *ladder.iter().max().unwrap_or(&0));
    let mut stmt = conn.prepare(sql)?;
    let mut rows = stmt.query(params![as_of.to_string(), last.to_string()])?;
    while let Some(r) = rows.next()? {
        let Some(due_on) = date(&r.get::<_, String>(2)?) else {
            continue;
        };
        let Some(rung) = rules::before_rung(due_on, ladder, as_of) else {
            continue;
        };
        let id: String = r.get(0)?;
        let name: String = r.get(4)?;
        let mut due = Due {
            key: rules::key(kind, &id, due_on, Some(rung)),
            owner_id: r.get(3)?,
            offset_days: Some(rung),
            reason: reason(&name, due_on, as_of),
            ..blank(kind, r.get(1)?, due_on)
        };
        place(&mut due, id);
        out.push(due);
    }
    Ok(())
}

fn overdue(conn: &Connection, as_of: NaiveDate, s: &Schedule, out: &mut Vec<Due>) -> Result<(), AppError> {
    let ladder = &s.invoice_overdue.days_after;
    let latest_due = shifted(as_of, -*ladder.iter().min().unwrap_or(&0));
    // The receivable index: invoices not yet settled (migrations/V7).
    let due = crate::documents::rules::FALLS_DUE;
    let mut stmt = conn.prepare(&format!(
        "SELECT d.id, d.client_id, {due}, d.created_by, d.doc_no, d.outstanding
         FROM document d
         WHERE d.settled_on IS NULL AND d.type = 'INVOICE' AND d.status IN ('issued', 'sent')
           AND d.outstanding > 0 AND {due} <= ?1"
    ))?;
    let mut rows = stmt.query(params![latest_due.to_string()])?;
    while let Some(r) = rows.next()? {
        let Some(due_on) = r.get::<_, Option<String>>(2)?.as_deref().and_then(date) else {
            continue;
        };
        let Some(rung) = rules::rung_reached(due_on, ladder.iter().copied(), as_of) else {
            continue;
        };
        let id: String = r.get(0)?;
        let doc_no: String = r.get::<_, Option<String>>(4)?.unwrap_or_default();
        out.push(Due {
            key: rules::key("invoice_overdue", &id, due_on, Some(rung)),
            doc_id: Some(id),
            owner_id: r.get(3)?,
            offset_days: Some(rung),
            reason: rules::overdue_reason(&doc_no, due_on, as_of, r.get(5)?),
            ..blank("invoice_overdue", r.get(1)?, due_on)
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
    // Sent quotations without a live forward child, of clients not lost, with their first 'sent'.
    // Converting moves a quotation to 'invoiced' and cancelling its child re-opens it (spec
    // 3.1) without moving it back, so an 'invoiced' quotation whose children are all cancelled
    // is followed up again (spec 6.3 leaves out only a *live* child), unless it was accepted
    // before it was converted: acceptance is a stop condition of its own.
    let mut stmt = conn.prepare(
        "SELECT d.id, d.client_id, d.created_by, d.doc_no,
                (SELECT MIN(e.at) FROM document_event e WHERE e.document_id = d.id AND e.kind = 'sent')
         FROM document d JOIN client c ON c.id = d.client_id
         WHERE d.type = 'QUOTATION' AND d.status IN ('sent', 'invoiced') AND c.status <> 'lost'
           AND NOT EXISTS (SELECT 1 FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled')
           AND NOT EXISTS (SELECT 1 FROM document_event e WHERE e.document_id = d.id AND e.kind = 'accepted')",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let Some(sent_on) = r
            .get::<_, Option<String>>(4)?
            .and_then(|at| clock::office_date(&at, offset))
        else {
            continue;
        };
        let Some(rung) = rules::rung_reached(sent_on, ladder.iter().copied(), as_of) else {
            continue;
        };
        let id: String = r.get(0)?;
        let doc_no: String = r.get::<_, Option<String>>(3)?.unwrap_or_default();
        out.push(Due {
            key: rules::key("quote_followup", &id, sent_on, Some(rung)),
            doc_id: Some(id),
            owner_id: r.get(2)?,
            offset_days: Some(rung),
            reason: rules::quote_reason(&doc_no, sent_on, as_of),
            policy,
            ..blank("quote_followup", r.get(1)?, sent_on)
        });
    }
    Ok(())
}

fn follow_ups(conn: &Connection, as_of: NaiveDate, out: &mut Vec<Due>) -> Result<(), AppError> {
    let first = shifted(as_of, -rules::FOLLOW_UP_LOOKBACK_DAYS);
    let mut stmt = conn.prepare(
        "SELECT i.id, i.client_id, i.follow_up_on, i.author_id, i.notes
         FROM interaction i WHERE i.follow_up_on BETWEEN ?1 AND ?2",
    )?;
    let mut rows = stmt.query(params![first.to_string(), as_of.to_string()])?;
    while let Some(r) = rows.next()? {
        let Some(due_on) = date(&r.get::<_, String>(2)?) else {
            continue;
        };
        let id: String = r.get(0)?;
        let notes: String = r.get(4)?;
        out.push(Due {
            key: rules::key("follow_up", &id, due_on, None),
            interaction_id: Some(id),
            owner_id: r.get(3)?,
            reason: rules::follow_up_reason(&notes, due_on),
            ..blank("follow_up", r.get(1)?, due_on)
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
