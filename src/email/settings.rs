//! The mail settings: the keys, the owner's view of them (credentials only as "has"), and a
//! change of them saved and audited without the token and the password.

use crate::auth::session::AuthUser;
use crate::clients::rules::{credential_value, readable_credential};
use crate::plumbing::db::audit::record;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::plumbing::mail::smtp::Security;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub const TRANSPORT_KEY: &str = "mail.transport";
pub const API_URL_KEY: &str = "mail.api_url";
pub const FROM_KEY: &str = "mail.from";
pub const TOKEN_KEY: &str = "mail.token";
pub const SMTP_HOST_KEY: &str = "mail.smtp_host";
pub const SMTP_PORT_KEY: &str = "mail.smtp_port";
pub const SMTP_SECURITY_KEY: &str = "mail.smtp_security";
pub const SMTP_USERNAME_KEY: &str = "mail.smtp_username";
pub const SMTP_PASSWORD_KEY: &str = "mail.smtp_password";

/// The way mail leaves: the mail API (Postmark's shape) or the office's mailbox over SMTP.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TransportChoice {
    #[default]
    Api,
    Smtp,
}

/// A setting stored as JSON of `T` (a port, a choice), if it reads as one.
fn setting_as<T: serde::de::DeserializeOwned>(conn: &Connection, key: &str) -> Result<Option<T>, AppError> {
    let today = settings::office_today(conn)?;
    Ok(settings::get(conn, key, today)?.and_then(|v| serde_json::from_value(v).ok()))
}

fn setting_text(conn: &Connection, key: &str) -> Result<Option<String>, AppError> {
    let today = settings::office_today(conn)?;
    Ok(settings::get(conn, key, today)?
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|s| !s.trim().is_empty()))
}

/// The mail settings as the owner sees them: both transports' fields, the token and the
/// password only as `hasToken` and `hasSmtpPassword`.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct MailSettings {
    /// The way mail leaves; `api` until SMTP is chosen.
    pub transport: TransportChoice,
    pub api_url: Option<String>,
    /// The sender address, for either transport.
    pub from: Option<String>,
    #[serde(rename = "hasToken")]
    pub has_token: bool,
    pub smtp_host: Option<String>,
    /// Null: the usual port of `smtp_security` (587, 465 or 25).
    pub smtp_port: Option<u16>,
    pub smtp_security: Option<Security>,
    pub smtp_username: Option<String>,
    #[serde(rename = "hasSmtpPassword")]
    pub has_smtp_password: bool,
}

pub fn settings_view(conn: &Connection) -> Result<MailSettings, AppError> {
    Ok(MailSettings {
        transport: setting_as(conn, TRANSPORT_KEY)?.unwrap_or_default(),
        api_url: setting_text(conn, API_URL_KEY)?,
        from: setting_text(conn, FROM_KEY)?,
        has_token: stored_credential(conn, TOKEN_KEY)?.is_some(),
        smtp_host: setting_text(conn, SMTP_HOST_KEY)?,
        smtp_port: setting_as(conn, SMTP_PORT_KEY)?,
        smtp_security: setting_as(conn, SMTP_SECURITY_KEY)?,
        smtp_username: setting_text(conn, SMTP_USERNAME_KEY)?,
        has_smtp_password: stored_credential(conn, SMTP_PASSWORD_KEY)?.is_some(),
    })
}

pub(super) fn stored_credential(conn: &Connection, key: &str) -> Result<Option<String>, AppError> {
    Ok(readable_credential(setting_text(conn, key)?).filter(|t| !t.is_empty()))
}

/// Stores the token as a credential (a legacy-encrypted value reads as empty).
pub fn store_token(tx: &Connection, token: &str, user_id: &str) -> Result<(), AppError> {
    store_credential(tx, TOKEN_KEY, "token", token, user_id)
}

/// Stores a write-only credential setting (empty removes it).
fn store_credential(
    tx: &Connection,
    key: &str,
    field: &str,
    raw: &str,
    user_id: &str,
) -> Result<(), AppError> {
    let today = settings::office_today(tx)?;
    let value = match credential_value(field, raw)? {
        Value::Text(t) => serde_json::Value::String(t),
        _ => serde_json::Value::Null,
    };
    settings::set(tx, key, &value, today, Some(user_id))
}

/// A change of the mail settings: each key given replaces the stored value, each key left out
/// keeps it; `token` and `smtp_password` are write-only ("" removes them).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MailInput {
    /// api (the default of old clients that do not send it) or smtp.
    pub transport: Option<TransportChoice>,
    /// The provider's API base, e.g. https://api.postmarkapp.com (checked against request forgery).
    pub api_url: Option<String>,
    /// The sender address, e.g. billing@vendor.in.
    pub from: Option<String>,
    /// Write-only; omit to keep the stored one, "" to remove it.
    pub token: Option<String>,
    /// The SMTP server's name, e.g. smtp.gmail.com (checked against request forgery); "" removes it.
    pub smtp_host: Option<String>,
    #[schema(minimum = 1, maximum = 65535)]
    pub smtp_port: Option<u16>,
    pub smtp_security: Option<Security>,
    /// The mailbox to sign in as, usually the address itself; "" sends without signing in.
    pub smtp_username: Option<String>,
    /// Write-only (an app password for Gmail, Zoho or Outlook); omit to keep the stored one,
    /// "" to remove it.
    pub smtp_password: Option<String>,
}

/// Saves each setting given (checked by `rules::check_input`), audited without the token
/// and the password.
pub fn save_settings_in(
    tx: &Connection,
    user: &AuthUser,
    input: MailInput,
) -> Result<MailSettings, AppError> {
    let before = settings_view(tx)?;
    let today = settings::office_today(tx)?;
    let values = [
        (TRANSPORT_KEY, input.transport.map(|t| serde_json::json!(t))),
        (API_URL_KEY, input.api_url.map(|v| serde_json::json!(v))),
        (FROM_KEY, input.from.map(|v| serde_json::json!(v))),
        (SMTP_HOST_KEY, input.smtp_host.map(|v| serde_json::json!(v))),
        (SMTP_PORT_KEY, input.smtp_port.map(|v| serde_json::json!(v))),
        (
            SMTP_SECURITY_KEY,
            input.smtp_security.map(|v| serde_json::json!(v)),
        ),
        (
            SMTP_USERNAME_KEY,
            input.smtp_username.map(|v| serde_json::json!(v)),
        ),
    ];
    for (key, value) in values {
        if let Some(value) = value {
            settings::set(tx, key, &value, today, Some(&user.id))?;
        }
    }
    if let Some(token) = &input.token {
        store_token(tx, token, &user.id)?;
    }
    if let Some(password) = &input.smtp_password {
        store_credential(tx, SMTP_PASSWORD_KEY, "smtp_password", password, &user.id)?;
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
