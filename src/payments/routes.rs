//! `POST/GET /api/payments`, `GET /api/payments/{id}`, `POST /api/payments/{id}/allocate` and
//! the receipt PDF (decisions 5).

use crate::auth::session::{AuthUser, Manager};
use crate::payments::corrections::{self, CancelPayment, RefundInput, UnallocateInput};
use crate::payments::receipt;
use crate::payments::recording::{
    AllocationInput, NewPayment, PaymentInput, allocate_advance_in, claims, record_in,
};
use crate::payments::rules;
use crate::payments::store::visible_payment;
use crate::payments::store::{self, Payment, PaymentFilter};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams, query_choice};
use crate::plumbing::money;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_payments, record_payment))
        .routes(routes!(payments_csv))
        .routes(routes!(get_payment))
        .routes(routes!(allocate))
        .routes(routes!(cancel))
        .routes(routes!(refund))
        .routes(routes!(unallocate))
        .routes(routes!(receipt_pdf))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AllocateInput {
    pub allocations: Vec<AllocationInput>,
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
        .write(move |tx| allocate_advance_in(tx, &user, &id, claims))
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
    /// recorded or cancelled.
    pub status: Option<String>,
}

impl PaymentQuery {
    fn filter(self, user: &AuthUser) -> Result<PaymentFilter, AppError> {
        query_choice("mode", &self.mode, rules::MODES)?;
        query_choice("status", &self.status, &["recorded", "cancelled"])?;
        Ok(PaymentFilter {
            client_id: self.client_id,
            mode: self.mode,
            from: self.from.map(|d| d.to_string()),
            to: self.to.map(|d| d.to_string()),
            book: user.book(),
            q: self.q,
            status: self.status,
        })
    }
}

/// Payments, newest first (staff: those of their clients). Sort by receipt_no, received_on,
/// client_name, mode, reference, amount or status.
#[utoipa::path(get, path = "/api/payments", tag = "payments", params(Page, PaymentQuery),
    responses((status = 200, body = Paginated<Payment>)))]
async fn list_payments(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<PaymentQuery>,
) -> Result<Json<Paginated<Payment>>, AppError> {
    let filter = q.filter(&user)?;
    Ok(Json(
        state.db.read(move |c| store::list(filter).page(c, &page)).await?,
    ))
}

const PAYMENT_CSV: &[&str] = &[
    "Receipt no.",
    "Status",
    "Date",
    "Client",
    "Mode",
    "Cheque no. / UTR",
    "Amount",
    "Advance held",
    "TDS",
];

fn payment_cells(p: &Payment) -> Vec<String> {
    vec![
        p.receipt_no.clone(),
        p.status.clone(),
        p.received_on.clone(),
        p.client_name.clone(),
        p.mode.clone(),
        p.reference.clone().unwrap_or_default(),
        money::decimal(p.amount),
        money::decimal(p.unallocated),
        money::decimal(p.tds),
    ]
}

/// Every payment the list's filters and sort select, as CSV (rupees, dates YYYY-MM-DD).
#[utoipa::path(get, path = "/api/payments.csv", tag = "payments", params(Page, PaymentQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list")))]
async fn payments_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<PaymentQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user)?;
    csv::stream(
        &state.db,
        "payments.csv".into(),
        PAYMENT_CSV,
        page.sort,
        move |_| Ok(store::list(filter)),
        payment_cells,
    )
    .await
}

/// One payment with its allocations.
#[utoipa::path(get, path = "/api/payments/{id}", tag = "payments", params(("id" = String, Path)),
    responses((status = 200, body = Payment), (status = 404, body = ErrorBody)))]
async fn get_payment(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Payment>, AppError> {
    Ok(Json(
        state.db.read(move |c| visible_payment(c, &user, &id)).await?,
    ))
}

/// Cancel a payment recorded in error (owner or manager), with a reason: its receipt keeps its
/// number and shows as cancelled, its allocations are reversed and the invoices owe again.
#[utoipa::path(post, path = "/api/payments/{id}/cancel", tag = "payments", params(("id" = String, Path)), request_body = CancelPayment,
    responses((status = 200, body = Payment), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "Already cancelled, or partly refunded", body = ErrorBody),
              (status = 422, description = "No reason", body = ErrorBody)))]
async fn cancel(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<CancelPayment>,
) -> Result<Json<Payment>, AppError> {
    let payment = state
        .db
        .write(move |tx| corrections::cancel_in(tx, &user, &id, &req.reason))
        .await?;
    Ok(Json(payment))
}

/// Move what a payment settled on one invoice back to its advance (owner or manager): the
/// invoice owes it again and the money is held for the client. The way to free an invoice for
/// cancelling without cancelling the payment.
#[utoipa::path(post, path = "/api/payments/{id}/unallocate", tag = "payments", params(("id" = String, Path)), request_body = UnallocateInput,
    responses((status = 200, body = Payment), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "The payment is cancelled", body = ErrorBody),
              (status = 422, description = "The payment settles nothing on that invoice", body = ErrorBody)))]
async fn unallocate(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<UnallocateInput>,
) -> Result<Json<Payment>, AppError> {
    let payment = state
        .db
        .write(move |tx| corrections::unallocate_in(tx, &user, &id, &req.document_id))
        .await?;
    Ok(Json(payment))
}

/// Refund part or all of what a payment holds as an advance (owner or manager), with a reason.
#[utoipa::path(post, path = "/api/payments/{id}/refund", tag = "payments", params(("id" = String, Path)), request_body = RefundInput,
    responses((status = 200, body = Payment), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "The payment is cancelled", body = ErrorBody),
              (status = 422, description = "More than the advance, a date out of range, or no reason", body = ErrorBody)))]
async fn refund(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<RefundInput>,
) -> Result<Json<Payment>, AppError> {
    let payment = state
        .db
        .write(move |tx| corrections::refund_in(tx, &user, &id, req))
        .await?;
    Ok(Json(payment))
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
            let payment = visible_payment(c, &user, &id)?;
            receipt::build(c, &payment)
        })
        .await?;
    let receipt_no = view.receipt_no.clone();
    let bytes = tokio::task::spawn_blocking(move || crate::payments::receipt_pdf::receipt_pdf(&view))
        .await
        .map_err(AppError::internal)??;
    Ok(crate::documents::pdf_response(bytes, Some(&receipt_no), false))
}
