//! The plans kept: one read, and a plan created or changed (its lines checked as a draft's), each
//! audited, answered with what the lines' check found worth saying.

use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::documents::pricing::{self, LineInput, Mode};
use crate::plumbing::clock;
use crate::plumbing::db::audit::record;
use crate::plumbing::db::query::Changes;
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Checks, Warning};
use crate::recurring::rules;
use crate::recurring::store::{self, Plan};
use chrono::Datelike;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The fields of a plan a request may set. At create `client_id`, `lines`, `interval` and
/// `next_run` are required (`active` defaults to 1); a PATCH sets the fields it gives.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct PlanInput {
    pub client_id: Option<String>,
    /// 1 to 500 lines as `POST /api/documents` takes them, checked as a draft's are on next_run.
    pub lines: Option<Vec<LineInput>>,
    /// monthly, quarterly or yearly.
    pub interval: Option<String>,
    /// YYYY-MM-DD: the first (next) invoice's day; its day of the month is the plan's.
    #[schema(format = Date)]
    pub next_run: Option<String>,
    #[serde(with = "crate::plumbing::flag::option", default)]
    #[schema(value_type = Option<u8>)]
    pub active: Option<bool>,
}

/// A plan with what its lines' check found worth saying (e.g. a client without a state).
#[derive(Serialize, ToSchema)]
pub struct PlanReply {
    #[serde(flatten)]
    pub plan: Plan,
    pub warnings: Vec<Warning>,
}

/// The plan `id`, or 404.
pub fn plan(conn: &Connection, id: &str) -> Result<Plan, AppError> {
    store::get(conn, id)?.ok_or_else(|| AppError::not_found("recurring plan"))
}

/// Checks `input` against the plan as it is (None at create), naming every invalid field at
/// once; answers the column changes.
fn plan_changes(conn: &Connection, input: &PlanInput, existing: Option<&Plan>) -> Result<Changes, AppError> {
    let creating = existing.is_none();
    let required = |field: &str, message: &str| AppError::invalid(field, "required", message.to_string());
    let mut checks = Checks::default();
    let mut changes: Changes = vec![];
    match input.client_id.as_deref().map(str::trim) {
        Some(id) => match client_store::get(conn, id, None)? {
            None => checks.fail(AppError::invalid(
                "client_id",
                "unknown_client",
                "No client has that id.",
            )),
            Some(client) => {
                if checks
                    .check(rules::check_billable(&client.name, &client.status))
                    .is_some()
                {
                    changes.push(("client_id", Value::Text(client.id)));
                }
            }
        },
        None if creating => checks.fail(required("client_id", "Choose the client.")),
        None => {}
    }
    match input.interval.as_deref() {
        Some(raw) => {
            if let Some(interval) = checks.check(rules::check_interval(raw)) {
                changes.push(("interval", Value::Text(interval)));
            }
        }
        None if creating => checks.fail(required("interval", "Choose monthly, quarterly or yearly.")),
        None => {}
    }
    let next_run = match input.next_run.as_deref() {
        Some(raw) => {
            let day = checks.check(clock::check_date("next_run", raw));
            if let Some(day) = day {
                changes.push(("next_run", Value::Text(day.to_string())));
                changes.push(("run_day", Value::Integer(i64::from(day.day()))));
            }
            day
        }
        None if creating => {
            checks.fail(required(
                "next_run",
                "Give the first invoice's date as YYYY-MM-DD.",
            ));
            None
        }
        None => existing.and_then(|p| clock::date(&p.next_run)),
    };
    match &input.lines {
        Some(lines) => {
            // A draft's own check: the lines priced (strictly) on the plan's next run.
            let on = match next_run {
                Some(day) => day,
                None => settings::office_today(conn)?,
            };
            let priced = checks
                .check(rules::check_has_lines(lines.len()))
                .and_then(|_| checks.check(pricing::price(conn, lines, on, true, false, Mode::Strict)));
            if priced.is_some() {
                changes.push(("lines", Value::Text(serde_json::to_string(lines)?)));
            }
        }
        None if creating => checks.fail(required("lines", "A plan needs at least one line.")),
        None => {}
    }
    if let Some(active) = input.active {
        changes.push(("active", Value::Integer(i64::from(active))));
    }
    checks.done()?;
    Ok(changes)
}

fn audit_plan(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    action: &str,
    before: Option<&Plan>,
    after: Option<&Plan>,
) -> Result<(), AppError> {
    record(tx, &user.id, "recurring_plan", id, action, before, after)
}

/// The warnings a plan's lines raise for its client (the place of supply unknown).
fn reply(conn: &Connection, plan: Plan) -> Result<PlanReply, AppError> {
    let warnings = match client_store::get(conn, &plan.client_id, None)? {
        Some(client) => crate::documents::drafts::place_of_supply(conn, &client)?
            .1
            .into_iter()
            .collect(),
        None => vec![],
    };
    Ok(PlanReply { plan, warnings })
}

/// Writes a new plan (active unless told otherwise), audited `created`.
pub fn create_in(tx: &Connection, user: &AuthUser, input: &PlanInput) -> Result<PlanReply, AppError> {
    let mut fields = plan_changes(tx, input, None)?;
    fields.push(("created_by", Value::Text(user.id.clone())));
    let id = store::insert(tx, fields)?;
    let created = plan(tx, &id)?;
    audit_plan(tx, user, &id, "created", None, Some(&created))?;
    reply(tx, created)
}

/// Changes the fields `input` gives, audited `updated`. A parked plan stays parked: a retry is
/// the one way out of it.
pub fn update_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    input: &PlanInput,
) -> Result<PlanReply, AppError> {
    let before = plan(tx, id)?;
    let changes = plan_changes(tx, input, Some(&before))?;
    if changes.is_empty() {
        return reply(tx, before);
    }
    store::update(tx, id, changes)?;
    let after = plan(tx, id)?;
    audit_plan(tx, user, id, "updated", Some(&before), Some(&after))?;
    reply(tx, after)
}
