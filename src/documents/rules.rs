//! Document rules as plain functions (spec 2.7, 3.1; decisions 6):
//! - numbers are `<prefix>/<yy>-<yy>-<seq>`, one series per prefix and Indian financial year
//!   (1 April to 31 March) of the document date, the sequence zero-padded to 4 digits;
//! - each line's tax is computed on its own taxable value: intra-state gives CGST and SGST at
//!   half the rate each, inter-state IGST, each rounded half-up to the paisa; totals are sums;
//! - the optional round-off brings the total to the nearest rupee (50 paise round up).

use crate::error::Warning;
use chrono::{Datelike, NaiveDate};

/// The document types and their number prefixes (receipts use RCT, in the payments area).
pub fn prefix(doc_type: &str) -> Option<&'static str> {
    Some(match doc_type {
        "QUOTATION" => "QT",
        "PROFORMA" => "PI",
        "INVOICE" => "INV",
        "CREDIT_NOTE" => "CN",
        _ => return None,
    })
}

/// "26-27" for any date from 1 April 2026 to 31 March 2027.
pub fn financial_year(date: NaiveDate) -> String {
    let start = if date.month() >= 4 {
        date.year()
    } else {
        date.year() - 1
    };
    format!("{:02}-{:02}", start % 100, (start + 1) % 100)
}

/// `INV/26-27-0001`.
pub fn number(prefix: &str, fy: &str, seq: i64) -> String {
    format!("{prefix}/{fy}-{seq:04}")
}

/// `numerator / denominator` rounded half-up, for non-negative values.
pub fn div_round_half_up(numerator: i64, denominator: i64) -> i64 {
    debug_assert!(numerator >= 0 && denominator > 0);
    (2 * numerator + denominator) / (2 * denominator)
}

/// The taxes of one line, in paise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineTax {
    pub taxable: i64,
    pub cgst: i64,
    pub sgst: i64,
    pub igst: i64,
}

impl LineTax {
    pub fn total(&self) -> i64 {
        self.taxable + self.cgst + self.sgst + self.igst
    }
}

/// Taxable value and GST of a line of `qty` units at `unit_price` paise and `rate` percent.
pub fn line_tax(qty: i64, unit_price: i64, rate: i64, intra_state: bool) -> LineTax {
    let taxable = qty * unit_price;
    if intra_state {
        // Half the rate each: taxable × rate / 2 / 100, rounded once.
        let half = div_round_half_up(taxable * rate, 200);
        LineTax {
            taxable,
            cgst: half,
            sgst: half,
            igst: 0,
        }
    } else {
        LineTax {
            taxable,
            cgst: 0,
            sgst: 0,
            igst: div_round_half_up(taxable * rate, 100),
        }
    }
}

/// The amount (paise, may be negative) that brings `total` to the nearest rupee, 50 paise up.
pub fn round_off(total: i64) -> i64 {
    let paise = total.rem_euclid(100);
    if paise >= 50 { 100 - paise } else { -paise }
}

/// "₹1,23,456.00" from paise, with Indian digit grouping (for messages; the console formats its own).
pub fn rupees(paise: i64) -> String {
    let sign = if paise < 0 { "-" } else { "" };
    let paise = paise.unsigned_abs();
    let digits = (paise / 100).to_string();
    let grouped = if digits.len() <= 3 {
        digits
    } else {
        let (head, last3) = digits.split_at(digits.len() - 3);
        let mut groups: Vec<&str> = vec![];
        let mut rest = head;
        while rest.len() > 2 {
            let (h, t) = rest.split_at(rest.len() - 2);
            groups.insert(0, t);
            rest = h;
        }
        if !rest.is_empty() {
            groups.insert(0, rest);
        }
        format!("{},{last3}", groups.join(","))
    };
    format!("{sign}₹{grouped}.{:02}", paise % 100)
}

/// "1,23,456.00" from paise: the amount of a table cell, without the sign of the currency.
pub fn amount(paise: i64) -> String {
    rupees(paise).replacen('₹', "", 1)
}

const ONES: [&str; 20] = [
    "",
    "One",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Eleven",
    "Twelve",
    "Thirteen",
    "Fourteen",
    "Fifteen",
    "Sixteen",
    "Seventeen",
    "Eighteen",
    "Nineteen",
];
const TENS: [&str; 10] = [
    "", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety",
];

/// Words for 0 < n < 100.
fn below_hundred(n: u64) -> String {
    match n {
        0..20 => ONES[n as usize].to_string(),
        _ if n.is_multiple_of(10) => TENS[(n / 10) as usize].to_string(),
        _ => format!("{} {}", TENS[(n / 10) as usize], ONES[(n % 10) as usize]),
    }
}

/// Indian-style words for a whole number: crore, lakh, thousand, hundred ("One Lakh Eighteen Thousand").
pub fn indian_words(n: u64) -> String {
    if n == 0 {
        return "Zero".into();
    }
    let mut parts = vec![];
    let crores = n / 10_000_000;
    if crores > 0 {
        parts.push(format!("{} Crore", indian_words(crores)));
    }
    let rest = n % 10_000_000;
    for (unit, name) in [(100_000, "Lakh"), (1_000, "Thousand"), (100, "Hundred")] {
        let count = rest / unit % if unit == 100 { 10 } else { 100 };
        if count > 0 {
            parts.push(format!("{} {name}", below_hundred(count)));
        }
    }
    if !rest.is_multiple_of(100) {
        parts.push(below_hundred(rest % 100));
    }
    parts.join(" ")
}

/// "Rupees One Lakh Eighteen Thousand Only", with "and Fifty Paise" when there are paise.
pub fn amount_in_words(paise: i64) -> String {
    let sign = if paise < 0 { "Minus " } else { "" };
    let paise = paise.unsigned_abs();
    let rupees = indian_words(paise / 100);
    match paise % 100 {
        0 => format!("Rupees {sign}{rupees} Only"),
        p => format!("Rupees {sign}{rupees} and {} Paise Only", below_hundred(p)),
    }
}

/// Whether a supply is intra-state (decisions 6): the company's state is the client's. A
/// client (or company) with no known state is treated as intra-state, and flagged.
pub fn place_of_supply(company_state: Option<&str>, client_state: Option<&str>) -> (bool, Option<Warning>) {
    match (company_state, client_state) {
        (Some(ours), Some(theirs)) => (ours == theirs, None),
        (None, _) => (
            true,
            Some(Warning {
                code: "company_state_unknown",
                message: "The company profile has no state: treated as intra-state.".into(),
            }),
        ),
        (_, None) => (
            true,
            Some(Warning {
                code: "client_state_unknown",
                message: "The client has no GSTIN or state code: treated as intra-state.".into(),
            }),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn financial_years_turn_on_the_first_of_april() {
        assert_eq!(financial_year(d("2026-11-22")), "26-27");
        assert_eq!(financial_year(d("2027-03-31")), "26-27");
        assert_eq!(financial_year(d("2027-04-01")), "27-28");
        assert_eq!(financial_year(d("2000-01-15")), "99-00");
        assert_eq!(financial_year(d("2099-12-31")), "99-00");
        assert_eq!(number("INV", "26-27", 1), "INV/26-27-0001");
        assert_eq!(number("CN", "26-27", 12345), "CN/26-27-12345");
        assert!(number("INV", "26-27", 999_999).len() <= 16);
    }

    #[test]
    fn rounding_table() {
        for (n, d, expected) in [
            (0, 200, 0),
            (99, 200, 0),
            (100, 200, 1),
            (101, 200, 1),
            (299, 200, 1),
            (300, 200, 2),
            (5, 10, 1),
            (4, 10, 0),
            (15, 10, 2),
        ] {
            assert_eq!(div_round_half_up(n, d), expected, "{n}/{d}");
        }
    }

    #[test]
    fn gst_split_per_line() {
        // ₹1,000.00 at 18%: ₹90.00 + ₹90.00 or ₹180.00.
        assert_eq!(
            line_tax(1, 100_000, 18, true),
            LineTax {
                taxable: 100_000,
                cgst: 9_000,
                sgst: 9_000,
                igst: 0
            }
        );
        assert_eq!(
            line_tax(1, 100_000, 18, false),
            LineTax {
                taxable: 100_000,
                cgst: 0,
                sgst: 0,
                igst: 18_000
            }
        );
        // 3 × ₹0.33 at 5%: taxable 99 paise; 2.5% of it is 2.475 → 2 each (rounded once, half-up).
        assert_eq!(
            line_tax(3, 33, 5, true),
            LineTax {
                taxable: 99,
                cgst: 2,
                sgst: 2,
                igst: 0
            }
        );
        // 1 paisa at 18%: 0.09 each → 0; an odd half rounds up: 50 paise at 18% IGST = 9 paise.
        assert_eq!(line_tax(1, 1, 18, true).cgst, 0);
        assert_eq!(line_tax(1, 50, 18, false).igst, 9);
        // 25 paise at 18% intra: 2.25 → 2; 75 paise: 6.75 → 7.
        assert_eq!(line_tax(1, 25, 18, true).cgst, 2);
        assert_eq!(line_tax(1, 75, 18, true).cgst, 7);
        assert_eq!(line_tax(10_000, 20, 18, true).total(), 200_000 + 2 * 18_000);
    }

    #[test]
    fn round_off_to_the_rupee() {
        assert_eq!(round_off(118_000), 0);
        assert_eq!(round_off(118_049), -49);
        assert_eq!(round_off(118_050), 50);
        assert_eq!(round_off(118_099), 1);
    }

    #[test]
    fn rupees_in_indian_grouping() {
        for (paise, text) in [
            (0, "₹0.00"),
            (5, "₹0.05"),
            (12_345_600, "₹1,23,456.00"),
            (100_000_000_000, "₹1,00,00,00,000.00"),
            (-590_000, "-₹5,900.00"),
            (99_999, "₹999.99"),
        ] {
            assert_eq!(rupees(paise), text);
        }
    }

    #[test]
    fn prefixes() {
        assert_eq!(prefix("INVOICE"), Some("INV"));
        assert_eq!(prefix("QUOTATION"), Some("QT"));
        assert_eq!(prefix("RECEIPT"), None);
    }

    #[test]
    fn amounts_read_in_indian_words() {
        for (paise, words) in [
            (11_800_000, "Rupees One Lakh Eighteen Thousand Only"),
            (0, "Rupees Zero Only"),
            (100, "Rupees One Only"),
            (1_999, "Rupees Nineteen and Ninety Nine Paise Only"),
            (10_050, "Rupees One Hundred and Fifty Paise Only"),
            (
                2_147_483_600,
                "Rupees Two Crore Fourteen Lakh Seventy Four Thousand Eight Hundred Thirty Six Only",
            ),
            (
                12_345_678_900,
                "Rupees Twelve Crore Thirty Four Lakh Fifty Six Thousand Seven Hundred Eighty Nine Only",
            ),
            (10_000_000, "Rupees One Lakh Only"),
            (1_000_000_000, "Rupees One Crore Only"),
            (-5_000, "Rupees Minus Fifty Only"),
        ] {
            assert_eq!(amount_in_words(paise), words, "{paise}");
        }
        assert_eq!(amount(11_800_000), "1,18,000.00");
    }
}
