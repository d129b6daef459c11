//! The schema: the migrations built into the binary (`migrations/`), run in one transaction on
//! a copy-first basis, and the refusal of a SQLite library with the WAL-reset bug.

use super::backup;
use rusqlite::Connection;
use std::path::Path;

pub(super) mod embedded {
    refinery::embed_migrations!("migrations");
}

/// The oldest SQLite without the WAL-reset corruption bug (fixed in 3.51.3).
const MIN_SQLITE: (u32, u32, u32) = (3, 51, 3);

/// Refuses a SQLite library with the WAL-reset bug (3.7.0 to 3.51.2 but the 3.44.6 and 3.50.7 backports).
pub fn check_sqlite_version(version: &str) -> Result<(), String> {
    let parts: Vec<u32> = version.split('.').filter_map(|p| p.parse().ok()).collect();
    let v = (
        parts.first().copied().unwrap_or(0),
        parts.get(1).copied().unwrap_or(0),
        parts.get(2).copied().unwrap_or(0),
    );
    if v >= MIN_SQLITE || v == (3, 50, 7) || v == (3, 44, 6) {
        Ok(())
    } else {
        Err(format!(
            "SQLite {version} has the WAL-reset corruption bug; 3.51.3 or later is required"
        ))
    }
}

/// The migrations built into this binary, oldest first.
pub fn embedded_migrations() -> Vec<refinery::Migration> {
    embedded::migrations::runner().get_migrations().clone()
}

/// The schema version this binary brings a data file to.
pub fn latest_schema_version() -> i64 {
    embedded_migrations()
        .iter()
        .map(|m| i64::from(m.version()))
        .max()
        .unwrap_or(0)
}

/// Runs the pending migrations of `runner` in one transaction. An existing file about to be
/// migrated is first copied into `backups/`, so a failed upgrade can be undone; a file migrated
/// by a newer binary is refused (refinery reports its migrations as missing here).
pub fn migrate(conn: &mut Connection, path: &Path, runner: refinery::Runner) -> Result<(), String> {
    let runner = runner.set_grouped(true);
    let latest = runner
        .get_migrations()
        .iter()
        .map(|m| i64::from(m.version()))
        .max()
        .unwrap_or(0);
    if let Some(current) = backup::schema_version(conn)?.filter(|v| *v < latest) {
        let copy = backup::pre_migration_copy(conn, path, current)?;
        tracing::info!(copy = %copy.display(), from = current, to = latest, "data file copied before migration");
    }
    runner.run(conn).map_err(|e| format!("migration failed: {e}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_sqlite_version;

    #[test]
    fn wal_reset_bug_versions_are_refused() {
        for bad in ["3.7.0", "3.45.1", "3.51.2", "3.50.6"] {
            assert!(check_sqlite_version(bad).is_err(), "{bad}");
        }
        for good in ["3.51.3", "3.53.0", "3.50.7", "3.44.6", "4.0.0"] {
            assert!(check_sqlite_version(good).is_ok(), "{good}");
        }
    }
}
