//! The provider's settings: the report's address and the write-only token, saved (audited without
//! the token), shown, and read for a pull.

use crate::auth::session::AuthUser;
use crate::clients::rules::{credential_value, readable_credential};
use crate::plumbing::db::audit::record;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use rusqlite::Connection;
use rusqlite::types::Value as SqlValue;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

/// The error code of a pull with no provider set.
pub const NOT_CONFIGURED: &str = "cloud_costs_not_configured";

pub const API_URL_KEY: &str = "cloud_costs.api_url";
pub const TOKEN_KEY: &str = "cloud_costs.token";

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
            NOT_CONFIGURED,
            "No cloud-cost provider is set: the owner enters its report address and token under Cloud costs → Provider. Nothing was written.",
        )),
        (Some(_), None) => Err(AppError::conflict(
            NOT_CONFIGURED,
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
