//! Drafts, the live preview, reading and listing documents, and issuing with a gapless number.

use crate::AppState;
use crate::auth::session::AuthUser;
use crate::book::{visible_client, visible_document};
use crate::clients::store as client_store;
use crate::db::page::{Page, Paginated};
use crate::db::settings;
use crate::documents::drafts::{
    DocumentInput, DocumentReply, NewDraft, as_input, check_dates, compose, create_in, header_changes,
    pricing_date,
};
use crate::documents::numbering::issue_in;
use crate::documents::pricing::{Mode, PricedLine, Totals};
use crate::documents::store::{self, Document, DocumentFilter, DocumentRow};
use crate::documents::{html, view};
use crate::error::{AppError, ErrorBody, Warning};
use crate::http::extract::{IdPath, JsonBody, QueryParams};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
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
    let filter = DocumentFilter {
        q: q.q,
        doc_type: q.doc_type,
        status: q.status,
        client_id: q.client_id,
        book: user.book(),
        from: q.from.map(|d| d.to_string()),
        to: q.to.map(|d| d.to_string()),
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
    if input.doc_type.is_some() || input.client_id.is_some() {
        let field = if input.doc_type.is_some() {
            "type"
        } else {
            "client_id"
        };
        return Err(AppError::invalid(
            field,
            "immutable",
            "Start a new draft to change the type or the client.",
        ));
    }
    let reply = state
        .db
        .write(move |tx| {
            let doc = visible_document(tx, &user, &id)?;
            if doc.status != "draft" {
                return Err(AppError::conflict("immutable", "An issued document cannot change: cancel it, supersede it (proforma) or issue a credit note (invoice)."));
            }
            let doc_date = input.doc_date.or(doc.doc_date.as_deref().and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()));
            let due_date = input.due_date.or(doc.due_date.as_deref().and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()));
            check_dates(&doc.doc_type, doc_date, due_date)?;
            let client = client_store::get(tx, &doc.client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
            let lines = input.lines.clone().unwrap_or_else(|| doc.lines.iter().map(|l| as_input(&l.priced)).collect());
            let round = input.round_to_rupee.unwrap_or(doc.round_to_rupee);
            let on = pricing_date(tx, doc_date.map(|d| d.to_string()).as_deref())?;
            let (priced, intra) = compose(tx, &client, &lines, on, round, Mode::Strict)?;
            let mut fields = header_changes(&input);
            fields.push(("intra_state", Value::Integer(i64::from(intra))));
            store::update(tx, &id, fields)?;
            store::set_lines(tx, &id, &priced)?;
            Ok(DocumentReply { document: visible_document(tx, &user, &id)?, warnings: priced.warnings })
        })
        .await?;
    Ok(Json(reply))
}

#[derive(Serialize, ToSchema)]
pub struct Preview {
    pub lines: Vec<PricedLine>,
    pub totals: Totals,
    #[serde(with = "crate::flag")]
    #[schema(value_type = u8)]
    pub intra_state: bool,
    pub warnings: Vec<Warning>,
    /// The draft rendered as the document will look (an HTML fragment, everything escaped).
    pub html: String,
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
    let client_id = input
        .client_id
        .clone()
        .ok_or_else(|| AppError::invalid("client_id", "required", "Choose the client."))?;
    let preview = state
        .db
        .read(move |c| {
            let client = visible_client(c, &user, &client_id)?;
            let on = match input.doc_date {
                Some(d) => d,
                None => settings::office_today(c)?,
            };
            let lines = input.lines.clone().unwrap_or_default();
            let (priced, intra) = compose(
                c,
                &client,
                &lines,
                on,
                input.round_to_rupee.unwrap_or(false),
                Mode::Permissive,
            )?;
            let mut warnings = priced.warnings;
            if input.due_date.is_some() && input.doc_type.as_deref() != Some("INVOICE") {
                warnings.push(Warning {
                    code: "due_date_not_allowed",
                    message: "Only an invoice has a due date.".into(),
                });
            }
            let doc_type = input.doc_type.clone().unwrap_or_else(|| "QUOTATION".into());
            let draft = Document {
                doc_type: doc_type.clone(),
                status: "draft".into(),
                doc_date: Some(on.to_string()),
                due_date: input
                    .due_date
                    .filter(|_| doc_type == "INVOICE")
                    .map(|d| d.to_string()),
                client_id: client.id.clone(),
                client_name: client.name.clone(),
                notes: input.notes.clone(),
                terms: input.terms.clone(),
                round_to_rupee: input.round_to_rupee.unwrap_or(false),
                intra_state: intra,
                subtotal: priced.totals.subtotal,
                cgst: priced.totals.cgst,
                sgst: priced.totals.sgst,
                igst: priced.totals.igst,
                round_off: priced.totals.round_off,
                total: priced.totals.total,
                lines: priced
                    .lines
                    .iter()
                    .enumerate()
                    .map(|(i, l)| store::Line {
                        id: String::new(),
                        position: i as i64,
                        priced: l.clone(),
                    })
                    .collect(),
                ..Document::default()
            };
            let letterhead = crate::company::letterhead::letterhead(c, &[])?;
            let html = html::fragment(&view::assemble(&draft, letterhead, view::party(&client), None))?;
            Ok(Preview {
                lines: priced.lines,
                totals: priced.totals,
                intra_state: intra,
                warnings,
                html,
            })
        })
        .await?;
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
    let doc = state
        .db
        .write(move |tx| {
            visible_document(tx, &user, &id)?;
            issue_in(tx, &user, &id)
        })
        .await?;
    Ok(Json(doc))
}
