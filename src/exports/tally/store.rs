//! The SQL of the Tally export: a period's issued invoices and credit notes, its recorded
//! payments with the invoices each settled, and the clients they name. Each read hands its rows
//! to a callback one at a time, so that a year of the large office is never held whole.
//!
//! What counts is what the statement of account counts (`statements::store`): invoices neither
//! draft nor cancelled; their credit notes neither draft nor cancelled; payments recorded (a
//! cancelled payment's allocations were removed when it was cancelled).

use crate::exports::tally::rules::{Party, Payment, SaleDoc};
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::{Connection, params};

fn day(text: &str) -> Result<NaiveDate, AppError> {
    text.get(..10)
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| AppError::internal(format!("a voucher dated {text:?}")))
}

/// Every issued invoice and credit note dated `from` to `to`, by date then number.
pub fn sale_docs(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    mut each: impl FnMut(SaleDoc) -> Result<(), AppError>,
) -> Result<(), AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT d.id, d.type = 'CREDIT_NOTE', d.doc_no, d.doc_date, c.name, c.gstin, c.state_code,
                p.doc_no, d.subtotal, d.cgst, d.sgst, d.igst, d.round_off, d.total
           FROM document d
           JOIN client c ON c.id = d.client_id
           LEFT JOIN document p ON p.id = d.parent_id
          WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.doc_date >= ?1 AND d.doc_date <= ?2
            AND d.status NOT IN ('draft', 'cancelled')
            AND (d.type = 'INVOICE' OR p.status IS NULL OR p.status NOT IN ('draft', 'cancelled'))
          ORDER BY d.doc_date, d.type DESC, d.doc_no, d.id",
    )?;
    let mut rows = stmt.query(params![from.to_string(), to.to_string()])?;
    while let Some(r) = rows.next()? {
        let date: String = r.get(3)?;
        each(SaleDoc {
            id: r.get(0)?,
            credit_note: r.get(1)?,
            doc_no: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
            doc_date: day(&date)?,
            client_name: r.get(4)?,
            client_gstin: r.get(5)?,
            client_state_code: r.get(6)?,
            against: r.get(7)?,
            subtotal: r.get(8)?,
            cgst: r.get(9)?,
            sgst: r.get(10)?,
            igst: r.get(11)?,
            round_off: r.get(12)?,
            total: r.get(13)?,
        })?;
    }
    Ok(())
}

/// Every recorded payment received `from` to `to`, by date then receipt number, each with the
/// invoices it settled (number, money, TDS) in the order they were allocated.
pub fn payments(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    mut each: impl FnMut(Payment) -> Result<(), AppError>,
) -> Result<(), AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.receipt_no, p.received_on, c.name, p.mode, p.reference, p.amount
           FROM payment p JOIN client c ON c.id = p.client_id
          WHERE p.received_on >= ?1 AND p.received_on <= ?2 AND p.status = 'recorded'
          ORDER BY p.received_on, p.receipt_no, p.id",
    )?;
    let mut settled = conn.prepare_cached(
        "SELECT d.doc_no, a.amount, a.tds FROM payment_allocation a JOIN document d ON d.id = a.document_id
          WHERE a.payment_id = ?1 ORDER BY a.id",
    )?;
    let mut rows = stmt.query(params![from.to_string(), to.to_string()])?;
    while let Some(r) = rows.next()? {
        let id: String = r.get(0)?;
        let date: String = r.get(2)?;
        let allocations = settled
            .query_map([&id], |a| {
                Ok((
                    a.get::<_, Option<String>>(0)?.unwrap_or_default(),
                    a.get(1)?,
                    a.get(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        each(Payment {
            id,
            receipt_no: r.get(1)?,
            received_on: day(&date)?,
            client_name: r.get(3)?,
            mode: r.get(4)?,
            reference: r.get(5)?,
            amount: r.get(6)?,
            settled: allocations,
        })?;
    }
    Ok(())
}

/// The clients named by a voucher of `from` to `to` (an issued invoice or credit note, or a
/// recorded payment), by name.
pub fn parties(conn: &Connection, from: NaiveDate, to: NaiveDate) -> Result<Vec<Party>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.name, c.gstin, c.state_code, c.address FROM client c
          WHERE c.id IN (
                SELECT d.client_id FROM document d
                 WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.doc_date >= ?1 AND d.doc_date <= ?2
                   AND d.status NOT IN ('draft', 'cancelled')
                UNION
                SELECT p.client_id FROM payment p
                 WHERE p.received_on >= ?1 AND p.received_on <= ?2 AND p.status = 'recorded')
          ORDER BY c.name COLLATE NOCASE, c.id",
    )?;
    let rows = stmt
        .query_map(params![from.to_string(), to.to_string()], |r| {
            Ok(Party {
                id: r.get(0)?,
                name: r.get(1)?,
                gstin: r.get(2)?,
                state_code: r.get(3)?,
                address: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}
