//! The SQL of the cockpit's own figures; the rest it reads through the areas behind its tiles.

use crate::plumbing::error::AppError;
use rusqlite::Connection;

/// The reminder queue: reminders still open, and those whose send failed.
pub fn reminder_queue(conn: &Connection) -> Result<(i64, i64), AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT COALESCE(SUM(status = 'open'), 0), COALESCE(SUM(status = 'failed'), 0)
               FROM reminder WHERE status IN ('open', 'failed')",
        )?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
}
