//! The portal's GSTR-1 JSON: the return's sections as the offline tool writes them, every amount
//! with two decimals.

use crate::gst_return::rules::{Gstr1, HsnRow, PartyRow, TOOL_VERSION, Tax, portal_date};
use crate::plumbing::clock::Month;
use serde_json::{Value, json};
use std::collections::BTreeMap;

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

    #[test]
    fn an_amount_is_rupees() {
        assert_eq!(amount(118050), json!(1180.5));
    }
}
