//! `GET /api/dashboard` (decisions 5): the signed-in user's home page.

use super::home::{self as dashboard, Dashboard};
use crate::auth::session::AuthUser;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::QueryParams;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(show_dashboard))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DashboardQuery {
    /// 1: an owner's or manager's own book (the clients they own); staff always see theirs.
    pub mine: Option<u8>,
}

/// What needs the user today, each tile the count of the list behind it.
#[utoipa::path(get, path = "/api/dashboard", tag = "reports", params(DashboardQuery),
    responses((status = 200, body = Dashboard), (status = 400, body = ErrorBody)))]
async fn show_dashboard(
    State(state): State<AppState>,
    user: AuthUser,
    QueryParams(q): QueryParams<DashboardQuery>,
) -> Result<Json<Dashboard>, AppError> {
    let book = user
        .book()
        .or_else(|| (q.mine == Some(1)).then(|| user.id.clone()));
    Ok(Json(state.db.read(move |c| dashboard::dashboard(c, book)).await?))
}
