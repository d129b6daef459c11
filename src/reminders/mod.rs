//! Reminders (spec 2.9, 3.2, 4.6, 6.3): the daily scan raises them, the queue is worked from
//! them.
//!
//! - `queue`: a reminder of the user's share; dismissing one, many, a quotation's follow-ups.
//! - `scan`: the daily scan, what is due and raised.
//! - `send`: a reminder's email, previewed and sent; the auto-send drain.
//! - `bounces`: the mail provider's bounces read, contacts flagged.
//! - `schedule`: the dated schedule of day offsets in force.
//! - `rules`: kinds, the schedule's checks, ladders, keys. `sentences`: reasons, summaries, letters.
//! - `store`: the SQL. `routes`: handlers.

pub mod bounces;
pub mod queue;
pub mod routes;
pub mod rules;
pub mod scan;
pub mod schedule;
pub mod send;
pub mod sentences;
pub mod store;

pub use queue::{dismiss_in, dismiss_many_in, stop_followups_in, visible};
