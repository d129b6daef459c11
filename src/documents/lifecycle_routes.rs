//! The lifecycle's handlers (spec 3.1): mark-sent, accept, lost, convert, supersede, cancel and
//! credit note. The transactions are in `lifecycle`.

use crate::auth::session::{AuthUser, Manager};
use crate::documents::pricing::LineInput;
use crate::documents::rules::PriceChanged;
use crate::documents::store::Document;
use crate::documents::store::visible_document;
use crate::documents::{lifecycle, rules};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(mark_sent))
        .routes(routes!(accept))
        .routes(routes!(lost))
        .routes(routes!(convert))
        .routes(routes!(supersede))
        .routes(routes!(cancel))
        .routes(routes!(credit_note))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConvertTo {
    /// PROFORMA or INVOICE.
    pub to: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelReason {
    pub reason: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreditNoteRequest {
    pub reason: String,
    /// The lines to credit; none: the whole invoice (only while nothing has been credited).
    pub lines: Option<Vec<LineInput>>,
}

/// Record that a document was sent by hand (the first 'sent' anchors follow-up aging); a quotation moves to sent.
#[utoipa::path(post, path = "/api/documents/{id}/mark-sent", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, body = Document), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn mark_sent(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Document>, AppError> {
    let doc = state
        .db
        .write(move |tx| lifecycle::record_sent(tx, &user, &id))
        .await?;
    Ok(Json(doc))
}

/// The client accepted the quotation.
#[utoipa::path(post, path = "/api/documents/{id}/accept", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, body = Document), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn accept(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Document>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| lifecycle::decide(tx, &user, &id, "accepted"))
            .await?,
    ))
}

/// The quotation was lost.
#[utoipa::path(post, path = "/api/documents/{id}/lost", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, body = Document), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn lost(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Document>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| lifecycle::decide(tx, &user, &id, "lost"))
            .await?,
    ))
}

/// Convert a quotation or proforma into the next document, as a linked draft; refused (409)
/// while a live forward child exists. The source becomes 'invoiced'.
#[utoipa::path(post, path = "/api/documents/{id}/convert", tag = "documents", request_body = ConvertTo, params(("id" = String, Path)),
    responses((status = 200, description = "The new draft, with a `price_changed` warning per line whose unit price moved", body = ConvertReply), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn convert(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<ConvertTo>,
) -> Result<Json<ConvertReply>, AppError> {
    let reply = state
        .db
        .write(move |tx| {
            let converted = lifecycle::convert_in(tx, &user, &id, &req.to)?;
            Ok(ConvertReply {
                document: visible_document(tx, &user, &converted.id)?,
                warnings: converted.price_changes,
            })
        })
        .await?;
    Ok(Json(reply))
}

/// The new draft of a conversion, with the lines whose price moved (decisions 12: a conversion
/// re-prices, never silently).
#[derive(Serialize, ToSchema)]
struct ConvertReply {
    #[serde(flatten)]
    document: Document,
    warnings: Vec<PriceChanged>,
}

/// Supersede a proforma: it is cancelled ('Superseded & recreated') and a fresh linked
/// proforma draft carries its payload unchanged. An invoice is never superseded (409): credit-note it.
#[utoipa::path(post, path = "/api/documents/{id}/supersede", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, description = "The new draft", body = Document), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn supersede(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Document>, AppError> {
    let doc = state
        .db
        .write(move |tx| lifecycle::supersede_in(tx, &user, &id))
        .await?;
    Ok(Json(doc))
}

/// Cancel a document (owner or manager) with a reason; drafts too. The number stays consumed.
#[utoipa::path(post, path = "/api/documents/{id}/cancel", tag = "documents", request_body = CancelReason, params(("id" = String, Path)),
    responses((status = 200, body = Document), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, description = "Empty reason", body = ErrorBody)))]
async fn cancel(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<CancelReason>,
) -> Result<Json<Document>, AppError> {
    let reason = rules::check_reason(&req.reason)?;
    let doc = state
        .db
        .write(move |tx| lifecycle::cancel_in(tx, &user, &id, &reason))
        .await?;
    Ok(Json(doc))
}

/// Issue a credit note against an issued invoice (owner or manager): its own CN number, never
/// more than what is still creditable on the invoice.
#[utoipa::path(post, path = "/api/documents/{id}/credit-note", tag = "documents", request_body = CreditNoteRequest, params(("id" = String, Path)),
    responses((status = 200, description = "The issued credit note", body = Document), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn credit_note(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<CreditNoteRequest>,
) -> Result<Json<Document>, AppError> {
    let reason = rules::check_reason(&req.reason)?;
    let note = state
        .db
        .write(move |tx| lifecycle::credit_note_in(tx, &user, &id, &reason, req.lines.as_deref()))
        .await?;
    Ok(Json(note))
}
