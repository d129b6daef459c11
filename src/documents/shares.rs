//! Public share links (spec 2.7, 3.3, 5.13): a share is an opaque token (256 random bits from
//! the OS as 64 hex characters) that resolves to one document until it expires or is revoked.
//! The token appears only in the document's own share list and the mint reply: audit rows name
//! the share id, the request log redacts `/share/...` paths, and the public pages answer one
//! identical 404 for an unknown, revoked or expired token.

use crate::AppState;
use crate::auth::session::{AuthUser, Manager, Owner};
use crate::book::visible_document;
use crate::clock;
use crate::config::Config;
use crate::db::audit::{Audit, audit};
use crate::db::query::insert_row;
use crate::db::settings;
use crate::documents::{html, store, view};
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{ClientInfo, IdPath, JsonBody};
use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};
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

/// A share as the document shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Share {
    pub id: String,
    pub token: String,
    pub expires_at: String,
    #[serde(with = "crate::flag")]
    #[schema(value_type = u8)]
    pub revoked: bool,
    pub created_at: String,
    /// live, expired or revoked.
    pub state: &'static str,
}

fn state_of(revoked: bool, expires_at: &str, now: DateTime<Utc>) -> &'static str {
    if revoked {
        "revoked"
    } else if clock::parse_timestamp(expires_at).is_none_or(|at| at <= now) {
        "expired"
    } else {
        "live"
    }
}

/// The shares of a document, newest first.
pub fn list(conn: &Connection, document_id: &str) -> Result<Vec<Share>, AppError> {
    let now = clock::now();
    let mut stmt = conn.prepare_cached(
        "SELECT id, token, expires_at, revoked, created_at FROM document_share WHERE document_id = ?1 ORDER BY id DESC",
    )?;
    let rows = stmt
        .query_map([document_id], |r| {
            let revoked: bool = r.get(3)?;
            let expires_at: String = r.get(2)?;
            Ok(Share {
                id: r.get(0)?,
                token: r.get(1)?,
                state: state_of(revoked, &expires_at, now),
                expires_at,
                revoked,
                created_at: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// 256 random bits from the OS as 64 lowercase hex characters.
pub fn new_token() -> Result<String, AppError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(AppError::internal)?;
    Ok(hex::encode(bytes))
}

/// share.default_expiry_days in force today.
pub fn default_expiry_days(conn: &Connection) -> Result<i64, AppError> {
    settings::int(conn, &settings::SHARE_EXPIRY_DAYS, settings::office_today(conn)?)
}

/// Mints a share of `document_id` expiring at `expires_at`, audited by share id (never the token).
pub fn create(
    tx: &Connection,
    document_id: &str,
    expires_at: DateTime<Utc>,
    user_id: &str,
) -> Result<Share, AppError> {
    let token = new_token()?;
    let expires = clock::timestamp(expires_at);
    let id = insert_row(
        tx,
        "document_share",
        vec![
            ("document_id", Value::Text(document_id.into())),
            ("token", Value::Text(token)),
            ("expires_at", Value::Text(expires.clone())),
            ("created_by", Value::Text(user_id.into())),
        ],
    )?;
    audit(
        tx,
        Audit {
            entity: "document_share",
            entity_id: Some(&id),
            action: "minted",
            user_id: Some(user_id),
            before: None,
            after: Some(serde_json::json!({ "document_id": document_id, "expires_at": expires })),
        },
    )?;
    list(tx, document_id)?
        .into_iter()
        .find(|s| s.id == id)
        .ok_or_else(|| AppError::internal("a minted share vanished"))
}

/// A live share of the document with at least `min_days` left, else a new one for the default
/// expiry: what the send path links to.
pub fn live_or_new(tx: &Connection, document_id: &str, user_id: &str) -> Result<Share, AppError> {
    let days = default_expiry_days(tx)?;
    let horizon = clock::now() + Duration::days(days.min(7));
    let reusable = list(tx, document_id)?
        .into_iter()
        .find(|s| s.state == "live" && clock::parse_timestamp(&s.expires_at).is_some_and(|at| at > horizon));
    match reusable {
        Some(share) => Ok(share),
        None => create(tx, document_id, clock::now() + Duration::days(days), user_id),
    }
}

/// The document a token opens, if the share is live.
pub fn resolve(conn: &Connection, token: &str) -> Result<Option<String>, AppError> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    Ok(conn
        .query_row(
            "SELECT document_id FROM document_share WHERE token = ?1 AND revoked = 0 AND expires_at > ?2",
            params![token.to_ascii_lowercase(), clock::now_timestamp()],
            |r| r.get(0),
        )
        .optional()?)
}

/// The public address of a share: share.base_url when set, else the server's --base-url, else
/// the origin the request came to.
pub fn share_url(
    conn: &Connection,
    config: &Config,
    origin: Option<&str>,
    token: &str,
) -> Result<String, AppError> {
    let today = settings::office_today(conn)?;
    let configured = settings::get(conn, "share.base_url", today)?
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|s| !s.trim().is_empty())
        .or_else(|| config.base_url.clone());
    let base = configured
        .or_else(|| origin.map(str::to_string))
        .unwrap_or_else(|| format!("http://{}", config.listen));
    Ok(format!("{}/share/{token}", base.trim_end_matches('/')))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MintRequest {
    /// When the link stops working: a date (end of that office day) or an RFC 3339 timestamp.
    pub expires_at: Option<String>,
    /// Or: this many days from now (1 to 3650).
    pub days: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct Minted {
    pub id: String,
    pub token: String,
    pub expires_at: String,
    pub url: String,
}

fn expiry(conn: &Connection, request: &MintRequest) -> Result<DateTime<Utc>, AppError> {
    let now = clock::now();
    let at = match (&request.expires_at, request.days) {
        (Some(_), Some(_)) => {
            return Err(AppError::invalid(
                "expires_at",
                "one_expiry",
                "Give expires_at or days, not both.",
            ));
        }
        (Some(text), None) => {
            let parsed = clock::parse_timestamp(text).or_else(|| {
                let day = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
                let offset = settings::office_offset(conn).ok()?;
                let end = day
                    .succ_opt()?
                    .and_hms_opt(0, 0, 0)?
                    .and_local_timezone(offset)
                    .single()?;
                Some(end.with_timezone(&Utc))
            });
            parsed.ok_or_else(|| {
                AppError::invalid(
                    "expires_at",
                    "invalid_date",
                    "Give the expiry as YYYY-MM-DD or an RFC 3339 time.",
                )
            })?
        }
        (None, Some(days)) if (1..=3650).contains(&days) => now + Duration::days(days),
        (None, Some(_)) => return Err(AppError::invalid("days", "out_of_range", "Give 1 to 3650 days.")),
        (None, None) => now + Duration::days(default_expiry_days(conn)?),
    };
    if at <= now {
        return Err(AppError::invalid(
            "expires_at",
            "in_the_past",
            "The expiry must be in the future.",
        ));
    }
    if at > now + Duration::days(3650) {
        return Err(AppError::invalid(
            "expires_at",
            "too_far",
            "A link lasts at most ten years.",
        ));
    }
    Ok(at)
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
        .write(move |tx| {
            let doc = visible_document(tx, &user, &id)?;
            let at = expiry(tx, &request)?;
            let share = create(tx, &doc.id, at, &user.id)?;
            let url = share_url(tx, &config, client.origin.as_deref(), &share.token)?;
            Ok(Minted {
                id: share.id,
                token: share.token,
                expires_at: share.expires_at,
                url,
            })
        })
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
        .write(move |tx| {
            let doc = visible_document(tx, &user, &id)?;
            let share = list(tx, &doc.id)?
                .into_iter()
                .find(|s| s.id == share_id)
                .ok_or_else(|| AppError::not_found("share"))?;
            if !share.revoked {
                tx.execute(
                    "UPDATE document_share SET revoked = 1, revoked_at = ?2, updated_at = ?2 WHERE id = ?1",
                    params![share.id, clock::now_timestamp()],
                )?;
                audit(
                    tx,
                    Audit {
                        entity: "document_share",
                        entity_id: Some(&share.id),
                        action: "revoked",
                        user_id: Some(&user.id),
                        before: Some(serde_json::json!({ "document_id": doc.id, "state": share.state })),
                        after: Some(serde_json::json!({ "document_id": doc.id, "state": "revoked" })),
                    },
                )?;
            }
            list(tx, &doc.id)?
                .into_iter()
                .find(|s| s.id == share_id)
                .ok_or_else(|| AppError::not_found("share"))
        })
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
    let days = state.db.read(default_expiry_days).await?;
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
        .write(move |tx| {
            let before = default_expiry_days(tx)?;
            let today = settings::office_today(tx)?;
            settings::set(
                tx,
                settings::SHARE_EXPIRY_DAYS.name,
                &serde_json::json!(days),
                today,
                Some(&user.id),
            )?;
            audit(
                tx,
                Audit {
                    entity: "setting",
                    entity_id: Some(settings::SHARE_EXPIRY_DAYS.name),
                    action: "update",
                    user_id: Some(&user.id),
                    before: Some(serde_json::json!(before)),
                    after: Some(serde_json::json!(days)),
                },
            )
        })
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
            let Some(id) = resolve(c, &token)? else {
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
