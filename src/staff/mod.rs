//! Staff accounts: the owner invites, edits, deactivates and resets; everyone lists them for pickers.

pub mod accounts;
pub mod routes;
pub mod rules;
pub mod store;
