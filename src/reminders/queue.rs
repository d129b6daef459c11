//! A reminder of the user's share of the queue ([`visible`], decisions 3), and its dismissal,
//! audited: one, many, or a quotation's follow-ups when it stops (spec 3.1, 3.2).

use crate::auth::session::AuthUser;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::error::AppError;
use crate::reminders::store::{self, Reminder};
use rusqlite::Connection;

/// The reminder, if it is in the user's share of the queue (404 otherwise, decisions 3).
pub fn visible(conn: &Connection, user: &AuthUser, id: &str) -> Result<Reminder, AppError> {
    store::get(conn, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("reminder"))
}

fn audit_close(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    from: &str,
    why: Option<&str>,
) -> Result<(), AppError> {
    audit(
        tx,
        Audit {
            entity: "reminder",
            entity_id: Some(id),
            action: "dismissed",
            user_id: Some(&user.id),
            before: Some(serde_json::json!({ "status": from })),
            after: Some(serde_json::json!({ "status": "dismissed", "reason": why })),
        },
    )
}

/// Dismisses an open or failed reminder of the user's share, audited; a closed one is 409.
pub fn dismiss_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<Reminder, AppError> {
    let before = visible(tx, user, id)?;
    if !store::close(tx, id, "dismissed", Some(&user.id))? {
        return Err(AppError::conflict(
            "reminder_closed",
            format!("This reminder is already {}.", before.status),
        ));
    }
    audit_close(tx, user, id, &before.status, None)?;
    visible(tx, user, id)
}

/// Dismisses each open or failed reminder of `ids` in the user's share; answers how many. An id
/// outside the share or already closed is passed over.
pub fn dismiss_many_in(tx: &Connection, user: &AuthUser, ids: &[String]) -> Result<usize, AppError> {
    let mut n = 0;
    for id in ids {
        let Some(before) = store::get(tx, id, user.book().as_deref())? else {
            continue;
        };
        if store::close(tx, id, "dismissed", Some(&user.id))? {
            audit_close(tx, user, id, &before.status, None)?;
            n += 1;
        }
    }
    Ok(n)
}

/// The stop conditions of a quotation's follow-ups (spec 3.1, 3.2): accepting, losing,
/// converting or cancelling it dismisses its open follow-ups in the same transaction, each
/// audited with `why`.
pub fn stop_followups_in(tx: &Connection, user: &AuthUser, doc_id: &str, why: &str) -> Result<(), AppError> {
    for (id, status) in store::open_followups(tx, doc_id)? {
        if store::close(tx, &id, "dismissed", Some(&user.id))? {
            audit_close(tx, user, &id, &status, Some(why))?;
        }
    }
    Ok(())
}
