//! The SQL of signing in: lookups for login, the failure counter and lock, sessions, login events.

use crate::auth::Role;
use crate::auth::rules::{self, Outcome};
use crate::plumbing::clock;
use crate::plumbing::db::ids::new_id;
use crate::plumbing::db::query::{Filter, ListQuery, Listing};
use crate::plumbing::error::AppError;
use chrono::{DateTime, Duration, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use utoipa::ToSchema;

/// What login needs to know about the account a name points at. Never serialized.
pub struct LoginCandidate {
    pub id: String,
    pub username: String,
    pub active: bool,
    pub locked_until: Option<DateTime<Utc>>,
    pub must_change_password: bool,
    pub password_hash: String,
}

/// The account whose username (first) or email (the legacy fallback) is `identifier`.
pub fn find_for_login(conn: &Connection, identifier: &str) -> Result<Option<LoginCandidate>, AppError> {
    candidate(
        conn,
        "WHERE username = ?1 OR email = ?1 ORDER BY username = ?1 DESC LIMIT 1",
        identifier,
    )
}

/// The account `staff_id`, as sign-in sees it (for checking a current password).
pub fn find_by_id(conn: &Connection, staff_id: &str) -> Result<Option<LoginCandidate>, AppError> {
    candidate(conn, "WHERE id = ?1", staff_id)
}

fn candidate(conn: &Connection, condition: &str, key: &str) -> Result<Option<LoginCandidate>, AppError> {
    let sql = format!(
        "SELECT id, username, active, locked_until, must_change_password, password_hash FROM staff {condition}"
    );
    Ok(conn
        .query_row(&sql, [key], |r| {
            Ok(LoginCandidate {
                id: r.get(0)?,
                username: r.get(1)?,
                active: r.get(2)?,
                locked_until: r
                    .get::<_, Option<String>>(3)?
                    .as_deref()
                    .and_then(clock::parse_timestamp),
                must_change_password: r.get(4)?,
                password_hash: r.get(5)?,
            })
        })
        .optional()?)
}

/// Counts one more failed sign-in; returns the lock expiry when this failure set a lock.
pub fn record_failure(
    tx: &Connection,
    staff_id: &str,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, AppError> {
    let failed: i64 = tx.query_row("SELECT failed_count FROM staff WHERE id = ?1", [staff_id], |r| {
        r.get(0)
    })?;
    let (failed, lock) = rules::after_failure(failed, now);
    tx.execute(
        "UPDATE staff SET failed_count = ?2, locked_until = COALESCE(?3, locked_until) WHERE id = ?1",
        params![staff_id, failed, lock.map(clock::timestamp)],
    )?;
    Ok(lock)
}

/// Clears the failure counter and opens a session; returns the cookie token (only its hash is stored).
pub fn start_session(
    tx: &Connection,
    staff_id: &str,
    ip: &str,
    user_agent: Option<&str>,
) -> Result<String, AppError> {
    let now = clock::now();
    tx.execute(
        "UPDATE staff SET failed_count = 0, locked_until = NULL WHERE id = ?1",
        [staff_id],
    )?;
    // Sweep this user's dead sessions while we are here.
    tx.execute(
        "DELETE FROM session WHERE staff_id = ?1 AND (expires_at <= ?2 OR last_seen_at <= ?3)",
        params![
            staff_id,
            clock::timestamp(now),
            clock::timestamp(now - Duration::hours(rules::SESSION_IDLE_HOURS))
        ],
    )?;
    let (token, hash) = rules::new_session_token();
    tx.execute(
        "INSERT INTO session (id, token_hash, staff_id, created_at, last_seen_at, expires_at, ip, user_agent)
         VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7)",
        params![
            new_id(),
            hash,
            staff_id,
            clock::timestamp(now),
            clock::timestamp(now + Duration::days(rules::SESSION_MAX_DAYS)),
            ip,
            user_agent
        ],
    )?;
    Ok(token)
}

/// A live-looking session and its active user; expiry is judged by the caller.
pub struct SessionRow {
    pub id: String,
    pub staff_id: String,
    pub role: Role,
    pub last_seen_at: String,
    pub expires_at: String,
}

/// Every request asks this, so the statement is kept prepared.
pub fn session_by_hash(conn: &Connection, token_hash: &str) -> Result<Option<SessionRow>, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT s.id, s.staff_id, u.role, s.last_seen_at, s.expires_at
             FROM session s JOIN staff u ON u.id = s.staff_id
             WHERE s.token_hash = ?1 AND u.active = 1",
        )?
        .query_row([token_hash], |r| {
            Ok(SessionRow {
                id: r.get(0)?,
                staff_id: r.get(1)?,
                role: r.get(2)?,
                last_seen_at: r.get(3)?,
                expires_at: r.get(4)?,
            })
        })
        .optional()?)
}

pub fn touch_session(tx: &Connection, session_id: &str) -> Result<(), AppError> {
    tx.execute(
        "UPDATE session SET last_seen_at = ?2 WHERE id = ?1",
        params![session_id, clock::now_timestamp()],
    )?;
    Ok(())
}

pub fn delete_session(tx: &Connection, session_id: &str) -> Result<(), AppError> {
    tx.execute("DELETE FROM session WHERE id = ?1", [session_id])?;
    Ok(())
}

/// Ends every session of a user but `keep`; returns how many ended.
pub fn end_sessions(tx: &Connection, staff_id: &str, keep: Option<&str>) -> Result<usize, AppError> {
    Ok(tx.execute(
        "DELETE FROM session WHERE staff_id = ?1 AND id IS NOT ?2",
        params![staff_id, keep],
    )?)
}

pub fn insert_login_event(
    tx: &Connection,
    staff_id: Option<&str>,
    username: &str,
    outcome: Outcome,
    ip: &str,
    user_agent: Option<&str>,
) -> Result<(), AppError> {
    tx.execute(
        "INSERT INTO login_event (id, at, staff_id, username, outcome, ip, user_agent) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![new_id(), clock::now_timestamp(), staff_id, username, outcome.as_str(), ip, user_agent],
    )?;
    Ok(())
}

/// Records one attempt a rate limiter refused: folded into the `limited` row that `ip` (and, when
/// `any_identifier` is false, `username`, as typed in any case) already has since `window_start`,
/// else a new row. Folding is what keeps a flood of refusals to one row per window (V19).
pub fn record_limited(
    tx: &Connection,
    staff_id: Option<&str>,
    username: &str,
    ip: &str,
    user_agent: Option<&str>,
    window_start: DateTime<Utc>,
    any_identifier: bool,
) -> Result<(), AppError> {
    let folded = tx.execute(
        "UPDATE login_event SET attempts = attempts + 1 WHERE id = (
             SELECT id FROM login_event
             WHERE outcome = 'limited' AND ip = ?1 AND at >= ?2 AND (?3 OR lower(username) = lower(?4))
             ORDER BY at DESC LIMIT 1)",
        params![ip, clock::timestamp(window_start), any_identifier, username],
    )?;
    if folded == 0 {
        insert_login_event(tx, staff_id, username, Outcome::Limited, ip, user_agent)?;
    }
    Ok(())
}

/// One row of the login history.
#[derive(Debug, Serialize, ToSchema)]
pub struct LoginEvent {
    pub id: String,
    pub at: String,
    pub staff_id: Option<String>,
    pub username: String,
    pub outcome: String,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    /// A label parsed from the user agent, such as "Chrome on Windows".
    pub device: String,
    /// How many attempts the row stands for: above 1 only for `limited`, where the refusals of
    /// one address (and identifier) within a limiter window share one row.
    pub attempts: i64,
}

/// Filters of the login history.
pub struct LoginEventFilter {
    pub staff_id: Option<String>,
    pub outcome: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// What the login history may be sorted by (decisions 10).
const LOGIN_EVENT_SORTS: &[(&str, &str)] = &[
    ("at", "at"),
    ("username", "username COLLATE NOCASE"),
    ("outcome", "outcome"),
    ("ip", "ip"),
];

/// The login history, newest first: a page, or every row for the CSV twin.
pub fn list_login_events(filter: LoginEventFilter) -> Listing<LoginEvent> {
    let mut f = Filter::default();
    f.eq("staff_id", filter.staff_id).eq("outcome", filter.outcome);
    if let Some(from) = filter.from {
        f.and("at >= ?", [from.into()]);
    }
    if let Some(to) = filter.to {
        f.and("at < ?", [to.into()]);
    }
    let query = ListQuery {
        columns: "id, at, staff_id, username, outcome, ip, user_agent, attempts".into(),
        from: "login_event",
        order_by: "id DESC",
        id_column: "id",
        sorts: LOGIN_EVENT_SORTS,
    };
    Listing::new(query, f, |r| {
        let user_agent: Option<String> = r.get(6)?;
        Ok(LoginEvent {
            id: r.get(0)?,
            at: r.get(1)?,
            staff_id: r.get(2)?,
            username: r.get(3)?,
            outcome: r.get(4)?,
            ip: r.get(5)?,
            device: rules::device_label(user_agent.as_deref()),
            user_agent,
            attempts: r.get(7)?,
        })
    })
}
