//! The SQL of the GSTR-1 export: the lines of a month's issued invoices and credit notes.

use crate::gst_return::rules::{IssuedNumber, ReturnLine};
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::{Connection, Row, params};

/// The query of [`lines`]. The month's documents come off `document_gstr1` (migrations/V31) in
/// the return's order, without reading their rows.
pub const LINES: &str =
    "SELECT d.id, d.type = 'CREDIT_NOTE', d.source = 'legacy', d.doc_no, d.doc_date, d.total, d.intra_state,
                d.client_id, c.name, c.gstin, c.state_code, p.doc_no, p.doc_date, p.total, p.intra_state,
                l.sac, l.description, l.gst_rate, l.taxable, l.igst, l.cgst, l.sgst
         FROM document d INDEXED BY document_gstr1
         JOIN client c ON c.id = d.client_id
         LEFT JOIN document p ON p.id = d.parent_id
         JOIN document_line l ON l.document_id = d.id
         WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.status <> 'draft' AND d.doc_date BETWEEN ?1 AND ?2
           AND d.status <> 'cancelled'
         ORDER BY d.doc_date, d.doc_no, l.position";

/// Every line of the invoices and credit notes dated `from` to `to` that were issued and not
/// cancelled (legacy invoices included), with the document, its client and, for a credit note,
/// the invoice it credits; by date, number and line position.
pub fn lines(conn: &Connection, from: NaiveDate, to: NaiveDate) -> Result<Vec<ReturnLine>, AppError> {
    let mut stmt = conn.prepare_cached(LINES)?;
    let rows = stmt
        .query_map(params![from.to_string(), to.to_string()], return_line)?
        .collect::<Result<_, _>>()?;
    Ok(rows)
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

/// A row of [`LINES`] (or of a query with its columns) as a [`ReturnLine`].
pub fn return_line(r: &Row<'_>) -> rusqlite::Result<ReturnLine> {
    Ok(ReturnLine {
        document_id: r.get(0)?,
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
        sac: r.get(15)?,
        description: r.get(16)?,
        rate: r.get(17)?,
        taxable: r.get(18)?,
        igst: r.get(19)?,
        cgst: r.get(20)?,
        sgst: r.get(21)?,
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
