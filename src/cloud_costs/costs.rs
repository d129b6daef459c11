//! The month's cost rows: one page of the list, and a write (`PUT /api/cloud-costs`) whose rows are
//! each checked, then upserted as `manual` and audited, in one transaction.

use crate::auth::session::AuthUser;
use crate::cloud_costs::rules;
use crate::cloud_costs::store::{self, CloudCostRow, CostFilter};
use crate::plumbing::clock::Month;
use crate::plumbing::db::audit::record;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Checks};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;
use utoipa::ToSchema;

/// The office's current month: the latest that can have a cost.
pub fn current_month(conn: &Connection) -> Result<Month, AppError> {
    Ok(Month::of(settings::office_today(conn)?))
}

/// One page of the list.
pub fn list(conn: &Connection, filter: CostFilter, page: &Page) -> Result<Paginated<CloudCostRow>, AppError> {
    store::list(filter).page(conn, page)
}

/// One row of a write, as sent: every value is checked by [`write_in`] so that each wrong one
/// is named with its row.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CostRowInput {
    /// A client in the caller's book.
    #[schema(value_type = String)]
    pub client_id: Option<Value>,
    /// YYYY-MM, not after the office's current month.
    #[schema(value_type = String, example = "2026-10")]
    pub month: Option<Value>,
    /// Paise before GST, a whole number from 0 to 1,000,000,000 (₹1 crore).
    #[schema(value_type = i64, example = 250000)]
    pub amount: Option<Value>,
}

/// `PUT /api/cloud-costs`: rows to upsert, one per client and month, at most 1,000.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CostsInput {
    pub rows: Option<Vec<CostRowInput>>,
}

/// What a write did.
#[derive(Debug, Serialize, ToSchema)]
pub struct CostsWritten {
    /// Rows created or changed.
    pub written: usize,
    /// Rows that already held that amount (left as they were).
    pub unchanged: usize,
    /// Every row of the body as it is stored now, in the body's order.
    pub rows: Vec<CloudCostRow>,
}

/// A checked row of a write.
struct Checked {
    client_id: String,
    month: Month,
    amount: i64,
}

/// Checks row `i` of a write, each wrong field kept in `checks` as `rows[i].field`; the row when
/// every field is right. A client outside `book` reads as one that does not exist.
fn check_row(
    tx: &Connection,
    i: usize,
    row: &CostRowInput,
    current: Month,
    book: Option<&str>,
    checks: &mut Checks,
) -> Result<Option<Checked>, AppError> {
    let field = |name: &str| format!("rows[{i}].{name}");
    let required = |name: &str, what: &str| AppError::invalid(&field(name), "required", what.to_string());
    let client_id = match &row.client_id {
        None | Some(Value::Null) => {
            checks.fail(required("client_id", "Choose the client."));
            None
        }
        Some(Value::String(id)) if id.trim().is_empty() => {
            checks.fail(required("client_id", "Choose the client."));
            None
        }
        Some(Value::String(id)) if store::client_in_book(tx, id.trim(), book)? => Some(id.trim().to_string()),
        Some(Value::String(_)) => {
            checks.fail(AppError::invalid(
                &field("client_id"),
                "unknown_client",
                "No such client.",
            ));
            None
        }
        Some(_) => {
            checks.fail(AppError::invalid(
                &field("client_id"),
                "invalid_value",
                "The client is named by its id, as text.",
            ));
            None
        }
    };
    let month = match &row.month {
        None | Some(Value::Null) => {
            checks.fail(required("month", "Give the month, YYYY-MM."));
            None
        }
        Some(Value::String(text)) => checks.check(rules::month_in(&field("month"), text, current)),
        Some(_) => {
            checks.fail(AppError::invalid(
                &field("month"),
                "invalid_month",
                "Write the month as text, YYYY-MM.",
            ));
            None
        }
    };
    let amount = match &row.amount {
        None | Some(Value::Null) => {
            checks.fail(required("amount", "Give the amount in paise."));
            None
        }
        Some(value) => checks.check(rules::amount_in(&field("amount"), value)),
    };
    Ok(match (client_id, month, amount) {
        (Some(client_id), Some(month), Some(amount)) => Some(Checked {
            client_id,
            month,
            amount,
        }),
        _ => None,
    })
}

/// Checks every row of `input` (naming each wrong field as `rows[i].field`), then upserts them
/// as `manual`, each change audited. A staff user's client outside their book reads as unknown.
pub fn write_in(tx: &Connection, user: &AuthUser, input: CostsInput) -> Result<CostsWritten, AppError> {
    let rows = input.rows.unwrap_or_default();
    if rows.is_empty() {
        return Err(AppError::invalid(
            "rows",
            "required",
            "Give at least one row: { client_id, month, amount }.",
        ));
    }
    if rows.len() > rules::MAX_ROWS {
        return Err(AppError::invalid(
            "rows",
            "too_many_rows",
            format!(
                "{} rows: one request writes at most {}; send the rest in another.",
                rows.len(),
                rules::MAX_ROWS
            ),
        ));
    }
    let current = current_month(tx)?;
    let book = user.book();
    let mut checks = Checks::default();
    let mut checked = Vec::with_capacity(rows.len());
    let mut first_of: HashMap<(String, Month), usize> = HashMap::new();
    for (i, row) in rows.iter().enumerate() {
        let Some(row) = check_row(tx, i, row, current, book.as_deref(), &mut checks)? else {
            continue;
        };
        match first_of.get(&(row.client_id.clone(), row.month)) {
            Some(first) => checks.fail(AppError::invalid(
                &format!("rows[{i}].month"),
                "duplicate_row",
                format!(
                    "Row {first} already sets this client's {}: one row per client and month.",
                    row.month
                ),
            )),
            None => {
                first_of.insert((row.client_id.clone(), row.month), i);
                checked.push(row);
            }
        }
    }
    checks.done()?;
    let (mut written, mut unchanged) = (0, 0);
    let mut answer = Vec::with_capacity(checked.len());
    for row in &checked {
        let before = store::stored(tx, &row.client_id, row.month)?;
        if before.as_ref().is_some_and(|(amount, _)| *amount == row.amount) {
            unchanged += 1;
        } else {
            store::upsert(
                tx,
                &row.client_id,
                row.month,
                row.amount,
                store::MANUAL,
                Some(&user.id),
            )?;
            let image = |amount: i64, source: &str| json!({ "client_id": row.client_id, "month": row.month.to_string(), "amount": amount, "source": source });
            record(
                tx,
                &user.id,
                "cloud_cost",
                &row.client_id,
                if before.is_some() { "update" } else { "create" },
                before.map(|(amount, source)| image(amount, &source)).as_ref(),
                Some(&image(row.amount, store::MANUAL)),
            )?;
            written += 1;
        }
        answer.push(
            store::get(tx, &row.client_id, row.month)?
                .ok_or_else(|| AppError::internal("a cloud cost row just written is gone"))?,
        );
    }
    Ok(CostsWritten {
        written,
        unchanged,
        rows: answer,
    })
}
