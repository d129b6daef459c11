//! The statement of account of a client (issue 35, decisions 12): its opening balance, every
//! invoice, credit note, payment (money and TDS as rows of their own), refund and cancelled
//! payment of a period in date order with a running balance, the closing balance, the aging of
//! what is open and the open invoices, and the UPI link for the closing balance when something is
//! owed. As JSON, CSV and a PDF on the letterhead ([`pdf`]). The staff book applies (`crate::book`).
//!
//! Its figures tie to the rest of the books: the closing at today is the client's invoices'
//! outstanding less its payments' unallocated money (`clients::owes`), which
//! tests/api/statement.rs holds on hand-built histories and on every client of a demo office.
//!
//! - `statement`: the statement of a client for a period, and the period asked for.
//! - `pdf`: the statement on the letterhead.
//! - `delivery`: a statement sent by email, once a day to an address.
//! - `year_end`: the year-end run, who is owed a statement.
//! - `rules`: the period, the ledger, the aging. `store`: the SQL. `routes`: handlers.

pub mod delivery;
pub mod pdf;
pub mod routes;
pub mod rules;
pub mod statement;
pub mod store;
pub mod year_end;

pub use statement::{Statement, StatementPeriod, statement};
