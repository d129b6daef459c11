//! HTTP plumbing that names no area: extractors, pagination, middleware, the console's assets,
//! CSV streaming and its Excel twins, the health check and the answers for unknown addresses and methods.

pub mod answers;
pub mod console;
pub mod csv;
pub mod download;
pub mod extract;
pub mod middleware;
pub mod pagination;
pub mod url;
pub mod xlsx;

pub use answers::{BODY_LIMIT, method_not_allowed, not_found};
