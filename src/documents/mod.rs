//! Quotations, proforma invoices, GST invoices and credit notes. The operations, each in a file
//! named for it:
//!
//! - `drafts`: a new draft, its place of supply and prices; `preview`: an unsaved draft drawn.
//! - `numbering`: issuing, with the next number of the series.
//! - `lifecycle`: sent, accepted, lost, convert, supersede, cancel, credit note.
//! - `quotes`: proformas made from a subscription (renewal, SMS top-up).
//! - `shares`: public share links; `delivery`: documents sent by email.
//! - `pricing`: a document's lines priced; `upi`: the UPI link of a bill that is owed.
//! - `view`: what a rendered document shows; `html` and `pdf` draw it (`pdf_samples`: the
//!   PDF tests' sample invoice).
//!
//! `rules`: numbers, states, checks. `store`: a document's SQL (`lists_store` the list,
//! `shares_store` the share links, `numbers_store` the number series, `upi_store` the UPI
//! link's client read). `routes`, `lifecycle_routes`, `quote_routes`, `share_routes`,
//! `delivery_routes`: handlers.

pub mod delivery;
pub mod delivery_routes;
pub mod drafts;
pub mod html;
pub mod lifecycle;
pub mod lifecycle_routes;
pub mod lists_store;
pub mod numbering;
pub mod numbers_store;
pub mod pdf;
#[cfg(test)]
pub mod pdf_samples;
pub mod preview;
pub mod pricing;
pub mod quote_routes;
pub mod quotes;
pub mod routes;
pub mod rules;
pub mod share_routes;
pub mod shares;
pub mod shares_store;
pub mod store;
pub mod upi;
pub mod upi_store;
pub mod view;

pub use pdf::pdf_response;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;

pub fn router() -> OpenApiRouter<AppState> {
    routes::router()
        .merge(lifecycle_routes::router())
        .merge(quote_routes::router())
        .merge(share_routes::router())
        .merge(delivery_routes::router())
}
