//! Service contract rules as plain functions (spec 2.10, decisions 5; docs/api/contracts.md "Service
//! contracts and recurring plans"):
//! - a contract (AMC) covers a client from `period_from` to `period_to` (never backwards) for a
//!   fixed `amount` in paise, 0 to ₹100 crore (what one invoice line may carry), described in
//!   1 to 200 characters;
//! - it is `active` while `period_to` is the office's today or later, else `expired`;
//! - renewing raises one INVOICE draft for the next period (the same length, starting the day
//!   after `period_to`); a contract whose renewal invoice is not cancelled is renewed already
//!   (409 `already_renewed`), one whose invoice was cancelled may be renewed again; while its
//!   renewal invoice is live the contract keeps its client (422 `renewed`);
//! - its paid state is its renewal invoice's, read as the documents area reads an invoice's
//!   payment state (`documents::rules::payment_state`) without the overdue rung: `none` (no
//!   invoice, or a cancelled one), `draft`, `unpaid`, `part_paid` or `paid`.

use crate::documents::rules as document_rules;
use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use chrono::{Days, Months, NaiveDate};

/// The `state` filter's values.
pub const STATES: &[&str] = &["active", "expired"];

/// The paid states of a contract.
pub const PAID_STATES: &[&str] = &["none", "draft", "unpaid", "part_paid", "paid"];

/// The largest amount: the largest unit price a document line takes (₹100 crore).
pub const MAX_AMOUNT: i64 = 100_000_000_000;

/// What the paid state reads of the renewal invoice.
#[derive(Debug, Clone)]
pub struct Invoice {
    pub doc_type: String,
    pub status: String,
    pub total: i64,
    pub outstanding: Option<i64>,
}

/// The contract's paid state from its renewal invoice (None: none raised).
pub fn paid_state(invoice: Option<&Invoice>) -> &'static str {
    let Some(invoice) = invoice else { return "none" };
    match invoice.status.as_str() {
        "cancelled" => "none",
        "draft" => "draft",
        // No due date given: the documents' own definition without its overdue rung.
        status => document_rules::payment_state(
            &invoice.doc_type,
            status,
            invoice.total,
            invoice.outstanding,
            None,
            NaiveDate::MIN,
        )
        .unwrap_or("none"),
    }
}

/// `active` while `period_to` is `today` or later, else `expired` (an unreadable date: expired).
pub fn state(period_to: &str, today: NaiveDate) -> &'static str {
    match clock::date(period_to) {
        Some(to) if to >= today => "active",
        _ => "expired",
    }
}

/// A description: 1 to 200 characters, trimmed.
pub fn check_description(raw: &str) -> Result<String, AppError> {
    let text = raw.trim();
    if text.is_empty() || text.chars().count() > 200 {
        return Err(AppError::invalid(
            "description",
            "invalid_description",
            "Describe the contract in 1 to 200 characters.",
        ));
    }
    Ok(text.to_string())
}

/// An amount in paise: 0 to ₹100 crore.
pub fn check_amount(amount: i64) -> Result<i64, AppError> {
    if !(0..=MAX_AMOUNT).contains(&amount) {
        return Err(AppError::invalid(
            "amount",
            "invalid_amount",
            "The amount is 0 or more paise, at most ₹100 crore.",
        ));
    }
    Ok(amount)
}

/// The period may not end before it starts.
pub fn check_period(from: NaiveDate, to: NaiveDate) -> Result<(), AppError> {
    if to < from {
        return Err(AppError::invalid(
            "period_to",
            "period_backwards",
            "The period cannot end before it starts.",
        ));
    }
    Ok(())
}

/// Whether a contract whose renewal invoice has `renewal_status` (None: none raised) may be
/// renewed: only when it has none, or a cancelled one.
pub fn check_renewable(renewal_status: Option<&str>, renewal_doc_no: Option<&str>) -> Result<(), AppError> {
    match renewal_status {
        None | Some("cancelled") => Ok(()),
        Some(status) => Err(AppError::conflict(
            "already_renewed",
            format!(
                "This contract is renewed already by {} ({status}); cancel that invoice to renew it again.",
                renewal_doc_no.unwrap_or("a draft invoice")
            ),
        )),
    }
}

/// Whether a contract whose renewal invoice has `renewal_status` may move to another client:
/// not while that invoice (the old client's) is live.
pub fn check_client_change(renewal_status: Option<&str>) -> Result<(), AppError> {
    match renewal_status {
        None | Some("cancelled") => Ok(()),
        Some(_) => Err(AppError::invalid(
            "client_id",
            "renewed",
            "A renewed contract keeps its client: cancel its renewal invoice first.",
        )),
    }
}

/// The period after `from..=to`, starting the day after `to` and as long: whole months when the
/// period is whole months (1 April to 31 March gives the next 1 April to 31 March, 29 February
/// or not; 15 November to 14 November the next), else the same number of days. None past the
/// calendar (a period of more than a hundred years).
pub fn next_period(from: NaiveDate, to: NaiveDate) -> Option<(NaiveDate, NaiveDate)> {
    let start = to.succ_opt()?;
    let months = (1..=1200u32).find(|&n| {
        from.checked_add_months(Months::new(n))
            .and_then(|d| d.pred_opt())
            .is_some_and(|end| end >= to)
    })?;
    let whole_months = from
        .checked_add_months(Months::new(months))
        .and_then(|d| d.pred_opt())
        == Some(to);
    let end = if whole_months {
        start.checked_add_months(Months::new(months))?.pred_opt()?
    } else {
        start.checked_add_days(Days::new((to - from).num_days() as u64))?
    };
    Some((start, end))
}

/// The renewal invoice's one line: "Annual maintenance: <description>, <from> to <to>", the
/// dates as the office writes them (DD-MM-YYYY).
pub fn renewal_line(description: &str, from: NaiveDate, to: NaiveDate) -> String {
    format!(
        "Annual maintenance: {description}, {} to {}",
        from.format("%d-%m-%Y"),
        to.format("%d-%m-%Y")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        clock::date(s).unwrap()
    }

    fn invoice(status: &str, total: i64, outstanding: i64) -> Invoice {
        Invoice {
            doc_type: "INVOICE".into(),
            status: status.into(),
            total,
            outstanding: Some(outstanding),
        }
    }

    #[test]
    fn the_paid_state_follows_the_renewal_invoice() {
        assert_eq!(paid_state(None), "none");
        for (status, total, outstanding, state) in [
            ("draft", 100, 100, "draft"),
            ("cancelled", 100, 100, "none"),
            ("cancelled", 100, 0, "none"),
            ("issued", 100, 100, "unpaid"),
            ("sent", 100, 40, "part_paid"),
            ("issued", 100, 0, "paid"),
            ("issued", 100, -5, "paid"),
            // A zero invoice owes nothing: paid as soon as it is issued.
            ("issued", 0, 0, "paid"),
        ] {
            assert_eq!(
                paid_state(Some(&invoice(status, total, outstanding))),
                state,
                "{status} {total} {outstanding}"
            );
        }
    }

    #[test]
    fn a_contract_is_active_through_its_last_day() {
        let today = d("2026-11-24");
        assert_eq!(state("2026-11-24", today), "active");
        assert_eq!(state("2027-03-31", today), "active");
        assert_eq!(state("2026-11-23", today), "expired");
        assert_eq!(state("garbage", today), "expired");
    }

    #[test]
    fn the_next_period_is_as_long_as_this_one() {
        for (from, to, next_from, next_to) in [
            // A financial year, and one that holds 29 February.
            ("2026-04-01", "2027-03-31", "2027-04-01", "2028-03-31"),
            ("2027-04-01", "2028-03-31", "2028-04-01", "2029-03-31"),
            // A calendar year and a quarter.
            ("2026-01-01", "2026-12-31", "2027-01-01", "2027-12-31"),
            ("2026-01-01", "2026-03-31", "2026-04-01", "2026-06-30"),
            // A year from the 15th; not whole months: the same number of days.
            ("2026-11-15", "2027-11-14", "2027-11-15", "2028-11-14"),
            ("2026-05-10", "2026-05-19", "2026-05-20", "2026-05-29"),
            ("2026-05-10", "2026-05-10", "2026-05-11", "2026-05-11"),
        ] {
            assert_eq!(
                next_period(d(from), d(to)),
                Some((d(next_from), d(next_to))),
                "{from}..{to}"
            );
        }
    }

    #[test]
    fn checks_name_their_field() {
        assert_eq!(
            check_description("  Core banking AMC ").unwrap(),
            "Core banking AMC"
        );
        for bad in ["", "   ", &"x".repeat(201)] {
            assert_eq!(check_description(bad).unwrap_err().code, "invalid_description");
        }
        assert_eq!(check_description(&"é".repeat(200)).unwrap().chars().count(), 200);
        assert_eq!(check_amount(0).unwrap(), 0);
        assert_eq!(check_amount(MAX_AMOUNT).unwrap(), MAX_AMOUNT);
        assert_eq!(check_amount(-1).unwrap_err().code, "invalid_amount");
        assert_eq!(check_amount(MAX_AMOUNT + 1).unwrap_err().code, "invalid_amount");
        assert!(check_period(d("2026-04-01"), d("2026-04-01")).is_ok());
        assert_eq!(
            check_period(d("2026-04-02"), d("2026-04-01")).unwrap_err().code,
            "period_backwards"
        );
    }

    #[test]
    fn a_live_renewal_invoice_refuses_another() {
        assert!(check_renewable(None, None).is_ok());
        assert!(check_renewable(Some("cancelled"), Some("INV/26-27-0001")).is_ok());
        for status in ["draft", "issued", "sent"] {
            let e = check_renewable(Some(status), None).unwrap_err();
            assert_eq!((e.status.as_u16(), e.code), (409, "already_renewed"), "{status}");
        }
        assert!(check_client_change(Some("cancelled")).is_ok());
        assert_eq!(check_client_change(Some("draft")).unwrap_err().code, "renewed");
        assert_eq!(
            renewal_line("Core banking AMC", d("2027-04-01"), d("2028-03-31")),
            "Annual maintenance: Core banking AMC, 01-04-2027 to 31-03-2028"
        );
    }
}
