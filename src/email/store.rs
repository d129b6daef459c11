//! The email log: one row per attempted send, whatever came of it.

use crate::book;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, insert_row, like_contains};
use crate::plumbing::error::AppError;
use crate::plumbing::mail::MailError;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Serialize;
use utoipa::ToSchema;

/// What one attempted send was about, and what came of it.
pub struct Attempt<'a> {
    /// document, module_notify, reminder, statement or test.
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
            ("at", Value::Text(crate::plumbing::clock::now_timestamp())),
        ],
    )?)
}

/// What an attempt may be about (`Attempt::purpose`): the email log's `purpose` filter checks
/// against this list.
pub const PURPOSES: &[&str] = &["document", "module_notify", "reminder", "statement", "test"];

/// What came of an attempt.
pub const STATUSES: &[&str] = &["sent", "failed"];

/// A row of the email log.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EmailLogRow {
    pub id: String,
    /// document, module_notify, reminder, statement or test.
    pub purpose: String,
    pub document_id: Option<String>,
    /// The document's number, when the email was about a document.
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    pub client_id: Option<String>,
    pub client_name: Option<String>,
    pub module_id: Option<String>,
    pub to: String,
    pub cc: Option<String>,
    pub subject: String,
    /// sent or failed.
    pub status: String,
    pub provider_message_id: Option<String>,
    pub error: Option<String>,
    /// The employee who sent it; null when the job thread did (the auto-send drain).
    pub sent_by: Option<String>,
    pub sent_by_name: Option<String>,
    pub at: String,
}

/// The email log's filters (every one optional); the dates are already UTC bounds.
#[derive(Default)]
pub struct EmailLogFilter {
    pub document_id: Option<String>,
    pub client_id: Option<String>,
    pub module_id: Option<String>,
    pub status: Option<String>,
    pub purpose: Option<String>,
    /// `at` from this UTC time, inclusive (the start of the first office day).
    pub from: Option<String>,
    /// `at` before this UTC time (the start of the day after the last office day).
    pub to: Option<String>,
    /// Part of the address (to or cc), the subject or the client's name.
    pub q: Option<String>,
    /// A staff user's book (`crate::book`): the mail sent to their clients.
    pub book: Option<String>,
}

/// What `sort` may name (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("at", "e.at"),
    ("to", "e.to_address COLLATE NOCASE"),
    ("subject", "e.subject COLLATE NOCASE"),
    ("status", "e.status"),
    ("purpose", "e.purpose"),
    ("client", "c.name COLLATE NOCASE"),
    ("sent_by", "s.name COLLATE NOCASE"),
];

/// The email log, newest first: a page, or every row for the CSV twin, with the same filters,
/// sort and book.
pub fn list_log(filter: EmailLogFilter) -> Listing<EmailLogRow> {
    let mut f = Filter::default();
    f.eq("e.document_id", filter.document_id)
        .eq("e.client_id", filter.client_id)
        .eq("e.module_id", filter.module_id)
        .eq("e.status", filter.status)
        .eq("e.purpose", filter.purpose);
    book::narrow(&mut f, "e.client_id", filter.book);
    if let Some(from) = filter.from {
        f.and("e.at >= ?", [Value::Text(from)]);
    }
    if let Some(to) = filter.to {
        f.and("e.at < ?", [Value::Text(to)]);
    }
    if let Some(q) = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        let p = like_contains(q);
        f.and(
            "e.to_address LIKE ? ESCAPE '\\' OR e.cc LIKE ? ESCAPE '\\' OR e.subject LIKE ? ESCAPE '\\' \
             OR c.name LIKE ? ESCAPE '\\'",
            [p.clone(), p.clone(), p.clone(), p],
        );
    }
    let query = ListQuery {
        columns:
            "e.id, e.purpose, e.document_id, d.doc_no, e.client_id, c.name, e.module_id, e.to_address, e.cc, \
                  e.subject, e.status, e.provider_message_id, e.error, e.sent_by, s.name, e.at"
                .into(),
        from: "email_log e LEFT JOIN client c ON c.id = e.client_id \
               LEFT JOIN staff s ON s.id = e.sent_by LEFT JOIN document d ON d.id = e.document_id",
        order_by: "e.id DESC",
        id_column: "e.id",
        sorts: SORTS,
    };
    Listing::new(query, f, |r| {
        Ok(EmailLogRow {
            id: r.get(0)?,
            purpose: r.get(1)?,
            document_id: r.get(2)?,
            doc_no: r.get(3)?,
            client_id: r.get(4)?,
            client_name: r.get(5)?,
            module_id: r.get(6)?,
            to: r.get(7)?,
            cc: r.get(8)?,
            subject: r.get(9)?,
            status: r.get(10)?,
            provider_message_id: r.get(11)?,
            error: r.get(12)?,
            sent_by: r.get(13)?,
            sent_by_name: r.get(14)?,
            at: r.get(15)?,
        })
    })
}
