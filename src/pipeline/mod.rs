//! The pipeline (spec 1 function 7, 4.6; decisions 11): the chase list of open quotations and
//! bare leads, each with its stage, age, colour band and next action. A read: the handler, the
//! CSV twin and the benchmark call [`listing`].
//!
//! - `listing`: the pipeline as a filter selects it, and the ladder its bands are read against.
//! - `quotes`: the open quotations at a glance (the dashboard's and the cockpit's tile).
//! - `rules`: stages, ages, bands, next actions. `store`: the SQL. `routes`: handlers.

pub mod listing;
pub mod quotes;
pub mod routes;
pub mod rules;
pub mod store;

pub use listing::{ladder, listing};
pub use quotes::{Bands, OpenQuotes, open_quotes};
