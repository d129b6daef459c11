//! The GSTR-1 export (issue 21): a month's return built from the issued invoices and credit
//! notes, read as a summary with its warnings, or downloaded as the GST offline tool's CSV
//! sheets or the portal's JSON.
//!
//! - `reads`: the return of a month, with the company's GSTIN.
//! - `tables`: the return's tables built from the month's documents and their lines (B2B, B2C,
//!   credit notes, nil, HSN).
//! - `documents_issued`: Table 13, a row per number series.
//! - `warnings`: what would make the tool refuse the file, each once.
//! - `sheets`: the offline tool's CSV sheets.
//! - `portal`: the portal's JSON.
//!
//! `rules`: the documents and lines, the return's types, places and dates. `store`: the SQL. `routes`: handlers.

pub mod documents_issued;
pub mod portal;
pub mod reads;
pub mod routes;
pub mod rules;
pub mod sheets;
pub mod store;
pub mod tables;
pub mod warnings;

pub use reads::gstr1;
