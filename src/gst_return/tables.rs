//! The return's tables built from a month's lines: B2B, B2C large and small, credit notes to
//! registered and unregistered clients, nil-rated supplies and the HSN/SAC summary, with the
//! totals and the warnings.

use crate::gst_return::documents_issued::documents_issued;
use crate::gst_return::rules::{
    B2C_LARGE_ABOVE, B2csRow, DESCRIPTION_MAX, Gstr1, HsnRow, IssuedNumber, NilRow, PartyRow, ReturnDocument,
    ReturnLine, ReturnWarning, Section, Sections, Tax, place_of_supply,
};
use crate::gst_return::warnings::{Warnings, check_document};
use crate::plumbing::clock::Month;
use crate::plumbing::gstin::{self, Gstin};
use crate::plumbing::money;
use std::collections::{BTreeMap, BTreeSet};

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

fn registered(doc: &ReturnDocument) -> Option<&str> {
    doc.gstin.as_deref().map(str::trim).filter(|g| !g.is_empty())
}

/// HSN/SAC rows by (SAC, rate): the SAC's description, the first line's, and the sum.
type HsnMap<'a> = BTreeMap<(&'a str, i64), (String, String, Tax)>;

fn add_hsn<'a>(map: &mut HsnMap<'a>, line: &'a ReturnLine, sign: i64, tax: Tax) {
    let sac = line.sac.as_deref().map(str::trim).unwrap_or_default();
    let entry = map.entry((sac, line.rate)).or_insert_with(|| {
        let own = short(&line.description);
        let description = sac_description(sac).map_or_else(|| own.clone(), str::to_string);
        (description, own, Tax::default())
    });
    entry.2.add(sign, tax);
}

fn hsn_rows(map: HsnMap) -> Vec<HsnRow> {
    map.into_iter()
        .map(|((sac, rate), (description, user_description, tax))| HsnRow {
            sac: sac.to_string(),
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

/// A row per document and rate (B2B, B2CL, CDNR, CDNUR), keyed by (date, number, rate) so a
/// document's rates stay together.
type PartyMap<'a> = BTreeMap<(&'a str, &'a str, i64), PartyRow>;

fn add_party<'a>(
    map: &mut PartyMap<'a>,
    doc: &'a ReturnDocument,
    line: &ReturnLine,
    gstin: &str,
    pos: &str,
    tax: Tax,
) {
    map.entry((&doc.doc_date, &doc.doc_no, line.rate))
        .or_insert_with(|| PartyRow {
            document_id: doc.id.clone(),
            client_id: doc.client_id.clone(),
            gstin: gstin.to_string(),
            name: doc.client_name.clone(),
            number: doc.doc_no.clone(),
            date: doc.doc_date.clone(),
            invoice_no: doc.invoice_no.clone(),
            invoice_date: doc.invoice_date.clone(),
            value: doc.value,
            pos: pos.to_string(),
            rate: line.rate,
            tax: Tax::default(),
        })
        .tax
        .add(1, tax);
}

/// Whether an unregistered client's document belongs to B2C large: an inter-state invoice over
/// the limit, or a credit note against one (CDNUR).
fn b2c_large(doc: &ReturnDocument) -> bool {
    if doc.credit_note {
        doc.invoice_intra_state == Some(false) && doc.invoice_value.is_some_and(|v| v > B2C_LARGE_ABOVE)
    } else {
        !doc.intra_state && doc.value > B2C_LARGE_ABOVE
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

/// The state code of a document's place of supply, warning of a client GSTIN that fails its
/// check or of an unregistered client without a state: a registered client's state, else its
/// GSTIN's first two characters; an unregistered client's state, else (unknown) the company's
/// for an intra-state document and none for an inter-state one.
fn place_of<'a>(
    doc: &'a ReturnDocument,
    gstin: Option<&'a str>,
    company_state: Option<&'a str>,
    warnings: &mut Warnings,
) -> &'a str {
    match gstin {
        Some(gstin) => {
            if Gstin::parse(gstin).is_err() {
                warnings.client(
                    "invalid_gstin",
                    doc,
                    format!("{}'s GSTIN {gstin} fails its check: the tool refuses the row. Correct it on the client.", doc.client_name),
                );
            }
            doc.state_code.as_deref().unwrap_or_else(|| {
                gstin
                    .char_indices()
                    .nth(2)
                    .map_or(gstin, |(end, _)| &gstin[..end])
            })
        }
        None => match doc
            .state_code
            .as_deref()
            .filter(|c| gstin::state_name(c).is_some())
        {
            Some(code) => code,
            None => {
                warnings.client(
                    "client_without_state",
                    doc,
                    format!("{} has no GSTIN and no state: the place of supply of its B2C supplies is unknown. Set its state on the client.", doc.client_name),
                );
                // The document was taxed as intra-state when its state was unknown.
                if doc.intra_state {
                    company_state.unwrap_or_default()
                } else {
                    ""
                }
            }
        },
    }
}

/// The return of `period` from its documents (by date and number, each with its lines by
/// position) and the numbers its invoices and credit notes carry, for a company in
/// `company_state` with `company_gstin`.
pub fn build<'a>(
    period: Month,
    documents: &'a [ReturnDocument],
    numbers: &[IssuedNumber],
    company_gstin: Option<&str>,
    company_state: Option<&'a str>,
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
    let mut b2cs: BTreeMap<(&str, i64, &'static str), Tax> = BTreeMap::new();
    let mut nil: BTreeMap<&'static str, i64> = BTreeMap::new();
    let mut hsn = HsnMap::new();
    let mut hsn_b2b = HsnMap::new();
    let mut hsn_b2c = HsnMap::new();
    for doc in documents {
        let sign = if doc.credit_note { -1 } else { 1 };
        let gstin = registered(doc);
        // Found at the first line, in the order its warnings have always come in.
        let mut place: Option<&str> = None;
        for line in &doc.lines {
            let tax = Tax::of(line);
            totals.add(sign, tax);
            check_document(doc, line, &mut warnings);
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
            let pos = *place.get_or_insert_with(|| place_of(doc, gstin, company_state, &mut warnings));
            // A 0 % line of the office's own is nil-rated (Table 8), whoever it went to; an
            // imported invoice's 0 % is only its missing split, and stays where it was.
            let nil_rated = line.rate == 0 && !doc.legacy;
            if nil_rated {
                *nil.entry(nil_supply(gstin.is_some(), doc.intra_state))
                    .or_default() += sign * line.taxable;
            } else if let Some(gstin) = gstin {
                let rows = if doc.credit_note { &mut cdnr } else { &mut b2b };
                add_party(rows, doc, line, gstin, pos, tax);
            } else if b2c_large(doc) {
                let rows = if doc.credit_note { &mut cdnur } else { &mut b2cl };
                add_party(rows, doc, line, "", pos, tax);
            } else {
                let supply = if doc.intra_state { "INTRA" } else { "INTER" };
                b2cs.entry((pos, line.rate, supply)).or_default().add(sign, tax);
            }
        }
    }
    let b2cs: Vec<B2csRow> = b2cs
        .into_iter()
        .map(|((pos, rate, supply_type), tax)| B2csRow {
            pos: pos.to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gst_return::portal::{portal, portal_text};
    use crate::gst_return::sheets::{Sheet, sheet};
    use serde_json::json;

    /// A document of one line (a document of two rates is two of these with one number).
    fn line(doc: &str, gstin: Option<&str>, rate: i64, taxable: i64) -> ReturnDocument {
        let tax = taxable * rate / 100;
        ReturnDocument {
            id: format!("id-{doc}"),
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
            lines: vec![ReturnLine {
                position: 1,
                sac: Some("998314".into()),
                description: "Accounting software".into(),
                rate,
                taxable,
                igst: 0,
                cgst: tax / 2,
                sgst: tax / 2,
            }],
        }
    }

    const GSTIN: &str = "32AAAAA0000A1Z5";

    fn registered_gstin() -> String {
        let body = "32AAACK1234L1Z";
        format!("{body}{}", gstin::check_char(body).unwrap())
    }

    #[test]
    fn a_description_is_cut_to_what_the_portal_keeps() {
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
        no_sac.lines[0].sac = None;
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
            let t = &mut l.lines[0];
            t.igst = t.cgst + t.sgst;
            t.cgst = 0;
            t.sgst = 0;
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
