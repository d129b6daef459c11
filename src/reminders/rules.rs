//! The rules of reminders (spec 2.9, 3.2, 6.3): the kinds, the dated schedule of day offsets and
//! its checks, which rung of a ladder a day has reached, the idempotency key and the sentence
//! each reminder carries.

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

/// "01-12-2026".
pub fn day(d: NaiveDate) -> String {
    d.format("%d-%m-%Y").to_string()
}

fn days(n: i64) -> String {
    if n == 1 {
        "1 day".into()
    } else {
        format!("{n} days")
    }
}

/// "in 7 days", "today", "3 days ago": how far `due` is from `as_of`.
pub fn until(due: NaiveDate, as_of: NaiveDate) -> String {
    match (due - as_of).num_days() {
        0 => "today".into(),
        n if n < 0 => format!("{} ago", days(-n)),
        n => format!("in {}", days(n)),
    }
}

/// "15 days overdue", "due today", "due in 3 days": an invoice's lateness on `as_of`, counted
/// from `due` (its due date, else its date). The one home of the figure: the reminder's
/// sentence (raised or shown) and its email both say it through here.
pub fn overdue_by(due: NaiveDate, as_of: NaiveDate) -> String {
    match (as_of - due).num_days() {
        n if n > 0 => format!("{} overdue", days(n)),
        _ => format!("due {}", until(due, as_of)),
    }
}

/// The overdue sentence (spec 6.3: it states the due date and the days overdue).
pub fn overdue_reason(doc_no: &str, due: NaiveDate, as_of: NaiveDate, outstanding: i64) -> String {
    format!(
        "{doc_no} is {} (due {}); {} outstanding.",
        overdue_by(due, as_of),
        day(due),
        crate::plumbing::money::rupees(outstanding)
    )
}

/// A subscription's renewal on `as_of`: ahead or today, it renews; past, it was due.
pub fn renewal_reason(module: &str, due: NaiveDate, as_of: NaiveDate) -> String {
    if due < as_of {
        format!(
            "{module} was due for renewal on {} ({}).",
            day(due),
            until(due, as_of)
        )
    } else {
        format!("{module} renews on {} ({}).", day(due), until(due, as_of))
    }
}

/// A service contract's end on `as_of`: ahead or today, it ends; past, it ended.
pub fn contract_reason(description: &str, due: NaiveDate, as_of: NaiveDate) -> String {
    let verb = if due < as_of { "ended" } else { "ends" };
    format!(
        "Service contract \u{201c}{description}\u{201d} {verb} on {} ({}).",
        day(due),
        until(due, as_of)
    )
}

/// A quotation without an answer, `as_of`: how long ago it was sent.
pub fn quote_reason(doc_no: &str, sent_on: NaiveDate, as_of: NaiveDate) -> String {
    let since = match (as_of - sent_on).num_days() {
        0 => "today".to_string(),
        n if n > 0 => format!("{} ago", days(n)),
        n => format!("{} ahead", days(-n)),
    };
    format!(
        "{doc_no} was sent on {}, {since}, with no answer yet.",
        day(sent_on)
    )
}

pub fn follow_up_reason(notes: &str, on: NaiveDate) -> String {
    let mut short: String = notes.chars().take(120).collect();
    if notes.chars().count() > 120 {
        short.push('…');
    }
    format!("Follow up (due {}): {short}", day(on))
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

pub fn bounce_reason(address: &str, kind: &str, description: &str) -> String {
    let what = if description.trim().is_empty() {
        kind
    } else {
        description.trim()
    };
    let mut short: String = what.chars().take(160).collect();
    if what.chars().count() > 160 {
        short.push('…');
    }
    format!("Mail to {address} bounced ({short}): check the address.")
}

/// What a reminder points at as it stands now: the facts its sentence is made of. The
/// document's, the subscription's, the contract's and the interaction's, each None when the
/// reminder is of another kind (or the thing is gone).
#[derive(Debug, Clone, Default)]
pub struct Standing {
    pub doc_no: Option<String>,
    pub doc_date: Option<NaiveDate>,
    pub due_date: Option<NaiveDate>,
    pub outstanding: Option<i64>,
    pub module: Option<String>,
    pub contract: Option<String>,
    pub notes: Option<String>,
}

/// A reminder's sentence on `as_of` (issue 34): the same functions the scan wrote its `reason`
/// with on the day it was raised, so every "days" figure is counted to the day it is read.
/// An overdue invoice counts from its due date (else its date) as it stands, as its email does;
/// the others from `due_on`. None for the kinds whose sentence has no figure to move (a bounce,
/// a Form 16A): their reason is their summary.
pub fn summary(kind: &str, due_on: NaiveDate, s: &Standing, as_of: NaiveDate) -> Option<String> {
    let doc_no = s.doc_no.as_deref().unwrap_or_default();
    match kind {
        "invoice_overdue" => Some(overdue_reason(
            doc_no,
            s.due_date.or(s.doc_date).unwrap_or(due_on),
            as_of,
            s.outstanding?,
        )),
        "quote_followup" => Some(quote_reason(doc_no, due_on, as_of)),
        "renewal_due" => Some(renewal_reason(s.module.as_deref()?, due_on, as_of)),
        "amc_expiring" => Some(contract_reason(s.contract.as_deref()?, due_on, as_of)),
        "follow_up" => Some(follow_up_reason(s.notes.as_deref()?, due_on)),
        _ => None,
    }
}

/// What a reminder's email is about, with the facts its sentences need.
pub enum About<'a> {
    Quote {
        doc_no: &'a str,
        sent_on: NaiveDate,
    },
    /// `due_date` None: the invoice has none, and the days run from its date.
    Overdue {
        doc_no: &'a str,
        doc_date: NaiveDate,
        due_date: Option<NaiveDate>,
        outstanding: i64,
    },
    Renewal {
        module: &'a str,
        on: NaiveDate,
        price: Option<i64>,
    },
    Contract {
        description: &'a str,
        ends: NaiveDate,
        amount: i64,
    },
}

/// The subject and the message of a reminder's email on `today` (the message's paragraphs are
/// split on blank lines; the document summary, the link and the signature are added around it).
pub fn letter(about: &About<'_>, today: NaiveDate) -> (String, String) {
    const DEAR: &str = "Dear Sir/Madam,";
    match *about {
        About::Quote { doc_no, sent_on } => (
            format!("Following up on our quotation {doc_no}"),
            format!(
                "{DEAR}\n\nWe sent you our quotation {doc_no} on {}. We would be glad to answer any \
                 question about it, or to adjust it to your society's needs.\n\nPlease let us know how you \
                 would like to proceed.",
                day(sent_on)
            ),
        ),
        About::Overdue {
            doc_no,
            doc_date,
            due_date,
            outstanding,
        } => {
            let late = overdue_by(due_date.unwrap_or(doc_date), today);
            let when = match due_date {
                Some(due) => format!("was due on {} and is now {late}", day(due)),
                None => format!("is now {late}"),
            };
            (
                format!("Payment reminder: invoice {doc_no} is {late}"),
                format!(
                    "{DEAR}\n\nOur invoice {doc_no} dated {} {when}. The amount outstanding is {}.\n\n\
                     If you have already paid, please ignore this reminder and send us the payment \
                     details so that we can match them.",
                    day(doc_date),
                    crate::plumbing::money::rupees(outstanding)
                ),
            )
        }
        About::Renewal { module, on, price } => (
            format!("{module}: renewal due on {}", day(on)),
            format!(
                "{DEAR}\n\nYour subscription to {module} is due for renewal on {}{}. We will send the \
                 renewal invoice; please tell us if anything has changed.",
                day(on),
                price.map_or(String::new(), |p| format!(
                    ", at {}",
                    crate::plumbing::money::rupees(p)
                ))
            ),
        ),
        About::Contract {
            description,
            ends,
            amount,
        } => (
            format!("Your maintenance contract ends on {}", day(ends)),
            format!(
                "{DEAR}\n\nYour maintenance contract ({description}) runs until {}. To keep the support \
                 going without a break, please confirm its renewal for {}.",
                day(ends),
                crate::plumbing::money::rupees(amount)
            ),
        ),
    }
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

    #[test]
    fn the_overdue_email_states_the_due_date_and_the_days_when_there_is_one() {
        let (subject, message) = letter(
            &About::Overdue {
                doc_no: "INV/26-27-0007",
                doc_date: d("2026-10-17"),
                due_date: Some(d("2026-11-01")),
                outstanding: 1_180_000,
            },
            d("2026-11-16"),
        );
        assert_eq!(
            subject,
            "Payment reminder: invoice INV/26-27-0007 is 15 days overdue"
        );
        assert!(
            message.contains(
                "Our invoice INV/26-27-0007 dated 17-10-2026 was due on 01-11-2026 and is now 15 days overdue. \
                 The amount outstanding is ₹11,800.00."
            ),
            "{message}"
        );
        let (_, without) = letter(
            &About::Overdue {
                doc_no: "INV/26-27-0008",
                doc_date: d("2026-11-15"),
                due_date: None,
                outstanding: 100,
            },
            d("2026-11-16"),
        );
        assert!(
            without.contains("Our invoice INV/26-27-0008 dated 15-11-2026 is now 1 day overdue."),
            "{without}"
        );
    }

    #[test]
    fn the_overdue_sentence_states_the_due_date_and_the_days() {
        assert_eq!(
            overdue_reason("INV/26-27-0007", d("2026-11-01"), d("2026-11-16"), 1_180_000),
            "INV/26-27-0007 is 15 days overdue (due 01-11-2026); ₹11,800.00 outstanding."
        );
        assert_eq!(
            key("invoice_overdue", "D1", d("2026-11-01"), Some(15)),
            "invoice_overdue:D1:2026-11-01:15"
        );
    }
    /// Each sentence counted from the same date to a table of days: 0, 1, 29 and before.
    #[test]
    fn each_sentence_counts_its_days_to_the_day_it_is_read() {
        let due = d("2026-11-01");
        let on = |n: i64| due + chrono::Duration::days(n);
        let overdue: Vec<String> = [0, 1, 29, -3]
            .iter()
            .map(|n| overdue_reason("INV/26-27-0007", due, on(*n), 1_180_000))
            .collect();
        assert_eq!(
            overdue,
            [
                "INV/26-27-0007 is due today (due 01-11-2026); ₹11,800.00 outstanding.",
                "INV/26-27-0007 is 1 day overdue (due 01-11-2026); ₹11,800.00 outstanding.",
                "INV/26-27-0007 is 29 days overdue (due 01-11-2026); ₹11,800.00 outstanding.",
                "INV/26-27-0007 is due in 3 days (due 01-11-2026); ₹11,800.00 outstanding.",
            ]
        );
        // Days before the renewal: 0 (today), 1, 29, and -2 (two days past).
        let renewal: Vec<String> = [0, 1, 29, -2]
            .iter()
            .map(|n: &i64| renewal_reason("Deposit module", due, on(-n)))
            .collect();
        assert_eq!(
            renewal,
            [
                "Deposit module renews on 01-11-2026 (today).",
                "Deposit module renews on 01-11-2026 (in 1 day).",
                "Deposit module renews on 01-11-2026 (in 29 days).",
                "Deposit module was due for renewal on 01-11-2026 (2 days ago).",
            ]
        );
        let contract: Vec<String> = [0, 29, -1]
            .iter()
            .map(|n: &i64| contract_reason("Core banking AMC", due, on(-n)))
            .collect();
        assert_eq!(
            contract,
            [
                "Service contract \u{201c}Core banking AMC\u{201d} ends on 01-11-2026 (today).",
                "Service contract \u{201c}Core banking AMC\u{201d} ends on 01-11-2026 (in 29 days).",
                "Service contract \u{201c}Core banking AMC\u{201d} ended on 01-11-2026 (1 day ago).",
            ]
        );
        let quote: Vec<String> = [0, 1, 29, -1]
            .iter()
            .map(|n| quote_reason("QT/26-27-0003", due, on(*n)))
            .collect();
        assert_eq!(
            quote,
            [
                "QT/26-27-0003 was sent on 01-11-2026, today, with no answer yet.",
                "QT/26-27-0003 was sent on 01-11-2026, 1 day ago, with no answer yet.",
                "QT/26-27-0003 was sent on 01-11-2026, 29 days ago, with no answer yet.",
                "QT/26-27-0003 was sent on 01-11-2026, 1 day ahead, with no answer yet.",
            ]
        );
    }

    /// The summary of a reminder is the scan's sentence made on another day; the overdue one
    /// counts from the invoice's due date as it stands, and its email says the same figure.
    #[test]
    fn a_summary_is_the_scans_sentence_on_the_day_it_is_read() {
        let invoice = Standing {
            doc_no: Some("INV/26-27-0007".into()),
            doc_date: Some(d("2026-10-17")),
            due_date: Some(d("2026-11-01")),
            outstanding: Some(1_180_000),
            ..Default::default()
        };
        let raised = d("2026-11-16");
        let read = d("2026-11-20");
        assert_eq!(
            summary("invoice_overdue", d("2026-11-01"), &invoice, raised).as_deref(),
            Some(overdue_reason("INV/26-27-0007", d("2026-11-01"), raised, 1_180_000).as_str())
        );
        assert_eq!(
            summary("invoice_overdue", d("2026-11-01"), &invoice, read).as_deref(),
            Some("INV/26-27-0007 is 19 days overdue (due 01-11-2026); ₹11,800.00 outstanding.")
        );
        let (subject, _) = letter(
            &About::Overdue {
                doc_no: "INV/26-27-0007",
                doc_date: d("2026-10-17"),
                due_date: Some(d("2026-11-01")),
                outstanding: 1_180_000,
            },
            read,
        );
        assert_eq!(
            subject,
            "Payment reminder: invoice INV/26-27-0007 is 19 days overdue"
        );
        let module = Standing {
            module: Some("Deposit module".into()),
            ..Default::default()
        };
        assert_eq!(
            summary("renewal_due", d("2026-12-01"), &module, read).as_deref(),
            Some("Deposit module renews on 01-12-2026 (in 11 days).")
        );
        assert_eq!(summary("email_bounced", read, &Standing::default(), read), None);
        assert_eq!(
            summary("renewal_due", read, &Standing::default(), read),
            None,
            "the subscription is gone"
        );
    }
}
