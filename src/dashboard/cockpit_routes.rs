//! `GET /api/reports/mis` (spec 4.7): the owner's cockpit.

use super::cockpit::{self, Mis};
use crate::auth::session::Owner;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(show_mis))
}

/// This month against last month for billed and collections, what is owed, the open pipeline,
/// renewals due in 30 days, tickets, the reminder queue and low SMS balances, with 12-month
/// series where the past is kept.
#[utoipa::path(get, path = "/api/reports/mis", tag = "reports",
    responses((status = 200, body = Mis), (status = 403, description = "Not the owner", body = ErrorBody)))]
async fn show_mis(State(state): State<AppState>, _owner: Owner) -> Result<Json<Mis>, AppError> {
    Ok(Json(state.db.read(cockpit::mis).await?))
}
