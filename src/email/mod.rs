//! Email going out (decisions 7, spec 2.10, 6.4): the provider's settings (`mail.api_url`,
//! `mail.from`, and the token, stored as a write-only credential) and the `email_log` with one
//! row per attempted send, whatever came of it ([`store`]). The transport is `crate::mail`.

pub mod routes;
pub mod store;

use crate::auth::session::AuthUser;
use crate::clients::rules::{credential_value, readable_credential};
use crate::db::audit::record;
use crate::db::settings;
use crate::error::AppError;
use crate::mail::{MailConfig, MailError};
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Serialize;
use utoipa::ToSchema;

pub const API_URL_KEY: &str = "mail.api_url";
pub const FROM_KEY: &str = "mail.from";
pub const TOKEN_KEY: &str = "mail.token";

fn setting_text(conn: &Connection, key: &str) -> Result<Option<String>, AppError> {
    let today = settings::office_today(conn)?;
    Ok(settings::get(conn, key, today)?
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|s| !s.trim().is_empty()))
}

/// The provider's settings as the owner sees them (the token only as `hasToken`).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct MailSettings {
    pub api_url: Option<String>,
    pub from: Option<String>,
    #[serde(rename = "hasToken")]
    pub has_token: bool,
}

pub fn settings_view(conn: &Connection) -> Result<MailSettings, AppError> {
    Ok(MailSettings {
        api_url: setting_text(conn, API_URL_KEY)?,
        from: setting_text(conn, FROM_KEY)?,
        has_token: stored_token(conn)?.is_some(),
    })
}

fn stored_token(conn: &Connection) -> Result<Option<String>, AppError> {
    Ok(readable_credential(setting_text(conn, TOKEN_KEY)?).filter(|t| !t.is_empty()))
}

/// Stores the token as a credential (a legacy-encrypted value reads as empty).
pub fn store_token(tx: &Connection, token: &str, user_id: &str) -> Result<(), AppError> {
    let today = settings::office_today(tx)?;
    let value = match credential_value("token", token)? {
        Value::Text(t) => serde_json::Value::String(t),
        _ => serde_json::Value::Null,
    };
    settings::set(tx, TOKEN_KEY, &value, today, Some(user_id))
}

/// The provider to send through, or a 409 saying what is missing.
pub fn config(conn: &Connection) -> Result<MailConfig, AppError> {
    let view = settings_view(conn)?;
    match (view.api_url, view.from, stored_token(conn)?) {
        (Some(api_url), Some(from), Some(token)) => Ok(MailConfig { api_url, from, token }),
        _ => Err(AppError::conflict(
            "mail_not_configured",
            "Email is not set up: the owner enters the mail provider's address, sender and token under Settings → Mail.",
        )),
    }
}

/// The 409 for a provider that is not alive when a send depends on it.
pub fn dead_provider(e: &MailError) -> AppError {
    AppError::conflict(
        "mail_provider_dead",
        format!("Email cannot go out now: {e}. Nothing was changed."),
    )
}

/// Saves the provider's address and sender (each when given) and the token (when given; empty
/// removes it), audited without the token.
pub fn save_settings_in(
    tx: &Connection,
    user: &AuthUser,
    api_url: Option<String>,
    from: Option<String>,
    token: Option<String>,
) -> Result<MailSettings, AppError> {
    let before = settings_view(tx)?;
    let today = settings::office_today(tx)?;
    for (key, value) in [(API_URL_KEY, &api_url), (FROM_KEY, &from)] {
        if let Some(v) = value {
            settings::set(tx, key, &serde_json::json!(v), today, Some(&user.id))?;
        }
    }
    if let Some(token) = &token {
        store_token(tx, token.trim(), &user.id)?;
    }
    let after = settings_view(tx)?;
    record(
        tx,
        &user.id,
        "setting",
        "mail",
        "update",
        Some(&before),
        Some(&after),
    )?;
    Ok(after)
}
