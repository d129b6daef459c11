//! Outbound email (decisions 7, spec 2.10, 6.4): the provider's settings (`mail.api_url`,
//! `mail.from`, and the token, stored as a write-only credential), the adapter, and the
//! `email_log` with one row per attempted send, whatever came of it.

pub mod outbound;
pub mod provider;
pub mod routes;

use crate::clients::rules::{credential_value, readable_credential};
use crate::db::page::{Page, Paginated};
use crate::db::query::{Filter, ListQuery, fetch_page, insert_row};
use crate::db::settings;
use crate::error::AppError;
use provider::{MailConfig, MailError};
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

/// Asks the provider whether it is alive, off the async threads (the call blocks up to its timeout).
pub async fn probe(config: MailConfig, allow_private: bool) -> Result<Result<(), MailError>, AppError> {
    tokio::task::spawn_blocking(move || provider::alive(&config, allow_private))
        .await
        .map_err(AppError::internal)
}

/// Sends one email off the async threads; the email comes back with what came of it.
pub async fn send(
    config: MailConfig,
    email: provider::Email,
    allow_private: bool,
) -> Result<(provider::Email, Result<String, MailError>), AppError> {
    tokio::task::spawn_blocking(move || {
        let result = provider::send(&config, &email, allow_private);
        (email, result)
    })
    .await
    .map_err(AppError::internal)
}

/// The 409 for a provider that is not alive when a send depends on it.
pub fn dead_provider(e: &MailError) -> AppError {
    AppError::conflict(
        "mail_provider_dead",
        format!("Email cannot go out now: {e}. Nothing was changed."),
    )
}

/// What one attempted send was about, and what came of it.
pub struct Attempt<'a> {
    /// document, module_notify or test.
    pub purpose: &'static str,
    pub document_id: Option<&'a str>,
    pub client_id: Option<&'a str>,
    pub module_id: Option<&'a str>,
    pub to: &'a str,
    pub cc: Option<&'a str>,
    pub subject: &'a str,
    pub sent_by: &'a str,
    pub result: &'a Result<String, MailError>,
}

/// Writes the email_log row of an attempt; returns its id.
pub fn log(tx: &Connection, a: Attempt<'_>) -> Result<String, AppError> {
    let text = |s: Option<&str>| s.map_or(Value::Null, |s| Value::Text(s.to_string()));
    let (status, message_id, error) = match a.result {
        Ok(id) => ("sent", Some(id.as_str()), None),
        Err(e) => ("failed", None, Some(e.to_string())),
    };
    Ok(insert_row(
        tx,
        "email_log",
        vec![
            ("purpose", Value::Text(a.purpose.into())),
            ("document_id", text(a.document_id)),
            ("client_id", text(a.client_id)),
            ("module_id", text(a.module_id)),
            ("to_address", Value::Text(a.to.into())),
            ("cc", text(a.cc)),
            ("subject", Value::Text(a.subject.into())),
            ("status", Value::Text(status.into())),
            ("provider_message_id", text(message_id)),
            ("error", text(error.as_deref())),
            ("sent_by", Value::Text(a.sent_by.into())),
            ("at", Value::Text(crate::clock::now_timestamp())),
        ],
    )?)
}

/// A row of the email log.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EmailLogRow {
    pub id: String,
    pub purpose: String,
    pub document_id: Option<String>,
    pub client_id: Option<String>,
    pub module_id: Option<String>,
    pub to: String,
    pub cc: Option<String>,
    pub subject: String,
    /// sent or failed.
    pub status: String,
    pub provider_message_id: Option<String>,
    pub error: Option<String>,
    pub sent_by: Option<String>,
    pub at: String,
}

#[derive(Default)]
pub struct EmailLogFilter {
    pub document_id: Option<String>,
    pub client_id: Option<String>,
    pub module_id: Option<String>,
    pub status: Option<String>,
    /// Staff see what they sent.
    pub sent_by: Option<String>,
}

pub fn list_log(
    conn: &Connection,
    filter: EmailLogFilter,
    page: &Page,
) -> Result<Paginated<EmailLogRow>, AppError> {
    let mut f = Filter::default();
    f.eq("document_id", filter.document_id)
        .eq("client_id", filter.client_id)
        .eq("module_id", filter.module_id)
        .eq("status", filter.status)
        .eq("sent_by", filter.sent_by);
    let query = ListQuery {
        columns: "id, purpose, document_id, client_id, module_id, to_address, cc, subject, status, provider_message_id, error, sent_by, at",
        from: "email_log",
        order_by: "id DESC",
        id_column: "id",
    };
    fetch_page(conn, query, f, page, |r| {
        Ok(EmailLogRow {
            id: r.get(0)?,
            purpose: r.get(1)?,
            document_id: r.get(2)?,
            client_id: r.get(3)?,
            module_id: r.get(4)?,
            to: r.get(5)?,
            cc: r.get(6)?,
            subject: r.get(7)?,
            status: r.get(8)?,
            provider_message_id: r.get(9)?,
            error: r.get(10)?,
            sent_by: r.get(11)?,
            at: r.get(12)?,
        })
    })
}
