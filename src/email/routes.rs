//! `GET/PUT /api/settings/mail` (owner, audited; the token is write-only), the connection
//! test, and the email log.

use crate::AppState;
use crate::auth::session::{AuthUser, Owner};
use crate::db::page::{Page, Paginated};
use crate::email::store::{self, EmailLogFilter, EmailLogRow};
use crate::email::{self, MailSettings};
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{JsonBody, QueryParams};
use crate::outbound::Guard;
use crate::{mail, outbound};
use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_mail, put_mail))
        .routes(routes!(test_mail))
        .routes(routes!(email_log))
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
}

/// Every attempted send, newest first (staff: what they sent).
#[utoipa::path(get, path = "/api/email-log", tag = "mail", params(Page, EmailLogQuery),
    responses((status = 200, body = Paginated<EmailLogRow>)))]
async fn email_log(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<EmailLogQuery>,
) -> Result<Json<Paginated<EmailLogRow>>, AppError> {
    let filter = EmailLogFilter {
        document_id: q.document_id,
        client_id: q.client_id,
        module_id: q.module_id,
        status: q.status,
        book: user.book(),
    };
    Ok(Json(
        state.db.read(move |c| store::list_log(c, filter, &page)).await?,
    ))
}
