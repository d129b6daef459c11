//! `GET /api/setup` (Auth): what is set up in this office.

use crate::auth::session::AuthUser;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::setup::{self, Setup};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(show_setup))
}

/// Whether public links have an address and mail is set up (everyone signed in), and the
/// owner's first-run checklist (null for others).
#[utoipa::path(get, path = "/api/setup", tag = "settings",
    responses((status = 200, body = Setup), (status = 401, body = ErrorBody)))]
async fn show_setup(State(state): State<AppState>, user: AuthUser) -> Result<Json<Setup>, AppError> {
    let config = state.config.clone();
    Ok(Json(
        state.db.read(move |c| setup::setup(c, &config, &user)).await?,
    ))
}
