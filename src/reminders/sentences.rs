//! The sentences of reminders (spec 6.3): the reason each reminder carries when the scan raises
//! it, the same sentence made on the day it is read (its summary), and the subject and message
//! of its email. Every "days" figure is counted to the day it is read.

use chrono::NaiveDate;

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
    use crate::reminders::rules::key;

    fn d(s: &str) -> NaiveDate {
        crate::plumbing::clock::date(s).unwrap()
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
