//! The handlers of documents going out: the PDF, the letterhead's sample preview, the default
//! recipient, send and convert-and-send. The sending itself is `delivery`.

use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::company::letterhead;
use crate::documents::delivery::{self, EmailOutcome, SendRequest};
use crate::documents::store::Document;
use crate::documents::store::visible_document;
use crate::documents::{html, pdf_response, shares, view};
use crate::email;
use crate::plumbing::error::{AppError, ErrorBody, Warning};
use crate::plumbing::http::extract::{ClientInfo, IdPath, JsonBody, QueryParams};
use crate::plumbing::mail;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(pdf))
        .routes(routes!(sample))
        .routes(routes!(send))
        .routes(routes!(default_recipient))
        .routes(routes!(convert_and_send))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PdfQuery {
    /// 1: as an attachment named from the number (`INV-26-27-0001.pdf`, or `draft.pdf`).
    pub download: Option<u8>,
}

/// The document as an A4 PDF, inline unless `download=1`.
#[utoipa::path(get, path = "/api/documents/{id}/pdf", tag = "documents", params(("id" = String, Path), PdfQuery),
    responses((status = 200, content_type = "application/pdf", body = Vec<u8>), (status = 404, body = ErrorBody)))]
async fn pdf(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    QueryParams(query): QueryParams<PdfQuery>,
) -> Result<Response, AppError> {
    let (doc_no, view) = state
        .db
        .read(move |c| {
            let doc = visible_document(c, &user, &id)?;
            Ok((doc.doc_no.clone(), view::build(c, &doc)?))
        })
        .await?;
    let bytes = tokio::task::spawn_blocking(move || crate::documents::pdf::document_pdf(&view))
        .await
        .map_err(AppError::internal)??;
    Ok(pdf_response(bytes, doc_no.as_deref(), query.download == Some(1)))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SampleRequest {
    /// Unsaved `template.<field>` values to try out; the saved ones fill the rest.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub template: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize, ToSchema)]
pub struct SamplePreview {
    pub html: String,
}

/// The letterhead on a made-up invoice, with unsaved template values applied.
#[utoipa::path(post, path = "/api/previews/sample", tag = "documents", request_body = SampleRequest,
    responses((status = 200, body = SamplePreview), (status = 422, body = ErrorBody)))]
async fn sample(
    State(state): State<AppState>,
    _user: AuthUser,
    JsonBody(request): JsonBody<SampleRequest>,
) -> Result<Json<SamplePreview>, AppError> {
    let overrides = letterhead::check(&request.template)?;
    let html = state
        .db
        .read(move |c| html::fragment(&html::sample(letterhead::letterhead(c, &overrides)?)))
        .await?;
    Ok(Json(SamplePreview { html }))
}

#[derive(Serialize, ToSchema)]
pub struct SentReply {
    #[serde(flatten)]
    pub document: Document,
    pub email: EmailOutcome,
    pub warnings: Vec<Warning>,
}

#[derive(Serialize, ToSchema)]
pub struct Recipient {
    /// Where a send without `to` goes; null when the client has no address anywhere.
    pub to: Option<String>,
    /// 1 when mail to that address has bounced.
    pub bouncing: u8,
}

/// Where the document would be emailed by default (for the send dialog).
#[utoipa::path(get, path = "/api/documents/{id}/recipient", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, body = Recipient), (status = 404, body = ErrorBody)))]
async fn default_recipient(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Recipient>, AppError> {
    let recipient = state
        .db
        .read(move |c| {
            let doc = visible_document(c, &user, &id)?;
            let to = client_store::email_recipient(c, &doc.client_id)?;
            let bouncing = match &to {
                Some(address) => client_store::address_bouncing(c, address)?,
                None => false,
            };
            Ok(Recipient {
                to,
                bouncing: u8::from(bouncing),
            })
        })
        .await?;
    Ok(Json(recipient))
}

/// Email an issued document: the PDF attached, its share link in the body (a live link is
/// reused, else one is minted). A failed send is logged and answers 502; the document is unchanged.
#[utoipa::path(post, path = "/api/documents/{id}/send", tag = "documents", params(("id" = String, Path)), request_body = SendRequest,
    responses((status = 200, body = SentReply), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn send(
    State(state): State<AppState>,
    user: AuthUser,
    client: ClientInfo,
    IdPath(id): IdPath,
    JsonBody(request): JsonBody<SendRequest>,
) -> Result<Json<SentReply>, AppError> {
    delivery::check_addresses(&request)?;
    let (who, req, config) = (user.clone(), request.clone(), state.config.clone());
    let (id, to, link) = state
        .db
        .write(move |tx| delivery::ready_in(tx, &who, &id, &req, &config, client.origin.as_deref()))
        .await?;
    let config = state.config.clone();
    let public_address_set = state
        .db
        .read(move |c| Ok(shares::base_url(c, &config)?.is_some()))
        .await?;
    let warnings = shares::link_warnings(public_address_set, &link);
    let out = delivery::prepare(&state, &user, id, to, request, link).await?;
    let (document, email) = delivery::deliver(&state, &user, out).await?;
    if let Some(error) = &email.error {
        return Err(AppError::upstream(
            "mail_failed",
            format!(
                "The email to {} was not sent: {error}. It is recorded in the email log; the document is unchanged.",
                email.to
            ),
        ));
    }
    Ok(Json(SentReply {
        document,
        email,
        warnings,
    }))
}

/// Convert a proforma into an invoice, issue it and email it (spec 3.1). Every guard runs before
/// any write (a proforma, the mail provider alive, a recipient); the conversion and the issue are
/// one transaction; the email goes after the commit, and if it fails the invoice stays issued and
/// the answer carries a warning.
#[utoipa::path(post, path = "/api/documents/{id}/convert-and-send", tag = "documents", params(("id" = String, Path)), request_body = SendRequest,
    responses((status = 200, description = "The issued invoice", body = SentReply), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn convert_and_send(
    State(state): State<AppState>,
    user: AuthUser,
    client: ClientInfo,
    IdPath(id): IdPath,
    JsonBody(request): JsonBody<SendRequest>,
) -> Result<Json<SentReply>, AppError> {
    delivery::check_addresses(&request)?;
    let (who, source, req) = (user.clone(), id.clone(), request.clone());
    let config = state
        .db
        .read(move |c| delivery::check_convertible(c, &who, &source, &req))
        .await?;
    let guard = state.config.guard();
    mail::probe(config, guard)
        .await?
        .map_err(|e| email::dead_provider(&e))?;
    let (who, req, config) = (user.clone(), request.clone(), state.config.clone());
    let (invoice_id, to, link) = state
        .db
        .write(move |tx| {
            delivery::convert_and_issue_in(tx, &who, &id, &req, &config, client.origin.as_deref())
        })
        .await?;
    let out = delivery::prepare(&state, &user, invoice_id, to, request, link).await?;
    let (document, email) = delivery::deliver(&state, &user, out).await?;
    let warnings = email
        .error
        .as_ref()
        .map(|error| Warning {
            code: "email_failed",
            message: format!("The invoice is issued, but the email to {} was not sent: {error}. Send it again from the invoice.", email.to),
        })
        .into_iter()
        .collect();
    Ok(Json(SentReply {
        document,
        email,
        warnings,
    }))
}
