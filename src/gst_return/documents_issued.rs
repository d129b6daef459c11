//! Table 13, the documents issued: a row per number series of the month.

use crate::gst_return::rules::{DocsRow, IssuedNumber, ReturnWarning};
use crate::gst_return::warnings::Warnings;
use crate::reports::continuity;
use std::collections::BTreeMap;

/// Table 13 from the month's numbers, read as the number-continuity report reads them (a
/// series is a prefix and a financial year; a number of another shape, an old system's, is in
/// none): a row per series, invoices (1) then credit notes (5), with the first and last number,
/// how many, and how many of them are cancelled. A series with numbers missing between its
/// first and last (dated in another month) is warned.
pub(crate) fn documents_issued(numbers: &[IssuedNumber], warnings: &mut Warnings) -> Vec<DocsRow> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gst_return::portal::portal;
    use crate::gst_return::sheets::{Sheet, sheet};
    use crate::gst_return::tables::build;
    use crate::plumbing::clock::Month;
    use serde_json::json;

    const GSTIN: &str = "32AAAAA0000A1Z5";

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
}
