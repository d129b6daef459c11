//! Recurring plan rules as plain functions (spec 2.10, 6.3; decisions 5; docs/api/contracts.md "Service
//! contracts and recurring plans"):
//! - a plan bills a client the same lines every month, quarter or year, from `next_run` on; its
//!   lines are document lines, checked as a draft's are (priced on the plan's next run);
//! - a run moves `next_run` by whole months (1, 3 or 12) and back to the plan's day of the month,
//!   or to the month's last day when the month is shorter (a plan of the 31st runs on 28 or 29
//!   February, then on 31 March);
//! - each run issues one INVOICE dated the day of the run for each period due, oldest first, at
//!   most [`MAX_PERIODS_PER_RUN`] per plan (the rest at the next run); the invoice's notes name
//!   the period it bills;
//! - a lost or inactive client is not billed: the plan is parked with the reason;
//! - a failed run parks the plan with the error's sentence, line errors naming their line.

use crate::plumbing::error::AppError;
use chrono::{Datelike, Months, NaiveDate};

/// The intervals and their length in months.
pub const INTERVALS: &[(&str, u32)] = &[("monthly", 1), ("quarterly", 3), ("yearly", 12)];

/// The most periods one run issues for one plan (a plan a year behind is billed at once; one
/// further behind catches up at the next runs).
pub const MAX_PERIODS_PER_RUN: usize = 12;

/// The client statuses that are not billed.
pub const NOT_BILLED: &[&str] = &["lost", "inactive"];

/// An interval's months (None: not an interval).
pub fn months(interval: &str) -> Option<u32> {
    INTERVALS
        .iter()
        .find(|(name, _)| *name == interval)
        .map(|(_, n)| *n)
}

pub fn check_interval(raw: &str) -> Result<String, AppError> {
    months(raw).map(|_| raw.to_string()).ok_or_else(|| {
        AppError::invalid(
            "interval",
            "invalid_choice",
            "The interval is monthly, quarterly or yearly.",
        )
    })
}

/// A plan bills at least one line.
pub fn check_has_lines(count: usize) -> Result<(), AppError> {
    if count == 0 {
        return Err(AppError::invalid(
            "lines",
            "no_lines",
            "A plan needs at least one line.",
        ));
    }
    Ok(())
}

/// A client in `status` may be billed; else the refusal names the client.
pub fn check_billable(client_name: &str, status: &str) -> Result<(), AppError> {
    if NOT_BILLED.contains(&status) {
        return Err(AppError::invalid(
            "client_id",
            "client_not_billed",
            format!(
                "{client_name} is marked {status}: it is not billed. Mark the client active, or end the plan."
            ),
        ));
    }
    Ok(())
}

fn last_day_of_month(year: i32, month: u32) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(year, month, 1)?
        .checked_add_months(Months::new(1))?
        .pred_opt()
}

/// The run after `run_on`: `interval` later, on `run_day` (the plan's day of the month; None:
/// `run_on`'s own) or the month's last day when the month is shorter.
pub fn advance(run_on: NaiveDate, interval: &str, run_day: Option<u32>) -> Option<NaiveDate> {
    let moved = run_on.checked_add_months(Months::new(months(interval)?))?;
    let day = run_day.unwrap_or(run_on.day()).clamp(1, 31);
    let last = last_day_of_month(moved.year(), moved.month())?;
    moved.with_day(day.min(last.day()))
}

/// The invoice notes of the period from `from` to `to` (both included).
pub fn period_note(from: NaiveDate, to: NaiveDate) -> String {
    format!(
        "Recurring billing for the period {} to {}.",
        from.format("%d-%m-%Y"),
        to.format("%d-%m-%Y")
    )
}

/// Why a plan is parked, from a failed run's error: its sentence, after "Line N: " when it is
/// about a line (`lines[N-1].unit_price`).
pub fn park_reason(message: &str, field: Option<&str>) -> String {
    let line = field
        .and_then(|f| f.strip_prefix("lines["))
        .and_then(|rest| rest.split(']').next())
        .and_then(|n| n.parse::<usize>().ok());
    match line {
        Some(i) => format!("Line {}: {message}", i + 1),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        crate::plumbing::clock::date(s).unwrap()
    }

    #[test]
    fn runs_move_by_whole_months_and_keep_their_day() {
        for (from, interval, day, next) in [
            ("2026-01-15", "monthly", None, "2026-02-15"),
            ("2026-01-15", "quarterly", None, "2026-04-15"),
            ("2026-01-15", "yearly", None, "2027-01-15"),
            // The 31st: the last day of shorter months, and the 31st again after them.
            ("2026-01-31", "monthly", Some(31), "2026-02-28"),
            ("2026-02-28", "monthly", Some(31), "2026-03-31"),
            ("2026-03-31", "monthly", Some(31), "2026-04-30"),
            ("2028-01-31", "monthly", Some(31), "2028-02-29"),
            ("2026-11-30", "quarterly", Some(30), "2027-02-28"),
            ("2027-02-28", "quarterly", Some(30), "2027-05-30"),
            // 29 February, yearly: 28 February, then the 29th again in a leap year.
            ("2028-02-29", "yearly", Some(29), "2029-02-28"),
            ("2031-02-28", "yearly", Some(29), "2032-02-29"),
            // Without a day of its own the plan keeps next_run's day.
            ("2026-02-28", "monthly", None, "2026-03-28"),
        ] {
            assert_eq!(
                advance(d(from), interval, day),
                Some(d(next)),
                "{from} {interval} {day:?}"
            );
        }
        assert_eq!(advance(d("2026-01-15"), "weekly", None), None);
    }

    #[test]
    fn checks_name_their_field() {
        assert_eq!(check_interval("quarterly").unwrap(), "quarterly");
        for bad in ["weekly", "", "Monthly"] {
            let e = check_interval(bad).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), ("invalid_choice", Some("interval")));
        }
        assert!(check_has_lines(1).is_ok());
        assert_eq!(check_has_lines(0).unwrap_err().code, "no_lines");
        assert!(check_billable("Chavara SCB", "active").is_ok());
        assert!(check_billable("Chavara SCB", "lead").is_ok());
        let lost = check_billable("Chavara SCB", "lost").unwrap_err();
        assert_eq!(
            lost.message,
            "Chavara SCB is marked lost: it is not billed. Mark the client active, or end the plan."
        );
        assert_eq!(
            check_billable("X", "inactive").unwrap_err().code,
            "client_not_billed"
        );
    }

    #[test]
    fn a_park_reason_names_the_line() {
        assert_eq!(
            park_reason(
                "Deposit module has no price on 2026-11-24.",
                Some("lines[1].unit_price")
            ),
            "Line 2: Deposit module has no price on 2026-11-24."
        );
        assert_eq!(park_reason("No such client.", None), "No such client.");
        assert_eq!(park_reason("Bad.", Some("client_id")), "Bad.");
        assert_eq!(
            period_note(d("2026-03-01"), d("2026-03-31")),
            "Recurring billing for the period 01-03-2026 to 31-03-2026."
        );
    }
}
