//! The interactions log: typed entries with an optional follow-up date and their author.
//! Anyone may add one to a client they can see; only its author or a manager may edit it (spec 5.11).

use crate::AppState;
use crate::auth::session::AuthUser;
use crate::clients::contacts_store;
use crate::clients::interactions_store::{self as store, Interaction};
use crate::clients::rules::{self, one_of};
use crate::clients::store as client_store;
use crate::db::page::{Page, Paginated};
use crate::db::query::update_columns;
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{IdPath, JsonBody, QueryParams};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use rusqlite::types::Value;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_interactions, create_interaction))
        .routes(routes!(patch_interaction))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InteractionQuery {
    /// One client's timeline; without it, every client in the caller's book.
    pub client_id: Option<String>,
}

/// Interactions, newest first.
#[utoipa::path(get, path = "/api/interactions", tag = "clients", params(Page, InteractionQuery),
    responses((status = 200, body = Paginated<Interaction>), (status = 404, body = ErrorBody)))]
async fn list_interactions(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<InteractionQuery>,
) -> Result<Json<Paginated<Interaction>>, AppError> {
    let book = user.book();
    let list = state
        .db
        .read(move |c| {
            if let Some(client_id) = &q.client_id {
                client_store::get(c, client_id, book.as_deref())?
                    .ok_or_else(|| AppError::not_found("client"))?;
            }
            store::list(c, q.client_id, book, &page)
        })
        .await?;
    Ok(Json(list))
}

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
    let date = NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .map_err(|_| AppError::invalid("follow_up_on", "invalid_date", "Give the date as YYYY-MM-DD."))?;
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

/// Log an interaction with a client; the author is the caller.
#[utoipa::path(post, path = "/api/interactions", tag = "clients", request_body = InteractionCreate,
    responses((status = 201, body = Interaction), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_interaction(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(req): JsonBody<InteractionCreate>,
) -> Result<(StatusCode, Json<Interaction>), AppError> {
    one_of("type", &req.kind, rules::INTERACTION_TYPES)?;
    let notes = check_notes(&req.notes)?;
    let fields = vec![
        ("type", Value::Text(req.kind)),
        ("notes", Value::Text(notes)),
        ("author_id", Value::Text(user.id.clone())),
        follow_up_change(req.follow_up_on.as_deref().unwrap_or(""))?,
    ];
    let interaction = state
        .db
        .write(move |tx| {
            client_store::get(tx, &req.client_id, user.book().as_deref())?
                .ok_or_else(|| AppError::not_found("client"))?;
            let id = contacts_store::insert(tx, "interaction", &req.client_id, fields)?;
            store::get(tx, &id, None)?.ok_or_else(|| AppError::internal("interaction vanished"))
        })
        .await?;
    Ok((StatusCode::CREATED, Json(interaction)))
}

/// Edit an interaction: its author or a manager; anyone else gets 403.
#[utoipa::path(patch, path = "/api/interactions/{id}", tag = "clients", params(("id" = String, Path)), request_body = InteractionPatch,
    responses((status = 200, body = Interaction), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)))]
async fn patch_interaction(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<InteractionPatch>,
) -> Result<Json<Interaction>, AppError> {
    let mut changes: Vec<(&'static str, Value)> = vec![];
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
    let interaction = state
        .db
        .write(move |tx| {
            let existing = store::get(tx, &id, user.book().as_deref())?
                .ok_or_else(|| AppError::not_found("interaction"))?;
            if existing.author_id != user.id && !user.is_managerial() {
                return Err(AppError::new(
                    StatusCode::FORBIDDEN,
                    "not_author",
                    "Only the author or a manager may edit this entry.",
                ));
            }
            update_columns(tx, "interaction", &id, changes)?;
            store::get(tx, &id, None)?.ok_or_else(|| AppError::not_found("interaction"))
        })
        .await?;
    Ok(Json(interaction))
}
