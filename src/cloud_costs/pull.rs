//! The pull of a month's costs from the provider (spec 4.9, 6.3; the wire format is ours,
//! docs/api/cloud_costs.md): `GET {api_url}?month=YYYY-MM` with `Authorization: Bearer <token>` through
//! `outbound` (the checked address, no redirect, the timeout, a size cap), answered
//! `{ "month", "rows": [ { "client_id", "amount" } ] }` in rupees. The rows of clients we know
//! are written in one transaction as `pull` (a row that already holds that amount is left as
//! it is), the others are skipped and named; a reply that is not the report is refused whole
//! and nothing is written. The route (`POST /api/cloud-costs/pull`) and the monthly job both
//! run [`run`].

use crate::cloud_costs::costs::current_month;
use crate::cloud_costs::provider::{Provider, provider};
use crate::cloud_costs::rules::{self, Reported};
use crate::cloud_costs::store;
use crate::plumbing::clock::Month;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::error::AppError;
use crate::plumbing::outbound::{self, CallError, Guard, Request};
use crate::state::AppState;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

pub use crate::cloud_costs::provider::NOT_CONFIGURED;

/// The largest report read: a row is about 60 bytes, so 2 MiB holds 30,000 clients.
const MAX_REPLY: u64 = 2 * 1024 * 1024;

/// What a pull came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct PullOutcome {
    /// The month pulled, YYYY-MM.
    pub month: String,
    /// Rows created or changed.
    pub written: usize,
    /// Rows that already held the reported amount.
    pub unchanged: usize,
    /// Client ids in the report that are not ours: not written.
    pub skipped: Vec<String>,
}

fn upstream(message: String) -> AppError {
    AppError::upstream("cloud_provider_failed", message)
}

/// Asks the provider for the report of `month`. No text of an error carries the token (it
/// travels in a header, and `outbound` never quotes the address).
pub fn fetch(guard: Guard, provider: &Provider, month: Month) -> Result<Vec<Reported>, AppError> {
    let url = rules::report_url(&provider.api_url, month);
    let request = Request::get(&url, MAX_REPLY)
        .header("Authorization", format!("Bearer {}", provider.token))
        .header("Accept", "application/json");
    let reply = outbound::call(guard, request).map_err(|e| match e {
        CallError::TooLarge(_) | CallError::Redirect(_) => upstream(format!(
            "The provider's answer is refused: {e}. Nothing was written."
        )),
        _ => upstream(format!("The provider did not answer: {e}. Nothing was written.")),
    })?;
    if reply.status != 200 {
        let why = match reply.status {
            401 | 403 => " (it refused the token)",
            404 => " (no report at that address)",
            _ => "",
        };
        return Err(upstream(format!(
            "The provider answered HTTP {}{why}. Nothing was written.",
            reply.status
        )));
    }
    rules::read_reply(&reply.body, month).map_err(|why| {
        AppError::upstream(
            "cloud_provider_bad_reply",
            format!("The provider's answer was not read: {why}. Nothing was written."),
        )
    })
}

/// Records the report of `month` as `user_id` (None: the monthly job) in the transaction `tx`:
/// each known client's row upserted as `pull` and audited when it changed, the unknown ones
/// skipped, and the pull itself recorded.
pub fn record_in(
    tx: &Connection,
    user_id: Option<&str>,
    month: Month,
    reported: &[Reported],
) -> Result<PullOutcome, AppError> {
    let ids: Vec<&str> = reported.iter().map(|r| r.client_id.as_str()).collect();
    let known = store::known_clients(tx, &ids)?;
    let mut outcome = PullOutcome {
        month: month.to_string(),
        written: 0,
        unchanged: 0,
        skipped: vec![],
    };
    for row in reported {
        if !known.contains(&row.client_id) {
            outcome.skipped.push(row.client_id.clone());
            continue;
        }
        let before = store::stored(tx, &row.client_id, month)?;
        if before.as_ref().is_some_and(|(amount, _)| *amount == row.amount) {
            outcome.unchanged += 1;
            continue;
        }
        store::upsert(tx, &row.client_id, month, row.amount, store::PULL, user_id)?;
        let image = |amount: i64, source: &str| json!({ "client_id": row.client_id, "month": outcome.month, "amount": amount, "source": source });
        let after = image(row.amount, store::PULL);
        let before = before.map(|(amount, source)| image(amount, &source));
        audit(
            tx,
            Audit {
                entity: "cloud_cost",
                entity_id: Some(&row.client_id),
                action: "pull",
                user_id,
                before,
                after: Some(after),
            },
        )?;
        outcome.written += 1;
    }
    record_pull(tx, user_id, month, &serde_json::to_value(&outcome)?)?;
    Ok(outcome)
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

/// Pulls `month` (default: the month before the office's current one) as `user_id`. Blocks on
/// the provider: call it off the async threads. 409 with no provider set, 502 when the provider
/// fails; nothing is written then.
pub fn run(state: &AppState, user_id: Option<&str>, month: Option<Month>) -> Result<PullOutcome, AppError> {
    let (provider, month) = state.db.read_blocking(|c| {
        let month = match month {
            Some(m) => m,
            None => current_month(c)?.previous(),
        };
        Ok((provider(c)?, month))
    })?;
    let reported = fetch(state.config.guard(), &provider, month)?;
    state
        .db
        .write_blocking(|tx| record_in(tx, user_id, month, &reported))
}

/// The monthly job (spec 6.3), run once per office day: pulls the month before `as_of`'s month
/// unless a pull of it is already recorded; with no provider set it says so and writes nothing.
pub fn monthly(state: &AppState, as_of: NaiveDate) -> Result<serde_json::Value, AppError> {
    let month = Month::of(as_of).previous();
    if state.db.read_blocking(|c| store::pulled(c, month))? {
        return Ok(json!({ "month": month.to_string(), "skipped": "already pulled" }));
    }
    match run(state, None, Some(month)) {
        Ok(outcome) => Ok(serde_json::to_value(outcome)?),
        Err(e) if e.code == NOT_CONFIGURED => Ok(json!({
            "month": month.to_string(),
            "skipped": "no cloud-cost provider is set",
        })),
        Err(e) => Err(e),
    }
}
