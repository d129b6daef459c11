//! A client's contacts (with role suggestions) and branches. Staff reach only those of their
//! own clients; everything else is a 404.

use crate::AppState;
use crate::auth::session::AuthUser;
use crate::book;
use crate::clients::contacts_store::{self as store, Branch, Contact};
use crate::clients::rules;
use crate::db::audit::record;
use crate::db::query::text_or_null;
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{IdPath, JsonBody};
use crate::staff::rules as staff_rules;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_contacts, create_contact))
        .routes(routes!(patch_contact, delete_contact))
        .routes(routes!(list_branches, create_branch))
        .routes(routes!(patch_branch))
}

#[derive(Serialize, ToSchema)]
pub struct ContactList {
    pub rows: Vec<Contact>,
    /// Roles the console offers; any text is accepted.
    pub role_suggestions: Vec<&'static str>,
}

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

fn contact_changes(input: &ContactInput, creating: bool) -> Result<Vec<(&'static str, Value)>, AppError> {
    let mut changes: Vec<_> = name_change(input.name.as_deref(), creating, "contact")?
        .into_iter()
        .collect();
    if let Some(role) = &input.role {
        changes.push(("role", text_or_null(role)));
    }
    if let Some(phone) = &input.phone {
        staff_rules::check_phone(phone.trim())?;
        changes.push(("phone", text_or_null(phone)));
    }
    if let Some(email) = &input.email {
        if !email.trim().is_empty() {
            staff_rules::check_email(email.trim())?;
        }
        changes.push(("email", text_or_null(email)));
    }
    Ok(changes)
}

fn branch_changes(input: &BranchInput, creating: bool) -> Result<Vec<(&'static str, Value)>, AppError> {
    let mut changes: Vec<_> = name_change(input.name.as_deref(), creating, "branch")?
        .into_iter()
        .collect();
    for (column, value) in [("district", &input.district), ("address", &input.address)] {
        if let Some(v) = value {
            changes.push((column, text_or_null(v)));
        }
    }
    if let Some(phone) = &input.phone {
        staff_rules::check_phone(phone.trim())?;
        changes.push(("phone", text_or_null(phone)));
    }
    Ok(changes)
}

fn audit_row<T: Serialize>(
    conn: &Connection,
    user: &AuthUser,
    entity: &str,
    id: &str,
    action: &str,
    before: Option<&T>,
    after: Option<&T>,
) -> Result<(), AppError> {
    record(conn, &user.id, entity, id, action, before, after)
}

/// A client's contacts, with the suggested roles.
#[utoipa::path(get, path = "/api/clients/{id}/contacts", tag = "clients", params(("id" = String, Path)),
    responses((status = 200, body = ContactList), (status = 404, body = ErrorBody)))]
async fn list_contacts(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<ContactList>, AppError> {
    let rows = state
        .db
        .read(move |c| {
            book::visible_client(c, &user, &id)?;
            store::contacts_of(c, &id)
        })
        .await?;
    Ok(Json(ContactList {
        rows,
        role_suggestions: rules::CONTACT_ROLE_SUGGESTIONS.to_vec(),
    }))
}

/// Add a contact to a client.
#[utoipa::path(post, path = "/api/clients/{id}/contacts", tag = "clients", params(("id" = String, Path)), request_body = ContactInput,
    responses((status = 201, body = Contact), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_contact(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(client_id): IdPath,
    JsonBody(input): JsonBody<ContactInput>,
) -> Result<(StatusCode, Json<Contact>), AppError> {
    let changes = contact_changes(&input, true)?;
    let contact = state
        .db
        .write(move |tx| {
            book::visible_client(tx, &user, &client_id)?;
            let id = store::insert(tx, "contact", &client_id, changes)?;
            let contact =
                store::get_contact(tx, &id, None)?.ok_or_else(|| AppError::internal("contact vanished"))?;
            audit_row(tx, &user, "contact", &id, "create", None, Some(&contact))?;
            Ok(contact)
        })
        .await?;
    Ok((StatusCode::CREATED, Json(contact)))
}

/// Edit a contact.
#[utoipa::path(patch, path = "/api/contacts/{id}", tag = "clients", params(("id" = String, Path)), request_body = ContactInput,
    responses((status = 200, body = Contact), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn patch_contact(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<ContactInput>,
) -> Result<Json<Contact>, AppError> {
    let changes = contact_changes(&input, false)?;
    let contact = state
        .db
        .write(move |tx| {
            let before = store::get_contact(tx, &id, user.book().as_deref())?
                .ok_or_else(|| AppError::not_found("contact"))?;
            store::update(tx, "contact", &id, changes)?;
            let after = store::get_contact(tx, &id, None)?.ok_or_else(|| AppError::not_found("contact"))?;
            audit_row(tx, &user, "contact", &id, "update", Some(&before), Some(&after))?;
            Ok(after)
        })
        .await?;
    Ok(Json(contact))
}

/// Remove a contact.
#[utoipa::path(delete, path = "/api/contacts/{id}", tag = "clients", params(("id" = String, Path)),
    responses((status = 204, description = "Removed"), (status = 404, body = ErrorBody)))]
async fn delete_contact(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<StatusCode, AppError> {
    state
        .db
        .write(move |tx| {
            let before = store::get_contact(tx, &id, user.book().as_deref())?
                .ok_or_else(|| AppError::not_found("contact"))?;
            store::delete_contact(tx, &id)?;
            audit_row(tx, &user, "contact", &id, "delete", Some(&before), None)
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Serialize, ToSchema)]
pub struct BranchList {
    pub rows: Vec<Branch>,
}

/// A client's branches.
#[utoipa::path(get, path = "/api/clients/{id}/branches", tag = "clients", params(("id" = String, Path)),
    responses((status = 200, body = BranchList), (status = 404, body = ErrorBody)))]
async fn list_branches(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<BranchList>, AppError> {
    let rows = state
        .db
        .read(move |c| {
            book::visible_client(c, &user, &id)?;
            store::branches_of(c, &id)
        })
        .await?;
    Ok(Json(BranchList { rows }))
}

/// Add a branch to a client.
#[utoipa::path(post, path = "/api/clients/{id}/branches", tag = "clients", params(("id" = String, Path)), request_body = BranchInput,
    responses((status = 201, body = Branch), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_branch(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(client_id): IdPath,
    JsonBody(input): JsonBody<BranchInput>,
) -> Result<(StatusCode, Json<Branch>), AppError> {
    let changes = branch_changes(&input, true)?;
    let branch = state
        .db
        .write(move |tx| {
            book::visible_client(tx, &user, &client_id)?;
            let id = store::insert(tx, "branch", &client_id, changes)?;
            let branch =
                store::get_branch(tx, &id, None)?.ok_or_else(|| AppError::internal("branch vanished"))?;
            audit_row(tx, &user, "branch", &id, "create", None, Some(&branch))?;
            Ok(branch)
        })
        .await?;
    Ok((StatusCode::CREATED, Json(branch)))
}

/// Edit a branch.
#[utoipa::path(patch, path = "/api/branches/{id}", tag = "clients", params(("id" = String, Path)), request_body = BranchInput,
    responses((status = 200, body = Branch), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn patch_branch(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<BranchInput>,
) -> Result<Json<Branch>, AppError> {
    let changes = branch_changes(&input, false)?;
    let branch = state
        .db
        .write(move |tx| {
            let before = store::get_branch(tx, &id, user.book().as_deref())?
                .ok_or_else(|| AppError::not_found("branch"))?;
            store::update(tx, "branch", &id, changes)?;
            let after = store::get_branch(tx, &id, None)?.ok_or_else(|| AppError::not_found("branch"))?;
            audit_row(tx, &user, "branch", &id, "update", Some(&before), Some(&after))?;
            Ok(after)
        })
        .await?;
    Ok(Json(branch))
}
