//! The document lifecycle (spec 3.1): sent, accepted and lost; convert; supersede; cancel; credit
//! note. Accept, lost, convert and cancel are the stop conditions of a quotation's follow-ups;
//! the reminders area dismisses those inside these same transactions.

use crate::AppState;
use crate::auth::session::{AuthUser, Manager};
use crate::book::visible_document;
use crate::clients::store as client_store;
use crate::db::audit::record;
use crate::db::settings;
use crate::documents::drafts::{as_input, compose};
use crate::documents::numbering::issue_in;
use crate::documents::pricing::{self, LineInput, Mode, Priced, Totals};
use crate::documents::store::{self, Document};
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{IdPath, JsonBody};
use axum::Json;
use axum::extract::State;
use rusqlite::types::Value;
use rusqlite::{Connection, params};
use serde::Deserialize;
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

/// A cancel or credit-note reason: required, at most 500 characters.
fn check_reason(raw: &str) -> Result<String, AppError> {
    let reason = raw.trim();
    if reason.is_empty() || reason.chars().count() > 500 {
        return Err(AppError::invalid(
            "reason",
            "reason_required",
            "Give the reason (at most 500 characters).",
        ));
    }
    Ok(reason.to_string())
}

fn is_live(doc: &Document) -> bool {
    !matches!(doc.status.as_str(), "draft" | "cancelled")
}

fn audit_doc(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    action: &str,
    before: serde_json::Value,
    after: serde_json::Value,
) -> Result<(), AppError> {
    record(tx, &user.id, "document", id, action, Some(&before), Some(&after))
}

fn status_image(doc: &Document) -> serde_json::Value {
    serde_json::json!({ "status": doc.status, "docNo": doc.doc_no })
}

/// Record that a document was sent by hand (the first 'sent' anchors follow-up aging); a quotation moves to sent.
#[utoipa::path(post, path = "/api/documents/{id}/mark-sent", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, body = Document), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn mark_sent(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Document>, AppError> {
    let doc = state.db.write(move |tx| record_sent(tx, &user, &id)).await?;
    Ok(Json(doc))
}

/// Records a 'sent' event (by hand or by email): a quotation moves to sent. Refused for a draft
/// or a cancelled document.
pub fn record_sent(tx: &Connection, user: &AuthUser, id: &str) -> Result<Document, AppError> {
    let doc = visible_document(tx, user, id)?;
    if !is_live(&doc) {
        return Err(AppError::conflict(
            "not_issued",
            "Only an issued document can be sent.",
        ));
    }
    store::add_event(tx, id, "sent", Some(&user.id), None)?;
    if doc.doc_type == "QUOTATION" && doc.status == "issued" {
        store::update(tx, id, vec![("status", Value::Text("sent".into()))])?;
    }
    let after = visible_document(tx, user, id)?;
    audit_doc(tx, user, id, "sent", status_image(&doc), status_image(&after))?;
    Ok(after)
}

/// Marks a quotation accepted or lost; both are stop conditions.
fn decide(tx: &Connection, user: &AuthUser, id: &str, outcome: &str) -> Result<Document, AppError> {
    let doc = visible_document(tx, user, id)?;
    if doc.doc_type != "QUOTATION" {
        return Err(AppError::conflict(
            "not_a_quotation",
            "Only a quotation is accepted or lost.",
        ));
    }
    if !matches!(doc.status.as_str(), "issued" | "sent") {
        return Err(AppError::conflict(
            "wrong_state",
            format!("A {} quotation cannot be marked {outcome}.", doc.status),
        ));
    }
    store::update(tx, id, vec![("status", Value::Text(outcome.into()))])?;
    store::add_event(tx, id, outcome, Some(&user.id), None)?;
    let after = visible_document(tx, user, id)?;
    audit_doc(tx, user, id, outcome, status_image(&doc), status_image(&after))?;
    Ok(after)
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
            .write(move |tx| decide(tx, &user, &id, "accepted"))
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
        state.db.write(move |tx| decide(tx, &user, &id, "lost")).await?,
    ))
}

/// Creates a draft of `doc_type` linked to `parent`, with `priced` lines.
fn linked_draft(
    tx: &Connection,
    user: &AuthUser,
    parent: &Document,
    doc_type: &str,
    priced: &Priced,
    intra: bool,
) -> Result<String, AppError> {
    let mut fields = vec![
        ("type", Value::Text(doc_type.into())),
        ("status", Value::Text("draft".into())),
        ("client_id", Value::Text(parent.client_id.clone())),
        ("parent_id", Value::Text(parent.id.clone())),
        ("source", Value::Text(parent.source.clone())),
        ("created_by", Value::Text(user.id.clone())),
        ("round_to_rupee", Value::Integer(i64::from(parent.round_to_rupee))),
        ("intra_state", Value::Integer(i64::from(intra))),
    ];
    for (column, value) in [("notes", &parent.notes), ("terms", &parent.terms)] {
        if let Some(v) = value {
            fields.push((column, Value::Text(v.clone())));
        }
    }
    let id = store::insert(tx, fields)?;
    store::set_lines(tx, &id, priced)?;
    Ok(id)
}

/// The parent's lines exactly as they are (no re-pricing).
fn copied(doc: &Document) -> Priced {
    let totals = Totals {
        subtotal: doc.subtotal,
        cgst: doc.cgst,
        sgst: doc.sgst,
        igst: doc.igst,
        round_off: doc.round_off,
        total: doc.total,
    };
    Priced {
        lines: doc.lines.iter().map(|l| l.priced.clone()).collect(),
        totals,
        warnings: vec![],
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConvertTo {
    /// PROFORMA or INVOICE.
    pub to: String,
}

/// Converts inside the caller's transaction; answers the new draft's id.
pub fn convert_in(tx: &Connection, user: &AuthUser, id: &str, to: &str) -> Result<String, AppError> {
    let doc = visible_document(tx, user, id)?;
    let allowed = matches!(
        (doc.doc_type.as_str(), to),
        ("QUOTATION", "PROFORMA") | ("QUOTATION", "INVOICE") | ("PROFORMA", "INVOICE")
    );
    if !allowed {
        return Err(AppError::invalid(
            "to",
            "invalid_conversion",
            format!("A {} cannot be converted to {to}.", doc.doc_type),
        ));
    }
    if !is_live(&doc) {
        return Err(AppError::conflict(
            "not_issued",
            "Only an issued, not cancelled, document is converted.",
        ));
    }
    if doc.status == "lost" {
        return Err(AppError::conflict(
            "wrong_state",
            "A lost quotation is not converted; start a new quotation.",
        ));
    }
    if let Some(child) = &doc.child_id {
        return Err(AppError::conflict(
            "has_child",
            format!("This document was already converted ({child}); cancel that one to convert again."),
        ));
    }
    let client = client_store::get(tx, &doc.client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let (priced, intra) = if to == "INVOICE" {
        // An invoice is priced on its own date (today, until it is issued); explicit prices stay.
        let inputs: Vec<LineInput> = doc.lines.iter().map(|l| as_input(&l.priced)).collect();
        compose(
            tx,
            &client,
            &inputs,
            settings::office_today(tx)?,
            doc.round_to_rupee,
            Mode::Strict,
        )?
    } else {
        (copied(&doc), doc.intra_state)
    };
    let child = linked_draft(tx, user, &doc, to, &priced, intra)?;
    store::update(tx, id, vec![("status", Value::Text("invoiced".into()))])?;
    store::add_event(tx, id, "converted", Some(&user.id), None)?;
    audit_doc(
        tx,
        user,
        id,
        "converted",
        status_image(&doc),
        serde_json::json!({ "status": "invoiced", "child_id": child, "to": to }),
    )?;
    Ok(child)
}

/// Convert a quotation or proforma into the next document, as a linked draft; refused (409)
/// while a live forward child exists. The source becomes 'invoiced'.
#[utoipa::path(post, path = "/api/documents/{id}/convert", tag = "documents", request_body = ConvertTo, params(("id" = String, Path)),
    responses((status = 200, description = "The new draft", body = Document), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn convert(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<ConvertTo>,
) -> Result<Json<Document>, AppError> {
    let doc = state
        .db
        .write(move |tx| {
            let child = convert_in(tx, &user, &id, &req.to)?;
            visible_document(tx, &user, &child)
        })
        .await?;
    Ok(Json(doc))
}

/// Cancels inside the caller's transaction: the number stays consumed, the reason is recorded.
fn cancel_in(tx: &Connection, user: &AuthUser, doc: &Document, reason: &str) -> Result<(), AppError> {
    if doc.status == "cancelled" {
        return Err(AppError::conflict(
            "already_cancelled",
            "This document is already cancelled.",
        ));
    }
    store::update(tx, &doc.id, vec![("status", Value::Text("cancelled".into()))])?;
    store::add_event(tx, &doc.id, "cancelled", Some(&user.id), Some(reason))?;
    audit_doc(
        tx,
        user,
        &doc.id,
        "cancelled",
        status_image(doc),
        serde_json::json!({ "status": "cancelled", "docNo": doc.doc_no, "reason": reason }),
    )
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
        .write(move |tx| {
            let doc = visible_document(tx, &user, &id)?;
            match doc.doc_type.as_str() {
                "INVOICE" => {
                    return Err(AppError::conflict(
                        "use_credit_note",
                        "An invoice is not superseded: issue a credit note against it.",
                    ));
                }
                "PROFORMA" => {}
                _ => {
                    return Err(AppError::conflict(
                        "not_supersedable",
                        "Only a proforma invoice is superseded.",
                    ));
                }
            }
            cancel_in(tx, &user, &doc, "Superseded & recreated")?;
            let fresh = linked_draft(tx, &user, &doc, "PROFORMA", &copied(&doc), doc.intra_state)?;
            store::add_event(tx, &id, "superseded", Some(&user.id), None)?;
            audit_doc(
                tx,
                &user,
                &id,
                "superseded",
                status_image(&doc),
                serde_json::json!({ "status": "cancelled", "replaced_by": fresh }),
            )?;
            if let Some(due) = &doc.due_date {
                store::update(tx, &fresh, vec![("due_date", Value::Text(due.clone()))])?;
            }
            visible_document(tx, &user, &fresh)
        })
        .await?;
    Ok(Json(doc))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelReason {
    pub reason: String,
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
    let reason = check_reason(&req.reason)?;
    let doc = state
        .db
        .write(move |tx| {
            let doc = visible_document(tx, &user, &id)?;
            cancel_in(tx, &user, &doc, &reason)?;
            visible_document(tx, &user, &id)
        })
        .await?;
    Ok(Json(doc))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreditNoteRequest {
    pub reason: String,
    /// The lines to credit; none: the whole invoice (only while nothing has been credited).
    pub lines: Option<Vec<LineInput>>,
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
    let reason = check_reason(&req.reason)?;
    let note = state
        .db
        .write(move |tx| {
            let invoice = visible_document(tx, &user, &id)?;
            if invoice.doc_type != "INVOICE" || !is_live(&invoice) {
                return Err(AppError::conflict(
                    "not_an_issued_invoice",
                    "A credit note is issued against an issued invoice.",
                ));
            }
            // What is still owed: a credit note never takes an invoice below zero.
            let creditable = invoice.outstanding.unwrap_or(0);
            if creditable <= 0 {
                return Err(AppError::conflict(
                    "fully_credited",
                    "Nothing is left to credit on this invoice: it is fully paid or credited.",
                ));
            }
            let priced = match &req.lines {
                None if creditable == invoice.total => copied(&invoice),
                None => {
                    return Err(AppError::invalid(
                        "lines",
                        "lines_required",
                        "Part of this invoice is credited already: give the lines to credit.",
                    ));
                }
                // Priced on the invoice's own place of supply.
                Some(lines) => pricing::price(
                    tx,
                    lines,
                    settings::office_today(tx)?,
                    invoice.intra_state,
                    invoice.round_to_rupee,
                    Mode::Strict,
                )?,
            };
            if priced.totals.total <= 0 {
                return Err(AppError::invalid(
                    "lines",
                    "nothing_to_credit",
                    "These lines credit nothing: give an amount above zero.",
                ));
            }
            if priced.totals.total > creditable {
                return Err(AppError::invalid(
                    "lines",
                    "exceeds_creditable",
                    format!(
                        "At most {} can still be credited on this invoice.",
                        crate::money::rupees(creditable)
                    ),
                ));
            }
            // A credit note keeps the figures it credits: its prices are explicit, so issuing keeps them.
            let mut priced = priced;
            for line in &mut priced.lines {
                line.explicit_price = Some(line.unit_price);
            }
            let note = linked_draft(tx, &user, &invoice, "CREDIT_NOTE", &priced, invoice.intra_state)?;
            tx.execute(
                "UPDATE document SET notes = ?2 WHERE id = ?1",
                params![note, reason],
            )?;
            let issued = issue_in(tx, &user, &note)?;
            store::add_event(tx, &id, "credited", Some(&user.id), Some(&reason))?;
            audit_doc(
                tx,
                &user,
                &note,
                "credit_note",
                serde_json::json!({ "invoice": invoice.doc_no }),
                serde_json::json!({ "docNo": issued.doc_no, "total": priced.totals.total, "reason": reason }),
            )?;
            visible_document(tx, &user, &note)
        })
        .await?;
    Ok(Json(note))
}
