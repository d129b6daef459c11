//! The Tally export (issue 36, decisions 12 "Tally"): a period's issued invoices (Sales), credit
//! notes (Credit Note) and recorded payments (Receipt) as the XML TallyPrime's Import Data
//! accepts, or the party ledgers they name on their own; and the ledger names they post to, an
//! owner's setting. The operations, one read or one transaction each:
//!
//! - [`period`]: the period asked for, checked (400 for a value that is not a date, 422 for a
//!   period that ends before it starts).
//! - [`export`]: writes the envelope, handing its bytes out in chunks as it goes.
//! - [`settings_view`], [`save_settings_in`]: the ledger names, read and set (audited).
//!
//! In `export` and `settings`. `rules`: the vouchers built from plain structs. `envelope`: the XML that carries them.
//! `store`: the SQL. `routes`: handlers.

pub mod envelope;
pub mod export;
pub mod routes;
pub mod rules;
pub mod settings;
pub mod store;

pub use export::{Period, export, export_bytes, period, prepare};
pub use settings::{SETTING, TallySettingsInput, ledgers, save_settings_in, settings_view};
