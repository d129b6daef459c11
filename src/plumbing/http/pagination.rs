//! Reads a [`Page`] from a request's query and refuses a page or size out of range (400).

use crate::plumbing::db::page::{MAX_PER_PAGE, Page};
use crate::plumbing::error::AppError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;

impl<S: Send + Sync> FromRequestParts<S> for Page {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let page: Page = crate::plumbing::http::extract::parse_query(parts.uri.query())?;
        if page.page == 0 {
            return Err(AppError::bad_request("invalid_query", "page starts at 1.").on_field("page"));
        }
        if page.per_page == 0 || page.per_page > MAX_PER_PAGE {
            return Err(AppError::bad_request(
                "invalid_query",
                format!("per_page must be 1 to {MAX_PER_PAGE}."),
            )
            .on_field("per_page"));
        }
        Ok(page)
    }
}
