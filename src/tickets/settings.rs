//! The tickets' settings: the clock their ages are read against (today at the office and the
//! SLA in force) and the ticket types (owner, audited, dated).

use crate::auth::session::AuthUser;
use crate::plumbing::db::settings::{self, TICKET_SLA_DAYS, TICKET_TYPES};
use crate::plumbing::error::AppError;
use crate::tickets::rules;
use crate::tickets::store::Clock;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Today at the office and the SLA in force: what ages are read against.
pub fn clock(conn: &Connection) -> Result<Clock, AppError> {
    let today = settings::office_today(conn)?;
    Ok(Clock {
        today,
        sla_days: settings::int(conn, &TICKET_SLA_DAYS, today)?,
    })
}

/// The ticket types in force today.
pub fn types(conn: &Connection) -> Result<Vec<String>, AppError> {
    let today = settings::office_today(conn)?;
    Ok(rules::types(
        settings::get(conn, TICKET_TYPES.name, today)?,
        TICKET_TYPES.default_value(),
    ))
}

/// The ticket settings in force today.
#[derive(Serialize, ToSchema)]
pub struct TicketSettings {
    /// The types a ticket may take (`ticket.types`).
    pub types: Vec<String>,
    /// The day the list took effect (2000-01-01: the default first boot writes).
    pub effective_from: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TicketSettingsInput {
    /// 1 to 30 names, none twice.
    pub types: Vec<String>,
}

pub fn ticket_settings(conn: &Connection) -> Result<TicketSettings, AppError> {
    Ok(TicketSettings {
        types: types(conn)?,
        effective_from: settings::since(conn, TICKET_TYPES.name)?,
    })
}

/// Sets the ticket types from today (owner), audited; tickets keep the type they have.
pub fn save_settings_in(
    tx: &Connection,
    user: &AuthUser,
    input: TicketSettingsInput,
) -> Result<TicketSettings, AppError> {
    let names = rules::check_types(input.types)?;
    settings::change_in(
        tx,
        &user.id,
        TICKET_TYPES.name,
        serde_json::json!(types(tx)?),
        serde_json::json!(names),
    )?;
    ticket_settings(tx)
}
