//! Nested writes: a savepoint of the current transaction, rolled back alone on failure.

use crate::plumbing::error::AppError;
use rusqlite::Connection;

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
