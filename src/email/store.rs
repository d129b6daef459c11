//! The email log: one row per attempted send, whatever came of it.

use crate::book;
use crate::db::page::{Page, Paginated};
use crate::db::query::{Filter, ListQuery, fetch_page, insert_row};
use crate::error::AppError;
use crate::mail::MailError;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Serialize;
use utoipa::ToSchema;

/// What one attempted send was about, and what came of it.
pub struct Attempt<'a> {
    /// document, module_notify, reminder or test.
    pub purpose: &'static str,
    pub document_id: Option<&'a str>,
    pub client_id: Option<&'a str>,
    pub module_id: Option<&'a str>,
    pub to: &'a str,
    pub cc: Option<&'a str>,
    pub subject: &'a str,
    /// None: the job thread.
    pub sent_by: Option<&'a str>,
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
            ("sent_by", text(a.sent_by)),
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
    /// A staff user's book (`crate::book`): the mail sent to their clients.
    pub book: Option<String>,
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
        .eq("status", filter.status);
    book::narrow(&mut f, "client_id", filter.book);
    let query = ListQuery {
        columns: "id, purpose, document_id, client_id, module_id, to_address, cc, subject, status, provider_message_id, error, sent_by, at".into(),
        from: "email_log",
        order_by: "id DESC",
        id_column: "id",
        sorts: &[("at", "at"), ("to", "to_address"), ("subject", "subject"), ("status", "status")],
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
