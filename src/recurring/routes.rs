//! `GET, POST /api/recurring-plans`, `GET, PATCH /api/recurring-plans/{id}`, the CSV twin and
//! `POST /api/recurring-plans/{id}/retry` (decisions 5; owner only).

use crate::auth::session::Owner;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams, query_choice};
use crate::recurring::store::{self, Plan, PlanFilter};
use crate::recurring::{self, PlanInput, PlanReply, generate};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_plans, create_plan))
        .routes(routes!(plans_csv))
        .routes(routes!(get_plan, patch_plan))
        .routes(routes!(retry))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlanQuery {
    pub client_id: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
    /// 1 active, 0 switched off.
    pub active: Option<String>,
    /// 1 parked (waiting for a retry), 0 not parked.
    pub parked: Option<String>,
}

impl PlanQuery {
    fn filter(self) -> Result<PlanFilter, AppError> {
        query_choice("active", &self.active, &["0", "1"])?;
        query_choice("parked", &self.parked, &["0", "1"])?;
        Ok(PlanFilter {
            client_id: self.client_id,
            q: self.q,
            active: self.active.map(|a| i64::from(a == "1")),
            parked: self.parked.map(|p| p == "1"),
        })
    }
}

/// Recurring plans, newest first (owner). Sort by client_name, interval, next_run, active,
/// parked_at or created_at.
#[utoipa::path(get, path = "/api/recurring-plans", tag = "recurring plans", params(Page, PlanQuery),
    responses((status = 200, body = Paginated<Plan>), (status = 403, body = ErrorBody)))]
async fn list_plans(
    State(state): State<AppState>,
    _owner: Owner,
    page: Page,
    QueryParams(q): QueryParams<PlanQuery>,
) -> Result<Json<Paginated<Plan>>, AppError> {
    let filter = q.filter()?;
    Ok(Json(
        state.db.read(move |c| store::list(filter).page(c, &page)).await?,
    ))
}

const PLAN_CSV: &[&str] = &[
    "Client",
    "Interval",
    "Next run",
    "Active",
    "Lines",
    "Last invoice",
    "Parked at",
    "Parked reason",
];

fn plan_cells(p: &Plan) -> Vec<String> {
    vec![
        p.client_name.clone(),
        p.interval.clone(),
        p.next_run.clone(),
        if p.active { "yes" } else { "no" }.into(),
        p.lines.len().to_string(),
        p.last_doc_no.clone().unwrap_or_default(),
        p.parked_at.clone().unwrap_or_default(),
        p.parked_reason.clone().unwrap_or_default(),
    ]
}

/// Every plan the list's filters and sort select, as CSV (owner).
#[utoipa::path(get, path = "/api/recurring-plans.csv", tag = "recurring plans", params(Page, PlanQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list"), (status = 403, body = ErrorBody)))]
async fn plans_csv(
    State(state): State<AppState>,
    _owner: Owner,
    page: Page,
    QueryParams(q): QueryParams<PlanQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter()?;
    csv::stream(
        &state.db,
        "recurring-plans.csv".into(),
        PLAN_CSV,
        page.sort,
        move |_| Ok(store::list(filter)),
        plan_cells,
    )
    .await
}

/// One recurring plan (owner).
#[utoipa::path(get, path = "/api/recurring-plans/{id}", tag = "recurring plans", params(("id" = String, Path)),
    responses((status = 200, body = Plan), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_plan(
    State(state): State<AppState>,
    _owner: Owner,
    IdPath(id): IdPath,
) -> Result<Json<Plan>, AppError> {
    Ok(Json(state.db.read(move |c| recurring::plan(c, &id)).await?))
}

/// Set up a recurring plan (owner), audited; its lines are checked as a draft's, priced on its
/// first run; every invalid field is named at once.
#[utoipa::path(post, path = "/api/recurring-plans", tag = "recurring plans", request_body = PlanInput,
    responses((status = 201, body = PlanReply), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_plan(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<PlanInput>,
) -> Result<(StatusCode, Json<PlanReply>), AppError> {
    let created = state
        .db
        .write(move |tx| recurring::create_in(tx, &user, &input))
        .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Change a plan's fields (owner), audited; absent fields stay. A parked plan stays parked until
/// a retry.
#[utoipa::path(patch, path = "/api/recurring-plans/{id}", tag = "recurring plans", params(("id" = String, Path)), request_body = PlanInput,
    responses((status = 200, body = PlanReply), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn patch_plan(
    State(state): State<AppState>,
    Owner(user): Owner,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<PlanInput>,
) -> Result<Json<PlanReply>, AppError> {
    let updated = state
        .db
        .write(move |tx| recurring::update_in(tx, &user, &id, &input))
        .await?;
    Ok(Json(updated))
}

/// Retry a parked plan now (owner; body `{}`): the park is cleared and the invoices due today
/// are issued. If the generation fails again the plan stays parked with the new reason (409
/// `generate_failed` naming it) and nothing else is written.
#[utoipa::path(post, path = "/api/recurring-plans/{id}/retry", tag = "recurring plans", params(("id" = String, Path)),
    responses((status = 200, body = Plan), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "Not parked, switched off, or parked again (generate_failed, with the reason)", body = ErrorBody)))]
async fn retry(
    State(state): State<AppState>,
    Owner(user): Owner,
    IdPath(id): IdPath,
) -> Result<Json<Plan>, AppError> {
    let plan = tokio::task::spawn_blocking(move || generate::retry(&state, &user, &id))
        .await
        .map_err(AppError::internal)??;
    Ok(Json(plan))
}
