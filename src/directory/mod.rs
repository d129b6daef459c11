//! The portals list and the module data directory (spec 1 function 12, 4.9; decisions 5): two
//! read-only views across every client's subscriptions, each in the caller's book. The portals
//! list says who logs in where (provider and username, whether a password is stored); the
//! module data directory lays one module's subscriptions out as a table of its custom fields.
//! Passwords and secrets are in neither: they are revealed one at a time, audited, on the
//! project's own routes.
//!
//! - `portals`: one page of the portals list.
//! - `module_data`: one module's data directory, a page or the whole as CSV.
//! - `rules`: filters, values in the spec, cells. `store`: the SQL. `routes`: handlers.

pub mod module_data;
pub mod portals;
pub mod routes;
pub mod rules;
pub mod store;

pub use module_data::{DirectoryModule, ModuleDataPage, module_data_csv, module_data_page};
pub use portals::portals_page;
