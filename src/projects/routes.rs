//! Client modules: link a module to a client, edit the subscription, its custom fields, its
//! portal login and secrets; reveals are managerial, audited and limited.

use crate::auth::limiter::Reveals;
use crate::auth::session::{AuthUser, Manager};
use crate::clients::store as client_store;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody};
use crate::projects::store::visible_project;
use crate::projects::store::{self, ClientModule};
use crate::projects::subscriptions::{self, ClientModuleInput, RevealedSecret};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Map;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_client_module))
        .routes(routes!(modules_of_client))
        .routes(routes!(get_client_module, patch_client_module))
        .routes(routes!(put_fields))
        .routes(routes!(set_secrets))
        .routes(routes!(reveal_password))
        .routes(routes!(reveal_secret))
}

/// Subscribe a client to a module; its checklist is seeded at once.
#[utoipa::path(post, path = "/api/client-modules", tag = "projects", request_body = ClientModuleInput,
    responses((status = 201, body = ClientModule), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_client_module(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(input): JsonBody<ClientModuleInput>,
) -> Result<(StatusCode, Json<ClientModule>), AppError> {
    let cm = state
        .db
        .write(move |tx| subscriptions::create_in(tx, &user, input))
        .await?;
    Ok((StatusCode::CREATED, Json(cm)))
}

#[derive(Serialize, ToSchema)]
pub struct ClientModules {
    pub rows: Vec<ClientModule>,
}

/// A client's modules.
#[utoipa::path(get, path = "/api/clients/{id}/modules", tag = "projects", params(("id" = String, Path)),
    responses((status = 200, body = ClientModules), (status = 404, body = ErrorBody)))]
async fn modules_of_client(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<ClientModules>, AppError> {
    let rows = state
        .db
        .read(move |c| {
            client_store::get(c, &id, user.book().as_deref())?
                .ok_or_else(|| AppError::not_found("client"))?;
            store::of_client(c, &id)
        })
        .await?;
    Ok(Json(ClientModules { rows }))
}

/// One client module.
#[utoipa::path(get, path = "/api/client-modules/{id}", tag = "projects", params(("id" = String, Path)),
    responses((status = 200, body = ClientModule), (status = 404, body = ErrorBody)))]
async fn get_client_module(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<ClientModule>, AppError> {
    Ok(Json(
        state.db.read(move |c| visible_project(c, &user, &id)).await?,
    ))
}

/// Edit a client module; the portal password (managerial) applies atomically with the rest.
#[utoipa::path(patch, path = "/api/client-modules/{id}", tag = "projects", request_body = ClientModuleInput, params(("id" = String, Path)),
    responses((status = 200, body = ClientModule), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn patch_client_module(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<ClientModuleInput>,
) -> Result<Json<ClientModule>, AppError> {
    let cm = state
        .db
        .write(move |tx| subscriptions::update_in(tx, &user, &id, input))
        .await?;
    Ok(Json(cm))
}

/// Replace a client module's custom field values, checked against the module's field_spec.
#[utoipa::path(put, path = "/api/client-modules/{id}/fields", tag = "projects", params(("id" = String, Path)),
    request_body(content = Object, description = "The field_values map"),
    responses((status = 200, body = ClientModule), (status = 404, body = ErrorBody), (status = 422, description = "Names the failing key", body = ErrorBody)))]
async fn put_fields(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(values): JsonBody<Map<String, serde_json::Value>>,
) -> Result<Json<ClientModule>, AppError> {
    let cm = state
        .db
        .write(move |tx| subscriptions::set_fields_in(tx, &user, &id, &values))
        .await?;
    Ok(Json(cm))
}

/// Set module secrets (managerial): merges the map; an empty or null value removes that key.
#[utoipa::path(post, path = "/api/client-modules/{id}/secrets", tag = "projects", params(("id" = String, Path)),
    request_body(content = Object, description = "Secret key to value"),
    responses((status = 200, body = ClientModule), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_secrets(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(values): JsonBody<Map<String, serde_json::Value>>,
) -> Result<Json<ClientModule>, AppError> {
    subscriptions::check_secrets(&values)?;
    let cm = state
        .db
        .write(move |tx| subscriptions::set_secrets_in(tx, &user, &id, values))
        .await?;
    Ok(Json(cm))
}

#[derive(Serialize, ToSchema)]
pub struct RevealedPassword {
    pub password: String,
}

/// Reveal the portal password (managerial; audited; 20 reveals a minute per user).
#[utoipa::path(post, path = "/api/client-modules/{id}/reveal-password", tag = "projects", params(("id" = String, Path)),
    responses((status = 200, body = RevealedPassword), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn reveal_password(
    State(state): State<AppState>,
    State(reveals): State<Reveals>,
    Manager(user): Manager,
    IdPath(id): IdPath,
) -> Result<Json<RevealedPassword>, AppError> {
    reveals.hit(&user.id)?;
    let password = state
        .db
        .write(move |tx| subscriptions::reveal_password_in(tx, &user, &id))
        .await?;
    Ok(Json(RevealedPassword { password }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecretKey {
    pub key: String,
}

/// Reveal one module secret (managerial; audited by key, never the value; limited with the other reveals).
#[utoipa::path(post, path = "/api/client-modules/{id}/reveal-secret", tag = "projects", request_body = SecretKey, params(("id" = String, Path)),
    responses((status = 200, body = RevealedSecret), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn reveal_secret(
    State(state): State<AppState>,
    State(reveals): State<Reveals>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<SecretKey>,
) -> Result<Json<RevealedSecret>, AppError> {
    reveals.hit(&user.id)?;
    let revealed = state
        .db
        .write(move |tx| subscriptions::reveal_secret_in(tx, &user, &id, req.key))
        .await?;
    Ok(Json(revealed))
}
