//! `GET /api/search?q=` (spec 4.7; decisions 11): for every signed-in user, staff within their
//! book.

use crate::auth::session::AuthUser;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::QueryParams;
use crate::search::{self, SearchResults, rules};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(global_search))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// The text as typed: trimmed; under 2 characters the groups are empty; at most 100.
    pub q: Option<String>,
    /// The groups to search, comma-separated: clients, documents, tickets, payments (all four
    /// when absent); the others are answered empty.
    pub only: Option<String>,
}

/// Clients (name, GSTIN, district, remote access id; a phone number: their phone or a
/// contact's, digits compared), issued documents (number, client name; an invoice's
/// `payment_state`), tickets (subject) and payments (receipt number) containing `q`, at most
/// five of each with `capped` when there are more; staff see their book (tickets: their share).
#[utoipa::path(get, path = "/api/search", tag = "search", params(SearchQuery),
    responses((status = 200, body = SearchResults),
              (status = 400, description = "q is longer than 100 characters, or only names no group", body = ErrorBody)))]
async fn global_search(
    State(state): State<AppState>,
    user: AuthUser,
    QueryParams(query): QueryParams<SearchQuery>,
) -> Result<Json<SearchResults>, AppError> {
    let groups = rules::groups(query.only.as_deref())?;
    let book = user.book();
    let found = state
        .db
        .read(move |c| search::search(c, query.q.as_deref(), groups, book.as_deref()))
        .await?;
    Ok(Json(found))
}
