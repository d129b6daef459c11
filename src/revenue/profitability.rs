//! Each client's profitability over a range (billed, collected, cloud cost, margin), sorted.

use crate::plumbing::error::AppError;
use crate::revenue::rules::{Months, margin_pct};
use crate::revenue::store;
use rusqlite::Connection;
use serde::Serialize;
use std::cmp::Ordering;
use utoipa::ToSchema;

/// One client's profitability over a range, paise.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Profitability {
    pub client_id: String,
    pub client_name: String,
    /// Issued invoices less credit notes, before GST.
    pub billed: i64,
    /// Payments received (GST included, TDS not).
    pub collected: i64,
    /// Cloud cost usage.
    pub cost: i64,
    /// billed less cost.
    pub margin: i64,
    /// margin over billed, percent to one decimal; none when nothing was billed.
    pub margin_pct: Option<f64>,
}

/// What the profitability may be sorted by; `-name` for descending.
pub const PROFIT_SORTS: &[&str] = &[
    "client_name",
    "billed",
    "collected",
    "cost",
    "margin",
    "margin_pct",
];

/// Every client of `book` billed, paid or costing something over `months` (whose name holds
/// `q`, ignoring case, when given), in `sort` order (default: the largest margin first), with
/// their totals.
pub fn profitability(
    conn: &Connection,
    months: Months,
    book: Option<&str>,
    q: Option<&str>,
    sort: Option<&str>,
) -> Result<(Vec<Profitability>, Profitability), AppError> {
    let by = profit_order(sort)?;
    let q = q.map(|q| q.trim().to_lowercase()).filter(|q| !q.is_empty());
    let mut rows: Vec<Profitability> = store::client_figures(conn, months, book)?
        .into_iter()
        .filter(|f| {
            q.as_ref()
                .is_none_or(|q| f.client_name.to_lowercase().contains(q))
        })
        .map(|f| {
            let margin = f.billed - f.cost;
            Profitability {
                margin,
                margin_pct: margin_pct(margin, f.billed),
                client_id: f.client_id,
                client_name: f.client_name,
                billed: f.billed,
                collected: f.collected,
                cost: f.cost,
            }
        })
        .collect();
    rows.sort_by(|a, b| by(a, b).then_with(|| a.client_id.cmp(&b.client_id)));
    let (billed, collected, cost) = rows.iter().fold((0, 0, 0), |(b, c, k), r| {
        (b + r.billed, c + r.collected, k + r.cost)
    });
    let totals = Profitability {
        client_id: String::new(),
        client_name: "TOTAL".into(),
        billed,
        collected,
        cost,
        margin: billed - cost,
        margin_pct: margin_pct(billed - cost, billed),
    };
    Ok((rows, totals))
}

type Order = Box<dyn Fn(&Profitability, &Profitability) -> Ordering>;

fn profit_order(sort: Option<&str>) -> Result<Order, AppError> {
    let sort = sort.map(str::trim).filter(|s| !s.is_empty()).unwrap_or("-margin");
    let (name, descending) = match sort.strip_prefix('-') {
        Some(name) => (name, true),
        None => (sort, false),
    };
    let by: fn(&Profitability, &Profitability) -> Ordering = match name {
        "client_name" => |a, b| crate::plumbing::db::query::nocase_cmp(&a.client_name, &b.client_name),
        "billed" => |a, b| a.billed.cmp(&b.billed),
        "collected" => |a, b| a.collected.cmp(&b.collected),
        "cost" => |a, b| a.cost.cmp(&b.cost),
        "margin" => |a, b| a.margin.cmp(&b.margin),
        // None (nothing billed) below every percentage.
        "margin_pct" => |a, b| match (a.margin_pct, b.margin_pct) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (a, b) => a.is_some().cmp(&b.is_some()),
        },
        _ => {
            return Err(AppError::bad_request(
                "invalid_sort",
                format!(
                    "sort is one of {} (with - for descending).",
                    PROFIT_SORTS.join(", ")
                ),
            )
            .on_field("sort"));
        }
    };
    Ok(if descending {
        Box::new(move |a, b| by(b, a))
    } else {
        Box::new(by)
    })
}
