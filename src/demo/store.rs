//! The SQL the demo's passes share.

use crate::plumbing::error::AppError;

/// The owner's id: the author of what the demo writes on the office's behalf.
pub(super) fn owner_id(conn: &rusqlite::Connection) -> Result<String, AppError> {
    Ok(conn.query_row(
        "SELECT id FROM staff WHERE role = 'owner' ORDER BY id LIMIT 1",
        [],
        |r| r.get(0),
    )?)
}
