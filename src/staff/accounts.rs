//! Keeping staff accounts (spec 5.10): the owner invites, edits, deactivates, reactivates and
//! resets passwords; each is an audited transaction (without hashes) the handlers call. The back
//! office always keeps one active owner.

use crate::auth::session::AuthUser;
use crate::auth::{Role, rules as auth_rules, store as auth_store};
use crate::plumbing::db::audit::record;
use crate::plumbing::error::{AppError, Checks};
use crate::staff::rules::{self, blank_to_none};
use crate::staff::store::{self, Employee, EmployeeChanges, NewEmployee};
use rusqlite::Connection;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmployeeCreate {
    pub email: String,
    /// Defaults to the email.
    pub username: Option<String>,
    pub name: String,
    pub role: Role,
    pub phone: Option<String>,
    pub title: Option<String>,
    /// The initial password; one is generated and answered once when absent.
    pub password: Option<String>,
}

/// A checked invitation: the new account (its `password_hash` still to be filled in from
/// `password`, off the request thread) and whether the password was generated.
pub struct Invitation {
    pub new: NewEmployee,
    pub password: String,
    pub generated: bool,
}

pub fn invitation(req: EmployeeCreate) -> Result<Invitation, AppError> {
    let mut checks = Checks::default();
    let email = req.email.trim().to_string();
    checks.check(rules::check_email(&email));
    let username = req
        .username
        .map(|u| u.trim().to_string())
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| email.clone());
    checks.check(rules::check_username(&username));
    let name = req.name.trim().to_string();
    checks.check(rules::check_name(&name));
    let phone = blank_to_none(req.phone);
    checks.check(rules::check_phone(phone.as_deref().unwrap_or("")));
    let title = blank_to_none(req.title);
    checks.check(rules::check_title(title.as_deref().unwrap_or("")));
    let generated = req.password.is_none();
    let password = req.password.unwrap_or_else(auth_rules::initial_password);
    if let Some(problem) = auth_rules::password_problem(&password, &[&email, &username, &name]) {
        checks.fail(AppError::invalid("password", "weak_password", problem));
    }
    checks.done()?;
    let new = NewEmployee {
        username,
        email,
        name,
        role: req.role,
        phone,
        title,
        password_hash: String::new(),
        must_change_password: true,
    };
    Ok(Invitation {
        new,
        password,
        generated,
    })
}

pub fn create_in(tx: &Connection, owner: &AuthUser, new: NewEmployee) -> Result<Employee, AppError> {
    let employee = store::insert(tx, new)?;
    audit_staff(tx, owner, &employee.id, "create", None, Some(&employee))?;
    Ok(employee)
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmployeePatch {
    pub username: Option<String>,
    pub name: Option<String>,
    pub role: Option<Role>,
    /// Empty clears it.
    pub phone: Option<String>,
    /// Empty clears it.
    pub title: Option<String>,
    /// Immutable: accepted only when unchanged.
    pub email: Option<String>,
}

/// Checks the fields anyone keeps about themselves (name, phone, title; empty clears the last
/// two) into changes.
pub fn personal_changes(
    name: Option<String>,
    phone: Option<String>,
    title: Option<String>,
) -> Result<EmployeeChanges, AppError> {
    let name = name.map(|n| n.trim().to_string());
    if let Some(n) = &name {
        rules::check_name(n)?;
    }
    if let Some(p) = &phone {
        rules::check_phone(p.trim())?;
    }
    if let Some(t) = &title {
        rules::check_title(t.trim())?;
    }
    Ok(EmployeeChanges {
        name,
        phone: phone.map(|p| blank_to_none(Some(p))),
        title: title.map(|t| blank_to_none(Some(t))),
        ..Default::default()
    })
}

/// Checks a patch and answers its changes and the email it claims (which must be unchanged).
pub fn patch_changes(req: EmployeePatch) -> Result<(EmployeeChanges, Option<String>), AppError> {
    let username = req.username.map(|u| u.trim().to_string());
    if let Some(u) = &username {
        rules::check_username(u)?;
    }
    let changes = EmployeeChanges {
        username,
        role: req.role,
        ..personal_changes(req.name, req.phone, req.title)?
    };
    Ok((changes, req.email))
}

/// Edits an account: the email cannot change; the last active owner keeps the role.
pub fn update_in(
    tx: &Connection,
    owner: &AuthUser,
    id: &str,
    changes: EmployeeChanges,
    email: Option<String>,
) -> Result<Employee, AppError> {
    let before = existing(tx, id)?;
    if email.is_some_and(|e| !e.trim().eq_ignore_ascii_case(&before.email)) {
        return Err(AppError::invalid(
            "email",
            "immutable",
            "An employee's email cannot be changed.",
        ));
    }
    if changes.role.is_some_and(|r| r != Role::Owner) {
        keep_an_owner(tx, &before)?;
    }
    store::update(tx, id, changes)?;
    let after = existing(tx, id)?;
    audit_staff(tx, owner, id, "update", Some(&before), Some(&after))?;
    Ok(after)
}

/// Deactivates an account (not one's own, not the last active owner) and ends its sessions.
pub fn deactivate_in(tx: &Connection, owner: &AuthUser, id: &str) -> Result<Employee, AppError> {
    let before = existing(tx, id)?;
    if before.id == owner.id {
        return Err(AppError::conflict(
            "self",
            "You cannot deactivate your own account.",
        ));
    }
    keep_an_owner(tx, &before)?;
    store::set_active(tx, id, false)?;
    auth_store::end_sessions(tx, id, None)?;
    let after = existing(tx, id)?;
    audit_staff(tx, owner, id, "deactivate", Some(&before), Some(&after))?;
    Ok(after)
}

pub fn reactivate_in(tx: &Connection, owner: &AuthUser, id: &str) -> Result<Employee, AppError> {
    let before = existing(tx, id)?;
    store::set_active(tx, id, true)?;
    let after = existing(tx, id)?;
    audit_staff(tx, owner, id, "reactivate", Some(&before), Some(&after))?;
    Ok(after)
}

/// Sets a new initial password and ends the account's sessions (but the caller's own, when the
/// owner resets their own).
pub fn reset_password_in(tx: &Connection, owner: &AuthUser, id: &str, hash: &str) -> Result<(), AppError> {
    let before = existing(tx, id)?;
    store::set_password(tx, id, hash, true)?;
    let keep = (id == owner.id).then_some(owner.session_id.as_str());
    auth_store::end_sessions(tx, id, keep)?;
    let after = existing(tx, id)?;
    audit_staff(tx, owner, id, "reset_password", Some(&before), Some(&after))
}

fn existing(conn: &Connection, id: &str) -> Result<Employee, AppError> {
    store::get(conn, id)?.ok_or_else(|| AppError::not_found("employee"))
}

/// Refuses a change that would leave no active owner.
fn keep_an_owner(conn: &Connection, target: &Employee) -> Result<(), AppError> {
    if target.role == Role::Owner && target.active == 1 && store::active_owner_count(conn)? <= 1 {
        return Err(AppError::conflict(
            "last_owner",
            "The back office needs at least one active owner.",
        ));
    }
    Ok(())
}

fn audit_staff(
    conn: &Connection,
    actor: &AuthUser,
    id: &str,
    action: &str,
    before: Option<&Employee>,
    after: Option<&Employee>,
) -> Result<(), AppError> {
    record(conn, &actor.id, "staff", id, action, before, after)
}
