//! Cloud cost usage (spec 2.10, 4.9, 6.3; decisions 5 "cloud costs"): what running a society's
//! cloud server cost in a month, one row per client and month, entered in the console or through
//! the API (`PUT /api/cloud-costs`) or pulled from the provider's monthly report (the route and
//! the monthly job, [`pull`]); listed, and ranked across clients over a range of months. The
//! client profitability report reads the same rows for its margin.
//!
//! - `rules`: months, amounts, the provider's reply, the ranking's range and order.
//! - `store`: the SQL. `pull`: the provider's report fetched and recorded. `routes`: handlers.
//!
//! Every operation here is one transaction; a refused request writes nothing. Each changed row
//! is audited (entity `cloud_cost`, the client's id, images of the month's row); a pull adds one
//! row of its own (`cloud_cost_pull`, the month). The provider's token is a write-only
//! credential, never in a payload or an audit row.

pub mod pull;
pub mod routes;
pub mod rules;
pub mod store;

use crate::auth::session::AuthUser;
use crate::clients::rules::{credential_value, readable_credential};
use crate::plumbing::clock::Month;
use crate::plumbing::db::audit::{Audit, audit, record};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Checks};
use crate::plumbing::http::csv;
use crate::plumbing::money;
use crate::revenue::rules::{Months, Start};
use rules::Ranked;
use rusqlite::Connection;
use rusqlite::types::Value as SqlValue;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;
use store::{CloudCostRow, CostFilter};
use utoipa::ToSchema;

pub const API_URL_KEY: &str = "cloud_costs.api_url";
pub const TOKEN_KEY: &str = "cloud_costs.token";

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

/// The provider's settings as the owner sees them (the token only as `hasToken`).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct ProviderSettings {
    /// The report's address: `GET {api_url}?month=YYYY-MM` (docs/api/cloud_costs.md).
    pub api_url: Option<String>,
    #[serde(rename = "hasToken")]
    pub has_token: bool,
}

fn setting_text(conn: &Connection, key: &str) -> Result<Option<String>, AppError> {
    let today = settings::office_today(conn)?;
    Ok(settings::get(conn, key, today)?
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|s| !s.trim().is_empty()))
}

fn stored_token(conn: &Connection) -> Result<Option<String>, AppError> {
    Ok(readable_credential(setting_text(conn, TOKEN_KEY)?).filter(|t| !t.is_empty()))
}

pub fn settings_view(conn: &Connection) -> Result<ProviderSettings, AppError> {
    Ok(ProviderSettings {
        api_url: setting_text(conn, API_URL_KEY)?,
        has_token: stored_token(conn)?.is_some(),
    })
}

/// Where and how the provider's report is asked for.
pub struct Provider {
    pub api_url: String,
    pub token: String,
}

/// The provider to pull from, or a 409 saying what is missing (as the SMS refresh does when no
/// gateway is set).
pub fn provider(conn: &Connection) -> Result<Provider, AppError> {
    let view = settings_view(conn)?;
    match (view.api_url, stored_token(conn)?) {
        (Some(api_url), Some(token)) => Ok(Provider { api_url, token }),
        (None, _) => Err(AppError::conflict(
            pull::NOT_CONFIGURED,
            "No cloud-cost provider is set: the owner enters its report address and token under Cloud costs → Provider. Nothing was written.",
        )),
        (Some(_), None) => Err(AppError::conflict(
            pull::NOT_CONFIGURED,
            "The cloud-cost provider has no token: the owner enters it under Cloud costs → Provider. Nothing was written.",
        )),
    }
}

/// Saves the report's address and the token (each when given; empty clears), audited without
/// the token. The caller has checked the address against request forgery.
pub fn save_settings_in(
    tx: &Connection,
    user: &AuthUser,
    api_url: Option<String>,
    token: Option<String>,
) -> Result<ProviderSettings, AppError> {
    let before = settings_view(tx)?;
    let today = settings::office_today(tx)?;
    if let Some(url) = &api_url {
        settings::set(tx, API_URL_KEY, &json!(url), today, Some(&user.id))?;
    }
    if let Some(token) = &token {
        let value = match credential_value("token", token.trim())? {
            SqlValue::Text(t) => Value::String(t),
            _ => Value::Null,
        };
        settings::set(tx, TOKEN_KEY, &value, today, Some(&user.id))?;
    }
    let after = settings_view(tx)?;
    record(
        tx,
        &user.id,
        "setting",
        "cloud_costs",
        "update",
        Some(&before),
        Some(&after),
    )?;
    Ok(after)
}

/// Records that `month` was pulled, with what came of it (the job reads it).
pub fn record_pull(
    tx: &Connection,
    user_id: Option<&str>,
    month: Month,
    outcome: &Value,
) -> Result<(), AppError> {
    audit(
        tx,
        Audit {
            entity: store::PULL_ENTITY,
            entity_id: Some(&month.to_string()),
            action: "pull",
            user_id,
            before: None,
            after: Some(outcome.clone()),
        },
    )
}
