//! Correcting payments (decisions 10): a payment recorded in error is cancelled with a reason,
//! never deleted; its receipt keeps its number, its allocations are reversed in the same
//! transaction and the invoices owe again, and the checklist steps ticked with it are unticked.
//! What a payment settled on one invoice can be moved back to its advance, and what it holds as
//! an advance can be refunded. All are for owners and managers, and all are audited.

use crate::auth::session::AuthUser;
use crate::documents::rules::check_reason;
use crate::payments::recording::{audited_change, not_cancelled, payment_image};
use crate::payments::rules;
use crate::payments::store::visible_payment;
use crate::payments::store::{self, Payment};
use crate::plumbing::clock;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelPayment {
    /// Why the payment is cancelled (required, at most 500 characters).
    pub reason: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefundInput {
    /// Paise, at most what the payment still holds.
    pub amount: i64,
    pub reason: String,
    /// YYYY-MM-DD, from the day the payment was received to today.
    pub refunded_on: NaiveDate,
}

/// Cancels a payment of the caller's book: its allocations are reversed (each invoice audited
/// with what it owes again) and the payment keeps its receipt number, marked cancelled.
pub fn cancel_in(tx: &Connection, user: &AuthUser, id: &str, reason: &str) -> Result<Payment, AppError> {
    let reason = check_reason(reason)?;
    let before = visible_payment(tx, user, id)?;
    not_cancelled(&before)?;
    if before.refunded > 0 {
        return Err(AppError::conflict(
            "refunded",
            "Part of this payment was refunded: it can no longer be cancelled.",
        ));
    }
    let today = settings::office_today(tx)?;
    let owed: Vec<i64> = before
        .allocations
        .iter()
        .map(|a| Ok(store::target(tx, &a.document_id, None)?.map_or(0, |t| t.outstanding)))
        .collect::<Result<_, AppError>>()?;
    store::cancel(tx, id, &reason, &today.to_string(), &user.id)?;
    crate::projects::milestones::untick_for_payment_in(tx, user, id, &before.receipt_no)?;
    for (a, outstanding) in before.allocations.iter().zip(owed) {
        let reversed = Reversed {
            document_id: &a.document_id,
            outstanding,
            amount: a.amount,
            tds: a.tds,
        };
        audit_reversed(tx, user, &before, reversed, &reason)?;
    }
    let after = visible_payment(tx, user, id)?;
    let mut image = payment_image(&after);
    image["status"] = json!("cancelled");
    image["reason"] = json!(reason);
    audit(
        tx,
        Audit {
            entity: "payment",
            entity_id: Some(id),
            action: "cancelled",
            user_id: Some(&user.id),
            before: Some(payment_image(&before)),
            after: Some(image),
        },
    )?;
    Ok(after)
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UnallocateInput {
    /// The invoice whose allocation goes back to the payment's advance.
    pub document_id: String,
}

/// Moves what a payment of the caller's book settled on one invoice back to its advance: the
/// allocation (money and TDS) is removed, the invoice owes it again, and the money is held for
/// the client, free to allocate elsewhere or refund. The way out of a cancel refused with
/// `has_payments`. Audited on the invoice and on the payment.
pub fn unallocate_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    document_id: &str,
) -> Result<Payment, AppError> {
    let before = visible_payment(tx, user, id)?;
    not_cancelled(&before)?;
    let (amount, tds) = before
        .allocations
        .iter()
        .filter(|a| a.document_id == document_id)
        .fold((0, 0), |(m, t), a| (m + a.amount, t + a.tds));
    if amount + tds == 0 {
        return Err(AppError::invalid(
            "document_id",
            "not_allocated",
            format!("Receipt {} settles nothing on that invoice.", before.receipt_no),
        ));
    }
    let outstanding = store::target(tx, document_id, None)?.map_or(0, |t| t.outstanding);
    store::unallocate(tx, id, document_id)?;
    let reversed = Reversed {
        document_id,
        outstanding,
        amount,
        tds,
    };
    audit_reversed(tx, user, &before, reversed, "Moved to the payment's advance.")?;
    audited_change(tx, user, &before, "unallocated")
}

/// What a payment stopped settling on one invoice, and what the invoice owed before.
struct Reversed<'a> {
    document_id: &'a str,
    outstanding: i64,
    amount: i64,
    tds: i64,
}

/// The invoice's audit row of a reversed allocation: what it owes before and after, and why.
fn audit_reversed(
    tx: &Connection,
    user: &AuthUser,
    payment: &Payment,
    r: Reversed<'_>,
    reason: &str,
) -> Result<(), AppError> {
    audit(
        tx,
        Audit {
            entity: "document",
            entity_id: Some(r.document_id),
            action: "payment_reversed",
            user_id: Some(&user.id),
            before: Some(json!({ "outstanding": r.outstanding })),
            after: Some(json!({
                "outstanding": r.outstanding + r.amount + r.tds,
                "payment_id": payment.id, "receipt_no": payment.receipt_no,
                "amount": r.amount, "tds": r.tds, "reason": reason,
            })),
        },
    )
}

/// Gives back part or all of what a payment of the caller's book holds as an advance.
pub fn refund_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    input: RefundInput,
) -> Result<Payment, AppError> {
    let reason = check_reason(&input.reason)?;
    let before = visible_payment(tx, user, id)?;
    not_cancelled(&before)?;
    let received_on = clock::date(&before.received_on)
        .ok_or_else(|| AppError::internal("a payment's date is not a date"))?;
    rules::check_refund(
        input.amount,
        input.refunded_on,
        received_on,
        before.unallocated,
        settings::office_today(tx)?,
    )?;
    let refund_id = store::refund(
        tx,
        id,
        input.amount,
        &input.refunded_on.to_string(),
        &reason,
        &user.id,
    )?;
    let after = visible_payment(tx, user, id)?;
    audit(
        tx,
        Audit {
            entity: "payment",
            entity_id: Some(id),
            action: "refunded",
            user_id: Some(&user.id),
            before: Some(json!({ "unallocated": before.unallocated })),
            after: Some(json!({
                "unallocated": after.unallocated, "refund_id": refund_id, "amount": input.amount,
                "refunded_on": input.refunded_on, "reason": reason,
            })),
        },
    )?;
    Ok(after)
}
