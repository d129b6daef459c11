//! The dated settings store: appending a value makes it the one in force from its date on.

use crate::clock;
use crate::db::ids::new_id;
use crate::error::AppError;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Value, json};

/// The spec's defaults, written on first boot (dated 2000-01-01 so they are in force for old documents).
pub fn defaults() -> Vec<(&'static str, Value)> {
    vec![
        ("billing.payment_terms_days", json!(15)),
        ("ticket.sla_days", json!(7)),
        ("project.stall_days", json!(30)),
        ("quote.followup.policy", json!("manual")),
        (
            "ticket.types",
            json!([
                "service",
                "installation",
                "training",
                "bug",
                "data correction",
                "renewal"
            ]),
        ),
        ("company.utc_offset", json!("+05:30")),
        ("share.default_expiry_days", json!(30)),
    ]
}

const SEED_DATE: &str = "2000-01-01";

/// The value of `key` in force on `on`, if any was ever set.
pub fn get(conn: &Connection, key: &str, on: NaiveDate) -> Result<Option<Value>, AppError> {
    let text: Option<String> = conn
        .query_row(
            "SELECT value FROM setting WHERE key = ?1 AND effective_from <= ?2
             ORDER BY effective_from DESC, id DESC LIMIT 1",
            params![key, on.to_string()],
            |r| r.get(0),
        )
        .optional()?;
    Ok(text.map(|t| serde_json::from_str(&t)).transpose()?)
}

/// Appends `value` for `key`, in force from `effective_from`.
pub fn set(
    conn: &Connection,
    key: &str,
    value: &Value,
    effective_from: NaiveDate,
    set_by: Option<&str>,
) -> Result<(), AppError> {
    conn.execute(
        "INSERT INTO setting (id, key, value, effective_from, set_by, set_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![new_id(), key, value.to_string(), effective_from.to_string(), set_by, clock::now_timestamp()],
    )?;
    Ok(())
}

/// Writes each default whose key has never been set.
pub fn seed_defaults(conn: &Connection) -> Result<(), AppError> {
    let seed_date = NaiveDate::parse_from_str(SEED_DATE, "%Y-%m-%d").expect("valid seed date");
    for (key, value) in defaults() {
        let exists: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM setting WHERE key = ?1)",
            [key],
            |r| r.get(0),
        )?;
        if !exists {
            set(conn, key, &value, seed_date, None)?;
        }
    }
    Ok(())
}

/// The office's offset from UTC (`company.utc_offset`, default +05:30).
pub fn office_offset(conn: &Connection) -> Result<chrono::FixedOffset, AppError> {
    let today = clock::now().date_naive();
    let text = get(conn, "company.utc_offset", today)?;
    let parsed = text
        .as_ref()
        .and_then(Value::as_str)
        .and_then(clock::parse_offset);
    Ok(parsed.unwrap_or_else(|| clock::parse_offset("+05:30").expect("valid default offset")))
}

/// Today's date at the office: the "today" of business rules (prices, due dates, aging).
pub fn office_today(conn: &Connection) -> Result<NaiveDate, AppError> {
    Ok(clock::office_today(office_offset(conn)?))
}
