//! Quotations, proforma invoices, GST invoices and credit notes.

pub mod lifecycle;
pub mod pricing;
pub mod quotes;
pub mod routes;
pub mod rules;
pub mod store;
pub mod view;

use crate::AppState;
use utoipa_axum::router::OpenApiRouter;

pub fn router() -> OpenApiRouter<AppState> {
    routes::router()
        .merge(lifecycle::router())
        .merge(quotes::router())
}
