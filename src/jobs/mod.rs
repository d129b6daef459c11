//! Background work of the running server (spec 6.3).
//!
//! One scheduler thread ticks every 6 hours, at 00:15, 06:15, 12:15 and 18:15 office time, and
//! once at start; each tick runs what is due. A daily job is due until it has run to the end
//! for the office day, so a server that was off for a week runs it once on start, not seven
//! times, and a failed run is tried again at the next tick. Each job runs in its own failure
//! boundary (an error or a panic is recorded in `job_run`, the other jobs still run) and writes
//! through the one write path in batches, so requests interleave. Backup snapshots keep their
//! own timer (`backup_every_hours`).
//!
//! - `daily`: the jobs, one run recorded, the day's runs.
//! - `scheduler`: the ticks, the scheduler thread, the snapshots.
//! - `store`: the SQL of `job_run`. `routes`: the jobs page's handlers.

pub mod daily;
pub mod routes;
pub mod scheduler;
pub mod store;

pub use daily::{AUTO_SEND_DRAIN, DAILY_SCAN, JOBS, Job, run_day, run_job};
pub use scheduler::{Scheduler, next_tick, spawn};
