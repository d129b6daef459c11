//! `GET/PUT /api/settings/template` and `POST /api/settings/template/logo` (owner, audited).

use crate::auth::session::Owner;
use crate::company::letterhead::{self, LOGO_MAX_BYTES, TemplateSettings};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::JsonBody;
use crate::state::AppState;
use axum::Json;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use serde_json::{Map, Value};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_template, put_template))
        // The multipart envelope around a 512 KiB image needs a little room.
        .routes(routes!(upload_logo).layer(DefaultBodyLimit::max(LOGO_MAX_BYTES + 16 * 1024)))
}

/// The letterhead settings (owner).
#[utoipa::path(get, path = "/api/settings/template", tag = "settings", responses((status = 200, body = TemplateSettings), (status = 403, body = ErrorBody)))]
async fn get_template(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<Json<TemplateSettings>, AppError> {
    Ok(Json(state.db.read(letterhead::settings).await?))
}

/// Set letterhead fields (owner, audited): any subset of `template.<field>` keys; null or "" returns a field to its default.
#[utoipa::path(put, path = "/api/settings/template", tag = "settings", request_body = Object,
    responses((status = 200, body = TemplateSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_template(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(body): JsonBody<Map<String, Value>>,
) -> Result<Json<TemplateSettings>, AppError> {
    let changes = letterhead::check(&body)?;
    let saved = state
        .db
        .write(move |tx| letterhead::save_fields_in(tx, &user, &changes))
        .await?;
    Ok(Json(saved))
}

/// Upload the letterhead logo (owner, audited): multipart with one file, PNG or JPEG by its
/// content (not its name), at most 512 KiB.
#[utoipa::path(post, path = "/api/settings/template/logo", tag = "settings",
    request_body(content_type = "multipart/form-data", content = Vec<u8>),
    responses((status = 200, body = TemplateSettings), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn upload_logo(
    State(state): State<AppState>,
    Owner(user): Owner,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Json<TemplateSettings>, AppError> {
    let mut multipart = multipart.map_err(|_| {
        AppError::new(
            axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Send the logo as multipart/form-data (with its boundary), one file.",
        )
    })?;
    let too_large = || {
        AppError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "The logo is larger than 512 KiB.",
        )
        .on_field("logo")
    };
    let refused = |e: axum::extract::multipart::MultipartError| match e.status() {
        axum::http::StatusCode::PAYLOAD_TOO_LARGE => too_large(),
        _ => AppError::invalid(
            "logo",
            "bad_upload",
            "Send the logo as a multipart form with one file.",
        ),
    };
    let field = multipart.next_field().await.map_err(refused)?.ok_or_else(|| {
        AppError::invalid(
            "logo",
            "bad_upload",
            "Send the logo as a multipart form with one file.",
        )
    })?;
    let bytes = field.bytes().await.map_err(refused)?;
    if bytes.len() > LOGO_MAX_BYTES {
        return Err(too_large());
    }
    let mime = letterhead::logo_mime(&bytes)
        .ok_or_else(|| AppError::invalid("logo", "not_an_image", "The logo must be a PNG or JPEG image."))?;
    let saved = state
        .db
        .write(move |tx| letterhead::save_logo_in(tx, &user, mime, &bytes))
        .await?;
    Ok(Json(saved))
}
