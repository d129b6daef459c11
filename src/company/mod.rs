//! The vendor's own profile (letterhead, GSTIN and state for the place of supply, bank details)
//! and the billing defaults; kept as dated settings. The operations settings (the SMS gateway's
//! balance address, the low-balance threshold, the ticket SLA) are settings of the office too.
//!
//! - `profile`: the company profile, read, checked and saved.
//! - `billing`: the payment terms in force, read and changed.
//! - `letterhead`: the letterhead's fields, defaults and logo; `letterhead_pdf` draws it;
//!   `letterhead_store`: its SQL.
//! - `operations`: the operations settings read and saved; `operations_rules`: their checks.
//! - `routes`, `letterhead_routes`, `operations_routes`: handlers, merged by [`router`].

pub mod billing;
pub mod letterhead;
pub mod letterhead_pdf;
pub mod letterhead_routes;
pub mod letterhead_store;
pub mod operations;
pub mod operations_routes;
pub mod operations_rules;
pub mod profile;
pub mod routes;

pub use billing::{
    Billing, BillingInput, billing, payment_terms_days, payment_terms_days_today, save_billing_in,
};
pub use operations::Operations;
pub use profile::{CompanyProfile, PROFILE_KEY, check_profile, profile, save_profile_in};

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;

pub fn router() -> OpenApiRouter<AppState> {
    routes::router()
        .merge(letterhead_routes::router())
        .merge(operations_routes::router())
}
