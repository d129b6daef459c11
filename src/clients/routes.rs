//! Clients: the book, one client, edit (with the write-only DB password), account owner,
//! DB password reveal, bulk edit, and the pick-lists the console needs.

use crate::AppState;
use crate::auth::session::{AuthUser, Manager, Owner};
use crate::book;
use crate::clients::rules::{self, one_of};
use crate::clients::store::{self, Client, ClientFilter, SameGstin};
use crate::db::audit::{Audit, audit, record};
use crate::db::page::{Page, Paginated};
use crate::db::query::text_or_null;
use crate::error::{AppError, ErrorBody, Warning};
use crate::gstin::{self, Gstin};
use crate::http::extract::{IdPath, JsonBody, QueryParams};
use crate::staff::{rules as staff_rules, store as staff_store};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use std::time::Instant;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_clients, create_client))
        .routes(routes!(client_options))
        .routes(routes!(classify))
        .routes(routes!(get_client, patch_client))
        .routes(routes!(set_owner))
        .routes(routes!(reveal_db_password))
        .routes(routes!(bulk_edit))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ClientQuery {
    /// Part of the name, GSTIN or phone (case-insensitive).
    pub q: Option<String>,
    /// Part of the district (matched literally).
    pub district: Option<String>,
    /// Part of the sector (matched literally).
    pub sector: Option<String>,
    pub client_type: Option<String>,
    pub category: Option<String>,
    pub status: Option<String>,
    /// An employee id, or `none` for clients without an owner.
    pub owner_id: Option<String>,
    /// 1: only my clients (staff always see only theirs).
    pub mine: Option<u8>,
}

/// The client book, by name. Staff see only the clients they own.
#[utoipa::path(get, path = "/api/clients", tag = "clients", params(Page, ClientQuery),
    responses((status = 200, body = Paginated<Client>), (status = 400, body = ErrorBody)))]
async fn list_clients(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ClientQuery>,
) -> Result<Json<Paginated<Client>>, AppError> {
    // Staff are held to their own book whatever they ask for; others may narrow to theirs.
    let owner_id = user.book().or(if q.mine == Some(1) {
        Some(user.id.clone())
    } else {
        q.owner_id
    });
    let filter = ClientFilter {
        q: q.q,
        district: q.district,
        sector: q.sector,
        client_type: q.client_type,
        category: q.category,
        status: q.status,
        owner_id,
    };
    Ok(Json(state.db.read(move |c| store::list(c, filter, &page)).await?))
}

/// The fields of a client a request may set. On PATCH, an absent field stays as it is and an
/// empty string clears an optional one.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct ClientInput {
    pub name: Option<String>,
    /// 15 characters, validated; its first two digits become the state code.
    pub gstin: Option<String>,
    /// Two-digit GST state code, for societies without a GSTIN.
    pub state_code: Option<String>,
    /// lead, active, lost or inactive (default active).
    pub status: Option<String>,
    /// At create only (managerial users; staff own what they create). Later: PATCH /api/clients/{id}/owner.
    pub owner_id: Option<String>,
    pub district: Option<String>,
    pub sector: Option<String>,
    pub remote_access_id: Option<String>,
    pub os: Option<String>,
    /// PACS or Store (default from the name).
    pub client_type: Option<String>,
    pub address: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub notes: Option<String>,
    /// Write-only, managerial users only; empty clears it.
    #[serde(rename = "dbPassword", alias = "db_password")]
    pub db_password: Option<String>,
}

const FREE_TEXT: [&str; 6] = ["district", "sector", "remote_access_id", "os", "address", "notes"];

/// Validates `input` against the client as it is (`None` at create) and answers the column changes.
fn client_changes(
    input: &ClientInput,
    existing: Option<&Client>,
) -> Result<Vec<(&'static str, Value)>, AppError> {
    let mut changes: Vec<(&'static str, Value)> = vec![];
    match input.name.as_deref().map(str::trim) {
        Some(name) if name.is_empty() || name.chars().count() > 200 => {
            return Err(AppError::invalid(
                "name",
                "invalid_name",
                "A client's name is 1 to 200 characters.",
            ));
        }
        Some(name) => {
            changes.push(("name", Value::Text(name.to_string())));
            changes.push(("category", Value::Text(rules::category_for(name).into())));
            if existing.is_none() && input.client_type.is_none() {
                changes.push(("client_type", Value::Text(rules::client_type_for(name).into())));
            }
        }
        None if existing.is_none() => {
            return Err(AppError::invalid("name", "required", "Enter the society's name."));
        }
        None => {}
    }
    let mut gstin_state = existing
        .and_then(|c| c.gstin.as_ref())
        .map(|g| g.state_code().to_string());
    if let Some(raw) = input.gstin.as_deref() {
        if raw.trim().is_empty() {
            changes.push(("gstin", Value::Null));
            gstin_state = None;
        } else {
            let gstin = Gstin::parse(raw)?;
            gstin_state = Some(gstin.state_code().to_string());
            changes.push(("state_code", Value::Text(gstin.state_code().to_string())));
            changes.push(("gstin", Value::Text(gstin.into())));
        }
    }
    if let Some(code) = input.state_code.as_deref().map(str::trim) {
        match &gstin_state {
            Some(from_gstin) if !code.is_empty() && code != from_gstin => {
                return Err(AppError::invalid(
                    "state_code",
                    "state_code_mismatch",
                    "The state code comes from the GSTIN.",
                ));
            }
            Some(_) => {}
            None if code.is_empty() => changes.push(("state_code", Value::Null)),
            None if gstin::state_name(code).is_none() => {
                return Err(AppError::invalid(
                    "state_code",
                    "invalid_state_code",
                    "Enter a two-digit GST state code, such as 32 for Kerala.",
                ));
            }
            None => changes.push(("state_code", Value::Text(code.to_string()))),
        }
    }
    if let Some(status) = input.status.as_deref() {
        one_of("status", status, rules::STATUSES)?;
        changes.push(("status", Value::Text(status.into())));
    }
    if let Some(client_type) = input.client_type.as_deref() {
        one_of("client_type", client_type, rules::CLIENT_TYPES)?;
        changes.push(("client_type", Value::Text(client_type.into())));
    }
    if let Some(phone) = input.phone.as_deref() {
        staff_rules::check_phone(phone.trim())?;
        changes.push(("phone", text_or_null(phone)));
    }
    if let Some(email) = input.email.as_deref() {
        if !email.trim().is_empty() {
            staff_rules::check_email(email.trim())?;
        }
        changes.push(("email", text_or_null(email)));
    }
    let free = [
        &input.district,
        &input.sector,
        &input.remote_access_id,
        &input.os,
        &input.address,
        &input.notes,
    ];
    for (column, value) in FREE_TEXT.into_iter().zip(free) {
        if let Some(v) = value {
            if v.chars().count() > 2000 {
                return Err(AppError::invalid(column, "too_long", "At most 2000 characters."));
            }
            changes.push((column, text_or_null(v)));
        }
    }
    if let Some(p) = &input.db_password {
        changes.push(("db_password", rules::credential_value("dbPassword", p)?));
    }
    Ok(changes)
}

/// An owner must be an active employee (spec 2.3).
fn check_owner(conn: &Connection, owner_id: &str) -> Result<(), AppError> {
    match staff_store::get(conn, owner_id)? {
        None => Err(AppError::invalid(
            "owner_id",
            "unknown_owner",
            "No employee has that id.",
        )),
        Some(e) if e.active == 0 => Err(AppError::invalid(
            "owner_id",
            "inactive_owner",
            "That employee is deactivated.",
        )),
        Some(_) => Ok(()),
    }
}

fn audit_client(
    conn: &Connection,
    user: &AuthUser,
    id: &str,
    action: &str,
    before: Option<&Client>,
    after: Option<&Client>,
) -> Result<(), AppError> {
    record(conn, &user.id, "client", id, action, before, after)
}

/// Refuses a DB password from a non-managerial user (the whole request writes nothing).
fn db_password_gate(user: &AuthUser, input: &ClientInput) -> Result<(), AppError> {
    if input.db_password.is_some() && !user.is_managerial() {
        return Err(AppError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "Only an owner or a manager may set the DB password.",
        )
        .on_field("dbPassword"));
    }
    Ok(())
}

/// A client with the other clients under its GSTIN (those in the reader's book) and, after a
/// write, what the writer should know (`gstin_shared`).
#[derive(Serialize, ToSchema)]
pub struct ClientReply {
    #[serde(flatten)]
    pub client: Client,
    pub same_gstin: Vec<SameGstin>,
    pub warnings: Vec<Warning>,
}

/// The reply for `client`; a write that set its GSTIN warns when other clients have it too.
fn reply(
    conn: &Connection,
    user: &AuthUser,
    client: Client,
    gstin_written: bool,
) -> Result<ClientReply, AppError> {
    let (same_gstin, hidden) = match &client.gstin {
        Some(gstin) => store::same_gstin(conn, &client.id, gstin.as_str(), user.book().as_deref())?,
        None => (vec![], 0),
    };
    let warnings = if gstin_written {
        rules::shared_gstin_warning(&same_gstin, hidden)
            .into_iter()
            .collect()
    } else {
        vec![]
    };
    Ok(ClientReply {
        client,
        same_gstin,
        warnings,
    })
}

/// Add a client. Type and category are derived from the name; staff own what they create. A
/// GSTIN another client has is taken with a warning; the same GSTIN under the same name is not.
#[utoipa::path(post, path = "/api/clients", tag = "clients", request_body = ClientInput,
    responses((status = 201, body = ClientReply), (status = 403, description = "dbPassword from a staff user", body = ErrorBody),
              (status = 409, description = "A client of this name already has this GSTIN", body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_client(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(input): JsonBody<ClientInput>,
) -> Result<(StatusCode, Json<ClientReply>), AppError> {
    db_password_gate(&user, &input)?;
    let mut fields = client_changes(&input, None)?;
    let owner = user.book().or(input.owner_id.clone().filter(|o| !o.is_empty()));
    let client = state
        .db
        .write(move |tx| {
            if let Some(owner) = owner {
                check_owner(tx, &owner)?;
                fields.push(("owner_id", Value::Text(owner)));
            }
            let client = store::insert(tx, fields, &user.id)?;
            audit_client(tx, &user, &client.id, "create", None, Some(&client))?;
            reply(tx, &user, client, true)
        })
        .await?;
    Ok((StatusCode::CREATED, Json(client)))
}

/// One client (staff: only their own; another's is a 404).
#[utoipa::path(get, path = "/api/clients/{id}", tag = "clients", params(("id" = String, Path)),
    responses((status = 200, body = ClientReply), (status = 404, body = ErrorBody)))]
async fn get_client(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<ClientReply>, AppError> {
    let client = state
        .db
        .read(move |c| {
            let client = book::visible_client(c, &user, &id)?;
            reply(c, &user, client, false)
        })
        .await?;
    Ok(Json(client))
}

/// Edit a client. `dbPassword` (managerial only) is applied in the same transaction; a name
/// change re-derives the category.
#[utoipa::path(patch, path = "/api/clients/{id}", tag = "clients", request_body = ClientInput, params(("id" = String, Path)),
    responses((status = 200, body = ClientReply), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn patch_client(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<ClientInput>,
) -> Result<Json<ClientReply>, AppError> {
    db_password_gate(&user, &input)?;
    if input.owner_id.is_some() {
        return Err(AppError::invalid(
            "owner_id",
            "use_owner_route",
            "Change the account owner with PATCH /api/clients/{id}/owner.",
        ));
    }
    let client = state
        .db
        .write(move |tx| {
            let before =
                store::get(tx, &id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("client"))?;
            let changes = client_changes(&input, Some(&before))?;
            store::update(tx, &id, changes)?;
            let after = store::get(tx, &id, None)?.ok_or_else(|| AppError::not_found("client"))?;
            audit_client(tx, &user, &id, "update", Some(&before), Some(&after))?;
            if input.db_password.is_some() {
                let flag = |c: &Client| serde_json::json!({ "hasDbPassword": c.has_db_password });
                audit(
                    tx,
                    Audit {
                        entity: "client",
                        entity_id: Some(&id),
                        action: "set_db_password",
                        user_id: Some(&user.id),
                        before: Some(flag(&before)),
                        after: Some(flag(&after)),
                    },
                )?;
            }
            let gstin_written = input.gstin.is_some();
            reply(tx, &user, after, gstin_written)
        })
        .await?;
    Ok(Json(client))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OwnerChange {
    /// An active employee's id, or null to leave the client without an owner.
    pub owner_id: Option<String>,
}

/// Change a client's account owner (owner or manager); audited as set_owner.
#[utoipa::path(patch, path = "/api/clients/{id}/owner", tag = "clients", request_body = OwnerChange, params(("id" = String, Path)),
    responses((status = 200, body = Client), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, description = "Unknown or inactive employee", body = ErrorBody)))]
async fn set_owner(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(change): JsonBody<OwnerChange>,
) -> Result<Json<Client>, AppError> {
    let owner = change.owner_id.filter(|o| !o.trim().is_empty());
    let client = state
        .db
        .write(move |tx| {
            let before = store::get(tx, &id, None)?.ok_or_else(|| AppError::not_found("client"))?;
            if let Some(owner) = &owner {
                check_owner(tx, owner)?;
            }
            store::update(
                tx,
                &id,
                vec![("owner_id", owner.clone().map_or(Value::Null, Value::Text))],
            )?;
            let after = store::get(tx, &id, None)?.ok_or_else(|| AppError::not_found("client"))?;
            let image =
                |c: &Client| serde_json::json!({ "owner_id": c.owner_id, "owner_name": c.owner_name });
            audit(
                tx,
                Audit {
                    entity: "client",
                    entity_id: Some(&id),
                    action: "set_owner",
                    user_id: Some(&user.id),
                    before: Some(image(&before)),
                    after: Some(image(&after)),
                },
            )?;
            Ok(after)
        })
        .await?;
    Ok(Json(client))
}

#[derive(Serialize, ToSchema)]
pub struct RevealedPassword {
    /// The stored password; empty when none is set or a legacy-encrypted value cannot be read.
    pub password: String,
}

/// Reveal a client's DB password (owner or manager). Every reveal is audited without the value;
/// 20 reveals per minute per user across all reveal routes.
#[utoipa::path(post, path = "/api/clients/{id}/reveal-db-password", tag = "clients", params(("id" = String, Path)),
    responses((status = 200, body = RevealedPassword), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn reveal_db_password(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
) -> Result<Json<RevealedPassword>, AppError> {
    state
        .reveal_limits
        .hit(&user.id, Instant::now())
        .map_err(AppError::rate_limited)?;
    let password = state
        .db
        .write(move |tx| {
            let stored = store::db_password(tx, &id)?.ok_or_else(|| AppError::not_found("client"))?;
            audit(
                tx,
                Audit {
                    entity: "client",
                    entity_id: Some(&id),
                    action: "reveal_db_password",
                    user_id: Some(&user.id),
                    before: None,
                    after: Some(serde_json::json!({ "revealed": "dbPassword" })),
                },
            )?;
            Ok(rules::readable_credential(stored).unwrap_or_default())
        })
        .await?;
    Ok(Json(RevealedPassword { password }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkChanges {
    pub district: Option<String>,
    pub sector: Option<String>,
    pub status: Option<String>,
    pub client_type: Option<String>,
    pub owner_id: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkEdit {
    /// 1 to 1000 client ids.
    pub ids: Vec<String>,
    pub changes: BulkChanges,
}

#[derive(Serialize, ToSchema)]
pub struct BulkResult {
    pub updated: usize,
}

/// Apply the same changes to many clients (owner): all or nothing, one audit row per client.
#[utoipa::path(post, path = "/api/clients/bulk", tag = "clients", request_body = BulkEdit,
    responses((status = 200, body = BulkResult), (status = 403, body = ErrorBody),
              (status = 422, description = "A bad id or value: nothing was changed", body = ErrorBody)))]
async fn bulk_edit(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(req): JsonBody<BulkEdit>,
) -> Result<Json<BulkResult>, AppError> {
    let mut ids = req.ids;
    ids.sort();
    ids.dedup();
    if ids.is_empty() || ids.len() > 1000 {
        return Err(AppError::invalid(
            "ids",
            "invalid_ids",
            "Choose 1 to 1000 clients.",
        ));
    }
    let c = req.changes;
    let mut changes: Vec<(&'static str, Value)> = vec![];
    for (column, value) in [("district", &c.district), ("sector", &c.sector)] {
        if let Some(v) = value {
            changes.push((column, text_or_null(v)));
        }
    }
    if let Some(status) = &c.status {
        one_of("status", status, rules::STATUSES)?;
        changes.push(("status", Value::Text(status.clone())));
    }
    if let Some(client_type) = &c.client_type {
        one_of("client_type", client_type, rules::CLIENT_TYPES)?;
        changes.push(("client_type", Value::Text(client_type.clone())));
    }
    let owner = c.owner_id.map(|o| o.trim().to_string());
    if changes.is_empty() && owner.is_none() {
        return Err(AppError::invalid(
            "changes",
            "no_changes",
            "Choose at least one field to change.",
        ));
    }
    let updated = state
        .db
        .write(move |tx| {
            if let Some(owner) = owner.as_deref().filter(|o| !o.is_empty()) {
                check_owner(tx, owner)?;
            }
            let mut all = changes;
            if let Some(owner) = owner {
                all.push((
                    "owner_id",
                    if owner.is_empty() {
                        Value::Null
                    } else {
                        Value::Text(owner)
                    },
                ));
            }
            for id in &ids {
                let before = store::get(tx, id, None)?.ok_or_else(|| {
                    AppError::invalid(
                        "ids",
                        "unknown_client",
                        format!("No client has the id {id}; nothing was changed."),
                    )
                })?;
                store::update(tx, id, all.clone())?;
                let after = store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("client"))?;
                audit_client(tx, &user, id, "bulk_update", Some(&before), Some(&after))?;
            }
            Ok(ids.len())
        })
        .await?;
    Ok(Json(BulkResult { updated }))
}

#[derive(Serialize, ToSchema)]
pub struct ClientOptions {
    pub statuses: Vec<&'static str>,
    pub client_types: Vec<&'static str>,
    pub categories: Vec<&'static str>,
    /// Districts and sectors already in the registry.
    pub districts: Vec<String>,
    pub sectors: Vec<String>,
    pub contact_roles: Vec<&'static str>,
    pub interaction_types: Vec<&'static str>,
}

/// The pick-lists of the client screens.
#[utoipa::path(get, path = "/api/clients/options", tag = "clients", responses((status = 200, body = ClientOptions)))]
async fn client_options(
    State(state): State<AppState>,
    _user: AuthUser,
) -> Result<Json<ClientOptions>, AppError> {
    let (districts, sectors) = state
        .db
        .read(|c| {
            Ok((
                store::distinct_values(c, "district")?,
                store::distinct_values(c, "sector")?,
            ))
        })
        .await?;
    Ok(Json(ClientOptions {
        statuses: rules::STATUSES.to_vec(),
        client_types: rules::CLIENT_TYPES.to_vec(),
        categories: rules::CATEGORIES.to_vec(),
        districts,
        sectors,
        contact_roles: rules::CONTACT_ROLE_SUGGESTIONS.to_vec(),
        interaction_types: rules::INTERACTION_TYPES.to_vec(),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ClassifyQuery {
    pub name: String,
}

#[derive(Serialize, ToSchema)]
pub struct Classification {
    pub client_type: &'static str,
    pub category: &'static str,
}

/// The type and category a name gives, so the new-client form can show them as you type.
#[utoipa::path(get, path = "/api/clients/classify", tag = "clients", params(ClassifyQuery),
    responses((status = 200, body = Classification), (status = 400, body = ErrorBody)))]
async fn classify(_user: AuthUser, QueryParams(q): QueryParams<ClassifyQuery>) -> Json<Classification> {
    Json(Classification {
        client_type: rules::client_type_for(&q.name),
        category: rules::category_for(&q.name),
    })
}
