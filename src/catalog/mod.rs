//! The module catalog: modules with their field specs, the dated price book and rate cards.

pub mod modules;
pub mod routes;
pub mod rules;
pub mod store;
