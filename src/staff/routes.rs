//! Employees: everyone lists them (for pickers); the owner invites, edits, deactivates,
//! reactivates and resets passwords. Every change is audited without hashes.

use crate::auth::session::{AuthUser, Owner};
use crate::auth::{Role, rules as auth_rules};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams};
use crate::staff::accounts::{self, EmployeeCreate, EmployeePatch};
use crate::staff::store::{self, Employee, EmployeeCard, EmployeeFilter};
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
        .routes(routes!(list_employees, create_employee))
        .routes(routes!(employees_csv))
        .routes(routes!(patch_employee))
        .routes(routes!(deactivate))
        .routes(routes!(reactivate))
        .routes(routes!(reset_password))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EmployeeQuery {
    /// Part of the name, username or email.
    pub q: Option<String>,
    pub role: Option<Role>,
    /// 1 active only, 0 deactivated only.
    pub active: Option<i64>,
}

/// A row of the staff list: the whole account for the owner, who manages sign-ins; the
/// picker's fields for everyone else (issue 33).
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum EmployeeRow {
    Account(Employee),
    Card(EmployeeCard),
}

/// Staff accounts, by name (any signed-in user: the pickers need them). The owner reads whole
/// accounts (`Employee`); a manager or staff user reads the picker's fields (`EmployeeCard`).
#[utoipa::path(get, path = "/api/employees", tag = "staff", params(Page, EmployeeQuery),
    responses((status = 200, body = Paginated<EmployeeRow>,
               description = "Owner: `Employee` rows; manager and staff: `EmployeeCard` rows"),
              (status = 401, body = ErrorBody)))]
async fn list_employees(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<EmployeeQuery>,
) -> Result<Json<Paginated<EmployeeRow>>, AppError> {
    let filter = q.filter();
    let listed = state.db.read(move |c| store::list(filter).page(c, &page)).await?;
    let row = |e: Employee| match user.role {
        Role::Owner => EmployeeRow::Account(e),
        Role::Manager | Role::Staff => EmployeeRow::Card(e.into()),
    };
    Ok(Json(listed.map(row)))
}

impl EmployeeQuery {
    fn filter(self) -> EmployeeFilter {
        EmployeeFilter {
            q: self.q,
            role: self.role,
            active: self.active,
        }
    }
}

const EMPLOYEE_CSV: &[&str] = &["Name", "Username", "Email", "Role", "Status", "Phone", "Title"];

fn employee_cells(e: &Employee) -> Vec<String> {
    vec![
        e.name.clone(),
        e.username.clone(),
        e.email.clone(),
        e.role.as_str().into(),
        if e.active == 1 { "active" } else { "deactivated" }.into(),
        e.phone.clone().unwrap_or_default(),
        e.title.clone().unwrap_or_default(),
    ]
}

/// The whole filtered staff list as CSV (any signed-in user): the picker's fields only, so no
/// password, hash, lock detail or time, whoever reads it.
#[utoipa::path(get, path = "/api/employees.csv", tag = "staff", params(Page, EmployeeQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list")))]
async fn employees_csv(
    State(state): State<AppState>,
    _user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<EmployeeQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter();
    csv::stream(
        &state.db,
        "employees.csv".into(),
        EMPLOYEE_CSV,
        page.sort,
        move |_| Ok(store::list(filter)),
        employee_cells,
    )
    .await
}

#[derive(Serialize, ToSchema)]
pub struct EmployeeCreated {
    #[serde(flatten)]
    pub employee: Employee,
    /// The generated initial password, shown this once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_password: Option<String>,
}

/// Invite a staff member (owner). They must change the initial password at first sign-in.
#[utoipa::path(post, path = "/api/employees", tag = "staff", request_body = EmployeeCreate,
    responses((status = 201, body = EmployeeCreated), (status = 403, body = ErrorBody),
              (status = 409, description = "Username or email in use", body = ErrorBody),
              (status = 422, body = ErrorBody)))]
async fn create_employee(
    State(state): State<AppState>,
    Owner(owner): Owner,
    JsonBody(req): JsonBody<EmployeeCreate>,
) -> Result<(StatusCode, Json<EmployeeCreated>), AppError> {
    let mut invitation = accounts::invitation(req)?;
    let to_hash = invitation.password.clone();
    invitation.new.password_hash = state.hashing(move || auth_rules::hash_password(&to_hash)).await?;
    let new = invitation.new;
    let employee = state
        .db
        .write(move |tx| accounts::create_in(tx, &owner, new))
        .await?;
    let initial_password = invitation.generated.then_some(invitation.password);
    Ok((
        StatusCode::CREATED,
        Json(EmployeeCreated {
            employee,
            initial_password,
        }),
    ))
}

/// Edit a staff member (owner). The email cannot change; the last active owner keeps the role.
#[utoipa::path(patch, path = "/api/employees/{id}", tag = "staff", request_body = EmployeePatch,
    params(("id" = String, Path, description = "Employee id")),
    responses((status = 200, body = Employee), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "Would leave no active owner, or username in use", body = ErrorBody),
              (status = 422, body = ErrorBody)))]
async fn patch_employee(
    State(state): State<AppState>,
    Owner(owner): Owner,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<EmployeePatch>,
) -> Result<Json<Employee>, AppError> {
    let (changes, email) = accounts::patch_changes(req)?;
    let updated = state
        .db
        .write(move |tx| accounts::update_in(tx, &owner, &id, changes, email))
        .await?;
    Ok(Json(updated))
}

/// Deactivate a staff member (owner): they cannot sign in and their sessions end now.
#[utoipa::path(post, path = "/api/employees/{id}/deactivate", tag = "staff",
    params(("id" = String, Path, description = "Employee id")),
    responses((status = 200, body = Employee), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "Deactivating oneself or the last active owner", body = ErrorBody)))]
async fn deactivate(
    State(state): State<AppState>,
    Owner(owner): Owner,
    IdPath(id): IdPath,
) -> Result<Json<Employee>, AppError> {
    let updated = state
        .db
        .write(move |tx| accounts::deactivate_in(tx, &owner, &id))
        .await?;
    Ok(Json(updated))
}

/// Reactivate a deactivated staff member (owner).
#[utoipa::path(post, path = "/api/employees/{id}/reactivate", tag = "staff",
    params(("id" = String, Path, description = "Employee id")),
    responses((status = 200, body = Employee), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn reactivate(
    State(state): State<AppState>,
    Owner(owner): Owner,
    IdPath(id): IdPath,
) -> Result<Json<Employee>, AppError> {
    let updated = state
        .db
        .write(move |tx| accounts::reactivate_in(tx, &owner, &id))
        .await?;
    Ok(Json(updated))
}

#[derive(Serialize, ToSchema)]
pub struct NewPassword {
    /// The new initial password, shown this once.
    pub password: String,
}

/// Reset a staff member's password (owner): a new initial password, the lock cleared, their sessions ended.
#[utoipa::path(post, path = "/api/employees/{id}/reset-password", tag = "staff",
    params(("id" = String, Path, description = "Employee id")),
    responses((status = 200, body = NewPassword), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn reset_password(
    State(state): State<AppState>,
    Owner(owner): Owner,
    IdPath(id): IdPath,
) -> Result<Json<NewPassword>, AppError> {
    let password = auth_rules::initial_password();
    let to_hash = password.clone();
    let hash = state.hashing(move || auth_rules::hash_password(&to_hash)).await?;
    state
        .db
        .write(move |tx| accounts::reset_password_in(tx, &owner, &id, &hash))
        .await?;
    Ok(Json(NewPassword { password }))
}
