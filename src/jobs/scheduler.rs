//! The scheduler of a serving process: a thread that ticks every 6 hours of office time (and
//! once at start), each tick running the day's jobs ([`run_day`]), and the snapshots' own timer.

use crate::jobs::daily::run_day;
use crate::jobs::store;
use crate::plumbing::clock;
use crate::plumbing::db::{backup, settings};
use crate::state::AppState;
use chrono::{DateTime, Days, NaiveTime, Utc};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, SystemTime};

/// The office times of the ticks.
const TICK_TIMES: [u32; 4] = [0, 6, 12, 18];
const TICK_MINUTE: u32 = 15;

/// The first tick after `now`, at the office's `offset`.
pub fn next_tick(now: DateTime<Utc>, offset: chrono::FixedOffset) -> DateTime<Utc> {
    let local = now.with_timezone(&offset);
    let today = local.date_naive();
    [today, today.checked_add_days(Days::new(1)).unwrap_or(today)]
        .into_iter()
        .flat_map(|day| {
            TICK_TIMES.map(|h| {
                day.and_time(NaiveTime::from_hms_opt(h, TICK_MINUTE, 0).expect("a valid tick time"))
                    .and_local_timezone(offset)
                    .single()
                    .expect("a fixed offset maps each time once")
                    .with_timezone(&Utc)
            })
        })
        .find(|t| *t > now)
        .expect("a tick tomorrow")
}

/// One tick: the jobs of the office's today ([`run_day`]).
fn tick(state: &AppState) {
    match state.db.read_blocking(settings::office_today) {
        Ok(today) => run_day(state, today),
        Err(e) => tracing::error!(error = %e.to_string(), "jobs: cannot read the office day"),
    }
}

/// The scheduler of a serving process; `stop` ends it between jobs.
pub struct Scheduler {
    stop: Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl Scheduler {
    /// Asks the thread to stop and waits for the job it is running, if any, to end.
    pub fn stop(self) {
        drop(self.stop);
        let _ = self.thread.join();
    }
}

fn schedule(state: AppState, stop: Receiver<()>) {
    let db = &state.db;
    if let Err(e) = db.write_blocking(store::close_interrupted) {
        tracing::error!(error = %e.to_string(), "jobs: cannot close interrupted runs");
    }
    loop {
        tick(&state);
        let offset = db
            .read_blocking(settings::office_offset)
            .unwrap_or_else(|_| chrono::FixedOffset::east_opt(5 * 3600 + 1800).expect("a valid offset"));
        let now = clock::now();
        let wait = (next_tick(now, offset) - now)
            .to_std()
            .unwrap_or(Duration::from_secs(60));
        match stop.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => continue,
            _ => return,
        }
    }
}

/// Starts the background work of a serving process: the scheduler thread and the snapshots.
pub fn spawn(state: &AppState) -> Scheduler {
    if state.config.backup_every_hours > 0 {
        tokio::spawn(snapshots(state.clone()));
    }
    let (stop, stopped) = std::sync::mpsc::channel();
    let state = state.clone();
    let thread = std::thread::Builder::new()
        .name("jobs".into())
        .spawn(move || schedule(state, stopped))
        .expect("cannot start the jobs thread");
    Scheduler { stop, thread }
}

/// Writes a consistent snapshot into `backups/` every `backup_every_hours`, keeping the newest
/// `backup_keep`. After a restart the schedule continues from the newest snapshot on disk.
async fn snapshots(state: AppState) {
    let every = Duration::from_secs(state.config.backup_every_hours * 3600);
    let newest = backup::list_snapshots(&backup::backups_dir(state.db.path()))
        .iter()
        .filter_map(|p| p.metadata().and_then(|m| m.modified()).ok())
        .max();
    let since_newest = newest.and_then(|t| SystemTime::now().duration_since(t).ok());
    // With no snapshot yet, take the first one a minute after start (not during a cold start).
    let mut wait = since_newest.map_or(Duration::from_secs(60), |age| every.saturating_sub(age));
    loop {
        tokio::time::sleep(wait).await;
        let (db, keep) = (state.db.clone(), state.config.backup_keep);
        match tokio::task::spawn_blocking(move || backup::snapshot(&db, keep)).await {
            Ok(Ok(path)) => tracing::info!(path = %path.display(), "snapshot written"),
            Ok(Err(e)) => tracing::error!(error = %e, "snapshot failed"),
            Err(e) => tracing::error!(error = %e, "snapshot task failed"),
        }
        wait = every;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_fall_every_six_hours_of_office_time() {
        let ist = clock::parse_offset("+05:30").unwrap();
        let at = |s: &str| clock::parse_timestamp(s).unwrap();
        // 10:00 IST → 12:15 IST (06:45 UTC).
        assert_eq!(
            next_tick(at("2026-11-24T04:30:00Z"), ist),
            at("2026-11-24T06:45:00Z")
        );
        // 23:00 IST → 00:15 IST the next day.
        assert_eq!(
            next_tick(at("2026-11-24T17:30:00Z"), ist),
            at("2026-11-24T18:45:00Z")
        );
        // Exactly on a tick → the next one.
        assert_eq!(
            next_tick(at("2026-11-24T06:45:00Z"), ist),
            at("2026-11-24T12:45:00Z")
        );
    }
}
