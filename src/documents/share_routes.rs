//! The share links' handlers: mint and revoke (spec 3.3), the default expiry setting, and the
//! public pages `/share/{token}` and `/share/{token}/pdf`, which answer one identical 404 for an
//! unknown, revoked or expired token. The operations are in `shares`.

use crate::auth::session::{AuthUser, Manager, Owner};
use crate::documents::shares::{MintRequest, Minted};
use crate::documents::store::{self, Share};
use crate::documents::{html, shares, view};
use crate::plumbing::error::{AppError, Checks, ErrorBody};
use crate::plumbing::http::extract::{ClientInfo, IdPath, JsonBody};
use crate::state::AppState;
use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(mint))
        .routes(routes!(revoke))
        .routes(routes!(get_settings, put_settings))
}

/// The unauthenticated pages of a share: `/share/{token}` (HTML) and `/share/{token}/pdf`.
pub fn public_router() -> axum::Router<AppState> {
    axum::Router::new()
        .route("/share/{token}", axum::routing::get(public_page))
        .route("/share/{token}/pdf", axum::routing::get(public_pdf))
}

/// Mint a public link to the document (managerial). The reply carries the token; the audit does not.
#[utoipa::path(post, path = "/api/documents/{id}/share", tag = "documents", params(("id" = String, Path)), request_body = MintRequest,
    responses((status = 201, body = Minted), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn mint(
    State(state): State<AppState>,
    Manager(user): Manager,
    client: ClientInfo,
    IdPath(id): IdPath,
    JsonBody(request): JsonBody<MintRequest>,
) -> Result<(StatusCode, Json<Minted>), AppError> {
    let config = state.config.clone();
    let minted = state
        .db
        .write(move |tx| shares::mint_in(tx, &user, &id, &request, &config, client.origin.as_deref()))
        .await?;
    Ok((StatusCode::CREATED, Json(minted)))
}

/// Revoke a share: its link answers 404 from now on.
#[utoipa::path(post, path = "/api/documents/{id}/share/{share_id}/revoke", tag = "documents",
    params(("id" = String, Path), ("share_id" = String, Path)),
    responses((status = 200, body = Share), (status = 404, body = ErrorBody)))]
async fn revoke(
    State(state): State<AppState>,
    user: AuthUser,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<Share>, AppError> {
    let Path((id, share_id)) =
        path.map_err(|_| AppError::bad_request("invalid_path", "The id in the address is not valid."))?;
    let share = state
        .db
        .write(move |tx| shares::revoke_in(tx, &user, &id, &share_id))
        .await?;
    Ok(Json(share))
}

#[derive(Serialize, ToSchema)]
pub struct ShareSettings {
    pub default_expiry_days: i64,
    /// share.base_url as the owner set it (null: not set here).
    pub base_url: Option<String>,
    /// The server's --base-url (BACKOFFICE_BASE_URL), used when the owner set none.
    pub server_base_url: Option<String>,
    /// The base public links are made under: base_url, else server_base_url; null when neither
    /// is set (quote follow-ups are then refused).
    pub effective_base_url: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShareSettingsInput {
    /// 1 to 3650 days.
    pub default_expiry_days: i64,
    /// The base of public links (`https://office.example.in`); absent leaves it, "" clears it.
    #[serde(default)]
    pub base_url: Option<String>,
}

fn share_settings(
    c: &rusqlite::Connection,
    config: &crate::plumbing::config::Config,
) -> Result<ShareSettings, AppError> {
    let base_url = shares::stored_base_url(c)?;
    Ok(ShareSettings {
        default_expiry_days: shares::default_expiry_days(c)?,
        effective_base_url: base_url.clone().or_else(|| config.base_url.clone()),
        base_url,
        server_base_url: config.base_url.clone(),
    })
}

/// The default expiry of a new share link and the base of public links (owner).
#[utoipa::path(get, path = "/api/settings/share", tag = "settings", responses((status = 200, body = ShareSettings), (status = 403, body = ErrorBody)))]
async fn get_settings(State(state): State<AppState>, _owner: Owner) -> Result<Json<ShareSettings>, AppError> {
    let config = state.config.clone();
    Ok(Json(state.db.read(move |c| share_settings(c, &config)).await?))
}

/// Set the default expiry of new share links, 1 to 3650 days, and the base of public links
/// (owner, each change audited); rejected whole when either is invalid.
#[utoipa::path(put, path = "/api/settings/share", tag = "settings", request_body = ShareSettingsInput,
    responses((status = 200, body = ShareSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_settings(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(body): JsonBody<ShareSettingsInput>,
) -> Result<Json<ShareSettings>, AppError> {
    let mut checks = Checks::default();
    if !(1..=3650).contains(&body.default_expiry_days) {
        checks.fail(AppError::invalid(
            "default_expiry_days",
            "out_of_range",
            "Give 1 to 3650 days.",
        ));
    }
    // Some(None): clear; Some(Some(url)): set; None: leave.
    let base = match body.base_url.as_deref().map(str::trim) {
        None => None,
        Some("") => Some(None),
        Some(text) => checks.check(shares::check_base_url(text)).map(Some),
    };
    checks.done()?;
    let (days, config) = (body.default_expiry_days, state.config.clone());
    let settings = state
        .db
        .write(move |tx| {
            shares::set_default_expiry_in(tx, &user, days)?;
            if let Some(base) = &base {
                shares::set_base_url_in(tx, &user, base.as_deref())?;
            }
            share_settings(tx, &config)
        })
        .await?;
    Ok(Json(settings))
}

/// The one answer for an unknown, revoked or expired token.
fn gone() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-store")],
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Link not available</title>\
         <link rel=\"stylesheet\" href=\"/document.css\"></head><body class=\"share-page\"><div class=\"doc-sheet\">\
         <h1>This link is not available</h1><p>It may have expired or been withdrawn. Please ask the sender for a new one.</p>\
         </div></body></html>",
    )
        .into_response()
}

/// The document behind a live token with its view, or None.
async fn shared(
    state: &AppState,
    token: String,
) -> Result<Option<(store::Document, view::DocumentView)>, AppError> {
    state
        .db
        .read(move |c| {
            let Some(id) = shares::resolve(c, &token)? else {
                return Ok(None);
            };
            let Some(doc) = store::get(c, &id, None)? else {
                return Ok(None);
            };
            let view = view::build(c, &doc)?;
            Ok(Some((doc, view)))
        })
        .await
}

async fn public_page(State(state): State<AppState>, Path(token): Path<String>) -> Result<Response, AppError> {
    let Some((_, view)) = shared(&state, token.clone()).await? else {
        return Ok(gone());
    };
    // Relative to /share/{token}: the token is already in the address bar, nowhere new.
    let page = html::share_page(&view, &format!("{token}/pdf"))?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        page,
    )
        .into_response())
}

async fn public_pdf(State(state): State<AppState>, Path(token): Path<String>) -> Result<Response, AppError> {
    let Some((doc, view)) = shared(&state, token).await? else {
        return Ok(gone());
    };
    let bytes = tokio::task::spawn_blocking(move || crate::documents::pdf::document_pdf(&view))
        .await
        .map_err(AppError::internal)??;
    Ok(crate::documents::pdf_response(
        bytes,
        doc.doc_no.as_deref(),
        false,
    ))
}
