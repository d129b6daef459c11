//! A plan parked by a failed generation, and cleared for a retry, each audited.

use crate::auth::session::AuthUser;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::error::AppError;
use crate::recurring::plans::plan;
use crate::recurring::store::{self, Plan};
use rusqlite::Connection;

/// Parks the plan with `reason` (a failed generation), audited `generate_failed` by `by` (the
/// owner who retried; None: the scheduled job).
pub fn park_in(tx: &Connection, id: &str, reason: &str, by: Option<&str>) -> Result<(), AppError> {
    let before = plan(tx, id)?;
    store::park(tx, id, reason)?;
    audit(
        tx,
        Audit {
            entity: "recurring_plan",
            entity_id: Some(id),
            action: "generate_failed",
            user_id: by,
            before: Some(
                serde_json::json!({ "next_run": before.next_run, "parked_reason": before.parked_reason }),
            ),
            after: Some(serde_json::json!({ "next_run": before.next_run, "parked_reason": reason })),
        },
    )
}

/// Clears a parked plan for a retry, audited `retried`. A plan that is not parked, or not
/// active, is 409.
pub fn unpark_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<Plan, AppError> {
    let before = plan(tx, id)?;
    if before.parked_at.is_none() {
        return Err(AppError::conflict(
            "not_parked",
            "This plan is not parked: its invoices are issued on their days.",
        ));
    }
    if !before.active {
        return Err(AppError::conflict(
            "plan_inactive",
            "This plan is switched off: switch it on before a retry.",
        ));
    }
    store::unpark(tx, id)?;
    let after = plan(tx, id)?;
    audit(
        tx,
        Audit {
            entity: "recurring_plan",
            entity_id: Some(id),
            action: "retried",
            user_id: Some(&user.id),
            before: Some(
                serde_json::json!({ "parked_reason": before.parked_reason, "parked_at": before.parked_at }),
            ),
            after: Some(serde_json::json!({ "parked_reason": null, "parked_at": null })),
        },
    )?;
    Ok(after)
}
