//! The SQL of the staged import: the batch, its rows with what the checks made of them, the
//! rows list, and the aggregates of the status.

use crate::imports::checks::Verdict;
use crate::imports::reading::{Column, RawRow};
use crate::imports::rules::Problem;
use crate::plumbing::clock;
use crate::plumbing::clock::Fy;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, like_contains};
use crate::plumbing::error::AppError;
use crate::projects::rules::Step;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The staged file: where it came from and what its commit did.
pub struct Batch {
    pub id: String,
    pub file_name: Option<String>,
    pub columns: Vec<Column>,
    pub staged_by: Option<String>,
    pub staged_at: String,
    pub committed_at: Option<String>,
    pub result: Option<serde_json::Value>,
    /// The old system's onboarding checklist, when the stage brought one.
    pub checklist: Option<Vec<Step>>,
}

pub fn batch(conn: &Connection) -> Result<Option<Batch>, AppError> {
    let row = conn
        .prepare_cached(
            "SELECT id, file_name, columns, staged_by, staged_at, committed_at, result, checklist FROM import_batch LIMIT 1",
        )?
        .query_row([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, Option<String>>(6)?,
                r.get::<_, Option<String>>(7)?,
            ))
        })
        .optional()?;
    row.map(
        |(id, file_name, columns, staged_by, staged_at, committed_at, result, checklist)| {
            Ok(Batch {
                id,
                file_name,
                columns: serde_json::from_str(&columns)?,
                staged_by,
                staged_at,
                committed_at,
                result: result.map(|r| serde_json::from_str(&r)).transpose()?,
                checklist: checklist.map(|c| serde_json::from_str(&c)).transpose()?,
            })
        },
    )
    .transpose()
}

/// Empties the staging tables.
pub fn clear(tx: &Connection) -> Result<(), AppError> {
    tx.execute_batch("DELETE FROM import_row; DELETE FROM import_batch;")?;
    Ok(())
}

/// Starts a new batch (the tables are empty).
pub fn insert_batch(
    tx: &Connection,
    file_name: Option<&str>,
    columns: &[Column],
    checklist: Option<&[Step]>,
    user_id: &str,
) -> Result<String, AppError> {
    Ok(crate::plumbing::db::query::insert_row(
        tx,
        "import_batch",
        vec![
            (
                "file_name",
                file_name.map_or(Value::Null, |f| Value::Text(f.into())),
            ),
            ("columns", Value::Text(serde_json::to_string(columns)?)),
            (
                "checklist",
                match checklist {
                    Some(steps) => Value::Text(serde_json::to_string(steps)?),
                    None => Value::Null,
                },
            ),
            ("staged_by", Value::Text(user_id.into())),
            ("staged_at", Value::Text(crate::plumbing::clock::now_timestamp())),
        ],
    )?)
}

fn problems_json(problems: &[Problem]) -> Result<Option<String>, AppError> {
    Ok(if problems.is_empty() {
        None
    } else {
        Some(serde_json::to_string(problems)?)
    })
}

/// Writes a staged row with its verdict.
pub fn insert_row(tx: &Connection, raw: &RawRow, v: &Verdict) -> Result<(), AppError> {
    tx.prepare_cached(
        "INSERT INTO import_row (row, name, gstin, district, sector, remote_access_id, os, phone, email, address,
             contact_name, contact_role, contact_phone, contact_email, invoice_no, invoice_date, invoice_total,
             invoice_balance, client_key, doc_date, fy, total, balance, problems, match_id, invoice_known)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
                 ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
    )?
    .execute(params![
        raw.row,
        raw.name,
        raw.gstin,
        raw.district,
        raw.sector,
        raw.remote_access_id,
        raw.os,
        raw.phone,
        raw.email,
        raw.address,
        raw.contact_name,
        raw.contact_role,
        raw.contact_phone,
        raw.contact_email,
        raw.invoice_no,
        raw.invoice_date,
        raw.invoice_total,
        raw.invoice_balance,
        v.client_key,
        v.doc_date.map(|d| d.to_string()),
        v.fy,
        v.total,
        v.balance,
        problems_json(&v.problems)?,
        v.match_id,
        v.invoice_known,
    ])?;
    Ok(())
}

/// A staged row as stored: its text, the owner's choices and the last verdict.
pub struct Stored {
    pub raw: RawRow,
    pub excluded: bool,
    pub action: String,
    pub verdict: Verdict,
}

/// The row number and the cells, in [`cells`]'s order, then the choices and the verdict.
const STORED: &str = "row, name, gstin, district, sector, remote_access_id, os, phone, email, address, \
    contact_name, contact_role, contact_phone, contact_email, invoice_no, invoice_date, invoice_total, invoice_balance, \
    excluded, action, client_key, doc_date, fy, total, balance, problems, match_id, invoice_known";
/// How many columns [`cells`] reads: what a query reads after them starts here.
const AFTER_CELLS: usize = 18;

fn stored(r: &Row<'_>) -> rusqlite::Result<Stored> {
    let at = |i: usize| AFTER_CELLS + i;
    let problems: Option<String> = r.get(at(7))?;
    Ok(Stored {
        raw: cells(r)?,
        excluded: r.get(at(0))?,
        action: r.get(at(1))?,
        verdict: Verdict {
            client_key: r.get(at(2))?,
            doc_date: r.get::<_, Option<String>>(at(3))?.and_then(|d| clock::date(&d)),
            fy: r.get(at(4))?,
            total: r.get(at(5))?,
            balance: r.get(at(6))?,
            problems: problems
                .and_then(|p| serde_json::from_str(&p).ok())
                .unwrap_or_default(),
            match_id: r.get(at(8))?,
            invoice_known: r.get(at(9))?,
        },
    })
}

/// Every staged row in file order.
pub fn rows(conn: &Connection) -> Result<Vec<Stored>, AppError> {
    Ok(conn
        .prepare_cached(&format!("SELECT {STORED} FROM import_row ORDER BY row"))?
        .query_map([], stored)?
        .collect::<Result<_, _>>()?)
}

/// One staged row.
pub fn row(conn: &Connection, row: i64) -> Result<Option<Stored>, AppError> {
    Ok(conn
        .prepare_cached(&format!("SELECT {STORED} FROM import_row WHERE row = ?1"))?
        .query_row([row], stored)
        .optional()?)
}

/// Replaces a row's text and the owner's choices.
pub fn set_row(tx: &Connection, s: &Stored) -> Result<(), AppError> {
    let r = &s.raw;
    tx.prepare_cached(
        "UPDATE import_row SET name = ?2, gstin = ?3, district = ?4, sector = ?5, remote_access_id = ?6, os = ?7,
             phone = ?8, email = ?9, address = ?10, contact_name = ?11, contact_role = ?12, contact_phone = ?13,
             contact_email = ?14, invoice_no = ?15, invoice_date = ?16, invoice_total = ?17, invoice_balance = ?18,
             excluded = ?19, action = ?20
         WHERE row = ?1",
    )?
    .execute(params![
        r.row,
        r.name,
        r.gstin,
        r.district,
        r.sector,
        r.remote_access_id,
        r.os,
        r.phone,
        r.email,
        r.address,
        r.contact_name,
        r.contact_role,
        r.contact_phone,
        r.contact_email,
        r.invoice_no,
        r.invoice_date,
        r.invoice_total,
        r.invoice_balance,
        s.excluded,
        s.action
    ])?;
    Ok(())
}

/// Sets the action (update or skip) of every row of the client `key`, or of every matched row.
pub fn set_action(tx: &Connection, key: Option<&str>, action: &str) -> Result<usize, AppError> {
    Ok(tx
        .prepare_cached(
            "UPDATE import_row SET action = ?2 WHERE match_id IS NOT NULL AND (?1 IS NULL OR client_key = ?1)",
        )?
        .execute(params![key, action])?)
}

/// Writes a row's new verdict.
pub fn set_verdict(tx: &Connection, row: i64, v: &Verdict) -> Result<(), AppError> {
    tx.prepare_cached(
        "UPDATE import_row SET client_key = ?2, doc_date = ?3, fy = ?4, total = ?5, balance = ?6, problems = ?7,
             match_id = ?8, invoice_known = ?9 WHERE row = ?1",
    )?
    .execute(params![
        row,
        v.client_key,
        v.doc_date.map(|d| d.to_string()),
        v.fy,
        v.total,
        v.balance,
        problems_json(&v.problems)?,
        v.match_id,
        v.invoice_known
    ])?;
    Ok(())
}

/// A staged row as the API shows it: its cells as the file gives them (or as corrected), and
/// what the checks made of it.
#[derive(Debug, Serialize, ToSchema)]
pub struct StagedRow {
    #[serde(flatten)]
    pub cells: RawRow,
    /// What stops the row from being committed (empty: nothing).
    pub problems: Vec<Problem>,
    /// The registry's client it already is, when it is one.
    pub match_client_id: Option<String>,
    pub match_client_name: Option<String>,
    /// create, update, skip (a client already in the registry left as it is) or exclude.
    pub action: String,
    /// 1 when the owner left the row out.
    pub excluded: i64,
    /// 1 when its invoice is already this client's legacy invoice (left as it is).
    pub invoice_known: i64,
}

/// The row number and the cells, read from the columns at 0 to 17.
fn cells(r: &Row<'_>) -> rusqlite::Result<RawRow> {
    Ok(RawRow {
        row: r.get(0)?,
        name: r.get(1)?,
        gstin: r.get(2)?,
        district: r.get(3)?,
        sector: r.get(4)?,
        remote_access_id: r.get(5)?,
        os: r.get(6)?,
        phone: r.get(7)?,
        email: r.get(8)?,
        address: r.get(9)?,
        contact_name: r.get(10)?,
        contact_role: r.get(11)?,
        contact_phone: r.get(12)?,
        contact_email: r.get(13)?,
        invoice_no: r.get(14)?,
        invoice_date: r.get(15)?,
        invoice_total: r.get(16)?,
        invoice_balance: r.get(17)?,
    })
}

fn staged_row(r: &Row<'_>) -> rusqlite::Result<StagedRow> {
    let at = |i: usize| AFTER_CELLS + i;
    let problems: Option<String> = r.get(at(0))?;
    let excluded: i64 = r.get(at(4))?;
    let match_id: Option<String> = r.get(at(1))?;
    let action: String = r.get(at(3))?;
    Ok(StagedRow {
        cells: cells(r)?,
        problems: problems
            .and_then(|p| serde_json::from_str(&p).ok())
            .unwrap_or_default(),
        action: if excluded == 1 {
            "exclude".into()
        } else if match_id.is_none() {
            "create".into()
        } else {
            action
        },
        match_client_id: match_id,
        match_client_name: r.get(at(2))?,
        excluded,
        invoice_known: r.get(at(5))?,
    })
}

const ROW_COLUMNS: &str = "r.row, r.name, r.gstin, r.district, r.sector, r.remote_access_id, r.os, r.phone, r.email, \
    r.address, r.contact_name, r.contact_role, r.contact_phone, r.contact_email, r.invoice_no, r.invoice_date, \
    r.invoice_total, r.invoice_balance, r.problems, r.match_id, c.name, r.action, r.excluded, r.invoice_known";
const ROW_FROM: &str = "import_row r LEFT JOIN client c ON c.id = r.match_id";

/// Which staged rows a list shows.
pub const ROW_FILTERS: &[&str] = &[
    "all", "problems", "create", "update", "skip", "excluded", "invoices",
];

const ROW_SORTS: &[(&str, &str)] = &[("row", "r.row"), ("name", "r.name COLLATE NOCASE")];

/// The staged rows in file order: all, those with problems, those creating, updating or
/// skipping a client, the excluded, or those with an invoice; `q` matches the name or invoice number.
pub fn list(filter: &str, q: Option<&str>) -> Listing<StagedRow> {
    let mut f = Filter::default();
    match filter {
        "problems" => f.and("r.problems IS NOT NULL AND r.excluded = 0", []),
        "create" => f.and("r.match_id IS NULL AND r.excluded = 0", []),
        "update" => f.and(
            "r.match_id IS NOT NULL AND r.action = 'update' AND r.excluded = 0",
            [],
        ),
        "skip" => f.and(
            "r.match_id IS NOT NULL AND r.action = 'skip' AND r.excluded = 0",
            [],
        ),
        "excluded" => f.and("r.excluded = 1", []),
        "invoices" => f.and("r.invoice_no <> '' AND r.excluded = 0", []),
        _ => &mut f,
    };
    if let Some(q) = q.map(str::trim).filter(|q| !q.is_empty()) {
        let pattern = like_contains(q);
        f.and(
            "r.name LIKE ? ESCAPE '\\' OR r.invoice_no LIKE ? ESCAPE '\\'",
            [pattern.clone(), pattern],
        );
    }
    let query = ListQuery {
        columns: ROW_COLUMNS.into(),
        from: ROW_FROM,
        order_by: "r.row",
        id_column: "r.row",
        sorts: ROW_SORTS,
    };
    Listing::new(query, f, staged_row)
}

/// One staged row as the API shows it.
pub fn one(conn: &Connection, row: i64) -> Result<Option<StagedRow>, AppError> {
    Ok(conn
        .prepare_cached(&format!("SELECT {ROW_COLUMNS} FROM {ROW_FROM} WHERE r.row = ?1"))?
        .query_row([row], staged_row)
        .optional()?)
}

/// The first `n` rows with problems, in file order.
pub fn problem_rows(conn: &Connection, n: usize) -> Result<Vec<StagedRow>, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {ROW_COLUMNS} FROM {ROW_FROM} WHERE r.problems IS NOT NULL AND r.excluded = 0 ORDER BY r.row LIMIT ?1"
        ))?
        .query_map([n as i64], staged_row)?
        .collect::<Result<_, _>>()?)
}

/// The invoice numbers the commit would record (rows not excluded, invoices not already
/// recorded), in file order.
pub fn numbers_to_record(conn: &Connection) -> Result<Vec<String>, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT invoice_no FROM import_row WHERE excluded = 0 AND invoice_no <> '' AND invoice_known = 0 ORDER BY row",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?)
}

/// The counts of the staged rows.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct Counts {
    /// Rows in the file (excluded ones too).
    pub staged: i64,
    pub excluded: i64,
    /// Clients the commit would add.
    pub to_create: i64,
    /// Clients already in the registry that the commit would update, and those it leaves alone.
    pub to_update: i64,
    pub to_skip: i64,
    /// Legacy invoices the commit would record (those already recorded are `invoices_known`).
    pub invoices: i64,
    pub invoices_known: i64,
    /// Rows with at least one problem.
    pub problems: i64,
}

pub fn counts(conn: &Connection) -> Result<Counts, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(*), COALESCE(SUM(excluded), 0),
                    COUNT(DISTINCT CASE WHEN excluded = 0 AND match_id IS NULL AND client_key <> '' THEN client_key END),
                    COUNT(DISTINCT CASE WHEN excluded = 0 AND action = 'update' THEN match_id END),
                    COUNT(DISTINCT CASE WHEN excluded = 0 AND action = 'skip' THEN match_id END),
                    COALESCE(SUM(excluded = 0 AND invoice_no <> '' AND invoice_known = 0), 0),
                    COALESCE(SUM(excluded = 0 AND invoice_known = 1), 0),
                    COALESCE(SUM(excluded = 0 AND problems IS NOT NULL), 0)
               FROM import_row",
        )?
        .query_row([], |r| {
            Ok(Counts {
                staged: r.get(0)?,
                excluded: r.get(1)?,
                to_create: r.get(2)?,
                to_update: r.get(3)?,
                to_skip: r.get(4)?,
                invoices: r.get(5)?,
                invoices_known: r.get(6)?,
                problems: r.get(7)?,
            })
        })?)
}

/// Rows with each kind of problem.
pub fn problems_by_kind(conn: &Connection) -> Result<BTreeMap<String, i64>, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT p.value ->> 'kind', COUNT(DISTINCT r.row) FROM import_row r, json_each(r.problems) p
              WHERE r.problems IS NOT NULL AND r.excluded = 0 GROUP BY 1",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?)
}

/// The invoice-value cross-check: the sum of the invoice totals, and per financial year their
/// count and sum.
#[derive(Debug, Default, PartialEq, Serialize, ToSchema)]
pub struct Verification {
    /// Paise.
    pub invoice_total: i64,
    /// Invoices per financial year ("24-25").
    pub invoices_by_fy: BTreeMap<String, i64>,
    /// Paise per financial year.
    pub totals_by_fy: BTreeMap<String, i64>,
}

fn verification(conn: &Connection, sql: &str) -> Result<Verification, AppError> {
    let mut v = Verification::default();
    let mut statement = conn.prepare_cached(sql)?;
    let mut rows = statement.query([])?;
    while let Some(r) = rows.next()? {
        let (date, total): (String, i64) = (r.get(0)?, r.get(1)?);
        let Some(date) = clock::date(&date) else {
            continue;
        };
        let fy = Fy::of(date).short();
        v.invoice_total += total;
        *v.invoices_by_fy.entry(fy.clone()).or_default() += 1;
        *v.totals_by_fy.entry(fy).or_default() += total;
    }
    Ok(v)
}

/// The cross-check of the staged invoices (every readable one not excluded).
pub fn staged_verification(conn: &Connection) -> Result<Verification, AppError> {
    verification(
        conn,
        "SELECT doc_date, total FROM import_row
          WHERE excluded = 0 AND invoice_no <> '' AND doc_date IS NOT NULL AND total IS NOT NULL",
    )
}

/// The same cross-check read back from the legacy invoices the registry holds under the staged
/// numbers (their own dates and totals).
pub fn committed_verification(conn: &Connection) -> Result<Verification, AppError> {
    verification(
        conn,
        "SELECT d.doc_date, d.total FROM import_row r
           JOIN document d ON d.doc_no = r.invoice_no AND d.source = 'legacy'
          WHERE r.excluded = 0 AND r.invoice_no <> ''",
    )
}

/// Records what the commit did.
pub fn set_committed(
    tx: &Connection,
    id: &str,
    user_id: &str,
    result: &serde_json::Value,
) -> Result<(), AppError> {
    tx.prepare_cached(
        "UPDATE import_batch SET committed_at = ?2, committed_by = ?3, result = ?4, updated_at = ?2 WHERE id = ?1",
    )?
    .execute(params![
        id,
        crate::plumbing::clock::now_timestamp(),
        user_id,
        result.to_string()
    ])?;
    Ok(())
}
