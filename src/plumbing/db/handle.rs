//! The handle to the data file ([`Db`]): the writer connection and its queue, the read pool
//! and its threads, who checkpoints the WAL, and the pragmas every connection gets.

use crate::plumbing::error::AppError;
use crate::plumbing::workers::Workers;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::backup;
use super::migrations::{check_sqlite_version, embedded, migrate};
use super::writer;

type Pool = r2d2::Pool<SqliteConnectionManager>;

/// Reads a request may run at once: one per core of the benchmark's machine. More only queue
/// for the cores and hold more memory; on the large office the mixed day went from 500 to 640
/// requests a second and its p99 from 140 to 70 ms going from 4 to 2 (docs/benchmark.md). The
/// two do run side by side: SQLite is built with a page cache per connection and no allocation
/// count (`.cargo/config.toml`), so no process-wide mutex makes them take turns.
pub const READERS: u32 = 2;

/// Read connections beyond those, for work that holds one for long outside a request's turn:
/// a streamed CSV waiting on a slow client, a background job.
const SPARE_READERS: u32 = 4;

/// Page cache of each read connection (KiB): what a summary reads at random should stay cached
/// between two calls. On the large office a ticket search reads some 4,800 rows of the 16 MB
/// ticket table and a GSTR-1 month 2,700 lines spread over the line table; with 4 MiB each
/// call read a third of its pages again from the OS (a third of the ticket search's time in
/// `pread`). 16 MiB took the ticket search from 7.1 to 4.7 ms, the dues aging from 4.5 to 3.5,
/// the dashboard from 4.2 to 3.0 and GSTR-1 from 8.4 to 6.8 (docs/benchmark.md); it is what
/// each connection may hold, [`READERS`] of them at work.
const READER_CACHE_KIB: i64 = 16384;

/// Page cache of the writer (KiB): an invoice touches some forty pages of the indexes of a
/// large office.
pub const WRITER_CACHE_KIB: i64 = 16384;

/// Runs `f` on the writer connection `tx` with a page cache of `kib` KiB instead of
/// [`WRITER_CACHE_KIB`] (a fill of many pages in one transaction), and sets the usual cache back.
pub fn with_writer_cache<T>(
    tx: &Connection,
    kib: i64,
    f: impl FnOnce(&Connection) -> Result<T, AppError>,
) -> Result<T, AppError> {
    tx.execute_batch(&format!("PRAGMA cache_size = -{kib}"))?;
    let done = f(tx);
    tx.execute_batch(&format!("PRAGMA cache_size = -{WRITER_CACHE_KIB}"))?;
    done
}

/// Who checkpoints the WAL, that is copies its committed pages back into the data file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Checkpoints {
    /// The server: SQLite's automatic checkpoint once the WAL holds 1,000 pages, and a
    /// `TRUNCATE` checkpoint on a clean stop, after which the `.db` alone is complete (unless
    /// another process still reads it: see [`Db::checkpoint`]).
    #[default]
    Server,
    /// Litestream, which streams the WAL to a replica (`serve --replicated`). Litestream must see
    /// every frame before a checkpoint lets SQLite write over it, so it takes the checkpoints
    /// itself, between two copies, and holds a read transaction meanwhile; Litestream's tips
    /// ask the application to leave them to it. The server's automatic checkpoint then waits
    /// for [`LITESTREAM_BACKSTOP_PAGES`], so it only acts when Litestream has not checkpointed
    /// for a long time (it is not running), and a clean stop leaves the WAL to Litestream: a
    /// `TRUNCATE` there waits out the busy timeout on Litestream's read transaction, and when
    /// it does get through, Litestream finds its WAL cut short and ships the whole file again.
    Litestream,
}

/// WAL pages past which the server checkpoints even when Litestream is meant to (64 MiB at
/// SQLite's 4 KiB pages): sixteen times Litestream's own passive threshold (1,000 pages), well
/// under its emergency `TRUNCATE` (121,359), so a WAL whose Litestream has stopped cannot grow
/// without bound. While Litestream runs its read transaction keeps this checkpoint from
/// resetting a WAL it has not copied yet.
pub const LITESTREAM_BACKSTOP_PAGES: u32 = 16_384;

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
    checkpoints: Checkpoints,
}

/// Prepared statements kept per connection. Lists build their SQL from the filters given, and
/// a handler runs a dozen statements; 16 (rusqlite's default) let them push each other out.
const STATEMENT_CACHE: usize = 128;

/// Pragmas the writer connection gets. The 5-second busy timeout is also what Litestream asks
/// of an application: Litestream takes the write lock for a moment around its checkpoints.
fn configure(conn: &Connection, checkpoints: Checkpoints) -> rusqlite::Result<()> {
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.busy_handler(Some(wait_for_the_lock))?;
    let autocheckpoint = match checkpoints {
        Checkpoints::Server => 1000,
        Checkpoints::Litestream => LITESTREAM_BACKSTOP_PAGES,
    };
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = WAL;
         PRAGMA synchronous = FULL;
         PRAGMA foreign_keys = ON;
         PRAGMA temp_store = MEMORY;
         PRAGMA cache_size = -{WRITER_CACHE_KIB};
         PRAGMA wal_autocheckpoint = {autocheckpoint};"
    ))?;
    leave_the_wal_on_close(conn, checkpoints)
}

/// When Litestream checkpoints, no connection of ours checkpoints as it closes. The last
/// connection to a file closing folds the WAL in and deletes it whenever no other process has
/// the file open, and Litestream does not always (just started, or restarting): the replication
/// test saw a write made a moment before a clean stop folded in and its WAL gone.
fn leave_the_wal_on_close(conn: &Connection, checkpoints: Checkpoints) -> rusqlite::Result<()> {
    if checkpoints == Checkpoints::Litestream {
        conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
    }
    Ok(())
}

/// The writer's busy handler: another process holds the write lock (Litestream, while it
/// checkpoints). SQLite's own handler sleeps 1, 2, 5, 10 ... up to 100 ms between tries: with
/// four clients writing flat out the writer waited 70 ms each time, where Litestream held the
/// lock some 40 ms, which is what it waits with tries every millisecond (docs/benchmark.md).
/// Tries for 5 seconds.
fn wait_for_the_lock(tries: i32) -> bool {
    if tries >= BUSY_TIMEOUT_MS {
        return false;
    }
    std::thread::sleep(Duration::from_millis(1));
    true
}

/// How long a connection waits for a lock another process holds.
const BUSY_TIMEOUT_MS: i32 = 5000;

/// What every connection of the read pool gets (the benchmark's floor opens its connection the
/// same way).
pub fn configure_reader(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.busy_timeout(Duration::from_millis(BUSY_TIMEOUT_MS as u64))?;
    conn.execute_batch(&format!(
        "PRAGMA foreign_keys = ON; PRAGMA query_only = ON; PRAGMA cache_size = -{READER_CACHE_KIB};"
    ))
}

impl Db {
    /// Opens (creating when missing) the data file, checks the library, runs the migrations.
    /// Errors are plain sentences for the operator.
    pub fn open(path: &Path) -> Result<Db, String> {
        Db::open_with(path, Checkpoints::Server)
    }

    /// [`Db::open`], saying who checkpoints the WAL.
    pub fn open_with(path: &Path, checkpoints: Checkpoints) -> Result<Db, String> {
        let mut writer =
            Connection::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let version: String = writer
            .query_row("SELECT sqlite_version()", [], |r| r.get(0))
            .map_err(|e| e.to_string())?;
        check_sqlite_version(&version)?;
        configure(&writer, checkpoints).map_err(|e| format!("cannot configure {}: {e}", path.display()))?;
        migrate(&mut writer, path, embedded::migrations::runner())?;
        let manager = SqliteConnectionManager::file(path)
            .with_flags(
                OpenFlags::SQLITE_OPEN_READ_ONLY
                    | OpenFlags::SQLITE_OPEN_NO_MUTEX
                    | OpenFlags::SQLITE_OPEN_URI,
            )
            .with_init(move |c| {
                configure_reader(c)?;
                leave_the_wal_on_close(c, checkpoints)
            });
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
            checkpoints,
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

    /// Folds the WAL back into the main file so the `.db` alone is complete (clean shutdown);
    /// answers whether it is. It is not when Litestream checkpoints ([`Checkpoints::Litestream`]):
    /// the WAL is left to it. Nor when another process still reads the WAL (Litestream beside a
    /// server not told so): SQLite then gives up after the busy timeout and the WAL stays.
    pub fn checkpoint(&self) -> Result<bool, AppError> {
        if self.checkpoints == Checkpoints::Litestream {
            return Ok(false);
        }
        let conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
        Ok(busy == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::{Checkpoints, Db};

    /// The WAL's size once 80 MiB went through it, one MiB a commit; after the clean stop's
    /// checkpoint (and whether it completed the file); and once every connection is closed.
    fn wal_after_80_mib(checkpoints: Checkpoints) -> (u64, u64, bool, u64) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("wal.db");
        let db = Db::open_with(&path, checkpoints).unwrap();
        db.write_blocking(|c| Ok(c.execute_batch("CREATE TABLE blob (b BLOB)")?))
            .unwrap();
        for _ in 0..80 {
            db.write_blocking(|c| Ok(c.execute("INSERT INTO blob VALUES (zeroblob(1048576))", [])?))
                .unwrap();
        }
        let wal = || std::fs::metadata(dir.path().join("wal.db-wal")).map_or(0, |m| m.len());
        let running = wal();
        let complete = db.checkpoint().unwrap();
        let stopped = wal();
        drop(db);
        (running, stopped, complete, wal())
    }

    /// The server checkpoints every 1,000 pages and folds the WAL in at the stop; when Litestream
    /// checkpoints, the server's backstop lets the WAL reach 16,384 pages (64 MiB) and no further,
    /// and neither the stop nor the last connection closing touches the WAL.
    #[test]
    fn who_checkpoints_decides_how_far_the_wal_grows_and_what_the_stop_does() {
        const MIB: u64 = 1 << 20;
        let (running, stopped, complete, closed) = wal_after_80_mib(Checkpoints::Server);
        assert!(running < 6 * MIB, "{running}");
        assert_eq!((stopped, complete, closed), (0, true, 0));
        let (running, stopped, complete, closed) = wal_after_80_mib(Checkpoints::Litestream);
        assert!((64 * MIB..66 * MIB).contains(&running), "{running}");
        assert_eq!((stopped, complete, closed), (running, false, running));
    }

    /// The bundled SQLite is built as `.cargo/config.toml` asks: each connection with its own
    /// page cache (no unified cache behind one mutex) and no count of the memory in use (whose
    /// mutex every allocation takes). Built otherwise, two reads take turns on two cores.
    #[test]
    fn sqlite_is_built_without_the_mutexes_that_make_reads_take_turns() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let options: Vec<String> = conn
            .prepare("PRAGMA compile_options")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(
            !options.iter().any(|o| o == "ENABLE_MEMORY_MANAGEMENT"),
            "{options:?}"
        );
        assert!(options.iter().any(|o| o == "DEFAULT_MEMSTATUS=0"), "{options:?}");
    }
}
