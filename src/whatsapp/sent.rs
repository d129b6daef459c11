//! A chat said to be sent: logged as a `whatsapp` interaction on the client (and a reminder
//! closed as `sent`, audited).

use crate::auth::session::AuthUser;
use crate::clients::interactions::{self, InteractionCreate};
use crate::plumbing::config::Config;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::error::AppError;
use crate::reminders;
use crate::statements::StatementPeriod;
use crate::whatsapp::chats::{Chat, document_chat, reminder_chat, statement_chat};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// A chat said to be sent: the message and the interaction that records it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Sent {
    pub phone: String,
    pub url: String,
    pub text: String,
    pub interaction_id: String,
}

/// Logs the chat as a `whatsapp` interaction on the client, by the user.
fn record_in(tx: &Connection, user: &AuthUser, chat: Chat) -> Result<Sent, AppError> {
    let m = chat.message;
    let interaction = interactions::create_in(
        tx,
        user,
        InteractionCreate {
            client_id: chat.client_id,
            kind: "whatsapp".into(),
            notes: format!("WhatsApp to +{}: {}", m.phone, chat.about),
            follow_up_on: None,
        },
    )?;
    Ok(Sent {
        phone: m.phone,
        url: m.url,
        text: m.text,
        interaction_id: interaction.id,
    })
}

/// Records that the chat about a document was sent.
pub fn record_document_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    config: &Config,
) -> Result<Sent, AppError> {
    record_in(tx, user, document_chat(tx, user, id, config)?)
}

/// Records that the chat about a statement was sent.
pub fn record_statement_in(
    tx: &Connection,
    user: &AuthUser,
    client_id: &str,
    asked: &StatementPeriod,
) -> Result<Sent, AppError> {
    record_in(tx, user, statement_chat(tx, user, client_id, asked)?)
}

/// Records that the chat about a reminder was sent, and closes the reminder as `sent` (a
/// reminder already closed stays as it is), audited.
pub fn record_reminder_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    config: &Config,
) -> Result<Sent, AppError> {
    let (chat, status) = reminder_chat(tx, user, id, config)?;
    if reminders::store::claim_send(tx, id, Some(&user.id))? {
        audit(
            tx,
            Audit {
                entity: "reminder",
                entity_id: Some(id),
                action: "sent",
                user_id: Some(&user.id),
                before: Some(serde_json::json!({ "status": status })),
                after: Some(serde_json::json!({ "status": "sent", "channel": "whatsapp" })),
            },
        )?;
    }
    record_in(tx, user, chat)
}
