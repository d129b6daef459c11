//! The back office: one binary, one SQLite data file, a JSON API under `/api` and the console.
//!
//! [`app`] builds the whole router so that `main` serves it and the tests call it in-process: the
//! roof merges the areas' routers and nothing in the crate imports it. What every handler can
//! reach is [`state::AppState`]; an office's first start is [`setup::first_start`].

pub mod admin;
pub mod audit;
pub mod auth;
pub mod book;
pub mod catalog;
pub mod clients;
pub mod cloud_costs;
pub mod company;
pub mod contracts;
pub mod dashboard;
pub mod demo;
pub mod directory;
pub mod documents;
pub mod email;
pub mod exports;
pub mod gst_return;
pub mod imports;
pub mod jobs;
pub mod openapi;
pub mod payments;
pub mod pipeline;
pub mod plumbing;
pub mod projects;
pub mod recurring;
pub mod reminders;
pub mod renewals;
pub mod reports;
pub mod revenue;
pub mod search;
pub mod setup;
pub mod sms;
pub mod staff;
pub mod state;
pub mod statements;
pub mod tds;
pub mod tickets;
pub mod whatsapp;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::middleware::from_fn;
use axum::routing::{any, get};
use plumbing::http;
use plumbing::http::middleware;
use state::AppState;
use std::sync::Arc;
use utoipa::{Modify, OpenApi};
use utoipa_axum::{router::OpenApiRouter, routes};

/// The whole HTTP application: the API areas, the OpenAPI document, the public share pages,
/// the console and the layers every request passes. The one place that knows every area.
pub fn app(state: AppState) -> Router {
    let (api, mut openapi) = OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(http::answers::health))
        .merge(crate::auth::routes::router())
        .merge(crate::staff::routes::router())
        .merge(crate::clients::router())
        .merge(crate::statements::routes::router())
        .merge(crate::audit::routes::router())
        .merge(crate::catalog::routes::router())
        .merge(crate::projects::router())
        .merge(crate::company::router())
        .merge(crate::documents::router())
        .merge(crate::email::routes::router())
        .merge(crate::payments::routes::router())
        .merge(crate::reports::routes::router())
        .merge(crate::reminders::routes::router())
        .merge(crate::jobs::routes::router())
        .merge(crate::contracts::routes::router())
        .merge(crate::recurring::routes::router())
        .merge(crate::imports::routes::router())
        .merge(crate::admin::routes::router())
        .merge(crate::sms::routes::router())
        .merge(crate::tickets::routes::router())
        .merge(crate::pipeline::routes::router())
        .merge(crate::renewals::routes::router())
        .merge(crate::revenue::routes::router())
        .merge(crate::gst_return::routes::router())
        .merge(crate::dashboard::router())
        .merge(crate::cloud_costs::routes::router())
        .merge(crate::search::routes::router())
        .merge(crate::whatsapp::routes::router())
        .merge(crate::directory::routes::router())
        .merge(crate::tds::routes::router())
        .merge(crate::exports::tally::routes::router())
        .merge(crate::setup::routes::router())
        .split_for_parts();
    let api = http::xlsx::twins(api, &mut openapi, &state);
    openapi::PlumbingStatuses.modify(&mut openapi);
    let openapi_json = Arc::new(openapi.to_pretty_json().expect("the OpenAPI document serializes"));
    Router::new()
        .merge(api)
        .merge(crate::documents::share_routes::public_router())
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
        .route("/api", any(http::not_found))
        .route("/api/{*rest}", any(http::not_found))
        .fallback(http::console::serve)
        .method_not_allowed_fallback(http::method_not_allowed)
        .layer(from_fn(middleware::csrf))
        .layer(DefaultBodyLimit::max(http::BODY_LIMIT))
        .layer(from_fn(middleware::security_headers))
        .layer(from_fn(middleware::request_log))
        .layer(from_fn(middleware::close_unread_bodies))
        .with_state(state)
}

#[cfg(test)]
mod layering;
