//! `GET /api/audit` and its facets (owner). Reading the trail writes no audit row.

use crate::audit::store::{self, AuditFilter, AuditRow, Facets};
use crate::auth::session::Owner;
use crate::plumbing::clock;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::QueryParams;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_audit))
        .routes(routes!(audit_csv))
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
        .read(move |c| store::page(c, q.filter(c)?, &page))
        .await?;
    Ok(Json(rows))
}

impl AuditQuery {
    /// The dates are office days; the stored times are UTC.
    fn filter(self, c: &rusqlite::Connection) -> Result<AuditFilter, AppError> {
        let (from, to) = clock::office_days(self.from, self.to, settings::office_offset(c)?);
        Ok(AuditFilter {
            entity: self.entity,
            action: self.action,
            user_id: self.user_id,
            entity_id: self.entity_id,
            from,
            to,
        })
    }
}

const AUDIT_CSV: &[&str] = &[
    "Time",
    "User",
    "Entity",
    "Record",
    "Action",
    "Entity id",
    "Before",
    "After",
];

fn audit_cells(r: &AuditRow) -> Vec<String> {
    let image = |v: &Option<serde_json::Value>| v.as_ref().map(|v| v.to_string()).unwrap_or_default();
    vec![
        r.at.clone(),
        r.user_name.clone().unwrap_or_default(),
        r.entity.clone(),
        r.entity_label.clone().unwrap_or_default(),
        r.action.clone(),
        r.entity_id.clone().unwrap_or_default(),
        image(&r.before),
        image(&r.after),
    ]
}

/// Every audit row the viewer's filters and sort select, as CSV (owner).
#[utoipa::path(get, path = "/api/audit.csv", tag = "audit", params(Page, AuditQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered trail"),
              (status = 403, body = ErrorBody)))]
async fn audit_csv(
    State(state): State<AppState>,
    _owner: Owner,
    page: Page,
    QueryParams(q): QueryParams<AuditQuery>,
) -> Result<Response, AppError> {
    let list = move |c: &rusqlite::Connection| q.filter(c).map(store::labelled);
    csv::stream(
        &state.db,
        "audit.csv".into(),
        AUDIT_CSV,
        page.sort,
        list,
        audit_cells,
    )
    .await
}

/// The values present for each audit filter (owner).
#[utoipa::path(get, path = "/api/audit/facets", tag = "audit",
    responses((status = 200, body = Facets), (status = 403, body = ErrorBody)))]
async fn audit_facets(State(state): State<AppState>, _owner: Owner) -> Result<Json<Facets>, AppError> {
    Ok(Json(state.db.read(store::facets).await?))
}
