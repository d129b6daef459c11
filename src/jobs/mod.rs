//! Background work of the running server. Each job runs on the blocking pool so it never holds
//! up requests; a failing run is logged and the job carries on.

use crate::AppState;
use crate::db::backup;
use std::time::{Duration, SystemTime};

/// Starts the background jobs of a serving process.
pub fn spawn(state: &AppState) {
    if state.config.backup_every_hours > 0 {
        tokio::spawn(snapshots(state.clone()));
    }
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
