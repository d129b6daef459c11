//! The SQL of the global search. Each function answers at most `rules::LOOKED_FOR` hits of one
//! kind, in the caller's book, and reads no more of the office than it must to find them: names
//! and numbers through their suffix tables (migrations/V7: "contains q" is one key range), the
//! other client fields and ticket subjects by a plain `LIKE`. docs/api/search.md has the measurements.

use crate::book;
use crate::documents::rules as document_rules;
use crate::plumbing::db::query::{like_contains, starts_with, trigram_contains};
use crate::plumbing::error::AppError;
use crate::search::rules::{self, LOOKED_FOR, ReceiptSearch};
use crate::tickets::rules::STILL_OPEN_SQL;
use chrono::NaiveDate;
use rusqlite::types::Value;
use rusqlite::{Connection, Row, params_from_iter};
use serde::Serialize;
use utoipa::ToSchema;

/// A client found by its name, GSTIN, district or remote access id.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ClientHit {
    /// The client (`/clients/{id}` in the console).
    pub id: String,
    /// Its name.
    pub label: String,
    /// District, GSTIN, remote access id, and the status unless active.
    pub detail: String,
    /// name, gstin, district, remote_access_id, phone (the client's own) or contact_phone:
    /// where the text was found.
    pub matched: &'static str,
    pub status: String,
    pub district: Option<String>,
    pub gstin: Option<String>,
    pub remote_access_id: Option<String>,
}

/// An issued (never a draft) document found by its number or its client's name.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DocumentHit {
    /// The document (`/documents/{id}`).
    pub id: String,
    /// Its number.
    pub label: String,
    /// Type, client, date and status.
    pub detail: String,
    /// number or client_name: what the text was found in.
    pub matched: &'static str,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    /// QUOTATION, PROFORMA, INVOICE or CREDIT_NOTE.
    #[serde(rename = "type")]
    pub doc_type: String,
    /// issued, sent, accepted, lost, invoiced or cancelled.
    pub status: String,
    /// An issued invoice's unpaid, part_paid, paid or overdue (decisions 10); null otherwise.
    pub payment_state: Option<&'static str>,
    #[schema(format = Date)]
    pub doc_date: Option<String>,
    /// Paise.
    pub total: i64,
    pub client_id: String,
    pub client_name: String,
}

/// A support ticket found by its subject.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TicketHit {
    /// The ticket (`/tickets/{id}`).
    pub id: String,
    /// Its subject.
    pub label: String,
    /// Client, status and the day it was opened.
    pub detail: String,
    pub status: String,
    #[schema(format = Date)]
    pub opened_on: String,
    pub client_id: String,
    pub client_name: String,
}

/// `clause` (a book.rs condition written with `?`) and its values: `book` once per `?`.
fn in_book(clause: String, book: Option<&str>) -> (String, Vec<Value>) {
    let value = book.map_or(Value::Null, |b| Value::Text(b.to_string()));
    let values = vec![value; clause.matches('?').count()];
    (clause, values)
}

/// Clients whose name, GSTIN, district or remote access id contains `q`, by name. The name
/// through its suffix table; the other three by `LIKE` as the walk in name order meets them.
pub fn clients(conn: &Connection, q: &str, book: Option<&str>) -> Result<Vec<ClientHit>, AppError> {
    let (range, mut values) = starts_with("suffix", q);
    let (owned, owner_values) = in_book(book::owner_is("c", "?"), book);
    let pattern = like_contains(q);
    values.extend([pattern.clone(), pattern.clone(), pattern]);
    values.extend(owner_values);
    values.push(Value::Integer(LOOKED_FOR as i64));
    let sql = format!(
        "SELECT c.id, c.name, c.district, c.gstin, c.remote_access_id, c.status FROM client c
         WHERE (c.id IN (SELECT client_id FROM client_name_search WHERE {range})
                OR c.gstin LIKE ? ESCAPE '\\' OR c.district LIKE ? ESCAPE '\\' OR c.remote_access_id LIKE ? ESCAPE '\\')
           AND {owned}
         ORDER BY c.name COLLATE NOCASE, c.id LIMIT ?"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let hits = stmt
        .query_map(params_from_iter(values.iter()), |r| {
            let name: String = r.get(1)?;
            let district: Option<String> = r.get(2)?;
            let gstin: Option<String> = r.get(3)?;
            let remote_access_id: Option<String> = r.get(4)?;
            let status: String = r.get(5)?;
            Ok(ClientHit {
                id: r.get(0)?,
                detail: rules::client_detail(
                    district.as_deref(),
                    gstin.as_deref(),
                    remote_access_id.as_deref(),
                    &status,
                ),
                matched: rules::client_field(
                    q,
                    &name,
                    gstin.as_deref(),
                    district.as_deref(),
                    remote_access_id.as_deref(),
                ),
                label: name,
                status,
                district,
                gstin,
                remote_access_id,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(hits)
}

/// A document hit's columns ([`document_hit`] reads them).
fn document_columns() -> String {
    format!(
        "d.id, d.type, d.status, d.doc_no, d.doc_date, d.total, d.client_id, c.name, d.outstanding, {}",
        crate::documents::rules::FALLS_DUE
    )
}

fn document_hit(r: &Row<'_>, matched: &'static str, today: NaiveDate) -> rusqlite::Result<DocumentHit> {
    let doc_type: String = r.get(1)?;
    let status: String = r.get(2)?;
    let doc_no: Option<String> = r.get(3)?;
    let doc_date: Option<String> = r.get(4)?;
    let total: i64 = r.get(5)?;
    let client_name: String = r.get(7)?;
    let falls_due: Option<String> = r.get(9)?;
    let payment_state =
        document_rules::payment_state(&doc_type, &status, total, r.get(8)?, falls_due.as_deref(), today);
    Ok(DocumentHit {
        id: r.get(0)?,
        label: doc_no.clone().unwrap_or_default(),
        detail: rules::document_detail(&doc_type, &client_name, doc_date.as_deref(), &status),
        matched,
        doc_no,
        doc_type,
        status,
        payment_state,
        doc_date,
        total,
        client_id: r.get(6)?,
        client_name,
    })
}

/// Issued documents whose number contains `q`: first those whose number ends with it (the
/// whole number typed is one of them), newest first; then those where more follows it, in the
/// order of what follows (`INV/25-26-00` lists `INV/25-26-0001`, `0002`, …). Both walk one
/// range of the number suffixes in key order and stop at the sixth hit.
pub fn documents_by_number(
    conn: &Connection,
    q: &str,
    book: Option<&str>,
    today: NaiveDate,
) -> Result<Vec<DocumentHit>, AppError> {
    let low = q.to_ascii_lowercase();
    let (owned, owner_values) = in_book(book::client_is_in("d.client_id", "?"), book);
    let from =
        "document_no_search s JOIN document d ON d.id = s.document_id JOIN client c ON c.id = d.client_id";
    let mut hits: Vec<DocumentHit> = vec![];
    let mut values = vec![Value::Text(low.clone())];
    values.extend(owner_values.iter().cloned());
    values.push(Value::Integer(LOOKED_FOR as i64));
    let columns = document_columns();
    let mut ending = conn.prepare_cached(&format!(
        "SELECT {columns} FROM {from}
         WHERE s.suffix = ? AND d.status <> 'draft' AND {owned} ORDER BY s.document_id DESC LIMIT ?"
    ))?;
    let mut rows = ending.query(params_from_iter(values.iter()))?;
    while let Some(r) = rows.next()? {
        hits.push(document_hit(r, "number", today)?);
    }
    if hits.len() >= LOOKED_FOR {
        return Ok(hits);
    }
    let (range, mut values) = starts_with("s.suffix", q);
    values.push(Value::Text(low));
    values.extend(owner_values);
    let mut following = conn.prepare_cached(&format!(
        "SELECT {columns} FROM {from}
         WHERE {range} AND s.suffix > ? AND d.status <> 'draft' AND {owned} ORDER BY s.suffix, s.document_id"
    ))?;
    // A number may hold the text twice (`25` in INV/25-26-0025): each document counts once.
    let mut rows = following.query(params_from_iter(values.iter()))?;
    while hits.len() < LOOKED_FOR {
        let Some(r) = rows.next()? else { break };
        let id: String = r.get(0)?;
        if !hits.iter().any(|h| h.id == id) {
            hits.push(document_hit(r, "number", today)?);
        }
    }
    Ok(hits)
}

/// The first `limit` clients (in the order of what follows the text in their names) whose name
/// contains `q`, in the book; and whether there are more.
pub fn clients_named(
    conn: &Connection,
    q: &str,
    book: Option<&str>,
    limit: usize,
) -> Result<(Vec<String>, bool), AppError> {
    let (range, mut values) = starts_with("s.suffix", q);
    let (owned, owner_values) = in_book(book::client_is_in("s.client_id", "?"), book);
    values.extend(owner_values);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT s.client_id FROM client_name_search s WHERE {range} AND {owned} ORDER BY s.suffix, s.client_id"
    ))?;
    let mut rows = stmt.query(params_from_iter(values.iter()))?;
    let mut ids: Vec<String> = vec![];
    while let Some(r) = rows.next()? {
        let id: String = r.get(0)?;
        if ids.contains(&id) {
            continue;
        }
        if ids.len() == limit {
            return Ok((ids, true));
        }
        ids.push(id);
    }
    Ok((ids, false))
}

/// Whether a client whose name contains `q`, in the book and not among `except`, has an issued
/// document.
pub fn more_documents_named(
    conn: &Connection,
    q: &str,
    book: Option<&str>,
    except: &[String],
) -> Result<bool, AppError> {
    let (range, mut values) = starts_with("s.suffix", q);
    let (owned, owner_values) = in_book(book::client_is_in("s.client_id", "?"), book);
    values.push(Value::Text(serde_json::to_string(except)?));
    values.extend(owner_values);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT EXISTS (SELECT 1 FROM client_name_search s JOIN document d ON d.client_id = s.client_id
          WHERE {range} AND s.client_id NOT IN (SELECT value FROM json_each(?)) AND {owned} AND d.status <> 'draft')"
    ))?;
    Ok(stmt.query_row(params_from_iter(values.iter()), |r| r.get(0))?)
}

/// The newest issued documents of `clients`.
pub fn documents_of(
    conn: &Connection,
    clients: &[String],
    today: NaiveDate,
) -> Result<Vec<DocumentHit>, AppError> {
    let columns = document_columns();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {columns} FROM document d JOIN client c ON c.id = d.client_id
         WHERE d.client_id IN (SELECT value FROM json_each(?1)) AND d.status <> 'draft'
         ORDER BY d.id DESC LIMIT ?2"
    ))?;
    let hits = stmt
        .query_map(
            rusqlite::params![serde_json::to_string(clients)?, LOOKED_FOR as i64],
            |r| document_hit(r, "client_name", today),
        )?
        .collect::<Result<_, _>>()?;
    Ok(hits)
}

/// How many rows an index of the text may find before a search reads them in its own order
/// instead: a text that many rows hold is met within the first few rows of that order.
const FOUND_FIRST: usize = 400;

/// The rowids of the tickets whose subject holds `q`, from their trigram index
/// (migrations/V28), when the text has a trigram and at most [`FOUND_FIRST`] subjects hold it.
fn tickets_found(conn: &Connection, q: &str) -> Result<Option<Vec<i64>>, AppError> {
    let Some(phrase) = trigram_contains("{subject}", q) else {
        return Ok(None);
    };
    let mut stmt =
        conn.prepare_cached("SELECT rowid FROM ticket_text WHERE ticket_text MATCH ?1 LIMIT ?2")?;
    let rowids: Vec<i64> = stmt
        .query_map(rusqlite::params![phrase, FOUND_FIRST as i64 + 1], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok((rowids.len() <= FOUND_FIRST).then_some(rowids))
}

/// Tickets in the staff user's share whose subject contains `q`: those still open first, then
/// the others, each newest first. Text that few subjects hold is found through the subjects'
/// trigram index and its tickets sorted; otherwise the still-open ones are found through their
/// partial index (a few hundred), and the others, read only when fewer than six are still
/// open, by one pass over the covering index newest first, which meets a common word early.
pub fn tickets(conn: &Connection, q: &str, book: Option<&str>) -> Result<Vec<TicketHit>, AppError> {
    let (shared, share_values) = in_book(book::ticket_is_in("t", "?"), book);
    let pattern = like_contains(q);
    let select = |condition: &str| {
        format!(
            "SELECT t.id, t.subject, t.status, t.opened_on, t.client_id, c.name
             FROM ticket t JOIN client c ON c.id = t.client_id
             WHERE {condition} AND {shared} ORDER BY t.opened_on DESC, t.id DESC LIMIT ?"
        )
    };
    let hit = |r: &Row<'_>| -> rusqlite::Result<TicketHit> {
        let status: String = r.get(2)?;
        let opened_on: String = r.get(3)?;
        let client_name: String = r.get(5)?;
        Ok(TicketHit {
            id: r.get(0)?,
            label: r.get(1)?,
            detail: rules::ticket_detail(&client_name, &status, &opened_on),
            status,
            opened_on,
            client_id: r.get(4)?,
            client_name,
        })
    };
    if let Some(rowids) = tickets_found(conn, q)? {
        let mut values = vec![Value::Text(serde_json::to_string(&rowids)?)];
        values.extend(share_values.iter().cloned());
        values.push(Value::Integer(LOOKED_FOR as i64));
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT t.id, t.subject, t.status, t.opened_on, t.client_id, c.name
             FROM ticket t JOIN client c ON c.id = t.client_id
             WHERE t.rowid IN (SELECT value FROM json_each(?)) AND {shared}
             ORDER BY NOT {STILL_OPEN_SQL}, t.opened_on DESC, t.id DESC LIMIT ?"
        ))?;
        let hits = stmt
            .query_map(params_from_iter(values.iter()), hit)?
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(hits);
    }
    let run = |sql: String, limit: usize| -> Result<Vec<TicketHit>, AppError> {
        let mut values = vec![pattern.clone()];
        values.extend(share_values.iter().cloned());
        values.push(Value::Integer(limit as i64));
        let mut stmt = conn.prepare_cached(&sql)?;
        let hits = stmt
            .query_map(params_from_iter(values.iter()), hit)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(hits)
    };
    let mut hits = run(
        select(&format!("t.subject LIKE ? ESCAPE '\\' AND {STILL_OPEN_SQL}")),
        LOOKED_FOR,
    )?;
    if hits.len() < LOOKED_FOR {
        let rest = run(
            select(&format!("t.subject LIKE ? ESCAPE '\\' AND NOT {STILL_OPEN_SQL}")),
            LOOKED_FOR - hits.len(),
        )?;
        hits.extend(rest);
    }
    Ok(hits)
}

/// Clients in the book whose own phone, or a contact's, holds `digits` as
/// `rules::phone_digits` compares them, by name (own phone before a contact's for one client).
/// The phones that may hold them are one range of the phones' digit suffixes
/// (migrations/V28), narrowed again by `LIKE` with the digits in order; the Rust rule decides.
/// Only text that is a phone number (`rules::phone_query`) asks.
pub fn clients_by_phone(
    conn: &Connection,
    digits: &str,
    book: Option<&str>,
) -> Result<Vec<ClientHit>, AppError> {
    let pattern = Value::Text(rules::phone_pattern(digits));
    let (range, range_values) = starts_with("s.suffix", digits);
    let (owned, owner_values) = in_book(book::owner_is("c", "?"), book);
    let mut values = range_values.clone();
    values.push(pattern.clone());
    values.extend(owner_values.iter().cloned());
    values.extend(range_values);
    values.push(pattern);
    values.extend(owner_values);
    let sql = format!(
        "SELECT c.id, c.name, c.district, c.gstin, c.remote_access_id, c.status, c.phone, NULL, 0 FROM client c
         WHERE c.id IN (SELECT s.client_id FROM phone_search s WHERE {range} AND s.contact_id = '')
           AND c.phone LIKE ? AND {owned}
         UNION ALL
         SELECT c.id, c.name, c.district, c.gstin, c.remote_access_id, c.status, k.phone, k.name, 1
         FROM contact k JOIN client c ON c.id = k.client_id
         WHERE k.id IN (SELECT s.contact_id FROM phone_search s WHERE {range} AND s.contact_id <> '')
           AND k.phone LIKE ? AND {owned}
         ORDER BY 2 COLLATE NOCASE, 1, 9"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query(params_from_iter(values.iter()))?;
    let mut hits: Vec<ClientHit> = vec![];
    while let Some(r) = rows.next()? {
        let id: String = r.get(0)?;
        let phone: String = r.get(6)?;
        if hits.iter().any(|h| h.id == id) || !rules::phone_digits(&phone).contains(digits) {
            continue;
        }
        let district: Option<String> = r.get(2)?;
        let gstin: Option<String> = r.get(3)?;
        let remote_access_id: Option<String> = r.get(4)?;
        let status: String = r.get(5)?;
        let contact: Option<String> = r.get(7)?;
        let detail = rules::client_detail(
            district.as_deref(),
            gstin.as_deref(),
            remote_access_id.as_deref(),
            &status,
        );
        hits.push(ClientHit {
            id,
            label: r.get(1)?,
            detail: rules::phone_detail(&detail, &phone, contact.as_deref()),
            matched: if contact.is_some() {
                "contact_phone"
            } else {
                "phone"
            },
            status,
            district,
            gstin,
            remote_access_id,
        });
        if hits.len() == LOOKED_FOR {
            break;
        }
    }
    Ok(hits)
}

/// A payment found by its receipt number.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PaymentHit {
    /// The payment (`/payments/{id}`).
    pub id: String,
    /// Its receipt number.
    pub label: String,
    /// Client, the day received, and the status unless recorded.
    pub detail: String,
    pub receipt_no: String,
    pub client_id: String,
    pub client_name: String,
    #[schema(format = Date)]
    pub received_on: String,
    /// Paise.
    pub amount: i64,
    /// recorded or cancelled.
    pub status: String,
}

/// The payments whose receipt number contains `q`, from the numbers' suffixes
/// (migrations/V28: one key range), when at most [`FOUND_FIRST`] suffixes start with it.
fn payments_found(conn: &Connection, q: &str) -> Result<Option<Vec<String>>, AppError> {
    let (range, mut values) = starts_with("suffix", q);
    values.push(Value::Integer(FOUND_FIRST as i64 + 1));
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT payment_id FROM payment_no_search WHERE {range} LIMIT ?"
    ))?;
    let ids: Vec<String> = stmt
        .query_map(params_from_iter(values.iter()), |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok((ids.len() <= FOUND_FIRST).then_some(ids))
}

/// Payments in the book whose receipt number holds `q` (`rules::receipt_search`), the highest
/// number first (the newest of a year's series). A start of a number walks one range of the
/// unique index on `receipt_no` backwards; a part of one that few numbers hold is found
/// through their suffixes and sorted, and one that many hold walks that whole index backwards
/// (meeting it early); both walks stop at the sixth hit.
pub fn payments(conn: &Connection, q: &str, book: Option<&str>) -> Result<Vec<PaymentHit>, AppError> {
    let (owned, owner_values) = in_book(book::client_is_in("p.client_id", "?"), book);
    let (condition, mut values) = match rules::receipt_search(q) {
        ReceiptSearch::None => return Ok(vec![]),
        ReceiptSearch::StartingWith(start) => {
            let (range, values) = starts_with("p.receipt_no", &start);
            // `starts_with` lower-cases; receipt numbers are stored upper-case.
            let values = values
                .into_iter()
                .map(|v| match v {
                    Value::Text(t) => Value::Text(t.to_ascii_uppercase()),
                    other => other,
                })
                .collect::<Vec<_>>();
            (range, values)
        }
        ReceiptSearch::Containing => match payments_found(conn, q)? {
            Some(ids) => (
                "p.id IN (SELECT value FROM json_each(?))".to_string(),
                vec![Value::Text(serde_json::to_string(&ids)?)],
            ),
            None => (
                "p.receipt_no LIKE ? ESCAPE '\\'".to_string(),
                vec![like_contains(q)],
            ),
        },
    };
    values.extend(owner_values);
    values.push(Value::Integer(LOOKED_FOR as i64));
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT p.id, p.receipt_no, p.client_id, c.name, p.received_on, p.amount, p.status
         FROM payment p JOIN client c ON c.id = p.client_id
         WHERE {condition} AND {owned} ORDER BY p.receipt_no DESC LIMIT ?"
    ))?;
    let hits = stmt
        .query_map(params_from_iter(values.iter()), |r| {
            let receipt_no: String = r.get(1)?;
            let client_name: String = r.get(3)?;
            let received_on: String = r.get(4)?;
            let status: String = r.get(6)?;
            Ok(PaymentHit {
                id: r.get(0)?,
                label: receipt_no.clone(),
                detail: rules::payment_detail(&client_name, &received_on, &status),
                receipt_no,
                client_id: r.get(2)?,
                client_name,
                received_on,
                amount: r.get(5)?,
                status,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(hits)
}
