//! Drafts, the live preview, reading and listing documents, and issuing with a gapless number.

use crate::auth::session::AuthUser;
use crate::documents::drafts::{self, DocumentInput, DocumentReply, NewDraft, create_in};
use crate::documents::numbering::issue_in;
use crate::documents::preview::{self, Preview};
use crate::documents::rules::PAYMENT_STATES;
use crate::documents::store::visible_document;
use crate::documents::store::{self, Document, DocumentFilter, DocumentRow};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams};
use crate::plumbing::money;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_documents, create_document))
        .routes(routes!(documents_csv))
        .routes(routes!(preview))
        .routes(routes!(get_document, patch_document))
        .routes(routes!(issue))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DocumentQuery {
    /// Part of the number or the client's name (case-insensitive).
    pub q: Option<String>,
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub doc_type: Option<String>,
    pub status: Option<String>,
    pub client_id: Option<String>,
    /// First document date, inclusive.
    pub from: Option<NaiveDate>,
    /// Last document date, inclusive.
    pub to: Option<NaiveDate>,
    /// Issued invoices that are unpaid, part_paid, paid or overdue.
    pub payment_state: Option<String>,
}

impl DocumentQuery {
    fn filter(self, user: &AuthUser) -> Result<DocumentFilter, AppError> {
        if let Some(state) = &self.payment_state
            && !PAYMENT_STATES.contains(&state.as_str())
        {
            return Err(AppError::bad_request(
                "invalid_payment_state",
                format!("payment_state is one of {}.", PAYMENT_STATES.join(", ")),
            ));
        }
        Ok(DocumentFilter {
            q: self.q,
            doc_type: self.doc_type,
            status: self.status,
            client_id: self.client_id,
            book: user.book(),
            from: self.from.map(|d| d.to_string()),
            to: self.to.map(|d| d.to_string()),
            payment_state: self.payment_state,
        })
    }
}

/// Documents, newest first (staff: those of their clients). Sort by docNo, type, client_name,
/// doc_date, due_date, status, total, outstanding or created_at.
#[utoipa::path(get, path = "/api/documents", tag = "documents", params(Page, DocumentQuery),
    responses((status = 200, body = Paginated<DocumentRow>)))]
async fn list_documents(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<DocumentQuery>,
) -> Result<Json<Paginated<DocumentRow>>, AppError> {
    let filter = q.filter(&user)?;
    Ok(Json(
        state
            .db
            .read(move |c| store::list(c, filter)?.page(c, &page))
            .await?,
    ))
}

const DOCUMENT_CSV: &[&str] = &[
    "Number",
    "Type",
    "Client",
    "Date",
    "Due",
    "Status",
    "Payment",
    "Total",
    "Outstanding",
];

fn document_cells(r: &DocumentRow) -> Vec<String> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        text(&r.doc_no),
        r.doc_type.clone(),
        r.client_name.clone(),
        text(&r.doc_date),
        text(&r.due_date),
        r.status.clone(),
        text(&r.payment_state),
        money::decimal(r.total),
        r.outstanding.map(money::decimal).unwrap_or_default(),
    ]
}

/// Every document the list's filters and sort select, as CSV (rupees, dates YYYY-MM-DD).
#[utoipa::path(get, path = "/api/documents.csv", tag = "documents", params(Page, DocumentQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list")))]
async fn documents_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<DocumentQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user)?;
    let list = move |c: &rusqlite::Connection| store::list(c, filter);
    csv::stream(
        &state.db,
        "documents.csv".into(),
        DOCUMENT_CSV,
        page.sort,
        list,
        document_cells,
    )
    .await
}

/// Create a draft (no number until it is issued).
#[utoipa::path(post, path = "/api/documents", tag = "documents", request_body = DocumentInput,
    responses((status = 201, body = DocumentReply), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_document(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(input): JsonBody<DocumentInput>,
) -> Result<(StatusCode, Json<DocumentReply>), AppError> {
    let draft = NewDraft::check(input)?;
    let reply = state.db.write(move |tx| create_in(tx, &user, draft)).await?;
    Ok((StatusCode::CREATED, Json(reply)))
}

/// One document with its lines and timeline.
#[utoipa::path(get, path = "/api/documents/{id}", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, body = Document), (status = 404, body = ErrorBody)))]
async fn get_document(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Document>, AppError> {
    Ok(Json(
        state.db.read(move |c| visible_document(c, &user, &id)).await?,
    ))
}

/// Edit a draft. An issued document is immutable (409): cancel, supersede or credit-note it.
#[utoipa::path(patch, path = "/api/documents/{id}", tag = "documents", request_body = DocumentInput, params(("id" = String, Path)),
    responses((status = 200, body = DocumentReply), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn patch_document(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<DocumentInput>,
) -> Result<Json<DocumentReply>, AppError> {
    let reply = state
        .db
        .write(move |tx| drafts::update_in(tx, &user, &id, input))
        .await?;
    Ok(Json(reply))
}

/// The computation of a draft on an unsaved body: permissive (warnings instead of refusals),
/// persists nothing.
#[utoipa::path(post, path = "/api/documents/preview", tag = "documents", request_body = DocumentInput,
    responses((status = 200, body = Preview), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn preview(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(input): JsonBody<DocumentInput>,
) -> Result<Json<Preview>, AppError> {
    let preview = state.db.read(move |c| preview::preview(c, &user, input)).await?;
    Ok(Json(preview))
}

/// Issue a draft: number, date, due date and prices are fixed from now on.
#[utoipa::path(post, path = "/api/documents/{id}/issue", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, body = Document), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn issue(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Document>, AppError> {
    let doc = state.db.write(move |tx| issue_in(tx, &user, &id)).await?;
    Ok(Json(doc))
}
