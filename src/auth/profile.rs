//! One's own profile and password (spec 2.2): a user changes their name, phone and title, never
//! their role, email or username; a password change ends every other session of theirs.

use crate::auth::session::AuthUser;
use crate::auth::store;
use crate::plumbing::db::audit::{Audit, audit, record};
use crate::plumbing::error::AppError;
use crate::staff::accounts;
use crate::staff::store::{self as staff_store, Employee, EmployeeChanges};
use rusqlite::Connection;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

/// The fields a user may change on their own profile; role, email and username are not among them.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfilePatch {
    pub name: Option<String>,
    /// Empty clears it.
    pub phone: Option<String>,
    /// Empty clears it.
    pub title: Option<String>,
}

pub fn changes(patch: ProfilePatch) -> Result<EmployeeChanges, AppError> {
    accounts::personal_changes(patch.name, patch.phone, patch.title)
}

pub fn update_in(tx: &Connection, user: &AuthUser, changes: EmployeeChanges) -> Result<Employee, AppError> {
    let before = staff_store::get(tx, &user.id)?.ok_or_else(AppError::unauthorized)?;
    staff_store::update(tx, &user.id, changes)?;
    let after = staff_store::get(tx, &user.id)?.ok_or_else(AppError::unauthorized)?;
    record(
        tx,
        &user.id,
        "staff",
        &user.id,
        "update_profile",
        Some(&before),
        Some(&after),
    )?;
    Ok(after)
}

/// Stores the user's new password hash (checked against the current one by the caller) and ends
/// their other sessions.
pub fn set_password_in(tx: &Connection, user: &AuthUser, new_hash: &str) -> Result<(), AppError> {
    staff_store::set_password(tx, &user.id, new_hash, false)?;
    let ended = store::end_sessions(tx, &user.id, Some(&user.session_id))?;
    audit(
        tx,
        Audit {
            entity: "staff",
            entity_id: Some(&user.id),
            action: "password_changed",
            user_id: Some(&user.id),
            before: None,
            after: Some(json!({ "mustChangePassword": false, "other_sessions_ended": ended })),
        },
    )
}
