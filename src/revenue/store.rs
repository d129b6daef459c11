//! The SQL of the revenue reports: ranges of the monthly figures kept by the triggers of
//! migrations/V17 (`client_month`, `module_month`) and of the cloud costs, never the documents
//! themselves.

use crate::book;
use crate::plumbing::error::AppError;
use crate::revenue::rules::Months;
use rusqlite::{Connection, params};

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
pub fn client_figures(
    conn: &Connection,
    months: Months,
    book: Option<&str>,
) -> Result<Vec<ClientFigures>, AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT c.id, c.name, COALESCE(m.taxable, 0), COALESCE(m.collected, 0), COALESCE(k.cost, 0)
           FROM client c
           LEFT JOIN (SELECT client_id, SUM(taxable) AS taxable, SUM(collected) AS collected FROM client_month
                       WHERE month BETWEEN ?1 AND ?2 GROUP BY client_id) m ON m.client_id = c.id
           LEFT JOIN (SELECT client_id, SUM(amount) AS cost FROM cloud_cost
                       WHERE month BETWEEN ?1 AND ?2 GROUP BY client_id) k ON k.client_id = c.id
          WHERE (m.taxable <> 0 OR m.collected <> 0 OR k.cost <> 0) AND {}",
        book::owner_is("c", "?3")
    ))?;
    let rows = stmt
        .query_map(params![months.from_text(), months.to_text(), book], |r| {
            Ok(ClientFigures {
                client_id: r.get(0)?,
                client_name: r.get(1)?,
                billed: r.get(2)?,
                collected: r.get(3)?,
                cost: r.get(4)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
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
