//! The SQL the UPI link reads: the client's TDS section.

use crate::plumbing::error::AppError;
use rusqlite::{Connection, OptionalExtension};

/// The TDS section of the client `client_id` (None when unset or no such client).
pub fn client_tds_section(conn: &Connection, client_id: &str) -> Result<Option<String>, AppError> {
    Ok(conn
        .prepare_cached("SELECT tds_section FROM client WHERE id = ?1")?
        .query_row([client_id], |r| r.get(0))
        .optional()?
        .flatten())
}
