//! The offline tool's CSV sheets, one per section of the return.

use crate::gst_return::rules::{Gstr1, place_of_supply, sheet_date};
use crate::plumbing::http::csv;
use crate::plumbing::money;

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
