//! Global search (spec 1 function 12, 4.7; decisions 11): what the console's search box asks
//! as one types. One read answers four groups, each of at most five hits with a `capped` flag:
//!
//! - clients whose name, GSTIN, district or remote access id contains the text, by name;
//! - issued documents (never a draft; cancelled ones too, since their numbers stay in the
//!   series and people look them up) whose number contains it, then those of the clients whose
//!   name contains it, newest first;
//! - tickets whose subject contains it, still-open ones first, newest first;
//! - payments whose receipt number starts with it (text starting with a letter) or contains
//!   it (other text with a digit), the highest number first.
//!
//! Text that is a phone number also finds the clients whose phone or a contact's holds its
//! digits, after those found by name; an invoice found says whether it is paid
//! (`payment_state`).
//!
//! A staff user searches their book (and for tickets, their share: `book::ticket_is_in`). The
//! handler, and a benchmark, call [`search`]:
//!
//! - `find`: the one read, [`search`], and the groups it answers.
//! - `rules`: the text, the groups asked, phone numbers, receipt numbers, the hits' details.
//! - `store`: the SQL.
//! - `routes`: the handler.

pub mod find;
pub mod routes;
pub mod rules;
pub mod store;

pub use find::{ClientHits, DocumentHits, PaymentHits, SearchResults, TicketHits, search};
