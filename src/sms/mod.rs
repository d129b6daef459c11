//! SMS credit balances (spec 1 function 9, 4.9): pulled from the gateway for every SMS
//! subscription, flagged when the gateway says ERROR or makes no sense, reported lowest first
//! with `low` below `sms.low_balance_threshold`, and turned into a top-up quotation from the
//! report (the existing bulk-SMS quote).
//!
//! - `rules`: reading the gateway's `code|STATUS|payload` line, the poll address.
//! - `gateway`: one poll through `outbound`.
//! - `pull`: the pull of many, a few at a time, recorded as the answers come (job and routes).
//! - `report`: the balances list and the CSV of logins.
//! - `store`, `routes`.

pub mod gateway;
pub mod pull;
pub mod pulls;
pub mod report;
pub mod routes;
pub mod rules;
pub mod store;
