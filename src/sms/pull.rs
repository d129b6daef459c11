//! The balance pull (spec 4.9, 6.3): every active SMS subscription (or one client's) is polled
//! at the gateway, a few at a time, and each answer is recorded as it comes: the telemetry row
//! always, the balance only when one was read, the audit row `sms_balance` only when it changed.
//! The daily job, the refresh routes and the benchmark all run [`run`].

use crate::plumbing::clock;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::sms::gateway;
use crate::sms::pulls::{Progress, PullCounts};
use crate::sms::rules::Outcome;
use crate::sms::store::{self, Check};
use crate::state::AppState;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{PoisonError, TryLockError, mpsc};
use std::time::{Duration, Instant};

/// Polls in flight at once: 2,000 subscriptions behind a gateway answering in 100 ms take
/// 2000 × 0.1 / 8 = 25 s, and the gateway sees no more than 8 connections from the office.
pub const PARALLEL: usize = 8;

/// Answers recorded per write: each batch is one short transaction, so requests interleave.
const BATCH: usize = 50;
/// ... or whatever came in this long, so progress moves behind a slow gateway.
const BATCH_WAIT: Duration = Duration::from_millis(500);

/// Whose balances.
#[derive(Debug, Clone, Copy)]
pub enum Scope<'a> {
    All,
    Client(&'a str),
}

/// Pulls the balances of `scope`, recorded as `user_id` (None: the scheduled pass). With `wait`
/// it waits for a running pull to end; without, a running pull is a 409. Blocks for the whole
/// pull: call it off the async threads.
pub fn run(
    state: &AppState,
    user_id: Option<&str>,
    scope: Scope<'_>,
    wait: bool,
) -> Result<PullCounts, AppError> {
    let pulls = &state.sms_pulls;
    let _gate = match pulls.gate.try_lock() {
        Ok(gate) => gate,
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
        Err(TryLockError::WouldBlock) if wait => pulls.gate.lock().unwrap_or_else(PoisonError::into_inner),
        Err(TryLockError::WouldBlock) => {
            let p = pulls.progress();
            return Err(AppError::conflict(
                "sms_refresh_running",
                format!(
                    "A refresh is already running ({} of {} done); wait for it to end.",
                    p.done, p.total
                ),
            ));
        }
    };
    let db = &state.db;
    let (gateway, subscriptions) = db.read_blocking(|c| {
        let gateway = gateway_address(c)?;
        let subscriptions = store::to_poll(
            c,
            match scope {
                Scope::All => None,
                Scope::Client(id) => Some(id),
            },
        )?;
        Ok((gateway, subscriptions))
    })?;
    let gateway = gateway.ok_or_else(|| {
        AppError::conflict(
            "sms_gateway_not_set",
            "No SMS gateway address is set: the owner sets it under Settings → Operations.",
        )
    })?;
    pulls.update(|p| {
        *p = Progress {
            running: true,
            total: subscriptions.len(),
            started_at: Some(clock::now_timestamp()),
            ..Progress::default()
        }
    });
    let guard = state.config.guard();
    let next = AtomicUsize::new(0);
    let (sent, received) = mpsc::channel::<Check>();
    let recorded = std::thread::scope(|threads| {
        for _ in 0..PARALLEL.min(subscriptions.len()) {
            let sent = sent.clone();
            let (next, subscriptions, gateway) = (&next, &subscriptions, &gateway);
            threads.spawn(move || {
                while let Some(subscription) = subscriptions.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if sent.send(gateway::poll(guard, gateway, subscription)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sent);
        record_as_they_come(state, user_id, received)
    });
    pulls.update(|p| {
        p.running = false;
        p.finished_at = Some(clock::now_timestamp());
    });
    recorded
}

/// Records the checks in batches as they arrive, until every poller is done.
fn record_as_they_come(
    state: &AppState,
    user_id: Option<&str>,
    received: mpsc::Receiver<Check>,
) -> Result<PullCounts, AppError> {
    let mut counts = PullCounts::default();
    let mut batch: Vec<Check> = Vec::with_capacity(BATCH);
    let mut since = Instant::now();
    loop {
        // An empty batch waits for the next answer however long it takes; a started one only
        // until it is due.
        let next = if batch.is_empty() {
            received.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected)
        } else {
            received.recv_timeout(BATCH_WAIT.saturating_sub(since.elapsed()))
        };
        let finished = matches!(next, Err(mpsc::RecvTimeoutError::Disconnected));
        if let Ok(check) = next {
            if batch.is_empty() {
                since = Instant::now();
            }
            batch.push(check);
        }
        if !batch.is_empty() && (finished || batch.len() >= BATCH || since.elapsed() >= BATCH_WAIT) {
            let checks = std::mem::take(&mut batch);
            let more = state
                .db
                .write_blocking(move |tx| record_in(tx, user_id, &checks))?;
            counts = counts.plus(more);
            state.sms_pulls.update(|p| {
                p.done = counts.total;
                p.counts = counts;
            });
        }
        if finished {
            return Ok(counts);
        }
    }
}

impl PullCounts {
    fn plus(self, other: PullCounts) -> PullCounts {
        PullCounts {
            total: self.total + other.total,
            updated: self.updated + other.updated,
            unchanged: self.unchanged + other.unchanged,
            flagged: self.flagged + other.flagged,
            unreachable: self.unreachable + other.unreachable,
        }
    }
}

/// Records polls: the telemetry row of each; a read balance stored (audited `sms_balance` when
/// it changed), or the flag set with the stored balance kept.
pub fn record_in(
    tx: &rusqlite::Connection,
    user_id: Option<&str>,
    checks: &[Check],
) -> Result<PullCounts, AppError> {
    let mut counts = PullCounts::default();
    for check in checks {
        store::insert_check(tx, check)?;
        counts.total += 1;
        let id = check.client_module_id.as_str();
        match (check.balance, check.error.as_deref()) {
            (Some(balance), _) => {
                let before = store::balance(tx, id)?;
                let changed = before != Some(balance);
                store::set_balance(tx, id, balance, &check.at, changed)?;
                if changed {
                    counts.updated += 1;
                    audit(
                        tx,
                        Audit {
                            entity: "client_module",
                            entity_id: Some(id),
                            action: "sms_balance",
                            user_id,
                            before: Some(serde_json::json!({ "sms_balance": before })),
                            after: Some(serde_json::json!({ "sms_balance": balance })),
                        },
                    )?;
                } else {
                    counts.unchanged += 1;
                }
            }
            (None, flag) => {
                store::set_flag(tx, id, flag.unwrap_or("No balance was read."), &check.at)?;
                counts.flagged += 1;
                if check.outcome == Outcome::Unreachable {
                    counts.unreachable += 1;
                }
            }
        }
    }
    Ok(counts)
}

/// The gateway's address in force today, if one is set.
pub fn gateway_address(conn: &rusqlite::Connection) -> Result<Option<String>, AppError> {
    let today = settings::office_today(conn)?;
    Ok(settings::get(conn, settings::SMS_BALANCE_API_URL, today)?
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|url| !url.trim().is_empty()))
}

/// The scheduled pass (spec 6.3: once a day, keyless): every subscription, waiting for a
/// manual refresh to end first; with no gateway set it does nothing and says so.
pub fn daily(state: &AppState) -> Result<serde_json::Value, AppError> {
    match run(state, None, Scope::All, true) {
        Ok(counts) => Ok(serde_json::to_value(counts)?),
        Err(e) if e.code == "sms_gateway_not_set" => {
            Ok(serde_json::json!({ "skipped": "no SMS gateway address is set" }))
        }
        Err(e) => Err(e),
    }
}
