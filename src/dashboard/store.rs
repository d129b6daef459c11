//! The SQL of the dashboard's own figures; the rest it reads through the areas behind its tiles.

use crate::book;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::{Connection, params};

/// Issued invoices past the day they fall due (`documents::rules::FALLS_DUE`, the reminders' anchor)
/// that still owe, in `book`: how many and what they owe now (paise).
pub fn overdue_invoices(
    conn: &Connection,
    today: NaiveDate,
    book: Option<&str>,
) -> Result<(i64, i64), AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT COUNT(*), COALESCE(SUM(outstanding), 0) FROM document d INDEXED BY document_receivable
              WHERE type = 'INVOICE' AND settled_on IS NULL AND status NOT IN ('draft', 'cancelled')
                AND {} < ?1 AND {}",
            crate::documents::rules::FALLS_DUE,
            book::client_is_in("client_id", "?2")
        ))?
        .query_row(params![today.to_string(), book], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

/// Open reminders of the caller's share (the reminders' own rule) due today, and due before:
/// read from the index of the open ones by day (migrations/V29) without their rows.
pub fn reminders_due(
    conn: &Connection,
    today: NaiveDate,
    book: Option<&str>,
) -> Result<(i64, i64), AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT COALESCE(SUM(r.due_on = ?1), 0), COALESCE(SUM(r.due_on < ?1), 0)
               FROM reminder r INDEXED BY reminder_open_due
              WHERE r.status = 'open' AND r.due_on <= ?1 AND {}",
            book::reminder_is_in("r", "?2")
        ))?
        .query_row(params![today.to_string(), book], |r| Ok((r.get(0)?, r.get(1)?)))?)
}
