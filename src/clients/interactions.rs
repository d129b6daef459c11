//! Logging and editing interactions (spec 5.11): typed entries with an optional follow-up date
//! and their author. Anyone may add one to a client they can see; only its author or a manager
//! may edit it.

use crate::auth::session::AuthUser;
use crate::clients::contacts_store;
use crate::clients::interactions_store::{self as store, Interaction};
use crate::clients::rules::{self, one_of};
use crate::clients::store as client_store;
use crate::plumbing::clock;
use crate::plumbing::db::query::{Changes, update_columns};
use crate::plumbing::error::AppError;
use axum::http::StatusCode;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InteractionCreate {
    pub client_id: String,
    /// call, visit, email, whatsapp, meeting or note.
    #[serde(rename = "type")]
    pub kind: String,
    pub notes: String,
    /// YYYY-MM-DD; empty means none.
    pub follow_up_on: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InteractionPatch {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub notes: Option<String>,
    /// YYYY-MM-DD; empty clears it.
    pub follow_up_on: Option<String>,
}

/// A follow-up date as YYYY-MM-DD; empty clears it.
fn follow_up_change(raw: &str) -> Result<(&'static str, Value), AppError> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(("follow_up_on", Value::Null));
    }
    let date = clock::check_date("follow_up_on", raw)?;
    Ok(("follow_up_on", Value::Text(date.to_string())))
}

fn check_notes(notes: &str) -> Result<String, AppError> {
    let notes = notes.trim();
    if notes.is_empty() || notes.chars().count() > 5000 {
        return Err(AppError::invalid(
            "notes",
            "invalid_notes",
            "Write 1 to 5000 characters.",
        ));
    }
    Ok(notes.to_string())
}

/// Logs an interaction with a client in the caller's book; the author is the caller.
pub fn create_in(tx: &Connection, user: &AuthUser, req: InteractionCreate) -> Result<Interaction, AppError> {
    one_of("type", &req.kind, rules::INTERACTION_TYPES)?;
    let notes = check_notes(&req.notes)?;
    let fields = vec![
        ("type", Value::Text(req.kind)),
        ("notes", Value::Text(notes)),
        ("author_id", Value::Text(user.id.clone())),
        follow_up_change(req.follow_up_on.as_deref().unwrap_or(""))?,
    ];
    client_store::get(tx, &req.client_id, user.book().as_deref())?
        .ok_or_else(|| AppError::not_found("client"))?;
    let id = contacts_store::insert(tx, "interaction", &req.client_id, fields)?;
    store::get(tx, &id, None)?.ok_or_else(|| AppError::internal("interaction vanished"))
}

/// Validates a patch and answers its column changes.
pub fn patch_changes(req: InteractionPatch) -> Result<Changes, AppError> {
    let mut changes: Changes = vec![];
    if let Some(kind) = req.kind {
        one_of("type", &kind, rules::INTERACTION_TYPES)?;
        changes.push(("type", Value::Text(kind)));
    }
    if let Some(notes) = &req.notes {
        changes.push(("notes", Value::Text(check_notes(notes)?)));
    }
    if let Some(date) = req.follow_up_on.as_deref() {
        changes.push(follow_up_change(date)?);
    }
    Ok(changes)
}

/// Edits an interaction: its author or a manager; anyone else gets 403.
pub fn update_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    changes: Changes,
) -> Result<Interaction, AppError> {
    let existing =
        store::get(tx, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("interaction"))?;
    if existing.author_id != user.id && !user.is_managerial() {
        return Err(AppError::new(
            StatusCode::FORBIDDEN,
            "not_author",
            "Only the author or a manager may edit this entry.",
        ));
    }
    update_columns(tx, "interaction", id, changes)?;
    store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("interaction"))
}
