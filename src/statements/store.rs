//! The SQL of the statement of account: a client's dated entries and its invoices open on a date.
//!
//! What counts is what `document.outstanding` (migrations V7, V13) and `payments::store`'s
//! `held_sql` count, so that the closing at today is the client's outstanding less its advances:
//! issued, not cancelled invoices at their total; what a legacy invoice was paid before the move;
//! the issued credit notes of those invoices; every payment's money, the TDS its allocations
//! deducted and its refunds; and a cancelled payment reversed on its cancel date (its allocations
//! were removed when it was cancelled, so it has no TDS left to show).
//!
//! Both reads are driven by the client (`document_client`, `payment_client`, then
//! `document_parent`): the unary `+` keeps SQLite off `document_date`, which it would otherwise
//! pick and walk every invoice of the office up to the date (690 ms against 0.4 ms for the
//! society with the most invoices of the large office; docs/benchmark.md).

use crate::plumbing::error::AppError;
use crate::statements::rules::{Entry, Kind};
use chrono::NaiveDate;
use rusqlite::{Connection, params};
use serde::Serialize;
use std::sync::LazyLock;
use utoipa::ToSchema;

/// The entries of a statement dated up to `?2`, in no order, each with its client last; the
/// client is `{client}` (`= ?1` for one, `IS NOT NULL` for every client).
const ENTRIES: &str = "
    SELECT d.doc_date, 'invoice', d.id, NULL, d.doc_no, d.total AS debit, 0 AS credit, d.id, d.client_id AS client_id
      FROM document d
     WHERE d.client_id {client} AND +d.type = 'INVOICE' AND d.status NOT IN ('draft', 'cancelled') AND d.doc_date <= ?2
    UNION ALL
    SELECT d.doc_date, 'payment', d.id, NULL, d.doc_no || ' paid before the move', 0, d.legacy_paid, d.id, d.client_id
      FROM document d
     WHERE d.client_id {client} AND +d.type = 'INVOICE' AND d.status NOT IN ('draft', 'cancelled') AND d.doc_date <= ?2
       AND d.legacy_paid > 0
    UNION ALL
    SELECT n.doc_date, 'credit_note', n.id, NULL, n.doc_no || ' on ' || i.doc_no, 0, n.total, n.id, i.client_id
      FROM document i JOIN document n ON n.parent_id = i.id AND +n.type = 'CREDIT_NOTE'
     WHERE i.client_id {client} AND +i.type = 'INVOICE' AND i.status NOT IN ('draft', 'cancelled')
       AND n.status NOT IN ('draft', 'cancelled') AND +n.doc_date <= ?2
    UNION ALL
    SELECT p.received_on, 'payment', NULL, p.id, p.receipt_no, 0, p.amount, p.id, p.client_id FROM payment p
     WHERE p.client_id {client} AND p.received_on <= ?2
    UNION ALL
    SELECT p.received_on, 'tds', NULL, p.id, p.receipt_no, 0, SUM(a.tds), p.id, p.client_id
      FROM payment p JOIN payment_allocation a ON a.payment_id = p.id
     WHERE p.client_id {client} AND p.received_on <= ?2
     GROUP BY p.id HAVING SUM(a.tds) > 0
    UNION ALL
    SELECT r.refunded_on, 'refund', NULL, p.id, p.receipt_no, r.amount, 0, r.id, p.client_id
      FROM payment p JOIN payment_refund r ON r.payment_id = p.id
     WHERE p.client_id {client} AND r.refunded_on <= ?2
    UNION ALL
    SELECT p.cancelled_on, 'payment_cancelled', NULL, p.id, p.receipt_no, p.amount, 0, p.id, p.client_id
      FROM payment p
     WHERE p.client_id {client} AND p.status = 'cancelled' AND p.cancelled_on <= ?2";

static ONE_CLIENT: LazyLock<String> = LazyLock::new(|| ENTRIES.replace("{client}", "= ?1"));

/// What every client's statement closes at on `to` (the sum of its entries, as the ledger adds
/// them), for the clients whose closing is above zero, by name: (id, name, closing). One pass
/// over the office's entries rather than a statement per client.
pub fn owing_at(conn: &Connection, to: NaiveDate) -> Result<Vec<(String, String, i64)>, AppError> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT c.id, c.name, t.closing
               FROM (SELECT client_id, SUM(debit) - SUM(credit) AS closing
                       FROM ({entries})
                      GROUP BY client_id) t
               JOIN client c ON c.id = t.client_id
              WHERE t.closing > 0
              ORDER BY c.name COLLATE NOCASE, c.id",
            entries = ENTRIES.replace("{client}", "IS NOT NULL")
        )
    });
    let mut stmt = conn.prepare_cached(&SQL)?;
    let rows = stmt
        .query_map(params![Option::<String>::None, to.to_string()], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Every entry of the client `client_id` dated up to `to`, in no order.
pub fn entries(conn: &Connection, client_id: &str, to: NaiveDate) -> Result<Vec<Entry>, AppError> {
    let mut stmt = conn.prepare_cached(&ONE_CLIENT)?;
    let rows = stmt.query_map(params![client_id, to.to_string()], |r| {
        let kind: String = r.get(1)?;
        Ok((
            r.get::<_, String>(0)?,
            kind,
            Entry {
                date: NaiveDate::MIN,
                kind: Kind::Invoice,
                document_id: r.get(2)?,
                payment_id: r.get(3)?,
                reference: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
                debit: r.get(5)?,
                credit: r.get(6)?,
                order: r.get(7)?,
            },
        ))
    })?;
    let mut entries = Vec::new();
    for row in rows {
        let (date, kind, mut entry) = row?;
        entry.date = date
            .get(..10)
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| AppError::internal(format!("an entry dated {date:?}")))?;
        entry.kind = Kind::parse(&kind).ok_or_else(|| AppError::internal(kind))?;
        entries.push(entry);
    }
    Ok(entries)
}

/// An invoice that still owes something on the statement's last day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct OpenInvoice {
    pub document_id: String,
    #[serde(rename = "docNo")]
    pub doc_no: String,
    /// YYYY-MM-DD.
    pub doc_date: String,
    /// When it falls due: its due date, else its date.
    pub due_date: String,
    /// Paise it still owed on the statement's last day.
    pub outstanding: i64,
}

/// The client's invoices that still owed something on `on`, oldest first: their total less what
/// settled them by then (the formula of `document.outstanding`, with only the settlements dated
/// up to `on`). An invoice settled before `on` (`settled_on`) is not read at all.
pub fn open_invoices(
    conn: &Connection,
    client_id: &str,
    on: NaiveDate,
) -> Result<Vec<OpenInvoice>, AppError> {
    let due = crate::documents::rules::FALLS_DUE;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT id, doc_no, doc_date, falls_due, owed FROM (
           SELECT d.id, d.doc_no, d.doc_date, {due} AS falls_due,
                  d.total - d.legacy_paid
                  - (SELECT COALESCE(SUM(a.amount + a.tds), 0) FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                      WHERE a.document_id = d.id AND p.received_on <= ?2)
                  - (SELECT COALESCE(SUM(n.total), 0) FROM document n
                      WHERE n.parent_id = d.id AND ++n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft')
                        AND +n.doc_date <= ?2) AS owed
             FROM document d
            WHERE d.client_id = ?1 AND +d.type = 'INVOICE' AND d.status NOT IN ('draft', 'cancelled')
              AND d.doc_date <= ?2 AND (d.settled_on IS NULL OR d.settled_on > ?2))
          WHERE owed > 0 ORDER BY doc_date, id"
    ))?;
    let rows = stmt
        .query_map(params![client_id, on.to_string()], |r| {
            Ok(OpenInvoice {
                document_id: r.get(0)?,
                doc_no: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                doc_date: r.get(2)?,
                due_date: r.get(3)?,
                outstanding: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Whether the statement of `client_id` for `from`..`to` was sent to `email` since `since` (a
/// UTC timestamp): its audit row (`statement_emailed`, status sent) says so.
pub fn sent_since(
    conn: &Connection,
    client_id: &str,
    (from, to): (&str, &str),
    email: &str,
    since: &str,
) -> Result<bool, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM audit
              WHERE entity = 'client' AND entity_id = ?1 AND action = 'statement_emailed' AND at >= ?2
                AND json_extract(after, '$.status') = 'sent' AND json_extract(after, '$.from') = ?3
                AND json_extract(after, '$.to') = ?4 AND json_extract(after, '$.email') = ?5)",
        )?
        .query_row(params![client_id, since, from, to, email], |r| r.get(0))?)
}
