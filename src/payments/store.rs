//! The SQL of payments: the payment with its allocations, the list, and what an allocation
//! may settle.

use crate::auth::session::AuthUser;
use crate::book;
use crate::payments::rules::{Claim, Target};
use crate::plumbing::db::query::{Changes, Filter, ListQuery, Listing, insert_row};
use crate::plumbing::error::AppError;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Allocation {
    pub id: String,
    pub document_id: String,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    pub amount: i64,
    pub tds: i64,
    pub created_at: String,
}

/// Money given back from what a payment held as an advance.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Refund {
    pub id: String,
    pub amount: i64,
    pub refunded_on: String,
    pub reason: String,
    pub created_by: Option<String>,
    pub created_at: String,
}

/// A payment as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Payment {
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    pub received_on: String,
    pub amount: i64,
    pub mode: String,
    pub reference: Option<String>,
    pub notes: Option<String>,
    pub receipt_no: String,
    /// recorded or cancelled.
    pub status: String,
    /// Why it was cancelled, and when (office day) and by whom.
    pub cancel_reason: Option<String>,
    pub cancelled_on: Option<String>,
    pub cancelled_by: Option<String>,
    /// Money neither allocated nor refunded: an advance held for the client (0 once cancelled).
    pub unallocated: i64,
    /// Money given back from the advance.
    pub refunded: i64,
    /// TDS noted on the allocations.
    pub tds: i64,
    pub created_by: Option<String>,
    pub created_at: String,
    pub allocations: Vec<Allocation>,
    pub refunds: Vec<Refund>,
}

/// What the payment `p` still holds as an advance: its amount less what is allocated and
/// refunded, 0 once cancelled. The one spelling of it, for a payment and a client's total.
macro_rules! held_sql {
    () => {
        "CASE WHEN p.status = 'cancelled' THEN 0 ELSE p.amount \
          - (SELECT COALESCE(SUM(a.amount), 0) FROM payment_allocation a WHERE a.payment_id = p.id) \
          - (SELECT COALESCE(SUM(r.amount), 0) FROM payment_refund r WHERE r.payment_id = p.id) END"
    };
}

const COLUMNS: &str = concat!(
    "p.id, p.client_id, c.name, p.received_on, p.amount, p.mode, p.reference, p.notes, p.receipt_no, ",
    held_sql!(),
    ", (SELECT COALESCE(SUM(a.tds), 0) FROM payment_allocation a WHERE a.payment_id = p.id), p.created_by, p.created_at, \
    p.status, p.cancel_reason, p.cancelled_on, p.cancelled_by, \
    (SELECT COALESCE(SUM(r.amount), 0) FROM payment_refund r WHERE r.payment_id = p.id)"
);
const FROM: &str = "payment p JOIN client c ON c.id = p.client_id";

fn payment(r: &Row<'_>) -> rusqlite::Result<Payment> {
    Ok(Payment {
        id: r.get(0)?,
        client_id: r.get(1)?,
        client_name: r.get(2)?,
        received_on: r.get(3)?,
        amount: r.get(4)?,
        mode: r.get(5)?,
        reference: r.get(6)?,
        notes: r.get(7)?,
        receipt_no: r.get(8)?,
        unallocated: r.get(9)?,
        tds: r.get(10)?,
        created_by: r.get(11)?,
        created_at: r.get(12)?,
        status: r.get(13)?,
        cancel_reason: r.get(14)?,
        cancelled_on: r.get(15)?,
        cancelled_by: r.get(16)?,
        refunded: r.get(17)?,
        allocations: vec![],
        refunds: vec![],
    })
}

/// The payment `id` with its allocations, if it exists and is in `book` (None: every book).
pub fn get(conn: &Connection, id: &str, book: Option<&str>) -> Result<Option<Payment>, AppError> {
    let found = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM {FROM} WHERE p.id = ?1 AND {}",
            book::client_is_in("p.client_id", "?2")
        ))?
        .query_row(params![id, book], payment)
        .optional()?;
    let Some(mut p) = found else { return Ok(None) };
    let mut stmt = conn.prepare_cached(
        "SELECT a.id, a.document_id, d.doc_no, a.amount, a.tds, a.created_at
         FROM payment_allocation a JOIN document d ON d.id = a.document_id WHERE a.payment_id = ?1 ORDER BY a.id",
    )?;
    p.allocations = stmt
        .query_map([id], |r| {
            Ok(Allocation {
                id: r.get(0)?,
                document_id: r.get(1)?,
                doc_no: r.get(2)?,
                amount: r.get(3)?,
                tds: r.get(4)?,
                created_at: r.get(5)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    p.refunds = conn
        .prepare_cached(
            "SELECT id, amount, refunded_on, reason, created_by, created_at FROM payment_refund
             WHERE payment_id = ?1 ORDER BY id",
        )?
        .query_map([id], |r| {
            Ok(Refund {
                id: r.get(0)?,
                amount: r.get(1)?,
                refunded_on: r.get(2)?,
                reason: r.get(3)?,
                created_by: r.get(4)?,
                created_at: r.get(5)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(p))
}

/// The advance the client's recorded payments still hold (paise): what the payments list
/// shows as `unallocated`, summed.
pub fn advance_held(conn: &Connection, client_id: &str) -> Result<i64, AppError> {
    let held = conn
        .prepare_cached(concat!(
            "SELECT COALESCE(SUM(",
            held_sql!(),
            "), 0) FROM payment p WHERE p.client_id = ?1 AND p.status <> 'cancelled'"
        ))?
        .query_row([client_id], |r| r.get(0))?;
    Ok(held)
}

#[derive(Default)]
pub struct PaymentFilter {
    pub client_id: Option<String>,
    pub mode: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    /// A staff user's book (`crate::book`); None: every book.
    pub book: Option<String>,
    /// Part of the receipt number, reference or client name.
    pub q: Option<String>,
    /// recorded or cancelled.
    pub status: Option<String>,
}

/// What the payment list may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("receipt_no", "p.receipt_no"),
    ("received_on", "p.received_on"),
    ("client_name", "c.name COLLATE NOCASE"),
    ("mode", "p.mode"),
    ("reference", "p.reference"),
    ("amount", "p.amount"),
    ("status", "p.status"),
];

/// Payments, newest first: a page with an honest total, or every row for the CSV twin.
pub fn list(filter: PaymentFilter) -> Listing<Payment> {
    let mut f = Filter::default();
    f.eq("p.client_id", filter.client_id)
        .eq("p.mode", filter.mode)
        .eq("p.status", filter.status);
    book::narrow(&mut f, "p.client_id", filter.book);
    if let Some(from) = filter.from {
        f.and("p.received_on >= ?", [Value::Text(from)]);
    }
    if let Some(to) = filter.to {
        f.and("p.received_on <= ?", [Value::Text(to)]);
    }
    if let Some(q) = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        let p = crate::plumbing::db::query::like_contains(q);
        f.and(
            "p.receipt_no LIKE ? ESCAPE '\\' OR p.reference LIKE ? ESCAPE '\\' OR c.name LIKE ? ESCAPE '\\'",
            [p.clone(), p.clone(), p],
        );
    }
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: FROM,
        order_by: "p.id DESC",
        id_column: "p.id",
        sorts: SORTS,
    };
    Listing::new(query, f, payment)
}

/// What a claim names, as the rules need it; None when the document is missing or outside `book`.
pub fn target(conn: &Connection, document_id: &str, book: Option<&str>) -> Result<Option<Target>, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT d.client_id, d.type, d.status, d.doc_no, COALESCE(d.outstanding, 0) FROM document d
             WHERE d.id = ?1 AND {}",
            book::client_is_in("d.client_id", "?2")
        ))?
        .query_row(params![document_id, book], |r| {
            Ok(Target {
                client_id: r.get(0)?,
                doc_type: r.get(1)?,
                status: r.get(2)?,
                doc_no: r.get(3)?,
                outstanding: r.get(4)?,
            })
        })
        .optional()?)
}

pub fn insert(tx: &Connection, fields: Changes) -> Result<String, AppError> {
    Ok(insert_row(tx, "payment", fields)?)
}

pub fn allocate(tx: &Connection, payment_id: &str, claim: &Claim, user_id: &str) -> Result<String, AppError> {
    Ok(insert_row(
        tx,
        "payment_allocation",
        vec![
            ("payment_id", Value::Text(payment_id.into())),
            ("document_id", Value::Text(claim.document_id.clone())),
            ("amount", Value::Integer(claim.amount)),
            ("tds", Value::Integer(claim.tds)),
            ("created_by", Value::Text(user_id.into())),
        ],
    )?)
}

/// Marks the payment cancelled and removes its allocations (the settlement triggers give the
/// invoices their outstanding back).
pub fn cancel(tx: &Connection, id: &str, reason: &str, on: &str, user_id: &str) -> Result<(), AppError> {
    tx.prepare_cached(
        "UPDATE payment SET status = 'cancelled', cancel_reason = ?2, cancelled_on = ?3, cancelled_by = ?4,
                updated_at = ?5 WHERE id = ?1",
    )?
    .execute(params![
        id,
        reason,
        on,
        user_id,
        crate::plumbing::clock::now_timestamp()
    ])?;
    tx.prepare_cached("DELETE FROM payment_allocation WHERE payment_id = ?1")?
        .execute([id])?;
    Ok(())
}

/// Removes every allocation of the payment `payment_id` to the document `document_id` (the
/// settlement triggers give the invoice its outstanding back); answers how many.
pub fn unallocate(tx: &Connection, payment_id: &str, document_id: &str) -> Result<usize, AppError> {
    Ok(tx
        .prepare_cached("DELETE FROM payment_allocation WHERE payment_id = ?1 AND document_id = ?2")?
        .execute([payment_id, document_id])?)
}

pub fn refund(
    tx: &Connection,
    payment_id: &str,
    amount: i64,
    on: &str,
    reason: &str,
    user_id: &str,
) -> Result<String, AppError> {
    Ok(insert_row(
        tx,
        "payment_refund",
        vec![
            ("payment_id", Value::Text(payment_id.into())),
            ("amount", Value::Integer(amount)),
            ("refunded_on", Value::Text(on.into())),
            ("reason", Value::Text(reason.into())),
            ("created_by", Value::Text(user_id.into())),
        ],
    )?)
}

/// The payment, if its client is in the user's book.
pub fn visible_payment(conn: &Connection, user: &AuthUser, id: &str) -> Result<Payment, AppError> {
    get(conn, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("payment"))
}

/// The date of the document `document_id` a payment settled (None while it has none).
pub fn doc_date_of(conn: &Connection, document_id: &str) -> Result<Option<String>, AppError> {
    Ok(conn.query_row(
        "SELECT doc_date FROM document WHERE id = ?1",
        [document_id],
        |r| r.get(0),
    )?)
}
