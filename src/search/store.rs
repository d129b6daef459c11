//! The SQL of the global search. Each function answers at most `rules::LOOKED_FOR` hits of one
//! kind, in the caller's book, and reads no more of the office than it must to find them: names
//! and numbers through their suffix tables (migrations/V7: "contains q" is one key range), the
//! other client fields and ticket subjects by a plain `LIKE`. docs/api.md has the measurements.

use crate::book;
use crate::db::query::{like_contains, starts_with};
use crate::error::AppError;
use crate::search::rules::{self, LOOKED_FOR};
use crate::tickets::rules::STILL_OPEN_SQL;
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
    /// name, gstin, district or remote_access_id: where the text was found.
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

const DOCUMENT_COLUMNS: &str = "d.id, d.type, d.status, d.doc_no, d.doc_date, d.total, d.client_id, c.name";

fn document_hit(r: &Row<'_>, matched: &'static str) -> rusqlite::Result<DocumentHit> {
    let doc_type: String = r.get(1)?;
    let status: String = r.get(2)?;
    let doc_no: Option<String> = r.get(3)?;
    let doc_date: Option<String> = r.get(4)?;
    let client_name: String = r.get(7)?;
    Ok(DocumentHit {
        id: r.get(0)?,
        label: doc_no.clone().unwrap_or_default(),
        detail: rules::document_detail(&doc_type, &client_name, doc_date.as_deref(), &status),
        matched,
        doc_no,
        doc_type,
        status,
        doc_date,
        total: r.get(5)?,
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
) -> Result<Vec<DocumentHit>, AppError> {
    let low = q.to_ascii_lowercase();
    let (owned, owner_values) = in_book(book::client_is_in("d.client_id", "?"), book);
    let from =
        "document_no_search s JOIN document d ON d.id = s.document_id JOIN client c ON c.id = d.client_id";
    let mut hits: Vec<DocumentHit> = vec![];
    let mut values = vec![Value::Text(low.clone())];
    values.extend(owner_values.iter().cloned());
    values.push(Value::Integer(LOOKED_FOR as i64));
    let mut ending = conn.prepare_cached(&format!(
        "SELECT {DOCUMENT_COLUMNS} FROM {from}
         WHERE s.suffix = ? AND d.status <> 'draft' AND {owned} ORDER BY s.document_id DESC LIMIT ?"
    ))?;
    let mut rows = ending.query(params_from_iter(values.iter()))?;
    while let Some(r) = rows.next()? {
        hits.push(document_hit(r, "number")?);
    }
    if hits.len() >= LOOKED_FOR {
        return Ok(hits);
    }
    let (range, mut values) = starts_with("s.suffix", q);
    values.push(Value::Text(low));
    values.extend(owner_values);
    let mut following = conn.prepare_cached(&format!(
        "SELECT {DOCUMENT_COLUMNS} FROM {from}
         WHERE {range} AND s.suffix > ? AND d.status <> 'draft' AND {owned} ORDER BY s.suffix, s.document_id"
    ))?;
    // A number may hold the text twice (`25` in INV/25-26-0025): each document counts once.
    let mut rows = following.query(params_from_iter(values.iter()))?;
    while hits.len() < LOOKED_FOR {
        let Some(r) = rows.next()? else { break };
        let id: String = r.get(0)?;
        if !hits.iter().any(|h| h.id == id) {
            hits.push(document_hit(r, "number")?);
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
pub fn documents_of(conn: &Connection, clients: &[String]) -> Result<Vec<DocumentHit>, AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {DOCUMENT_COLUMNS} FROM document d JOIN client c ON c.id = d.client_id
         WHERE d.client_id IN (SELECT value FROM json_each(?1)) AND d.status <> 'draft'
         ORDER BY d.id DESC LIMIT ?2"
    ))?;
    let hits = stmt
        .query_map(
            rusqlite::params![serde_json::to_string(clients)?, LOOKED_FOR as i64],
            |r| document_hit(r, "client_name"),
        )?
        .collect::<Result<_, _>>()?;
    Ok(hits)
}

/// Tickets in the staff user's share whose subject contains `q`: those still open first, then
/// the others, each newest first. Subjects have no suffix table: the still-open ones are found
/// through their partial index (a few hundred); the others, read only when fewer than six are
/// still open, are one pass over the table that tests the subject before anything else.
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
