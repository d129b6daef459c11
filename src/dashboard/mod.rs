//! The office at a glance (spec 1 function 10, 4.7, 4.9; issue 20): two summary views, each
//! tile read through the area behind it so that a tile's count is the count of its list.
//!
//! - `home`: the home dashboard, what needs the signed-in user today (`GET /api/dashboard`).
//! - `cockpit`: the owner's cockpit, this month against last with 12-month series
//!   (`GET /api/reports/mis`).
//!
//! `store` and `cockpit_store`: the SQL of their own figures. `routes` and `cockpit_routes`:
//! handlers.

pub mod cockpit;
pub mod cockpit_routes;
pub mod cockpit_store;
pub mod home;
pub mod routes;
pub mod store;

pub use cockpit::{Mis, mis};
pub use home::{Dashboard, RENEWAL_DAYS, dashboard};

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;

pub fn router() -> OpenApiRouter<AppState> {
    routes::router().merge(cockpit_routes::router())
}
