//! The client registry: co-operative societies, their contacts, branches and interactions.

pub mod contacts;
pub mod contacts_routes;
pub mod contacts_store;
pub mod interactions;
pub mod interactions_routes;
pub mod interactions_store;
pub mod owes;
pub mod registry;
pub mod routes;
pub mod rules;
pub mod store;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;

pub fn router() -> OpenApiRouter<AppState> {
    routes::router()
        .merge(contacts_routes::router())
        .merge(interactions_routes::router())
}
