//! TDS certificates tracked to the receipt (issue 21). Every TDS amount booked on a payment
//! allocation of a recorded payment is owed back as a Form 16A by the society that deducted it,
//! quarter by quarter, and is credited to the vendor only as far as Form 26AS shows it
//! deposited. The operations, one transaction or one read each, are what the handlers, the
//! daily scan, the reminders' letter and the benchmark call, each in a file named for it:
//!
//! - `receivable`: the report per client and quarter (booked, certified, filed, state).
//! - `certificates`: a Form 16A recorded or revised; the letter asking for one.
//! - `deposits`: Form 26AS uploaded and matched (`form26as` reads the file).
//! - `reminders`: the daily scan's `tds_certificate_due` and `tds_not_filed`.
//!
//! `rules`: quarters, statutory dates, checks, sentences. `store`: the SQL. `settings`: the
//! default section. `routes`: handlers.

pub mod certificates;
pub mod deposits;
pub mod form26as;
pub mod receivable;
pub mod reminders;
pub mod routes;
pub mod rules;
pub mod settings;
pub mod store;

pub use self::settings::{TdsSettings, TdsSettingsInput, default_section, save_settings_in, settings_view};
pub use certificates::{
    Recorded, TdsCertificate, TdsCertificateInput, certificate_letter, record_certificate,
};
pub use deposits::{Form26asImport, Form26asInput, import_26as, keep_statement};
pub use receivable::{
    Asked, Receivable, SORTS, TdsReceivable, TdsReceivableRow, TdsStateCounts, TdsTotals, period,
    quarter_rows, receivable, receivable_csv, receivable_rows,
};
pub use reminders::{NOT_FILED_KIND, REMINDER_KIND, reminders_due};
