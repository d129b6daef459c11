//! The share links' handlers: mint and revoke (spec 3.3), the default expiry setting, and the
//! public pages `/share/{token}` and `/share/{token}/pdf`, which answer one identical 404 for an
//! unknown, revoked or expired token. The operations are in `shares`.

use crate::AppState;
use crate::auth::session::{AuthUser, Manager, Owner};
use crate::documents::shares::{MintRequest, Minted};
use crate::documents::store::{self, Share};
use crate::documents::{html, shares, view};
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{ClientInfo, IdPath, JsonBody};
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

#[derive(Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShareSettings {
    pub default_expiry_days: i64,
}

/// The default expiry of a new share link (owner).
#[utoipa::path(get, path = "/api/settings/share", tag = "settings", responses((status = 200, body = ShareSettings), (status = 403, body = ErrorBody)))]
async fn get_settings(State(state): State<AppState>, _owner: Owner) -> Result<Json<ShareSettings>, AppError> {
    let days = state.db.read(shares::default_expiry_days).await?;
    Ok(Json(ShareSettings {
        default_expiry_days: days,
    }))
}

/// Set the default expiry of new share links, 1 to 3650 days (owner, audited).
#[utoipa::path(put, path = "/api/settings/share", tag = "settings", request_body = ShareSettings,
    responses((status = 200, body = ShareSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_settings(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(body): JsonBody<ShareSettings>,
) -> Result<Json<ShareSettings>, AppError> {
    if !(1..=3650).contains(&body.default_expiry_days) {
        return Err(AppError::invalid(
            "default_expiry_days",
            "out_of_range",
            "Give 1 to 3650 days.",
        ));
    }
    let days = body.default_expiry_days;
    state
        .db
        .write(move |tx| shares::set_default_expiry_in(tx, &user, days))
        .await?;
    Ok(Json(ShareSettings {
        default_expiry_days: days,
    }))
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
