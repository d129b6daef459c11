//! GSTR-1 from a month's issued invoice and credit note lines: the sections (B2B, B2C small,
//! credit notes to registered clients, the HSN/SAC summary), what would make the GST offline tool
//! refuse the file, and the two files the accountant uploads (the tool's CSV sheets and the
//! portal's JSON). Plain rules over plain rows; the sources of every header and key are in
//! docs/api.md ("GSTR-1 export").

use crate::clock::Month;
use crate::gstin::{self, Gstin};
use crate::http::csv;
use crate::money;
use chrono::NaiveDate;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use utoipa::ToSchema;

/// An unregistered client's inter-state invoice above this value (₹1,00,000 since August 2024;
/// notification 12/2024-CT) belongs in B2C large, which this export does not write.
pub const B2C_LARGE_ABOVE: i64 = 10_000_000;

/// The offline tool takes at most 16 characters of a document number.
const NUMBER_MAX: usize = 16;

/// The portal keeps 30 characters of an HSN row's description.
const DESCRIPTION_MAX: usize = 30;

/// One line of an issued invoice or credit note of the month, with its document and client.
#[derive(Debug, Clone)]
pub struct ReturnLine {
    pub document_id: String,
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
    /// For a credit note, the invoice it credits.
    pub invoice_no: Option<String>,
    pub invoice_date: Option<String>,
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
    fn of(line: &ReturnLine) -> Tax {
        Tax {
            taxable: line.taxable,
            igst: line.igst,
            cgst: line.cgst,
            sgst: line.sgst,
        }
    }

    fn add(&mut self, sign: i64, other: Tax) {
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

/// A row of a document to a registered client (a B2B invoice, a CDNR credit note): one rate
/// of it.
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
    pub description: String,
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
    pub b2cs: Section<B2csRow>,
    pub cdnr: Section<PartyRow>,
    pub hsn: Section<HsnRow>,
}

/// Something that would make the offline tool refuse the file, or file it wrong, with what to
/// open to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ReturnWarning {
    /// `company_without_gstin`, `invalid_gstin`, `client_without_state`, `missing_sac`,
    /// `legacy_invoice`, `number_too_long`, `b2c_large` or `negative_b2cs`.
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

/// A short description for the SACs a software vendor bills under (the portal keeps 30
/// characters).
fn sac_description(sac: &str) -> Option<&'static str> {
    Some(match sac {
        "997331" => "Software licensing services",
        "998313" => "IT consulting and support",
        "998314" => "IT design and development",
        "998315" => "Hosting and IT infrastructure",
        "998316" => "IT infrastructure management",
        "998319" => "Other IT services",
        "999293" => "Commercial training",
        _ => return None,
    })
}

fn short(text: &str) -> String {
    text.chars()
        .take(DESCRIPTION_MAX)
        .collect::<String>()
        .trim_end()
        .to_string()
}

fn registered(line: &ReturnLine) -> Option<&str> {
    line.gstin.as_deref().map(str::trim).filter(|g| !g.is_empty())
}

/// Collects warnings, each (code, document or client) once.
struct Warnings {
    seen: BTreeSet<(&'static str, String)>,
    list: Vec<ReturnWarning>,
}

impl Warnings {
    fn document(&mut self, code: &'static str, line: &ReturnLine, message: String) {
        if self.seen.insert((code, line.document_id.clone())) {
            self.list.push(ReturnWarning {
                code,
                message,
                document_id: Some(line.document_id.clone()),
                client_id: None,
            });
        }
    }

    fn client(&mut self, code: &'static str, line: &ReturnLine, message: String) {
        if self.seen.insert((code, line.client_id.clone())) {
            self.list.push(ReturnWarning {
                code,
                message,
                document_id: None,
                client_id: Some(line.client_id.clone()),
            });
        }
    }
}

fn kind(line: &ReturnLine) -> &'static str {
    if line.credit_note {
        "Credit note"
    } else {
        "Invoice"
    }
}

/// The return of `period` from its lines (in document order, then line position), for a
/// company in `company_state` with `company_gstin`.
pub fn build(
    period: Month,
    lines: &[ReturnLine],
    company_gstin: Option<&str>,
    company_state: Option<&str>,
) -> Gstr1 {
    let mut warnings = Warnings {
        seen: BTreeSet::new(),
        list: vec![],
    };
    if company_gstin.is_none_or(|g| g.trim().is_empty()) {
        warnings.list.push(ReturnWarning {
            code: "company_without_gstin",
            message:
                "The company profile has no GSTIN: the portal's file needs it. Set it in the company profile."
                    .into(),
            document_id: None,
            client_id: None,
        });
    }
    let mut totals = Tax::default();
    // One row per document and rate (B2B, CDNR), keyed so a document's rates stay together.
    let mut b2b: BTreeMap<(String, String, i64), PartyRow> = BTreeMap::new();
    let mut cdnr: BTreeMap<(String, String, i64), PartyRow> = BTreeMap::new();
    let mut b2cs: BTreeMap<(String, i64, &'static str), Tax> = BTreeMap::new();
    let mut hsn: BTreeMap<(String, i64), (String, Tax)> = BTreeMap::new();
    for line in lines {
        let sign = if line.credit_note { -1 } else { 1 };
        let tax = Tax::of(line);
        totals.add(sign, tax);
        check_document(line, &mut warnings);
        match registered(line) {
            Some(gstin) => {
                if Gstin::parse(gstin).is_err() {
                    warnings.client(
                        "invalid_gstin",
                        line,
                        format!("{}'s GSTIN {gstin} fails its check: the tool refuses the row. Correct it on the client.", line.client_name),
                    );
                }
                let pos = line
                    .state_code
                    .clone()
                    .unwrap_or_else(|| gstin.chars().take(2).collect());
                let key = (line.doc_date.clone(), line.doc_no.clone(), line.rate);
                let rows = if line.credit_note { &mut cdnr } else { &mut b2b };
                rows.entry(key)
                    .or_insert_with(|| PartyRow {
                        document_id: line.document_id.clone(),
                        client_id: line.client_id.clone(),
                        gstin: gstin.to_string(),
                        name: line.client_name.clone(),
                        number: line.doc_no.clone(),
                        date: line.doc_date.clone(),
                        invoice_no: line.invoice_no.clone(),
                        invoice_date: line.invoice_date.clone(),
                        value: line.value,
                        pos,
                        rate: line.rate,
                        tax: Tax::default(),
                    })
                    .tax
                    .add(1, tax);
            }
            None => {
                let pos = match line
                    .state_code
                    .as_deref()
                    .filter(|c| gstin::state_name(c).is_some())
                {
                    Some(code) => code.to_string(),
                    None => {
                        warnings.client(
                            "client_without_state",
                            line,
                            format!("{} has no GSTIN and no state: the place of supply of its B2C supplies is unknown. Set its state on the client.", line.client_name),
                        );
                        // The document was taxed as intra-state when its state was unknown.
                        if line.intra_state {
                            company_state.unwrap_or_default().to_string()
                        } else {
                            String::new()
                        }
                    }
                };
                if !line.credit_note && !line.intra_state && line.value > B2C_LARGE_ABOVE {
                    warnings.document(
                        "b2c_large",
                        line,
                        format!("Invoice {} to an unregistered client in another state is over ₹1,00,000: it belongs in B2C large, which this export does not write (it is counted in B2C small here).", line.doc_no),
                    );
                }
                let supply = if line.intra_state { "INTRA" } else { "INTER" };
                b2cs.entry((pos, line.rate, supply)).or_default().add(sign, tax);
            }
        }
        let sac = line.sac.as_deref().map(str::trim).unwrap_or_default().to_string();
        let entry = hsn.entry((sac.clone(), line.rate)).or_insert_with(|| {
            let description = sac_description(&sac).map_or_else(|| short(&line.description), str::to_string);
            (description, Tax::default())
        });
        entry.1.add(sign, tax);
    }
    let b2cs: Vec<B2csRow> = b2cs
        .into_iter()
        .map(|((pos, rate, supply_type), tax)| B2csRow {
            pos,
            supply_type,
            rate,
            tax,
        })
        .collect();
    for row in b2cs.iter().filter(|r| r.tax.taxable < 0) {
        warnings.list.push(ReturnWarning {
            code: "negative_b2cs",
            message: format!(
                "B2C small for {} at {}% comes to ₹{} after this month's credit notes: the tool refuses a negative row. Report the credit in B2CS amendments (B2CSA) of the invoices' month.",
                place_of_supply(&row.pos),
                row.rate,
                money::decimal(row.tax.taxable)
            ),
            document_id: None,
            client_id: None,
        });
    }
    let hsn: Vec<HsnRow> = hsn
        .into_iter()
        .map(|((sac, rate), (description, tax))| HsnRow {
            sac,
            description,
            uqc: "NA",
            quantity: 0,
            rate,
            value: tax.value(),
            tax,
        })
        .collect();
    Gstr1 {
        period: period.to_string(),
        totals,
        sections: Sections {
            b2b: section(b2b.into_values().collect(), |r: &PartyRow| r.tax),
            b2cs: section(b2cs, |r: &B2csRow| r.tax),
            cdnr: section(cdnr.into_values().collect(), |r: &PartyRow| r.tax),
            hsn: section(hsn, |r: &HsnRow| r.tax),
        },
        warnings: warnings.list,
    }
}

fn section<R>(rows: Vec<R>, tax: impl Fn(&R) -> Tax) -> Section<R> {
    let mut total = Tax::default();
    for row in &rows {
        total.add(1, tax(row));
    }
    Section {
        count: rows.len(),
        rows,
        total,
    }
}

/// The warnings a document earns on its own: no SAC, imported, a number the tool cuts.
fn check_document(line: &ReturnLine, warnings: &mut Warnings) {
    if line.legacy {
        warnings.document(
            "legacy_invoice",
            line,
            format!("Invoice {} was imported from the old system with no SAC and no tax split: it is here at 0% with its whole total as taxable value. Check it against the return the old system filed.", line.doc_no),
        );
    } else if line.sac.as_deref().is_none_or(|s| s.trim().is_empty()) {
        warnings.document(
            "missing_sac",
            line,
            format!("{} {} has a line without a SAC code: the HSN summary needs one. Set the SAC on its module, then cancel the document and issue it again.", kind(line), line.doc_no),
        );
    }
    if line.doc_no.chars().count() > NUMBER_MAX {
        warnings.document(
            "number_too_long",
            line,
            format!(
                "{} number {} is longer than the 16 characters the tool takes.",
                kind(line),
                line.doc_no
            ),
        );
    }
}

/// The place of supply as the offline tool writes it: `32-Kerala`.
pub fn place_of_supply(code: &str) -> String {
    match gstin::state_name(code) {
        Some(name) => format!("{code}-{name}"),
        None => code.to_string(),
    }
}

fn date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

/// A date as the offline tool's sheets write it: DD-MMM-YYYY (`05-Apr-2025`).
pub fn sheet_date(text: &str) -> String {
    date(text).map_or_else(|| text.to_string(), |d| d.format("%d-%b-%Y").to_string())
}

/// A date as the portal's JSON writes it: DD-MM-YYYY.
pub fn portal_date(text: &str) -> String {
    date(text).map_or_else(|| text.to_string(), |d| d.format("%d-%m-%Y").to_string())
}

/// A rate as the sheets write it: `18.00`.
fn sheet_rate(rate: i64) -> String {
    format!("{rate}.00")
}

/// The offline tool's sections, each a CSV sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sheet {
    B2b,
    B2cs,
    Cdnr,
    Hsn,
}

impl Sheet {
    pub fn parse(text: &str) -> Option<Sheet> {
        Some(match text {
            "b2b" => Sheet::B2b,
            "b2cs" => Sheet::B2cs,
            "cdnr" => Sheet::Cdnr,
            "hsn" => Sheet::Hsn,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Sheet::B2b => "b2b",
            Sheet::B2cs => "b2cs",
            Sheet::Cdnr => "cdnr",
            Sheet::Hsn => "hsn",
        }
    }

    /// The header row of the tool's sheet (Returns Offline Tool V3.1.8).
    fn header(self) -> &'static [&'static str] {
        match self {
            Sheet::B2b => &[
                "GSTIN/UIN of Recipient",
                "Receiver Name",
                "Invoice Number",
                "Invoice date",
                "Invoice Value",
                "Place Of Supply",
                "Reverse Charge",
                "Applicable % of Tax Rate",
                "Invoice Type",
                "E-Commerce GSTIN",
                "Rate",
                "Taxable Value",
                "Cess Amount",
            ],
            Sheet::B2cs => &[
                "Type",
                "Place Of Supply",
                "Applicable % of Tax Rate",
                "Rate",
                "Taxable Value",
                "Cess Amount",
                "E-Commerce GSTIN",
            ],
            Sheet::Cdnr => &[
                "GSTIN/UIN of Recipient",
                "Receiver Name",
                "Note Number",
                "Note Date",
                "Note Type",
                "Place Of Supply",
                "Reverse Charge",
                "Note Supply Type",
                "Note Value",
                "Applicable % of Tax Rate",
                "Rate",
                "Taxable Value",
                "Cess Amount",
            ],
            Sheet::Hsn => &[
                "HSN",
                "Description",
                "UQC",
                "Total Quantity",
                "Total Value",
                "Rate",
                "Taxable Value",
                "Integrated Tax Amount",
                "Central Tax Amount",
                "State/UT Tax Amount",
                "Cess Amount",
            ],
        }
    }
}

/// The offline tool's CSV sheet of one section: its header row, then a line per row.
pub fn sheet(g: &Gstr1, which: Sheet) -> String {
    let mut out = csv::line(which.header());
    let rupees = money::decimal;
    let zero = rupees(0);
    let rows: Vec<Vec<String>> = match which {
        Sheet::B2b => g
            .sections
            .b2b
            .rows
            .iter()
            .map(|r| {
                vec![
                    r.gstin.clone(),
                    r.name.clone(),
                    r.number.clone(),
                    sheet_date(&r.date),
                    rupees(r.value),
                    place_of_supply(&r.pos),
                    "N".into(),
                    String::new(),
                    "Regular B2B".into(),
                    String::new(),
                    sheet_rate(r.rate),
                    rupees(r.tax.taxable),
                    zero.clone(),
                ]
            })
            .collect(),
        Sheet::B2cs => g
            .sections
            .b2cs
            .rows
            .iter()
            .map(|r| {
                vec![
                    "OE".into(),
                    place_of_supply(&r.pos),
                    String::new(),
                    sheet_rate(r.rate),
                    rupees(r.tax.taxable),
                    zero.clone(),
                    String::new(),
                ]
            })
            .collect(),
        Sheet::Cdnr => g
            .sections
            .cdnr
            .rows
            .iter()
            .map(|r| {
                vec![
                    r.gstin.clone(),
                    r.name.clone(),
                    r.number.clone(),
                    sheet_date(&r.date),
                    "C".into(),
                    place_of_supply(&r.pos),
                    "N".into(),
                    "Regular".into(),
                    rupees(r.value),
                    String::new(),
                    sheet_rate(r.rate),
                    rupees(r.tax.taxable),
                    zero.clone(),
                ]
            })
            .collect(),
        Sheet::Hsn => g
            .sections
            .hsn
            .rows
            .iter()
            .map(|r| {
                vec![
                    r.sac.clone(),
                    r.description.clone(),
                    r.uqc.into(),
                    r.quantity.to_string(),
                    rupees(r.value),
                    sheet_rate(r.rate),
                    rupees(r.tax.taxable),
                    rupees(r.tax.igst),
                    rupees(r.tax.cgst),
                    rupees(r.tax.sgst),
                    zero.clone(),
                ]
            })
            .collect(),
    };
    for cells in rows {
        out.push_str(&csv::line(&cells.iter().map(String::as_str).collect::<Vec<_>>()));
    }
    out
}

/// Paise as the portal's JSON number of rupees (1180.5 for 118050 paise).
fn amount(paise: i64) -> Value {
    // Exact for any amount below 2^53 paise; serde_json writes the shortest form.
    json!(paise as f64 / 100.0)
}

fn item(num: usize, rate: i64, tax: &Tax) -> Value {
    json!({ "num": num, "itm_det": {
        "txval": amount(tax.taxable), "rt": rate, "iamt": amount(tax.igst),
        "camt": amount(tax.cgst), "samt": amount(tax.sgst), "csamt": amount(0) } })
}

/// The portal's entries of a section of documents to registered clients: per recipient GSTIN,
/// its documents (`documents`: `inv` or `nt`), each with its rates as items; `head` writes a
/// document's own keys.
fn by_recipient(rows: &[PartyRow], documents: &str, head: impl Fn(&PartyRow) -> Value) -> Value {
    let mut parties: BTreeMap<&str, Vec<Vec<&PartyRow>>> = BTreeMap::new();
    for row in rows {
        let docs = parties.entry(&row.gstin).or_default();
        match docs.last_mut() {
            Some(doc) if doc[0].number == row.number => doc.push(row),
            _ => docs.push(vec![row]),
        }
    }
    parties
        .into_iter()
        .map(|(ctin, docs)| {
            let docs: Vec<Value> = docs
                .iter()
                .map(|rates| {
                    let mut doc = head(rates[0]);
                    let items: Vec<Value> = rates
                        .iter()
                        .enumerate()
                        .map(|(i, r)| item(i + 1, r.rate, &r.tax))
                        .collect();
                    doc["itms"] = items.into();
                    doc
                })
                .collect();
            let mut party = json!({ "ctin": ctin });
            party[documents] = docs.into();
            party
        })
        .collect::<Vec<_>>()
        .into()
}

/// The portal's GSTR-1 JSON (GST API v4.0 keys): the sections with rows, each key as the
/// offline tool writes it.
pub fn portal(g: &Gstr1, company_gstin: &str, period: Month) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("gstin".into(), json!(company_gstin));
    out.insert("fp".into(), json!(period.first_day().format("%m%Y").to_string()));
    out.insert("version".into(), json!("GST3.1.8"));
    out.insert("hash".into(), json!("hash"));
    let b2b = &g.sections.b2b.rows;
    if !b2b.is_empty() {
        let invoice = |r: &PartyRow| {
            json!({ "inum": r.number, "idt": portal_date(&r.date), "val": amount(r.value),
            "pos": r.pos, "rchrg": "N", "inv_typ": "R" })
        };
        out.insert("b2b".into(), by_recipient(b2b, "inv", invoice));
    }
    let b2cs = &g.sections.b2cs.rows;
    if !b2cs.is_empty() {
        out.insert("b2cs".into(), b2cs.iter().map(|r| json!({
            "sply_ty": r.supply_type, "pos": r.pos, "typ": "OE", "txval": amount(r.tax.taxable), "rt": r.rate,
            "iamt": amount(r.tax.igst), "camt": amount(r.tax.cgst), "samt": amount(r.tax.sgst), "csamt": amount(0),
        })).collect::<Vec<_>>().into());
    }
    let cdnr = &g.sections.cdnr.rows;
    if !cdnr.is_empty() {
        let note = |r: &PartyRow| {
            json!({ "ntty": "C", "nt_num": r.number, "nt_dt": portal_date(&r.date),
            "val": amount(r.value), "pos": r.pos, "rchrg": "N", "inv_typ": "R" })
        };
        out.insert("cdnr".into(), by_recipient(cdnr, "nt", note));
    }
    let hsn = &g.sections.hsn.rows;
    if !hsn.is_empty() {
        out.insert(
            "hsn".into(),
            json!({ "data": hsn.iter().enumerate().map(|(i, r)| json!({
            "num": i + 1, "hsn_sc": r.sac, "desc": r.description, "uqc": r.uqc, "qty": r.quantity,
            "rt": r.rate, "txval": amount(r.tax.taxable), "iamt": amount(r.tax.igst),
            "camt": amount(r.tax.cgst), "samt": amount(r.tax.sgst), "csamt": amount(0),
        })).collect::<Vec<_>>() }),
        );
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(doc: &str, gstin: Option<&str>, rate: i64, taxable: i64) -> ReturnLine {
        let tax = taxable * rate / 100;
        ReturnLine {
            document_id: format!("id-{doc}"),
            credit_note: doc.starts_with("CN"),
            legacy: false,
            doc_no: doc.into(),
            doc_date: "2025-04-05".into(),
            value: taxable + tax,
            intra_state: true,
            client_id: format!("client-{}", gstin.unwrap_or("b2c")),
            client_name: "Kottayam PACS".into(),
            gstin: gstin.map(str::to_string),
            state_code: Some("32".into()),
            invoice_no: None,
            invoice_date: None,
            sac: Some("998314".into()),
            description: "Accounting software".into(),
            rate,
            taxable,
            igst: 0,
            cgst: tax / 2,
            sgst: tax / 2,
        }
    }

    const GSTIN: &str = "32AAAAA0000A1Z5";

    fn registered_gstin() -> String {
        let body = "32AAACK1234L1Z";
        format!("{body}{}", gstin::check_char(body).unwrap())
    }

    #[test]
    fn dates_and_places_are_written_as_the_tool_reads_them() {
        assert_eq!(sheet_date("2025-04-05"), "05-Apr-2025");
        assert_eq!(portal_date("2025-04-05"), "05-04-2025");
        assert_eq!(place_of_supply("32"), "32-Kerala");
        assert_eq!(amount(118050), json!(1180.5));
        assert_eq!(
            short("Accounting software for primary agricultural credit societies"),
            "Accounting software for primar"
        );
    }

    #[test]
    fn invoices_less_credit_notes_make_the_totals_and_the_hsn_summary() {
        let g = registered_gstin();
        let lines = vec![
            line("INV/25-26-0001", Some(&g), 18, 100_000),
            line("INV/25-26-0001", Some(&g), 12, 50_000),
            line("INV/25-26-0002", None, 18, 20_000),
            line("CN/25-26-0001", None, 18, 5_000),
            line("CN/25-26-0002", Some(&g), 18, 10_000),
        ];
        let r = build(Month::parse("2025-04").unwrap(), &lines, Some(GSTIN), Some("32"));
        assert_eq!(r.sections.b2b.count, 2);
        assert_eq!(r.sections.b2b.total.taxable, 150_000);
        assert_eq!(r.sections.b2cs.rows.len(), 1);
        assert_eq!(r.sections.b2cs.rows[0].tax.taxable, 15_000);
        assert_eq!(r.sections.cdnr.total.taxable, 10_000);
        assert_eq!(r.totals.taxable, 150_000 + 15_000 - 10_000);
        assert_eq!(r.sections.hsn.total, r.totals);
        assert_eq!(
            r.sections
                .hsn
                .rows
                .iter()
                .map(|h| (h.sac.as_str(), h.rate, h.tax.taxable))
                .collect::<Vec<_>>(),
            [("998314", 12, 50_000), ("998314", 18, 105_000)]
        );
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }

    #[test]
    fn what_the_tool_would_refuse_is_named_once_with_where_to_fix_it() {
        let mut no_state = line("INV/25-26-0003", None, 18, 1_000);
        no_state.state_code = None;
        let mut no_sac = line("INV/25-26-0004", Some("32AAAAA0000A1Z0"), 18, 1_000);
        no_sac.sac = None;
        let lines = vec![no_state.clone(), no_state, no_sac.clone(), no_sac];
        let r = build(Month::parse("2025-04").unwrap(), &lines, None, Some("32"));
        let codes: Vec<_> = r.warnings.iter().map(|w| w.code).collect();
        assert_eq!(
            codes,
            [
                "company_without_gstin",
                "client_without_state",
                "missing_sac",
                "invalid_gstin"
            ]
        );
        assert_eq!(r.warnings[1].client_id.as_deref(), Some("client-b2c"));
        assert_eq!(r.warnings[2].document_id.as_deref(), Some("id-INV/25-26-0004"));
        // The unknown state of an intra-state supply is the company's own.
        assert_eq!(r.sections.b2cs.rows[0].pos, "32");
    }

    #[test]
    fn a_large_inter_state_b2c_invoice_and_a_negative_b2c_row_are_warned() {
        let mut large = line("INV/25-26-0009", None, 18, 10_000_000);
        large.intra_state = false;
        large.state_code = Some("29".into());
        let credit_only = line("CN/25-26-0003", None, 18, 5_000);
        let r = build(
            Month::parse("2025-04").unwrap(),
            &[large, credit_only],
            Some(GSTIN),
            Some("32"),
        );
        let codes: Vec<_> = r.warnings.iter().map(|w| w.code).collect();
        assert_eq!(codes, ["b2c_large", "negative_b2cs"]);
        assert_eq!(
            r.sections
                .b2cs
                .rows
                .iter()
                .map(|b| (b.pos.as_str(), b.supply_type, b.tax.taxable))
                .collect::<Vec<_>>(),
            [("29", "INTER", 10_000_000), ("32", "INTRA", -5_000)]
        );
    }

    #[test]
    fn a_sheet_starts_with_the_tools_header_and_writes_rupees() {
        let g = registered_gstin();
        let r = build(
            Month::parse("2025-04").unwrap(),
            &[line("INV/25-26-0001", Some(&g), 18, 100_050)],
            Some(GSTIN),
            Some("32"),
        );
        let b2b = sheet(&r, Sheet::B2b);
        let mut lines = b2b.lines();
        assert!(
            lines
                .next()
                .unwrap()
                .starts_with("GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,")
        );
        assert_eq!(
            lines.next().unwrap(),
            format!(
                "{g},Kottayam PACS,INV/25-26-0001,05-Apr-2025,1180.59,32-Kerala,N,,Regular B2B,,18.00,1000.50,0.00"
            )
        );
        let json = portal(&r, GSTIN, Month::parse("2025-04").unwrap());
        assert_eq!(json["fp"], "042025");
        assert_eq!(
            json["b2b"][0]["inv"][0]["itms"][0]["itm_det"]["txval"],
            json!(1000.5)
        );
        assert!(json.get("cdnr").is_none());
    }
}
