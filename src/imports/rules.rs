//! The rules of the legacy import (spec 2.10 import staging, 2.7, 4.8; issue 17), as plain
//! functions:
//! - the file is CSV read by a CSV reader (quoted commas and newlines, CRLF, an Excel byte-order
//!   mark), at most [`MAX_BYTES`] and [`MAX_ROWS`] rows; headers are matched case-insensitively
//!   and without punctuation against `reading::FIELDS` and their common spellings, in any order; `name`
//!   is required, every other column optional, unknown columns are ignored and said so;
//! - a client is known by its name normalized ([`client_key`]): rows of one key are one client
//!   (a client with several legacy invoices is on several rows); it is the registry's client of
//!   the same GSTIN and name, else the only one with that GSTIN, else the one of that name;
//! - amounts are rupees as people write them (`1180`, `1,180.00`, `₹1,180.50`, `Rs. 1180/-`),
//!   read into paise exactly; dates are `YYYY-MM-DD`, `DD-MM-YYYY`, `DD/MM/YYYY`, `DD.MM.YYYY`
//!   or `01-Apr-2024`, never after the office's today;
//! - an invoice number is `<prefix>/<yy>-<yy>-<seq>` of its date's financial year, the prefix
//!   not one the other documents own (QT, PI, CN, RCT);
//! - phones and email addresses (the society's and its contact's) are checked as the client and
//!   contact forms check them; a contact's role, phone or email needs the contact's name;
//! - every problem a row has is a marker ([`PROBLEM_KINDS`]); any stops the commit. A client
//!   already in the registry is not a problem: it is offered as update or skip;
//! - numbers far past a series' own open a gap the owner is warned of before the commit
//!   ([`continuity_gaps`]).
//!
//! The file is read in `reading`, each row checked on its own in `checks` and against the
//! others and the registry in `matching`; what they share is here: the limits, the problem
//! markers, and the reading of names, amounts, dates and numbers (and the gaps numbers open).

use chrono::{Datelike, NaiveDate};
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

/// The largest file staged, in bytes of CSV text.
pub const MAX_BYTES: usize = 20 * 1024 * 1024;
/// The stage body's limit: the file travels as JSON text, whose escapes (`\"`, `\r\n`) can
/// double a file of quoted cells; the file's own limit (`MAX_BYTES`) is checked on the
/// text, so a file under it is never refused for its escapes.
pub const STAGE_BODY_LIMIT: usize = 2 * MAX_BYTES + 64 * 1024;

/// The most data rows a file may have.
pub const MAX_ROWS: usize = 100_000;
/// The most columns a file may have. The import reads about 20 (`FIELDS`) and says which others
/// it ignores; a legacy export with a few dozen extra columns is still read, while a header
/// of 200,000 columns (a mistake or an attack) is refused before its headers are kept and
/// echoed back by every status read.
pub const MAX_COLUMNS: usize = 100;
/// How much of each header the status echoes, in characters: a real header is a few words;
/// a longer one is cut (with "…") so the status never re-sends a megabyte header cell.
pub const HEADER_SHOWN: usize = 100;
/// The problem rows the status lists (spec 8: the first 50, with honest totals).
pub const PROBLEM_ROWS_SHOWN: usize = 50;

/// Every kind of problem marker a staged row may carry.
pub const PROBLEM_KINDS: &[&str] = &[
    "name_missing",
    "name_too_long",
    "gstin_invalid",
    "duplicate_row",
    "conflicting_gstin",
    "value_too_long",
    "invoice_incomplete",
    "date_invalid",
    "amount_invalid",
    "invoice_no_shape",
    "invoice_fy_mismatch",
    "invoice_no_clash",
    "phone_invalid",
    "email_invalid",
    "contact_incomplete",
];

/// A problem marker: what stops a row from being committed, on which column, and why.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, ToSchema)]
pub struct Problem {
    pub kind: String,
    pub field: String,
    pub message: String,
}

pub(crate) fn problem(kind: &str, field: &str, message: impl Into<String>) -> Problem {
    Problem {
        kind: kind.into(),
        field: field.into(),
        message: message.into(),
    }
}

/// A client's key: the name lower-cased, punctuation and runs of spaces as one space, and a
/// trailing "ltd" or "limited" dropped, so `Kallada S.C.B. Ltd.` and `KALLADA SCB` are one.
/// Letters of every script are kept as they are (Malayalam vowel signs included).
pub fn client_key(name: &str) -> String {
    let lower = name.to_lowercase();
    let mut words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c.is_ascii_punctuation())
        .filter(|w| !w.is_empty())
        .collect();
    while matches!(words.last(), Some(&"ltd" | &"limited")) && words.len() > 1 {
        words.pop();
    }
    // "s c b" and "scb" are one: single letters run together.
    let mut key = String::new();
    let mut last_single = false;
    for w in words {
        let single = w.chars().count() == 1;
        if !(key.is_empty() || single && last_single) {
            key.push(' ');
        }
        key.push_str(w);
        last_single = single;
    }
    key
}

/// Rupees as people write them into paise, exactly: `1180`, `1,180.00`, `₹1,18,000.5`,
/// `Rs. 1180/-`, `INR 1180`. None for anything else (negative amounts included).
pub fn parse_amount(text: &str) -> Option<i64> {
    let mut s = text.trim();
    for prefix in ["₹", "rs.", "rs", "inr"] {
        if s.len() >= prefix.len()
            && s.is_char_boundary(prefix.len())
            && s[..prefix.len()].eq_ignore_ascii_case(prefix)
        {
            s = s[prefix.len()..].trim_start();
            break;
        }
    }
    let s = s.strip_suffix("/-").unwrap_or(s).trim_end();
    let (whole, fraction) = match s.split_once('.') {
        Some((w, f)) => (w, f),
        None => (s, ""),
    };
    if whole.is_empty()
        || whole.starts_with(',')
        || whole.ends_with(',')
        || whole.contains(",,")
        || !whole.bytes().all(|b| b.is_ascii_digit() || b == b',')
        || fraction.len() > 2
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let rupees: i64 = whole.replace(',', "").parse().ok()?;
    let paise: i64 = format!("{fraction:0<2}").parse().ok()?;
    rupees.checked_mul(100)?.checked_add(paise)
}

/// A date as people write it: `2024-04-01`, `01-04-2024`, `01/04/2024`, `01.04.2024`, `1-Apr-2024`,
/// with a four-digit year from 1950 (`01-04-24` is not read as the year 1).
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let s = text.trim();
    [
        "%Y-%m-%d", "%d-%m-%Y", "%d/%m/%Y", "%d.%m.%Y", "%d-%b-%Y", "%d %b %Y",
    ]
    .iter()
    .find_map(|f| NaiveDate::parse_from_str(s, f).ok())
    .filter(|d| (1950..10_000).contains(&d.year()))
}

/// A legacy number's parts: `INV/25-26-0042` is ("INV", "25-26", 42).
#[derive(Debug, PartialEq, Eq)]
pub struct LegacyNumber {
    pub prefix: String,
    pub fy: String,
    pub seq: i64,
}

/// Reads `<prefix>/<yy>-<yy>-<seq>`: a prefix of capital letters and digits (starting with a
/// letter, at most 10), two consecutive years, a sequence of 1 to 9 digits.
pub fn parse_number(text: &str) -> Option<LegacyNumber> {
    let (prefix, rest) = text.split_once('/')?;
    let ok_prefix = !prefix.is_empty()
        && prefix.len() <= 10
        && prefix.starts_with(|c: char| c.is_ascii_uppercase())
        && prefix
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
    let b = rest.as_bytes();
    if !ok_prefix || b.len() < 7 || b[2] != b'-' || b[5] != b'-' {
        return None;
    }
    let (from, to, seq) = (&rest[..2], &rest[3..5], &rest[6..]);
    let two =
        |s: &str| (s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u32>().ok())?;
    let (from, to) = (two(from)?, two(to)?);
    if (from + 1) % 100 != to || seq.len() > 9 || !seq.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(LegacyNumber {
        prefix: prefix.to_string(),
        fy: format!("{from:02}-{to:02}"),
        seq: seq.parse().ok()?,
    })
}

/// A gap the commit would open in a number series (decisions 12's warning shape, `{ code:
/// "continuity_gap", message, series, from, to, count }`): the numbers between the last one the
/// series has given and the smallest the file brings to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ContinuityGap {
    pub code: &'static str,
    pub message: String,
    /// The series: prefix and financial year, `INV/25-26`.
    pub series: String,
    /// The first and the last number left missing, `INV/25-26-0159`.
    pub from: String,
    pub to: String,
    /// How many numbers are missing.
    pub count: i64,
}

/// The gaps committing `staged` (the numbers of the invoices the commit would record) would open
/// against the numbers each series has already given (`given`: (prefix, fy) → its last
/// sequence). A series opens a gap when the smallest staged number of it lies more than one past
/// its last given number; a series that has given no number yet opens none (it begins where the
/// old system's numbers do, as the continuity report reads it).
pub fn continuity_gaps(
    staged: &[LegacyNumber],
    given: &HashMap<(String, String), i64>,
) -> Vec<ContinuityGap> {
    let mut smallest: std::collections::BTreeMap<(&str, &str), i64> = Default::default();
    for n in staged {
        let seq = smallest
            .entry((n.prefix.as_str(), n.fy.as_str()))
            .or_insert(n.seq);
        *seq = (*seq).min(n.seq);
    }
    smallest
        .into_iter()
        .filter_map(|((prefix, fy), first)| {
            let last = *given.get(&(prefix.to_string(), fy.to_string()))?;
            (last > 0 && first > last + 1).then(|| {
                let number = |seq| crate::documents::rules::number(prefix, fy, seq);
                let (from, to, count) = (number(last + 1), number(first - 1), first - last - 1);
                let series = format!("{prefix}/{fy}");
                let missing = if count == 1 {
                    format!("{from} missing")
                } else {
                    format!("{from} to {to} ({count} numbers) missing")
                };
                ContinuityGap {
                    code: "continuity_gap",
                    message: format!(
                        "Importing {} leaves {missing} in {series}: its last number so far is {}.",
                        number(first),
                        number(last)
                    ),
                    series,
                    from,
                    to,
                    count,
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_as_people_write_them() {
        let cases: &[(&str, Option<i64>)] = &[
            ("1180", Some(118_000)),
            ("1,180.00", Some(118_000)),
            ("₹1,180.50", Some(118_050)),
            ("₹ 1,18,000.5", Some(11_800_050)),
            ("Rs. 1180/-", Some(118_000)),
            ("INR 99.99", Some(9_999)),
            ("0", Some(0)),
            ("0.05", Some(5)),
            ("", None),
            ("-100", None),
            ("1.234", None),
            ("12a", None),
            (",100", None),
            ("1,,000", None),
            ("1e3", None),
            ("₹", None),
            ("99999999999999999999", None),
        ];
        for (text, paise) in cases {
            assert_eq!(parse_amount(text), *paise, "{text}");
        }
    }

    #[test]
    fn dates_in_the_shapes_offices_use() {
        let d = NaiveDate::from_ymd_opt(2024, 4, 1);
        for text in [
            "2024-04-01",
            "01-04-2024",
            "01/04/2024",
            "01.04.2024",
            "1-Apr-2024",
            "01 Apr 2024",
        ] {
            assert_eq!(parse_date(text), d, "{text}");
        }
        for text in ["2024-13-01", "31/02/2024", "April 1", "", "01-04-24"] {
            assert_eq!(parse_date(text), None, "{text}");
        }
    }

    #[test]
    fn legacy_numbers_and_their_shape() {
        assert_eq!(
            parse_number("INV/25-26-0042"),
            Some(LegacyNumber {
                prefix: "INV".into(),
                fy: "25-26".into(),
                seq: 42
            })
        );
        assert_eq!(parse_number("SI2/99-00-7").map(|n| n.fy), Some("99-00".into()));
        for bad in [
            "INV-25-26-0042",
            "INV/25-27-0042",
            "inv/25-26-0042",
            "INV/25-26-",
            "INV/2526-0042",
            "/25-26-1",
            "INV/25-26-12a",
        ] {
            assert_eq!(parse_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_gap_is_warned_only_past_a_series_the_office_has_numbered_in() {
        let staged: Vec<LegacyNumber> = [
            "INV/25-26-0900",
            "INV/25-26-0950",
            "INV/25-26-0160",
            "INV/24-25-0007",
            "SI/25-26-0042",
        ]
        .iter()
        .filter_map(|n| parse_number(n))
        .collect();
        let given = HashMap::from([
            (("INV".to_string(), "25-26".to_string()), 158),
            (("INV".to_string(), "24-25".to_string()), 7),
        ]);
        let gaps = continuity_gaps(&staged, &given);
        assert_eq!(
            gaps,
            vec![ContinuityGap {
                code: "continuity_gap",
                message: "Importing INV/25-26-0160 leaves INV/25-26-0159 missing in INV/25-26: its last number so far is INV/25-26-0158.".into(),
                series: "INV/25-26".into(),
                from: "INV/25-26-0159".into(),
                to: "INV/25-26-0159".into(),
                count: 1,
            }]
        );
        let far = continuity_gaps(&staged[..1], &given);
        assert_eq!(
            (far[0].from.as_str(), far[0].to.as_str(), far[0].count),
            ("INV/25-26-0159", "INV/25-26-0899", 741)
        );
        assert_eq!(
            far[0].message,
            "Importing INV/25-26-0900 leaves INV/25-26-0159 to INV/25-26-0899 (741 numbers) missing in INV/25-26: its last number so far is INV/25-26-0158."
        );
    }

    #[test]
    fn names_meet_whatever_the_punctuation() {
        assert_eq!(client_key("Kallada S.C.B. Ltd."), "kallada scb");
        assert_eq!(client_key("KALLADA  SCB"), "kallada scb");
        assert_eq!(client_key("  "), "");
        assert_eq!(client_key("കല്ലട സഹകരണ ബാങ്ക്"), "കല്ലട സഹകരണ ബാങ്ക്");
        assert_ne!(client_key("Mylom PACS No 12"), client_key("Mylom PACS No 13"));
    }
}
