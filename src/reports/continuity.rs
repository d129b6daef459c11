//! The number-continuity report (issue 20; decisions 11): for each number series and financial
//! year, the first and last number, how many there are, and every number missing between them
//! (as runs, each marked when the legacy import explains it: see [`Gap`]) or written twice, so
//! the owner can show an auditor that the invoice series is unbroken.
//!
//! A series is a prefix and a financial year (`INV/25-26-0001`: INV, 25-26): the documents'
//! (QT, PI, INV, CN) and the receipts' (RCT). Every number given counts, cancelled documents
//! and payments included (they keep theirs: spec 3.1). A number in another shape (an old
//! system's, kept by the import) belongs to no series and is left out. Gaps are read between
//! the first and the last number found, and after the last up to the last one the series gave
//! (`number_series.last_seq`); a series that starts past 1 (seeded past the old system's numbers
//! by the import) shows it in `first`.

use crate::plumbing::clock::Fy;
use crate::plumbing::error::AppError;
use crate::reports::store;
use rusqlite::Connection;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use utoipa::ToSchema;

/// At most this many gaps or duplicates are listed per series (the counts are whole).
pub const LISTED: usize = 100;

/// One series of one financial year.
#[derive(Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Continuity {
    pub prefix: String,
    /// YY-YY.
    pub fy: String,
    pub first: String,
    pub last: String,
    pub count: i64,
    /// The runs of missing numbers, in order (at most `LISTED`).
    pub gaps: Vec<Gap>,
    /// How many numbers are missing in all.
    pub gap_count: i64,
    /// Numbers found more than once (at most `LISTED`).
    pub duplicates: Vec<String>,
    /// No gap and no duplicate.
    pub unbroken: bool,
}

/// A run of consecutive numbers missing from a series.
#[derive(Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Gap {
    /// The first and the last number missing (the same when one is).
    pub from: String,
    pub to: String,
    pub count: i64,
    /// The imported invoice whose number borders the gap (the number just after it, else the
    /// one just before it), when one does: the gap lies between the old system's numbers and
    /// the office's own, or between two of the old system's, and the import explains it.
    pub explained_by_import: Option<Imported>,
}

/// An invoice the legacy import recorded (`source` legacy), by its own number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Imported {
    pub document_id: String,
    #[serde(rename = "docNo")]
    pub doc_no: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ContinuityReport {
    /// By financial year, then prefix.
    pub rows: Vec<Continuity>,
}

/// `INV/25-26-0001` as (INV, 25-26, 1); None for any other shape.
pub fn parse_number(number: &str) -> Option<(&str, &str, i64)> {
    let (prefix, rest) = number.split_once('/')?;
    let (fy, seq) = rest.rsplit_once('-')?;
    let fy_ok =
        fy.len() == 5 && fy.as_bytes()[2] == b'-' && fy.bytes().filter(u8::is_ascii_digit).count() == 4;
    let prefix_ok = !prefix.is_empty() && prefix.bytes().all(|b| b.is_ascii_uppercase());
    let seq_ok = !seq.is_empty() && seq.bytes().all(|b| b.is_ascii_digit());
    (fy_ok && prefix_ok && seq_ok).then_some((prefix, fy, seq.parse().ok()?))
}

/// The numbers found in one series: every sequence, and those of imported invoices.
#[derive(Debug, Default)]
pub struct Numbers {
    pub seqs: Vec<i64>,
    pub imported: HashMap<i64, Imported>,
}

/// The continuity of one series from its numbers and the last one it gave.
pub fn continuity(prefix: &str, fy: &str, numbers: Numbers, given: Option<i64>) -> Option<Continuity> {
    let Numbers { mut seqs, imported } = numbers;
    seqs.sort_unstable();
    let (&first, &last) = (seqs.first()?, seqs.last()?);
    let number = |seq: i64| crate::documents::rules::number(prefix, fy, seq);
    let mut gaps = vec![];
    let mut gap_count = 0;
    let mut duplicates = vec![];
    let mut missing = |from: i64, to: i64| {
        if to < from {
            return;
        }
        gap_count += to - from + 1;
        if gaps.len() < LISTED {
            let bound = imported.get(&(to + 1)).or_else(|| imported.get(&(from - 1)));
            gaps.push(Gap {
                from: number(from),
                to: number(to),
                count: to - from + 1,
                explained_by_import: bound.cloned(),
            });
        }
    };
    for pair in seqs.windows(2) {
        if pair[1] == pair[0] {
            if duplicates.len() < LISTED && duplicates.last() != Some(&number(pair[0])) {
                duplicates.push(number(pair[0]));
            }
        } else {
            missing(pair[0] + 1, pair[1] - 1);
        }
    }
    if let Some(given) = given {
        missing(last + 1, given);
    }
    Some(Continuity {
        prefix: prefix.to_string(),
        fy: fy.to_string(),
        first: number(first),
        last: number(last),
        count: seqs.len() as i64,
        unbroken: gap_count == 0 && duplicates.is_empty(),
        gaps,
        gap_count,
        duplicates,
    })
}

/// Every series of `fy` (`YYYY-YY`; None: every year).
pub fn report(conn: &Connection, fy: Option<&str>) -> Result<ContinuityReport, AppError> {
    let short = match fy.map(str::trim).filter(|f| !f.is_empty()) {
        Some(text) => Some(Fy::param(text)?.short()),
        None => None,
    };
    let mut series: BTreeMap<(String, String), Numbers> = BTreeMap::new();
    store::each_number(conn, |number, imported_id| {
        if let Some((prefix, fy, seq)) = parse_number(number)
            && short.as_deref().is_none_or(|s| s == fy)
        {
            let found = series.entry((fy.to_string(), prefix.to_string())).or_default();
            found.seqs.push(seq);
            if let Some(id) = imported_id {
                found.imported.insert(
                    seq,
                    Imported {
                        document_id: id.to_string(),
                        doc_no: number.to_string(),
                    },
                );
            }
        }
    })?;
    let given = store::series_given(conn)?;
    let rows = series
        .into_iter()
        .filter_map(|((fy, prefix), numbers)| {
            let last_given = given.get(&(prefix.clone(), fy.clone())).copied();
            continuity(&prefix, &fy, numbers, last_given)
        })
        .collect();
    Ok(ContinuityReport { rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_the_house_shape_are_read_and_others_are_not() {
        assert_eq!(parse_number("INV/25-26-0001"), Some(("INV", "25-26", 1)));
        assert_eq!(parse_number("RCT/16-17-12345"), Some(("RCT", "16-17", 12345)));
        for other in [
            "INV-25-26-0001",
            "inv/25-26-0001",
            "INV/2025-26-0001",
            "INV/25-26-",
            "INV/25-26-00x1",
            "OLD/1234",
        ] {
            assert_eq!(parse_number(other), None, "{other}");
        }
    }

    fn seqs(seqs: &[i64]) -> Numbers {
        Numbers {
            seqs: seqs.to_vec(),
            imported: HashMap::new(),
        }
    }

    fn gap(from: &str, to: &str, count: i64, explained_by_import: Option<Imported>) -> Gap {
        Gap {
            from: from.into(),
            to: to.into(),
            count,
            explained_by_import,
        }
    }

    #[test]
    fn gaps_are_runs_and_duplicates_are_listed_between_the_first_and_the_last_given() {
        let c = continuity("INV", "25-26", seqs(&[3, 1, 2, 5, 5, 8]), Some(9)).unwrap();
        assert_eq!(
            c,
            Continuity {
                prefix: "INV".into(),
                fy: "25-26".into(),
                first: "INV/25-26-0001".into(),
                last: "INV/25-26-0008".into(),
                count: 6,
                gaps: vec![
                    gap("INV/25-26-0004", "INV/25-26-0004", 1, None),
                    gap("INV/25-26-0006", "INV/25-26-0007", 2, None),
                    gap("INV/25-26-0009", "INV/25-26-0009", 1, None),
                ],
                gap_count: 4,
                duplicates: vec!["INV/25-26-0005".into()],
                unbroken: false,
            }
        );
        let whole = continuity("RCT", "26-27", seqs(&[4, 5, 6]), Some(6)).unwrap();
        assert!(whole.unbroken);
        assert_eq!((whole.first.as_str(), whole.gap_count), ("RCT/26-27-0004", 0));
        assert_eq!(continuity("QT", "26-27", seqs(&[]), None), None);
    }

    #[test]
    fn a_gap_bordered_by_an_imported_number_is_explained_by_the_import() {
        let legacy = |seq: i64, no: &str| {
            (
                seq,
                Imported {
                    document_id: format!("D{seq}"),
                    doc_no: no.into(),
                },
            )
        };
        // The office's own 1 to 158, the old system's 900 and 903 imported, then the office's
        // 904 (the series seeded past 903); 150 is missing among the office's own numbers.
        let mut own: Vec<i64> = (1..=158).filter(|s| *s != 150).collect();
        own.extend([900, 903, 904]);
        let numbers = Numbers {
            seqs: own,
            imported: HashMap::from([legacy(900, "INV/25-26-900"), legacy(903, "INV/25-26-0903")]),
        };
        let c = continuity("INV", "25-26", numbers, Some(904)).unwrap();
        assert_eq!(
            c.gaps,
            vec![
                gap("INV/25-26-0150", "INV/25-26-0150", 1, None),
                gap(
                    "INV/25-26-0159",
                    "INV/25-26-0899",
                    741,
                    Some(legacy(900, "INV/25-26-900").1)
                ),
                gap(
                    "INV/25-26-0901",
                    "INV/25-26-0902",
                    2,
                    Some(legacy(903, "INV/25-26-0903").1)
                ),
            ]
        );
        assert_eq!(c.gap_count, 744);
    }

    #[test]
    fn a_long_run_of_gaps_is_counted_whole_and_listed_in_part() {
        let odd: Vec<i64> = (0..=LISTED as i64 + 10).map(|i| 2 * i + 1).collect();
        let c = continuity("CN", "24-25", seqs(&odd), None).unwrap();
        assert_eq!((c.gap_count, c.gaps.len()), (LISTED as i64 + 10, LISTED));
        assert_eq!(c.gaps[0], gap("CN/24-25-0002", "CN/24-25-0002", 1, None));
        let one = continuity("CN", "24-25", seqs(&[1, 500]), None).unwrap();
        assert_eq!(one.gaps, vec![gap("CN/24-25-0002", "CN/24-25-0499", 498, None)]);
    }

    #[test]
    fn the_demo_office_numbers_every_series_without_a_gap() {
        let (_dir, conn, _, _) = crate::demo::small_office(crate::demo::Options {
            clients: 60,
            years: 2,
            seed: 3,
        });
        let rows = report(&conn, None).unwrap().rows;
        assert!(rows.iter().any(|r| r.prefix == "INV") && rows.iter().any(|r| r.prefix == "RCT"));
        let broken: Vec<_> = rows.iter().filter(|r| !r.unbroken).collect();
        assert!(broken.is_empty(), "{broken:?}");
    }
}
