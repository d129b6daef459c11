//! `GET /api/admin/legacy-credentials` (how many there are) and
//! `POST /api/admin/clear-legacy-credentials` (owner, audited with the counts).

use crate::admin::credentials::{self, LegacyCredentials};
use crate::auth::session::Owner;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(legacy_credentials))
        .routes(routes!(clear_legacy_credentials))
}

/// How many credential values are still in the old system's encrypted form (owner).
#[utoipa::path(get, path = "/api/admin/legacy-credentials", tag = "admin",
    responses((status = 200, body = LegacyCredentials), (status = 403, body = ErrorBody)))]
async fn legacy_credentials(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<Json<LegacyCredentials>, AppError> {
    Ok(Json(state.db.read(credentials::count).await?))
}

/// Empties every legacy-encrypted credential value; answers how many were emptied (owner, audited).
#[utoipa::path(post, path = "/api/admin/clear-legacy-credentials", tag = "admin",
    responses((status = 200, body = LegacyCredentials), (status = 403, body = ErrorBody)))]
async fn clear_legacy_credentials(
    State(state): State<AppState>,
    Owner(user): Owner,
) -> Result<Json<LegacyCredentials>, AppError> {
    Ok(Json(
        state.db.write(move |tx| credentials::clear_in(tx, &user)).await?,
    ))
}
