//! The writer thread: requests' writes queue for it, and it commits them in groups.
//!
//! Each write runs in a savepoint of its own inside the group's `BEGIN IMMEDIATE` transaction,
//! one after another (serialized, as before), so a write that fails or panics rolls back alone.
//! The group then commits once, with one `fsync` and the pages that the writes share (a table's
//! last leaf, the tallies, the indexes' hot pages) written to the WAL once instead of once per
//! write. No write is answered before the commit that holds it: an acknowledged write survives a
//! power cut as it did with one transaction each, and a failed commit fails every write in it.
//!
//! A group is what has queued up while the previous one ran, at most [`GROUP`] writes, so a
//! lone write commits at once and a burst is carried by few commits.

use super::savepoint::Savepoint;
use crate::plumbing::error::AppError;
use rusqlite::Connection;
use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, Weak};

/// The most writes one commit carries.
const GROUP: usize = 64;

/// The most writes that may wait for the writer. Past it a request is answered 503 with
/// `Retry-After` at once, rather than queueing without bound: at some 1,000 writes a second
/// this is a few seconds of work already promised.
pub const QUEUE: usize = 4096;

type Value = Box<dyn Any + Send>;
/// What a write does, inside its savepoint.
type Work = Box<dyn FnOnce(&Connection) -> Result<Value, AppError> + Send>;

/// A request's write and where its outcome goes.
pub struct WriteJob {
    work: Work,
    reply: tokio::sync::oneshot::Sender<Result<Value, AppError>>,
}

/// Queues `f` on the writer thread; answers its value once the group holding it is committed.
pub async fn write<T, F>(queue: &SyncSender<WriteJob>, f: F) -> Result<T, AppError>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> Result<T, AppError> + Send + 'static,
{
    let (reply, answer) = tokio::sync::oneshot::channel();
    let job = WriteJob {
        work: Box::new(move |conn| f(conn).map(|v| Box::new(v) as Value)),
        reply,
    };
    queue.try_send(job).map_err(|e| match e {
        TrySendError::Full(_) => AppError::busy(1),
        TrySendError::Disconnected(_) => AppError::internal("the writer thread has stopped"),
    })?;
    let value = answer
        .await
        .map_err(|_| AppError::internal("the writer thread dropped a write"))??;
    value
        .downcast::<T>()
        .map(|v| *v)
        .map_err(|_| AppError::internal("a write answered a value of another type"))
}

/// When the write holding the connection began (Unix milliseconds; 0: none).
#[derive(Default)]
pub struct BusySince(AtomicU64);

/// Marks the connection free again when dropped.
pub struct Busy<'a>(&'a BusySince);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        (self.0).0.store(0, Ordering::Relaxed);
    }
}

fn unix_millis() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_millis() as u64)
        .max(1)
}

impl BusySince {
    /// A write begins; it ends when the answer is dropped.
    pub fn start(&self) -> Busy<'_> {
        self.0.store(unix_millis(), Ordering::Relaxed);
        Busy(self)
    }

    /// How long the write now running has run, if one runs.
    pub fn running_for(&self) -> Option<std::time::Duration> {
        match self.0.load(Ordering::Relaxed) {
            0 => None,
            since => Some(std::time::Duration::from_millis(
                unix_millis().saturating_sub(since),
            )),
        }
    }
}

/// Starts the writer thread with room for `capacity` waiting writes. It holds the connection
/// only weakly, so the connection is closed (and the WAL removed) when the last handle goes,
/// not when the process ends.
pub fn spawn(
    writer: Weak<Mutex<Connection>>,
    busy: Arc<BusySince>,
    capacity: usize,
) -> Result<SyncSender<WriteJob>, String> {
    let (queue, jobs) = std::sync::mpsc::sync_channel::<WriteJob>(capacity);
    std::thread::Builder::new()
        .name("db-writer".into())
        .spawn(move || run(&writer, &busy, &jobs))
        .map_err(|e| format!("cannot start the writer thread: {e}"))?;
    Ok(queue)
}

fn run(writer: &Weak<Mutex<Connection>>, busy: &BusySince, jobs: &Receiver<WriteJob>) {
    // A job is queued by a handle that waits for its answer, so the connection is still there
    // for it.
    while let Ok(first) = jobs.recv() {
        let Some(writer) = writer.upgrade() else { break };
        let conn = writer.lock().unwrap_or_else(|p| p.into_inner());
        // What queued meanwhile (also while a blocking write held the connection) joins.
        let mut group = vec![first];
        group.extend(jobs.try_iter().take(GROUP - 1));
        let _busy = busy.start();
        commit_group(&conn, group);
    }
}

/// Runs `group` in one transaction, each job in its savepoint, commits, then answers each.
///
/// A job's savepoint that cannot be released or rolled back (or a job that ended the
/// transaction itself) leaves a transaction nobody can vouch for: then the whole group is
/// rolled back and every write in it fails, those before it too. Nothing is committed past a
/// failed rollback.
fn commit_group(conn: &Connection, group: Vec<WriteJob>) {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        let message = format!("cannot begin a write: {e}");
        for job in group {
            let _ = job.reply.send(Err(AppError::internal(&message)));
        }
        return;
    }
    let mut done = Vec::with_capacity(group.len());
    let mut broken: Option<String> = None;
    let mut jobs = group.into_iter();
    for job in jobs.by_ref() {
        let sp = match Savepoint::begin(conn) {
            Ok(sp) => sp,
            Err(e) => {
                broken = Some(format!("cannot open a savepoint: {e}"));
                done.push((job.reply, Err(AppError::internal("the write was not run"))));
                break;
            }
        };
        let value = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (job.work)(conn)))
            .unwrap_or_else(|_| Err(AppError::internal("a write panicked")));
        let closed = match &value {
            Ok(_) => sp.release(),
            Err(_) => sp.rollback(),
        };
        done.push((job.reply, value));
        if let Err(e) = closed {
            broken = Some(format!("a write's savepoint could not be closed: {e}"));
            break;
        }
    }
    let committed = match broken {
        Some(reason) => Err(reason),
        None => conn.execute_batch("COMMIT").map_err(|e| e.to_string()),
    };
    if let Err(reason) = &committed {
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        tracing::error!(%reason, "a group of writes was rolled back");
    }
    let not_run = jobs.map(|job| (job.reply, Err(AppError::internal("the write was not run"))));
    for (reply, value) in done.into_iter().chain(not_run) {
        let answer = match (&committed, value) {
            (Err(e), Ok(_)) => Err(AppError::internal(format!("the write was not committed: {e}"))),
            (_, value) => value,
        };
        // The request may have gone (the client hung up); its write stands.
        let _ = reply.send(answer);
    }
}

#[cfg(test)]
mod tests {
    use crate::plumbing::db::Db;
    use crate::plumbing::error::AppError;

    /// A write that holds the writer for a while (an import's commit) is work to the health
    /// check; one that has held it past the longest a write may take is a hang.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_long_write_is_work_and_a_longer_one_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("busy.db")).unwrap();
        let quick = std::time::Duration::from_millis(50);
        let minute = std::time::Duration::from_secs(60);
        assert!(
            db.writer_answers(quick * 20, minute).await,
            "an idle writer answers"
        );
        let (release, held) = std::sync::mpsc::channel::<()>();
        let holder = {
            let db = db.clone();
            tokio::task::spawn_blocking(move || {
                db.write_blocking(|_| {
                    held.recv().unwrap();
                    Ok(())
                })
            })
        };
        tokio::time::sleep(quick).await;
        assert!(
            db.writer_answers(quick, minute).await,
            "busy for less than a minute: at work"
        );
        assert!(
            !db.writer_answers(quick, std::time::Duration::ZERO).await,
            "busy past the longest write: hung"
        );
        release.send(()).unwrap();
        holder.await.unwrap().unwrap();
        assert!(
            db.writer_answers(quick * 20, std::time::Duration::ZERO).await,
            "free again, it answers"
        );
    }

    /// Writes queued together share a commit, yet each stands or falls alone: a refused write
    /// and a panicking one leave nothing, the others are all there, and the writer goes on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_group_commits_its_good_writes_and_only_those() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("group.db")).unwrap();
        db.write_blocking(|c| Ok(c.execute_batch("CREATE TABLE t (n INTEGER PRIMARY KEY)")?))
            .unwrap();
        // Hold the writer so the writes below queue up into one group.
        let (release, held) = std::sync::mpsc::channel::<()>();
        let holder = {
            let db = db.clone();
            std::thread::spawn(move || {
                db.write_blocking(|_| {
                    held.recv().unwrap();
                    Ok(())
                })
                .unwrap()
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        let writes: Vec<_> = (0..12i64)
            .map(|n| {
                let db = db.clone();
                tokio::spawn(async move {
                    db.write(move |c| {
                        c.execute("INSERT INTO t (n) VALUES (?1)", [n])?;
                        match n % 3 {
                            0 => Ok(n),
                            1 => Err(AppError::conflict("refused", "refused")),
                            _ if n == 5 => panic!("a write panics"),
                            _ => Ok(n),
                        }
                    })
                    .await
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(100));
        release.send(()).unwrap();
        holder.join().unwrap();
        let mut answered = vec![];
        for (n, w) in (0..12i64).zip(writes) {
            match w.await.unwrap() {
                Ok(v) => answered.push(v),
                Err(e) if n % 3 == 1 => assert_eq!(e.code, "refused"),
                Err(e) => assert_eq!((n, e.code), (5, "internal")),
            }
        }
        let stored: Vec<i64> = db
            .read(|c| {
                let mut stmt = c.prepare("SELECT n FROM t ORDER BY n")?;
                Ok(stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?)
            })
            .await
            .unwrap();
        assert_eq!(stored, vec![0, 2, 3, 6, 8, 9, 11]);
        assert_eq!(answered, stored);
        assert_eq!(
            db.write(|c| Ok(c.execute("INSERT INTO t (n) VALUES (12)", [])?))
                .await
                .unwrap(),
            1
        );
    }

    /// Creates table `t` and holds the writer with a write that waits for the returned sender,
    /// so that writes queued meanwhile form one group.
    fn held_writer() -> (
        tempfile::TempDir,
        Db,
        std::sync::mpsc::Sender<()>,
        std::thread::JoinHandle<()>,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("group.db")).unwrap();
        db.write_blocking(|c| Ok(c.execute_batch("CREATE TABLE t (n INTEGER PRIMARY KEY)")?))
            .unwrap();
        let (release, held) = std::sync::mpsc::channel::<()>();
        let (started, running) = std::sync::mpsc::channel::<()>();
        let holder = {
            let db = db.clone();
            std::thread::spawn(move || {
                db.write_blocking(|_| {
                    started.send(()).unwrap();
                    held.recv().unwrap();
                    Ok(())
                })
                .unwrap()
            })
        };
        running.recv().unwrap();
        (dir, db, release, holder)
    }

    async fn stored(db: &Db) -> Vec<i64> {
        db.read(|c| {
            let mut stmt = c.prepare("SELECT n FROM t ORDER BY n")?;
            Ok(stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?)
        })
        .await
        .unwrap()
    }

    /// A write that changes a row and then panics inside a nested savepoint leaves nothing
    /// behind; the writes queued beside it in the same group are all there. (With one savepoint
    /// name for every level, the writer's rollback once resolved to the inner savepoint and the
    /// outer write's first insert was committed with the group.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panic_in_a_nested_savepoint_undoes_the_whole_write_and_only_it() {
        let (_dir, db, release, holder) = held_writer();
        let before = {
            let db = db.clone();
            tokio::spawn(async move { db.write(|c| Ok(c.execute("INSERT INTO t VALUES (1)", [])?)).await })
        };
        let panicking = {
            let db = db.clone();
            tokio::spawn(async move {
                db.write(|c| {
                    c.execute("INSERT INTO t VALUES (2)", [])?;
                    crate::plumbing::db::savepoint(c, |c| -> Result<(), AppError> {
                        c.execute("INSERT INTO t VALUES (3)", [])?;
                        panic!("a nested write panics")
                    })
                })
                .await
            })
        };
        let after = {
            let db = db.clone();
            tokio::spawn(async move { db.write(|c| Ok(c.execute("INSERT INTO t VALUES (4)", [])?)).await })
        };
        std::thread::sleep(std::time::Duration::from_millis(100));
        release.send(()).unwrap();
        holder.join().unwrap();
        assert_eq!(before.await.unwrap().unwrap(), 1);
        assert_eq!(panicking.await.unwrap().unwrap_err().code, "internal");
        assert_eq!(after.await.unwrap().unwrap(), 1);
        assert_eq!(stored(&db).await, vec![1, 4]);
    }

    /// When a write's savepoint cannot be rolled back (here the write ended the transaction and
    /// began another), nothing of the group is committed and every write in it fails, the one
    /// before it too; the writer goes on with the next group.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failed_rollback_fails_the_whole_group() {
        let (_dir, db, release, holder) = held_writer();
        let spawn = |sql: &'static str, ok: bool| {
            let db = db.clone();
            tokio::spawn(async move {
                db.write(move |c| {
                    c.execute_batch(sql)?;
                    if ok {
                        Ok(())
                    } else {
                        Err(AppError::conflict("refused", "refused"))
                    }
                })
                .await
            })
        };
        let first = spawn("INSERT INTO t VALUES (1)", true);
        let breaking = spawn("ROLLBACK; BEGIN; INSERT INTO t VALUES (2)", false);
        let last = spawn("INSERT INTO t VALUES (3)", true);
        std::thread::sleep(std::time::Duration::from_millis(100));
        release.send(()).unwrap();
        holder.join().unwrap();
        assert_eq!(first.await.unwrap().unwrap_err().code, "internal");
        assert_eq!(breaking.await.unwrap().unwrap_err().code, "refused");
        assert_eq!(last.await.unwrap().unwrap_err().code, "internal");
        assert_eq!(stored(&db).await, Vec::<i64>::new());
        db.write(|c| Ok(c.execute("INSERT INTO t VALUES (5)", [])?))
            .await
            .unwrap();
        assert_eq!(stored(&db).await, vec![5]);
    }

    /// A full queue answers 503 with Retry-After at once instead of growing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_queue_answers_busy() {
        let dir = tempfile::tempdir().unwrap();
        let conn = std::sync::Arc::new(std::sync::Mutex::new(
            rusqlite::Connection::open(dir.path().join("q.db")).unwrap(),
        ));
        let queue = super::spawn(std::sync::Arc::downgrade(&conn), Default::default(), 1).unwrap();
        let (release, held) = std::sync::mpsc::channel::<()>();
        let (started, running) = std::sync::mpsc::channel::<()>();
        let running_job = {
            let queue = queue.clone();
            tokio::spawn(async move {
                super::write(&queue, move |_| {
                    started.send(()).unwrap();
                    held.recv().unwrap();
                    Ok(1)
                })
                .await
            })
        };
        running.recv().unwrap();
        let waiting = {
            let queue = queue.clone();
            tokio::spawn(async move { super::write(&queue, |_| Ok(2)).await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let refused = super::write(&queue, |_| Ok(3)).await.unwrap_err();
        assert_eq!(
            (refused.status.as_u16(), refused.code, refused.retry_after),
            (503, "busy", Some(1))
        );
        release.send(()).unwrap();
        assert_eq!(running_job.await.unwrap().unwrap(), 1);
        assert_eq!(waiting.await.unwrap().unwrap(), 2);
        assert_eq!(super::write(&queue, |_| Ok(4)).await.unwrap(), 4);
    }
}
