//! HTTP: the error type, extractors, pagination, middleware, and the router that merges the areas.

pub mod console;
pub mod csv;
pub mod error;
pub mod extract;
pub mod middleware;
pub mod pagination;

use crate::AppState;
use crate::openapi::{ApiDoc, PlumbingStatuses};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use error::AppError;
use serde::Serialize;
use std::sync::Arc;
use utoipa::{Modify, OpenApi, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

/// The largest request body accepted anywhere (uploads set their own, smaller, limits).
pub const BODY_LIMIT: usize = 1024 * 1024;

/// The whole HTTP surface: the API areas, the OpenAPI document and the layers.
pub fn router(state: AppState) -> Router {
    let (api, mut openapi) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(health))
        .merge(crate::auth::routes::router())
        .merge(crate::staff::routes::router())
        .merge(crate::clients::router())
        .merge(crate::audit::routes::router())
        .merge(crate::catalog::routes::router())
        .merge(crate::projects::router())
        .merge(crate::company::routes::router())
        .merge(crate::company::template_routes::router())
        .merge(crate::documents::router())
        .merge(crate::mail::routes::router())
        .merge(crate::payments::routes::router())
        .merge(crate::reports::routes::router())
        .split_for_parts();
    PlumbingStatuses.modify(&mut openapi);
    let openapi_json = Arc::new(openapi.to_pretty_json().expect("the OpenAPI document serializes"));
    Router::new()
        .merge(api)
        .merge(crate::documents::shares::public_router())
        .route(
            "/api/openapi.json",
            get(move || {
                let body = openapi_json.clone();
                async move {
                    (
                        [(header::CONTENT_TYPE, "application/json")],
                        body.as_ref().clone(),
                    )
                }
            }),
        )
        .route("/api", axum::routing::any(not_found))
        .route("/api/{*rest}", axum::routing::any(not_found))
        .fallback(console::serve)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(middleware::csrf))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(middleware::security_headers))
        .layer(axum::middleware::from_fn(middleware::request_log))
        .with_state(state)
}

async fn not_found() -> AppError {
    AppError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "There is nothing at this address.",
    )
}

async fn method_not_allowed() -> AppError {
    AppError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "This address does not take that method.",
    )
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    pub ok: bool,
    pub version: &'static str,
    /// "ok" when the data file answers.
    pub db: String,
}

/// Liveness and database check (public).
#[utoipa::path(get, path = "/api/health", tag = "health", security(()),
    responses((status = 200, body = Health), (status = 503, description = "The database does not answer", body = Health)))]
async fn health(State(state): State<AppState>) -> impl IntoResponse {
    let db = state
        .db
        .read(|c| Ok(c.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?))
        .await;
    let version = env!("CARGO_PKG_VERSION");
    match db {
        Ok(_) => (
            StatusCode::OK,
            Json(Health {
                ok: true,
                version,
                db: "ok".into(),
            }),
        ),
        Err(e) => {
            tracing::error!(error = %e, "health check: database does not answer");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(Health {
                    ok: false,
                    version,
                    db: "unavailable".into(),
                }),
            )
        }
    }
}
