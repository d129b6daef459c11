//! Moving in (spec 1 function 11, 2.10, 4.8; issue 17): a legacy file of clients and their old
//! invoices is staged (`staging`), its problems corrected or excluded row by row, and committed
//! in one transaction (`commit`) that seeds the number series past the legacy numbers. The
//! rules are in `rules`, the SQL in `store`, the handlers in `routes`.

pub mod commit;
pub mod routes;
pub mod rules;
pub mod staging;
pub mod store;
