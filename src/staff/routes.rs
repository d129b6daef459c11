//! Employees: everyone lists them (for pickers); the owner invites, edits, deactivates,
//! reactivates and resets passwords. Every change is audited without hashes.

use crate::AppState;
use crate::auth::session::{AuthUser, Owner};
use crate::auth::{Role, rules as auth_rules, store as auth_store};
use crate::db::audit::record;
use crate::db::page::{Page, Paginated};
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{IdPath, JsonBody, QueryParams};
use crate::staff::rules::{self, blank_to_none};
use crate::staff::store::{self, Employee, EmployeeChanges, EmployeeFilter, NewEmployee};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_employees, create_employee))
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

/// Staff accounts, by name (any signed-in user: the pickers need them).
#[utoipa::path(get, path = "/api/employees", tag = "staff", params(Page, EmployeeQuery),
    responses((status = 200, body = Paginated<Employee>), (status = 401, body = ErrorBody)))]
async fn list_employees(
    State(state): State<AppState>,
    _user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<EmployeeQuery>,
) -> Result<Json<Paginated<Employee>>, AppError> {
    let filter = EmployeeFilter {
        q: q.q,
        role: q.role,
        active: q.active,
    };
    Ok(Json(state.db.read(move |c| store::list(c, filter, &page)).await?))
}

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
    let email = req.email.trim().to_string();
    rules::check_email(&email)?;
    let username = req
        .username
        .map(|u| u.trim().to_string())
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| email.clone());
    rules::check_username(&username)?;
    let name = req.name.trim().to_string();
    rules::check_name(&name)?;
    let phone = blank_to_none(req.phone);
    rules::check_phone(phone.as_deref().unwrap_or(""))?;
    let title = blank_to_none(req.title);
    rules::check_title(title.as_deref().unwrap_or(""))?;
    let generated = req.password.is_none();
    let password = req.password.unwrap_or_else(auth_rules::initial_password);
    if let Some(problem) = auth_rules::password_problem(&password) {
        return Err(AppError::invalid("password", "weak_password", problem));
    }
    let to_hash = password.clone();
    let password_hash = state.hashing(move || auth_rules::hash_password(&to_hash)).await?;
    let new = NewEmployee {
        username,
        email,
        name,
        role: req.role,
        phone,
        title,
        password_hash,
        must_change_password: true,
    };
    let employee = state
        .db
        .write(move |tx| {
            let employee = store::insert(tx, new)?;
            audit_staff(tx, &owner, &employee.id, "create", None, Some(&employee))?;
            Ok(employee)
        })
        .await?;
    let initial_password = generated.then_some(password);
    Ok((
        StatusCode::CREATED,
        Json(EmployeeCreated {
            employee,
            initial_password,
        }),
    ))
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
    let username = req.username.map(|u| u.trim().to_string());
    if let Some(u) = &username {
        rules::check_username(u)?;
    }
    let name = req.name.map(|n| n.trim().to_string());
    if let Some(n) = &name {
        rules::check_name(n)?;
    }
    if let Some(p) = &req.phone {
        rules::check_phone(p.trim())?;
    }
    if let Some(t) = &req.title {
        rules::check_title(t.trim())?;
    }
    let changes = EmployeeChanges {
        username,
        name,
        role: req.role,
        phone: req.phone.map(|p| blank_to_none(Some(p))),
        title: req.title.map(|t| blank_to_none(Some(t))),
    };
    let email = req.email;
    let updated = state
        .db
        .write(move |tx| {
            let before = existing(tx, &id)?;
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
            store::update(tx, &id, changes)?;
            let after = existing(tx, &id)?;
            audit_staff(tx, &owner, &id, "update", Some(&before), Some(&after))?;
            Ok(after)
        })
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
        .write(move |tx| {
            let before = existing(tx, &id)?;
            if before.id == owner.id {
                return Err(AppError::conflict(
                    "self",
                    "You cannot deactivate your own account.",
                ));
            }
            keep_an_owner(tx, &before)?;
            store::set_active(tx, &id, false)?;
            auth_store::end_sessions(tx, &id, None)?;
            let after = existing(tx, &id)?;
            audit_staff(tx, &owner, &id, "deactivate", Some(&before), Some(&after))?;
            Ok(after)
        })
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
        .write(move |tx| {
            let before = existing(tx, &id)?;
            store::set_active(tx, &id, true)?;
            let after = existing(tx, &id)?;
            audit_staff(tx, &owner, &id, "reactivate", Some(&before), Some(&after))?;
            Ok(after)
        })
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
        .write(move |tx| {
            let before = existing(tx, &id)?;
            store::set_password(tx, &id, &hash, true)?;
            let keep = (id == owner.id).then_some(owner.session_id.as_str());
            auth_store::end_sessions(tx, &id, keep)?;
            let after = existing(tx, &id)?;
            audit_staff(tx, &owner, &id, "reset_password", Some(&before), Some(&after))
        })
        .await?;
    Ok(Json(NewPassword { password }))
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
