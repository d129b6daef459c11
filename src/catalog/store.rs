//! The SQL of the catalog.

use crate::catalog::rules::{Band, FieldDef, PriceRow};
use crate::plumbing::db::query::{
    Changes, Filter, ListQuery, Listing, insert_row, like_contains, update_columns,
};
use crate::plumbing::error::{AppError, OnConstraint};
use chrono::NaiveDate;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Module {
    pub id: String,
    pub code: String,
    pub name: String,
    pub kind: Option<String>,
    pub sac: Option<String>,
    /// Percent.
    pub gst_rate: i64,
    pub renewal_months: Option<i64>,
    pub quote_content: Option<String>,
    /// Named quantities, e.g. `[{ "name": "10k SMS", "qty": 10000 }]`.
    #[schema(value_type = Vec<Object>)]
    pub packs: serde_json::Value,
    pub field_spec: Vec<FieldDef>,
    pub active: i64,
    /// The price-book price in force today (paise), if any.
    pub price_today: Option<i64>,
    pub created_at: String,
    pub updated_at: String,
}

/// The module columns with the price in force on `today`. The date is formatted by chrono, never
/// taken from input, so it is safe as a literal (and keeps the list's placeholders simple).
fn columns(today: NaiveDate) -> String {
    format!(
        "m.id, m.code, m.name, m.kind, m.sac, m.gst_rate, m.renewal_months, m.quote_content, m.packs, m.field_spec, m.active, \
         (SELECT p.price FROM module_price p WHERE p.module_id = m.id AND p.effective_from <= '{today}' \
          ORDER BY p.effective_from DESC, p.id DESC LIMIT 1), m.created_at, m.updated_at"
    )
}

fn module(r: &Row<'_>) -> rusqlite::Result<Module> {
    let json = |i: usize| -> rusqlite::Result<serde_json::Value> {
        let text: String = r.get(i)?;
        Ok(serde_json::from_str(&text).unwrap_or(serde_json::Value::Null))
    };
    Ok(Module {
        id: r.get(0)?,
        code: r.get(1)?,
        name: r.get(2)?,
        kind: r.get(3)?,
        sac: r.get(4)?,
        gst_rate: r.get(5)?,
        renewal_months: r.get(6)?,
        quote_content: r.get(7)?,
        packs: json(8)?,
        field_spec: serde_json::from_value(json(9)?).unwrap_or_default(),
        active: r.get(10)?,
        price_today: r.get(11)?,
        created_at: r.get(12)?,
        updated_at: r.get(13)?,
    })
}

pub fn get(conn: &Connection, id: &str, today: NaiveDate) -> Result<Option<Module>, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {} FROM module m WHERE m.id = ?1",
            columns(today)
        ))?
        .query_row([id], module)
        .optional()?)
}

/// What the catalog may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("code", "m.code"),
    ("name", "m.name COLLATE NOCASE"),
    ("kind", "m.kind"),
    ("gst_rate", "m.gst_rate"),
    ("renewal_months", "m.renewal_months"),
    ("active", "m.active"),
];

/// The catalog by name, with each module's price on `today`: a page, or every row for the CSV twin.
pub fn list(q: Option<String>, active: Option<i64>, today: NaiveDate) -> Listing<Module> {
    let mut f = Filter::default();
    if let Some(q) = q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        let p = like_contains(q);
        f.and(
            "m.code LIKE ? ESCAPE '\\' OR m.name LIKE ? ESCAPE '\\'",
            [p.clone(), p],
        );
    }
    f.eq("m.active", active);
    let query = ListQuery {
        columns: columns(today).into(),
        from: "module m",
        order_by: "m.name COLLATE NOCASE, m.id",
        id_column: "m.id",
        sorts: SORTS,
    };
    Listing::new(query, f, module)
}

pub fn insert(tx: &Connection, fields: Changes) -> Result<String, AppError> {
    insert_row(tx, "module", fields).on_unique("code", "Another module has this code.")
}

pub fn update(tx: &Connection, id: &str, fields: Changes) -> Result<(), AppError> {
    update_columns(tx, "module", id, fields).on_unique("code", "Another module has this code.")?;
    Ok(())
}

/// The price book of a module, newest first.
pub fn prices(conn: &Connection, module_id: &str) -> Result<Vec<PriceRow>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, effective_from, price, created_at FROM module_price WHERE module_id = ?1 ORDER BY effective_from DESC, id DESC",
    )?;
    let rows = stmt
        .query_map([module_id], |r| {
            Ok(PriceRow {
                id: r.get(0)?,
                effective_from: r.get(1)?,
                price: r.get(2)?,
                created_at: r.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

pub fn add_price(
    tx: &Connection,
    module_id: &str,
    effective_from: NaiveDate,
    price: i64,
    by: &str,
) -> Result<String, AppError> {
    Ok(insert_row(
        tx,
        "module_price",
        vec![
            ("module_id", Value::Text(module_id.into())),
            ("effective_from", Value::Text(effective_from.to_string())),
            ("price", Value::Integer(price)),
            ("created_by", Value::Text(by.into())),
        ],
    )?)
}

/// The rate card in force on `on`: its date and bands, lowest first.
pub fn card_on(
    conn: &Connection,
    module_id: &str,
    on: NaiveDate,
) -> Result<Option<(String, Vec<Band>)>, AppError> {
    let date: Option<String> = conn
        .prepare_cached(
            "SELECT MAX(effective_from) FROM usage_rate_band WHERE module_id = ?1 AND effective_from <= ?2",
        )?
        .query_row(params![module_id, on.to_string()], |r| r.get(0))
        .optional()?
        .flatten();
    let Some(date) = date else { return Ok(None) };
    let mut stmt = conn.prepare_cached(
        "SELECT min_qty, rate FROM usage_rate_band WHERE module_id = ?1 AND effective_from = ?2 ORDER BY min_qty",
    )?;
    let bands = stmt
        .query_map(params![module_id, date], |r| {
            Ok(Band {
                min_qty: r.get(0)?,
                rate: r.get(1)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some((date, bands)))
}

pub fn add_card(
    tx: &Connection,
    module_id: &str,
    effective_from: NaiveDate,
    bands: &[Band],
    by: &str,
) -> Result<(), AppError> {
    let exists: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM usage_rate_band WHERE module_id = ?1 AND effective_from = ?2)",
        params![module_id, effective_from.to_string()],
        |r| r.get(0),
    )?;
    if exists {
        return Err(AppError::conflict(
            "card_exists",
            "A rate card already starts on that date; choose another date for the new card.",
        )
        .on_field("effective_from"));
    }
    for band in bands {
        insert_row(
            tx,
            "usage_rate_band",
            vec![
                ("module_id", Value::Text(module_id.into())),
                ("effective_from", Value::Text(effective_from.to_string())),
                ("min_qty", Value::Integer(band.min_qty)),
                ("rate", Value::Integer(band.rate)),
                ("created_by", Value::Text(by.into())),
            ],
        )?;
    }
    Ok(())
}
