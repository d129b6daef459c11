//! Recording a payment (spec 3.2, decisions 9): its gapless receipt number by the financial year
//! of `received_on`, its allocations to invoices with the TDS deducted, and what is left as an
//! advance, each audited in the caller's transaction. Handlers, the benchmark and other areas
//! call [`record_in`] and [`allocate_in`].

use crate::auth::session::AuthUser;
use crate::clients::store::visible_client;
use crate::documents::{rules as doc_rules, store as doc_store};
use crate::payments::rules::{self, Claim};
use crate::payments::store::visible_payment;
use crate::payments::store::{self, Payment};
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::error::{AppError, Checks};
use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Deserialize;
use utoipa::ToSchema;

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

pub fn claims(inputs: &[AllocationInput]) -> Result<Vec<Claim>, AppError> {
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
pub fn allocate_in(
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

/// Applies what a payment of the caller's book still holds (an advance) to invoices of its
/// client, audited on the payment as well as on each invoice; answers the payment after.
pub fn allocate_advance_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    claims: Vec<Claim>,
) -> Result<Payment, AppError> {
    let before = visible_payment(tx, user, id)?;
    not_cancelled(&before)?;
    allocate_in(tx, user, &before, claims)?;
    audited_change(tx, user, &before, "allocated")
}

/// Refuses to change a cancelled payment (a second cancel, an allocation, a refund): 409.
pub fn not_cancelled(p: &Payment) -> Result<(), AppError> {
    if p.status == "cancelled" {
        return Err(AppError::conflict(
            "payment_cancelled",
            format!("Receipt {} is cancelled.", p.receipt_no),
        ));
    }
    Ok(())
}

/// Reads the payment again after a change of its allocations and audits it as `action` with
/// its image before and after; answers it.
pub fn audited_change(
    tx: &Connection,
    user: &AuthUser,
    before: &Payment,
    action: &str,
) -> Result<Payment, AppError> {
    let after = visible_payment(tx, user, &before.id)?;
    audit(
        tx,
        Audit {
            entity: "payment",
            entity_id: Some(&before.id),
            action,
            user_id: Some(&user.id),
            before: Some(payment_image(before)),
            after: Some(payment_image(&after)),
        },
    )?;
    Ok(after)
}

pub fn payment_image(p: &Payment) -> serde_json::Value {
    serde_json::json!({
        "receipt_no": p.receipt_no, "client_id": p.client_id, "received_on": p.received_on,
        "amount": p.amount, "mode": p.mode, "reference": p.reference, "unallocated": p.unallocated,
        "allocations": p.allocations.iter().map(|a| serde_json::json!({ "document_id": a.document_id, "amount": a.amount, "tds": a.tds })).collect::<Vec<_>>(),
    })
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

/// A payment's input, checked before any write.
pub struct NewPayment {
    input: PaymentInput,
    reference: Value,
    notes: Value,
    claims: Vec<Claim>,
}

impl NewPayment {
    /// Its amount, mode, texts and the number of its allocations, every invalid field named at once.
    pub fn check(input: PaymentInput) -> Result<NewPayment, AppError> {
        let mut checks = Checks::default();
        if input.amount <= 0 {
            checks.fail(AppError::invalid(
                "amount",
                "invalid_amount",
                "Give the amount received, above zero.",
            ));
        }
        checks.check(crate::clients::rules::one_of("mode", &input.mode, rules::MODES));
        let reference = checks.check(optional_text("reference", input.reference.clone(), 100));
        let notes = checks.check(optional_text("notes", input.notes.clone(), 2000));
        let claims = checks.check(claims(&input.allocations));
        checks.done()?;
        Ok(NewPayment {
            reference: reference.unwrap_or(Value::Null),
            notes: notes.unwrap_or(Value::Null),
            claims: claims.unwrap_or_default(),
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
    rules::check_received_on(
        input.received_on,
        crate::plumbing::db::settings::office_today(tx)?,
    )?;
    let fy = crate::plumbing::clock::Fy::of(input.received_on).short();
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
    let recorded = visible_payment(tx, user, &id)?;
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
    visible_payment(tx, user, &id)
}
