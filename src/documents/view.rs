//! What a rendered document shows: one view, built once from the stored document, the client
//! and the letterhead, and read by every renderer (the HTML preview, share page and email
//! body, and the PDF). Amounts come from stored paise, formatted here and nowhere else.

use crate::clients::store::{self as client_store, Client};
use crate::company::letterhead::{self, Letterhead};
use crate::documents::store::{self, Document};
use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use crate::plumbing::money;
use rusqlite::Connection;

/// The recipient block.
#[derive(Debug, Clone, Default)]
pub struct Party {
    pub name: String,
    pub address_lines: Vec<String>,
    pub gstin: Option<String>,
    pub state: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
}

/// One line of the table, every cell ready to print.
#[derive(Debug, Clone, Default)]
pub struct LineView {
    pub sno: usize,
    pub description: String,
    pub sac: String,
    pub qty: String,
    pub rate: String,
    pub taxable: String,
    pub gst_rate: String,
    pub cgst: String,
    pub sgst: String,
    pub igst: String,
    pub total: String,
}

#[derive(Debug, Clone, Default)]
pub struct DocumentView {
    /// TAX INVOICE, PROFORMA INVOICE, QUOTATION or CREDIT NOTE.
    pub title: &'static str,
    /// None while a draft.
    pub doc_no: Option<String>,
    pub doc_date: Option<String>,
    pub due_date: Option<String>,
    /// DRAFT or CANCELLED, printed across the document.
    pub mark: Option<&'static str>,
    /// A credit note's invoice, a converted document's source: "Against INV/26-27-0001".
    pub reference: Option<String>,
    pub letterhead: Letterhead,
    pub recipient: Party,
    pub place_of_supply: String,
    /// true: CGST and SGST columns; false: IGST.
    pub intra_state: bool,
    pub lines: Vec<LineView>,
    pub subtotal: String,
    pub cgst: String,
    pub sgst: String,
    pub igst: String,
    /// Only when the document is rounded to the rupee and the round-off is not zero.
    pub round_off: Option<String>,
    /// "₹1,18,000.00".
    pub total: String,
    /// "Rupees One Lakh Eighteen Thousand Only".
    pub total_in_words: String,
    pub notes: Option<String>,
    /// The document's own terms, else the letterhead's.
    pub terms: Option<String>,
    /// The UPI link of a bill that is owed, and what it pays ("₹10,800.00").
    pub upi: Option<UpiView>,
}

#[derive(Debug, Clone, Default)]
pub struct UpiView {
    pub uri: String,
    pub amount: String,
    /// The TDS the code leaves for the client to deduct ("₹10,000.00"), when it leaves any.
    pub less_tds: Option<String>,
}

pub fn title(doc_type: &str) -> &'static str {
    match doc_type {
        "INVOICE" => "TAX INVOICE",
        "PROFORMA" => "PROFORMA INVOICE",
        "QUOTATION" => "QUOTATION",
        "CREDIT_NOTE" => "CREDIT NOTE",
        _ => "DOCUMENT",
    }
}

/// "22 Nov 2026" from "2026-11-22" (the text itself when it is not a date).
pub fn long_date(iso: &str) -> String {
    clock::date(iso).map_or_else(|| iso.to_string(), |d| d.format("%d %b %Y").to_string())
}

fn non_empty(s: Option<&str>) -> Option<String> {
    s.map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

/// The recipient block of a client.
pub fn party(client: &Client) -> Party {
    let state_code = client
        .gstin
        .as_ref()
        .map(|g| g.state_code().to_string())
        .or(client.state_code.clone());
    Party {
        name: client.name.clone(),
        address_lines: client
            .address
            .as_deref()
            .unwrap_or_default()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .chain(non_empty(client.district.as_deref()).map(|d| format!("{d} District")))
            .collect(),
        gstin: client.gstin.clone().map(String::from),
        state: state_code.as_deref().map(letterhead::state_label),
        phone: non_empty(client.phone.as_deref()),
        email: non_empty(client.email.as_deref()),
    }
}

/// The view of a stored document with the letterhead in force.
pub fn build(conn: &Connection, doc: &Document) -> Result<DocumentView, AppError> {
    let client =
        client_store::get(conn, &doc.client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let recipient = party(&client);
    let reference = match &doc.parent_id {
        Some(parent) => store::doc_no_of(conn, parent)
            .ok()
            .flatten()
            .map(|no| format!("Against {no}")),
        None => None,
    };
    Ok(assemble(
        doc,
        letterhead::letterhead(conn, &[])?,
        recipient,
        reference,
    ))
}

/// Puts the view together; no database (the sample preview calls it with made-up content).
pub fn assemble(
    doc: &Document,
    letterhead: Letterhead,
    recipient: Party,
    reference: Option<String>,
) -> DocumentView {
    let lines = doc
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let p = &l.priced;
            LineView {
                sno: i + 1,
                description: p.description.clone(),
                sac: p.sac.clone().unwrap_or_default(),
                qty: p.qty.to_string(),
                rate: money::amount(p.unit_price),
                taxable: money::amount(p.taxable),
                gst_rate: format!("{}%", p.gst_rate),
                cgst: money::amount(p.cgst),
                sgst: money::amount(p.sgst),
                igst: money::amount(p.igst),
                total: money::amount(p.total),
            }
        })
        .collect();
    let place_of_supply = recipient
        .state
        .clone()
        .or_else(|| letterhead.state.clone())
        .unwrap_or_else(|| "Not stated".into());
    let terms = non_empty(doc.terms.as_deref()).or_else(|| letterhead.terms.clone());
    DocumentView {
        title: title(&doc.doc_type),
        doc_no: doc.doc_no.clone(),
        doc_date: doc.doc_date.as_deref().map(long_date),
        due_date: doc.due_date.as_deref().map(long_date),
        mark: match doc.status.as_str() {
            "draft" => Some("DRAFT"),
            "cancelled" => Some("CANCELLED"),
            _ => None,
        },
        reference,
        letterhead,
        recipient,
        place_of_supply,
        intra_state: doc.intra_state,
        lines,
        subtotal: money::amount(doc.subtotal),
        cgst: money::amount(doc.cgst),
        sgst: money::amount(doc.sgst),
        igst: money::amount(doc.igst),
        round_off: (doc.round_to_rupee && doc.round_off != 0).then(|| money::amount(doc.round_off)),
        total: money::rupees(doc.total),
        total_in_words: money::amount_in_words(doc.total),
        notes: non_empty(doc.notes.as_deref()),
        terms,
        upi: doc.upi.as_ref().map(|u| {
            let owed = if doc.doc_type == "INVOICE" {
                doc.outstanding.unwrap_or(0)
            } else {
                doc.total
            };
            UpiView {
                uri: u.uri.clone(),
                amount: money::rupees(u.amount),
                less_tds: (owed > u.amount).then(|| money::rupees(owed - u.amount)),
            }
        }),
    }
}

/// The attachment name of a document's PDF: docNo with '/' as '-' plus ".pdf", or "draft.pdf".
pub fn pdf_file_name(doc_no: Option<&str>) -> String {
    match doc_no {
        Some(no) => format!("{}.pdf", no.replace('/', "-")),
        None => "draft.pdf".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdf_names_follow_the_number() {
        assert_eq!(pdf_file_name(Some("INV/26-27-0001")), "INV-26-27-0001.pdf");
        assert_eq!(pdf_file_name(None), "draft.pdf");
        assert_eq!(long_date("2026-11-22"), "22 Nov 2026");
    }
}
