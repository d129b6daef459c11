//! The interactions log: typed entries with an optional follow-up date and their author.
//! Anyone may add one to a client they can see; only its author or a manager may edit it (spec 5.11).

use crate::auth::session::AuthUser;
use crate::clients::interactions::{self, InteractionCreate, InteractionPatch};
use crate::clients::interactions_store::{self as store, Interaction};
use crate::clients::store as client_store;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;
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

/// Log an interaction with a client; the author is the caller.
#[utoipa::path(post, path = "/api/interactions", tag = "clients", request_body = InteractionCreate,
    responses((status = 201, body = Interaction), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_interaction(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(req): JsonBody<InteractionCreate>,
) -> Result<(StatusCode, Json<Interaction>), AppError> {
    let interaction = state
        .db
        .write(move |tx| interactions::create_in(tx, &user, req))
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
    let changes = interactions::patch_changes(req)?;
    let interaction = state
        .db
        .write(move |tx| interactions::update_in(tx, &user, &id, changes))
        .await?;
    Ok(Json(interaction))
}
