//! Signing in and out, sessions, one's own profile and password, login history.
//!
//! `role`: owner, manager, staff. `session`: the signed-in user and the extractors that check a
//! role. `signin`: signing in and out. `profile`: one's own profile and password. `limiter`: the
//! login and reveal limits. `rules`, `store`, `routes`: checks, SQL, handlers.

pub mod limiter;
pub mod profile;
pub mod role;
pub mod routes;
pub mod rules;
pub mod session;
pub mod signin;
pub mod store;

pub use role::Role;
