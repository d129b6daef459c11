//! `GET/PUT /api/settings/mail` (owner, audited; the token is write-only), the connection
//! test, and the email log with its CSV twin.

use crate::AppState;
use crate::auth::session::{AuthUser, Owner};
use crate::clock;
use crate::db::page::{Page, Paginated};
use crate::db::settings;
use crate::email::store::{self, EmailLogFilter, EmailLogRow};
use crate::email::{self, MailSettings};
use crate::error::{AppError, ErrorBody};
use crate::http::csv;
use crate::http::extract::{JsonBody, QueryParams, query_choice};
use crate::outbound::Guard;
use crate::{mail, outbound};
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_mail, put_mail))
        .routes(routes!(test_mail))
        .routes(routes!(email_log))
        .routes(routes!(email_log_csv))
}

/// The mail provider's settings (owner); the token shows only as `hasToken`.
#[utoipa::path(get, path = "/api/settings/mail", tag = "settings", responses((status = 200, body = MailSettings), (status = 403, body = ErrorBody)))]
async fn get_mail(State(state): State<AppState>, _owner: Owner) -> Result<Json<MailSettings>, AppError> {
    Ok(Json(state.db.read(email::settings_view).await?))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MailInput {
    /// The provider's API base, e.g. https://api.postmarkapp.com (checked against request forgery).
    pub api_url: Option<String>,
    /// The sender address, e.g. billing@vendor.in.
    pub from: Option<String>,
    /// Write-only; omit to keep the stored one, "" to remove it.
    pub token: Option<String>,
}

/// Set the mail provider (owner, audited without the token). The address is checked before it is stored.
#[utoipa::path(put, path = "/api/settings/mail", tag = "settings", request_body = MailInput,
    responses((status = 200, body = MailSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_mail(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<MailInput>,
) -> Result<Json<MailSettings>, AppError> {
    let api_url = input.api_url.map(|u| u.trim().trim_end_matches('/').to_string());
    let from = input.from.map(|f| f.trim().to_string());
    if let Some(f) = from.as_deref().filter(|f| !f.is_empty()) {
        crate::staff::rules::check_email(f).map_err(|e| e.on_field("from"))?;
    }
    if let Some(url) = api_url.clone().filter(|u| !u.is_empty()) {
        outbound::check_stored(url, state.config.allow_private_targets, "api_url").await?;
    }
    let saved = state
        .db
        .write(move |tx| email::save_settings_in(tx, &user, api_url, from, input.token))
        .await?;
    Ok(Json(saved))
}

#[derive(Serialize, ToSchema)]
pub struct MailTest {
    pub ok: bool,
    pub message: String,
}

/// Asks the provider whether it is there and takes the token (owner). 502 when it does not.
#[utoipa::path(post, path = "/api/settings/mail/test", tag = "settings",
    responses((status = 200, body = MailTest), (status = 403, body = ErrorBody),
              (status = 409, description = "No mail provider is set up", body = ErrorBody),
              (status = 502, description = "The provider did not answer or refused the token", body = ErrorBody)))]
async fn test_mail(State(state): State<AppState>, _owner: Owner) -> Result<Json<MailTest>, AppError> {
    let config = state.db.read(email::config).await?;
    mail::probe(config, Guard::new(&state.config))
        .await?
        .map_err(|e| {
            AppError::new(
                axum::http::StatusCode::BAD_GATEWAY,
                "mail_provider_failed",
                format!("The test failed: {e}."),
            )
        })?;
    Ok(Json(MailTest {
        ok: true,
        message: "The mail provider answered and accepted the token.".into(),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EmailLogQuery {
    pub document_id: Option<String>,
    pub client_id: Option<String>,
    pub module_id: Option<String>,
    /// sent or failed.
    pub status: Option<String>,
    /// document, module_notify, reminder or test.
    pub purpose: Option<String>,
    /// First office day of `at`, inclusive (YYYY-MM-DD).
    pub from: Option<NaiveDate>,
    /// Last office day of `at`, inclusive (YYYY-MM-DD).
    pub to: Option<NaiveDate>,
    /// Part of the address (to or cc), the subject or the client's name.
    pub q: Option<String>,
}

impl EmailLogQuery {
    /// Checks the choices (a wrong one is 400) and turns the office days into UTC bounds.
    fn filter(self, user: &AuthUser, c: &rusqlite::Connection) -> Result<EmailLogFilter, AppError> {
        query_choice("status", &self.status, store::STATUSES)?;
        query_choice("purpose", &self.purpose, store::PURPOSES)?;
        let (from, to) = clock::office_days(self.from, self.to, settings::office_offset(c)?);
        Ok(EmailLogFilter {
            document_id: self.document_id,
            client_id: self.client_id,
            module_id: self.module_id,
            status: self.status,
            purpose: self.purpose,
            from,
            to,
            q: self.q,
            book: user.book(),
        })
    }
}

/// Every attempted send, newest first (staff: the mail sent to the clients of their book). Sort
/// by at, to, subject, status, purpose, client or sent_by.
#[utoipa::path(get, path = "/api/email-log", tag = "mail", params(Page, EmailLogQuery),
    responses((status = 200, body = Paginated<EmailLogRow>)))]
async fn email_log(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<EmailLogQuery>,
) -> Result<Json<Paginated<EmailLogRow>>, AppError> {
    let rows = state
        .db
        .read(move |c| q.filter(&user, c).map(store::list_log)?.page(c, &page))
        .await?;
    Ok(Json(rows))
}

const EMAIL_LOG_CSV: &[&str] = &[
    "Time", "To", "Cc", "Subject", "Client", "Purpose", "Document", "Status", "Error", "Sent by",
];

fn email_log_cells(e: &EmailLogRow) -> Vec<String> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        e.at.clone(),
        e.to.clone(),
        text(&e.cc),
        e.subject.clone(),
        text(&e.client_name),
        e.purpose.clone(),
        text(&e.doc_no),
        e.status.clone(),
        text(&e.error),
        text(&e.sent_by_name),
    ]
}

/// Every attempted send the list's filters and sort select, as CSV (staff: their book).
#[utoipa::path(get, path = "/api/email-log.csv", tag = "mail", params(Page, EmailLogQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered log")))]
async fn email_log_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<EmailLogQuery>,
) -> Result<Response, AppError> {
    let list = move |c: &rusqlite::Connection| q.filter(&user, c).map(store::list_log);
    csv::stream(
        &state.db,
        "email-log.csv".into(),
        EMAIL_LOG_CSV,
        page.sort,
        list,
        email_log_cells,
    )
    .await
}
