//! The module revenue: the taxable value billed per module and month over a range.

use crate::plumbing::error::AppError;
use crate::revenue::rules::Months;
use crate::revenue::store;
use rusqlite::Connection;
use serde::Serialize;
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
