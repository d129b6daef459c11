//! The data file: a read pool plus one serialized write path.
//!
//! SQLite runs in WAL mode with `synchronous=FULL` (an invoice number handed to a society must
//! survive a power cut), `foreign_keys=ON` and a busy timeout, all set in [`configure`].
//! Every top-level write goes through [`Db::write`]: one writer connection behind a mutex,
//! `BEGIN IMMEDIATE`, so writes are serialized; nested work uses [`savepoint`]. Requests' writes
//! queue for one writer thread, which runs them back to back, each in a savepoint, and commits
//! what queued together at once ([`writer`]). Requests' reads queue for [`READERS`] reading
//! threads of their own ([`Workers`]). Nothing runs on the async threads.
//!
//! So at most [`READERS`] threads run requests' reads at any time, and their memory (page
//! caches, sorts, rows, malloc arenas) is that many threads' worth, whatever the number of
//! clients. Measured on the large office (docs/benchmark.md): 16 clients asking for the dues
//! aging at once took the server to 190 MB when every request had a thread waiting inside the
//! pool.

pub mod audit;
pub mod backup;
pub mod ids;
pub mod page;
pub mod query;
pub mod settings;
mod writer;

use crate::error::AppError;
use crate::workers::Workers;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod embedded {
    refinery::embed_migrations!("migrations");
}

/// The oldest SQLite without the WAL-reset corruption bug (fixed in 3.51.3).
const MIN_SQLITE: (u32, u32, u32) = (3, 51, 3);

type Pool = r2d2::Pool<SqliteConnectionManager>;

/// Reads a request may run at once: one per core. More only queue inside SQLite (its page
/// cache and allocator take process-wide mutexes) and hold more memory; on the large office
/// the mixed day went from 500 to 640 requests a second and its p99 from 140 to 70 ms going
/// from 4 to 2 (docs/benchmark.md).
pub const READERS: u32 = 2;

/// Read connections beyond those, for work that holds one for long outside a request's turn:
/// a streamed CSV waiting on a slow client, a background job.
const SPARE_READERS: u32 = 4;

/// Page cache of each read connection (KiB): a deep page walks ~2 MB of an index, and the
/// rows it then reads should still be cached.
const READER_CACHE_KIB: i64 = 4096;

/// Page cache of the writer (KiB): an invoice touches some forty pages of the indexes of a
/// large office.
pub const WRITER_CACHE_KIB: i64 = 16384;

/// Handle to the data file; cheap to clone.
#[derive(Clone)]
pub struct Db {
    pool: Pool,
    /// The threads requests' reads run on, one per core.
    readers: Workers,
    /// The writer thread's queue; the thread ends when the last handle goes.
    writes: std::sync::mpsc::SyncSender<writer::WriteJob>,
    writer: Arc<Mutex<Connection>>,
    /// When the write now running began (Unix milliseconds; 0 when none runs): a long write
    /// (an import's commit) is work, not a hang, to the health check.
    busy_since: Arc<writer::BusySince>,
    path: PathBuf,
}

/// Prepared statements kept per connection. Lists build their SQL from the filters given, and
/// a handler runs a dozen statements; 16 (rusqlite's default) let them push each other out.
const STATEMENT_CACHE: usize = 128;

/// Pragmas every connection gets.
fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = WAL;
         PRAGMA synchronous = FULL;
         PRAGMA foreign_keys = ON;
         PRAGMA temp_store = MEMORY;
         PRAGMA cache_size = -{WRITER_CACHE_KIB};"
    ))
}

/// What every connection of the read pool gets (the benchmark's floor opens its connection the
/// same way).
pub fn configure_reader(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.execute_batch(&format!(
        "PRAGMA foreign_keys = ON; PRAGMA query_only = ON; PRAGMA cache_size = -{READER_CACHE_KIB};"
    ))
}

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

impl Db {
    /// Opens (creating when missing) the data file, checks the library, runs the migrations.
    /// Errors are plain sentences for the operator.
    pub fn open(path: &Path) -> Result<Db, String> {
        let mut writer =
            Connection::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let version: String = writer
            .query_row("SELECT sqlite_version()", [], |r| r.get(0))
            .map_err(|e| e.to_string())?;
        check_sqlite_version(&version)?;
        configure(&writer).map_err(|e| format!("cannot configure {}: {e}", path.display()))?;
        migrate(&mut writer, path, embedded::migrations::runner())?;
        let manager = SqliteConnectionManager::file(path)
            .with_flags(
                OpenFlags::SQLITE_OPEN_READ_ONLY
                    | OpenFlags::SQLITE_OPEN_NO_MUTEX
                    | OpenFlags::SQLITE_OPEN_URI,
            )
            .with_init(|c| configure_reader(c));
        let pool = r2d2::Pool::builder()
            .max_size(READERS + SPARE_READERS)
            .min_idle(Some(READERS))
            // A connection is checked when it is opened; checking it again at every checkout
            // is a statement per request for nothing (a local file does not drop).
            .test_on_check_out(false)
            .build(manager)
            .map_err(|e| e.to_string())?;
        let writer = Arc::new(Mutex::new(writer));
        let busy_since = Arc::new(writer::BusySince::default());
        Ok(Db {
            pool,
            readers: Workers::start("reader", READERS as usize)?,
            writes: writer::spawn(Arc::downgrade(&writer), busy_since.clone(), writer::QUEUE)?,
            writer,
            busy_since,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` on a read connection, on one of the [`READERS`] reading threads.
    pub async fn read<T, F>(&self, f: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, AppError> + Send + 'static,
    {
        let pool = self.pool.clone();
        self.readers.run(move || f(&*pool.get()?)).await?
    }

    /// Runs `f` in one serialized top-level write, off the async threads: on the writer
    /// thread, in a savepoint of a group commit (see [`writer`]). It is committed when `f`
    /// returns `Ok` and answered only once committed; it rolls back alone otherwise.
    pub async fn write<T, F>(&self, f: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, AppError> + Send + 'static,
    {
        writer::write(&self.writes, f).await
    }

    /// Whether the writer thread is alive and answering: an empty write through it, given
    /// `within` to come back, or, when it does not, a write still running that began less than
    /// `longest_write` ago (an import's commit holds the writer for seconds). The health check
    /// asks, so a service manager restarts a server whose writer died or hangs, not one at work.
    pub async fn writer_answers(&self, within: Duration, longest_write: Duration) -> bool {
        match tokio::time::timeout(within, self.write(|_| Ok(()))).await {
            Ok(answer) => answer.is_ok(),
            Err(_) => self.busy_since.running_for().is_some_and(|d| d < longest_write),
        }
    }

    /// A write of hundreds of thousands of rows (an import's commit) in its own top-level
    /// transaction, off the async threads, instead of a savepoint of a group commit. Inside a
    /// savepoint, every statement that touches a page the data file already had journals it
    /// in the savepoint's in-memory sub-journal, and closing each statement truncates that
    /// journal back by walking its chunk list from the start: a cost that grows with the
    /// write, so 50,000 invoices committed into the large office did not finish in 15 minutes
    /// (`sqlite3BtreeSavepoint` 96% of the time), where on its own it takes seconds.
    pub async fn write_alone<T, F>(&self, f: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, AppError> + Send + 'static,
    {
        let db = self.clone();
        tokio::task::spawn_blocking(move || db.write_blocking(f))
            .await
            .map_err(|e| AppError::internal(format!("a write's thread failed: {e}")))?
    }

    /// A write of its own `BEGIN IMMEDIATE` transaction, for callers already off the async
    /// threads (CLI, background jobs): committed when `f` returns `Ok`.
    pub fn write_blocking<T, F>(&self, f: F) -> Result<T, AppError>
    where
        F: FnOnce(&Connection) -> Result<T, AppError>,
    {
        let mut conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let _busy = self.busy_since.start();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// [`Db::read`] for callers already off the async threads.
    pub fn read_blocking<T, F>(&self, f: F) -> Result<T, AppError>
    where
        F: FnOnce(&Connection) -> Result<T, AppError>,
    {
        let conn = self.pool.get()?;
        f(&conn)
    }

    /// Writes a consistent, self-contained copy of the data file to `out` while the server runs.
    pub fn backup_to(&self, out: &Path) -> Result<(), String> {
        // A fresh connection: the pool's are `query_only`, which VACUUM INTO is not.
        backup::backup_file(&self.path, out)
    }

    /// Folds the WAL back into the main file so the `.db` alone is complete (clean shutdown).
    pub fn checkpoint(&self) -> Result<(), AppError> {
        let conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }
}

/// Runs `f` inside a savepoint of the current transaction: a nested transaction that rolls
/// back alone when `f` fails or panics, leaving the outer one usable.
pub fn savepoint<T>(
    conn: &Connection,
    f: impl FnOnce(&Connection) -> Result<T, AppError>,
) -> Result<T, AppError> {
    let sp = Savepoint::begin(conn)?;
    match f(conn) {
        Ok(v) => {
            sp.release()?;
            Ok(v)
        }
        Err(e) => {
            sp.rollback()?;
            Err(e)
        }
    }
}

/// An open savepoint with a name no other open savepoint has, so that rolling it back can never
/// resolve to a savepoint nested inside it (SQLite takes the innermost of equal names). It rolls
/// back when dropped unfinished, as when a panic unwinds through it.
pub struct Savepoint<'c> {
    conn: &'c Connection,
    name: String,
    open: bool,
}

impl<'c> Savepoint<'c> {
    pub fn begin(conn: &'c Connection) -> rusqlite::Result<Self> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("sp{n}");
        conn.execute_batch(&format!("SAVEPOINT {name}"))?;
        Ok(Savepoint {
            conn,
            name,
            open: true,
        })
    }

    /// Keeps what was done since the savepoint (as part of the enclosing transaction).
    pub fn release(mut self) -> rusqlite::Result<()> {
        self.open = false;
        self.conn.execute_batch(&format!("RELEASE {}", self.name))
    }

    /// Undoes what was done since the savepoint. An error means the transaction is in a state
    /// nobody can vouch for: the caller must roll the whole transaction back.
    pub fn rollback(mut self) -> rusqlite::Result<()> {
        self.open = false;
        self.conn
            .execute_batch(&format!("ROLLBACK TO {0}; RELEASE {0}", self.name))
    }
}

impl Drop for Savepoint<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self
                .conn
                .execute_batch(&format!("ROLLBACK TO {0}; RELEASE {0}", self.name));
        }
    }
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
