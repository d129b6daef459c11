//! The jobs page's API (owner): each job's last and next run, and the daily scan run now.

use crate::auth::session::Owner;
use crate::jobs::{self, AUTO_SEND_DRAIN, DAILY_SCAN, JOBS, store};
use crate::plumbing::clock;
use crate::plumbing::db::settings;
use crate::plumbing::error::Warning;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_jobs))
        .routes(routes!(daily_scan))
        .routes(routes!(run_job_now))
}

/// A scheduled job as the jobs page shows it (decisions 11).
#[derive(Serialize, ToSchema)]
pub struct JobRow {
    pub job: String,
    /// The office day the last run was for.
    pub last_as_of: Option<String>,
    pub last_started: Option<String>,
    pub last_finished: Option<String>,
    /// running, ok or failed.
    pub last_outcome: Option<String>,
    /// The error of the latest failed run, if any.
    pub last_error: Option<String>,
    /// When the scheduler will next run it (UTC).
    pub next_run: String,
    /// Whether the owner may run it now.
    pub run_now: bool,
}

#[derive(Serialize, ToSchema)]
pub struct JobList {
    pub rows: Vec<JobRow>,
}

/// Each job's last run, last error and next run (owner).
#[utoipa::path(get, path = "/api/jobs", tag = "jobs",
    responses((status = 200, body = JobList), (status = 403, body = ErrorBody)))]
async fn list_jobs(State(state): State<AppState>, _owner: Owner) -> Result<Json<JobList>, AppError> {
    let rows = state
        .db
        .read(|c| {
            let offset = settings::office_offset(c)?;
            let today = clock::office_today(offset);
            let now = clock::now();
            JOBS.iter()
                .map(|job| {
                    let last = store::last(c, job.name)?;
                    // Done for today: the first tick of tomorrow; else the next tick.
                    let next = if store::done_for(c, job.name, today)? {
                        let tomorrow = today.checked_add_days(Days::new(1)).unwrap_or(today);
                        let midnight =
                            clock::parse_timestamp(&clock::office_day_start(tomorrow, offset)).unwrap_or(now);
                        jobs::next_tick(midnight, offset)
                    } else {
                        jobs::next_tick(now, offset)
                    };
                    Ok(JobRow {
                        job: job.name.to_string(),
                        last_as_of: last.as_ref().and_then(|l| l.as_of.clone()),
                        last_started: last.as_ref().map(|l| l.started_at.clone()),
                        last_finished: last.as_ref().and_then(|l| l.finished_at.clone()),
                        last_outcome: last.as_ref().map(|l| l.outcome.clone()),
                        last_error: store::last_error(c, job.name)?,
                        next_run: clock::timestamp(next),
                        run_now: job.run_now,
                    })
                })
                .collect::<Result<Vec<_>, AppError>>()
        })
        .await?;
    Ok(Json(JobList { rows }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScanInput {
    /// The office day to scan for (default today).
    pub as_of: Option<NaiveDate>,
}

/// The answer of the daily scan run now (decisions 11): what the scan raised and what the
/// auto-send drain run after it sent.
#[derive(Serialize, ToSchema)]
pub struct ScanOutcome {
    pub as_of: Option<NaiveDate>,
    /// Reminders raised, by kind (every kind present, 0 when none).
    pub created: BTreeMap<String, i64>,
    /// Reminders the drain sent, and those it could not send.
    pub sent: i64,
    pub failed: i64,
    /// What went wrong on the side without failing the run (bounces_unread).
    pub warnings: Vec<Warning>,
}

/// The job `name` the owner may run now, or 404.
fn job(name: &str) -> Result<&'static jobs::Job, AppError> {
    JOBS.iter()
        .find(|j| j.name == name && j.run_now)
        .ok_or_else(|| AppError::not_found("job"))
}

/// Runs the job `name` now for `as_of` (default the office's today), recorded as a run like a
/// scheduled one; answers its counts when it is done. The daily scan is followed by the
/// auto-send drain (its own recorded run), and answers the scan's counts with the drain's
/// `sent` and `failed`, as it did when the drain was part of it.
async fn run_now(
    state: AppState,
    name: String,
    as_of: Option<NaiveDate>,
) -> Result<serde_json::Value, AppError> {
    let chosen = job(&name)?;
    tokio::task::spawn_blocking(move || {
        let as_of = match as_of {
            Some(day) => day,
            None => state.db.read_blocking(settings::office_today)?,
        };
        let mut counts = jobs::run_job(&state, chosen, as_of)?;
        if chosen.name == DAILY_SCAN {
            let drained = jobs::run_job(&state, job(AUTO_SEND_DRAIN)?, as_of)?;
            for key in ["sent", "failed"] {
                counts[key] = drained[key].clone();
            }
        }
        Ok(counts)
    })
    .await
    .map_err(|e| AppError::internal(format!("the job task: {e}")))?
}

/// Run the daily scan now (owner) and answer, when it is done, what it raised and what the
/// auto-send drain sent (recorded as a run of the job like a scheduled one).
#[utoipa::path(post, path = "/api/jobs/daily-scan", tag = "jobs", request_body = ScanInput,
    responses((status = 200, body = ScanOutcome), (status = 403, body = ErrorBody)))]
async fn daily_scan(
    State(state): State<AppState>,
    _owner: Owner,
    JsonBody(req): JsonBody<ScanInput>,
) -> Result<Json<serde_json::Value>, AppError> {
    Ok(Json(run_now(state, DAILY_SCAN.into(), req.as_of).await?))
}

/// Run any job the jobs page offers now (owner): `daily_scan` (with the drain after it, as
/// `POST /api/jobs/daily-scan`), `recurring_generation`, `auto_send_drain`, `sms_balance_pass`
/// or `cloud_cost_pull`; answers its counts when it is done.
#[utoipa::path(post, path = "/api/jobs/{job}/run", tag = "jobs", params(("job" = String, Path)), request_body = ScanInput,
    responses((status = 200, body = Object), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn run_job_now(
    State(state): State<AppState>,
    _owner: Owner,
    IdPath(name): IdPath,
    JsonBody(req): JsonBody<ScanInput>,
) -> Result<Json<serde_json::Value>, AppError> {
    Ok(Json(run_now(state, name, req.as_of).await?))
}
