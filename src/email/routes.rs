//! `GET/PUT /api/settings/mail` (owner, audited; the token and the SMTP password are
//! write-only), the test message, and the email log with its CSV twin.

use crate::auth::session::{AuthUser, Owner};
use crate::email::store::{self, EmailLogFilter, EmailLogRow};
use crate::email::{self, MailInput, MailSettings, TransportChoice};
use crate::plumbing::clock;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Checks, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{JsonBody, QueryParams, query_choice};
use crate::plumbing::outbound;
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
        .routes(routes!(get_mail, put_mail))
        .routes(routes!(test_mail))
        .routes(routes!(email_log))
        .routes(routes!(email_log_csv))
}

/// The mail settings (owner); the token and the password show only as `hasToken` and
/// `hasSmtpPassword`.
#[utoipa::path(get, path = "/api/settings/mail", tag = "settings", responses((status = 200, body = MailSettings), (status = 403, body = ErrorBody)))]
async fn get_mail(State(state): State<AppState>, _owner: Owner) -> Result<Json<MailSettings>, AppError> {
    Ok(Json(state.db.read(email::settings_view).await?))
}

/// Set how mail leaves (owner, audited without the token and the password): the mail API's
/// `{ api_url, from, token }` or the office's mailbox, `{ transport: "smtp", smtp_host,
/// smtp_port, smtp_security, smtp_username, smtp_password, from }`. Each key left out keeps its
/// value. The address or host is checked against request forgery before it is stored; every
/// wrong field is named in one 422.
#[utoipa::path(put, path = "/api/settings/mail", tag = "settings", request_body = MailInput,
    responses((status = 200, body = MailSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_mail(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<MailInput>,
) -> Result<Json<MailSettings>, AppError> {
    let mut checks = Checks::default();
    let input = email::rules::check_input(&mut checks, input);
    let allow_private = state.config.allow_private_targets;
    if let Some(url) = input.api_url.clone().filter(|u| !u.is_empty()) {
        checks.check(outbound::check_stored(url, allow_private, "api_url").await);
    }
    // A host of the wrong shape is already named, and not looked up.
    let lookup = |h: &String| !h.is_empty() && email::rules::check_smtp_host(h).is_ok();
    if let Some(host) = input.smtp_host.clone().filter(lookup) {
        checks.check(outbound::check_stored_host(host, allow_private, "smtp_host").await);
    }
    checks.done()?;
    let saved = state
        .db
        .write(move |tx| email::save_settings_in(tx, &user, input))
        .await?;
    Ok(Json(saved))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MailTestInput {
    /// Where the test goes; left out, to the signed-in owner's own address.
    pub to: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct MailTestSent {
    pub sent: bool,
    pub to: String,
    pub transport: TransportChoice,
}

/// Send a short test message through the chosen transport (owner, audited, with its email_log
/// row). 502 `mail_failed` says what the provider or the server answered.
#[utoipa::path(post, path = "/api/settings/mail/test", tag = "settings", request_body = MailTestInput,
    responses((status = 200, body = MailTestSent), (status = 403, body = ErrorBody),
              (status = 409, description = "Mail is not set up", body = ErrorBody),
              (status = 422, body = ErrorBody),
              (status = 502, description = "The provider or the mail server did not take the message", body = ErrorBody)))]
async fn test_mail(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<MailTestInput>,
) -> Result<Json<MailTestSent>, AppError> {
    let to = input.to.map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
    if let Some(to) = &to {
        crate::staff::rules::check_email(to).map_err(|e| e.on_field("to"))?;
    }
    let sent = email::send_test(&state, &user, to).await?;
    sent.result
        .map_err(|e| AppError::upstream("mail_failed", format!("The test email was not sent: {e}.")))?;
    Ok(Json(MailTestSent {
        sent: true,
        to: sent.to,
        transport: sent.transport,
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
