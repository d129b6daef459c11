//! The TDS setting (issue 21): `tds.default_section`, the section a client whose record names
//! none deducts under (194J unless the owner sets 194C), dated like every setting and audited.

use crate::auth::session::AuthUser;
use crate::plumbing::db::audit::setting_changed;
use crate::plumbing::db::settings::{self, TDS_DEFAULT_SECTION};
use crate::plumbing::error::AppError;
use crate::tds::rules;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

/// The section a client without one of its own deducts under, in force today.
pub fn default_section(conn: &Connection) -> Result<String, AppError> {
    let today = settings::office_today(conn)?;
    let stored = settings::get(conn, TDS_DEFAULT_SECTION.name, today)?;
    Ok(stored
        .as_ref()
        .and_then(Value::as_str)
        .filter(|s| rules::SECTIONS.contains(s))
        .map_or_else(
            || {
                TDS_DEFAULT_SECTION
                    .default_value()
                    .as_str()
                    .unwrap_or("194J")
                    .to_string()
            },
            str::to_string,
        ))
}

/// The TDS settings as the owner sees them.
#[derive(Debug, Serialize, ToSchema)]
pub struct TdsSettings {
    /// 194J or 194C: the section of a client whose record names none.
    pub default_section: String,
    /// The day the value in force took effect; null: never set (the default, 194J).
    #[schema(format = Date)]
    pub effective_from: Option<String>,
}

/// `PUT /api/settings/tds`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TdsSettingsInput {
    /// 194J or 194C.
    pub default_section: Option<String>,
}

pub fn settings_view(conn: &Connection) -> Result<TdsSettings, AppError> {
    let today = settings::office_today(conn)?;
    let dated = settings::get_dated(conn, TDS_DEFAULT_SECTION.name, today)?;
    Ok(TdsSettings {
        default_section: default_section(conn)?,
        effective_from: dated.map(|(_, from)| from.to_string()),
    })
}

/// Sets the default section, in force from today and audited; an unchanged value writes
/// nothing.
pub fn save_settings_in(
    tx: &Connection,
    user: &AuthUser,
    input: TdsSettingsInput,
) -> Result<TdsSettings, AppError> {
    let field = "default_section";
    let section = match input.default_section.as_deref() {
        None => return Err(AppError::invalid(field, "required", "Choose 194J or 194C.")),
        Some(raw) => rules::check_section(field, raw)?
            .ok_or_else(|| AppError::invalid(field, "required", "Choose 194J or 194C."))?,
    };
    let before = default_section(tx)?;
    if before != section {
        let today = settings::office_today(tx)?;
        settings::set(
            tx,
            TDS_DEFAULT_SECTION.name,
            &json!(section),
            today,
            Some(&user.id),
        )?;
        setting_changed(
            tx,
            &user.id,
            TDS_DEFAULT_SECTION.name,
            json!(before),
            json!(section),
        )?;
    }
    settings_view(tx)
}
