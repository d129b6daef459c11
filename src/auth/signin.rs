//! What a sign-in attempt leaves behind (spec 2.2): a session on success, a failure counted on a
//! wrong password, and a login event either way. The verdict itself is `rules::Verdict`.

use crate::auth::rules::Verdict;
use crate::auth::store;
use crate::db::savepoint;
use crate::error::AppError;
use crate::staff::store::{self as staff_store, Employee};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

/// Writes the consequence of `verdict` and the login event in one transaction; answers the new
/// session's token and its employee on success. The event sits in a savepoint so that failing to
/// write it never breaks sign-in.
pub fn record_in(
    tx: &Connection,
    verdict: &Verdict,
    staff_id: Option<&str>,
    identifier: &str,
    ip: &str,
    agent: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Option<(String, Employee)>, AppError> {
    let session = match (verdict, staff_id) {
        (Verdict::Success, Some(id)) => {
            let token = store::start_session(tx, id, ip, agent)?;
            let employee = staff_store::get(tx, id)?.ok_or_else(|| AppError::internal("account vanished"))?;
            Some((token, employee))
        }
        (Verdict::WrongPassword, Some(id)) => {
            store::record_failure(tx, id, now)?;
            None
        }
        _ => None,
    };
    let event = savepoint(tx, |c| {
        store::insert_login_event(c, staff_id, identifier, verdict.outcome(), ip, agent)
    });
    if let Err(e) = event {
        tracing::warn!(error = %e, "login event not written");
    }
    Ok(session)
}
