//! Quotations, proforma invoices, GST invoices and credit notes.

pub mod delivery;
pub mod delivery_routes;
pub mod drafts;
pub mod html;
pub mod lifecycle;
pub mod lifecycle_routes;
pub mod numbering;
pub mod pdf;
pub mod preview;
pub mod pricing;
pub mod quote_routes;
pub mod quotes;
pub mod routes;
pub mod rules;
pub mod share_routes;
pub mod shares;
pub mod store;
pub mod upi;
pub mod view;

use crate::state::AppState;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;

pub fn router() -> OpenApiRouter<AppState> {
    routes::router()
        .merge(lifecycle_routes::router())
        .merge(quote_routes::router())
        .merge(share_routes::router())
        .merge(delivery_routes::router())
}

/// A document's PDF: inline, or as an attachment named from its number (decisions 5).
pub fn pdf_response(bytes: Vec<u8>, doc_no: Option<&str>, download: bool) -> Response {
    let name = view::pdf_file_name(doc_no);
    let disposition = format!(
        "{}; filename=\"{name}\"",
        if download { "attachment" } else { "inline" }
    );
    (
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "private, no-store".to_string()),
        ],
        bytes,
    )
        .into_response()
}
