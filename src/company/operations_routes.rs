//! `GET/PUT /api/settings/operations` (owner, audited).

use crate::auth::session::Owner;
use crate::company::operations::{self, Operations};
use crate::company::operations_rules::{self, OperationsInput};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::JsonBody;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_operations, put_operations))
}

/// The operations settings in force today (owner): `sms.balance_api_url`,
/// `sms.low_balance_threshold`, `ticket.sla_days`, with the day each took effect.
#[utoipa::path(get, path = "/api/settings/operations", tag = "settings",
    responses((status = 200, body = Operations), (status = 403, body = ErrorBody)))]
async fn get_operations(State(state): State<AppState>, _owner: Owner) -> Result<Json<Operations>, AppError> {
    Ok(Json(state.db.read(operations::read).await?))
}

/// Change the operations settings (owner, each change audited, in force from today): refused
/// whole, writing nothing, when any value is invalid, each fault naming its key; the gateway's
/// address is checked against request forgery before it is stored.
#[utoipa::path(put, path = "/api/settings/operations", tag = "settings", request_body = OperationsInput,
    responses((status = 200, body = Operations), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_operations(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<OperationsInput>,
) -> Result<Json<Operations>, AppError> {
    let allow_private = state.config.allow_private_targets;
    let change = tokio::task::spawn_blocking(move || operations_rules::check(input, allow_private))
        .await
        .map_err(AppError::internal)??;
    let saved = state
        .db
        .write(move |tx| operations::save_in(tx, &user, change))
        .await?;
    Ok(Json(saved))
}
