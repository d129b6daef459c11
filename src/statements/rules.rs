//! The statement of account's rules (issue 35, decisions 12 "statement of account"): the period
//! asked for, and the ledger built from a client's dated entries.
//!
//! - The period: `from` and `to` as `YYYY-MM-DD`; by default the financial year of `to` (April to
//!   March) from its 1 April, and `to` the office's today. `from` after `to`, or a span of more
//!   than 20 years, is a 422 on `from`.
//! - The ledger: each entry is a debit (an invoice at its total, a refund of an advance, the
//!   reversal of a cancelled payment on its cancel date) or a credit (a credit note, the money of
//!   a payment, the TDS deducted from it, what a legacy invoice had been paid before the move).
//!   What is dated before `from` is the opening; the rows are the rest in date order, each with
//!   the balance run so far; `closing = opening + debits - credits`.
//! - The aging: the invoices still open on `to`, by days past when each fell due (its due date,
//!   else its date): 0-30 (not yet due included), 31-60, 61-90, over 90.

use crate::plumbing::clock;
use crate::plumbing::clock::Fy;
use crate::plumbing::error::AppError;
use chrono::{Datelike, NaiveDate};
use serde::Serialize;
use utoipa::ToSchema;

/// The longest period a statement covers.
pub const MAX_YEARS: i32 = 20;

/// The statement's period, both days included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

impl Period {
    /// `2026-27` for a part of one financial year, else `2020-04-01 to 2026-11-28`.
    pub fn name(&self) -> String {
        if Fy::of(self.from) == Fy::of(self.to) {
            Fy::of(self.to).to_string()
        } else {
            format!("{} to {}", self.from, self.to)
        }
    }

    /// `Statement 2026-27`: the note of the UPI link.
    pub fn label(&self) -> String {
        format!("Statement {}", self.name())
    }
}

/// Reads the period asked for; `today` is the office's.
pub fn period(from: Option<&str>, to: Option<&str>, today: NaiveDate) -> Result<Period, AppError> {
    let to_day = match to {
        Some(raw) => Some(clock::check_date("to", raw)?),
        None => None,
    };
    let from_day = match from {
        Some(raw) => Some(clock::check_date("from", raw)?),
        None => None,
    };
    let to = to_day.unwrap_or(today);
    let from = from_day.unwrap_or_else(|| Fy::of(to).first_day());
    if from > to {
        return Err(AppError::invalid(
            "from",
            "invalid_period",
            format!("The period starts on {from}, after its end {to}."),
        ));
    }
    let longest = to.with_year(to.year() - MAX_YEARS).unwrap_or(to);
    if from < longest {
        return Err(AppError::invalid(
            "from",
            "period_too_long",
            format!("A statement covers at most {MAX_YEARS} years."),
        ));
    }
    Ok(Period { from, to })
}

/// The period of the year-end run for the financial year `fy` (`2026-27`; default the one of
/// `today`): 1 April to 31 March, or to `today` while the year runs. A year not begun yet, or
/// not written `YYYY-YY`, is a 422 on `fy`.
pub fn year_end_period(fy: Option<&str>, today: NaiveDate) -> Result<(Fy, Period), AppError> {
    let fy = match fy.map(str::trim).filter(|f| !f.is_empty()) {
        None => Fy::of(today),
        Some(text) => Fy::parse(text).ok_or_else(|| {
            // A query's value out of shape is its 400, as every report's fy is.
            AppError::bad_request("invalid_fy", "Give the financial year as 2026-27.").on_field("fy")
        })?,
    };
    if fy > Fy::of(today) {
        return Err(AppError::invalid(
            "fy",
            "future_fy",
            format!("The financial year {fy} has not begun."),
        ));
    }
    Ok((
        fy,
        Period {
            from: fy.first_day(),
            to: fy.last_day().min(today),
        },
    ))
}

/// What a statement row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Invoice,
    CreditNote,
    Payment,
    Tds,
    Refund,
    PaymentCancelled,
}

impl Kind {
    pub fn parse(text: &str) -> Option<Kind> {
        Some(match text {
            "invoice" => Kind::Invoice,
            "credit_note" => Kind::CreditNote,
            "payment" => Kind::Payment,
            "tds" => Kind::Tds,
            "refund" => Kind::Refund,
            "payment_cancelled" => Kind::PaymentCancelled,
            _ => return None,
        })
    }

    /// The word a reader sees in the PDF and the CSV.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Invoice => "Invoice",
            Kind::CreditNote => "Credit note",
            Kind::Payment => "Payment",
            Kind::Tds => "TDS",
            Kind::Refund => "Refund",
            Kind::PaymentCancelled => "Payment cancelled",
        }
    }
}

/// One dated entry of a client's account, as the store reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub date: NaiveDate,
    pub kind: Kind,
    pub document_id: Option<String>,
    pub payment_id: Option<String>,
    pub reference: String,
    pub debit: i64,
    pub credit: i64,
    /// The id of the record it comes from: same-day entries keep the order they were made in.
    pub order: String,
}

/// One row of the statement, in paise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Row {
    /// YYYY-MM-DD.
    pub date: String,
    pub kind: Kind,
    /// The invoice or credit note (also on the row of what a legacy invoice was paid before the move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_id: Option<String>,
    /// The payment of a payment, TDS, refund or cancellation row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_id: Option<String>,
    /// The invoice's number (with `paid before the move` on a legacy invoice's paid part), the
    /// credit note's with its invoice's, or the payment's receipt number.
    #[serde(rename = "ref")]
    pub reference: String,
    pub debit: i64,
    pub credit: i64,
    /// The balance after this row: opening + debits - credits so far.
    pub balance: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Totals {
    pub debit: i64,
    pub credit: i64,
}

/// What is open on `to`, by days past due.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Aging {
    /// Not yet due, or up to 30 days past due.
    #[serde(rename = "0-30")]
    pub upto_30: i64,
    #[serde(rename = "31-60")]
    pub upto_60: i64,
    #[serde(rename = "61-90")]
    pub upto_90: i64,
    #[serde(rename = "90+")]
    pub over_90: i64,
}

impl Aging {
    /// Adds `amount` owed `days` past due.
    pub fn add(&mut self, days: i64, amount: i64) {
        *match days {
            ..=30 => &mut self.upto_30,
            31..=60 => &mut self.upto_60,
            61..=90 => &mut self.upto_90,
            _ => &mut self.over_90,
        } += amount;
    }
}

/// The ledger of a period: its opening, rows, totals and closing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ledger {
    pub opening: i64,
    pub rows: Vec<Row>,
    pub totals: Totals,
    pub closing: i64,
}

/// Builds the ledger of `period` from every entry dated up to its end (any order).
pub fn ledger(mut entries: Vec<Entry>, period: Period) -> Ledger {
    entries.sort_by(|a, b| (a.date, a.kind, &a.order).cmp(&(b.date, b.kind, &b.order)));
    let mut opening = 0;
    let mut totals = Totals::default();
    let mut rows = Vec::new();
    for e in entries.into_iter().filter(|e| e.date <= period.to) {
        if e.date < period.from {
            opening += e.debit - e.credit;
            continue;
        }
        totals.debit += e.debit;
        totals.credit += e.credit;
        rows.push(Row {
            date: e.date.to_string(),
            kind: e.kind,
            document_id: e.document_id,
            payment_id: e.payment_id,
            reference: e.reference,
            debit: e.debit,
            credit: e.credit,
            balance: opening + totals.debit - totals.credit,
        });
    }
    Ledger {
        opening,
        closing: opening + totals.debit - totals.credit,
        rows,
        totals,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn the_period_defaults_to_the_financial_year_of_its_end() {
        let today = day("2026-11-28");
        let cases = [
            (None, None, Ok(("2026-04-01", "2026-11-28"))),
            (None, Some("2026-03-31"), Ok(("2025-04-01", "2026-03-31"))),
            (Some("2026-05-01"), None, Ok(("2026-05-01", "2026-11-28"))),
            (
                Some("2026-11-28"),
                Some("2026-11-28"),
                Ok(("2026-11-28", "2026-11-28")),
            ),
            (
                Some("2006-11-28"),
                Some("2026-11-28"),
                Ok(("2006-11-28", "2026-11-28")),
            ),
            (
                Some("2006-11-27"),
                Some("2026-11-28"),
                Err(("from", "period_too_long")),
            ),
            (Some("2026-11-29"), None, Err(("from", "invalid_period"))),
            (Some("2026-02-30"), None, Err(("from", "invalid_date"))),
            (None, Some("yesterday"), Err(("to", "invalid_date"))),
        ];
        for (from, to, expected) in cases {
            let got = period(from, to, today)
                .map(|p| (p.from.to_string(), p.to.to_string()))
                .map_err(|e| (e.field.clone().unwrap_or_default(), e.code));
            let expected = expected
                .map(|(f, t)| (f.to_string(), t.to_string()))
                .map_err(|(f, c)| (f.to_string(), c));
            assert_eq!(got, expected, "{from:?} {to:?}");
        }
    }

    #[test]
    fn the_year_end_run_covers_its_year_up_to_today() {
        let today = day("2026-11-28");
        let got = |fy: Option<&str>| {
            year_end_period(fy, today)
                .map(|(fy, p)| (fy.to_string(), p.from.to_string(), p.to.to_string()))
                .map_err(|e| e.code)
        };
        assert_eq!(
            got(None),
            Ok(("2026-27".into(), "2026-04-01".into(), "2026-11-28".into()))
        );
        assert_eq!(
            got(Some("2025-26")),
            Ok(("2025-26".into(), "2025-04-01".into(), "2026-03-31".into()))
        );
        assert_eq!(got(Some("2027-28")), Err("future_fy"));
        assert_eq!(got(Some("2026")), Err("invalid_fy"));
    }

    #[test]
    fn labels_name_the_financial_year() {
        let p = |f: &str, t: &str| {
            Period {
                from: day(f),
                to: day(t),
            }
            .label()
        };
        assert_eq!(p("2026-04-01", "2026-11-28"), "Statement 2026-27");
        assert_eq!(
            p("2025-04-01", "2026-11-28"),
            "Statement 2025-04-01 to 2026-11-28"
        );
    }

    #[test]
    fn aging_turns_between_day_30_and_31() {
        let mut a = Aging::default();
        for (days, amount) in [(-5, 1), (30, 2), (31, 4), (60, 8), (61, 16), (90, 32), (91, 64)] {
            a.add(days, amount);
        }
        assert_eq!(
            a,
            Aging {
                upto_30: 3,
                upto_60: 12,
                upto_90: 48,
                over_90: 64
            }
        );
    }

    fn entry(date: &str, kind: Kind, debit: i64, credit: i64, order: &str) -> Entry {
        Entry {
            date: day(date),
            kind,
            document_id: None,
            payment_id: None,
            reference: order.to_string(),
            debit,
            credit,
            order: order.to_string(),
        }
    }

    #[test]
    fn the_balance_runs_from_the_opening() {
        let period = Period {
            from: day("2026-05-01"),
            to: day("2026-06-30"),
        };
        let ledger = ledger(
            vec![
                entry("2026-05-10", Kind::Tds, 0, 100, "p1"),
                entry("2026-05-10", Kind::Payment, 0, 900, "p1"),
                entry("2026-04-10", Kind::Invoice, 5_000, 0, "i1"),
                entry("2026-05-10", Kind::Invoice, 2_000, 0, "i2"),
                entry("2026-07-01", Kind::Invoice, 7_000, 0, "i3"),
            ],
            period,
        );
        assert_eq!(ledger.opening, 5_000);
        let rows: Vec<(&str, Kind, i64)> = ledger
            .rows
            .iter()
            .map(|r| (r.reference.as_str(), r.kind, r.balance))
            .collect();
        assert_eq!(
            rows,
            [
                ("i2", Kind::Invoice, 7_000),
                ("p1", Kind::Payment, 6_100),
                ("p1", Kind::Tds, 6_000)
            ]
        );
        assert_eq!(
            (ledger.totals.clone(), ledger.closing),
            (
                Totals {
                    debit: 2_000,
                    credit: 1_000
                },
                6_000
            )
        );
    }
}
