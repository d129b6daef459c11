//! GSTR-1 from a month's issued invoice and credit note lines: the sections (B2B, B2C large and
//! small, credit notes to registered and unregistered clients, nil-rated supplies, the HSN/SAC
//! summary split B2B and B2C, the documents issued), what would make the GST offline tool refuse
//! the file, and the two files the accountant uploads (the tool's CSV sheets and the portal's
//! JSON). Plain rules over plain rows; the sources of every header and key are in
//! docs/api/gst_return.md ("GSTR-1 export").
//!
//! What is here is what every part shares: the lines and numbers the return is read from, the
//! return's tables and warnings as types, and how places and dates are written. `tables`
//! builds the return (`warnings` the warnings a document earns, `documents_issued` Table 13);
//! `sheets` writes the tool's CSV, `portal` the portal's JSON.

use crate::plumbing::clock;
use crate::plumbing::gstin;
use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

/// An unregistered client's inter-state invoice above this value (₹1,00,000 since August 2024;
/// notification 12/2024-CT) belongs in B2C large (Table 5), its credit notes in CDNUR (Table 9B).
pub const B2C_LARGE_ABOVE: i64 = 10_000_000;

/// The Returns Offline Tool whose JSON this export writes (its `version` key); see docs/api/gst_return.md.
pub const TOOL_VERSION: &str = "GST3.2.4";

/// The offline tool takes at most 16 characters of a document number.
pub(crate) const NUMBER_MAX: usize = 16;

/// The portal keeps 30 characters of an HSN row's description.
pub(crate) const DESCRIPTION_MAX: usize = 30;

/// An issued invoice or credit note of the month, with its client, the invoice it credits (for
/// a credit note) and its lines in their order on the document.
#[derive(Debug, Clone)]
pub struct ReturnDocument {
    pub id: String,
    pub credit_note: bool,
    /// An invoice of the old system (imported): one line, no SAC, no tax split.
    pub legacy: bool,
    pub doc_no: String,
    pub doc_date: String,
    /// The document's total (with GST and round-off): the invoice or note value.
    pub value: i64,
    pub intra_state: bool,
    pub client_id: String,
    pub client_name: String,
    pub gstin: Option<String>,
    pub state_code: Option<String>,
    /// For a credit note, the invoice it credits, with its value and whether it was intra-state.
    pub invoice_no: Option<String>,
    pub invoice_date: Option<String>,
    pub invoice_value: Option<i64>,
    pub invoice_intra_state: Option<bool>,
    pub lines: Vec<ReturnLine>,
}

/// One line of a [`ReturnDocument`].
#[derive(Debug, Clone)]
pub struct ReturnLine {
    /// Its place on the document.
    pub position: i64,
    pub sac: Option<String>,
    pub description: String,
    pub rate: i64,
    pub taxable: i64,
    pub igst: i64,
    pub cgst: i64,
    pub sgst: i64,
}

/// Taxable value and tax, in paise.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct Tax {
    pub taxable: i64,
    pub igst: i64,
    pub cgst: i64,
    pub sgst: i64,
}

impl Tax {
    pub(crate) fn of(line: &ReturnLine) -> Tax {
        Tax {
            taxable: line.taxable,
            igst: line.igst,
            cgst: line.cgst,
            sgst: line.sgst,
        }
    }

    pub(crate) fn add(&mut self, sign: i64, other: Tax) {
        self.taxable += sign * other.taxable;
        self.igst += sign * other.igst;
        self.cgst += sign * other.cgst;
        self.sgst += sign * other.sgst;
    }

    /// Taxable value and tax together.
    pub fn value(&self) -> i64 {
        self.taxable + self.igst + self.cgst + self.sgst
    }
}

/// A number an invoice or credit note of the month carries (drafts have none), cancelled or not.
#[derive(Debug, Clone)]
pub struct IssuedNumber {
    pub doc_no: String,
    pub credit_note: bool,
    pub cancelled: bool,
}

/// A row of a document to a registered client (a B2B invoice, a CDNR credit note) or of a B2C
/// large invoice and its credit notes (B2CL, CDNUR; `gstin` empty): one rate of it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PartyRow {
    pub document_id: String,
    pub client_id: String,
    pub gstin: String,
    pub name: String,
    /// The invoice's or the note's number and date.
    pub number: String,
    pub date: String,
    /// For a credit note, the invoice it credits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invoice_no: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invoice_date: Option<String>,
    /// The document's total.
    pub value: i64,
    /// The state code of the place of supply.
    pub pos: String,
    pub rate: i64,
    #[serde(flatten)]
    pub tax: Tax,
}

/// A B2C small row: an unregistered place of supply and rate, credit notes subtracted.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct B2csRow {
    pub pos: String,
    /// `INTRA` or `INTER`.
    pub supply_type: &'static str,
    pub rate: i64,
    #[serde(flatten)]
    pub tax: Tax,
}

/// An HSN/SAC summary row: one SAC and rate, credit notes subtracted.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HsnRow {
    /// Empty when the lines carry none (a warning says which).
    pub sac: String,
    /// The SAC's own description (the portal's `desc`).
    pub description: String,
    /// What the office calls it: the first line's description (the portal's `user_desc`).
    pub user_description: String,
    /// `NA`: services have no unit of quantity.
    pub uqc: &'static str,
    /// 0: services have no quantity.
    pub quantity: i64,
    pub rate: i64,
    /// Taxable value and tax together.
    pub value: i64,
    #[serde(flatten)]
    pub tax: Tax,
}

/// A row of nil-rated supplies (Table 8): the 0 % lines of one supply type, credit notes
/// subtracted.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NilRow {
    /// `INTRB2B`, `INTRAB2B`, `INTRB2C` or `INTRAB2C`.
    pub supply_type: &'static str,
    pub nil_rated: i64,
    /// Exempt and non-GST supplies: none are billed (0).
    pub exempt: i64,
    pub non_gst: i64,
}

/// A row of the documents issued (Table 13): one number series of the month.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DocsRow {
    /// 1 invoices for outward supply, 5 credit notes.
    pub doc_num: u8,
    pub nature: &'static str,
    pub prefix: String,
    pub fy: String,
    pub from: String,
    pub to: String,
    /// Numbers found in the month, cancelled ones included.
    pub total: i64,
    pub cancelled: i64,
    pub net_issued: i64,
}

/// One section of the return: its rows and their totals.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Section<R> {
    pub rows: Vec<R>,
    pub count: usize,
    #[serde(flatten)]
    pub total: Tax,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Sections {
    pub b2b: Section<PartyRow>,
    pub b2cl: Section<PartyRow>,
    pub b2cs: Section<B2csRow>,
    pub cdnr: Section<PartyRow>,
    pub cdnur: Section<PartyRow>,
    /// Nil-rated supplies; `taxable` is their value.
    pub nil: Section<NilRow>,
    /// The whole HSN/SAC summary, and its B2B and B2C tables.
    pub hsn: Section<HsnRow>,
    pub hsn_b2b: Section<HsnRow>,
    pub hsn_b2c: Section<HsnRow>,
    /// The documents issued; no amounts.
    pub docs: Section<DocsRow>,
}

/// Something that would make the offline tool refuse the file, or file it wrong, with what to
/// open to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ReturnWarning {
    /// `company_without_gstin`, `invalid_gstin`, `client_without_state`, `missing_sac`,
    /// `legacy_invoice`, `number_too_long`, `negative_b2cs` or `series_gap`.
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
}

/// The return of one month, built from its lines.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Gstr1 {
    /// YYYY-MM.
    pub period: String,
    /// Invoices less credit notes: the GST summary's figures for the month.
    pub totals: Tax,
    pub sections: Sections,
    pub warnings: Vec<ReturnWarning>,
}

/// The place of supply as the offline tool writes it: `32-Kerala`.
pub fn place_of_supply(code: &str) -> String {
    match gstin::state_name(code) {
        Some(name) => format!("{code}-{name}"),
        None => code.to_string(),
    }
}

fn date(text: &str) -> Option<NaiveDate> {
    clock::date(text)
}

/// A date as the offline tool's sheets write it: DD-MMM-YYYY (`05-Apr-2025`).
pub fn sheet_date(text: &str) -> String {
    date(text).map_or_else(|| text.to_string(), |d| d.format("%d-%b-%Y").to_string())
}

/// A date as the portal's JSON writes it: DD-MM-YYYY.
pub fn portal_date(text: &str) -> String {
    date(text).map_or_else(|| text.to_string(), |d| d.format("%d-%m-%Y").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_places_are_written_as_the_tool_reads_them() {
        assert_eq!(sheet_date("2025-04-05"), "05-Apr-2025");
        assert_eq!(portal_date("2025-04-05"), "05-04-2025");
        assert_eq!(place_of_supply("32"), "32-Kerala");
    }
}
