//! The recurring generation (spec 6.3): each active plan whose next run has come gets its
//! invoices, one issued INVOICE per period due, oldest first, dated the day of the run.
//!
//! Each period is one write transaction through the one write path: the draft made by the
//! documents area's own operation from the plan's lines, issued (its number taken in that same
//! transaction), the plan's next run moved on and the run audited `generated`. Each plan is its
//! own failure boundary: when a period fails (an error, a panic) its transaction rolls back, the
//! plan is parked in a separate write (`parked_reason` the error's sentence, audited
//! `generate_failed`) and the run goes on with the next plan. A parked plan waits for a retry.
//!
//! The invoices are issued in the name of the plan's creator (`created_by`), with an owner's
//! reach (plans are the owner's), so the document trail names who set the billing up.

use crate::auth::Role;
use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::documents::drafts::{self, DocumentInput, NewDraft};
use crate::documents::numbering;
use crate::documents::store::Document;
use crate::plumbing::clock;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::db::{Db, settings};
use crate::plumbing::error::AppError;
use crate::recurring::parking::{park_in, unpark_in};
use crate::recurring::plans::plan;
use crate::recurring::rules;
use crate::recurring::store::{self, Plan};
use crate::staff::store as staff_store;
use crate::state::AppState;
use axum::http::StatusCode;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What a generation run did (the job's counts).
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
pub struct GenerationOutcome {
    pub as_of: Option<NaiveDate>,
    /// Invoices issued.
    pub generated: i64,
    /// Plans parked by this run.
    pub parked: i64,
    /// Plans due but parked before the run: they wait for a retry.
    pub skipped: i64,
    /// Plans with periods still due after this run's 12: they go on at the next run.
    pub carried_over: i64,
}

/// Runs the generation for `as_of`: every plan due, each in its own failure boundary.
pub fn run(state: &AppState, as_of: NaiveDate) -> Result<GenerationOutcome, AppError> {
    let db = &state.db;
    let due = db.read_blocking(|c| store::due(c, as_of))?;
    let mut outcome = GenerationOutcome {
        as_of: Some(as_of),
        skipped: db.read_blocking(|c| store::parked_due(c, as_of))?,
        ..Default::default()
    };
    for id in due {
        let run = periods(db, &id, as_of, None, 0);
        outcome.generated += run.generated;
        if run.failure.is_some() {
            outcome.parked += 1;
        } else if run.more {
            outcome.carried_over += 1;
        }
    }
    Ok(outcome)
}

/// What one plan's run did.
#[derive(Default)]
struct PlanRun {
    generated: i64,
    /// The error that parked the plan.
    failure: Option<AppError>,
    /// Whether periods are still due after the most one run issues.
    more: bool,
}

/// Runs `work`, a panic becoming an internal error (the plan's failure boundary).
fn guarded<T>(work: impl FnOnce() -> Result<T, AppError>) -> Result<T, AppError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        Err(AppError::internal(format!("panic: {what}")))
    })
}

/// Issues the periods of plan `id` due on `as_of`, each in its own write, after the `done`
/// issued already; a failing one parks the plan (by `by`, None: the job) and ends its run.
fn periods(db: &Db, id: &str, as_of: NaiveDate, by: Option<&str>, done: usize) -> PlanRun {
    let mut run = PlanRun::default();
    for _ in done..rules::MAX_PERIODS_PER_RUN {
        match guarded(|| db.write_blocking(|tx| period_in(tx, id, as_of))) {
            Ok(Some(_)) => run.generated += 1,
            Ok(None) => return run,
            Err(e) => {
                park(db, id, &e, by);
                run.failure = Some(e);
                return run;
            }
        }
    }
    run.more = db
        .read_blocking(|c| store::get(c, id))
        .ok()
        .flatten()
        .is_some_and(|p| is_due(&p, as_of));
    run
}

/// Parks plan `id` for `error`, in a write of its own (the failed period rolled back).
fn park(db: &Db, id: &str, error: &AppError, by: Option<&str>) {
    if error.status.is_server_error() {
        tracing::error!(plan = id, error = %error, "recurring plan: generation failed");
    }
    let reason = rules::park_reason(&error.message, error.field.as_deref());
    if let Err(e) = db.write_blocking(|tx| park_in(tx, id, &reason, by)) {
        tracing::error!(plan = id, error = %e, "recurring plan: cannot park");
    }
}

fn is_due(plan: &Plan, as_of: NaiveDate) -> bool {
    plan.active && plan.parked_at.is_none() && clock::date(&plan.next_run).is_some_and(|d| d <= as_of)
}

/// Who issues a plan's invoices: its creator, with an owner's reach.
fn issuer(conn: &Connection, plan: &Plan) -> Result<AuthUser, AppError> {
    let creator = match &plan.created_by {
        Some(id) => staff_store::get(conn, id)?,
        None => None,
    };
    let creator = creator.ok_or_else(|| {
        AppError::conflict(
            "no_issuer",
            "The plan has no creator to issue its invoices in the name of.",
        )
    })?;
    Ok(AuthUser {
        id: creator.id,
        role: Role::Owner,
        session_id: String::new(),
    })
}

/// Issues the plan's next period if it is due on `as_of`, inside the caller's transaction: the
/// INVOICE draft of its lines dated `as_of`, issued, and the plan moved to its next run. None
/// when nothing is due (not active, parked, or its next run still ahead).
pub fn period_in(tx: &Connection, id: &str, as_of: NaiveDate) -> Result<Option<Document>, AppError> {
    let before = plan(tx, id)?;
    if !is_due(&before, as_of) {
        return Ok(None);
    }
    let run_on =
        clock::date(&before.next_run).ok_or_else(|| AppError::internal("a plan's next_run is not a date"))?;
    let issuer = issuer(tx, &before)?;
    let client =
        client_store::get(tx, &before.client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    rules::check_billable(&client.name, &client.status)?;
    let next = rules::advance(run_on, &before.interval, before.run_day)
        .ok_or_else(|| AppError::internal("a plan's next run cannot be computed"))?;
    let period_to = next.pred_opt().unwrap_or(next);
    let draft = NewDraft::check(DocumentInput {
        doc_type: Some("INVOICE".into()),
        client_id: Some(before.client_id.clone()),
        doc_date: Some(Some(as_of)),
        notes: Some(rules::period_note(run_on, period_to)),
        lines: Some(before.lines.clone()),
        ..Default::default()
    })?;
    let draft = drafts::create_in(tx, &issuer, draft)?;
    let issued = numbering::issue_in(tx, &issuer, &draft.document.id)?;
    store::record_run(tx, id, next, &issued.id)?;
    audit(
        tx,
        Audit {
            entity: "recurring_plan",
            entity_id: Some(id),
            action: "generated",
            user_id: Some(&issuer.id),
            before: Some(
                serde_json::json!({ "next_run": before.next_run, "last_invoice_id": before.last_invoice_id }),
            ),
            after: Some(serde_json::json!({
                "next_run": next.to_string(),
                "last_invoice_id": issued.id,
                "docNo": issued.doc_no,
                "total": issued.total,
                "period_from": run_on.to_string(),
                "period_to": period_to.to_string(),
            })),
        },
    )?;
    Ok(Some(issued))
}

/// Retries a parked plan now, for the office's today (owner): the park is cleared (audited
/// `retried`) and the periods due are issued. When the first fails, nothing of the retry is
/// kept and the plan is parked again with the new reason (409 `generate_failed` naming it);
/// a plan that is not parked or not active is refused, writing nothing. Answers the plan.
pub fn retry(state: &AppState, user: &AuthUser, id: &str) -> Result<Plan, AppError> {
    let db = &state.db;
    let today = db.read_blocking(settings::office_today)?;
    let mut cleared = false;
    let first = guarded(|| {
        db.write_blocking(|tx| {
            unpark_in(tx, user, id)?;
            cleared = true;
            period_in(tx, id, today)
        })
    });
    let failure = match first {
        Ok(None) => None,
        Ok(Some(_)) => periods(db, id, today, Some(&user.id), 1).failure,
        Err(refused) if !cleared => return Err(refused),
        Err(e) => {
            park(db, id, &e, Some(&user.id));
            Some(e)
        }
    };
    match failure {
        None => db.read_blocking(|c| plan(c, id)),
        Some(e) => {
            let mut error = AppError::new(
                StatusCode::CONFLICT,
                "generate_failed",
                format!(
                    "The invoice could not be issued, so the plan is parked again: {}",
                    rules::park_reason(&e.message, e.field.as_deref())
                ),
            );
            error.field = e.field.clone();
            Err(error)
        }
    }
}
