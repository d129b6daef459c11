//! The ranking: every client of the book with a cost over a range of months, costliest first,
//! a page of it or the whole as CSV.

use crate::cloud_costs::rules::{self, Ranked};
use crate::cloud_costs::store;
use crate::plumbing::clock::Month;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::plumbing::http::csv;
use crate::plumbing::money;
use crate::revenue::rules::{Months, Start};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// A client's cost over the ranking's range.
#[derive(Debug, Serialize, ToSchema)]
pub struct RankingRow {
    pub client_id: String,
    pub client_name: String,
    /// Paise over the range.
    pub total: i64,
    /// Months of the range with a cost.
    pub months: i64,
    /// total / months, half-up to the paisa.
    pub average: i64,
}

impl From<Ranked> for RankingRow {
    fn from(r: Ranked) -> Self {
        RankingRow {
            client_id: r.client_id,
            client_name: r.client_name,
            total: r.total,
            months: r.months,
            average: r.average,
        }
    }
}

/// The ranking: one page of its rows and the range read.
#[derive(Debug, Serialize, ToSchema)]
pub struct Ranking {
    /// The clients with a cost in the range, this page of them.
    #[serde(flatten)]
    pub page: Paginated<RankingRow>,
    /// The range read, YYYY-MM, both months included.
    pub from: String,
    pub to: String,
    /// Months in the range.
    pub range_months: i64,
    /// Every client's cost over the range, in paise.
    pub grand_total: i64,
}

/// Every client of the caller's book with a cost in `from..=to`, sorted (costliest first).
pub fn ranking_rows(
    conn: &Connection,
    book: Option<&str>,
    from: Month,
    to: Month,
    sort: Option<&str>,
) -> Result<Vec<Ranked>, AppError> {
    let mut rows = store::ranking(conn, from, to, book)?;
    rules::sort_ranking(&mut rows, sort)?;
    Ok(rows)
}

/// The ranking's range: the query's `from` and `to`, by default the 12 months up to this one.
fn ranking_range(conn: &Connection, from: Option<&str>, to: Option<&str>) -> Result<Months, AppError> {
    Months::asked(from, to, None, settings::office_today(conn)?, Start::Trailing(12))
}

/// One page of the ranking over the range of the query's `from` and `to`.
pub fn ranking(
    conn: &Connection,
    book: Option<&str>,
    from: Option<&str>,
    to: Option<&str>,
    page: &Page,
) -> Result<Ranking, AppError> {
    let Months { from, to } = ranking_range(conn, from, to)?;
    let rows = ranking_rows(conn, book, from, to, page.sort.as_deref())?;
    let grand_total = rows.iter().map(|r| r.total).sum();
    Ok(Ranking {
        page: page.slice(rows.into_iter().map(RankingRow::from).collect()),
        from: from.to_string(),
        to: to.to_string(),
        range_months: from.months_through(to),
        grand_total,
    })
}

/// The whole ranking as CSV (decisions 10: amounts in rupees with two decimals).
pub fn ranking_csv(
    conn: &Connection,
    book: Option<&str>,
    from: Option<&str>,
    to: Option<&str>,
    sort: Option<&str>,
) -> Result<String, AppError> {
    let Months { from, to } = ranking_range(conn, from, to)?;
    let rows = ranking_rows(conn, book, from, to, sort)?;
    let mut out = csv::line(&["Client", "From", "To", "Total", "Months", "Average per month"]);
    let (from, to) = (from.to_string(), to.to_string());
    for r in rows {
        out.push_str(&csv::line(&[
            &r.client_name,
            &from,
            &to,
            &money::decimal(r.total),
            &r.months.to_string(),
            &money::decimal(r.average),
        ]));
    }
    Ok(out)
}
