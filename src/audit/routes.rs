//! `GET /api/audit` and its facets (owner). Reading the trail writes no audit row.

use crate::AppState;
use crate::audit::store::{self, AuditFilter, AuditRow, Facets};
use crate::auth::session::Owner;
use crate::clock;
use crate::db::page::{Page, Paginated};
use crate::db::settings;
use crate::error::{AppError, ErrorBody};
use crate::http::extract::QueryParams;
use axum::Json;
use axum::extract::State;
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_audit))
        .routes(routes!(audit_facets))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    pub entity: Option<String>,
    pub action: Option<String>,
    pub user_id: Option<String>,
    pub entity_id: Option<String>,
    /// First office day, inclusive (YYYY-MM-DD).
    pub from: Option<NaiveDate>,
    /// Last office day, inclusive (YYYY-MM-DD).
    pub to: Option<NaiveDate>,
}

/// The audit trail, newest first, with before and after images (owner).
#[utoipa::path(get, path = "/api/audit", tag = "audit", params(Page, AuditQuery),
    responses((status = 200, body = Paginated<AuditRow>), (status = 403, body = ErrorBody)))]
async fn list_audit(
    State(state): State<AppState>,
    _owner: Owner,
    page: Page,
    QueryParams(q): QueryParams<AuditQuery>,
) -> Result<Json<Paginated<AuditRow>>, AppError> {
    let rows = state
        .db
        .read(move |c| {
            let (from, to) = clock::office_days(q.from, q.to, settings::office_offset(c)?);
            let filter = AuditFilter {
                entity: q.entity,
                action: q.action,
                user_id: q.user_id,
                entity_id: q.entity_id,
                from,
                to,
            };
            store::list(c, filter, &page)
        })
        .await?;
    Ok(Json(rows))
}

/// The values present for each audit filter (owner).
#[utoipa::path(get, path = "/api/audit/facets", tag = "audit",
    responses((status = 200, body = Facets), (status = 403, body = ErrorBody)))]
async fn audit_facets(State(state): State<AppState>, _owner: Owner) -> Result<Json<Facets>, AppError> {
    Ok(Json(state.db.read(store::facets).await?))
}
