//! Cloud cost usage (spec 2.10, 4.9, 6.3; decisions 5 "cloud costs"): what running a society's
//! cloud server cost in a month, one row per client and month, entered in the console or through
//! the API (`PUT /api/cloud-costs`) or pulled from the provider's monthly report (the route and
//! the monthly job, [`pull`]); listed, and ranked across clients over a range of months. The
//! client profitability report reads the same rows for its margin.
//!
//! - `costs`: the month's rows listed, and written (checked, upserted, audited).
//! - `ranking`: the clients' costs over a range of months, a page or the whole as CSV.
//! - `provider`: the provider's address and token, saved, shown and read for a pull.
//! - `pull`: the provider's report fetched and recorded, by the route and the monthly job.
//! - `rules`: months, amounts, the provider's reply, the ranking's range and order.
//! - `store`: the SQL. `routes`: handlers.
//!
//! Every operation here is one transaction; a refused request writes nothing. Each changed row
//! is audited (entity `cloud_cost`, the client's id, images of the month's row); a pull adds one
//! row of its own (`cloud_cost_pull`, the month). The provider's token is a write-only
//! credential, never in a payload or an audit row.

pub mod costs;
pub mod provider;
pub mod pull;
pub mod ranking;
pub mod routes;
pub mod rules;
pub mod store;

pub use costs::{CostRowInput, CostsInput, CostsWritten, current_month, list, write_in};
pub use provider::{
    API_URL_KEY, Provider, ProviderSettings, TOKEN_KEY, provider, save_settings_in, settings_view,
};
pub use pull::record_pull;
pub use ranking::{Ranking, RankingRow, ranking, ranking_csv, ranking_rows};
