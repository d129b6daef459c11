//! The rules of the renewals worklist (spec 4.6, decisions 11): one earliest-first list of what
//! renews in a date range (today to 60 days ahead by default), module renewals at the price-book
//! price on their renewal day and service contracts at their fixed amount, each with the days
//! until it (negative once past), and the total of the amounts.
//!
//! The list is read whole (a 60-day range of the large office is about 5,500 rows) and sorted
//! and paged here: one pass over the rows, where paging it in SQL walked them three times (the
//! count, the page and the total, 14 ms against 4).

use crate::plumbing::db::query::nocase_cmp;
use crate::plumbing::error::AppError;
use chrono::{Duration, NaiveDate};
use serde::Serialize;
use std::cmp::Ordering;
use utoipa::ToSchema;

pub const KINDS: &[&str] = &["module", "contract"];
pub const DEFAULT_DAYS_AHEAD: i64 = 60;
/// The widest range a list may ask for.
pub const MAX_DAYS: i64 = 3 * 366;

/// One renewal.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Renewal {
    /// module or contract.
    pub kind: String,
    /// The subscription (client module) or the service contract.
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    /// The module (and edition), or the contract's description.
    pub what: String,
    pub module_id: Option<String>,
    /// next_renewal of a subscription, period_to of a contract.
    #[schema(format = Date)]
    pub due_on: String,
    /// Paise before GST: the price book's on due_on (none when the module had no price then),
    /// or the contract's fixed amount.
    pub amount: Option<i64>,
    /// Negative once past.
    pub days_until: i64,
    /// A contract's renewal invoice, when one was raised and is not cancelled.
    pub document_id: Option<String>,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    /// A subscription's live renewal proforma (a draft or issued PROFORMA its renewal route
    /// made, not cancelled nor converted), so nobody makes a second; null on contracts.
    pub renewal_document: Option<RenewalDocument>,
}

/// The renewal proforma a subscription's row names.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RenewalDocument {
    pub id: String,
    /// Null while it is a draft.
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    /// draft or issued.
    pub status: String,
}

/// The range asked for: `from` to `to`, today to 60 days ahead by default.
pub fn range(
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<(NaiveDate, NaiveDate), AppError> {
    let from = from.unwrap_or(today);
    let to = to.unwrap_or(from.max(today) + Duration::days(DEFAULT_DAYS_AHEAD));
    if to < from {
        return Err(AppError::bad_request("invalid_range", "to is on or after from.").on_field("to"));
    }
    if (to - from).num_days() > MAX_DAYS {
        return Err(
            AppError::bad_request("invalid_range", "Ask for at most three years at a time.").on_field("to"),
        );
    }
    Ok((from, to))
}

/// What the list may be sorted by (decisions 10).
pub const SORTS: &[&str] = &["due_on", "client_name", "what", "kind", "amount", "days_until"];

/// Orders `rows` by `sort` (`name` or `-name`; earliest first without it), ties on the id in
/// the same direction; an unknown name is 400, as the lists sorted in SQL answer.
pub fn sort(rows: &mut [Renewal], sort: Option<&str>) -> Result<(), AppError> {
    let sort = sort.map(str::trim).filter(|s| !s.is_empty()).unwrap_or("due_on");
    let (name, descending) = match sort.strip_prefix('-') {
        Some(name) => (name, true),
        None => (sort, false),
    };
    let by: fn(&Renewal, &Renewal) -> Ordering = match name {
        "due_on" | "days_until" => |a, b| a.due_on.cmp(&b.due_on),
        "client_name" => |a, b| nocase_cmp(&a.client_name, &b.client_name),
        "what" => |a, b| nocase_cmp(&a.what, &b.what),
        "kind" => |a, b| a.kind.cmp(&b.kind),
        "amount" => |a, b| a.amount.cmp(&b.amount),
        _ => {
            return Err(AppError::bad_request(
                "invalid_sort",
                format!("sort is one of {} (with - for descending).", SORTS.join(", ")),
            )
            .on_field("sort"));
        }
    };
    rows.sort_by(|a, b| {
        let order = by(a, b).then_with(|| a.id.cmp(&b.id));
        if descending { order.reverse() } else { order }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        crate::plumbing::clock::date(text).unwrap()
    }

    #[test]
    fn the_range_defaults_to_sixty_days_from_today() {
        let today = day("2026-11-25");
        assert_eq!(range(None, None, today).unwrap(), (today, day("2027-01-24")));
        assert_eq!(
            range(Some(day("2026-11-01")), None, today).unwrap(),
            (day("2026-11-01"), day("2027-01-24"))
        );
        assert_eq!(
            range(Some(day("2027-03-01")), None, today).unwrap(),
            (day("2027-03-01"), day("2027-04-30"))
        );
        assert_eq!(
            range(None, Some(day("2026-12-01")), today).unwrap(),
            (today, day("2026-12-01"))
        );
        assert_eq!(
            range(None, Some(day("2026-11-24")), today).unwrap_err().code,
            "invalid_range"
        );
        assert_eq!(
            range(Some(day("2020-01-01")), Some(day("2026-01-01")), today)
                .unwrap_err()
                .code,
            "invalid_range"
        );
    }

    fn renewal(id: &str, due_on: &str, client: &str, amount: Option<i64>) -> Renewal {
        Renewal {
            kind: "module".into(),
            id: id.into(),
            client_id: format!("c-{client}"),
            client_name: client.into(),
            what: "Core banking".into(),
            module_id: None,
            due_on: due_on.into(),
            amount,
            days_until: 0,
            document_id: None,
            doc_no: None,
            renewal_document: None,
        }
    }

    #[test]
    fn sorting_is_earliest_first_with_ties_on_the_id() {
        let mut rows = vec![
            renewal("b", "2026-12-01", "beta", Some(5)),
            renewal("a", "2026-12-01", "Alpha", None),
            renewal("c", "2026-11-30", "gamma", Some(9)),
        ];
        let ids = |rows: &[Renewal]| rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
        sort(&mut rows, None).unwrap();
        assert_eq!(ids(&rows), ["c", "a", "b"]);
        sort(&mut rows, Some("-due_on")).unwrap();
        assert_eq!(ids(&rows), ["b", "a", "c"]);
        sort(&mut rows, Some("client_name")).unwrap();
        assert_eq!(ids(&rows), ["a", "b", "c"]);
        sort(&mut rows, Some("-amount")).unwrap();
        assert_eq!(ids(&rows), ["c", "b", "a"]);
        assert_eq!(sort(&mut rows, Some("price")).unwrap_err().code, "invalid_sort");
    }
}
