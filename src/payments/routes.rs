//! `POST/GET /api/payments`, `GET /api/payments/{id}`, `POST /api/payments/{id}/allocate` and
//! the receipt PDF (decisions 5).

use crate::AppState;
use crate::db::audit::{Audit, audit};
use crate::documents::routes::visible_client;
use crate::documents::{rules as doc_rules, store as doc_store};
use crate::http::error::{AppError, ErrorBody};
use crate::http::extract::{AuthUser, IdPath, JsonBody, QueryParams};
use crate::http::pagination::{Page, Paginated};
use crate::payments::receipt;
use crate::payments::rules::{self, Claim};
use crate::payments::store::{self, Payment, PaymentFilter};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_payments, record_payment))
        .routes(routes!(get_payment))
        .routes(routes!(allocate))
        .routes(routes!(receipt_pdf))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AllocationInput {
    pub document_id: String,
    /// Money from this payment, paise.
    #[serde(default)]
    pub amount: i64,
    /// TDS the society deducted against this invoice, paise.
    #[serde(default)]
    pub tds: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PaymentInput {
    pub client_id: String,
    pub received_on: NaiveDate,
    /// Money received, paise (> 0).
    pub amount: i64,
    /// cash, cheque, neft_rtgs, upi or other.
    pub mode: String,
    /// Cheque number or UTR.
    pub reference: Option<String>,
    pub notes: Option<String>,
    #[serde(default)]
    pub allocations: Vec<AllocationInput>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AllocateInput {
    pub allocations: Vec<AllocationInput>,
}

fn claims(inputs: &[AllocationInput]) -> Result<Vec<Claim>, AppError> {
    if inputs.len() > 200 {
        return Err(AppError::invalid(
            "allocations",
            "too_many",
            "At most 200 allocations at once.",
        ));
    }
    Ok(inputs
        .iter()
        .map(|a| Claim {
            document_id: a.document_id.clone(),
            amount: a.amount,
            tds: a.tds,
        })
        .collect())
}

/// Checks and writes allocations of `payment` inside the caller's transaction, each audited on
/// its invoice with the outstanding before and after.
fn allocate_in(
    tx: &Connection,
    user: &AuthUser,
    payment: &Payment,
    claims: Vec<Claim>,
) -> Result<(), AppError> {
    let book = user.book();
    let mut checked = vec![];
    for claim in claims {
        let target = store::target(tx, &claim.document_id, book.as_deref())?;
        checked.push((claim, target));
    }
    rules::check_claims(&payment.client_id, payment.unallocated, &checked)?;
    for (claim, target) in checked {
        let before = target.map(|t| t.outstanding).unwrap_or_default();
        let id = store::allocate(tx, &payment.id, &claim, &user.id)?;
        audit(
            tx,
            Audit {
                entity: "document",
                entity_id: Some(&claim.document_id),
                action: "payment_allocated",
                user_id: Some(&user.id),
                before: Some(serde_json::json!({ "outstanding": before })),
                after: Some(serde_json::json!({
                    "outstanding": before - claim.amount - claim.tds,
                    "payment_id": payment.id, "receipt_no": payment.receipt_no,
                    "allocation_id": id, "amount": claim.amount, "tds": claim.tds,
                })),
            },
        )?;
    }
    Ok(())
}

fn payment_image(p: &Payment) -> serde_json::Value {
    serde_json::json!({
        "receipt_no": p.receipt_no, "client_id": p.client_id, "received_on": p.received_on,
        "amount": p.amount, "mode": p.mode, "reference": p.reference, "unallocated": p.unallocated,
        "allocations": p.allocations.iter().map(|a| serde_json::json!({ "document_id": a.document_id, "amount": a.amount, "tds": a.tds })).collect::<Vec<_>>(),
    })
}

fn visible(conn: &Connection, user: &AuthUser, id: &str) -> Result<Payment, AppError> {
    store::get(conn, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("payment"))
}

fn optional_text(field: &str, value: Option<String>, limit: usize) -> Result<Value, AppError> {
    match value.map(|v| v.trim().to_string()).filter(|v| !v.is_empty()) {
        None => Ok(Value::Null),
        Some(v) if v.chars().count() > limit => Err(AppError::invalid(
            field,
            "too_long",
            format!("At most {limit} characters."),
        )),
        Some(v) => Ok(Value::Text(v)),
    }
}

/// Record a payment with its receipt number (gapless by the financial year of received_on) and
/// any allocations, in one transaction.
#[utoipa::path(post, path = "/api/payments", tag = "payments", request_body = PaymentInput,
    responses((status = 201, body = Payment), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn record_payment(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(input): JsonBody<PaymentInput>,
) -> Result<(StatusCode, Json<Payment>), AppError> {
    let payment = NewPayment::check(input)?;
    let recorded = state.db.write(move |tx| record_in(tx, &user, payment)).await?;
    Ok((StatusCode::CREATED, Json(recorded)))
}

/// A payment's input, checked before any write.
pub struct NewPayment {
    input: PaymentInput,
    reference: Value,
    notes: Value,
    claims: Vec<Claim>,
}

impl NewPayment {
    /// Its amount, mode, texts and the number of its allocations.
    pub fn check(input: PaymentInput) -> Result<NewPayment, AppError> {
        if input.amount <= 0 {
            return Err(AppError::invalid(
                "amount",
                "invalid_amount",
                "Give the amount received, above zero.",
            ));
        }
        crate::clients::rules::one_of("mode", &input.mode, rules::MODES)?;
        Ok(NewPayment {
            reference: optional_text("reference", input.reference.clone(), 100)?,
            notes: optional_text("notes", input.notes.clone(), 2000)?,
            claims: claims(&input.allocations)?,
            input,
        })
    }
}

/// Writes a checked payment with its receipt number (gapless by the financial year of
/// received_on) and its allocations, audited, inside the caller's transaction.
pub fn record_in(tx: &Connection, user: &AuthUser, payment: NewPayment) -> Result<Payment, AppError> {
    let NewPayment {
        input,
        reference,
        notes,
        claims,
    } = payment;
    visible_client(tx, user, &input.client_id)?;
    let today = crate::db::settings::office_today(tx)?;
    if input.received_on > today {
        return Err(AppError::invalid(
            "received_on",
            "in_the_future",
            "A payment cannot be received after today.",
        ));
    }
    let fy = doc_rules::financial_year(input.received_on);
    let receipt_no = doc_rules::number("RCT", &fy, doc_store::next_seq(tx, "RCT", &fy)?);
    let id = store::insert(
        tx,
        vec![
            ("client_id", Value::Text(input.client_id.clone())),
            ("received_on", Value::Text(input.received_on.to_string())),
            ("amount", Value::Integer(input.amount)),
            ("mode", Value::Text(input.mode.clone())),
            ("reference", reference),
            ("notes", notes),
            ("receipt_no", Value::Text(receipt_no)),
            ("created_by", Value::Text(user.id.clone())),
        ],
    )?;
    let recorded = visible(tx, user, &id)?;
    audit(
        tx,
        Audit {
            entity: "payment",
            entity_id: Some(&id),
            action: "recorded",
            user_id: Some(&user.id),
            before: None,
            after: Some(payment_image(&recorded)),
        },
    )?;
    allocate_in(tx, user, &recorded, claims)?;
    visible(tx, user, &id)
}

/// Apply what a payment still holds (an advance) to invoices of its client.
#[utoipa::path(post, path = "/api/payments/{id}/allocate", tag = "payments", params(("id" = String, Path)), request_body = AllocateInput,
    responses((status = 200, body = Payment), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn allocate(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<AllocateInput>,
) -> Result<Json<Payment>, AppError> {
    let claims = claims(&input.allocations)?;
    if claims.is_empty() {
        return Err(AppError::invalid(
            "allocations",
            "required",
            "Give at least one allocation.",
        ));
    }
    let payment = state
        .db
        .write(move |tx| {
            let before = visible(tx, &user, &id)?;
            allocate_in(tx, &user, &before, claims)?;
            let after = visible(tx, &user, &id)?;
            audit(
                tx,
                Audit {
                    entity: "payment",
                    entity_id: Some(&id),
                    action: "allocated",
                    user_id: Some(&user.id),
                    before: Some(payment_image(&before)),
                    after: Some(payment_image(&after)),
                },
            )?;
            Ok(after)
        })
        .await?;
    Ok(Json(payment))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PaymentQuery {
    pub client_id: Option<String>,
    /// cash, cheque, neft_rtgs, upi or other.
    pub mode: Option<String>,
    /// First received_on, inclusive.
    pub from: Option<NaiveDate>,
    /// Last received_on, inclusive.
    pub to: Option<NaiveDate>,
    /// Part of the receipt number, reference or client name.
    pub q: Option<String>,
}

/// Payments, newest first (staff: the ones they recorded).
#[utoipa::path(get, path = "/api/payments", tag = "payments", params(Page, PaymentQuery),
    responses((status = 200, body = Paginated<Payment>)))]
async fn list_payments(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<PaymentQuery>,
) -> Result<Json<Paginated<Payment>>, AppError> {
    if let Some(mode) = &q.mode {
        // A query value out of range is a 400 (decisions 3), not a body's 422.
        crate::clients::rules::one_of("mode", mode, rules::MODES).map_err(|mut e| {
            e.status = StatusCode::BAD_REQUEST;
            e
        })?;
    }
    let filter = PaymentFilter {
        client_id: q.client_id,
        mode: q.mode,
        from: q.from.map(|d| d.to_string()),
        to: q.to.map(|d| d.to_string()),
        created_by: user.book(),
        q: q.q,
    };
    Ok(Json(state.db.read(move |c| store::list(c, filter, &page)).await?))
}

/// One payment with its allocations.
#[utoipa::path(get, path = "/api/payments/{id}", tag = "payments", params(("id" = String, Path)),
    responses((status = 200, body = Payment), (status = 404, body = ErrorBody)))]
async fn get_payment(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Payment>, AppError> {
    Ok(Json(state.db.read(move |c| visible(c, &user, &id)).await?))
}

/// The receipt as an A4 PDF: a zero-GST acknowledgment of the payment.
#[utoipa::path(get, path = "/api/payments/{id}/receipt.pdf", tag = "payments", params(("id" = String, Path)),
    responses((status = 200, content_type = "application/pdf", body = Vec<u8>), (status = 404, body = ErrorBody)))]
async fn receipt_pdf(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Response, AppError> {
    let view = state
        .db
        .read(move |c| {
            let payment = visible(c, &user, &id)?;
            receipt::build(c, &payment)
        })
        .await?;
    let receipt_no = view.receipt_no.clone();
    let bytes = tokio::task::spawn_blocking(move || crate::pdf::receipt_pdf(&view))
        .await
        .map_err(AppError::internal)??;
    Ok(crate::documents::pdf_response(bytes, Some(&receipt_no), false))
}
