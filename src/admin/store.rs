//! The SQL of the owner's clean-up: where credentials live (a client's DB password, a
//! project's portal password and secrets, the mail-provider token) and which of them are still
//! in the old system's encrypted form (`enc:`, `clients::rules::LEGACY_ENCRYPTED_PREFIX`).

use crate::plumbing::error::AppError;
use rusqlite::{Connection, params};

/// A project's secrets blob whose JSON part (after the key line) holds an `enc:` value, or that
/// is unreadable as a whole (an `enc:` blob with no key line).
const SECRETS_WITH_LEGACY: &str = "SELECT id, secrets FROM client_module
     WHERE secrets LIKE '%enc:%'";

fn count(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<i64, AppError> {
    Ok(conn.query_row(sql, params, |r| r.get(0))?)
}

/// Clients' DB passwords in the old system's form.
pub fn legacy_db_passwords(conn: &Connection) -> Result<i64, AppError> {
    count(
        conn,
        "SELECT COUNT(*) FROM client WHERE substr(db_password, 1, 4) = 'enc:'",
        [],
    )
}

/// Projects' portal passwords in the old system's form.
pub fn legacy_portal_passwords(conn: &Connection) -> Result<i64, AppError> {
    count(
        conn,
        "SELECT COUNT(*) FROM client_module WHERE substr(password, 1, 4) = 'enc:'",
        [],
    )
}

/// Mail-token settings (every dated row) in the old system's form.
pub fn legacy_mail_tokens(conn: &Connection) -> Result<i64, AppError> {
    count(
        conn,
        "SELECT COUNT(*) FROM setting WHERE key = ?1 AND substr(value ->> '$', 1, 4) = 'enc:'",
        [crate::email::TOKEN_KEY],
    )
}

/// The projects' secrets blobs that may hold a legacy value: (project id, blob).
pub fn secrets_with_legacy(conn: &Connection) -> Result<Vec<(String, String)>, AppError> {
    Ok(conn
        .prepare(SECRETS_WITH_LEGACY)?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?)
}

/// Empties the legacy-encrypted DB and portal passwords and mail-token settings (the token
/// rows of every date: no ciphertext is kept in the history either).
pub fn clear_legacy(tx: &Connection) -> Result<(), AppError> {
    let now = crate::plumbing::clock::now_timestamp();
    tx.execute(
        "UPDATE client SET db_password = NULL, updated_at = ?1 WHERE substr(db_password, 1, 4) = 'enc:'",
        [&now],
    )?;
    tx.execute(
        "UPDATE client_module SET password = NULL, updated_at = ?1 WHERE substr(password, 1, 4) = 'enc:'",
        [&now],
    )?;
    tx.execute(
        "UPDATE setting SET value = 'null' WHERE key = ?1 AND substr(value ->> '$', 1, 4) = 'enc:'",
        [crate::email::TOKEN_KEY],
    )?;
    Ok(())
}

/// Replaces a project's secrets blob.
pub fn set_secrets(tx: &Connection, id: &str, blob: Option<&str>) -> Result<(), AppError> {
    tx.execute(
        "UPDATE client_module SET secrets = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, blob, crate::plumbing::clock::now_timestamp()],
    )?;
    Ok(())
}
