//! The SQL of the revenue reports: ranges of the monthly figures kept by the triggers of
//! migrations/V17 (`client_month`, `module_month`) and of the cloud costs, never the documents
//! themselves.

use crate::book;
use crate::plumbing::error::AppError;
use crate::revenue::rules::Months;
use rusqlite::{Connection, Row, params};
use std::collections::HashMap;

/// A module's taxable value billed in one month.
pub struct ModuleMonth {
    pub module_id: String,
    pub code: String,
    pub name: String,
    pub month: String,
    pub taxable: i64,
}

/// The taxable value billed per module and month over `months`, in `book`.
pub fn module_months(
    conn: &Connection,
    months: Months,
    book: Option<&str>,
) -> Result<Vec<ModuleMonth>, AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT m.module_id, o.code, o.name, m.month, SUM(m.taxable)
           FROM module_month m JOIN module o ON o.id = m.module_id
          WHERE m.month BETWEEN ?1 AND ?2 AND {}
          GROUP BY m.module_id, m.month",
        book::client_is_in("m.client_id", "?3")
    ))?;
    let rows = stmt
        .query_map(params![months.from_text(), months.to_text(), book], |r| {
            Ok(ModuleMonth {
                module_id: r.get(0)?,
                code: r.get(1)?,
                name: r.get(2)?,
                month: r.get(3)?,
                taxable: r.get(4)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// One client's money over a range, paise.
pub struct ClientFigures {
    pub client_id: String,
    pub client_name: String,
    /// Before GST.
    pub billed: i64,
    pub collected: i64,
    pub cost: i64,
}

/// Every client of `book` that was billed, paid or cost something over `months`.
///
/// Summed per client from the financial years the range covers (`client_year`, migrations/V30)
/// and the months at its edges (`client_month`, `cloud_cost`), as `Months::by_year` splits it:
/// a year is 5,000 rows of the large office instead of 60,000 of each table.
pub fn client_figures(
    conn: &Connection,
    months: Months,
    book: Option<&str>,
) -> Result<Vec<ClientFigures>, AppError> {
    let pieces = months.by_year();
    // taxable, collected, cost.
    let mut sums: HashMap<String, [i64; 3]> = HashMap::new();
    let mut add = |client: &str, figures: [i64; 3], sign: i64| {
        let sum = match sums.get_mut(client) {
            Some(s) => s,
            None => sums.entry(client.to_string()).or_default(),
        };
        for (s, f) in sum.iter_mut().zip(figures) {
            *s += sign * f;
        }
    };
    let mut years =
        conn.prepare_cached("SELECT client_id, taxable, collected, cost FROM client_year WHERE fy = ?1")?;
    for fy in &pieces.years {
        let mut rows = years.query([fy.start])?;
        while let Some(r) = rows.next()? {
            add(text(r, 0)?, [r.get(1)?, r.get(2)?, r.get(3)?], 1);
        }
    }
    let mut billed = conn.prepare_cached(
        "SELECT client_id, taxable, collected FROM client_month WHERE month BETWEEN ?1 AND ?2",
    )?;
    let mut costs = conn.prepare_cached(
        "SELECT client_id, amount FROM cloud_cost INDEXED BY cloud_cost_month WHERE month BETWEEN ?1 AND ?2",
    )?;
    for (range, sign) in pieces.edges() {
        let mut rows = billed.query(params![range.from_text(), range.to_text()])?;
        while let Some(r) = rows.next()? {
            add(text(r, 0)?, [r.get(1)?, r.get(2)?, 0], sign);
        }
        let mut rows = costs.query(params![range.from_text(), range.to_text()])?;
        while let Some(r) = rows.next()? {
            add(text(r, 0)?, [0, 0, r.get(1)?], sign);
        }
    }
    let mut names = conn.prepare_cached(&format!(
        "SELECT c.id, c.name FROM client c INDEXED BY client_id_name WHERE {}",
        book::owner_is("c", "?1")
    ))?;
    let mut clients = names.query([book])?;
    let mut out = vec![];
    while let Some(r) = clients.next()? {
        let Some(&[billed, collected, cost]) = sums.get(text(r, 0)?) else {
            continue;
        };
        if billed != 0 || collected != 0 || cost != 0 {
            out.push(ClientFigures {
                client_id: r.get(0)?,
                client_name: r.get(1)?,
                billed,
                collected,
                cost,
            });
        }
    }
    Ok(out)
}

/// The office's money in one month, paise, GST included.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct OfficeMonth {
    pub billed: i64,
    pub collected: i64,
    /// Billed less what settled the invoices: how much more the office was owed at the end of
    /// the month than at its start.
    pub owed: i64,
}

/// The office's months over `months`, in order (a month with nothing is zeros): client_month
/// summed over the clients, as migrations/V29 keeps it (`office_month`).
pub fn office_months(conn: &Connection, months: Months) -> Result<Vec<(String, OfficeMonth)>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT month, billed, collected, owed FROM office_month WHERE month BETWEEN ?1 AND ?2",
    )?;
    let found: std::collections::HashMap<String, OfficeMonth> = stmt
        .query_map(params![months.from_text(), months.to_text()], |r| {
            Ok((
                r.get(0)?,
                OfficeMonth {
                    billed: r.get(1)?,
                    collected: r.get(2)?,
                    owed: r.get(3)?,
                },
            ))
        })?
        .collect::<Result<_, _>>()?;
    Ok(months
        .list()
        .into_iter()
        .map(|m| {
            let figures = found.get(&m).copied().unwrap_or_default();
            (m, figures)
        })
        .collect())
}

/// Billed less settled over every month after `month`: what the owed figure of today has
/// gained since the end of `month`.
pub fn owed_since(conn: &Connection, month: &str) -> Result<i64, AppError> {
    Ok(conn
        .prepare_cached("SELECT COALESCE(SUM(billed - settled), 0) FROM client_month WHERE month > ?1")?
        .query_row([month], |r| r.get(0))?)
}

/// What the office is owed now: every issued invoice's kept `outstanding` (migrations/V7).
pub fn outstanding_now(conn: &Connection) -> Result<i64, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT COALESCE(SUM(outstanding), 0) FROM document INDEXED BY document_receivable
              WHERE type = 'INVOICE' AND settled_on IS NULL AND status NOT IN ('draft', 'cancelled')",
        )?
        .query_row([], |r| r.get(0))?)
}

/// The text in column `i` of `row`, borrowed.
fn text<'r>(row: &'r Row, i: usize) -> rusqlite::Result<&'r str> {
    row.get_ref(i)?
        .as_str()
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e)))
}
