//! GSTR-1 from a month's issued invoice and credit note lines: the sections (B2B, B2C large and
//! small, credit notes to registered and unregistered clients, nil-rated supplies, the HSN/SAC
//! summary split B2B and B2C, the documents issued), what would make the GST offline tool refuse
//! the file, and the two files the accountant uploads (the tool's CSV sheets and the portal's
//! JSON). Plain rules over plain rows; the sources of every header and key are in
//! docs/api/gst_return.md ("GSTR-1 export").

use crate::plumbing::clock;
use crate::plumbing::clock::Month;
use crate::plumbing::gstin::{self, Gstin};
use crate::plumbing::http::csv;
use crate::plumbing::money;
use crate::reports::continuity;
use chrono::NaiveDate;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use utoipa::ToSchema;

/// An unregistered client's inter-state invoice above this value (₹1,00,000 since August 2024;
/// notification 12/2024-CT) belongs in B2C large (Table 5), its credit notes in CDNUR (Table 9B).
pub const B2C_LARGE_ABOVE: i64 = 10_000_000;

/// The Returns Offline Tool whose JSON this export writes (its `version` key); see docs/api/gst_return.md.
pub const TOOL_VERSION: &str = "GST3.2.4";

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
    /// For a credit note, the invoice it credits, with its value and whether it was intra-state.
    pub invoice_no: Option<String>,
    pub invoice_date: Option<String>,
    pub invoice_value: Option<i64>,
    pub invoice_intra_state: Option<bool>,
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

/// HSN/SAC rows by (SAC, rate): the SAC's description, the first line's, and the sum.
type HsnMap = BTreeMap<(String, i64), (String, String, Tax)>;

fn add_hsn(map: &mut HsnMap, line: &ReturnLine, sign: i64, tax: Tax) {
    let sac = line.sac.as_deref().map(str::trim).unwrap_or_default().to_string();
    let entry = map.entry((sac.clone(), line.rate)).or_insert_with(|| {
        let own = short(&line.description);
        let description = sac_description(&sac).map_or_else(|| own.clone(), str::to_string);
        (description, own, Tax::default())
    });
    entry.2.add(sign, tax);
}

fn hsn_rows(map: HsnMap) -> Vec<HsnRow> {
    map.into_iter()
        .map(|((sac, rate), (description, user_description, tax))| HsnRow {
            sac,
            description,
            user_description,
            uqc: "NA",
            quantity: 0,
            rate,
            value: tax.value(),
            tax,
        })
        .collect()
}

/// A row per document and rate (B2B, B2CL, CDNR, CDNUR), keyed so a document's rates stay
/// together.
type PartyMap = BTreeMap<(String, String, i64), PartyRow>;

fn add_party(map: &mut PartyMap, line: &ReturnLine, gstin: &str, pos: String, tax: Tax) {
    let key = (line.doc_date.clone(), line.doc_no.clone(), line.rate);
    map.entry(key)
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

/// Whether an unregistered client's line belongs to B2C large: an inter-state invoice over the
/// limit, or a credit note against one (CDNUR).
fn b2c_large(line: &ReturnLine) -> bool {
    if line.credit_note {
        line.invoice_intra_state == Some(false) && line.invoice_value.is_some_and(|v| v > B2C_LARGE_ABOVE)
    } else {
        !line.intra_state && line.value > B2C_LARGE_ABOVE
    }
}

/// The nil-rated supply type of a 0 % line.
fn nil_supply(registered: bool, intra_state: bool) -> &'static str {
    match (registered, intra_state) {
        (true, false) => "INTRB2B",
        (true, true) => "INTRAB2B",
        (false, false) => "INTRB2C",
        (false, true) => "INTRAB2C",
    }
}

/// The return of `period` from its lines (in document order, then line position) and the
/// numbers its invoices and credit notes carry, for a company in `company_state` with
/// `company_gstin`.
pub fn build(
    period: Month,
    lines: &[ReturnLine],
    numbers: &[IssuedNumber],
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
    let mut b2b = PartyMap::new();
    let mut cdnr = PartyMap::new();
    let mut b2cl = PartyMap::new();
    let mut cdnur = PartyMap::new();
    let mut b2cs: BTreeMap<(String, i64, &'static str), Tax> = BTreeMap::new();
    let mut nil: BTreeMap<&'static str, i64> = BTreeMap::new();
    let mut hsn = HsnMap::new();
    let mut hsn_b2b = HsnMap::new();
    let mut hsn_b2c = HsnMap::new();
    for line in lines {
        let sign = if line.credit_note { -1 } else { 1 };
        let tax = Tax::of(line);
        totals.add(sign, tax);
        check_document(line, &mut warnings);
        let gstin = registered(line);
        add_hsn(&mut hsn, line, sign, tax);
        add_hsn(
            if gstin.is_some() {
                &mut hsn_b2b
            } else {
                &mut hsn_b2c
            },
            line,
            sign,
            tax,
        );
        // A 0 % line of the office's own is nil-rated (Table 8), whoever it went to; an
        // imported invoice's 0 % is only its missing split, and stays where it was.
        let nil_rated = line.rate == 0 && !line.legacy;
        match gstin {
            Some(gstin) => {
                if Gstin::parse(gstin).is_err() {
                    warnings.client(
                        "invalid_gstin",
                        line,
                        format!("{}'s GSTIN {gstin} fails its check: the tool refuses the row. Correct it on the client.", line.client_name),
                    );
                }
                if nil_rated {
                    *nil.entry(nil_supply(true, line.intra_state)).or_default() += sign * line.taxable;
                    continue;
                }
                let pos = line
                    .state_code
                    .clone()
                    .unwrap_or_else(|| gstin.chars().take(2).collect());
                let rows = if line.credit_note { &mut cdnr } else { &mut b2b };
                add_party(rows, line, gstin, pos, tax);
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
                if nil_rated {
                    *nil.entry(nil_supply(false, line.intra_state)).or_default() += sign * line.taxable;
                } else if b2c_large(line) {
                    let rows = if line.credit_note { &mut cdnur } else { &mut b2cl };
                    add_party(rows, line, "", pos, tax);
                } else {
                    let supply = if line.intra_state { "INTRA" } else { "INTER" };
                    b2cs.entry((pos, line.rate, supply)).or_default().add(sign, tax);
                }
            }
        }
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
    let nil: Vec<NilRow> = nil
        .into_iter()
        .map(|(supply_type, nil_rated)| NilRow {
            supply_type,
            nil_rated,
            exempt: 0,
            non_gst: 0,
        })
        .collect();
    let docs = documents_issued(numbers, &mut warnings);
    Gstr1 {
        period: period.to_string(),
        totals,
        sections: Sections {
            b2b: section(b2b.into_values().collect(), |r: &PartyRow| r.tax),
            b2cl: section(b2cl.into_values().collect(), |r: &PartyRow| r.tax),
            b2cs: section(b2cs, |r: &B2csRow| r.tax),
            cdnr: section(cdnr.into_values().collect(), |r: &PartyRow| r.tax),
            cdnur: section(cdnur.into_values().collect(), |r: &PartyRow| r.tax),
            nil: section(nil, |r: &NilRow| Tax {
                taxable: r.nil_rated + r.exempt + r.non_gst,
                ..Tax::default()
            }),
            hsn: section(hsn_rows(hsn), |r: &HsnRow| r.tax),
            hsn_b2b: section(hsn_rows(hsn_b2b), |r: &HsnRow| r.tax),
            hsn_b2c: section(hsn_rows(hsn_b2c), |r: &HsnRow| r.tax),
            docs: section(docs, |_| Tax::default()),
        },
        warnings: warnings.list,
    }
}

/// Table 13 from the month's numbers, read as the number-continuity report reads them (a
/// series is a prefix and a financial year; a number of another shape, an old system's, is in
/// none): a row per series, invoices (1) then credit notes (5), with the first and last number,
/// how many, and how many of them are cancelled. A series with numbers missing between its
/// first and last (dated in another month) is warned.
fn documents_issued(numbers: &[IssuedNumber], warnings: &mut Warnings) -> Vec<DocsRow> {
    let mut series: BTreeMap<(u8, String, String), (continuity::Numbers, i64)> = BTreeMap::new();
    for n in numbers {
        if let Some((prefix, fy, seq)) = continuity::parse_number(&n.doc_no) {
            let doc_num = if n.credit_note { 5 } else { 1 };
            let found = series
                .entry((doc_num, fy.to_string(), prefix.to_string()))
                .or_default();
            found.0.seqs.push(seq);
            found.1 += i64::from(n.cancelled);
        }
    }
    series
        .into_iter()
        .filter_map(|((doc_num, fy, prefix), (numbers, cancelled))| {
            let c = continuity::continuity(&prefix, &fy, numbers, None)?;
            if c.gap_count > 0 {
                warnings.list.push(ReturnWarning {
                    code: "series_gap",
                    message: format!(
                        "{} of the numbers between {} and {} are not dated this month: Table 13 counts the {} that are. Check the series in the number-continuity report.",
                        c.gap_count, c.first, c.last, c.count
                    ),
                    document_id: None,
                    client_id: None,
                });
            }
            Some(DocsRow {
                doc_num,
                nature: if doc_num == 1 {
                    "Invoices for outward supply"
                } else {
                    "Credit Note"
                },
                prefix,
                fy,
                from: c.first,
                to: c.last,
                total: c.count,
                cancelled,
                net_issued: c.count - cancelled,
            })
        })
        .collect()
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

/// A rate as the sheets write it: `18.00`.
fn sheet_rate(rate: i64) -> String {
    format!("{rate}.00")
}

/// The offline tool's sections, each a CSV sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sheet {
    B2b,
    B2cl,
    B2cs,
    Cdnr,
    Cdnur,
    Hsn,
    HsnB2b,
    HsnB2c,
    Docs,
}

impl Sheet {
    pub fn parse(text: &str) -> Option<Sheet> {
        Some(match text {
            "b2b" => Sheet::B2b,
            "b2cl" => Sheet::B2cl,
            "b2cs" => Sheet::B2cs,
            "cdnr" => Sheet::Cdnr,
            "cdnur" => Sheet::Cdnur,
            "hsn" => Sheet::Hsn,
            "hsn_b2b" => Sheet::HsnB2b,
            "hsn_b2c" => Sheet::HsnB2c,
            "docs" => Sheet::Docs,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Sheet::B2b => "b2b",
            Sheet::B2cl => "b2cl",
            Sheet::B2cs => "b2cs",
            Sheet::Cdnr => "cdnr",
            Sheet::Cdnur => "cdnur",
            Sheet::Hsn => "hsn",
            Sheet::HsnB2b => "hsn_b2b",
            Sheet::HsnB2c => "hsn_b2c",
            Sheet::Docs => "docs",
        }
    }

    /// The header row of the tool's sheet (the Returns Offline Tool's Excel template: b2b,
    /// b2cl, b2cs, cdnr, cdnur, hsn(b2b), hsn(b2c), docs).
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
            Sheet::B2cl => &[
                "Invoice Number",
                "Invoice date",
                "Invoice Value",
                "Place Of Supply",
                "Applicable % of Tax Rate",
                "Rate",
                "Taxable Value",
                "Cess Amount",
                "E-Commerce GSTIN",
            ],
            Sheet::Cdnur => &[
                "UR Type",
                "Note Number",
                "Note Date",
                "Note Type",
                "Place Of Supply",
                "Note Value",
                "Applicable % of Tax Rate",
                "Rate",
                "Taxable Value",
                "Cess Amount",
            ],
            Sheet::Docs => &[
                "Nature of Document",
                "Sr. No. From",
                "Sr. No. To",
                "Total Number",
                "Cancelled",
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
            Sheet::Hsn | Sheet::HsnB2b | Sheet::HsnB2c => &[
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
        Sheet::B2cl => g
            .sections
            .b2cl
            .rows
            .iter()
            .map(|r| {
                vec![
                    r.number.clone(),
                    sheet_date(&r.date),
                    rupees(r.value),
                    place_of_supply(&r.pos),
                    String::new(),
                    sheet_rate(r.rate),
                    rupees(r.tax.taxable),
                    zero.clone(),
                    String::new(),
                ]
            })
            .collect(),
        Sheet::Cdnur => g
            .sections
            .cdnur
            .rows
            .iter()
            .map(|r| {
                vec![
                    "B2CL".into(),
                    r.number.clone(),
                    sheet_date(&r.date),
                    "C".into(),
                    place_of_supply(&r.pos),
                    rupees(r.value),
                    String::new(),
                    sheet_rate(r.rate),
                    rupees(r.tax.taxable),
                    zero.clone(),
                ]
            })
            .collect(),
        Sheet::Docs => g
            .sections
            .docs
            .rows
            .iter()
            .map(|r| {
                vec![
                    r.nature.into(),
                    r.from.clone(),
                    r.to.clone(),
                    r.total.to_string(),
                    r.cancelled.to_string(),
                ]
            })
            .collect(),
        Sheet::Hsn | Sheet::HsnB2b | Sheet::HsnB2c => match which {
            Sheet::HsnB2b => &g.sections.hsn_b2b,
            Sheet::HsnB2c => &g.sections.hsn_b2c,
            _ => &g.sections.hsn,
        }
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

/// Paise as the portal's JSON number of rupees (1180.5 for 118050 paise), written with two
/// decimals by [`portal_text`].
fn amount(paise: i64) -> Value {
    // Exact for any amount below 2^53 paise.
    json!(paise as f64 / 100.0)
}

/// Writes every amount (a JSON float: only amounts are) with two decimals, as the offline tool
/// does (`1180.50`); counts, rates and numbers stay integers.
struct TwoDecimals;

impl serde_json::ser::Formatter for TwoDecimals {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, value: f64) -> std::io::Result<()> {
        write!(writer, "{value:.2}")
    }
}

/// The portal's JSON as text, every amount with two decimals.
pub fn portal_text(value: &Value) -> String {
    let mut out = Vec::new();
    let mut writer = serde_json::Serializer::with_formatter(&mut out, TwoDecimals);
    serde::Serialize::serialize(value, &mut writer).expect("a JSON value serialises");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// An item of an inter-state B2C large document: IGST only.
fn item_inter(num: usize, rate: i64, tax: &Tax) -> Value {
    json!({ "num": num, "itm_det": {
        "rt": rate, "txval": amount(tax.taxable), "iamt": amount(tax.igst), "csamt": amount(0) } })
}

/// A document's rows (one per rate), consecutive in `rows`, as runs.
fn by_document(rows: &[PartyRow]) -> Vec<Vec<&PartyRow>> {
    let mut docs: Vec<Vec<&PartyRow>> = vec![];
    for row in rows {
        match docs.last_mut() {
            Some(doc) if doc[0].document_id == row.document_id => doc.push(row),
            _ => docs.push(vec![row]),
        }
    }
    docs
}

fn hsn_table(rows: &[HsnRow]) -> Value {
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "num": i + 1, "hsn_sc": r.sac, "desc": r.description, "user_desc": r.user_description,
                "uqc": r.uqc, "qty": r.quantity, "rt": r.rate, "txval": amount(r.tax.taxable),
                "iamt": amount(r.tax.igst), "camt": amount(r.tax.cgst), "samt": amount(r.tax.sgst),
                "csamt": amount(0),
            })
        })
        .collect::<Vec<_>>()
        .into()
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

/// The portal's GSTR-1 JSON (GST API v4.0 keys, "GSTR1 – Save GSTR1 data attributes"): the
/// sections with rows, each key as the offline tool writes it. Write it with [`portal_text`].
pub fn portal(g: &Gstr1, company_gstin: &str, period: Month) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("gstin".into(), json!(company_gstin));
    out.insert("fp".into(), json!(period.first_day().format("%m%Y").to_string()));
    out.insert("version".into(), json!(TOOL_VERSION));
    out.insert("hash".into(), json!("hash"));
    let b2b = &g.sections.b2b.rows;
    if !b2b.is_empty() {
        let invoice = |r: &PartyRow| {
            json!({ "inum": r.number, "idt": portal_date(&r.date), "val": amount(r.value),
            "pos": r.pos, "rchrg": "N", "inv_typ": "R" })
        };
        out.insert("b2b".into(), by_recipient(b2b, "inv", invoice));
    }
    let b2cl = &g.sections.b2cl.rows;
    if !b2cl.is_empty() {
        let mut by_pos: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
        for rates in by_document(b2cl) {
            let r = rates[0];
            let items: Vec<Value> = rates
                .iter()
                .enumerate()
                .map(|(i, r)| item_inter(i + 1, r.rate, &r.tax))
                .collect();
            by_pos.entry(&r.pos).or_default().push(json!({
                "inum": r.number, "idt": portal_date(&r.date), "val": amount(r.value), "itms": items,
            }));
        }
        out.insert(
            "b2cl".into(),
            by_pos
                .into_iter()
                .map(|(pos, inv)| json!({ "pos": pos, "inv": inv }))
                .collect::<Vec<_>>()
                .into(),
        );
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
    let cdnur = &g.sections.cdnur.rows;
    if !cdnur.is_empty() {
        let notes: Vec<Value> = by_document(cdnur)
            .into_iter()
            .map(|rates| {
                let r = rates[0];
                let items: Vec<Value> = rates
                    .iter()
                    .enumerate()
                    .map(|(i, r)| item_inter(i + 1, r.rate, &r.tax))
                    .collect();
                json!({ "typ": "B2CL", "ntty": "C", "nt_num": r.number, "nt_dt": portal_date(&r.date),
                    "val": amount(r.value), "pos": r.pos, "itms": items })
            })
            .collect();
        out.insert("cdnur".into(), notes.into());
    }
    let nil = &g.sections.nil.rows;
    if !nil.is_empty() {
        let inv: Vec<Value> = nil
            .iter()
            .map(|r| {
                json!({ "sply_ty": r.supply_type, "nil_amt": amount(r.nil_rated),
                "expt_amt": amount(r.exempt), "ngsup_amt": amount(r.non_gst) })
            })
            .collect();
        out.insert("nil".into(), json!({ "inv": inv }));
    }
    let (hsn_b2b, hsn_b2c) = (&g.sections.hsn_b2b.rows, &g.sections.hsn_b2c.rows);
    if !hsn_b2b.is_empty() || !hsn_b2c.is_empty() {
        let mut hsn = serde_json::Map::new();
        if !hsn_b2b.is_empty() {
            hsn.insert("hsn_b2b".into(), hsn_table(hsn_b2b));
        }
        if !hsn_b2c.is_empty() {
            hsn.insert("hsn_b2c".into(), hsn_table(hsn_b2c));
        }
        out.insert("hsn".into(), Value::Object(hsn));
    }
    let docs = &g.sections.docs.rows;
    if !docs.is_empty() {
        let mut det: BTreeMap<u8, Vec<Value>> = BTreeMap::new();
        for r in docs {
            let rows = det.entry(r.doc_num).or_default();
            rows.push(json!({ "num": rows.len() + 1, "from": r.from, "to": r.to,
                "totnum": r.total, "cancel": r.cancelled, "net_issue": r.net_issued }));
        }
        let doc_det: Vec<Value> = det
            .into_iter()
            .map(|(doc_num, docs)| json!({ "doc_num": doc_num, "docs": docs }))
            .collect();
        out.insert("doc_issue".into(), json!({ "doc_det": doc_det }));
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
            invoice_value: None,
            invoice_intra_state: None,
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
        let r = build(
            Month::parse("2025-04").unwrap(),
            &lines,
            &[],
            Some(GSTIN),
            Some("32"),
        );
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
        let r = build(Month::parse("2025-04").unwrap(), &lines, &[], None, Some("32"));
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
    fn a_large_inter_state_b2c_invoice_is_b2c_large_and_a_negative_b2c_row_is_warned() {
        let inter = |doc: &str, taxable: i64| {
            let mut l = line(doc, None, 18, taxable);
            l.intra_state = false;
            l.state_code = Some("29".into());
            l.igst = l.cgst + l.sgst;
            l.cgst = 0;
            l.sgst = 0;
            l
        };
        // ₹1,00,000 exactly stays small; ₹1,00,000.01 is large.
        let at_limit = inter("INV/25-26-0008", 10_000_000 * 100 / 118);
        let mut large = inter("INV/25-26-0009", 10_000_000);
        large.value = B2C_LARGE_ABOVE + 1;
        let mut at = at_limit.clone();
        at.value = B2C_LARGE_ABOVE;
        let mut note = inter("CN/25-26-0004", 100_000);
        note.invoice_no = Some("INV/25-26-0009".into());
        note.invoice_value = Some(B2C_LARGE_ABOVE + 1);
        note.invoice_intra_state = Some(false);
        let credit_only = line("CN/25-26-0003", None, 18, 5_000);
        let mut nil = line("INV/25-26-0010", None, 0, 7_000);
        nil.intra_state = false;
        let r = build(
            Month::parse("2025-04").unwrap(),
            &[at, large, note, credit_only, nil],
            &[],
            Some(GSTIN),
            Some("32"),
        );
        let codes: Vec<_> = r.warnings.iter().map(|w| w.code).collect();
        assert_eq!(codes, ["negative_b2cs"]);
        assert_eq!(
            r.sections
                .b2cs
                .rows
                .iter()
                .map(|b| (b.pos.as_str(), b.supply_type, b.tax.taxable))
                .collect::<Vec<_>>(),
            [("29", "INTER", 10_000_000 * 100 / 118), ("32", "INTRA", -5_000)]
        );
        assert_eq!(r.sections.b2cl.rows.len(), 1);
        assert_eq!(r.sections.b2cl.rows[0].number, "INV/25-26-0009");
        assert_eq!(r.sections.cdnur.total.taxable, 100_000);
        assert_eq!(r.sections.nil.rows[0].supply_type, "INTRB2C");
        assert_eq!(r.sections.nil.total.taxable, 7_000);
        // HSN B2C = B2C small + B2C large − unregistered notes + nil-rated.
        assert_eq!(
            r.sections.hsn_b2c.total.taxable,
            r.sections.b2cs.total.taxable + r.sections.b2cl.total.taxable - r.sections.cdnur.total.taxable
                + r.sections.nil.total.taxable
        );
        let json = portal(&r, GSTIN, Month::parse("2025-04").unwrap());
        assert_eq!(json["b2cl"][0]["pos"], "29");
        assert_eq!(json["cdnur"][0]["typ"], "B2CL");
        assert_eq!(json["nil"]["inv"][0]["nil_amt"], json!(70.0));
        assert!(json["hsn"].get("hsn_b2b").is_none());
        assert!(portal_text(&json).contains(r#""nil_amt":70.00,"#));
    }

    #[test]
    fn table_13_reads_the_series_as_the_continuity_report_does() {
        let n = |doc_no: &str, credit_note: bool, cancelled: bool| IssuedNumber {
            doc_no: doc_no.into(),
            credit_note,
            cancelled,
        };
        let numbers = [
            n("INV/25-26-0004", false, false),
            n("INV/25-26-0005", false, true),
            n("INV/25-26-0007", false, false),
            n("OLD/2024/000123", false, false),
            n("CN/25-26-0001", true, false),
        ];
        let r = build(
            Month::parse("2025-04").unwrap(),
            &[],
            &numbers,
            Some(GSTIN),
            Some("32"),
        );
        let rows: Vec<_> = r
            .sections
            .docs
            .rows
            .iter()
            .map(|d| {
                (
                    d.doc_num,
                    d.from.as_str(),
                    d.to.as_str(),
                    d.total,
                    d.cancelled,
                    d.net_issued,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                (1, "INV/25-26-0004", "INV/25-26-0007", 3, 1, 2),
                (5, "CN/25-26-0001", "CN/25-26-0001", 1, 0, 1)
            ]
        );
        assert_eq!(
            r.warnings.iter().map(|w| w.code).collect::<Vec<_>>(),
            ["series_gap"]
        );
        let json = portal(&r, GSTIN, Month::parse("2025-04").unwrap());
        assert_eq!(
            json["doc_issue"]["doc_det"][1],
            json!({ "doc_num": 5, "docs": [ { "num": 1, "from": "CN/25-26-0001", "to": "CN/25-26-0001",
                "totnum": 1, "cancel": 0, "net_issue": 1 } ] })
        );
        let docs = sheet(&r, Sheet::Docs);
        assert_eq!(
            docs.lines().nth(1).unwrap(),
            "Invoices for outward supply,INV/25-26-0004,INV/25-26-0007,3,1"
        );
    }

    #[test]
    fn a_sheet_starts_with_the_tools_header_and_writes_rupees() {
        let g = registered_gstin();
        let r = build(
            Month::parse("2025-04").unwrap(),
            &[line("INV/25-26-0001", Some(&g), 18, 100_050)],
            &[],
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
