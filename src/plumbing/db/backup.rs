//! Backups that cannot lose committed data.
//!
//! In WAL mode recent commits live in the `-wal` file until a checkpoint, so copying only the
//! `.db` of a running server can miss them. Every copy here is made by SQLite itself
//! (`VACUUM INTO`), which reads through the WAL and writes one self-contained, consistent file:
//! the `backup` command, the scheduled snapshots in `backups/`, the copy taken before a migration
//! and the copy of the replaced file on restore.

use chrono::Utc;
use rusqlite::{Connection, OpenFlags, OptionalExtension};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The prefix of scheduled snapshots; only these are pruned.
pub const SNAPSHOT_PREFIX: &str = "snapshot-";

/// Writes a consistent copy of what `conn` sees to `out`, which must not exist yet.
pub fn vacuum_into(conn: &Connection, out: &Path) -> Result<(), String> {
    if out.exists() {
        return Err(format!(
            "{} already exists; choose a new file name",
            out.display()
        ));
    }
    conn.execute("VACUUM INTO ?1", [out.to_string_lossy()])
        .map_err(|e| format!("backup failed: {e}"))?;
    Ok(())
}

fn open_read_only(data: &Path) -> Result<Connection, String> {
    if !data.exists() {
        return Err(format!("{} does not exist", data.display()));
    }
    let conn = Connection::open_with_flags(data, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("cannot open {}: {e}", data.display()))?;
    conn.busy_timeout(Duration::from_secs(10))
        .map_err(|e| e.to_string())?;
    Ok(conn)
}

/// Copies the data file at `data` to `out` as one consistent, self-contained file, safe while a
/// server writes to it.
pub fn backup_file(data: &Path, out: &Path) -> Result<(), String> {
    vacuum_into(&open_read_only(data)?, out)
}

/// The folder of snapshots and pre-migration copies: `backups/` beside the data file.
pub fn backups_dir(data: &Path) -> PathBuf {
    data.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join("backups")
}

fn stamp() -> String {
    Utc::now().format("%Y%m%d-%H%M%S%3f").to_string()
}

/// The highest migration applied to the file, or None for a file never migrated.
pub fn schema_version(conn: &Connection) -> Result<Option<i64>, String> {
    let has_history: bool = conn
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refinery_schema_history')",
            [],
            |r| r.get(0),
        )
        .map_err(|e| e.to_string())?;
    if !has_history {
        return Ok(None);
    }
    conn.query_row("SELECT MAX(version) FROM refinery_schema_history", [], |r| {
        r.get(0)
    })
    .optional()
    .map(Option::flatten)
    .map_err(|e| e.to_string())
}

/// Copies the file into `backups/pre-migration-v<version>-<time>.db` before migrating it.
pub fn pre_migration_copy(conn: &Connection, data: &Path, version: i64) -> Result<PathBuf, String> {
    let dir = backups_dir(data);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let out = dir.join(format!("pre-migration-v{version}-{}.db", stamp()));
    vacuum_into(conn, &out)?;
    Ok(out)
}

/// Writes a scheduled snapshot into `backups/` and keeps only the newest `keep` of them.
pub fn snapshot(db: &super::Db, keep: usize) -> Result<PathBuf, String> {
    let dir = backups_dir(db.path());
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let out = dir.join(format!("{SNAPSHOT_PREFIX}{}.db", stamp()));
    db.backup_to(&out)?;
    let mut snapshots = list_snapshots(&dir);
    snapshots.sort();
    let surplus = snapshots.len().saturating_sub(keep.max(1));
    for old in &snapshots[..surplus] {
        std::fs::remove_file(old).map_err(|e| format!("cannot remove {}: {e}", old.display()))?;
    }
    Ok(out)
}

/// Scheduled snapshots in `dir`; their names sort in time order.
pub fn list_snapshots(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(SNAPSHOT_PREFIX) && n.ends_with(".db"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Litestream's state for the data file at `data`, when Litestream replicates it: the folder
/// `.<file name>-litestream` beside it (Litestream's default `meta-path`).
pub fn litestream_state(data: &Path) -> PathBuf {
    let name = data.file_name().unwrap_or_default().to_string_lossy();
    data.with_file_name(format!(".{name}-litestream"))
}

/// Held by a running server: a second server, or a restore, on the same file is refused.
pub struct DataLock {
    _file: File,
}

/// Takes the exclusive lock on `<data>.lock`.
pub fn lock_data_file(data: &Path) -> Result<DataLock, String> {
    let path = PathBuf::from(format!("{}.lock", data.display()));
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    file.try_lock().map_err(|_| {
        format!(
            "{} is in use by a running back office; stop it first",
            data.display()
        )
    })?;
    Ok(DataLock { _file: file })
}

/// What `check` found.
pub struct CheckReport {
    pub integrity: String,
    pub schema_version: Option<i64>,
    pub sqlite_version: String,
}

/// Runs SQLite's integrity check on the file and reads its schema version.
pub fn check(data: &Path) -> Result<CheckReport, String> {
    let conn = open_read_only(data)?;
    let problems: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| format!("integrity check failed to run: {e}"))?;
    let sqlite_version = conn
        .query_row("SELECT sqlite_version()", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    Ok(CheckReport {
        integrity: problems.join("\n"),
        schema_version: schema_version(&conn)?,
        sqlite_version,
    })
}

/// Replaces the data file with the backup `from`, after checking the backup and keeping a
/// complete copy of the file it replaces. Refused while a server holds the data file.
pub fn restore(data: &Path, from: &Path) -> Result<Option<PathBuf>, String> {
    let _lock = lock_data_file(data)?;
    let report = check(from)?;
    if report.integrity != "ok" {
        return Err(format!(
            "{} fails the integrity check: {}",
            from.display(),
            report.integrity
        ));
    }
    if report.schema_version.is_none() {
        return Err(format!("{} is not a back-office data file", from.display()));
    }
    let kept = if data.exists() {
        let kept = PathBuf::from(format!("{}.before-restore-{}", data.display(), stamp()));
        backup_file(data, &kept)?;
        Some(kept)
    } else {
        None
    };
    for suffix in ["", "-wal", "-shm"] {
        let path = PathBuf::from(format!("{}{suffix}", data.display()));
        if path.exists() {
            std::fs::remove_file(&path).map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        }
    }
    backup_file(from, data)?;
    Ok(kept)
}
