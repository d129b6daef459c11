//! The renewals worklist (spec 1 function 10, 4.6; decisions 11): what renews in a range, priced,
//! earliest first, with the total of the amounts. A read: the handler, the CSV twin and the
//! benchmark call [`renewals`] and [`page`]; a row's one-click action is the existing renewal
//! proforma (`POST /api/client-modules/{id}/renewal-quote`) or contract renewal
//! (`POST /api/service-contracts/{id}/renew`), and a row names the renewal document it already
//! has (a subscription's live renewal proforma, a contract's renewal invoice).
//!
//! - `worklist`: the renewals priced and sorted, a page with the total, the count due soon.
//! - `rules`: the row, the range, the sort. `store`: the SQL. `routes`: handlers.

pub mod routes;
pub mod rules;
pub mod store;
pub mod worklist;

pub use worklist::{RenewalList, due_within, due_within_on, page, renewals};
