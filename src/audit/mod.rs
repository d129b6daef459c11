//! The owner's audit viewer. The writer every feature uses is `db::audit`.

pub mod routes;
pub mod store;
