//! The owner's clean-up tools (spec 4.8): clearing the credentials the old system left
//! encrypted (`credentials`).

pub mod credentials;
pub mod routes;
pub mod store;
