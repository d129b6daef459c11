//! `GET/PUT /api/settings/template` and `POST /api/settings/template/logo` (owner, audited).

use crate::AppState;
use crate::auth::session::Owner;
use crate::company::letterhead::{self, LOGO_MAX_BYTES};
use crate::db::audit::{Audit, audit};
use crate::db::settings;
use crate::error::{AppError, ErrorBody};
use crate::http::extract::JsonBody;
use axum::Json;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use rusqlite::Connection;
use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_template, put_template))
        // The multipart envelope around a 512 KiB image needs a little room.
        .routes(routes!(upload_logo).layer(DefaultBodyLimit::max(LOGO_MAX_BYTES + 16 * 1024)))
}

/// The letterhead fields as stored (null = the default shows), the defaults, and the logo's presence.
#[derive(Serialize, ToSchema)]
pub struct TemplateSettings {
    /// `template.<field>` → the stored text or null.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub fields: Map<String, Value>,
    /// `template.<field>` → what shows when the field is not set.
    #[schema(value_type = Object)]
    pub defaults: Map<String, Value>,
    pub has_logo: bool,
    /// The logo as a data: URI, for the editor to show.
    pub logo: Option<String>,
}

fn read_settings(conn: &Connection) -> Result<TemplateSettings, AppError> {
    let logo = letterhead::logo(conn)?;
    Ok(TemplateSettings {
        fields: letterhead::stored(conn)?,
        defaults: letterhead::defaults(conn)?,
        has_logo: logo.is_some(),
        logo: logo.map(|l| {
            use base64::Engine;
            format!(
                "data:{};base64,{}",
                l.mime,
                base64::engine::general_purpose::STANDARD.encode(&l.bytes)
            )
        }),
    })
}

/// The letterhead settings (owner).
#[utoipa::path(get, path = "/api/settings/template", tag = "settings", responses((status = 200, body = TemplateSettings), (status = 403, body = ErrorBody)))]
async fn get_template(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<Json<TemplateSettings>, AppError> {
    Ok(Json(state.db.read(read_settings).await?))
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
        .write(move |tx| {
            let before = letterhead::stored(tx)?;
            let today = settings::office_today(tx)?;
            for (key, value) in &changes {
                settings::set(tx, key, value, today, Some(&user.id))?;
            }
            let after = letterhead::stored(tx)?;
            audit(
                tx,
                Audit {
                    entity: "setting",
                    entity_id: Some("template"),
                    action: "update",
                    user_id: Some(&user.id),
                    before: Some(Value::Object(before)),
                    after: Some(Value::Object(after)),
                },
            )?;
            read_settings(tx)
        })
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
    let sha = hex::encode(Sha256::digest(&bytes));
    let saved = state
        .db
        .write(move |tx| {
            let id = crate::db::ids::new_id();
            tx.execute(
                "INSERT INTO template_logo (id, mime, bytes, sha256, uploaded_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                rusqlite::params![id, mime, bytes.as_ref(), sha, user.id, crate::clock::now_timestamp()],
            )?;
            audit(
                tx,
                Audit {
                    entity: "setting",
                    entity_id: Some("template.logo"),
                    action: "update",
                    user_id: Some(&user.id),
                    before: None,
                    after: Some(serde_json::json!({ "mime": mime, "bytes": bytes.len(), "sha256": sha })),
                },
            )?;
            read_settings(tx)
        })
        .await?;
    Ok(Json(saved))
}
