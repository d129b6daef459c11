//! Client modules (subscriptions, also called projects): credentials, custom fields, the
//! onboarding milestones with their boards, and module rosters.
//!
//! - `subscriptions`: a client's link to a module, its fields, portal login and secrets.
//! - `milestones`: the onboarding checklist seeded, ticked, and the stalled worklist.
//! - `checklist_templates`: the front list, the modules' tails and the legacy checklist.
//! - `notify`: one email to every client on a module's roster.
//! - `rules`: checklists, stamps, secrets, ages. `store`: the SQL.
//! - `routes`, `milestone_routes`, `roster_routes`, `notify_routes`: handlers, merged by
//!   [`router`].

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
