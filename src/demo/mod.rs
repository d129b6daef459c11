//! `backoffice demo-data`: a realistic office, deterministic for a seed. Societies named as they
//! are really written, GSTINs that pass the check, a catalog with dated price changes and an SMS
//! rate card, subscriptions with milestones in every stage, and years of documents through every
//! lifecycle path (quotes won and lost, proformas converted, invoices paid in part with TDS,
//! credit notes, cancellations), payments and advances, and the audit rows all of that writes;
//! SMS subscriptions with their gateway logins and a month of daily balance checks; a support desk
//! of about ten tickets per society in every status, with their timelines (old ones closed, the
//! last weeks' still open, a few hundred past the SLA); and leads, one society in forty that came
//! in over the last months and has bought nothing yet (the pipeline's bare clients); and the
//! cloud costs of the societies that run on the cloud, month by month for two years; and the
//! TANs of the societies that deduct TDS with the Form 16A certificates they sent (or not).
//!
//! It writes straight to the tables in one transaction (the API would take hours for a large
//! office), using the same rules as the API: line taxes from `documents::rules::line_tax`,
//! numbers gapless per series and financial year in date order, allocations never beyond what an
//! invoice owes.
//!
//! - `fill`: the office filled, pass by pass, in one transaction (and the tests' small office).
//! - `summary`: what to generate and what was written. `rng`: the seeded generator.
//! - `history`: the planned office's rows and each subscription's checklist; `planner` plans the
//!   clients and subscriptions, `billing` their documents and payments; `write` writes them.
//! - `names`, `calls`: the words the office is made of (societies, places, people, calls).
//! - Passes after the history: `work` (contracts, plans, interactions, reminders), `tickets`,
//!   `legacy` (old encrypted passwords), `sms` (with `sms_gateways` and `sms_balances`),
//!   `cloud`, `tds`, `gst`, `form26as`.
//! - `store`: the SQL the passes share (the owner's id).

mod billing;
mod calls;
mod cloud;
mod fill;
pub mod form26as;
mod gst;
mod history;
mod legacy;
mod names;
mod planner;
mod rng;
mod sms;
mod sms_balances;
mod sms_gateways;
mod store;
mod summary;
mod tds;
mod tickets;
mod work;
mod write;

#[cfg(test)]
pub(crate) use fill::small_office;
pub use fill::{STAFF_PASSWORD, fill};
pub use rng::Rng;
/// Days of daily SMS balance checks the demo holds.
pub use sms::DAYS as SMS_DAYS;
pub use summary::{Options, Summary};
