//! Clearing the old system's credentials (spec 5.12, 4.8): values it stored encrypted cannot be
//! read here and already read as empty; the owner empties them so that no ciphertext is shown
//! or kept. The count comes first, so the console can say what the owner confirms.

use crate::admin::store;
use crate::auth::session::AuthUser;
use crate::clients::rules::LEGACY_ENCRYPTED_PREFIX;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::error::AppError;
use crate::projects::rules::{decode_secrets, encode_secrets};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// How many legacy-encrypted values each place holds.
#[derive(Debug, Default, Serialize, ToSchema, PartialEq)]
pub struct LegacyCredentials {
    /// Clients' DB passwords.
    pub db_passwords: i64,
    /// Projects' portal passwords.
    pub portal_passwords: i64,
    /// Projects' secrets (each value counts; a blob unreadable as a whole counts once).
    pub module_secrets: i64,
    /// Mail-provider token settings (every dated row).
    pub mail_token: i64,
    pub total: i64,
}

fn is_legacy(value: &serde_json::Value) -> bool {
    value
        .as_str()
        .is_some_and(|v| v.starts_with(LEGACY_ENCRYPTED_PREFIX))
}

/// A project's secrets blob without its legacy values: None when nothing in it is legacy,
/// Some(None) when nothing readable is left.
fn cleaned(blob: &str) -> Option<Option<String>> {
    let map = decode_secrets(Some(blob));
    if map.is_empty() {
        // Unreadable as a whole: an encrypted blob (or nothing at all) is all it holds.
        return blob.starts_with(LEGACY_ENCRYPTED_PREFIX).then_some(None);
    }
    let kept: serde_json::Map<String, serde_json::Value> = map
        .iter()
        .filter(|(_, v)| !is_legacy(v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    (kept.len() < map.len()).then(|| encode_secrets(&kept))
}

fn secret_values(blob: &str) -> i64 {
    let map = decode_secrets(Some(blob));
    if map.is_empty() {
        i64::from(blob.starts_with(LEGACY_ENCRYPTED_PREFIX))
    } else {
        map.values().filter(|v| is_legacy(v)).count() as i64
    }
}

/// What the clean-up would empty.
pub fn count(conn: &Connection) -> Result<LegacyCredentials, AppError> {
    let db_passwords = store::legacy_db_passwords(conn)?;
    let portal_passwords = store::legacy_portal_passwords(conn)?;
    let mail_token = store::legacy_mail_tokens(conn)?;
    let module_secrets = store::secrets_with_legacy(conn)?
        .iter()
        .map(|(_, blob)| secret_values(blob))
        .sum();
    Ok(LegacyCredentials {
        db_passwords,
        portal_passwords,
        module_secrets,
        mail_token,
        total: db_passwords + portal_passwords + module_secrets + mail_token,
    })
}

/// Empties every legacy-encrypted credential; audited with the counts (never the values).
pub fn clear_in(tx: &Connection, user: &AuthUser) -> Result<LegacyCredentials, AppError> {
    let cleared = count(tx)?;
    store::clear_legacy(tx)?;
    for (id, blob) in store::secrets_with_legacy(tx)? {
        if let Some(kept) = cleaned(&blob) {
            store::set_secrets(tx, &id, kept.as_deref())?;
        }
    }
    audit(
        tx,
        Audit {
            entity: "admin",
            entity_id: None,
            action: "clear_legacy_credentials",
            user_id: Some(&user.id),
            before: None,
            after: Some(serde_json::to_value(&cleared)?),
        },
    )?;
    Ok(cleared)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_values_leave_a_secrets_blob_and_readable_ones_stay() {
        let blob = "api_key,sms_key\n{\"api_key\":\"enc:AAAA\",\"sms_key\":\"plain\"}";
        assert_eq!(secret_values(blob), 1);
        assert_eq!(
            cleaned(blob),
            Some(Some("sms_key\n{\"sms_key\":\"plain\"}".to_string()))
        );
        let all_legacy = "api_key\n{\"api_key\":\"enc:AAAA\"}";
        assert_eq!(cleaned(all_legacy), Some(None));
        assert_eq!(secret_values("enc:whole-blob"), 1);
        assert_eq!(cleaned("enc:whole-blob"), Some(None));
        assert_eq!(cleaned("sms_key\n{\"sms_key\":\"plain\"}"), None);
    }
}
