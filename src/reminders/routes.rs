//! The reminder queue (spec 4.6, decisions 5, 9) and the reminder schedule (decisions 11).

use crate::auth::session::{AuthUser, Owner};
use crate::documents::delivery::EmailOutcome;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams, query_choice};
use crate::reminders::rules::{self, DaysAfter, DaysBefore, QuoteLadder, Schedule};
use crate::reminders::schedule::{self, Dated};
use crate::reminders::send::{self, Preview};
use crate::reminders::store::{self, Reminder, ReminderFilter};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_reminders))
        .routes(routes!(reminders_csv))
        .routes(routes!(open_count))
        .routes(routes!(get_reminder))
        .routes(routes!(preview))
        .routes(routes!(send))
        .routes(routes!(dismiss))
        .routes(routes!(bulk_dismiss))
        .routes(routes!(get_schedule, put_schedule))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReminderQuery {
    /// open, sent, dismissed or failed.
    pub status: Option<String>,
    /// renewal_due, amc_expiring, invoice_overdue, quote_followup, follow_up, email_bounced or
    /// tds_certificate_due.
    pub rule_kind: Option<String>,
    /// One person's reminders (owner and manager; staff see their share whatever is asked).
    pub owner_id: Option<String>,
    pub client_id: Option<String>,
}

/// The reminder queue, newest first: staff see the reminders whose derived owner they are (the
/// document's creator) and those without a document (shared work); owner and manager see all.
/// Sort by due_on, rule_kind, client_name, status, owner_name or created_at.
#[utoipa::path(get, path = "/api/reminders", tag = "reminders", params(Page, ReminderQuery),
    responses((status = 200, body = Paginated<Reminder>)))]
async fn list_reminders(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ReminderQuery>,
) -> Result<Json<Paginated<Reminder>>, AppError> {
    let filter = q.filter(&user)?;
    let rows = state
        .db
        .read(move |c| store::list(filter, store::Reading::now(c)?).page(c, &page))
        .await?;
    Ok(Json(rows))
}

impl ReminderQuery {
    fn filter(self, user: &AuthUser) -> Result<ReminderFilter, AppError> {
        query_choice("status", &self.status, rules::STATUSES)?;
        query_choice("rule_kind", &self.rule_kind, rules::KINDS)?;
        Ok(ReminderFilter {
            status: self.status,
            rule_kind: self.rule_kind,
            owner_id: self.owner_id,
            client_id: self.client_id,
            book: user.book(),
        })
    }
}

const REMINDER_CSV: &[&str] = &[
    "Due on",
    "Kind",
    "Client",
    "Document",
    "Owner",
    "Status",
    "Summary",
    "Raised on",
    "Reason when raised",
];

fn reminder_cells(r: &Reminder) -> Vec<String> {
    vec![
        r.due_on.clone(),
        r.rule_kind.clone(),
        r.client_name.clone(),
        r.doc_no.clone().unwrap_or_default(),
        r.owner_name.clone().unwrap_or_default(),
        r.status.clone(),
        r.summary.clone(),
        r.raised_on.clone(),
        r.reason.clone(),
    ]
}

/// Every reminder of the caller's share the queue's filters and sort select, as CSV.
#[utoipa::path(get, path = "/api/reminders.csv", tag = "reminders", params(Page, ReminderQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered queue")))]
async fn reminders_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ReminderQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user)?;
    csv::stream(
        &state.db,
        "reminders.csv".into(),
        REMINDER_CSV,
        page.sort,
        move |c| Ok(store::list(filter, store::Reading::now(c)?)),
        reminder_cells,
    )
    .await
}

#[derive(Serialize, ToSchema)]
pub struct OpenCount {
    /// Open reminders in the caller's share of the queue.
    pub open: i64,
}

/// How many reminders wait in the caller's share of the queue (the navigation's badge).
#[utoipa::path(get, path = "/api/reminders/open-count", tag = "reminders",
    responses((status = 200, body = OpenCount)))]
async fn open_count(State(state): State<AppState>, user: AuthUser) -> Result<Json<OpenCount>, AppError> {
    let book = user.book();
    let open = state
        .db
        .read(move |c| store::open_count(c, book.as_deref()))
        .await?;
    Ok(Json(OpenCount { open }))
}

/// One reminder of the caller's share.
#[utoipa::path(get, path = "/api/reminders/{id}", tag = "reminders", params(("id" = String, Path)),
    responses((status = 200, body = Reminder), (status = 404, body = ErrorBody)))]
async fn get_reminder(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Reminder>, AppError> {
    Ok(Json(
        state
            .db
            .read(move |c| crate::reminders::visible(c, &user, &id))
            .await?,
    ))
}

/// The exact email a reminder of the caller's share would send (recipient, subject, text and
/// HTML), with what stands in its way as warnings. Nothing is written; a quote follow-up's link
/// is shown if a live one exists, never minted.
#[utoipa::path(get, path = "/api/reminders/{id}/preview", tag = "reminders", params(("id" = String, Path)),
    responses((status = 200, body = Preview), (status = 404, body = ErrorBody),
              (status = 409, description = "A kind that sends no email", body = ErrorBody)))]
async fn preview(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Preview>, AppError> {
    let config = state.config.clone();
    let preview = state
        .db
        .read(move |c| send::preview(c, &user, &id, &config))
        .await?;
    Ok(Json(preview))
}

#[derive(Serialize, ToSchema)]
pub struct SentReminder {
    #[serde(flatten)]
    pub reminder: Reminder,
    /// What came of the email; null when the reminder had been sent already (nothing is sent twice).
    pub email: Option<EmailOutcome>,
}

/// Send a reminder of the caller's share now, at most once: a second send answers the
/// reminder without sending again. Refused (409, nothing written) for a dismissed reminder, a
/// kind that sends no email, no mail provider, no recipient, or a quote follow-up without
/// share.base_url. A failed email answers 502; the reminder is then `failed` with the reason.
#[utoipa::path(post, path = "/api/reminders/{id}/send", tag = "reminders", params(("id" = String, Path)),
    responses((status = 200, body = SentReminder), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn send(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<SentReminder>, AppError> {
    // A task of its own: a caller that hangs up never leaves a sent email without its log row.
    let (reminder, email) = tokio::task::spawn_blocking(move || send::send(&state, Some(&user), &id))
        .await
        .map_err(AppError::internal)??;
    if let Some(error) = email.as_ref().and_then(|e| e.error.as_ref()) {
        return Err(AppError::upstream(
            "mail_failed",
            format!(
                "The email to {} was not sent: {error}. It is recorded in the email log and the reminder is marked failed; send it again when the cause is fixed.",
                email.as_ref().map_or("", |e| e.to.as_str())
            ),
        ));
    }
    Ok(Json(SentReminder { reminder, email }))
}

/// Dismiss a reminder of the caller's share, audited.
#[utoipa::path(post, path = "/api/reminders/{id}/dismiss", tag = "reminders", params(("id" = String, Path)),
    responses((status = 200, body = Reminder), (status = 404, body = ErrorBody),
              (status = 409, description = "Already sent or dismissed", body = ErrorBody)))]
async fn dismiss(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Reminder>, AppError> {
    let reminder = state
        .db
        .write(move |tx| crate::reminders::dismiss_in(tx, &user, &id))
        .await?;
    Ok(Json(reminder))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkDismiss {
    /// 1 to 1000 reminder ids.
    pub ids: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct Dismissed {
    /// How many were open (or failed) in the caller's share and are now dismissed.
    pub dismissed: usize,
}

/// Dismiss a selection of reminders at once, each audited; ids outside the caller's share or
/// already closed are passed over.
#[utoipa::path(post, path = "/api/reminders/bulk-dismiss", tag = "reminders", request_body = BulkDismiss,
    responses((status = 200, body = Dismissed), (status = 422, body = ErrorBody)))]
async fn bulk_dismiss(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(req): JsonBody<BulkDismiss>,
) -> Result<Json<Dismissed>, AppError> {
    if req.ids.is_empty() || req.ids.len() > 1000 {
        return Err(AppError::invalid(
            "ids",
            "invalid_ids",
            "Give 1 to 1000 reminder ids.",
        ));
    }
    let dismissed = state
        .db
        .write(move |tx| crate::reminders::dismiss_many_in(tx, &user, &req.ids))
        .await?;
    Ok(Json(Dismissed { dismissed }))
}

/// The reminder schedule in force today (owner): each kind's day offsets and the quote
/// follow-up policy, with the day it took effect.
#[utoipa::path(get, path = "/api/settings/reminders", tag = "reminders",
    responses((status = 200, body = Dated), (status = 403, body = ErrorBody)))]
async fn get_schedule(State(state): State<AppState>, _owner: Owner) -> Result<Json<Dated>, AppError> {
    let dated = state
        .db
        .read(|c| schedule::in_force(c, settings::office_today(c)?))
        .await?;
    Ok(Json(dated))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleInput {
    /// The first day the set is in force (default today). Earlier sets stay.
    pub effective_from: Option<NaiveDate>,
    pub renewal_due: DaysBefore,
    pub amc_expiring: DaysBefore,
    pub invoice_overdue: DaysAfter,
    pub quote_followup: QuoteLadder,
}

/// Append a reminder schedule (owner, audited): rejected whole, writing nothing, when any value
/// is invalid; the ladders are stored in ascending order.
#[utoipa::path(put, path = "/api/settings/reminders", tag = "reminders", request_body = ScheduleInput,
    responses((status = 200, body = Dated), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_schedule(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(req): JsonBody<ScheduleInput>,
) -> Result<Json<Dated>, AppError> {
    let checked = Schedule {
        renewal_due: req.renewal_due,
        amc_expiring: req.amc_expiring,
        invoice_overdue: req.invoice_overdue,
        quote_followup: req.quote_followup,
    }
    .checked()?;
    let dated = state
        .db
        .write(move |tx| {
            let from = match req.effective_from {
                Some(day) => day,
                None => settings::office_today(tx)?,
            };
            schedule::save_in(tx, &user, checked, from)
        })
        .await?;
    Ok(Json(dated))
}
