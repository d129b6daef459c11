//! The chat to open: the number to write to about a client, and the message about a document,
//! a reminder or a statement with its click-to-chat link.

use crate::auth::session::AuthUser;
use crate::clients::contacts_store;
use crate::clients::store as client_store;
use crate::clients::store::visible_client;
use crate::company::letterhead;
use crate::documents::store::visible_document;
use crate::documents::{shares, view};
use crate::plumbing::config::Config;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::reminders;
use crate::statements::{self, StatementPeriod};
use crate::whatsapp::rules;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// A chat ready to open.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Message {
    /// 91 and the ten-digit mobile.
    pub phone: String,
    /// `https://wa.me/<phone>?text=<text, percent-encoded>`.
    pub url: String,
    pub text: String,
}

fn no_number(client: &str, tried: &[String]) -> AppError {
    let why = if tried.is_empty() {
        format!("{client} has no phone number on its record or its contacts.")
    } else {
        format!(
            "None of {client}'s numbers is an Indian mobile: {}.",
            tried.join("; ")
        )
    };
    AppError::conflict(
        "no_whatsapp_number",
        format!("{why} Add a contact with the role WhatsApp and a 10-digit mobile number."),
    )
}

/// The number to write to about `client_id`: its contact with the role WhatsApp, else its
/// secretary, else any contact, else its own phone, the first that is an Indian mobile
/// (409 `no_whatsapp_number` naming what was tried when none is).
pub fn number(conn: &Connection, client_id: &str) -> Result<String, AppError> {
    let client = client_store::get(conn, client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let mut contacts = contacts_store::contacts_of(conn, client_id)?;
    contacts.sort_by_key(|c| rules::rank(c.role.as_deref()));
    let candidates = contacts
        .iter()
        .filter_map(|c| Some((c.name.as_str(), c.phone.as_deref()?)))
        .chain(client.phone.as_deref().map(|p| ("the society's own number", p)))
        .filter(|(_, p)| !p.trim().is_empty());
    let mut tried = vec![];
    for (who, phone) in candidates {
        match rules::mobile(phone) {
            Some(m) => return Ok(m),
            None => tried.push(format!("{who} {}", phone.trim())),
        }
    }
    Err(no_number(&client.name, &tried))
}

/// A chat and what it is about: the client it goes to and the words its note gives.
pub(super) struct Chat {
    pub(super) message: Message,
    pub(super) client_id: String,
    pub(super) about: String,
}

/// The chat about a document of the user's book (404 otherwise).
pub fn for_document(
    conn: &Connection,
    user: &AuthUser,
    id: &str,
    config: &Config,
) -> Result<Message, AppError> {
    Ok(document_chat(conn, user, id, config)?.message)
}

pub(super) fn document_chat(
    conn: &Connection,
    user: &AuthUser,
    id: &str,
    config: &Config,
) -> Result<Chat, AppError> {
    let doc = visible_document(conn, user, id)?;
    if doc.status == "draft" {
        return Err(AppError::conflict(
            "not_shareable",
            "A draft is not sent to the client: issue it first.",
        ));
    }
    let phone = number(conn, &doc.client_id)?;
    let link = match shares::base_url(conn, config)? {
        Some(base) => shares::live_share(conn, id, 1)?.map(|s| shares::url_under(&base, &s.token)),
        None => None,
    };
    let text = rules::document_text(&doc, &view::build(conn, &doc)?, link.as_deref());
    let about = format!(
        "{} {}",
        view::title(&doc.doc_type).to_lowercase(),
        doc.doc_no.as_deref().unwrap_or_default()
    );
    Ok(Chat {
        message: message(phone, text),
        client_id: doc.client_id,
        about,
    })
}

/// The chat about a reminder of the user's share: the letter its email would carry.
pub fn for_reminder(
    conn: &Connection,
    user: &AuthUser,
    id: &str,
    config: &Config,
) -> Result<Message, AppError> {
    Ok(reminder_chat(conn, user, id, config)?.0.message)
}

/// The chat about a reminder, and the reminder's status.
pub(super) fn reminder_chat(
    conn: &Connection,
    user: &AuthUser,
    id: &str,
    config: &Config,
) -> Result<(Chat, String), AppError> {
    let r = reminders::visible(conn, user, id)?;
    let phone = number(conn, &r.client_id)?;
    let text = reminders::send::chat_text(conn, &r, config)?;
    let chat = Chat {
        message: message(phone, text),
        about: format!("reminder: {}", r.summary),
        client_id: r.client_id,
    };
    Ok((chat, r.status))
}

/// The chat about the statement of account of a client of the user's book for a period
/// (`from`, `to` as the statement takes them).
pub fn for_statement(
    conn: &Connection,
    user: &AuthUser,
    client_id: &str,
    asked: &StatementPeriod,
) -> Result<Message, AppError> {
    Ok(statement_chat(conn, user, client_id, asked)?.message)
}

pub(super) fn statement_chat(
    conn: &Connection,
    user: &AuthUser,
    client_id: &str,
    asked: &StatementPeriod,
) -> Result<Chat, AppError> {
    let client = visible_client(conn, user, client_id)?;
    let period = asked.period(settings::office_today(conn)?)?;
    let statement = statements::statement(conn, &client, period)?;
    let phone = number(conn, client_id)?;
    let sender = letterhead::letterhead(conn, &[])?.trade_name;
    Ok(Chat {
        message: message(phone, rules::statement_text(&statement, &sender)),
        client_id: client.id,
        about: format!("statement of account {} to {}", period.from, period.to),
    })
}

fn message(phone: String, text: String) -> Message {
    Message {
        url: rules::url(&phone, &text),
        phone,
        text,
    }
}
