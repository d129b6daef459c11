//! Payments from societies: money and TDS allocated to invoices, advances, and receipts. The
//! operations, each in a file named for it:
//!
//! - `recording`: a payment recorded with its receipt number, allocations and advance; an
//!   advance allocated later.
//! - `corrections`: a payment cancelled, an allocation undone, an advance refunded.
//! - `receipt`: what a receipt shows; `receipt_pdf` draws it.
//!
//! `rules`: modes, amounts, allocations, checks. `store`: the SQL. `routes`: handlers.

pub mod corrections;
pub mod receipt;
pub mod receipt_pdf;
pub mod recording;
pub mod routes;
pub mod rules;
pub mod store;
