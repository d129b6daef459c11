//! What the office billed and earned (spec 4.9, issue 20): the module revenue by month, each
//! client's profitability, and the office's months for the cockpit. Reads of the figures kept
//! by migrations/V17; the handlers, their CSV twins, the cockpit and the benchmark call these.

pub mod routes;
pub mod rules;
pub mod store;

use crate::plumbing::error::AppError;
use rules::{Months, margin_pct};
use rusqlite::Connection;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::HashMap;
use utoipa::ToSchema;

/// One module's row of the module revenue.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModuleRevenueRow {
    pub module_id: String,
    pub code: String,
    pub name: String,
    /// Paise before GST, one per month of the range, in order.
    pub months: Vec<i64>,
    pub total: i64,
}

/// The module revenue over a range.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModuleRevenue {
    pub from: String,
    pub to: String,
    /// YYYY-MM, in order: the columns of `rows[].months`.
    pub months: Vec<String>,
    /// Largest total first.
    pub rows: Vec<ModuleRevenueRow>,
    /// Per month over every module.
    pub totals: Vec<i64>,
    pub total: i64,
}

/// The taxable value billed per module and month (invoice lines naming a module, credit notes'
/// lines subtracted), in `book`.
pub fn module_revenue(
    conn: &Connection,
    months: Months,
    book: Option<&str>,
) -> Result<ModuleRevenue, AppError> {
    let columns = months.list();
    let index: HashMap<&str, usize> = columns.iter().enumerate().map(|(i, m)| (m.as_str(), i)).collect();
    let mut rows: Vec<ModuleRevenueRow> = vec![];
    let mut at: HashMap<String, usize> = HashMap::new();
    for m in store::module_months(conn, months, book)? {
        let i = *at.entry(m.module_id.clone()).or_insert_with(|| {
            rows.push(ModuleRevenueRow {
                module_id: m.module_id.clone(),
                code: m.code.clone(),
                name: m.name.clone(),
                months: vec![0; columns.len()],
                total: 0,
            });
            rows.len() - 1
        });
        if let Some(&column) = index.get(m.month.as_str()) {
            rows[i].months[column] += m.taxable;
            rows[i].total += m.taxable;
        }
    }
    rows.retain(|r| r.months.iter().any(|v| *v != 0));
    rows.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.code.cmp(&b.code)));
    let mut totals = vec![0; columns.len()];
    for r in &rows {
        for (t, v) in totals.iter_mut().zip(&r.months) {
            *t += v;
        }
    }
    Ok(ModuleRevenue {
        from: months.from_text(),
        to: months.to_text(),
        total: totals.iter().sum(),
        months: columns,
        rows,
        totals,
    })
}

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
