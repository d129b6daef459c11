//! The rules of reminders (spec 2.9, 3.2, 6.3): the kinds, the dated schedule of day offsets and
//! its checks, which rung of a ladder a day has reached, the idempotency key and which bounces
//! count. The sentence each reminder carries, and its email, are in `sentences`.

use crate::plumbing::error::{AppError, Checks};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Every kind, in the order the queue lists them; `invoice_overdue` is the overdue-invoice kind
/// (decisions 9); `tds_certificate_due` is a society's Form 16A past its statutory date (issue 21);
/// `tds_not_filed` is a society's TDS booked but not deposited, as Form 26AS shows (issue 36), an
/// office task: the society is called, since it must file a corrected return.
pub const KINDS: &[&str] = &[
    "renewal_due",
    "amc_expiring",
    "invoice_overdue",
    "quote_followup",
    "follow_up",
    "email_bounced",
    "tds_certificate_due",
    "tds_not_filed",
];

/// The kinds whose reminder is an email to the client; the others are the office's own tasks.
pub const SENDABLE: &[&str] = &[
    "renewal_due",
    "amc_expiring",
    "invoice_overdue",
    "quote_followup",
    "tds_certificate_due",
];

pub const STATUSES: &[&str] = &["open", "sent", "dismissed", "failed"];
pub const POLICIES: &[&str] = &["manual", "auto"];

/// An interaction's follow-up older than this when a scan first sees it is left alone: a new
/// office's history is not turned into a queue of stale tasks.
pub const FOLLOW_UP_LOOKBACK_DAYS: i64 = 30;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DaysBefore {
    pub days_before: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DaysAfter {
    pub days_after: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuoteLadder {
    pub day_offsets: Vec<i64>,
    /// `manual` (rows wait in the queue) or `auto` (the drain sends them).
    pub policy: String,
}

/// The reminder schedule in force from `effective_from` (decisions 11).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Schedule {
    pub renewal_due: DaysBefore,
    pub amc_expiring: DaysBefore,
    pub invoice_overdue: DaysAfter,
    pub quote_followup: QuoteLadder,
}

/// The longest ladder a schedule may hold, and the furthest a rung may be.
const MAX_RUNGS: usize = 10;
const MAX_DAYS: i64 = 3650;

/// One ladder: whole days 0 to 3650, at least one, no day twice; answered in ascending order.
fn check_ladder(field: &str, days: &[i64]) -> Result<Vec<i64>, AppError> {
    let mut sorted = days.to_vec();
    sorted.sort_unstable();
    let invalid = |message: &str| AppError::invalid(field, "invalid_offsets", message.to_string());
    if sorted.is_empty() || sorted.len() > MAX_RUNGS {
        return Err(invalid("Give 1 to 10 days."));
    }
    if sorted.iter().any(|d| !(0..=MAX_DAYS).contains(d)) {
        return Err(invalid("Each day is a whole number from 0 to 3650."));
    }
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(invalid("Each day appears once."));
    }
    Ok(sorted)
}

impl Schedule {
    /// Checks every ladder and the policy, naming every invalid field at once; answers the
    /// schedule with its ladders in ascending order.
    pub fn checked(mut self) -> Result<Schedule, AppError> {
        let mut checks = Checks::default();
        if let Some(d) = checks.check(check_ladder(
            "renewal_due.days_before",
            &self.renewal_due.days_before,
        )) {
            self.renewal_due.days_before = d;
        }
        if let Some(d) = checks.check(check_ladder(
            "amc_expiring.days_before",
            &self.amc_expiring.days_before,
        )) {
            self.amc_expiring.days_before = d;
        }
        if let Some(d) = checks.check(check_ladder(
            "invoice_overdue.days_after",
            &self.invoice_overdue.days_after,
        )) {
            self.invoice_overdue.days_after = d;
        }
        if let Some(d) = checks.check(check_ladder(
            "quote_followup.day_offsets",
            &self.quote_followup.day_offsets,
        )) {
            self.quote_followup.day_offsets = d;
        }
        if !POLICIES.contains(&self.quote_followup.policy.as_str()) {
            checks.fail(AppError::invalid(
                "quote_followup.policy",
                "invalid_policy",
                "The policy is manual or auto.",
            ));
        }
        checks.done()?;
        Ok(self)
    }
}

/// The rung `as_of` has reached on a ladder of `offsets` days from `anchor` (negative: before
/// it): the last one crossed, so a scan after a missed week raises one reminder, not three.
pub fn rung_reached(
    anchor: NaiveDate,
    offsets: impl IntoIterator<Item = i64>,
    as_of: NaiveDate,
) -> Option<i64> {
    let reached = (as_of - anchor).num_days();
    offsets.into_iter().filter(|o| *o <= reached).max()
}

/// The rung of a days-before ladder that `as_of` has reached, while `due` is still ahead (or
/// today): a renewal or a contract end within its window.
pub fn before_rung(due: NaiveDate, days_before: &[i64], as_of: NaiveDate) -> Option<i64> {
    if as_of > due {
        return None;
    }
    rung_reached(due, days_before.iter().map(|d| -d), as_of).map(|o| -o)
}

/// The idempotency key of a reminder: its kind, what it is about, the date it falls due and
/// its rung. Unique in the table, so two scans at once cannot raise it twice.
pub fn key(kind: &str, subject: &str, due_on: NaiveDate, rung: Option<i64>) -> String {
    match rung {
        Some(r) => format!("{kind}:{subject}:{due_on}:{r}"),
        None => format!("{kind}:{subject}:{due_on}"),
    }
}

/// Whether a bounce of the provider's `kind` means the address does not take mail: a soft
/// bounce (a full or busy mailbox, an auto-reply, a passing DNS failure) does not.
pub fn bounce_counts(kind: &str) -> bool {
    !matches!(
        kind,
        "SoftBounce"
            | "Transient"
            | "AutoResponder"
            | "DnsError"
            | "OpenRelayTest"
            | "Subscribe"
            | "Unsubscribe"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        crate::plumbing::clock::date(s).unwrap()
    }

    #[test]
    fn the_last_rung_crossed_fires_and_nothing_before_the_first() {
        let sent = d("2026-11-01");
        let ladder = [3, 7, 14];
        assert_eq!(rung_reached(sent, ladder, d("2026-11-03")), None);
        assert_eq!(rung_reached(sent, ladder, d("2026-11-04")), Some(3));
        assert_eq!(rung_reached(sent, ladder, d("2026-11-07")), Some(3));
        assert_eq!(rung_reached(sent, ladder, d("2026-11-08")), Some(7));
        // A week missed: day 20 raises the 14-day rung only.
        assert_eq!(rung_reached(sent, ladder, d("2026-11-21")), Some(14));
    }

    #[test]
    fn a_days_before_ladder_fires_inside_its_window_only() {
        let due = d("2026-12-31");
        let ladder = [7, 30];
        assert_eq!(before_rung(due, &ladder, d("2026-11-30")), None, "31 days before");
        assert_eq!(before_rung(due, &ladder, d("2026-12-01")), Some(30));
        assert_eq!(before_rung(due, &ladder, d("2026-12-23")), Some(30));
        assert_eq!(before_rung(due, &ladder, d("2026-12-24")), Some(7));
        assert_eq!(
            before_rung(due, &ladder, d("2026-12-31")),
            Some(7),
            "the day itself"
        );
        assert_eq!(
            before_rung(due, &ladder, d("2027-01-01")),
            None,
            "past: the worklist shows it"
        );
        assert_eq!(before_rung(due, &[0], d("2026-12-31")), Some(0));
    }

    fn default_schedule() -> Schedule {
        crate::reminders::schedule::with_policy(
            crate::plumbing::db::settings::REMINDER_SCHEDULE.default_value(),
            "manual",
        )
        .unwrap()
    }

    #[test]
    fn a_schedule_is_checked_whole_and_its_ladders_sorted() {
        let mut s = default_schedule();
        s.invoice_overdue.days_after = vec![30, 1, 15];
        assert_eq!(
            s.clone().checked().unwrap().invoice_overdue.days_after,
            [1, 15, 30]
        );
        s.renewal_due.days_before = vec![-1];
        s.amc_expiring.days_before = vec![7, 7];
        s.quote_followup.day_offsets = vec![];
        s.quote_followup.policy = "sometimes".into();
        let e = s.checked().unwrap_err();
        let fields: Vec<&str> = e.errors.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "renewal_due.days_before",
                "amc_expiring.days_before",
                "quote_followup.day_offsets",
                "quote_followup.policy"
            ]
        );
    }
}
