//! Public share links (spec 2.7, 3.3, 5.13): a share is an opaque token (256 random bits from
//! the OS as 64 hex characters) that resolves to one document until it expires or is revoked.
//! The token appears only in the document's own share list and the mint reply: audit rows name
//! the share id, the request log redacts `/share/...` paths, and the public pages answer one
//! identical 404 for an unknown, revoked or expired token.

use crate::auth::session::AuthUser;
use crate::documents::rules;
use crate::documents::store::visible_document;
use crate::documents::store::{self, Share};
use crate::plumbing::clock;
use crate::plumbing::config::Config;
use crate::plumbing::db::audit::{Audit, audit, setting_changed};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Warning};
use chrono::{DateTime, Duration, Utc};
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

/// Mints a share of `document_id` expiring at `expires_at`, audited by share id (never the
/// token); `user_id` None is the job thread. Refused for a draft or a cancelled document
/// ([`rules::check_shareable`]), whichever path asks (the share dialog, an email, a follow-up).
pub fn create(
    tx: &Connection,
    document_id: &str,
    expires_at: DateTime<Utc>,
    user_id: Option<&str>,
) -> Result<Share, AppError> {
    let status = store::status_of(tx, document_id)?.ok_or_else(|| AppError::not_found("document"))?;
    rules::check_shareable(&status)?;
    let token = new_token()?;
    let expires = clock::timestamp(expires_at);
    let id = store::insert_share(tx, document_id, &token, &expires, user_id)?;
    audit(
        tx,
        Audit {
            entity: "document_share",
            entity_id: Some(&id),
            action: "minted",
            user_id,
            before: None,
            after: Some(serde_json::json!({ "document_id": document_id, "expires_at": expires })),
        },
    )?;
    store::shares_of(tx, document_id)?
        .into_iter()
        .find(|s| s.id == id)
        .ok_or_else(|| AppError::internal("a minted share vanished"))
}

/// A live share of the document with a week left (or the whole default expiry, if shorter),
/// else a new one for the default expiry: what a document email links to.
pub fn live_or_new(tx: &Connection, document_id: &str, user_id: &str) -> Result<Share, AppError> {
    let days = default_expiry_days(tx)?;
    live_for(tx, document_id, Some(user_id), days.min(7), days)
}

/// How long the link of a quote follow-up lasts (spec 6.4: about 60 days), and how much of it a
/// live link must still have to be reused rather than minting a new one.
pub const FOLLOW_UP_LINK_DAYS: i64 = 60;
pub const FOLLOW_UP_LINK_REUSE_DAYS: i64 = 30;

/// A live share of the document expiring more than `min_days` from now, else a new one for
/// `days`.
pub fn live_for(
    tx: &Connection,
    document_id: &str,
    user_id: Option<&str>,
    min_days: i64,
    days: i64,
) -> Result<Share, AppError> {
    match live_share(tx, document_id, min_days)? {
        Some(share) => Ok(share),
        None => create(tx, document_id, clock::now() + Duration::days(days), user_id),
    }
}

/// The live share of the document expiring last, if it has more than `min_days` left: what a
/// preview links to (it never mints).
pub fn live_share(conn: &Connection, document_id: &str, min_days: i64) -> Result<Option<Share>, AppError> {
    let horizon = clock::now() + Duration::days(min_days);
    Ok(store::shares_of(conn, document_id)?
        .into_iter()
        .filter(|s| s.state == "live")
        .filter_map(|s| Some((clock::parse_timestamp(&s.expires_at)?, s)))
        .filter(|(at, _)| *at > horizon)
        .max_by_key(|(at, _)| *at)
        .map(|(_, s)| s))
}

/// The document a token opens, if the share is live.
pub fn resolve(conn: &Connection, token: &str) -> Result<Option<String>, AppError> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    store::document_of_token(conn, &token.to_ascii_lowercase())
}

/// The base of public links the owner set (share.base_url), if any.
pub fn stored_base_url(conn: &Connection) -> Result<Option<String>, AppError> {
    let today = settings::office_today(conn)?;
    Ok(settings::get(conn, BASE_URL, today)?
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|s| !s.trim().is_empty()))
}

/// share.base_url: the owner's setting, else the server's --base-url; None when neither is set.
pub fn base_url(conn: &Connection, config: &Config) -> Result<Option<String>, AppError> {
    Ok(stored_base_url(conn)?.or_else(|| config.base_url.clone()))
}

/// The public address of a share under `base`.
pub fn url_under(base: &str, token: &str) -> String {
    format!("{}/share/{token}", base.trim_end_matches('/'))
}

/// The public address of a share: share.base_url when set, else the origin the request came to.
pub fn share_url(
    conn: &Connection,
    config: &Config,
    origin: Option<&str>,
    token: &str,
) -> Result<String, AppError> {
    let base = base_url(conn, config)?
        .or_else(|| origin.map(str::to_string))
        .unwrap_or_else(|| format!("http://{}", config.listen));
    Ok(url_under(&base, token))
}

/// Whether `url` points at this PC only: its host is `localhost` (or under `.localhost`) or a
/// loopback address (`127.0.0.0/8`, `::1`).
pub fn is_loopback_link(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(inner) = host_port.strip_prefix('[') {
        inner.split(']').next().unwrap_or("")
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// What stands in the way of a public link `url` reaching people outside this PC:
/// `no_public_address` when neither share.base_url nor `--base-url` is set (the link was made
/// from the request's origin), and `loopback_link` when its host is a loopback address.
pub fn link_warnings(public_address_set: bool, url: &str) -> Vec<Warning> {
    let mut warnings = vec![];
    if !public_address_set {
        warnings.push(Warning {
            code: "no_public_address",
            message: "No public address is set, so this link uses the address this page was opened at. \
                      Set it under Settings → Letterhead → Public links."
                .into(),
        });
    }
    if is_loopback_link(url) {
        warnings.push(Warning {
            code: "loopback_link",
            message: "This link points at this PC (localhost): people outside this PC cannot open it.".into(),
        });
    }
    warnings
}

/// The setting of the base of public links.
pub const BASE_URL: &str = "share.base_url";

/// Checks a base of public links: an http(s) address with a host and no query, at most 200
/// characters; answered without a trailing slash.
pub fn check_base_url(text: &str) -> Result<String, AppError> {
    let t = text.trim().trim_end_matches('/');
    let invalid = |m: &str| AppError::invalid("base_url", "invalid_url", m.to_string());
    let rest = t
        .strip_prefix("https://")
        .or_else(|| t.strip_prefix("http://"))
        .ok_or_else(|| invalid("Give an address starting with https:// or http://."))?;
    let host = rest.split('/').next().unwrap_or("");
    if host.is_empty() || t.len() > 200 || t.contains(['?', '#', ' ']) || t.chars().any(char::is_control) {
        return Err(invalid(
            "Give the address people open, like https://office.example.in.",
        ));
    }
    Ok(t.to_string())
}

/// Sets (or with None clears) share.base_url from today (owner), audited.
pub fn set_base_url_in(tx: &Connection, user: &AuthUser, base: Option<&str>) -> Result<(), AppError> {
    let before = stored_base_url(tx)?;
    if before.as_deref() == base {
        return Ok(());
    }
    let today = settings::office_today(tx)?;
    let value = base.map_or(serde_json::Value::Null, |b| serde_json::json!(b));
    settings::set(tx, BASE_URL, &value, today, Some(&user.id))?;
    setting_changed(tx, &user.id, BASE_URL, serde_json::json!(before), value)
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
                let day = clock::date(text)?;
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
    /// `no_public_address` (no share.base_url nor `--base-url`), `loopback_link` (the link's
    /// host is this PC); empty when the link works for people outside.
    pub warnings: Vec<Warning>,
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
    let share = create(tx, &doc.id, at, Some(&user.id))?;
    let url = share_url(tx, config, origin, &share.token)?;
    let warnings = link_warnings(base_url(tx, config)?.is_some(), &url);
    Ok(Minted {
        id: share.id,
        token: share.token,
        expires_at: share.expires_at,
        url,
        warnings,
    })
}

/// Revokes one share of the document `document_id`, audited by share id (with `why` when the
/// revocation came with another change).
fn revoke(
    tx: &Connection,
    user: &AuthUser,
    document_id: &str,
    share: &Share,
    why: Option<&str>,
) -> Result<(), AppError> {
    store::revoke_share(tx, &share.id)?;
    let mut after = serde_json::json!({ "document_id": document_id, "state": "revoked" });
    if let Some(why) = why {
        after["reason"] = why.into();
    }
    audit(
        tx,
        Audit {
            entity: "document_share",
            entity_id: Some(&share.id),
            action: "revoked",
            user_id: Some(&user.id),
            before: Some(serde_json::json!({ "document_id": document_id, "state": share.state })),
            after: Some(after),
        },
    )
}

/// Revokes the share `share_id` of the document `id` (if not yet), audited; answers it.
pub fn revoke_in(tx: &Connection, user: &AuthUser, id: &str, share_id: &str) -> Result<Share, AppError> {
    let doc = visible_document(tx, user, id)?;
    let share = store::shares_of(tx, &doc.id)?
        .into_iter()
        .find(|s| s.id == share_id)
        .ok_or_else(|| AppError::not_found("share"))?;
    if !share.revoked {
        revoke(tx, user, &doc.id, &share, None)?;
    }
    store::shares_of(tx, &doc.id)?
        .into_iter()
        .find(|s| s.id == share_id)
        .ok_or_else(|| AppError::not_found("share"))
}

/// Revokes every live share of the document `document_id` because of `why` (its cancel), each
/// audited; answers how many.
pub fn revoke_live_in(
    tx: &Connection,
    user: &AuthUser,
    document_id: &str,
    why: &str,
) -> Result<usize, AppError> {
    let live: Vec<Share> = store::shares_of(tx, document_id)?
        .into_iter()
        .filter(|s| s.state == "live")
        .collect();
    for share in &live {
        revoke(tx, user, document_id, share, Some(why))?;
    }
    Ok(live.len())
}

/// Sets the default expiry of new links from today (owner), audited.
pub fn set_default_expiry_in(tx: &Connection, user: &AuthUser, days: i64) -> Result<(), AppError> {
    let before = default_expiry_days(tx)?;
    if before == days {
        return Ok(());
    }
    let today = settings::office_today(tx)?;
    settings::set(
        tx,
        settings::SHARE_EXPIRY_DAYS.name,
        &serde_json::json!(days),
        today,
        Some(&user.id),
    )?;
    setting_changed(
        tx,
        &user.id,
        settings::SHARE_EXPIRY_DAYS.name,
        serde_json::json!(before),
        serde_json::json!(days),
    )
}

#[cfg(test)]
mod tests {
    use super::is_loopback_link;

    #[test]
    fn loopback_links_are_told_from_public_ones() {
        for url in [
            "http://127.0.0.1:8080/share/x",
            "http://localhost/share/x",
            "http://LOCALHOST:3000/share/x",
            "http://[::1]:8080/share/x",
            "https://app.localhost/share/x",
            "http://127.1.2.3/share/x",
        ] {
            assert!(is_loopback_link(url), "{url}");
        }
        for url in [
            "https://office.example.in/share/x",
            "http://192.168.1.10:8080/share/x",
            "http://localhost.example.in/share/x",
        ] {
            assert!(!is_loopback_link(url), "{url}");
        }
    }
}
