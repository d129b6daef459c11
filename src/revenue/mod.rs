//! What the office billed and earned (spec 4.9, issue 20): the module revenue by month, each
//! client's profitability, and the office's months for the cockpit. Reads of the figures kept
//! by migrations/V17; the handlers, their CSV twins, the cockpit and the benchmark call these.
//!
//! - `module_revenue`: the taxable value billed per module and month.
//! - `profitability`: each client's billed, collected, cost and margin, sorted.
//! - `rules`: the range of months, the margin. `store`: the SQL (also the cockpit's months).
//! - `routes`: handlers.

pub mod module_revenue;
pub mod profitability;
pub mod routes;
pub mod rules;
pub mod store;

pub use module_revenue::{ModuleRevenue, ModuleRevenueRow, module_revenue};
pub use profitability::{PROFIT_SORTS, Profitability, profitability};
