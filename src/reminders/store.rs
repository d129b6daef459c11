//! The SQL of the reminder queue: the list (owner-scoped, honest total), one reminder, and the
//! status moves; the reminders raised, and what the daily scan reads to raise them.

use crate::book;
use crate::plumbing::clock;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, Plan};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::reminders::sentences;
use chrono::{FixedOffset, NaiveDate};
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// A reminder as the queue shows it (decisions 9, plus the names a person reads).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Reminder {
    pub id: String,
    pub rule_kind: String,
    pub status: String,
    pub policy_applied: String,
    pub client_id: String,
    pub client_name: String,
    pub doc_id: Option<String>,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    pub client_module_id: Option<String>,
    pub contract_id: Option<String>,
    pub interaction_id: Option<String>,
    pub contact_id: Option<String>,
    pub owner_id: Option<String>,
    pub owner_name: Option<String>,
    /// The day the thing falls due, and the rung of the ladder (days before or after) that raised it.
    pub due_on: String,
    pub offset_days: Option<i64>,
    /// The sentence written when the scan raised it, with the figures of that day: history.
    pub reason: String,
    /// The same sentence made now (issue 34): its days counted to the office's today, from what
    /// the reminder points at as it stands, by the functions the scan and the email use.
    pub summary: String,
    /// The office's date of the day it was raised (`created_at`).
    pub raised_on: String,
    /// Why the send failed, for a `failed` reminder.
    pub failure: Option<String>,
    pub created_at: String,
    pub sent_at: Option<String>,
    pub closed_at: Option<String>,
}

const COLUMNS: &str =
    "r.id, r.rule_kind, r.status, r.policy_applied, r.client_id, c.name, r.doc_id, d.doc_no,
    r.client_module_id, r.contract_id, r.interaction_id, r.contact_id, r.owner_id, s.name, r.due_on,
    r.offset_days, r.reason, r.failure, r.created_at, r.sent_at, r.closed_at,
    d.doc_date, d.due_date, d.outstanding, m.name, sc.description, i.notes";
const FROM: &str = "reminder r JOIN client c ON c.id = r.client_id LEFT JOIN document d ON d.id = r.doc_id
    LEFT JOIN staff s ON s.id = r.owner_id
    LEFT JOIN client_module cm ON cm.id = r.client_module_id LEFT JOIN module m ON m.id = cm.module_id
    LEFT JOIN service_contract sc ON sc.id = r.contract_id LEFT JOIN interaction i ON i.id = r.interaction_id";

/// The office's clock a reminder is read by: its today and its offset from UTC.
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    pub today: NaiveDate,
    pub offset: FixedOffset,
}

impl Reading {
    /// The office's clock now (`company.utc_offset`).
    pub fn now(conn: &Connection) -> Result<Reading, AppError> {
        let offset = settings::office_offset(conn)?;
        Ok(Reading {
            today: clock::office_today(offset),
            offset,
        })
    }
}

fn date(text: Option<String>) -> Option<NaiveDate> {
    clock::date(text?.get(..10)?)
}

fn reminder(r: &Row<'_>, at: Reading) -> rusqlite::Result<Reminder> {
    let rule_kind: String = r.get(1)?;
    let due_on: String = r.get(14)?;
    let reason: String = r.get(16)?;
    let created_at: String = r.get(18)?;
    let standing = sentences::Standing {
        doc_no: r.get(7)?,
        doc_date: date(r.get(21)?),
        due_date: date(r.get(22)?),
        outstanding: r.get(23)?,
        module: r.get(24)?,
        contract: r.get(25)?,
        notes: r.get(26)?,
    };
    let summary = date(Some(due_on.clone()))
        .and_then(|due| sentences::summary(&rule_kind, due, &standing, at.today))
        .unwrap_or_else(|| reason.clone());
    let raised_on = clock::office_date(&created_at, at.offset)
        .map(|d| d.to_string())
        .unwrap_or_else(|| created_at.chars().take(10).collect());
    Ok(Reminder {
        id: r.get(0)?,
        rule_kind,
        status: r.get(2)?,
        policy_applied: r.get(3)?,
        client_id: r.get(4)?,
        client_name: r.get(5)?,
        doc_id: r.get(6)?,
        doc_no: r.get(7)?,
        client_module_id: r.get(8)?,
        contract_id: r.get(9)?,
        interaction_id: r.get(10)?,
        contact_id: r.get(11)?,
        owner_id: r.get(12)?,
        owner_name: r.get(13)?,
        due_on,
        offset_days: r.get(15)?,
        reason,
        summary,
        raised_on,
        failure: r.get(17)?,
        created_at,
        sent_at: r.get(19)?,
        closed_at: r.get(20)?,
    })
}

/// What the queue may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("due_on", "r.due_on"),
    ("rule_kind", "r.rule_kind"),
    ("client_name", "c.name COLLATE NOCASE"),
    ("status", "r.status"),
    ("owner_name", "s.name COLLATE NOCASE"),
    ("created_at", "r.created_at"),
];

#[derive(Default)]
pub struct ReminderFilter {
    pub status: Option<String>,
    pub rule_kind: Option<String>,
    pub owner_id: Option<String>,
    pub client_id: Option<String>,
    /// The staff user whose share the queue is (None: everyone's).
    pub book: Option<String>,
}

/// The queue, newest first, its sentences made on `at`'s today.
pub fn list(filter: ReminderFilter, at: Reading) -> Listing<Reminder> {
    let mut f = Filter::default();
    f.eq("r.status", filter.status)
        .eq("r.rule_kind", filter.rule_kind)
        .eq("r.owner_id", filter.owner_id)
        .eq("r.client_id", filter.client_id);
    book::narrow_reminders(&mut f, "r", filter.book);
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: FROM,
        order_by: "r.id DESC",
        id_column: "r.id",
        sorts: SORTS,
    };
    // Every filter is on the reminder itself: the total is counted there, without the joins
    // (2,716 open reminders of the large office: 4.7 ms with them, see docs/benchmark.md).
    Listing::new(query, f, move |r| reminder(r, at)).with_plan(Plan {
        count_in: Some("reminder r"),
        ..Default::default()
    })
}

/// One reminder, if it is in `book`'s share, its sentence made on the office's today.
pub fn get(conn: &Connection, id: &str, book: Option<&str>) -> Result<Option<Reminder>, AppError> {
    let at = Reading::now(conn)?;
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM {FROM} WHERE r.id = ?1 AND {}",
            book::reminder_is_in("r", "?2")
        ))?
        .query_row(params![id, book], |r| reminder(r, at))
        .optional()?)
}

/// Moves an open (or failed) reminder to `status`; answers whether it moved.
pub fn close(tx: &Connection, id: &str, status: &str, by: Option<&str>) -> Result<bool, AppError> {
    let now = clock::now_timestamp();
    Ok(tx.execute(
        "UPDATE reminder SET status = ?2, closed_by = ?3, closed_at = ?4, updated_at = ?4
         WHERE id = ?1 AND status IN ('open', 'failed')",
        params![id, status, by, now],
    )? == 1)
}

/// The open (or failed) quote follow-ups of a document, with their status.
pub fn open_followups(conn: &Connection, doc_id: &str) -> Result<Vec<(String, String)>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, status FROM reminder WHERE doc_id = ?1 AND rule_kind = 'quote_followup' AND status IN ('open', 'failed')",
    )?;
    let ids = stmt
        .query_map([doc_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ids)
}

/// Open reminders per person, for the navigation's badge: the caller's share.
pub fn open_count(conn: &Connection, book: Option<&str>) -> Result<i64, AppError> {
    Ok(conn.query_row(
        &format!(
            "SELECT COUNT(*) FROM reminder r WHERE r.status = 'open' AND {}",
            book::reminder_is_in("r", "?1")
        ),
        [book],
        |r| r.get(0),
    )?)
}

/// Claims an open (or failed) reminder for its send: it becomes `sent` before the email goes,
/// so two sends at once cannot both go (at most once, spec 2.9). Answers whether it was claimed.
pub fn claim_send(tx: &Connection, id: &str, by: Option<&str>) -> Result<bool, AppError> {
    let now = clock::now_timestamp();
    Ok(tx.execute(
        "UPDATE reminder SET status = 'sent', sent_at = ?2, closed_by = ?3, closed_at = ?2, failure = NULL,
                updated_at = ?2
         WHERE id = ?1 AND status IN ('open', 'failed')",
        params![id, now, by],
    )? == 1)
}

/// Marks a reminder whose send failed (claimed, or still open when the drain could not even
/// start it) `failed` with the reason.
pub fn mark_failed(tx: &Connection, id: &str, why: &str) -> Result<(), AppError> {
    tx.execute(
        "UPDATE reminder SET status = 'failed', failure = ?2, sent_at = NULL, closed_by = NULL,
                closed_at = NULL, updated_at = ?3
         WHERE id = ?1 AND status IN ('open', 'sent')",
        params![id, why, clock::now_timestamp()],
    )?;
    Ok(())
}

/// The open reminders the auto-send drain sends, oldest first.
pub fn auto_open(conn: &Connection) -> Result<Vec<String>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM reminder WHERE status = 'open' AND policy_applied = 'auto' ORDER BY id",
    )?;
    let ids = stmt.query_map([], |r| r.get(0))?.collect::<Result<Vec<_>, _>>()?;
    Ok(ids)
}

/// The module of a renewal reminder's subscription: its name and its id.
pub fn renewal_module(
    conn: &Connection,
    client_module_id: &str,
) -> Result<Option<(String, String)>, AppError> {
    Ok(conn
        .query_row(
            "SELECT m.name, m.id FROM client_module cm JOIN module m ON m.id = cm.module_id WHERE cm.id = ?1",
            [client_module_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// A contract's description and fixed amount.
pub fn contract_terms(conn: &Connection, contract_id: &str) -> Result<Option<(String, i64)>, AppError> {
    Ok(conn
        .query_row(
            "SELECT description, amount FROM service_contract WHERE id = ?1",
            [contract_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// Whether a reminder's key starts with `prefix` (a range on the unique key's index).
pub fn key_prefix_exists(conn: &Connection, prefix: &str) -> Result<bool, AppError> {
    let mut end = prefix.to_string();
    end.push(char::MAX);
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM reminder WHERE idempotency_key >= ?1 AND idempotency_key < ?2)",
        )?
        .query_row(params![prefix, end], |r| r.get(0))?)
}

/// Unlinks the reminders of a contact being deleted (the reminder keeps its reason).
pub fn forget_contact(tx: &Connection, contact_id: &str) -> Result<(), AppError> {
    tx.execute(
        "UPDATE reminder SET contact_id = NULL WHERE contact_id = ?1",
        [contact_id],
    )?;
    Ok(())
}

/// A reminder the scan would raise.
#[derive(Debug, Clone)]
pub struct Due {
    pub kind: &'static str,
    pub key: String,
    pub client_id: String,
    pub doc_id: Option<String>,
    pub client_module_id: Option<String>,
    pub contract_id: Option<String>,
    pub interaction_id: Option<String>,
    pub contact_id: Option<String>,
    pub owner_id: Option<String>,
    pub due_on: NaiveDate,
    pub offset_days: Option<i64>,
    pub reason: String,
    pub policy: &'static str,
}

/// A reminder of `kind` on `client_id` due on `due_on`, every other field empty: the start of
/// each kind's own.
pub fn blank(kind: &'static str, client_id: String, due_on: NaiveDate) -> Due {
    Due {
        kind,
        key: String::new(),
        client_id,
        doc_id: None,
        client_module_id: None,
        contract_id: None,
        interaction_id: None,
        contact_id: None,
        owner_id: None,
        due_on,
        offset_days: None,
        reason: String::new(),
        policy: "manual",
    }
}

/// Raises each reminder whose key is new; answers how many were raised, by kind.
pub fn raise_in(tx: &Connection, due: &[Due]) -> Result<BTreeMap<String, i64>, AppError> {
    let now = clock::now_timestamp();
    let mut stmt = tx.prepare_cached(
        "INSERT INTO reminder (id, rule_kind, status, idempotency_key, policy_applied, client_id, doc_id,
                               client_module_id, contract_id, interaction_id, contact_id, owner_id, due_on,
                               offset_days, reason, created_at, updated_at)
         VALUES (?1, ?2, 'open', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)
         ON CONFLICT (idempotency_key) DO NOTHING",
    )?;
    let mut created = BTreeMap::new();
    for d in due {
        let n = stmt.execute(params![
            crate::plumbing::db::ids::new_id(),
            d.kind,
            d.key,
            d.policy,
            d.client_id,
            d.doc_id,
            d.client_module_id,
            d.contract_id,
            d.interaction_id,
            d.contact_id,
            d.owner_id,
            d.due_on.to_string(),
            d.offset_days,
            d.reason,
            now,
        ])?;
        *created.entry(d.kind.to_string()).or_insert(0) += n as i64;
    }
    Ok(created)
}

/// A row a days-before ladder of the daily scan reads: what falls due (a client's module, a
/// contract), its client, the day it falls due, its owner and its name.
pub struct Ahead {
    pub id: String,
    pub client_id: String,
    pub due_on: String,
    pub owner_id: Option<String>,
    pub name: String,
}

/// The rows `(id, client_id, date, owner_id, name)` of `sql`, whose dates lie from ?1 (`from`)
/// to ?2 (`to`).
fn ahead(conn: &Connection, sql: &str, from: NaiveDate, to: NaiveDate) -> Result<Vec<Ahead>, AppError> {
    let mut stmt = conn.prepare(sql)?;
    let mut rows = stmt.query(params![from.to_string(), to.to_string()])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(Ahead {
            id: r.get(0)?,
            client_id: r.get(1)?,
            due_on: r.get(2)?,
            owner_id: r.get(3)?,
            name: r.get(4)?,
        });
    }
    Ok(out)
}

/// The clients' modules whose renewal falls from `from` to `to`, with the module's name.
pub fn renewals_ahead(conn: &Connection, from: NaiveDate, to: NaiveDate) -> Result<Vec<Ahead>, AppError> {
    let sql = format!(
        "SELECT cm.id, cm.client_id, cm.next_renewal, c.owner_id, m.name
         FROM client_module cm JOIN client c ON c.id = cm.client_id JOIN module m ON m.id = cm.module_id
         WHERE {}",
        crate::renewals::store::MODULE_DUE
    );
    ahead(conn, &sql, from, to)
}

/// The contracts whose period ends from `from` to `to` without a live renewal invoice, with
/// their description.
pub fn contracts_ahead(conn: &Connection, from: NaiveDate, to: NaiveDate) -> Result<Vec<Ahead>, AppError> {
    let sql = format!(
        "SELECT sc.id, sc.client_id, sc.period_to, c.owner_id, sc.description
         FROM service_contract sc JOIN client c ON c.id = sc.client_id
         WHERE {}
           AND (sc.renewal_invoice_id IS NULL
                OR (SELECT status FROM document WHERE id = sc.renewal_invoice_id) = 'cancelled')",
        crate::renewals::store::CONTRACT_DUE
    );
    ahead(conn, &sql, from, to)
}

/// An invoice not yet settled that fell due, as the overdue ladder reads it.
pub struct Unsettled {
    pub id: String,
    pub client_id: String,
    pub due_on: Option<String>,
    pub created_by: Option<String>,
    pub doc_no: Option<String>,
    pub outstanding: i64,
}

/// The issued or sent invoices still owing something that fell due on `latest_due` or before.
pub fn unsettled_invoices(conn: &Connection, latest_due: NaiveDate) -> Result<Vec<Unsettled>, AppError> {
    // The receivable index: invoices not yet settled (migrations/V7).
    let due = crate::documents::rules::FALLS_DUE;
    let mut stmt = conn.prepare(&format!(
        "SELECT d.id, d.client_id, {due}, d.created_by, d.doc_no, d.outstanding
         FROM document d
         WHERE d.settled_on IS NULL AND d.type = 'INVOICE' AND d.status IN ('issued', 'sent')
           AND d.outstanding > 0 AND {due} <= ?1"
    ))?;
    let mut rows = stmt.query(params![latest_due.to_string()])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(Unsettled {
            id: r.get(0)?,
            client_id: r.get(1)?,
            due_on: r.get(2)?,
            created_by: r.get(3)?,
            doc_no: r.get(4)?,
            outstanding: r.get(5)?,
        });
    }
    Ok(out)
}

/// A sent quotation the follow-up ladder reads, with the moment it was first sent.
pub struct SentQuote {
    pub id: String,
    pub client_id: String,
    pub created_by: Option<String>,
    pub doc_no: Option<String>,
    pub first_sent_at: Option<String>,
}

/// The quotations to follow up.
pub fn quotes_to_follow(conn: &Connection) -> Result<Vec<SentQuote>, AppError> {
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
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(SentQuote {
            id: r.get(0)?,
            client_id: r.get(1)?,
            created_by: r.get(2)?,
            doc_no: r.get(3)?,
            first_sent_at: r.get(4)?,
        });
    }
    Ok(out)
}

/// An interaction's follow-up as the scan reads it.
pub struct FollowUp {
    pub id: String,
    pub client_id: String,
    pub follow_up_on: String,
    pub author_id: Option<String>,
    pub notes: String,
}

/// The interactions whose follow-up falls from `first` to `last`.
pub fn follow_ups_between(
    conn: &Connection,
    first: NaiveDate,
    last: NaiveDate,
) -> Result<Vec<FollowUp>, AppError> {
    let mut stmt = conn.prepare(
        "SELECT i.id, i.client_id, i.follow_up_on, i.author_id, i.notes
         FROM interaction i WHERE i.follow_up_on BETWEEN ?1 AND ?2",
    )?;
    let mut rows = stmt.query(params![first.to_string(), last.to_string()])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(FollowUp {
            id: r.get(0)?,
            client_id: r.get(1)?,
            follow_up_on: r.get(2)?,
            author_id: r.get(3)?,
            notes: r.get(4)?,
        });
    }
    Ok(out)
}
