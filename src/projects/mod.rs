//! Client modules (subscriptions, also called projects): credentials, custom fields, the
//! onboarding milestones with their boards, and module rosters.

pub mod checklist_templates;
pub mod milestone_routes;
pub mod milestones;
pub mod notify;
pub mod notify_routes;
pub mod roster_routes;
pub mod routes;
pub mod rules;
pub mod store;
pub mod subscriptions;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;

pub fn router() -> OpenApiRouter<AppState> {
    routes::router()
        .merge(milestone_routes::router())
        .merge(roster_routes::router())
        .merge(notify_routes::router())
}
