//! What a receipt shows (spec 2.8): a zero-GST acknowledgment of money received: from whom,
//! how much in figures and words, the mode and reference, what it settled (with the TDS the
//! society deducted noted) and what is held as an advance. Built once, drawn by `payments::receipt_pdf`.

use crate::clients::store as client_store;
use crate::company::letterhead::{self, Letterhead};
use crate::documents::view::{self, Party};
use crate::payments::store::{self, Payment};
use crate::plumbing::error::AppError;
use crate::plumbing::money;
use rusqlite::Connection;

/// One invoice the payment settled, every cell ready to print.
#[derive(Debug, Clone, Default)]
pub struct SettledRow {
    pub doc_no: String,
    pub doc_date: String,
    pub amount: String,
    pub tds: String,
}

#[derive(Debug, Clone, Default)]
pub struct ReceiptView {
    pub letterhead: Letterhead,
    pub receipt_no: String,
    pub date: String,
    pub received_from: Party,
    pub mode: String,
    pub reference: Option<String>,
    /// "₹1,18,000.00".
    pub amount: String,
    pub amount_in_words: String,
    pub settled: Vec<SettledRow>,
    /// Total TDS noted, when any.
    pub tds: Option<String>,
    /// What is held as an advance, when any.
    pub advance: Option<String>,
    /// What was refunded from the advance, when any.
    pub refunded: Option<String>,
    pub notes: Option<String>,
    /// "Cancelled on 24 Nov 2026: entered twice." once the payment is cancelled.
    pub cancelled: Option<String>,
}

pub fn mode_label(mode: &str) -> &'static str {
    match mode {
        "cash" => "Cash",
        "cheque" => "Cheque",
        "neft_rtgs" => "NEFT/RTGS",
        "upi" => "UPI",
        _ => "Other",
    }
}

pub fn build(conn: &Connection, p: &Payment) -> Result<ReceiptView, AppError> {
    let client = client_store::get(conn, &p.client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let mut settled = vec![];
    for a in &p.allocations {
        let doc_date = store::doc_date_of(conn, &a.document_id)?;
        settled.push(SettledRow {
            doc_no: a.doc_no.clone().unwrap_or_default(),
            doc_date: doc_date.as_deref().map(view::long_date).unwrap_or_default(),
            amount: money::amount(a.amount),
            tds: money::amount(a.tds),
        });
    }
    Ok(ReceiptView {
        letterhead: letterhead::letterhead(conn, &[])?,
        receipt_no: p.receipt_no.clone(),
        date: view::long_date(&p.received_on),
        received_from: view::party(&client),
        mode: mode_label(&p.mode).into(),
        reference: p.reference.clone(),
        amount: money::rupees(p.amount),
        amount_in_words: money::amount_in_words(p.amount),
        settled,
        tds: (p.tds > 0).then(|| money::rupees(p.tds)),
        advance: (p.unallocated > 0).then(|| money::rupees(p.unallocated)),
        refunded: (p.refunded > 0).then(|| money::rupees(p.refunded)),
        notes: p.notes.clone(),
        cancelled: (p.status == "cancelled").then(|| {
            let on = p.cancelled_on.as_deref().map(view::long_date).unwrap_or_default();
            format!(
                "Cancelled on {on}: {}",
                p.cancel_reason.as_deref().unwrap_or_default()
            )
        }),
    })
}
