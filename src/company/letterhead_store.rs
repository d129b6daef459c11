//! The SQL of the letterhead: the `template_logo` rows (the newest is the logo in force). The
//! fields are dated settings (`plumbing::db::settings`).

use crate::plumbing::clock;
use crate::plumbing::db::ids::new_id;
use crate::plumbing::error::AppError;
use rusqlite::{Connection, OptionalExtension};

/// The newest logo uploaded, as stored: its mime and its bytes.
pub fn newest_logo(conn: &Connection) -> Result<Option<(String, Vec<u8>)>, AppError> {
    Ok(conn
        .query_row(
            "SELECT mime, bytes FROM template_logo ORDER BY id DESC LIMIT 1",
            [],
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?)),
        )
        .optional()?)
}

/// Stores a new logo, uploaded by `user_id` now.
pub fn insert_logo(
    tx: &Connection,
    mime: &str,
    bytes: &[u8],
    sha: &str,
    user_id: &str,
) -> Result<(), AppError> {
    tx.execute(
        "INSERT INTO template_logo (id, mime, bytes, sha256, uploaded_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        rusqlite::params![new_id(), mime, bytes, sha, user_id, clock::now_timestamp()],
    )?;
    Ok(())
}
