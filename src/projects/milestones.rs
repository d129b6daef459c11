//! The onboarding checklist of each project, the cross-project board, the pending and stalled
//! worklists, the owner's bulk tick, and the owner's template editor.

use crate::AppState;
use crate::auth::session::{AuthUser, Owner};
use crate::book::visible_project;
use crate::db::audit::{Audit, audit};
use crate::db::page::{Page, Paginated};
use crate::db::settings;
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{IdPath, JsonBody, QueryParams};
use crate::projects::checklist_templates;
use crate::projects::rules::{self, Step};
use crate::projects::store::{self, BoardRow, ClientModule, Milestone, ProjectRow};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::types::Value;
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

fn seed(conn: &Connection, cm: &ClientModule) -> Result<(), AppError> {
    store::seed_milestones(
        conn,
        &cm.id,
        &checklist_templates::checklist(conn, &cm.module_code)?,
    )
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
        .write(move |tx| {
            let cm = visible_project(tx, &user, &id)?;
            seed(tx, &cm)?;
            store::milestones(tx, &id)
        })
        .await
        .map_err(as_bad_request)?;
    Ok(Json(Milestones { rows }))
}

#[derive(Deserialize, ToSchema, Clone)]
#[serde(deny_unknown_fields)]
pub struct Tick {
    pub key: String,
    #[serde(with = "crate::flag")]
    #[schema(value_type = u8)]
    pub done: bool,
    /// YYYY-MM-DD, default today; a step ticked with a payment is done on its received_on.
    #[serde(rename = "doneOn", alias = "done_on")]
    pub done_on: Option<NaiveDate>,
    /// A payment of the same client.
    #[serde(rename = "paymentId", alias = "payment_id")]
    pub payment_id: Option<String>,
    /// A document (the quotation) of the same client.
    #[serde(rename = "documentId", alias = "document_id")]
    pub document_id: Option<String>,
}

/// What a tick changed: the step before, and the step after with what it stamped on the project.
struct Ticked {
    before: serde_json::Value,
    after: serde_json::Value,
}

/// Ticks or unticks one step of a project; ticking installed or trained advances the project's
/// status and stamps its date the first time. Must run inside the caller's transaction; the
/// caller audits (one row per tick, or one summary for a bulk tick).
fn apply_tick(tx: &Connection, cm: &ClientModule, tick: &Tick) -> Result<Ticked, AppError> {
    seed(tx, cm)?;
    let key = rules::canonical_key(tick.key.trim()).to_string();
    let steps = store::milestones(tx, &cm.id)?;
    let before = steps.iter().find(|m| m.key == key).cloned().ok_or_else(|| {
        AppError::invalid(
            "key",
            "unknown_step",
            format!("{key} is not a step of this project's checklist."),
        )
    })?;
    for (table, id, field) in [
        ("payment", &tick.payment_id, "paymentId"),
        ("document", &tick.document_id, "documentId"),
    ] {
        if let Some(id) = id {
            match store::belongs_to_client(tx, table, id, &cm.client_id)? {
                Some(true) => {}
                Some(false) => {
                    return Err(AppError::invalid(
                        field,
                        "other_client",
                        format!("No {table} of this client has that id."),
                    ));
                }
                None => {
                    return Err(AppError::invalid(
                        field,
                        "not_available",
                        format!("No {table}s are recorded yet."),
                    ));
                }
            }
        }
    }
    let mut after_cm = serde_json::json!({});
    if tick.done {
        let received_on = match &tick.payment_id {
            Some(payment) => Some(
                store::payment_received_on(tx, payment)?
                    .and_then(|d| NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())
                    .ok_or_else(|| AppError::internal("payment without received_on"))?,
            ),
            None => None,
        };
        let done_on = rules::done_on(tick.done_on, received_on, settings::office_today(tx)?);
        store::set_milestone(
            tx,
            &cm.id,
            &key,
            Some(&done_on.to_string()),
            tick.payment_id.as_deref(),
            tick.document_id.as_deref(),
        )?;
        let stamp = rules::stamp_for_tick(
            &key,
            done_on,
            &cm.status,
            cm.installed_on.as_deref(),
            cm.trained_on.as_deref(),
        );
        let mut changes = vec![];
        if let Some(status) = stamp.status {
            changes.push(("status", Value::Text(status.into())));
            after_cm["status"] = status.into();
        }
        if let Some(d) = stamp.installed_on {
            changes.push(("installed_on", Value::Text(d.to_string())));
            after_cm["installed_on"] = d.to_string().into();
        }
        if let Some(d) = stamp.trained_on {
            changes.push(("trained_on", Value::Text(d.to_string())));
            after_cm["trained_on"] = d.to_string().into();
        }
        store::update(tx, &cm.id, changes)?;
    } else {
        store::set_milestone(tx, &cm.id, &key, None, None, None)?;
    }
    let after = store::milestones(tx, &cm.id)?.into_iter().find(|m| m.key == key);
    let mut after_image = serde_json::to_value(&after)?;
    if let (Some(image), Some(stamped)) = (after_image.as_object_mut(), after_cm.as_object()) {
        image.extend(stamped.clone());
    }
    Ok(Ticked {
        before: serde_json::to_value(&before)?,
        after: after_image,
    })
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
        .write(move |tx| {
            let cm = visible_project(tx, &user, &id)?;
            let ticked = apply_tick(tx, &cm, &tick)?;
            audit(
                tx,
                Audit {
                    entity: "client_module",
                    entity_id: Some(&cm.id),
                    action: if tick.done {
                        "milestone_tick"
                    } else {
                        "milestone_untick"
                    },
                    user_id: Some(&user.id),
                    before: Some(ticked.before),
                    after: Some(ticked.after),
                },
            )?;
            store::milestones(tx, &id)
        })
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

#[derive(Serialize, ToSchema)]
pub struct StalledProject {
    #[serde(flatten)]
    pub project: ProjectRow,
    /// The latest ticked step's date, else the creation date.
    pub last_activity: String,
    pub age_days: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Stalled {
    pub ok: bool,
    /// Oldest activity first.
    pub projects: Vec<StalledProject>,
    /// Projects with neither a ticked step nor a creation date: their age is unknown.
    #[serde(rename = "unknownAgeExcluded")]
    pub unknown_age_excluded: i64,
    pub total: i64,
    pub days: i64,
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
        .read(move |c| {
            let today = settings::office_today(c)?;
            let days = match days {
                Some(d) => d,
                None => settings::int(c, &settings::PROJECT_STALL_DAYS, today)?,
            };
            let mut projects = vec![];
            let mut unknown = 0;
            for (project, last) in store::open_projects_with_activity(c, user.book().as_deref())? {
                let Some(last) = last.and_then(|d| NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok()) else {
                    unknown += 1;
                    continue;
                };
                let age = rules::age_days(last, today);
                if age >= days {
                    projects.push(StalledProject {
                        project,
                        last_activity: last.to_string(),
                        age_days: age,
                    });
                }
            }
            projects.sort_by_key(|p| std::cmp::Reverse(p.age_days));
            let total = projects.len() as i64;
            Ok(Stalled {
                ok: true,
                projects,
                unknown_age_excluded: unknown,
                total,
                days,
            })
        })
        .await?;
    Ok(Json(result))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkMilestone {
    pub projects: Vec<String>,
    pub key: String,
    #[serde(with = "crate::flag")]
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
        .write(move |tx| {
            for id in &ids {
                let cm = store::get(tx, id, None)?
                    .ok_or_else(|| AppError::invalid("projects", "unknown_project", format!("No project has the id {id}; nothing was changed.")))?;
                apply_tick(tx, &cm, &tick)?;
            }
            let summary = serde_json::json!({ "projects": ids, "key": tick.key, "done": tick.done, "updated": ids.len() });
            audit(tx, Audit { entity: "client_module", entity_id: None, action: "bulk_milestone", user_id: Some(&user.id), before: None, after: Some(summary) })?;
            Ok(ids.len())
        })
        .await?;
    Ok(Json(BulkResult { updated }))
}

#[derive(Serialize, ToSchema)]
pub struct Templates {
    pub front: Vec<Step>,
    /// Module code to its own tail.
    pub tails: BTreeMap<String, Vec<Step>>,
    pub default_tail: Vec<Step>,
}

/// The checklist templates (owner).
#[utoipa::path(get, path = "/api/settings/milestones", tag = "projects", responses((status = 200, body = Templates), (status = 403, body = ErrorBody)))]
async fn get_templates(State(state): State<AppState>, _owner: Owner) -> Result<Json<Templates>, AppError> {
    templates_view(&state).await
}

async fn templates_view(state: &AppState) -> Result<Json<Templates>, AppError> {
    let (front, tails) = state
        .db
        .read(|c| Ok((checklist_templates::front(c)?, checklist_templates::tails(c)?)))
        .await?;
    Ok(Json(Templates {
        front,
        tails: tails.into_iter().collect(),
        default_tail: rules::default_tail(),
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TemplateSteps {
    pub steps: Vec<Step>,
}

fn save_template(
    tx: &Connection,
    user: &AuthUser,
    key: &str,
    before: Option<Vec<Step>>,
    steps: &[Step],
) -> Result<(), AppError> {
    let value = serde_json::to_value(steps)?;
    settings::set(tx, key, &value, settings::office_today(tx)?, Some(&user.id))?;
    audit(
        tx,
        Audit {
            entity: "setting",
            entity_id: Some(key),
            action: "update",
            user_id: Some(&user.id),
            before: Some(serde_json::to_value(before)?),
            after: Some(value),
        },
    )
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
        .write(move |tx| {
            let steps = rules::check_template(req.steps, &checklist_templates::all_tail_keys(tx)?)?;
            save_template(
                tx,
                &user,
                checklist_templates::FRONT_KEY,
                Some(checklist_templates::front(tx)?),
                &steps,
            )
        })
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
        .write(move |tx| {
            let front_keys: Vec<String> = checklist_templates::front(tx)?
                .into_iter()
                .map(|s| s.key)
                .collect();
            let steps = rules::check_template(req.steps, &front_keys)?;
            let before = checklist_templates::tail(tx, &code)?;
            save_template(
                tx,
                &user,
                &format!("{}{code}", checklist_templates::TAIL_PREFIX),
                before,
                &steps,
            )
        })
        .await?;
    templates_view(&state).await
}
