//! The SQL of recurring plans: the list, one plan, the writes, and what the generation reads
//! (the plans due on a day).

use crate::documents::pricing::LineInput;
use crate::plumbing::clock;
use crate::plumbing::db::query::{
    Changes, Filter, ListQuery, Listing, insert_row, like_contains, update_columns,
};
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::types::{Type, Value};
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

/// A recurring billing plan as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Plan {
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    /// The invoice lines, as `POST /api/documents` takes them.
    pub lines: Vec<LineInput>,
    /// monthly, quarterly or yearly.
    pub interval: String,
    /// The next day an invoice is due (YYYY-MM-DD).
    pub next_run: String,
    #[serde(with = "crate::plumbing::flag")]
    #[schema(value_type = u8)]
    pub active: bool,
    /// Why the last generation failed; set while the plan is parked (it waits for a retry).
    pub parked_reason: Option<String>,
    pub parked_at: Option<String>,
    /// The invoice the last generation issued, and its number.
    pub last_invoice_id: Option<String>,
    #[serde(rename = "last_docNo")]
    pub last_doc_no: Option<String>,
    pub created_by: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// The day of the month it runs on (migrations/V12).
    #[serde(skip)]
    pub run_day: Option<u32>,
}

const COLUMNS: &str = "p.id, p.client_id, c.name, p.lines, p.interval, p.next_run, p.active, p.parked_reason, \
    p.parked_at, p.last_invoice_id, d.doc_no, p.created_by, p.created_at, p.updated_at, p.run_day";
const FROM: &str = "recurring_plan p JOIN client c ON c.id = p.client_id \
    LEFT JOIN document d ON d.id = p.last_invoice_id";

fn plan(r: &Row<'_>) -> rusqlite::Result<Plan> {
    let lines: String = r.get(3)?;
    let lines = serde_json::from_str(&lines)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(3, Type::Text, Box::new(e)))?;
    Ok(Plan {
        id: r.get(0)?,
        client_id: r.get(1)?,
        client_name: r.get(2)?,
        lines,
        interval: r.get(4)?,
        next_run: r.get(5)?,
        active: r.get(6)?,
        parked_reason: r.get(7)?,
        parked_at: r.get(8)?,
        last_invoice_id: r.get(9)?,
        last_doc_no: r.get(10)?,
        created_by: r.get(11)?,
        created_at: r.get(12)?,
        updated_at: r.get(13)?,
        run_day: r.get(14)?,
    })
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<Plan>, AppError> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM {FROM} WHERE p.id = ?1"))?
        .query_row([id], plan)
        .optional()?)
}

/// Filters of the plan list.
#[derive(Default)]
pub struct PlanFilter {
    pub client_id: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
    /// 1 active, 0 not.
    pub active: Option<i64>,
    /// true: parked only; false: not parked.
    pub parked: Option<bool>,
}

/// What the plan list may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("client_name", "c.name COLLATE NOCASE"),
    ("interval", "p.interval"),
    ("next_run", "p.next_run"),
    ("active", "p.active"),
    ("parked_at", "p.parked_at"),
    ("created_at", "p.created_at"),
];

/// The plan list, newest first: a page of it, or every row for the CSV twin.
pub fn list(filter: PlanFilter) -> Listing<Plan> {
    let mut f = Filter::default();
    f.eq("p.client_id", filter.client_id)
        .eq("p.active", filter.active);
    if let Some(q) = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        f.and("c.name LIKE ? ESCAPE '\\'", [like_contains(q)]);
    }
    if let Some(parked) = filter.parked {
        let clause = if parked {
            "p.parked_at IS NOT NULL"
        } else {
            "p.parked_at IS NULL"
        };
        f.and(clause, []);
    }
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: FROM,
        order_by: "p.id DESC",
        id_column: "p.id",
        sorts: SORTS,
    };
    Listing::new(query, f, plan)
}

/// Inserts a plan of checked `fields`; answers its id.
pub fn insert(tx: &Connection, fields: Changes) -> Result<String, AppError> {
    Ok(insert_row(tx, "recurring_plan", fields)?)
}

pub fn update(tx: &Connection, id: &str, changes: Changes) -> Result<(), AppError> {
    update_columns(tx, "recurring_plan", id, changes)?;
    Ok(())
}

/// Parks the plan with `reason` from now.
pub fn park(tx: &Connection, id: &str, reason: &str) -> Result<(), AppError> {
    update(
        tx,
        id,
        vec![
            ("parked_reason", Value::Text(reason.into())),
            ("parked_at", Value::Text(clock::now_timestamp())),
        ],
    )
}

/// Clears the park.
pub fn unpark(tx: &Connection, id: &str) -> Result<(), AppError> {
    update(
        tx,
        id,
        vec![("parked_reason", Value::Null), ("parked_at", Value::Null)],
    )
}

/// Records a run: the invoice it issued and the next run date.
pub fn record_run(tx: &Connection, id: &str, next_run: NaiveDate, invoice_id: &str) -> Result<(), AppError> {
    update(
        tx,
        id,
        vec![
            ("next_run", Value::Text(next_run.to_string())),
            ("last_invoice_id", Value::Text(invoice_id.into())),
        ],
    )
}

/// The plans due on `as_of` (active, not parked, next_run reached), the longest waiting first.
pub fn due(conn: &Connection, as_of: NaiveDate) -> Result<Vec<String>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM recurring_plan WHERE active = 1 AND parked_at IS NULL AND next_run <= ?1 ORDER BY next_run, id",
    )?;
    let ids = stmt
        .query_map([as_of.to_string()], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(ids)
}

/// How many active plans due on `as_of` wait parked for a retry.
pub fn parked_due(conn: &Connection, as_of: NaiveDate) -> Result<i64, AppError> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM recurring_plan WHERE active = 1 AND parked_at IS NOT NULL AND next_run <= ?1",
        params![as_of.to_string()],
        |r| r.get(0),
    )?)
}
