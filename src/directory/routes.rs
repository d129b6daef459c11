//! `GET /api/portals`, its CSV twin and `GET /api/portals/providers`; `GET /api/module-data`
//! and its CSV twin (decisions 5): for every signed-in user, staff within their book. No
//! password or secret in any of them.

use crate::auth::session::AuthUser;
use crate::directory::store::{self, ModuleDataFilter, PortalFilter, PortalLogin};
use crate::directory::{self, ModuleDataPage, rules};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::QueryParams;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_portals))
        .routes(routes!(portals_csv))
        .routes(routes!(portal_providers))
        .routes(routes!(module_data))
        .routes(routes!(module_data_csv))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PortalQuery {
    /// One module.
    pub module_id: Option<String>,
    /// The provider, whole, ignoring case (`GET /api/portals/providers` lists them).
    pub provider: Option<String>,
    /// Part of the client's name or of the username.
    pub q: Option<String>,
    /// 1 (or true): active subscriptions; 0 (or false): the others; blank: both.
    pub active: Option<String>,
}

impl PortalQuery {
    fn filter(self, user: &AuthUser) -> Result<PortalFilter, AppError> {
        Ok(PortalFilter {
            active: rules::active(self.active.as_deref())?,
            module_id: rules::text(self.module_id),
            provider: rules::text(self.provider),
            q: rules::text(self.q),
            book: user.book(),
        })
    }
}

/// Every client module with a portal provider or username (staff: their book), by client and
/// module: the login without its password (`hasPassword` says one is stored; managers reveal
/// it, audited, at `POST /api/client-modules/{id}/reveal-password`). Sort by client_name,
/// module_code, module_name, provider, username or active.
#[utoipa::path(get, path = "/api/portals", tag = "directory", params(PortalQuery, Page),
    responses((status = 200, body = Paginated<PortalLogin>), (status = 400, body = ErrorBody)))]
async fn list_portals(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<PortalQuery>,
) -> Result<Json<Paginated<PortalLogin>>, AppError> {
    let filter = q.filter(&user)?;
    Ok(Json(
        state
            .db
            .read(move |c| directory::portals_page(c, filter, &page))
            .await?,
    ))
}

const PORTAL_CSV: &[&str] = &[
    "Client",
    "Module code",
    "Module",
    "Provider",
    "Username",
    "Active",
    "Password stored",
];

fn portal_cells(p: &PortalLogin) -> Vec<String> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        p.client_name.clone(),
        p.module_code.clone(),
        p.module_name.clone(),
        text(&p.provider),
        text(&p.username),
        p.active.to_string(),
        if p.has_password { "yes" } else { "no" }.to_string(),
    ]
}

/// Every portal login the list's filters and sort select, as CSV: no password, only whether
/// one is stored.
#[utoipa::path(get, path = "/api/portals.csv", tag = "directory", params(PortalQuery, Page),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list"),
              (status = 400, body = ErrorBody)))]
async fn portals_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<PortalQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user)?;
    csv::stream(
        &state.db,
        "portals.csv".into(),
        PORTAL_CSV,
        page.sort,
        move |_| Ok(store::portals(filter)),
        portal_cells,
    )
    .await
}

#[derive(Serialize, ToSchema)]
pub struct PortalProviders {
    /// Each provider once, by name.
    pub rows: Vec<String>,
}

/// The portal providers in use (staff: in their book), for the list's provider filter.
#[utoipa::path(get, path = "/api/portals/providers", tag = "directory",
    responses((status = 200, body = PortalProviders)))]
async fn portal_providers(
    State(state): State<AppState>,
    user: AuthUser,
) -> Result<Json<PortalProviders>, AppError> {
    let book = user.book();
    let rows = state
        .db
        .read(move |c| store::providers(c, book.as_deref()))
        .await?;
    Ok(Json(PortalProviders { rows }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ModuleDataQuery {
    /// The module (required).
    pub module_id: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
    /// 1 (or true): active subscriptions; 0 (or false): the others; blank: both.
    pub active: Option<String>,
}

impl ModuleDataQuery {
    fn filter(self, user: &AuthUser) -> Result<ModuleDataFilter, AppError> {
        let module_id = rules::text(self.module_id).ok_or_else(|| {
            AppError::bad_request("module_id_required", "Choose a module: module_id is required.")
                .on_field("module_id")
        })?;
        Ok(ModuleDataFilter {
            module_id,
            active: rules::active(self.active.as_deref())?,
            q: rules::text(self.q),
            book: user.book(),
        })
    }
}

/// A module's subscriptions (staff: their book) as a table whose `columns` are the module's
/// field spec: each row's `values` hold exactly those keys. Never a secret. Sort by
/// client_name or active.
#[utoipa::path(get, path = "/api/module-data", tag = "directory", params(ModuleDataQuery, Page),
    responses((status = 200, body = ModuleDataPage),
              (status = 400, description = "module_id is missing, or a query value is out of range", body = ErrorBody),
              (status = 404, description = "No such module", body = ErrorBody)))]
async fn module_data(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ModuleDataQuery>,
) -> Result<Json<ModuleDataPage>, AppError> {
    let filter = q.filter(&user)?;
    Ok(Json(
        state
            .db
            .read(move |c| directory::module_data_page(c, filter, &page))
            .await?,
    ))
}

/// The whole directory of a module as CSV: Client, then a column per field under its label.
#[utoipa::path(get, path = "/api/module-data.csv", tag = "directory", params(ModuleDataQuery, Page),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered directory"),
              (status = 400, description = "module_id is missing, or a query value is out of range", body = ErrorBody),
              (status = 404, description = "No such module", body = ErrorBody)))]
async fn module_data_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ModuleDataQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user)?;
    let (name, body) = state
        .db
        .read(move |c| directory::module_data_csv(c, filter, page.sort.as_deref()))
        .await?;
    Ok(csv::attachment(&name, body))
}
