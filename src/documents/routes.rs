//! Drafts, the live preview, reading and listing documents, and issuing with a gapless number.

use crate::AppState;
use crate::auth::session::AuthUser;
use crate::clients::store::{self as client_store, Client};
use crate::company;
use crate::company::routes::payment_terms_days;
use crate::db::audit::{Audit, audit};
use crate::db::page::{Page, Paginated};
use crate::db::query::text_or_null;
use crate::db::settings;
use crate::documents::pricing::{self, LineInput, Mode, Priced, PricedLine, Totals, Warning};
use crate::documents::store::{self, Document, DocumentFilter, DocumentRow};
use crate::documents::{html, rules, view};
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{IdPath, JsonBody, QueryParams};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::{Duration, NaiveDate};
use rusqlite::Connection;
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

/// A document with the warnings its computation raised.
#[derive(Serialize, ToSchema)]
pub struct DocumentReply {
    #[serde(flatten)]
    pub document: Document,
    pub warnings: Vec<Warning>,
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
        created_by: user.book(),
        from: q.from.map(|d| d.to_string()),
        to: q.to.map(|d| d.to_string()),
    };
    Ok(Json(state.db.read(move |c| store::list(c, filter, &page)).await?))
}

/// What a draft is made of.
#[derive(Deserialize, ToSchema, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct DocumentInput {
    /// QUOTATION, PROFORMA or INVOICE (at create only).
    #[serde(rename = "type")]
    pub doc_type: Option<String>,
    /// At create only.
    pub client_id: Option<String>,
    pub doc_date: Option<NaiveDate>,
    /// INVOICE only; default doc_date + billing.payment_terms_days at issue.
    #[serde(rename = "dueDate", alias = "due_date")]
    pub due_date: Option<NaiveDate>,
    pub notes: Option<String>,
    pub terms: Option<String>,
    /// Bring the total to the nearest rupee (shown as round_off).
    pub round_to_rupee: Option<bool>,
    pub lines: Option<Vec<LineInput>>,
}

/// Where the place of supply is: intra-state when the client's state is the company's. A
/// client (or company) with no known state is treated as intra-state, and flagged.
pub fn place_of_supply(conn: &Connection, client: &Client) -> Result<(bool, Option<Warning>), AppError> {
    let company_state = company::profile(conn)?.state_code;
    let client_state = client
        .gstin
        .as_deref()
        .map(|g| g[..2].to_string())
        .or(client.state_code.clone());
    Ok(match (company_state, client_state) {
        (Some(ours), Some(theirs)) => (ours == theirs, None),
        (None, _) => (
            true,
            Some(Warning {
                code: "company_state_unknown",
                message: "The company profile has no state: treated as intra-state.".into(),
            }),
        ),
        (_, None) => (
            true,
            Some(Warning {
                code: "client_state_unknown",
                message: "The client has no GSTIN or state code: treated as intra-state.".into(),
            }),
        ),
    })
}

/// Prices `lines` for `client` on `on`.
pub fn compose(
    conn: &Connection,
    client: &Client,
    lines: &[LineInput],
    on: NaiveDate,
    round: bool,
    mode: Mode,
) -> Result<(Priced, bool), AppError> {
    let (intra, flag) = place_of_supply(conn, client)?;
    let mut priced = pricing::price(conn, lines, on, intra, round, mode)?;
    priced.warnings.extend(flag);
    Ok((priced, intra))
}

/// A stored line as input again: its explicit price kept, others re-priced.
pub fn as_input(line: &PricedLine) -> LineInput {
    LineInput {
        module_id: line.module_id.clone(),
        description: Some(line.description.clone()),
        sac: line.sac.clone(),
        qty: line.qty,
        unit_price: line.explicit_price,
        gst_rate: Some(line.gst_rate),
    }
}

fn check_dates(
    doc_type: &str,
    doc_date: Option<NaiveDate>,
    due_date: Option<NaiveDate>,
) -> Result<(), AppError> {
    if due_date.is_some() && doc_type != "INVOICE" {
        return Err(AppError::invalid(
            "dueDate",
            "due_date_not_allowed",
            "Only an invoice has a due date.",
        ));
    }
    if let (Some(doc), Some(due)) = (doc_date, due_date)
        && due < doc
    {
        return Err(AppError::invalid(
            "dueDate",
            "due_before_date",
            "The due date cannot be before the document date.",
        ));
    }
    Ok(())
}

fn header_changes(input: &DocumentInput) -> Vec<(&'static str, Value)> {
    let mut changes = vec![];
    if let Some(d) = input.doc_date {
        changes.push(("doc_date", Value::Text(d.to_string())));
    }
    if let Some(d) = input.due_date {
        changes.push(("due_date", Value::Text(d.to_string())));
    }
    for (column, value) in [("notes", &input.notes), ("terms", &input.terms)] {
        if let Some(v) = value {
            changes.push((column, text_or_null(v)));
        }
    }
    if let Some(r) = input.round_to_rupee {
        changes.push(("round_to_rupee", Value::Integer(i64::from(r))));
    }
    changes
}

/// The document, if the user may see it (staff: the documents they created).
pub fn visible(conn: &Connection, user: &AuthUser, id: &str) -> Result<Document, AppError> {
    store::get(conn, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("document"))
}

pub fn visible_client(conn: &Connection, user: &AuthUser, client_id: &str) -> Result<Client, AppError> {
    client_store::get(conn, client_id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("client"))
}

/// The pricing date of a draft: its own date, else the office's today.
fn pricing_date(conn: &Connection, doc_date: Option<&str>) -> Result<NaiveDate, AppError> {
    match doc_date.and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok()) {
        Some(d) => Ok(d),
        None => settings::office_today(conn),
    }
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

/// A new draft's input, checked before any write.
pub struct NewDraft {
    doc_type: String,
    client_id: String,
    input: DocumentInput,
}

impl NewDraft {
    /// Its type and client are given and its dates fit.
    pub fn check(input: DocumentInput) -> Result<NewDraft, AppError> {
        let doc_type = input
            .doc_type
            .clone()
            .ok_or_else(|| AppError::invalid("type", "required", "Choose QUOTATION, PROFORMA or INVOICE."))?;
        if !["QUOTATION", "PROFORMA", "INVOICE"].contains(&doc_type.as_str()) {
            return Err(AppError::invalid(
                "type",
                "invalid_type",
                "A draft is a QUOTATION, PROFORMA or INVOICE (credit notes come from an invoice).",
            ));
        }
        let client_id = input
            .client_id
            .clone()
            .ok_or_else(|| AppError::invalid("client_id", "required", "Choose the client."))?;
        check_dates(&doc_type, input.doc_date, input.due_date)?;
        Ok(NewDraft {
            doc_type,
            client_id,
            input,
        })
    }
}

/// Writes a checked draft, priced and audited, inside the caller's transaction.
pub fn create_in(tx: &Connection, user: &AuthUser, draft: NewDraft) -> Result<DocumentReply, AppError> {
    let NewDraft {
        doc_type,
        client_id,
        input,
    } = draft;
    let client = visible_client(tx, user, &client_id)?;
    let on = match input.doc_date {
        Some(d) => d,
        None => settings::office_today(tx)?,
    };
    let lines = input.lines.clone().unwrap_or_default();
    let (priced, intra) = compose(
        tx,
        &client,
        &lines,
        on,
        input.round_to_rupee.unwrap_or(false),
        Mode::Strict,
    )?;
    let mut fields = header_changes(&input);
    fields.extend([
        ("type", Value::Text(doc_type)),
        ("status", Value::Text("draft".into())),
        ("client_id", Value::Text(client_id)),
        ("created_by", Value::Text(user.id.clone())),
        ("intra_state", Value::Integer(i64::from(intra))),
    ]);
    let id = store::insert(tx, fields)?;
    store::set_lines(tx, &id, &priced)?;
    let document = visible(tx, user, &id)?;
    let after = serde_json::json!({ "type": document.doc_type, "client_id": document.client_id, "total": document.total });
    audit(
        tx,
        Audit {
            entity: "document",
            entity_id: Some(&id),
            action: "create",
            user_id: Some(&user.id),
            before: None,
            after: Some(after),
        },
    )?;
    Ok(DocumentReply {
        document,
        warnings: priced.warnings,
    })
}

/// One document with its lines and timeline.
#[utoipa::path(get, path = "/api/documents/{id}", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, body = Document), (status = 404, body = ErrorBody)))]
async fn get_document(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Document>, AppError> {
    Ok(Json(state.db.read(move |c| visible(c, &user, &id)).await?))
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
            let doc = visible(tx, &user, &id)?;
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
            Ok(DocumentReply { document: visible(tx, &user, &id)?, warnings: priced.warnings })
        })
        .await?;
    Ok(Json(reply))
}

#[derive(Serialize, ToSchema)]
pub struct Preview {
    pub lines: Vec<PricedLine>,
    pub totals: Totals,
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

/// Issues a draft inside the caller's transaction: stamps the date, re-prices on it (explicit
/// prices kept), sets an invoice's due date, and takes the next number of its series.
pub fn issue_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<Document, AppError> {
    let doc = store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("document"))?;
    if doc.status != "draft" {
        return Err(AppError::conflict(
            "not_draft",
            format!(
                "{} is already {}.",
                doc.doc_no.as_deref().unwrap_or("This document"),
                doc.status
            ),
        ));
    }
    if doc.lines.is_empty() {
        return Err(AppError::invalid(
            "lines",
            "no_lines",
            "A document needs at least one line before it is issued.",
        ));
    }
    let doc_date = pricing_date(tx, doc.doc_date.as_deref())?;
    let client = client_store::get(tx, &doc.client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let inputs: Vec<LineInput> = doc.lines.iter().map(|l| as_input(&l.priced)).collect();
    // A credit note keeps its invoice's place of supply, whatever the client's state is now.
    let (priced, intra) = if doc.doc_type == "CREDIT_NOTE" {
        let priced = pricing::price(
            tx,
            &inputs,
            doc_date,
            doc.intra_state,
            doc.round_to_rupee,
            Mode::Strict,
        )?;
        (priced, doc.intra_state)
    } else {
        compose(tx, &client, &inputs, doc_date, doc.round_to_rupee, Mode::Strict)?
    };
    store::set_lines(tx, id, &priced)?;
    let prefix =
        rules::prefix(&doc.doc_type).ok_or_else(|| AppError::internal("document type without a prefix"))?;
    let fy = rules::financial_year(doc_date);
    let doc_no = rules::number(prefix, &fy, store::next_seq(tx, prefix, &fy)?);
    let mut fields = vec![
        ("status", Value::Text("issued".into())),
        ("doc_no", Value::Text(doc_no.clone())),
        ("doc_date", Value::Text(doc_date.to_string())),
        ("intra_state", Value::Integer(i64::from(intra))),
    ];
    if doc.doc_type == "INVOICE" && doc.due_date.is_none() {
        let due = doc_date + Duration::days(payment_terms_days(tx, doc_date)?);
        fields.push(("due_date", Value::Text(due.to_string())));
    }
    store::update(tx, id, fields)?;
    store::add_event(tx, id, "issued", Some(&user.id), None)?;
    let issued = store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("document"))?;
    audit(
        tx,
        Audit {
            entity: "document",
            entity_id: Some(id),
            action: "issued",
            user_id: Some(&user.id),
            before: None,
            after: Some(
                serde_json::json!({ "docNo": doc_no, "doc_date": issued.doc_date, "due_date": issued.due_date, "total": issued.total }),
            ),
        },
    )?;
    Ok(issued)
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
            visible(tx, &user, &id)?;
            issue_in(tx, &user, &id)
        })
        .await?;
    Ok(Json(doc))
}
