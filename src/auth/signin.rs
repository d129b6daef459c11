//! What a sign-in attempt leaves behind (spec 2.2): a session on success, a failure counted on a
//! wrong password, and a login event either way; and the checks a password change shares with
//! sign-in (decisions 12), so that the current-password field is no side door for guessing. The
//! verdict itself is `rules::Verdict`.

use crate::auth::rules::Outcome;
use crate::auth::rules::{self, Verdict};
use crate::auth::store;
use crate::plumbing::clock;
use crate::plumbing::db::savepoint;
use crate::plumbing::error::AppError;
use crate::plumbing::http::extract::ClientInfo;
use crate::staff::store::{self as staff_store, Employee};
use crate::state::AppState;
use chrono::{DateTime, Utc};
use rusqlite::Connection;
use std::time::Instant;

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
            record_wrong_password(tx, id, identifier, ip, agent, now)?;
            return Ok(None);
        }
        _ => None,
    };
    write_event(tx, staff_id, identifier, verdict.outcome(), ip, agent);
    Ok(session)
}

/// A wrong password for the account `staff_id`, whether typed at sign-in or as the current
/// password of a change: one more failure on its counter (locking it at the limit) and a `failed`
/// login event under `identifier`. Answers the lock expiry when this failure set the lock.
pub fn record_wrong_password(
    tx: &Connection,
    staff_id: &str,
    identifier: &str,
    ip: &str,
    agent: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, AppError> {
    let lock = store::record_failure(tx, staff_id, now)?;
    write_event(tx, Some(staff_id), identifier, Outcome::Failed, ip, agent);
    Ok(lock)
}

/// A login event that may fail to be written without failing what it records.
fn write_event(
    tx: &Connection,
    staff_id: Option<&str>,
    identifier: &str,
    outcome: Outcome,
    ip: &str,
    agent: Option<&str>,
) {
    let event = savepoint(tx, |c| {
        store::insert_login_event(c, staff_id, identifier, outcome, ip, agent)
    });
    if let Err(e) = event {
        tracing::warn!(error = %e, "login event not written");
    }
}

/// Counts one attempt at `identifier` from `client` against the sign-in limiters (decisions 9).
/// A tripped limiter answers 429 and records the attempt as `limited`, folded into the row its
/// address already has in that limiter's window (`store::record_limited`): by address alone when
/// the per-address limiter tripped, since a flood from one address may try a new name each time.
pub async fn pass_limiters(state: &AppState, client: &ClientInfo, identifier: &str) -> Result<(), AppError> {
    let Err(refusal) = state.login_limits.hit(&client.ip, identifier, Instant::now()) else {
        return Ok(());
    };
    tracing::warn!(ip = %client.ip, "sign-in rate limit tripped");
    let window = chrono::Duration::from_std(refusal.window).unwrap_or(chrono::Duration::zero());
    let window_start = clock::now() - window;
    let (identifier, ip, agent) = (
        identifier.to_string(),
        client.ip.clone(),
        client.user_agent.clone(),
    );
    let written = state
        .db
        .write(move |tx| {
            let staff_id = store::find_for_login(tx, &identifier)?.map(|a| a.id);
            store::record_limited(
                tx,
                staff_id.as_deref(),
                &identifier,
                &ip,
                agent.as_deref(),
                window_start,
                refusal.by_address,
            )
        })
        .await;
    if let Err(e) = written {
        tracing::warn!(error = %e, "limited login event not written");
    }
    Err(AppError::rate_limited(refusal.retry_after))
}

/// Checks the current password a signed-in user typed to change it, as a sign-in of their
/// account is checked (decisions 12): the same limiters, keyed on the username lower-cased; a
/// locked account answers 423 as a locked sign-in does, before any hashing; a wrong password is
/// a failed sign-in of the account (`record_wrong_password`) and answers 422 on
/// `current_password`, or 423 when it is the failure that locks the account.
pub async fn check_current_password(
    state: &AppState,
    staff_id: &str,
    client: &ClientInfo,
    password: String,
) -> Result<(), AppError> {
    let id = staff_id.to_string();
    let account = state
        .db
        .read(move |c| store::find_by_id(c, &id))
        .await?
        .ok_or_else(AppError::unauthorized)?;
    // The limiters lower-case it: the same key as a sign-in by this username.
    let identifier = account.username.clone();
    pass_limiters(state, client, &identifier).await?;

    let now = clock::now();
    let (ip, agent) = (client.ip.clone(), client.user_agent.clone());
    if let Some(until) = account.locked_until.filter(|until| *until > now) {
        let verdict = Verdict::Locked(until);
        let written = state
            .db
            .write(move |tx| {
                record_in(
                    tx,
                    &verdict,
                    Some(&account.id),
                    &identifier,
                    &ip,
                    agent.as_deref(),
                    now,
                )
            })
            .await;
        if let Err(e) = written {
            tracing::warn!(error = %e, "login event not written");
        }
        return Err(verdict.refusal());
    }

    let phc = account.password_hash;
    if state
        .hashing(move || rules::verify_password(&password, &phc))
        .await?
    {
        return Ok(());
    }
    let lock = state
        .db
        .write(move |tx| record_wrong_password(tx, &account.id, &identifier, &ip, agent.as_deref(), now))
        .await?;
    Err(match lock {
        Some(until) => Verdict::Locked(until).refusal(),
        None => AppError::invalid(
            "current_password",
            "wrong_password",
            "The current password is not right.",
        ),
    })
}
