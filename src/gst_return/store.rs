//! The SQL of the GSTR-1 export: a month's issued invoices and credit notes with their lines,
//! and the numbers they carry.

use crate::gst_return::rules::{IssuedNumber, ReturnDocument, ReturnLine};
use crate::plumbing::db::query::bytes;
use crate::plumbing::db::savepoint;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::{Connection, Row, params};
use rustc_hash::FxHashMap;

/// The query of [`documents`]: the month's documents off `document_gstr1` (migrations/V31) in
/// the return's order, and their clients off `client_return` (V34), without reading either's rows.
/// A credit note's parent is the invoice it credits; an invoice's is the proforma or quotation
/// it came from, which the return has no place for.
pub const DOCUMENTS: &str =
    "SELECT d.id, d.type = 'CREDIT_NOTE', d.source = 'legacy', d.doc_no, d.doc_date, d.total, d.intra_state,
                d.client_id, c.name, c.gstin, c.state_code, p.doc_no, p.doc_date, p.total, p.intra_state
         FROM document d INDEXED BY document_gstr1
         JOIN client c ON c.id = d.client_id
         LEFT JOIN document p ON p.id = d.parent_id AND d.type = 'CREDIT_NOTE'
         WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.status <> 'draft' AND d.doc_date BETWEEN ?1 AND ?2
           AND d.status <> 'cancelled'
         ORDER BY d.doc_date, d.doc_no";

/// The query of [`documents`]' lines: each line of the same documents with its document's id,
/// in no order (they are put on their documents, in position order, in Rust: SQLite's sort of
/// the month's lines took as long as reading them).
pub const LINES: &str =
    "SELECT l.document_id, l.position, l.sac, l.description, l.gst_rate, l.taxable, l.igst, l.cgst, l.sgst
         FROM document d INDEXED BY document_gstr1
         JOIN document_line l ON l.document_id = d.id
         WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.status <> 'draft' AND d.doc_date BETWEEN ?1 AND ?2
           AND d.status <> 'cancelled'";

/// The invoices and credit notes dated `from` to `to` that were issued and not cancelled
/// (legacy invoices included), by date and number, each with its client, the invoice it credits
/// (for a credit note) and its lines by position. A document's columns are read once, not on
/// each of its lines.
pub fn documents(conn: &Connection, from: NaiveDate, to: NaiveDate) -> Result<Vec<ReturnDocument>, AppError> {
    let (from, to) = (from.to_string(), to.to_string());
    // Both reads in one snapshot, so every line read has its document.
    savepoint(conn, |conn| {
        let mut stmt = conn.prepare_cached(DOCUMENTS)?;
        let mut documents: Vec<ReturnDocument> = stmt
            .query_map(params![from, to], return_document)?
            .collect::<Result<_, _>>()?;
        let at: FxHashMap<&[u8], usize> = documents
            .iter()
            .enumerate()
            .map(|(i, d)| (d.id.as_bytes(), i))
            .collect();
        let mut placed: Vec<(usize, ReturnLine)> = Vec::with_capacity(documents.len() * 4);
        let mut stmt = conn.prepare_cached(LINES)?;
        let mut rows = stmt.query(params![from, to])?;
        while let Some(r) = rows.next()? {
            let document = bytes(r, 0)?;
            let Some(&i) = at.get(document) else {
                return Err(AppError::internal(format!(
                    "GSTR-1 read a line of {}, which is not among the month's documents",
                    String::from_utf8_lossy(document)
                )));
            };
            placed.push((i, return_line(r, 1)?));
        }
        drop(at);
        for (i, line) in placed {
            documents[i].lines.push(line);
        }
        for d in &mut documents {
            d.lines.sort_by_key(|l| l.position);
        }
        Ok(documents)
    })
}

/// The query of [`numbers`], off `document_gstr1` alone.
pub const NUMBERS: &str = "SELECT d.doc_no, d.type = 'CREDIT_NOTE', d.status = 'cancelled' FROM document d INDEXED BY document_gstr1
         WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.status <> 'draft' AND d.doc_date BETWEEN ?1 AND ?2
           AND d.doc_no IS NOT NULL
         ORDER BY d.doc_no";

/// The numbers of the invoices and credit notes dated `from` to `to` (drafts have none),
/// cancelled ones included.
pub fn numbers(conn: &Connection, from: NaiveDate, to: NaiveDate) -> Result<Vec<IssuedNumber>, AppError> {
    let mut stmt = conn.prepare_cached(NUMBERS)?;
    let rows = stmt
        .query_map(params![from.to_string(), to.to_string()], issued_number)?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// A row of [`DOCUMENTS`] (or of a query with its first columns) as a [`ReturnDocument`]
/// without its lines.
pub fn return_document(r: &Row<'_>) -> rusqlite::Result<ReturnDocument> {
    Ok(ReturnDocument {
        id: r.get(0)?,
        credit_note: r.get(1)?,
        legacy: r.get(2)?,
        doc_no: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
        doc_date: r.get(4)?,
        value: r.get(5)?,
        intra_state: r.get(6)?,
        client_id: r.get(7)?,
        client_name: r.get(8)?,
        gstin: r.get(9)?,
        state_code: r.get(10)?,
        invoice_no: r.get(11)?,
        invoice_date: r.get(12)?,
        invoice_value: r.get(13)?,
        invoice_intra_state: r.get(14)?,
        lines: vec![],
    })
}

/// A line's columns of [`LINES`] (position, sac, description, rate, taxable, igst, cgst, sgst),
/// from column `at` of `r`, as a [`ReturnLine`].
pub fn return_line(r: &Row<'_>, at: usize) -> rusqlite::Result<ReturnLine> {
    Ok(ReturnLine {
        position: r.get(at)?,
        sac: r.get(at + 1)?,
        description: r.get(at + 2)?,
        rate: r.get(at + 3)?,
        taxable: r.get(at + 4)?,
        igst: r.get(at + 5)?,
        cgst: r.get(at + 6)?,
        sgst: r.get(at + 7)?,
    })
}

/// A row of [`NUMBERS`] (or of a query with its columns) as an [`IssuedNumber`].
pub fn issued_number(r: &Row<'_>) -> rusqlite::Result<IssuedNumber> {
    Ok(IssuedNumber {
        doc_no: r.get(0)?,
        credit_note: r.get(1)?,
        cancelled: r.get(2)?,
    })
}
