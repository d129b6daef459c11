//! Payment rules as plain functions (spec 2.8, issue 8):
//! - a payment is money received (paise, > 0) on a date by a mode: cash, cheque, neft_rtgs, upi
//!   or other; TDS is what the society deducted and pays to the government instead: it settles an
//!   invoice like money does but is not part of the money received;
//! - allocations go to issued (not cancelled) invoices of the payment's own client; money plus
//!   TDS may not pass an invoice's outstanding; the money allocated may not pass what the payment
//!   still holds; what is not allocated is an advance held for the client;
//! - every payment has a receipt number `RCT/<yy>-<yy>-<seq>` by the financial year of received_on.

use crate::plumbing::error::AppError;
use chrono::NaiveDate;

pub const MODES: &[&str] = &["cash", "cheque", "neft_rtgs", "upi", "other"];

/// One allocation as asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub document_id: String,
    pub amount: i64,
    pub tds: i64,
}

/// What the store knows of the document a claim names (None: not visible or no such document).
#[derive(Debug, Clone)]
pub struct Target {
    pub client_id: String,
    pub doc_type: String,
    pub status: String,
    pub doc_no: Option<String>,
    /// For an invoice: what is still owed.
    pub outstanding: i64,
}

/// Checks `claims` against their targets, the payment's client and what it still holds
/// (`unallocated`). Errors name the allocation: `allocations[1].amount`.
pub fn check_claims(
    client_id: &str,
    unallocated: i64,
    claims: &[(Claim, Option<Target>)],
) -> Result<(), AppError> {
    let field = |i: usize, f: &str| format!("allocations[{i}].{f}");
    let mut seen = std::collections::HashSet::new();
    let mut money = 0i64;
    for (i, (claim, target)) in claims.iter().enumerate() {
        if !seen.insert(claim.document_id.as_str()) {
            return Err(AppError::invalid(
                &field(i, "document_id"),
                "duplicate",
                "Each invoice appears once in one allocation.",
            ));
        }
        if claim.amount < 0 || claim.tds < 0 || claim.amount.checked_add(claim.tds).is_none_or(|s| s <= 0) {
            return Err(AppError::invalid(
                &field(i, "amount"),
                "invalid_amount",
                "Give an amount or TDS above zero (neither below zero).",
            ));
        }
        let Some(target) = target else {
            return Err(AppError::invalid(
                &field(i, "document_id"),
                "unknown_document",
                "No such invoice.",
            ));
        };
        if target.client_id != client_id {
            return Err(AppError::invalid(
                &field(i, "document_id"),
                "other_client",
                "That invoice belongs to another client.",
            ));
        }
        if target.doc_type != "INVOICE" {
            return Err(AppError::invalid(
                &field(i, "document_id"),
                "not_an_invoice",
                "Payments settle invoices only.",
            ));
        }
        if matches!(target.status.as_str(), "draft" | "cancelled") {
            return Err(AppError::invalid(
                &field(i, "document_id"),
                "not_issued",
                "Only an issued, not cancelled, invoice is settled.",
            ));
        }
        if claim.amount + claim.tds > target.outstanding {
            return Err(AppError::invalid(
                &field(i, "amount"),
                "exceeds_outstanding",
                format!(
                    "{} has {} outstanding: money and TDS together may not pass it.",
                    target.doc_no.as_deref().unwrap_or("This invoice"),
                    crate::plumbing::money::rupees(target.outstanding.max(0))
                ),
            ));
        }
        money += claim.amount;
    }
    if money > unallocated {
        return Err(AppError::invalid(
            "allocations",
            "exceeds_unallocated",
            format!(
                "The allocations take {} of money, but the payment holds only {}.",
                crate::plumbing::money::rupees(money),
                crate::plumbing::money::rupees(unallocated)
            ),
        ));
    }
    Ok(())
}

/// TDS at `percent` of a taxable value (never of the GST), rounded half-up to the rupee (the
/// console's `tdsAt` works it out the same way).
pub fn tds_at(taxable: i64, percent: i64) -> i64 {
    crate::plumbing::money::div_round_half_up(taxable.max(0) * percent, 100 * 100) * 100
}

/// A payment is received today or before (the office's today): never in the future.
pub fn check_received_on(received_on: NaiveDate, today: NaiveDate) -> Result<(), AppError> {
    if received_on > today {
        return Err(AppError::invalid(
            "received_on",
            "in_the_future",
            "A payment cannot be received after today.",
        ));
    }
    Ok(())
}

/// A refund gives back part of what a payment still holds, on a day from its receipt to today.
pub fn check_refund(
    amount: i64,
    refunded_on: NaiveDate,
    received_on: NaiveDate,
    unallocated: i64,
    today: NaiveDate,
) -> Result<(), AppError> {
    if amount <= 0 {
        return Err(AppError::invalid(
            "amount",
            "invalid_amount",
            "Refund an amount above zero.",
        ));
    }
    if amount > unallocated {
        return Err(AppError::invalid(
            "amount",
            "exceeds_unallocated",
            format!(
                "The payment holds {} as an advance; no more can be refunded.",
                crate::plumbing::money::rupees(unallocated)
            ),
        ));
    }
    if refunded_on > today || refunded_on < received_on {
        return Err(AppError::invalid(
            "refunded_on",
            "out_of_range",
            "A refund is dated from the day the payment was received to today.",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refund_gives_back_at_most_the_advance_between_receipt_and_today() {
        let d = |s: &str| crate::plumbing::clock::date(s).unwrap();
        let (received, today) = (d("2026-11-01"), d("2026-11-24"));
        assert!(check_refund(5_000, d("2026-11-01"), received, 5_000, today).is_ok());
        assert!(check_refund(1, today, received, 5_000, today).is_ok());
        let code = |r: Result<(), AppError>| r.unwrap_err().code;
        assert_eq!(
            code(check_refund(0, today, received, 5_000, today)),
            "invalid_amount"
        );
        assert_eq!(
            code(check_refund(5_001, today, received, 5_000, today)),
            "exceeds_unallocated"
        );
        assert_eq!(
            code(check_refund(100, d("2026-10-31"), received, 5_000, today)),
            "out_of_range"
        );
        assert_eq!(
            code(check_refund(100, d("2026-11-25"), received, 5_000, today)),
            "out_of_range"
        );
    }

    fn claim(doc: &str, amount: i64, tds: i64) -> Claim {
        Claim {
            document_id: doc.into(),
            amount,
            tds,
        }
    }

    fn invoice(client: &str, outstanding: i64) -> Option<Target> {
        Some(Target {
            client_id: client.into(),
            doc_type: "INVOICE".into(),
            status: "issued".into(),
            doc_no: Some("INV/26-27-0001".into()),
            outstanding,
        })
    }

    #[test]
    fn claims_are_refused_with_the_allocation_named() {
        type Case = (Vec<(Claim, Option<Target>)>, i64, &'static str, &'static str);
        let cases: Vec<Case> = vec![
            (
                vec![(claim("a", 100, 0), invoice("other", 1000))],
                1000,
                "allocations[0].document_id",
                "other_client",
            ),
            (
                vec![(claim("a", 100, 0), None)],
                1000,
                "allocations[0].document_id",
                "unknown_document",
            ),
            (
                vec![(claim("a", 0, 0), invoice("c", 1000))],
                1000,
                "allocations[0].amount",
                "invalid_amount",
            ),
            (
                vec![(claim("a", -5, 10), invoice("c", 1000))],
                1000,
                "allocations[0].amount",
                "invalid_amount",
            ),
            (
                vec![(claim("a", 900, 101), invoice("c", 1000))],
                1000,
                "allocations[0].amount",
                "exceeds_outstanding",
            ),
            (
                vec![
                    (claim("a", 600, 0), invoice("c", 1000)),
                    (claim("b", 500, 0), invoice("c", 1000)),
                ],
                1000,
                "allocations",
                "exceeds_unallocated",
            ),
            (
                vec![
                    (claim("a", 1, 0), invoice("c", 1000)),
                    (claim("a", 1, 0), invoice("c", 1000)),
                ],
                1000,
                "allocations[1].document_id",
                "duplicate",
            ),
        ];
        for (claims, unallocated, field, code) in cases {
            let err = check_claims("c", unallocated, &claims).unwrap_err();
            assert_eq!((err.field.as_deref(), err.code), (Some(field), code));
        }
        let mut proforma = invoice("c", 1000);
        proforma.as_mut().unwrap().doc_type = "PROFORMA".into();
        assert_eq!(
            check_claims("c", 1000, &[(claim("a", 1, 0), proforma)])
                .unwrap_err()
                .code,
            "not_an_invoice"
        );
        let mut cancelled = invoice("c", 1000);
        cancelled.as_mut().unwrap().status = "cancelled".into();
        assert_eq!(
            check_claims("c", 1000, &[(claim("a", 1, 0), cancelled)])
                .unwrap_err()
                .code,
            "not_issued"
        );
        // Money and TDS settle exactly; TDS does not use the payment's money.
        assert!(check_claims("c", 900, &[(claim("a", 900, 100), invoice("c", 1000))]).is_ok());
    }

    #[test]
    fn tds_is_a_share_of_the_taxable_value_rounded_half_up() {
        assert_eq!(tds_at(10_000_000, 10), 1_000_000);
        assert_eq!(tds_at(10_000_000, 2), 200_000);
        // ₹1,234.56 at 10% is ₹123.456: ₹123; ₹1,235.00 at 10% is ₹123.50: ₹124.
        assert_eq!(tds_at(123_456, 10), 12_300);
        assert_eq!(tds_at(123_500, 10), 12_400);
        assert_eq!(tds_at(-5, 10), 0);
    }

    #[test]
    fn a_payment_is_received_today_or_before() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        assert!(check_received_on(today, today).is_ok());
        assert!(check_received_on(today.pred_opt().unwrap(), today).is_ok());
        let refused = check_received_on(today.succ_opt().unwrap(), today).unwrap_err();
        assert_eq!(
            (refused.status.as_u16(), refused.code, refused.field.as_deref()),
            (422, "in_the_future", Some("received_on"))
        );
    }
}
