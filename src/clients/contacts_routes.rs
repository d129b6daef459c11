//! A client's contacts (with role suggestions) and branches. Staff reach only those of their
//! own clients; everything else is a 404.

use crate::auth::session::AuthUser;
use crate::clients::contacts::{self, BranchInput, ContactInput};
use crate::clients::contacts_store::{self as store, Branch, Contact};
use crate::clients::rules;
use crate::clients::store::visible_client;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
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
            visible_client(c, &user, &id)?;
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
    let changes = contacts::contact_changes(&input, true)?;
    let contact = state
        .db
        .write(move |tx| contacts::create_contact_in(tx, &user, &client_id, changes))
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
    let changes = contacts::contact_changes(&input, false)?;
    let contact = state
        .db
        .write(move |tx| contacts::update_contact_in(tx, &user, &id, changes))
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
        .write(move |tx| contacts::delete_contact_in(tx, &user, &id))
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
            visible_client(c, &user, &id)?;
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
    let changes = contacts::branch_changes(&input, true)?;
    let branch = state
        .db
        .write(move |tx| contacts::create_branch_in(tx, &user, &client_id, changes))
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
    let changes = contacts::branch_changes(&input, false)?;
    let branch = state
        .db
        .write(move |tx| contacts::update_branch_in(tx, &user, &id, changes))
        .await?;
    Ok(Json(branch))
}
