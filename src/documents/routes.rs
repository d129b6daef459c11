//! Drafts, the live preview, reading and listing documents, and issuing with a gapless number.

use crate::AppState;
use crate::auth::session::AuthUser;
use crate::book::visible_document;
use crate::db::page::{Page, Paginated};
use crate::documents::drafts::{self, DocumentInput, DocumentReply, NewDraft, create_in};
use crate::documents::numbering::issue_in;
use crate::documents::preview::{self, Preview};
use crate::documents::rules::PAYMENT_STATES;
use crate::documents::store::{self, Document, DocumentFilter, DocumentRow};
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{IdPath, JsonBody, QueryParams};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_documents, create_document))
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

/// Documents, newest first (staff: the ones they created).
#[utoipa::path(get, path = "/api/documents", tag = "documents", params(Page, DocumentQuery),
    responses((status = 200, body = Paginated<DocumentRow>)))]
async fn list_documents(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<DocumentQuery>,
) -> Result<Json<Paginated<DocumentRow>>, AppError> {
    if let Some(state) = &q.payment_state
        && !PAYMENT_STATES.contains(&state.as_str())
    {
        return Err(AppError::bad_request(
            "invalid_payment_state",
            format!("payment_state is one of {}.", PAYMENT_STATES.join(", ")),
        ));
    }
    let filter = DocumentFilter {
        q: q.q,
        doc_type: q.doc_type,
        status: q.status,
        client_id: q.client_id,
        book: user.book(),
        from: q.from.map(|d| d.to_string()),
        to: q.to.map(|d| d.to_string()),
        payment_state: q.payment_state,
    };
    Ok(Json(state.db.read(move |c| store::list(c, filter, &page)).await?))
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
