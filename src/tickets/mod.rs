//! Support tickets (spec 2.10, 4.6; decisions 5, 9, 11): a client's support call with its SLA
//! age, a timeline of status changes and notes, and the bill raised from it. The operations,
//! which the handlers, the benchmark and other areas call, are in files named for them:
//! `reads` (the list, one ticket, the still-open counts), `changes` (open, change, bill) and
//! `settings` (the clock, the types); the rules are in `rules`, the SQL in `store`.
//!
//! Tickets are not audited: each change is a timeline entry with who made it and when, and a
//! bill is a document draft, audited by the documents area.

pub mod changes;
pub mod reads;
pub mod routes;
pub mod rules;
pub mod settings;
pub mod store;

pub use changes::{TicketInput, bill_in, change_in, open_in};
pub use reads::{Listed, TicketDetail, detail, list, still_open, still_open_at};
pub use settings::{TicketSettings, TicketSettingsInput, clock, save_settings_in, ticket_settings, types};
