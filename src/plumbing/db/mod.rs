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
//!
//! Who folds the WAL back into the data file is [`Checkpoints`]: the server itself, or, when the
//! file is replicated by Litestream, Litestream (see `packaging/litestream/`).

pub mod audit;
pub mod backup;
pub mod handle;
pub mod ids;
pub mod migrations;
pub mod page;
pub mod query;
pub mod savepoint;
pub mod settings;
mod writer;

pub use handle::{
    Checkpoints, Db, LITESTREAM_BACKSTOP_PAGES, READERS, WRITER_CACHE_KIB, configure_reader,
    with_writer_cache,
};
pub use migrations::{check_sqlite_version, embedded_migrations, latest_schema_version, migrate};
pub use savepoint::{Savepoint, savepoint};
