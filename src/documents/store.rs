//! The SQL of documents: a document's row with its lines and timeline, the payments and credit
//! notes an invoice shows, legacy invoices, and what a client's invoices still owe. The shares
//! are in `shares_store`, the list in `lists_store`, the number series in `numbers_store`;
//! their functions are named here too, so callers keep their paths.

use crate::auth::session::AuthUser;
use crate::book;
use crate::documents::lists_store::FROM;
use crate::documents::pricing::{Priced, PricedLine, Totals};
use crate::documents::{rules, upi};
use crate::plumbing::clock;
use crate::plumbing::db::query::{Changes, insert_row, update_columns};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

pub use crate::documents::lists_store::{DocumentFilter, DocumentRow, list};
pub use crate::documents::numbers_store::{index_numbers, next_seq, numbers_held, seed_series};
pub use crate::documents::shares_store::{Share, document_of_token, insert_share, revoke_share, shares_of};

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Line {
    pub id: String,
    pub position: i64,
    #[serde(flatten)]
    pub priced: PricedLine,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Event {
    pub kind: String,
    pub at: String,
    pub user_id: Option<String>,
    pub reason: Option<String>,
}

/// A document as the API shows it.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Document {
    pub id: String,
    #[serde(rename = "type")]
    pub doc_type: String,
    pub status: String,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    pub doc_date: Option<String>,
    pub due_date: Option<String>,
    pub client_id: String,
    pub client_name: String,
    pub parent_id: Option<String>,
    /// The live (not cancelled) document made from this one, if any.
    pub child_id: Option<String>,
    pub source: String,
    pub created_by: Option<String>,
    pub notes: Option<String>,
    pub terms: Option<String>,
    #[serde(with = "crate::plumbing::flag")]
    #[schema(value_type = u8)]
    pub round_to_rupee: bool,
    /// true: CGST + SGST; false: IGST.
    #[serde(with = "crate::plumbing::flag")]
    #[schema(value_type = u8)]
    pub intra_state: bool,
    pub subtotal: i64,
    pub cgst: i64,
    pub sgst: i64,
    pub igst: i64,
    pub round_off: i64,
    pub total: i64,
    /// INVOICE only: total less allocated money and TDS and issued credit notes.
    pub outstanding: Option<i64>,
    /// INVOICE only: issued and nothing outstanding.
    #[serde(with = "crate::plumbing::flag::option")]
    #[schema(value_type = Option<u8>)]
    pub paid: Option<bool>,
    /// An issued invoice's unpaid, part_paid, paid or overdue (decisions 10); null otherwise.
    pub payment_state: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub lines: Vec<Line>,
    pub events: Vec<Event>,
    /// Its public links, tokens included: the one list a token appears in.
    pub shares: Vec<Share>,
    /// INVOICE only: the recorded (not cancelled) payments allocated to it, oldest first.
    pub payments: Vec<Settlement>,
    /// INVOICE only: the credit notes issued against it, oldest first, cancelled ones included.
    pub credit_notes: Vec<CreditNoteRef>,
    /// An issued invoice or live proforma that is owed, when the company has a UPI ID: the link
    /// that pays it (decisions 12); null otherwise.
    pub upi: Option<upi::Upi>,
}

impl Document {
    /// Whether its lines and totals are already `priced`, position by position.
    pub fn holds(&self, priced: &Priced) -> bool {
        let totals = Totals {
            subtotal: self.subtotal,
            cgst: self.cgst,
            sgst: self.sgst,
            igst: self.igst,
            round_off: self.round_off,
            total: self.total,
        };
        totals == priced.totals
            && self.lines.len() == priced.lines.len()
            && self.lines.iter().zip(&priced.lines).all(|(l, p)| l.priced == *p)
    }
}

/// A recorded payment's allocation to an invoice, as the invoice shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Settlement {
    pub payment_id: String,
    pub receipt_no: String,
    pub received_on: String,
    /// Money from the payment, paise.
    pub amount: i64,
    /// TDS the society deducted, paise.
    pub tds: i64,
}

/// A credit note against an invoice, as the invoice shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CreditNoteRef {
    pub id: String,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    pub doc_date: Option<String>,
    pub status: String,
    pub total: i64,
}

/// A document's own columns; what it owes is the kept `outstanding` (migrations/V7).
const HEAD: &str = "d.id, d.type, d.status, d.doc_no, d.doc_date, d.due_date, d.client_id, c.name, d.parent_id, \
         (SELECT k.id FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled' AND k.type <> 'CREDIT_NOTE' ORDER BY k.id DESC LIMIT 1), \
         d.source, d.created_by, d.notes, d.terms, d.round_to_rupee, d.intra_state, d.subtotal, d.cgst, d.sgst, d.igst, d.round_off, d.total, \
         d.outstanding, d.created_at, d.updated_at";

fn head(r: &Row<'_>) -> rusqlite::Result<Document> {
    let mut doc = Document {
        id: r.get(0)?,
        doc_type: r.get(1)?,
        status: r.get(2)?,
        doc_no: r.get(3)?,
        doc_date: r.get(4)?,
        due_date: r.get(5)?,
        client_id: r.get(6)?,
        client_name: r.get(7)?,
        parent_id: r.get(8)?,
        child_id: r.get(9)?,
        source: r.get(10)?,
        created_by: r.get(11)?,
        notes: r.get(12)?,
        terms: r.get(13)?,
        round_to_rupee: r.get(14)?,
        intra_state: r.get(15)?,
        subtotal: r.get(16)?,
        cgst: r.get(17)?,
        sgst: r.get(18)?,
        igst: r.get(19)?,
        round_off: r.get(20)?,
        total: r.get(21)?,
        outstanding: r.get(22)?,
        paid: None,
        payment_state: None,
        created_at: r.get(23)?,
        updated_at: r.get(24)?,
        lines: vec![],
        events: vec![],
        shares: vec![],
        payments: vec![],
        credit_notes: vec![],
        upi: None,
    };
    doc.paid = doc
        .outstanding
        .map(|o| o <= 0 && !matches!(doc.status.as_str(), "draft" | "cancelled"));
    Ok(doc)
}

/// The document `id` with its lines and events, if it exists and its client is in `book`
/// (None: every book).
pub fn get(conn: &Connection, id: &str, book: Option<&str>) -> Result<Option<Document>, AppError> {
    let doc = conn
        .prepare_cached(&format!(
            "SELECT {} FROM {FROM} WHERE d.id = ?1 AND {}",
            HEAD,
            book::client_is_in("d.client_id", "?2")
        ))?
        .query_row(params![id, book], head)
        .optional()?;
    let Some(mut doc) = doc else { return Ok(None) };
    doc.payment_state = rules::payment_state(
        &doc.doc_type,
        &doc.status,
        doc.total,
        doc.outstanding,
        doc.due_date.as_deref().or(doc.doc_date.as_deref()),
        settings::office_today(conn)?,
    )
    .map(str::to_string);
    let mut stmt = conn.prepare_cached(
        "SELECT id, position, module_id, description, sac, qty, unit_price, explicit_price, gst_rate, price_source, taxable, cgst, sgst, igst, total
         FROM document_line WHERE document_id = ?1 ORDER BY position",
    )?;
    doc.lines = stmt
        .query_map([id], |r| {
            Ok(Line {
                id: r.get(0)?,
                position: r.get(1)?,
                priced: PricedLine {
                    module_id: r.get(2)?,
                    description: r.get(3)?,
                    sac: r.get(4)?,
                    qty: r.get(5)?,
                    unit_price: r.get(6)?,
                    explicit_price: r.get(7)?,
                    gst_rate: r.get(8)?,
                    price_source: r.get(9)?,
                    taxable: r.get(10)?,
                    cgst: r.get(11)?,
                    sgst: r.get(12)?,
                    igst: r.get(13)?,
                    total: r.get(14)?,
                },
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut stmt = conn.prepare_cached(
        "SELECT kind, at, user_id, reason FROM document_event WHERE document_id = ?1 ORDER BY id",
    )?;
    doc.events = stmt
        .query_map([id], |r| {
            Ok(Event {
                kind: r.get(0)?,
                at: r.get(1)?,
                user_id: r.get(2)?,
                reason: r.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    doc.shares = shares_of(conn, id)?;
    if doc.doc_type == "INVOICE" {
        doc.payments = settlements_of(conn, id)?;
        doc.credit_notes = credit_notes_of(conn, id)?;
    }
    doc.upi = upi::of(
        conn,
        &upi::Bill {
            doc_type: &doc.doc_type,
            status: &doc.status,
            doc_no: doc.doc_no.as_deref(),
            client_id: &doc.client_id,
            total: doc.total,
            subtotal: doc.subtotal,
            outstanding: doc.outstanding,
            tds_booked: doc.payments.iter().map(|p| p.tds).sum(),
        },
    )?;
    Ok(Some(doc))
}

/// The recorded payments allocated to the invoice `id`, oldest first (a cancelled payment's
/// allocations are gone with its cancel).
pub fn settlements_of(conn: &Connection, id: &str) -> Result<Vec<Settlement>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.receipt_no, p.received_on, a.amount, a.tds
         FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
         WHERE a.document_id = ?1 AND p.status = 'recorded' ORDER BY p.received_on, a.id",
    )?;
    let rows = stmt
        .query_map([id], |r| {
            Ok(Settlement {
                payment_id: r.get(0)?,
                receipt_no: r.get(1)?,
                received_on: r.get(2)?,
                amount: r.get(3)?,
                tds: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The credit notes against the invoice `id`, oldest first.
pub fn credit_notes_of(conn: &Connection, id: &str) -> Result<Vec<CreditNoteRef>, AppError> {
    let mut stmt = conn.prepare_cached(
        // The unary `+` keeps SQLite on `document_parent`: on `document_date` (type=?) it would
        // walk every credit note of the office (6.7 ms against 0.01 ms on the large office).
        "SELECT id, doc_no, doc_date, status, total FROM document
         WHERE parent_id = ?1 AND +type = 'CREDIT_NOTE' ORDER BY id",
    )?;
    let rows = stmt
        .query_map([id], |r| {
            Ok(CreditNoteRef {
                id: r.get(0)?,
                doc_no: r.get(1)?,
                doc_date: r.get(2)?,
                status: r.get(3)?,
                total: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The status of the document `id`, if it exists.
pub fn status_of(conn: &Connection, id: &str) -> Result<Option<String>, AppError> {
    Ok(conn
        .prepare_cached("SELECT status FROM document WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?)
}

/// Inserts a document header; answers its id.
pub fn insert(tx: &Connection, fields: Changes) -> Result<String, AppError> {
    Ok(insert_row(tx, "document", fields)?)
}

pub fn update(tx: &Connection, id: &str, fields: Changes) -> Result<(), AppError> {
    update_columns(tx, "document", id, fields)?;
    Ok(())
}

fn totals_fields(t: &Totals) -> Changes {
    vec![
        ("subtotal", Value::Integer(t.subtotal)),
        ("cgst", Value::Integer(t.cgst)),
        ("sgst", Value::Integer(t.sgst)),
        ("igst", Value::Integer(t.igst)),
        ("round_off", Value::Integer(t.round_off)),
        ("total", Value::Integer(t.total)),
    ]
}

/// A new document of `fields` holding `priced`: its totals in the row itself, then its lines.
pub fn insert_priced(tx: &Connection, mut fields: Changes, priced: &Priced) -> Result<String, AppError> {
    fields.extend(totals_fields(&priced.totals));
    let id = insert(tx, fields)?;
    add_lines(tx, &id, priced)?;
    Ok(id)
}

/// Replaces a document's lines and totals with `priced`.
pub fn set_lines(tx: &Connection, document_id: &str, priced: &Priced) -> Result<(), AppError> {
    tx.prepare_cached("DELETE FROM document_line WHERE document_id = ?1")?
        .execute([document_id])?;
    add_lines(tx, document_id, priced)?;
    update(tx, document_id, totals_fields(&priced.totals))
}

fn add_lines(tx: &Connection, document_id: &str, priced: &Priced) -> Result<(), AppError> {
    for (position, l) in priced.lines.iter().enumerate() {
        insert_row(
            tx,
            "document_line",
            vec![
                ("document_id", Value::Text(document_id.into())),
                ("position", Value::Integer(position as i64)),
                ("module_id", l.module_id.clone().map_or(Value::Null, Value::Text)),
                ("description", Value::Text(l.description.clone())),
                ("sac", l.sac.clone().map_or(Value::Null, Value::Text)),
                ("qty", Value::Integer(l.qty)),
                ("unit_price", Value::Integer(l.unit_price)),
                (
                    "explicit_price",
                    l.explicit_price.map_or(Value::Null, Value::Integer),
                ),
                ("gst_rate", Value::Integer(l.gst_rate)),
                ("price_source", Value::Text(l.price_source.clone())),
                ("taxable", Value::Integer(l.taxable)),
                ("cgst", Value::Integer(l.cgst)),
                ("sgst", Value::Integer(l.sgst)),
                ("igst", Value::Integer(l.igst)),
                ("total", Value::Integer(l.total)),
            ],
        )?;
    }
    Ok(())
}

pub fn add_event(
    tx: &Connection,
    document_id: &str,
    kind: &str,
    user_id: Option<&str>,
    reason: Option<&str>,
) -> Result<(), AppError> {
    insert_row(
        tx,
        "document_event",
        vec![
            ("document_id", Value::Text(document_id.into())),
            ("kind", Value::Text(kind.into())),
            ("at", Value::Text(clock::now_timestamp())),
            ("user_id", user_id.map_or(Value::Null, |u| Value::Text(u.into()))),
            ("reason", reason.map_or(Value::Null, |r| Value::Text(r.into()))),
        ],
    )?;
    Ok(())
}

/// An invoice of the old system, recorded as it was issued there (V13).
pub struct LegacyInvoice<'a> {
    pub client_id: &'a str,
    pub doc_no: &'a str,
    pub doc_date: &'a str,
    /// Paise; what was paid on it before the move is `paid`.
    pub total: i64,
    pub paid: i64,
    pub intra_state: bool,
    pub created_by: &'a str,
}

/// Writes a legacy invoice: issued, source 'legacy', one line standing for its whole total
/// (no tax split, never re-priced), and an 'imported' event. Answers its id. Its settlement
/// figures are written with it, as V13's formula gives them (what was paid before the move
/// settles on its date), so the insert trigger leaves the row alone.
pub fn insert_legacy(tx: &Connection, inv: &LegacyInvoice<'_>) -> Result<String, AppError> {
    let id = crate::plumbing::db::ids::new_id();
    let now = clock::now_timestamp();
    let owed = inv.total - inv.paid;
    let settled_from = if inv.paid > 0 { inv.doc_date } else { "0000-00-00" };
    tx.prepare_cached(
        "INSERT INTO document (id, type, status, doc_no, doc_date, client_id, source, created_by, intra_state,
             subtotal, total, legacy_paid, outstanding, last_settlement_on, settled_on, created_at, updated_at)
         VALUES (?1, 'INVOICE', 'issued', ?2, ?3, ?4, 'legacy', ?5, ?6, ?7, ?7, ?8, ?9, ?10, ?11, ?12, ?12)",
    )?
    .execute(params![
        id,
        inv.doc_no,
        inv.doc_date,
        inv.client_id,
        inv.created_by,
        inv.intra_state,
        inv.total,
        inv.paid,
        owed,
        settled_from,
        (owed <= 0).then_some(settled_from),
        now
    ])?;
    tx.prepare_cached(
        "INSERT INTO document_line (id, document_id, position, description, qty, unit_price, gst_rate, price_source,
             taxable, cgst, sgst, igst, total, created_at, updated_at)
         VALUES (?1, ?2, 0, ?3, 1, ?4, 0, 'legacy', ?4, 0, 0, 0, ?4, ?5, ?5)",
    )?
    .execute(params![
        crate::plumbing::db::ids::new_id(),
        id,
        format!("Invoice {} of the old system (imported; amounts as it stood there)", inv.doc_no),
        inv.total,
        now
    ])?;
    add_event(tx, &id, "imported", Some(inv.created_by), None)?;
    Ok(id)
}

/// An issued, not cancelled invoice that still owes something.
#[derive(Debug, Clone)]
pub struct OwingInvoice {
    pub id: String,
    pub total: i64,
    pub outstanding: i64,
    /// `rules::FALLS_DUE`: the day after which it is overdue.
    pub falls_due: Option<String>,
    pub status: String,
}

/// The client's issued, not cancelled invoices with something outstanding (its few dozen
/// entries of the `document_client` index).
pub fn owing_invoices(conn: &Connection, client_id: &str) -> Result<Vec<OwingInvoice>, AppError> {
    let mut stmt = conn.prepare_cached(
        &format!(
            "SELECT id, total, outstanding, {}, status FROM document d
              WHERE client_id = ?1 AND type = 'INVOICE' AND status NOT IN ('draft', 'cancelled') AND outstanding > 0
              ORDER BY id",
            rules::FALLS_DUE
        ),
    )?;
    let rows = stmt
        .query_map([client_id], |r| {
            Ok(OwingInvoice {
                id: r.get(0)?,
                total: r.get(1)?,
                outstanding: r.get(2)?,
                falls_due: r.get(3)?,
                status: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The document, if its client is in the user's book.
pub fn visible_document(conn: &Connection, user: &AuthUser, id: &str) -> Result<Document, AppError> {
    get(conn, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("document"))
}

/// The number of the document `id` (None while it has none); an error when there is no such
/// document.
pub fn doc_no_of(conn: &Connection, id: &str) -> Result<Option<String>, AppError> {
    Ok(
        conn.query_row("SELECT doc_no FROM document WHERE id = ?1", [id], |r| {
            r.get::<_, Option<String>>(0)
        })?,
    )
}

/// Writes the notes of the document `id`.
pub fn set_notes(tx: &Connection, id: &str, notes: &str) -> Result<(), AppError> {
    tx.execute("UPDATE document SET notes = ?2 WHERE id = ?1", params![id, notes])?;
    Ok(())
}
