//! The audit writer used by every feature: one row in the same transaction as the change.
//!
//! Images pass through [`scrub`] first, so a secret handed in by mistake never lands in a row.

use crate::plumbing::clock;
use crate::plumbing::db::ids::new_id;
use crate::plumbing::error::AppError;
use rusqlite::{Connection, params};
use serde_json::Value;

/// One audited change.
pub struct Audit<'a> {
    pub entity: &'a str,
    pub entity_id: Option<&'a str>,
    pub action: &'a str,
    pub user_id: Option<&'a str>,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

/// Writes the audit row on `conn`, which must be the transaction of the change.
pub fn audit(conn: &Connection, entry: Audit<'_>) -> Result<(), AppError> {
    let image = |v: Option<Value>| v.map(|v| scrub(v).to_string());
    // Cached: the insert carries the audit's triggers, and preparing it anew was a twentieth
    // of an invoice's write (callgrind).
    conn.prepare_cached(
        "INSERT INTO audit (id, at, user_id, entity, entity_id, action, before, after)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        new_id(),
        clock::now_timestamp(),
        entry.user_id,
        entry.entity,
        entry.entity_id,
        entry.action,
        image(entry.before),
        image(entry.after)
    ])?;
    Ok(())
}

/// Audits `action` on one record by `user_id`, with before and after images of any serializable type.
pub fn record<T: serde::Serialize>(
    conn: &Connection,
    user_id: &str,
    entity: &str,
    entity_id: &str,
    action: &str,
    before: Option<&T>,
    after: Option<&T>,
) -> Result<(), AppError> {
    audit(
        conn,
        Audit {
            entity,
            entity_id: Some(entity_id),
            action,
            user_id: Some(user_id),
            before: before.map(serde_json::to_value).transpose()?,
            after: after.map(serde_json::to_value).transpose()?,
        },
    )
}

/// Audits a write of the setting (or group of settings) `key` by `user_id` (spec 6.2: settings
/// writes are audited).
pub fn setting_changed(
    conn: &Connection,
    user_id: &str,
    key: &str,
    before: Value,
    after: Value,
) -> Result<(), AppError> {
    audit(
        conn,
        Audit {
            entity: "setting",
            entity_id: Some(key),
            action: "update",
            user_id: Some(user_id),
            before: Some(before),
            after: Some(after),
        },
    )
}

/// Removes every string held under a key that names a secret (password, token, secret, hash),
/// at any depth. Flags such as `hasDbPassword` are booleans and stay.
pub fn scrub(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, v)| !(v.is_string() && names_secret(k)))
                .map(|(k, v)| (k, scrub(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(scrub).collect()),
        other => other,
    }
}

fn names_secret(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    ["password", "token", "secret", "hash"]
        .iter()
        .any(|word| key.contains(word))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn scrub_drops_secret_strings_at_any_depth() {
        let dirty = json!({ "name": "A", "password_hash": "$argon2id$x", "hasDbPassword": true,
                            "nested": [{ "token": "abc", "ok": 1 }] });
        assert_eq!(
            super::scrub(dirty),
            json!({ "name": "A", "hasDbPassword": true, "nested": [{ "ok": 1 }] })
        );
    }
}
