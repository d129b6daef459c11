//! Public share links (spec 2.7, 3.3, 5.13): a share is an opaque token (256 random bits from
//! the OS as 64 hex characters) that resolves to one document until it expires or is revoked.
//! The token appears only in the document's own share list and the mint reply: audit rows name
//! the share id, the request log redacts `/share/...` paths, and the public pages answer one
//! identical 404 for an unknown, revoked or expired token.

use crate::auth::session::AuthUser;
use crate::book::visible_document;
use crate::clock;
use crate::config::Config;
use crate::db::audit::{Audit, audit};
use crate::db::settings;
use crate::documents::store::{self, Share};
use crate::error::AppError;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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
    let id = store::insert_share(tx, document_id, &token, &expires, user_id)?;
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
    store::shares_of(tx, document_id)?
        .into_iter()
        .find(|s| s.id == id)
        .ok_or_else(|| AppError::internal("a minted share vanished"))
}

/// A live share of the document with at least `min_days` left, else a new one for the default
/// expiry: what the send path links to.
pub fn live_or_new(tx: &Connection, document_id: &str, user_id: &str) -> Result<Share, AppError> {
    let days = default_expiry_days(tx)?;
    let horizon = clock::now() + Duration::days(days.min(7));
    let reusable = store::shares_of(tx, document_id)?
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
    store::document_of_token(conn, &token.to_ascii_lowercase())
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

/// When a new link expires: `expires_at` (a date means the end of that office day, or an RFC
/// 3339 time) or `days` from now, else the default; in the future, at most ten years ahead.
pub fn expiry(
    conn: &Connection,
    expires_at: Option<&str>,
    days: Option<i64>,
) -> Result<DateTime<Utc>, AppError> {
    let now = clock::now();
    let at = match (expires_at, days) {
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

/// Mints a link to a document of the caller's book; answers its token and public address.
pub fn mint_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    request: &MintRequest,
    config: &Config,
    origin: Option<&str>,
) -> Result<Minted, AppError> {
    let doc = visible_document(tx, user, id)?;
    let at = expiry(tx, request.expires_at.as_deref(), request.days)?;
    let share = create(tx, &doc.id, at, &user.id)?;
    let url = share_url(tx, config, origin, &share.token)?;
    Ok(Minted {
        id: share.id,
        token: share.token,
        expires_at: share.expires_at,
        url,
    })
}

/// Revokes the share `share_id` of the document `id` (if not yet), audited; answers it.
pub fn revoke_in(tx: &Connection, user: &AuthUser, id: &str, share_id: &str) -> Result<Share, AppError> {
    let doc = visible_document(tx, user, id)?;
    let share = store::shares_of(tx, &doc.id)?
        .into_iter()
        .find(|s| s.id == share_id)
        .ok_or_else(|| AppError::not_found("share"))?;
    if !share.revoked {
        store::revoke_share(tx, &share.id)?;
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
    store::shares_of(tx, &doc.id)?
        .into_iter()
        .find(|s| s.id == share_id)
        .ok_or_else(|| AppError::not_found("share"))
}

/// Sets the default expiry of new links from today (owner), audited.
pub fn set_default_expiry_in(tx: &Connection, user: &AuthUser, days: i64) -> Result<(), AppError> {
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
}
