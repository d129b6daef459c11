//! The reminder schedule (decisions 11): dated, append-only sets of day offsets, read as in force
//! on a day. The ladders are the setting `reminders.schedule`; the quote follow-up policy is the
//! spec's own key `quote.followup.policy`; a save writes both from the same date.

use crate::auth::session::AuthUser;
use crate::plumbing::db::audit::setting_changed;
use crate::plumbing::db::settings::{self, QUOTE_FOLLOWUP_POLICY, REMINDER_SCHEDULE};
use crate::plumbing::error::AppError;
use crate::reminders::rules::Schedule;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// The schedule in force and the day it took effect.
#[derive(Debug, Serialize, ToSchema)]
pub struct Dated {
    pub effective_from: NaiveDate,
    #[serde(flatten)]
    pub schedule: Schedule,
}

/// The stored ladders with the policy → a schedule.
pub fn with_policy(mut ladders: Value, policy: &str) -> Result<Schedule, AppError> {
    if let Some(q) = ladders.get_mut("quote_followup").and_then(Value::as_object_mut) {
        q.insert("policy".into(), Value::from(policy));
    }
    serde_json::from_value(ladders).map_err(|e| AppError::internal(format!("stored reminder schedule: {e}")))
}

/// The schedule in force on `on` (the default when the stored one cannot be read).
pub fn in_force(conn: &Connection, on: NaiveDate) -> Result<Dated, AppError> {
    let policy = settings::get(conn, QUOTE_FOLLOWUP_POLICY.name, on)?
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "manual".into());
    let stored = settings::get_dated(conn, REMINDER_SCHEDULE.name, on)?;
    let effective_from = stored.as_ref().map_or(NaiveDate::MIN, |(_, from)| *from);
    let schedule = stored
        .and_then(|(ladders, _)| with_policy(ladders, &policy).ok())
        .map_or_else(|| with_policy(REMINDER_SCHEDULE.default_value(), &policy), Ok)?;
    Ok(Dated {
        effective_from,
        schedule,
    })
}

/// Appends a checked schedule in force from `effective_from`, audited with the set it follows.
pub fn save_in(
    tx: &Connection,
    user: &AuthUser,
    schedule: Schedule,
    effective_from: NaiveDate,
) -> Result<Dated, AppError> {
    let before = in_force(tx, effective_from)?;
    let mut ladders = serde_json::to_value(&schedule)?;
    if let Some(q) = ladders.get_mut("quote_followup").and_then(Value::as_object_mut) {
        q.remove("policy");
    }
    settings::set(
        tx,
        REMINDER_SCHEDULE.name,
        &ladders,
        effective_from,
        Some(&user.id),
    )?;
    settings::set(
        tx,
        QUOTE_FOLLOWUP_POLICY.name,
        &Value::from(schedule.quote_followup.policy.as_str()),
        effective_from,
        Some(&user.id),
    )?;
    let after = Dated {
        effective_from,
        schedule,
    };
    setting_changed(
        tx,
        &user.id,
        REMINDER_SCHEDULE.name,
        serde_json::to_value(&before)?,
        serde_json::to_value(&after)?,
    )?;
    Ok(after)
}
