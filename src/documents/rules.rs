//! Document rules as plain functions (spec 2.7, 3.1; decisions 6):
//! - numbers are `<prefix>/<yy>-<yy>-<seq>`, one series per prefix and Indian financial year
//!   (1 April to 31 March) of the document date, the sequence zero-padded to 4 digits;
//! - each line's tax is computed on its own taxable value: intra-state gives CGST and SGST at
//!   half the rate each, inter-state IGST, each rounded half-up to the paisa; totals are sums;
//! - the optional round-off brings the total to the nearest rupee (`crate::plumbing::money::round_off`);
//! - a conversion to an invoice re-prices on the new draft's date, but never silently: each line
//!   whose unit price moved from its source's is named (decisions 12, "conversion warnings").

use crate::plumbing::clock;
use crate::plumbing::error::{AppError, Warning};
use crate::plumbing::money::div_round_half_up;
use chrono::{DateTime, NaiveDate, Utc};

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

/// The payment states of an issued invoice (decisions 10).
pub const PAYMENT_STATES: &[&str] = &["unpaid", "part_paid", "paid", "overdue"];

/// An issued invoice's payment state, from what it owes and the day it fell due
/// (`COALESCE(due_date, doc_date)`): paid when it owes nothing, overdue when it owes something
/// after that day, else part paid or unpaid. None for anything but an issued invoice.
pub fn payment_state(
    doc_type: &str,
    status: &str,
    total: i64,
    outstanding: Option<i64>,
    falls_due: Option<&str>,
    today: NaiveDate,
) -> Option<&'static str> {
    if doc_type != "INVOICE" || matches!(status, "draft" | "cancelled") {
        return None;
    }
    let outstanding = outstanding?;
    let due = falls_due.and_then(clock::date);
    Some(if outstanding <= 0 {
        "paid"
    } else if due.is_some_and(|d| today > d) {
        "overdue"
    } else if outstanding < total {
        "part_paid"
    } else {
        "unpaid"
    })
}

/// The day an issued invoice falls due, in SQL over the document table named `d`: its due
/// date, else its date. The overdue state, the reminders' anchor, the dues aging's days past
/// due, the statement's open invoices and the dashboard's overdue tile all count from it.
pub const FALLS_DUE: &str = "COALESCE(d.due_date, d.doc_date)";

/// What an issued invoice owes, in SQL over the document table `d`: [`payment_state`] without
/// its overdue rung (a renewal invoice's state on a contract reads the same).
pub fn owing_sql(state: &str) -> Option<&'static str> {
    Some(match state {
        "paid" => "d.outstanding <= 0",
        "part_paid" => "d.outstanding > 0 AND d.outstanding < d.total",
        "unpaid" => "d.outstanding > 0 AND d.outstanding >= d.total",
        _ => return None,
    })
}

/// The SQL twin of [`payment_state`] over the document table `d` (an issued invoice is the
/// caller's condition), with `?` the office's today where the state depends on it (the flag).
pub fn payment_state_sql(state: &str) -> Option<(String, bool)> {
    let due = FALLS_DUE;
    Some(match state {
        "paid" => (owing_sql("paid")?.to_string(), false),
        "overdue" => (format!("d.outstanding > 0 AND {due} < ?"), true),
        "part_paid" | "unpaid" => (format!("{} AND {due} >= ?", owing_sql(state)?), true),
        _ => return None,
    })
}

/// `INV/26-27-0001`.
pub fn number(prefix: &str, fy: &str, seq: i64) -> String {
    format!("{prefix}/{fy}-{seq:04}")
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

/// A cancel or credit-note reason: required, at most 500 characters.
pub fn check_reason(raw: &str) -> Result<String, AppError> {
    let reason = raw.trim();
    if reason.is_empty() || reason.chars().count() > 500 {
        return Err(AppError::invalid(
            "reason",
            "reason_required",
            "Give the reason (at most 500 characters).",
        ));
    }
    Ok(reason.to_string())
}

/// A due date is never before the document's date (decisions 12: on save, and on issue against
/// the date it stamps); 422 on `dueDate`.
pub fn check_due_date(doc_date: NaiveDate, due_date: Option<NaiveDate>) -> Result<(), AppError> {
    match due_date {
        Some(due) if due < doc_date => Err(AppError::invalid(
            "dueDate",
            "due_before_date",
            format!(
                "The due date ({}) is before the document date ({}): an invoice would be overdue the day it is issued.",
                due.format("%d-%m-%Y"),
                doc_date.format("%d-%m-%Y")
            ),
        )),
        _ => Ok(()),
    }
}

/// Names "A", "A and B", "A, B and C".
fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Whether a document may be cancelled (decisions 12): not twice, and an invoice only while no
/// recorded payment is allocated to it (`receipts`, their numbers) and no live credit note stands
/// against it (`credit_notes`, their numbers): money allocated to a cancelled invoice would be
/// neither owed nor free to use, and a credit note would credit nothing. 409 naming them.
pub fn check_cancellable(status: &str, receipts: &[String], credit_notes: &[String]) -> Result<(), AppError> {
    if status == "cancelled" {
        return Err(AppError::conflict(
            "already_cancelled",
            "This document is already cancelled.",
        ));
    }
    if !receipts.is_empty() {
        return Err(AppError::conflict(
            "has_payments",
            format!(
                "Payments are allocated to this invoice ({}): cancel them, or move them to advance, before cancelling it.",
                listed(receipts)
            ),
        ));
    }
    if !credit_notes.is_empty() {
        return Err(AppError::conflict(
            "has_credit_notes",
            format!(
                "Credit notes stand against this invoice ({}): cancel them before cancelling it.",
                listed(credit_notes)
            ),
        ));
    }
    Ok(())
}

/// Whether a document in `status` may get a public link (decisions 12): only once issued and
/// while not cancelled; 409 `not_shareable` otherwise.
pub fn check_shareable(status: &str) -> Result<(), AppError> {
    match status {
        "draft" => Err(AppError::conflict(
            "not_shareable",
            "A draft has no public link: issue it first.",
        )),
        "cancelled" => Err(AppError::conflict(
            "not_shareable",
            "A cancelled document has no public link.",
        )),
        _ => Ok(()),
    }
}

/// What a credit note credits (spec 3.1): the whole invoice, or the lines given.
#[derive(Debug, PartialEq, Eq)]
pub enum Credit {
    Whole,
    Lines,
}

/// Whether a credit note may be issued on an invoice that still owes `creditable` of its
/// `total`: never once nothing is owed; without lines only while nothing was credited or paid
/// (then it credits the whole invoice).
pub fn credit(creditable: i64, total: i64, lines_given: bool) -> Result<Credit, AppError> {
    if creditable <= 0 {
        return Err(AppError::conflict(
            "fully_credited",
            "Nothing is left to credit on this invoice: it is fully paid or credited.",
        ));
    }
    match (lines_given, creditable == total) {
        (true, _) => Ok(Credit::Lines),
        (false, true) => Ok(Credit::Whole),
        (false, false) => Err(AppError::invalid(
            "lines",
            "lines_required",
            "Part of this invoice is credited already: give the lines to credit.",
        )),
    }
}

/// A credit note credits something, and never takes an invoice below zero: at most what it
/// still owes (`creditable`).
pub fn check_credited(credited: i64, creditable: i64) -> Result<(), AppError> {
    if credited <= 0 {
        return Err(AppError::invalid(
            "lines",
            "nothing_to_credit",
            "These lines credit nothing: give an amount above zero.",
        ));
    }
    if credited > creditable {
        return Err(AppError::invalid(
            "lines",
            "exceeds_creditable",
            format!(
                "At most {} can still be credited on this invoice.",
                crate::plumbing::money::rupees(creditable)
            ),
        ));
    }
    Ok(())
}

/// The state of a share link now: revoked, expired (an unreadable expiry counts as expired) or live.
pub fn share_state(revoked: bool, expires_at: &str, now: DateTime<Utc>) -> &'static str {
    if revoked {
        "revoked"
    } else if clock::parse_timestamp(expires_at).is_none_or(|at| at <= now) {
        "expired"
    } else {
        "live"
    }
}

/// A line of a converted draft whose unit price differs from its source's (decisions 12:
/// `{ code: "price_changed", message, line, quoted, now }`, `line` its index, prices in paise).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct PriceChanged {
    pub code: &'static str,
    pub message: String,
    pub line: usize,
    pub quoted: i64,
    pub now: i64,
}

/// The lines whose unit price moved between the source (`quoted`, in order) and the converted
/// draft (`now`, the same lines re-priced), each with a sentence saying so.
pub fn price_changes(quoted: &[(String, i64)], now: &[i64]) -> Vec<PriceChanged> {
    quoted
        .iter()
        .zip(now)
        .enumerate()
        .filter(|(_, ((_, was), is))| was != *is)
        .map(|(line, ((description, was), is))| PriceChanged {
            code: "price_changed",
            message: format!(
                "Line {}, {description}: quoted at {}, now {} from the price in force today.",
                line + 1,
                crate::plumbing::money::rupees(*was),
                crate::plumbing::money::rupees(*is)
            ),
            line,
            quoted: *was,
            now: *is,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_lines_whose_price_moved_are_named() {
        let quoted = [("ERP".to_string(), 699_800), ("AMC".to_string(), 100_000)];
        assert_eq!(
            price_changes(&quoted, &[750_000, 100_000]),
            vec![PriceChanged {
                code: "price_changed",
                message: "Line 1, ERP: quoted at ₹6,998.00, now ₹7,500.00 from the price in force today."
                    .into(),
                line: 0,
                quoted: 699_800,
                now: 750_000,
            }]
        );
        assert_eq!(price_changes(&quoted, &[699_800, 100_000]), vec![]);
    }
    #[test]
    fn an_invoice_is_cancelled_once_nothing_settles_it() {
        let none: [String; 0] = [];
        assert!(check_cancellable("issued", &none, &none).is_ok());
        let cases = [
            (
                "cancelled",
                vec![],
                vec![],
                "already_cancelled",
                "This document is already cancelled.",
            ),
            (
                "issued",
                vec!["RCT/26-27-0001".to_string(), "RCT/26-27-0004".to_string()],
                vec!["CN/26-27-0002".to_string()],
                "has_payments",
                "Payments are allocated to this invoice (RCT/26-27-0001 and RCT/26-27-0004): cancel them, or move them to advance, before cancelling it.",
            ),
            (
                "sent",
                vec![],
                vec!["CN/26-27-0002".to_string()],
                "has_credit_notes",
                "Credit notes stand against this invoice (CN/26-27-0002): cancel them before cancelling it.",
            ),
        ];
        for (status, receipts, notes, code, message) in cases {
            let err = check_cancellable(status, &receipts, &notes).unwrap_err();
            assert_eq!(
                (err.status.as_u16(), err.code, err.message.as_str()),
                (409, code, message)
            );
        }
    }

    #[test]
    fn only_an_issued_document_is_shared() {
        for status in ["issued", "sent", "accepted", "lost", "invoiced"] {
            assert!(check_shareable(status).is_ok(), "{status}");
        }
        for status in ["draft", "cancelled"] {
            let err = check_shareable(status).unwrap_err();
            assert_eq!((err.status.as_u16(), err.code), (409, "not_shareable"));
        }
    }

    fn d(s: &str) -> NaiveDate {
        clock::date(s).unwrap()
    }

    #[test]
    fn numbers_carry_the_financial_year() {
        let fy = |day: &str| clock::Fy::of(d(day)).short();
        assert_eq!(fy("2026-11-22"), "26-27");
        assert_eq!(fy("2027-03-31"), "26-27");
        assert_eq!(fy("2027-04-01"), "27-28");
        assert_eq!(fy("2000-01-15"), "99-00");
        assert_eq!(fy("2099-12-31"), "99-00");
        assert_eq!(number("INV", "26-27", 1), "INV/26-27-0001");
        assert_eq!(number("CN", "26-27", 12345), "CN/26-27-12345");
        assert!(number("INV", "26-27", 999_999).len() <= 16);
        let span = |day: &str| {
            let fy = clock::Fy::of(d(day));
            (fy.first_day(), fy.last_day())
        };
        assert_eq!(span("2027-03-31"), (d("2026-04-01"), d("2027-03-31")));
        assert_eq!(span("2028-04-01"), (d("2028-04-01"), d("2029-03-31")));
    }

    #[test]
    fn an_invoice_is_paid_part_paid_unpaid_or_overdue() {
        let today = d("2026-11-24");
        let state = |status, total, outstanding, due| {
            payment_state("INVOICE", status, total, Some(outstanding), due, today)
        };
        assert_eq!(state("issued", 100, 100, Some("2026-11-24")), Some("unpaid"));
        assert_eq!(state("sent", 100, 40, Some("2026-11-30")), Some("part_paid"));
        assert_eq!(state("issued", 100, 0, Some("2026-01-01")), Some("paid"));
        assert_eq!(state("issued", 100, -5, None), Some("paid"));
        assert_eq!(state("issued", 100, 40, Some("2026-11-23")), Some("overdue"));
        assert_eq!(state("issued", 100, 100, Some("2026-11-23")), Some("overdue"));
        assert_eq!(state("draft", 100, 100, None), None);
        assert_eq!(state("cancelled", 100, 100, Some("2026-01-01")), None);
        assert_eq!(payment_state("PROFORMA", "issued", 100, None, None, today), None);
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
    fn prefixes() {
        assert_eq!(prefix("INVOICE"), Some("INV"));
        assert_eq!(prefix("QUOTATION"), Some("QT"));
        assert_eq!(prefix("RECEIPT"), None);
    }

    #[test]
    fn a_credit_note_credits_at_most_what_is_owed() {
        assert_eq!(credit(1000, 1000, false).unwrap(), Credit::Whole);
        assert_eq!(credit(400, 1000, true).unwrap(), Credit::Lines);
        for (creditable, total, lines, code) in [
            (0, 1000, true, "fully_credited"),
            (-5, 1000, false, "fully_credited"),
            (400, 1000, false, "lines_required"),
        ] {
            assert_eq!(credit(creditable, total, lines).unwrap_err().code, code);
        }
        assert!(check_credited(400, 400).is_ok());
        for (credited, creditable, code) in [(0, 400, "nothing_to_credit"), (401, 400, "exceeds_creditable")]
        {
            assert_eq!(check_credited(credited, creditable).unwrap_err().code, code);
        }
        assert_eq!(check_reason("  lost the order ").unwrap(), "lost the order");
        assert_eq!(check_reason(" ").unwrap_err().code, "reason_required");
        assert_eq!(
            check_reason(&"x".repeat(501)).unwrap_err().code,
            "reason_required"
        );
    }

    #[test]
    fn a_share_is_live_until_it_expires_or_is_revoked() {
        let now = clock::parse_timestamp("2026-11-24T10:00:00Z").unwrap();
        for (revoked, expires_at, state) in [
            (false, "2026-11-24T10:00:01Z", "live"),
            (false, "2026-11-24T10:00:00Z", "expired"),
            (false, "not a time", "expired"),
            (true, "2027-01-01T00:00:00Z", "revoked"),
        ] {
            assert_eq!(
                share_state(revoked, expires_at, now),
                state,
                "{revoked} {expires_at}"
            );
        }
    }
}
