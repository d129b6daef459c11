//! Reports for the office: what is still owed (dues aging) and what goes into the GST return.

pub mod continuity;
pub mod reads;
pub mod routes;
pub mod rules;
pub mod store;
