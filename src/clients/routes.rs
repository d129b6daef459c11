//! Clients: the book, one client, edit (with the write-only DB password), account owner,
//! DB password reveal, bulk edit, and the pick-lists the console needs.

use crate::auth::limiter::Reveals;
use crate::auth::session::{AuthUser, Manager, Owner};
use crate::clients::registry::{self, BulkChanges, ClientInput, ClientReply};
use crate::clients::rules;
use crate::clients::store::{self, Client, ClientFilter};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_clients, create_client))
        .routes(routes!(clients_csv))
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

impl ClientQuery {
    /// Staff are held to their own book whatever they ask for; others may narrow to theirs.
    fn filter(self, user: &AuthUser) -> ClientFilter {
        let owner_id = user.book().or(if self.mine == Some(1) {
            Some(user.id.clone())
        } else {
            self.owner_id
        });
        ClientFilter {
            q: self.q,
            district: self.district,
            sector: self.sector,
            client_type: self.client_type,
            category: self.category,
            status: self.status,
            owner_id,
        }
    }
}

/// The client book, by name. Staff see only the clients they own. Sort by name, category,
/// client_type, district, status, owner_name, phone or created_at.
#[utoipa::path(get, path = "/api/clients", tag = "clients", params(Page, ClientQuery),
    responses((status = 200, body = Paginated<Client>), (status = 400, body = ErrorBody)))]
async fn list_clients(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ClientQuery>,
) -> Result<Json<Paginated<Client>>, AppError> {
    let filter = q.filter(&user);
    Ok(Json(
        state.db.read(move |c| store::list(filter).page(c, &page)).await?,
    ))
}

const CLIENT_CSV: &[&str] = &[
    "Name",
    "GSTIN",
    "Category",
    "Type",
    "District",
    "Status",
    "Owner",
    "Phone",
    "Email",
    "State code",
];

fn client_cells(c: &Client) -> Vec<String> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        c.name.clone(),
        c.gstin
            .as_ref()
            .map(|g| g.as_str().to_string())
            .unwrap_or_default(),
        c.category.clone(),
        c.client_type.clone(),
        text(&c.district),
        c.status.clone(),
        text(&c.owner_name),
        text(&c.phone),
        text(&c.email),
        text(&c.state_code),
    ]
}

/// Every client the list's filters and sort select, as CSV.
#[utoipa::path(get, path = "/api/clients.csv", tag = "clients", params(Page, ClientQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list")))]
async fn clients_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ClientQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user);
    csv::stream(
        &state.db,
        "clients.csv".into(),
        CLIENT_CSV,
        page.sort,
        move |_| Ok(store::list(filter)),
        client_cells,
    )
    .await
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
    registry::db_password_gate(&user, &input)?;
    let fields = registry::client_changes(&input, None)?;
    let owner = user.book().or(input.owner_id.clone().filter(|o| !o.is_empty()));
    let client = state
        .db
        .write(move |tx| registry::create_in(tx, &user, fields, owner))
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
            let client = store::visible_client(c, &user, &id)?;
            registry::reply(c, &user, client, false)
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
    registry::db_password_gate(&user, &input)?;
    if input.owner_id.is_some() {
        return Err(AppError::invalid(
            "owner_id",
            "use_owner_route",
            "Change the account owner with PATCH /api/clients/{id}/owner.",
        ));
    }
    let client = state
        .db
        .write(move |tx| registry::update_in(tx, &user, &id, &input))
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
        .write(move |tx| registry::set_owner_in(tx, &user, &id, owner.as_deref()))
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
    State(reveals): State<Reveals>,
    Manager(user): Manager,
    IdPath(id): IdPath,
) -> Result<Json<RevealedPassword>, AppError> {
    reveals.hit(&user.id)?;
    let password = state
        .db
        .write(move |tx| registry::reveal_db_password_in(tx, &user, &id))
        .await?;
    Ok(Json(RevealedPassword { password }))
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
    let (changes, owner) = registry::bulk_changes(req.changes)?;
    let updated = state
        .db
        .write(move |tx| registry::bulk_edit_in(tx, &user, &ids, changes, owner))
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
