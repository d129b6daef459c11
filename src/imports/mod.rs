//! Moving in (spec 1 function 11, 2.10, 4.8; issue 17): a legacy file of clients and their old
//! invoices is staged (`staging`), its problems corrected or excluded row by row, and committed
//! in one transaction (`commit`) that seeds the number series past the legacy numbers.
//!
//! - `staging`: a file staged, re-checked or discarded; a row corrected or its action set; the
//!   status.
//! - `commit`: the staged rows committed as clients, contacts and legacy invoices.
//! - `reading`: the file's headers and CSV rows read; the sample file.
//! - `checks`: the checks a row passes or fails on its own.
//! - `matching`: the rows checked against one another and the registry.
//!
//! `rules`: the limits, problem markers, names, amounts, dates, numbers and continuity gaps.
//! `store`: the SQL. `routes`: handlers.

pub mod checks;
pub mod commit;
pub mod matching;
pub mod reading;
pub mod routes;
pub mod rules;
pub mod staging;
pub mod store;
