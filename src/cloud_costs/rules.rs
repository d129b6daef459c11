//! The rules of cloud cost usage (spec 2.10, 4.9, 6.3; decisions 5 "cloud costs"), as plain
//! functions:
//!
//! - A cost is one row per client and month: `YYYY-MM`, from 2000-01 up to the office's current
//!   month (a month still running may carry what it has cost so far; a later one has cost
//!   nothing yet). The amount is whole paise before GST, 0 to ₹1 crore a month.
//! - A write of many rows names every wrong field of every row (`rows[2].month`) and writes
//!   nothing while any is wrong; one body sets a client's month once, at most 1,000 rows.
//! - The provider's report (`GET {api_url}?month=YYYY-MM`) gives rupees as a decimal string or
//!   number with at most two decimals, read exactly into paise; a reply that is not of the month
//!   asked, names a client twice or holds an amount that is not one is refused whole.
//! - The ranking reads a range of months (`revenue::rules::Months`: the last 12 up to the
//!   current one by default, at most 120), costliest first.

use crate::plumbing::clock::{FIRST_YEAR, Month};
use crate::plumbing::error::AppError;
use crate::plumbing::money;
use serde::Deserialize;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::HashSet;

/// The most rows one write may carry.
pub const MAX_ROWS: usize = 1000;
/// The largest cost of one client's month, in paise (₹1 crore): a larger one is a typo, and
/// ten years of the largest office's costs stay far inside an i64.
pub const MAX_AMOUNT: i64 = 1_000_000_000;
/// A month written in a body at `field`: `YYYY-MM`, not after `current` (the office's month).
pub fn month_in(field: &str, text: &str, current: Month) -> Result<Month, AppError> {
    let month = Month::parse(text.trim()).ok_or_else(|| {
        AppError::invalid(
            field,
            "invalid_month",
            format!("Write the month as YYYY-MM (e.g. {current}), from {FIRST_YEAR}-01 on."),
        )
    })?;
    if month > current {
        return Err(AppError::invalid(
            field,
            "future_month",
            format!("{month} has not begun: the latest month that can have a cost is {current}."),
        ));
    }
    Ok(month)
}

/// An amount written in a body at `field`: whole paise (a JSON integer), 0 to [`MAX_AMOUNT`].
pub fn amount_in(field: &str, value: &Value) -> Result<i64, AppError> {
    let number = match value {
        Value::Number(n) => n,
        _ => {
            return Err(AppError::invalid(
                field,
                "invalid_amount",
                "The amount is a whole number of paise (₹1,234.50 is 123450).",
            ));
        }
    };
    let paise = if let Some(n) = number.as_i64() {
        n
    } else if number.as_u64().is_some() {
        i64::MAX
    } else {
        return Err(AppError::invalid(
            field,
            "invalid_amount",
            "The amount is a whole number of paise, without decimals (₹1,234.50 is 123450).",
        ));
    };
    if paise < 0 {
        return Err(AppError::invalid(
            field,
            "negative_amount",
            "A cost cannot be below zero.",
        ));
    }
    if paise > MAX_AMOUNT {
        return Err(AppError::invalid(
            field,
            "amount_too_large",
            format!("A month's cost is at most {}.", money::rupees(MAX_AMOUNT)),
        ));
    }
    Ok(paise)
}

/// Rupees as the provider writes them, exactly into paise: `1234.50`, `"1234.5"`, `"800"`,
/// `0`. None for anything else: a sign, a third decimal, grouping commas, an exponent, text, or
/// more than [`MAX_AMOUNT`].
pub fn paise_from_rupees(value: &Value) -> Option<i64> {
    let text = match value {
        Value::String(s) => s.trim().to_string(),
        // A number as serde_json holds it: an integer as written, a decimal as its shortest
        // form (1234.50 reads 1234.5, 0.1 reads 0.1; 1.005 stays three decimals).
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    if whole.is_empty()
        || whole.len() > 12
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || fraction.len() > 2
        || (text.contains('.') && fraction.is_empty())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let rupees: i64 = whole.parse().ok()?;
    let paise: i64 = format!("{fraction:0<2}").parse().ok()?;
    let amount = rupees.checked_mul(100)?.checked_add(paise)?;
    (amount <= MAX_AMOUNT).then_some(amount)
}

/// One row of the provider's report as it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reported {
    pub client_id: String,
    pub amount: i64,
}

#[derive(Deserialize)]
struct Wire {
    month: String,
    rows: Vec<WireRow>,
}

#[derive(Deserialize)]
struct WireRow {
    client_id: String,
    amount: Value,
}

/// Reads the provider's answer for `month`: `{ "month": "YYYY-MM", "rows": [ { "client_id",
/// "amount" } ] }` (other keys are ignored). Err says in a sentence why it is not that.
pub fn read_reply(body: &[u8], month: Month) -> Result<Vec<Reported>, String> {
    let wire: Wire = serde_json::from_slice(body).map_err(|e| {
        let why = e.to_string();
        format!(
            "it is not the report's JSON ({})",
            why.split(" at line ").next().unwrap_or(&why)
        )
    })?;
    if Month::parse(wire.month.trim()) != Some(month) {
        return Err(format!(
            "it is the report of {:?}, not of {month}",
            wire.month.chars().take(20).collect::<String>()
        ));
    }
    let mut seen = HashSet::new();
    wire.rows
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            let client_id = row.client_id.trim().to_string();
            if client_id.is_empty() {
                return Err(format!("row {i} names no client"));
            }
            if !seen.insert(client_id.clone()) {
                return Err(format!("row {i} names a client an earlier row named"));
            }
            let amount = paise_from_rupees(&row.amount).ok_or_else(|| {
                format!(
                    "row {i}'s amount {} is not rupees with at most two decimals, 0 to {}",
                    row.amount.to_string().chars().take(30).collect::<String>(),
                    money::decimal(MAX_AMOUNT)
                )
            })?;
            Ok(Reported { client_id, amount })
        })
        .collect()
}

/// The address of the report of `month` at the provider's `api_url`.
pub fn report_url(api_url: &str, month: Month) -> String {
    let joint = if api_url.contains('?') { '&' } else { '?' };
    format!("{api_url}{joint}month={month}")
}

/// A client's place in the ranking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranked {
    pub client_id: String,
    pub client_name: String,
    /// Paise over the range.
    pub total: i64,
    /// Months of the range that have a cost row.
    pub months: i64,
    /// `total / months`, rounded half-up to the paisa.
    pub average: i64,
}

/// The average of `total` over `months` months, half-up to the paisa (0 without months).
pub fn average(total: i64, months: i64) -> i64 {
    if months <= 0 {
        0
    } else {
        money::div_round_half_up(total.max(0), months)
    }
}

/// The ranking's sort columns (decisions 10).
pub const RANKING_SORTS: &[&str] = &["total", "average", "months", "client_name"];

/// Orders the ranking by `sort` (`column` or `-column` of [`RANKING_SORTS`]; costliest first
/// without one), ties on the client id in the same direction. An unknown column is a 400.
pub fn sort_ranking(rows: &mut [Ranked], sort: Option<&str>) -> Result<(), AppError> {
    let sort = sort.map(str::trim).filter(|s| !s.is_empty()).unwrap_or("-total");
    let (name, descending) = match sort.strip_prefix('-') {
        Some(name) => (name, true),
        None => (sort, false),
    };
    let key: fn(&Ranked, &Ranked) -> Ordering = match name {
        "total" => |a, b| a.total.cmp(&b.total),
        "average" => |a, b| a.average.cmp(&b.average),
        "months" => |a, b| a.months.cmp(&b.months),
        "client_name" => |a, b| crate::plumbing::db::query::nocase_cmp(&a.client_name, &b.client_name),
        _ => {
            return Err(AppError::bad_request(
                "invalid_sort",
                format!(
                    "sort is one of {} (with - for descending).",
                    RANKING_SORTS.join(", ")
                ),
            )
            .on_field("sort"));
        }
    };
    rows.sort_by(|a, b| {
        let order = key(a, b).then_with(|| a.client_id.cmp(&b.client_id));
        if descending { order.reverse() } else { order }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn m(text: &str) -> Month {
        Month::parse(text).unwrap()
    }

    #[test]
    fn a_body_month_is_yyyy_mm_up_to_the_current_month() {
        let now = m("2026-11");
        assert_eq!(month_in("m", "2026-11", now).unwrap(), now);
        assert_eq!(month_in("m", "2024-02", now).unwrap(), m("2024-02"));
        for (text, code) in [
            ("2026-12", "future_month"),
            ("2027-01", "future_month"),
            ("2026-13", "invalid_month"),
            ("Nov 2026", "invalid_month"),
            ("1999-01", "invalid_month"),
        ] {
            let e = month_in("rows[3].month", text, now).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref(), e.status.as_u16()),
                (code, Some("rows[3].month"), 422),
                "{text}"
            );
        }
    }

    #[test]
    fn a_body_amount_is_whole_paise_within_bounds() {
        for (value, expected) in [
            (json!(0), Ok(0)),
            (json!(123450), Ok(123_450)),
            (json!(MAX_AMOUNT), Ok(MAX_AMOUNT)),
            (json!(-1), Err("negative_amount")),
            (json!(12.5), Err("invalid_amount")),
            (json!(100.0), Err("invalid_amount")),
            (json!("1200"), Err("invalid_amount")),
            (json!(null), Err("invalid_amount")),
            (json!(true), Err("invalid_amount")),
            (json!(MAX_AMOUNT + 1), Err("amount_too_large")),
            (json!(u64::MAX), Err("amount_too_large")),
        ] {
            assert_eq!(amount_in("a", &value).map_err(|e| e.code), expected, "{value}");
        }
    }

    #[test]
    fn the_providers_rupees_are_read_exactly() {
        for (value, expected) in [
            (json!("1234.50"), Some(123_450)),
            (json!("1234.5"), Some(123_450)),
            (json!(" 800 "), Some(80_000)),
            (json!("0"), Some(0)),
            (json!("0.07"), Some(7)),
            (json!(1234.50), Some(123_450)),
            (json!(0.1), Some(10)),
            (json!(6000), Some(600_000)),
            (json!(0.29), Some(29)),
            (json!("1,234.50"), None),
            (json!("1234.505"), None),
            (json!(1.005), None),
            (json!("-5"), None),
            (json!(-5), None),
            (json!("1e3"), None),
            (json!(1e21), None),
            (json!("12."), None),
            (json!(".5"), None),
            (json!("₹800"), None),
            (json!(""), None),
            (json!(null), None),
            (json!("10000000.01"), None),
        ] {
            assert_eq!(paise_from_rupees(&value), expected, "{value}");
        }
        assert_eq!(paise_from_rupees(&json!("10000000.00")), Some(MAX_AMOUNT));
    }

    #[test]
    fn a_reply_is_read_whole_or_refused_with_the_reason() {
        let month = m("2026-10");
        let good = br#"{ "month": "2026-10", "provider": "x", "rows": [
            { "client_id": "C1", "amount": "1234.50" }, { "client_id": " C2 ", "amount": 800 } ] }"#;
        assert_eq!(
            read_reply(good, month).unwrap(),
            [
                Reported {
                    client_id: "C1".into(),
                    amount: 123_450
                },
                Reported {
                    client_id: "C2".into(),
                    amount: 80_000
                }
            ]
        );
        for (body, why) in [
            (&br#"{ "month": "2026-09", "rows": [] }"#[..], "not of 2026-10"),
            (br#"{ "rows": [] }"#, "not the report's JSON"),
            (b"200|OK|12", "not the report's JSON"),
            (
                br#"{ "month": "2026-10", "rows": [ { "client_id": "C1", "amount": "1.005" } ] }"#,
                "row 0's amount",
            ),
            (
                br#"{ "month": "2026-10", "rows": [ { "client_id": "C1", "amount": 1 }, { "client_id": "C1", "amount": 2 } ] }"#,
                "row 1 names a client an earlier row named",
            ),
            (
                br#"{ "month": "2026-10", "rows": [ { "client_id": " ", "amount": 1 } ] }"#,
                "row 0 names no client",
            ),
        ] {
            let e = read_reply(body, month).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
        assert_eq!(
            report_url("https://costs.example/api/report", month),
            "https://costs.example/api/report?month=2026-10"
        );
        assert_eq!(
            report_url("https://costs.example/r?account=7", month),
            "https://costs.example/r?account=7&month=2026-10"
        );
    }

    #[test]
    fn the_ranking_is_costliest_first_and_sorts_on_its_columns() {
        let row = |id: &str, name: &str, total: i64, months: i64| Ranked {
            client_id: id.into(),
            client_name: name.into(),
            total,
            months,
            average: average(total, months),
        };
        let mut rows = vec![
            row("A", "beta", 300, 3),
            row("B", "Alpha", 500, 2),
            row("C", "gamma", 300, 1),
        ];
        sort_ranking(&mut rows, None).unwrap();
        let ids = |rows: &[Ranked]| rows.iter().map(|r| r.client_id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&rows), ["B", "C", "A"]);
        sort_ranking(&mut rows, Some("total")).unwrap();
        assert_eq!(ids(&rows), ["A", "C", "B"]);
        sort_ranking(&mut rows, Some("client_name")).unwrap();
        assert_eq!(ids(&rows), ["B", "A", "C"]);
        sort_ranking(&mut rows, Some("-average")).unwrap();
        assert_eq!(ids(&rows), ["C", "B", "A"]);
        assert_eq!(
            sort_ranking(&mut rows, Some("name")).unwrap_err().code,
            "invalid_sort"
        );
        assert_eq!(average(1000, 3), 333);
        assert_eq!(average(1001, 2), 501);
        assert_eq!(average(5, 0), 0);
    }
}
