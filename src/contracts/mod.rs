//! Service contracts (AMC, spec 2.10, decisions 5): a client's maintenance contract for a
//! period and a fixed amount, the renewal invoice raised from it and the paid state read from
//! that invoice. The operations, one transaction each, are what the handlers call. A refused
//! request writes nothing.
//!
//! - `changes`: a contract created, changed, renewed (its invoice drafted), each audited.
//! - `rules`: checks, periods, paid state, the renewal line. `store`: the SQL. `routes`: handlers.

pub mod changes;
pub mod routes;
pub mod rules;
pub mod store;

pub use changes::{ContractInput, create_in, renew_in, update_in};
