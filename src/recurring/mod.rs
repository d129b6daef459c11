//! Recurring billing plans (spec 2.10, 6.3; decisions 5; owner only): a client billed the same
//! lines every month, quarter or year. The operations are one transaction each; a refused
//! request writes nothing.
//!
//! - `plans`: one plan read, a plan created or changed, each audited.
//! - `parking`: a plan parked by a failed generation, and cleared for a retry.
//! - `generate`: the plans' invoices issued (the daily job and the retry).
//! - `rules`: the dates and checks. `store`: the SQL. `routes`: handlers.

pub mod generate;
pub mod parking;
pub mod plans;
pub mod routes;
pub mod rules;
pub mod store;

pub use parking::{park_in, unpark_in};
pub use plans::{PlanInput, PlanReply, create_in, plan, update_in};
