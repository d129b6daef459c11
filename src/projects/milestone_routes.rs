//! The handlers of the onboarding checklists: a project's checklist and its ticks, the board,
//! the pending and stalled worklists, the owner's bulk tick and template editor. The milestone
//! routes answer every failure with 400 (spec 4.4, 7).

use crate::auth::session::{AuthUser, Owner};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams};
use crate::projects::checklist_templates;
use crate::projects::milestones::{self, ProjectSettings, ProjectSettingsInput, Stalled, Tick};
use crate::projects::rules::{self, Step};
use crate::projects::store::{self, BoardRow, Milestone, ProjectRow};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_milestones, set_milestone))
        .routes(routes!(board))
        .routes(routes!(pending))
        .routes(routes!(stalled))
        .routes(routes!(bulk_milestone))
        .routes(routes!(get_templates))
        .routes(routes!(put_front))
        .routes(routes!(put_tail))
        .routes(routes!(put_legacy))
        .routes(routes!(get_project_settings, put_project_settings))
}

/// The milestone routes answer every failure with 400 (spec 4.4, 7), keeping the error's code.
fn as_bad_request(mut e: AppError) -> AppError {
    if !matches!(e.status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
        e.status = StatusCode::BAD_REQUEST;
    }
    e
}

#[derive(Serialize, ToSchema)]
pub struct Milestones {
    pub rows: Vec<Milestone>,
}

/// A project's checklist: missing steps are seeded first, then all are listed in order.
#[utoipa::path(get, path = "/api/client-modules/{id}/milestones", tag = "projects", params(("id" = String, Path)),
    responses((status = 200, body = Milestones), (status = 400, description = "Any failure, e.g. an unknown project", body = ErrorBody)))]
async fn list_milestones(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Milestones>, AppError> {
    let rows = state
        .db
        .write(move |tx| milestones::checklist_in(tx, &user, &id))
        .await
        .map_err(as_bad_request)?;
    Ok(Json(Milestones { rows }))
}

/// Tick (done: true) or untick a step. Any failure is a 400.
#[utoipa::path(post, path = "/api/client-modules/{id}/milestones", tag = "projects", request_body = Tick, params(("id" = String, Path)),
    responses((status = 200, body = Milestones), (status = 400, body = ErrorBody)))]
async fn set_milestone(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    body: Result<JsonBody<Tick>, AppError>,
) -> Result<Json<Milestones>, AppError> {
    let JsonBody(tick) = body.map_err(as_bad_request)?;
    let rows = state
        .db
        .write(move |tx| milestones::tick_in(tx, &user, &id, &tick))
        .await
        .map_err(as_bad_request)?;
    Ok(Json(Milestones { rows }))
}

#[derive(Serialize, ToSchema)]
pub struct Board {
    pub rows: Vec<BoardRow>,
}

/// Pending count per step over active projects (staff: their own clients' projects).
#[utoipa::path(get, path = "/api/projects/board", tag = "projects", responses((status = 200, body = Board)))]
async fn board(State(state): State<AppState>, user: AuthUser) -> Result<Json<Board>, AppError> {
    let rows = state
        .db
        .read(move |c| store::board(c, user.book().as_deref()))
        .await?;
    Ok(Json(Board { rows }))
}

/// Active projects still pending the step `key`.
#[utoipa::path(get, path = "/api/projects/pending/{key}", tag = "projects", params(("key" = String, Path), Page),
    responses((status = 200, body = Paginated<ProjectRow>)))]
async fn pending(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(key): IdPath,
    page: Page,
) -> Result<Json<Paginated<ProjectRow>>, AppError> {
    let key = rules::canonical_key(&key).to_string();
    Ok(Json(
        state
            .db
            .read(move |c| store::pending(c, &key, user.book(), &page))
            .await?,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StalledQuery {
    /// Whole days, 0 to 3650 (default: the project.stall_days setting).
    pub days: Option<String>,
}

/// Active projects with nothing ticked for at least `days`.
#[utoipa::path(get, path = "/api/projects/stalled", tag = "projects", params(StalledQuery),
    responses((status = 200, body = Stalled), (status = 400, description = "days not an integer from 0 to 3650", body = ErrorBody)))]
async fn stalled(
    State(state): State<AppState>,
    user: AuthUser,
    QueryParams(q): QueryParams<StalledQuery>,
) -> Result<Json<Stalled>, AppError> {
    let days = q.days.as_deref().map(rules::parse_stall_days).transpose()?;
    let result = state
        .db
        .read(move |c| milestones::stalled(c, user.book().as_deref(), days))
        .await?;
    Ok(Json(result))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkMilestone {
    pub projects: Vec<String>,
    pub key: String,
    #[serde(with = "crate::plumbing::flag")]
    #[schema(value_type = u8)]
    pub done: bool,
    #[serde(rename = "doneOn", alias = "done_on")]
    pub done_on: Option<NaiveDate>,
}

#[derive(Serialize, ToSchema)]
pub struct BulkResult {
    pub updated: usize,
}

/// Tick or untick one step on many projects (owner): all or nothing, one summary audit row.
#[utoipa::path(post, path = "/api/projects/bulk-milestone", tag = "projects", request_body = BulkMilestone,
    responses((status = 200, body = BulkResult), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn bulk_milestone(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(req): JsonBody<BulkMilestone>,
) -> Result<Json<BulkResult>, AppError> {
    let mut ids = req.projects.clone();
    ids.sort();
    ids.dedup();
    if ids.is_empty() || ids.len() > 1000 {
        return Err(AppError::invalid(
            "projects",
            "invalid_projects",
            "Choose 1 to 1000 projects.",
        ));
    }
    let tick = Tick {
        key: req.key.clone(),
        done: req.done,
        done_on: req.done_on,
        payment_id: None,
        document_id: None,
    };
    let updated = state
        .db
        .write(move |tx| milestones::bulk_tick_in(tx, &user, &ids, &tick))
        .await?;
    Ok(Json(BulkResult { updated }))
}

#[derive(Serialize, ToSchema)]
pub struct Templates {
    pub front: Vec<Step>,
    /// Module code to its own tail.
    pub tails: BTreeMap<String, Vec<Step>>,
    pub default_tail: Vec<Step>,
    /// The legacy whole checklist (spec 2.11): the checklist of a module with neither front nor
    /// tail steps, in place of the default tail; null when none is set.
    pub legacy: Option<Vec<Step>>,
}

/// The checklist templates (owner).
#[utoipa::path(get, path = "/api/settings/milestones", tag = "projects", responses((status = 200, body = Templates), (status = 403, body = ErrorBody)))]
async fn get_templates(State(state): State<AppState>, _owner: Owner) -> Result<Json<Templates>, AppError> {
    templates_view(&state).await
}

async fn templates_view(state: &AppState) -> Result<Json<Templates>, AppError> {
    let (front, tails, legacy) = state
        .db
        .read(|c| {
            Ok((
                checklist_templates::front(c)?,
                checklist_templates::tails(c)?,
                checklist_templates::legacy(c)?,
            ))
        })
        .await?;
    Ok(Json(Templates {
        front,
        tails: tails.into_iter().collect(),
        default_tail: rules::default_tail(),
        legacy,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TemplateSteps {
    pub steps: Vec<Step>,
}

/// Replace the shared front list (owner). A key also in any tail is rejected (422).
#[utoipa::path(put, path = "/api/settings/milestones/front", tag = "projects", request_body = TemplateSteps,
    responses((status = 200, body = Templates), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_front(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(req): JsonBody<TemplateSteps>,
) -> Result<Json<Templates>, AppError> {
    state
        .db
        .write(move |tx| checklist_templates::save_front_in(tx, &user, req.steps))
        .await?;
    templates_view(&state).await
}

/// Replace one module's tail (owner). A key also in the front list is rejected (422).
#[utoipa::path(put, path = "/api/settings/milestones/tail/{code}", tag = "projects", request_body = TemplateSteps, params(("code" = String, Path)),
    responses((status = 200, body = Templates), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_tail(
    State(state): State<AppState>,
    Owner(user): Owner,
    IdPath(code): IdPath,
    JsonBody(req): JsonBody<TemplateSteps>,
) -> Result<Json<Templates>, AppError> {
    crate::catalog::rules::check_code(&code)?;
    state
        .db
        .write(move |tx| checklist_templates::save_tail_in(tx, &user, &code, req.steps))
        .await?;
    templates_view(&state).await
}

/// Replace the legacy whole checklist (owner); no steps clears it. It is the checklist of every
/// module with neither front nor tail steps.
#[utoipa::path(put, path = "/api/settings/milestones/legacy", tag = "projects", request_body = TemplateSteps,
    responses((status = 200, body = Templates), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_legacy(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(req): JsonBody<TemplateSteps>,
) -> Result<Json<Templates>, AppError> {
    state
        .db
        .write(move |tx| checklist_templates::save_legacy_in(tx, &user, req.steps))
        .await?;
    templates_view(&state).await
}

/// The project settings in force (everyone): the days without a tick after which an active
/// project is stalled. A settings route, so its refusals are the contract's (422), not the
/// milestone routes' 400.
#[utoipa::path(get, path = "/api/settings/projects", tag = "settings", responses((status = 200, body = ProjectSettings)))]
async fn get_project_settings(
    State(state): State<AppState>,
    _user: AuthUser,
) -> Result<Json<ProjectSettings>, AppError> {
    Ok(Json(state.db.read(milestones::project_settings).await?))
}

/// Change the stall days (owner, audited), in force from today.
#[utoipa::path(put, path = "/api/settings/projects", tag = "settings", request_body = ProjectSettingsInput,
    responses((status = 200, body = ProjectSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_project_settings(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<ProjectSettingsInput>,
) -> Result<Json<ProjectSettings>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| milestones::save_settings_in(tx, &user, input))
            .await?,
    ))
}
