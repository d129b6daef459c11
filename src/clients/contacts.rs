//! A client's contacts and branches (spec 2.3): the fields a request may set with their checks,
//! and the audited writes the handlers call. Staff reach only those of their own clients.

use crate::auth::session::AuthUser;
use crate::clients::contacts_store::{self as store, Branch, Contact};
use crate::clients::store::visible_client;
use crate::plumbing::db::audit::record;
use crate::plumbing::db::query::{Changes, text_or_null};
use crate::plumbing::error::{AppError, Checks};
use crate::staff::rules as staff_rules;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactInput {
    pub name: Option<String>,
    pub role: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BranchInput {
    pub name: Option<String>,
    pub district: Option<String>,
    pub address: Option<String>,
    pub phone: Option<String>,
}

fn name_change(
    name: Option<&str>,
    creating: bool,
    what: &str,
) -> Result<Option<(&'static str, Value)>, AppError> {
    match name.map(str::trim) {
        Some(n) if n.is_empty() || n.chars().count() > 200 => Err(AppError::invalid(
            "name",
            "invalid_name",
            format!("A {what}'s name is 1 to 200 characters."),
        )),
        Some(n) => Ok(Some(("name", Value::Text(n.into())))),
        None if creating => Err(AppError::invalid(
            "name",
            "required",
            format!("Enter the {what}'s name."),
        )),
        None => Ok(None),
    }
}

/// The contact's changes, every invalid field named at once.
pub fn contact_changes(input: &ContactInput, creating: bool) -> Result<Changes, AppError> {
    let mut checks = Checks::default();
    let mut changes: Changes = checks
        .check(name_change(input.name.as_deref(), creating, "contact"))
        .flatten()
        .into_iter()
        .collect();
    if let Some(role) = &input.role {
        changes.push(("role", text_or_null(role)));
    }
    if let Some(phone) = &input.phone {
        checks.check(staff_rules::check_phone(phone.trim()));
        changes.push(("phone", text_or_null(phone)));
    }
    if let Some(email) = &input.email {
        if !email.trim().is_empty() {
            checks.check(staff_rules::check_email(email.trim()));
        }
        changes.push(("email", text_or_null(email)));
    }
    checks.done()?;
    Ok(changes)
}

/// The branch's changes, every invalid field named at once.
pub fn branch_changes(input: &BranchInput, creating: bool) -> Result<Changes, AppError> {
    let mut checks = Checks::default();
    let mut changes: Changes = checks
        .check(name_change(input.name.as_deref(), creating, "branch"))
        .flatten()
        .into_iter()
        .collect();
    for (column, value) in [("district", &input.district), ("address", &input.address)] {
        if let Some(v) = value {
            changes.push((column, text_or_null(v)));
        }
    }
    if let Some(phone) = &input.phone {
        checks.check(staff_rules::check_phone(phone.trim()));
        changes.push(("phone", text_or_null(phone)));
    }
    checks.done()?;
    Ok(changes)
}

/// Adds a contact to a client in the caller's book.
pub fn create_contact_in(
    tx: &Connection,
    user: &AuthUser,
    client_id: &str,
    changes: Changes,
) -> Result<Contact, AppError> {
    visible_client(tx, user, client_id)?;
    let id = store::insert(tx, "contact", client_id, changes)?;
    let contact = store::get_contact(tx, &id, None)?.ok_or_else(|| AppError::internal("contact vanished"))?;
    record(tx, &user.id, "contact", &id, "create", None, Some(&contact))?;
    Ok(contact)
}

pub fn update_contact_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    changes: Changes,
) -> Result<Contact, AppError> {
    let before =
        store::get_contact(tx, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("contact"))?;
    store::update(tx, "contact", id, changes)?;
    let mut after = store::get_contact(tx, id, None)?.ok_or_else(|| AppError::not_found("contact"))?;
    if after.email_bouncing == 1 && after.email != before.email {
        store::clear_bounce(tx, id)?;
        after = store::get_contact(tx, id, None)?.ok_or_else(|| AppError::not_found("contact"))?;
    }
    record(tx, &user.id, "contact", id, "update", Some(&before), Some(&after))?;
    Ok(after)
}

pub fn delete_contact_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<(), AppError> {
    let before =
        store::get_contact(tx, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("contact"))?;
    crate::reminders::store::forget_contact(tx, id)?;
    store::delete_contact(tx, id)?;
    record(
        tx,
        &user.id,
        "contact",
        id,
        "delete",
        Some(&before),
        None::<&Contact>,
    )
}

/// Adds a branch to a client in the caller's book.
pub fn create_branch_in(
    tx: &Connection,
    user: &AuthUser,
    client_id: &str,
    changes: Changes,
) -> Result<Branch, AppError> {
    visible_client(tx, user, client_id)?;
    let id = store::insert(tx, "branch", client_id, changes)?;
    let branch = store::get_branch(tx, &id, None)?.ok_or_else(|| AppError::internal("branch vanished"))?;
    record(tx, &user.id, "branch", &id, "create", None, Some(&branch))?;
    Ok(branch)
}

pub fn update_branch_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    changes: Changes,
) -> Result<Branch, AppError> {
    let before =
        store::get_branch(tx, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("branch"))?;
    store::update(tx, "branch", id, changes)?;
    let after = store::get_branch(tx, id, None)?.ok_or_else(|| AppError::not_found("branch"))?;
    record(tx, &user.id, "branch", id, "update", Some(&before), Some(&after))?;
    Ok(after)
}
