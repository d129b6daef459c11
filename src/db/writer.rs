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

use super::savepoint;
use crate::http::error::AppError;
use rusqlite::Connection;
use std::any::Any;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Mutex, Weak};

/// The most writes one commit carries.
const GROUP: usize = 64;

type Value = Box<dyn Any + Send>;
/// What a write does, inside its savepoint.
type Work = Box<dyn FnOnce(&Connection) -> Result<Value, AppError> + Send>;

/// A request's write and where its outcome goes.
pub struct WriteJob {
    work: Work,
    reply: tokio::sync::oneshot::Sender<Result<Value, AppError>>,
}

/// Queues `f` on the writer thread; answers its value once the group holding it is committed.
pub async fn write<T, F>(queue: &Sender<WriteJob>, f: F) -> Result<T, AppError>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> Result<T, AppError> + Send + 'static,
{
    let (reply, answer) = tokio::sync::oneshot::channel();
    let job = WriteJob {
        work: Box::new(move |conn| f(conn).map(|v| Box::new(v) as Value)),
        reply,
    };
    queue
        .send(job)
        .map_err(|_| AppError::internal("the writer thread has stopped"))?;
    let value = answer.await.map_err(AppError::internal)??;
    value
        .downcast::<T>()
        .map(|v| *v)
        .map_err(|_| AppError::internal("a write answered a value of another type"))
}

/// Starts the writer thread. It holds the connection only weakly, so the connection is closed
/// (and the WAL removed) when the last handle goes, not when the process ends.
pub fn spawn(writer: Weak<Mutex<Connection>>) -> Result<Sender<WriteJob>, String> {
    let (queue, jobs) = std::sync::mpsc::channel::<WriteJob>();
    std::thread::Builder::new()
        .name("db-writer".into())
        .spawn(move || run(&writer, &jobs))
        .map_err(|e| format!("cannot start the writer thread: {e}"))?;
    Ok(queue)
}

fn run(writer: &Weak<Mutex<Connection>>, jobs: &Receiver<WriteJob>) {
    // A job is queued by a handle that waits for its answer, so the connection is still there
    // for it.
    while let Ok(first) = jobs.recv() {
        let Some(writer) = writer.upgrade() else { break };
        let mut group = vec![first];
        group.extend(jobs.try_iter().take(GROUP - 1));
        let conn = writer.lock().unwrap_or_else(|p| p.into_inner());
        commit_group(&conn, group);
    }
}

/// Runs `group` in one transaction, each job in its savepoint, commits, then answers each.
fn commit_group(conn: &Connection, group: Vec<WriteJob>) {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        let message = format!("cannot begin a write: {e}");
        for job in group {
            let _ = job.reply.send(Err(AppError::internal(&message)));
        }
        return;
    }
    let mut done = Vec::with_capacity(group.len());
    for job in group {
        // An I/O error can roll the whole transaction back; what follows must not then run
        // outside it.
        let value = if conn.is_autocommit() {
            Err(AppError::internal("the write transaction was rolled back"))
        } else {
            savepoint(conn, |c| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (job.work)(c)))
                    .unwrap_or_else(|_| Err(AppError::internal("a write panicked")))
            })
        };
        done.push((job.reply, value));
    }
    let committed = if conn.is_autocommit() {
        Err("the write transaction was rolled back".to_string())
    } else {
        conn.execute_batch("COMMIT").map_err(|e| e.to_string())
    };
    if committed.is_err() && !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    for (reply, value) in done {
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
    use crate::db::Db;
    use crate::http::error::AppError;

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
}
