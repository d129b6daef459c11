//! `GET, PUT /api/cloud-costs` and its CSV twin, the ranking and its CSV twin (Auth, staff
//! within their book), `POST /api/cloud-costs/pull` and `GET, PUT /api/settings/cloud-costs`
//! (owner; the token is write-only).

use crate::auth::session::{AuthUser, Owner};
use crate::cloud_costs::pull::PullOutcome;
use crate::cloud_costs::rules;
use crate::cloud_costs::store::{self, CloudCostRow, CostFilter};
use crate::cloud_costs::{self, CostsInput, CostsWritten, ProviderSettings, Ranking};
use crate::plumbing::clock::Month;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{JsonBody, QueryParams, query_choice};
use crate::plumbing::{money, outbound};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_costs, put_costs))
        .routes(routes!(costs_csv))
        .routes(routes!(ranking))
        .routes(routes!(ranking_csv))
        .routes(routes!(pull_now))
        .routes(routes!(get_settings, put_settings))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CostQuery {
    /// One month, YYYY-MM.
    pub month: Option<String>,
    pub client_id: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
    /// manual or pull.
    pub source: Option<String>,
}

impl CostQuery {
    fn filter(self, user: &AuthUser) -> Result<CostFilter, AppError> {
        let blank = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        let month = blank(self.month)
            .map(|m| {
                Month::parse(&m).ok_or_else(|| {
                    AppError::bad_request("invalid_month", "month is written YYYY-MM.").on_field("month")
                })
            })
            .transpose()?;
        let source = blank(self.source);
        query_choice("source", &source, &[store::MANUAL, store::PULL])?;
        Ok(CostFilter {
            month,
            client_id: blank(self.client_id),
            q: blank(self.q),
            source,
            book: user.book(),
        })
    }
}

/// Cloud costs (staff: their book's clients): the latest month first, the costliest first
/// within it. Sort by month, amount, client_name, source or updated_at.
#[utoipa::path(get, path = "/api/cloud-costs", tag = "cloud costs", params(CostQuery, Page),
    responses((status = 200, body = Paginated<CloudCostRow>)))]
async fn list_costs(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<CostQuery>,
) -> Result<Json<Paginated<CloudCostRow>>, AppError> {
    let filter = q.filter(&user)?;
    Ok(Json(
        state
            .db
            .read(move |c| cloud_costs::list(c, filter, &page))
            .await?,
    ))
}

const COST_CSV: &[&str] = &["Month", "Client", "Amount", "Source", "Updated at"];

fn cost_cells(r: &CloudCostRow) -> Vec<String> {
    vec![
        r.month.clone(),
        r.client_name.clone(),
        money::decimal(r.amount),
        r.source.clone(),
        r.updated_at.clone(),
    ]
}

/// Every cost the list's filters and sort select, as CSV (amounts in rupees).
#[utoipa::path(get, path = "/api/cloud-costs.csv", tag = "cloud costs", params(CostQuery, Page),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list")))]
async fn costs_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<CostQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user)?;
    csv::stream(
        &state.db,
        "cloud-costs.csv".into(),
        COST_CSV,
        page.sort,
        move |_| Ok(store::list(filter)),
        cost_cells,
    )
    .await
}

/// Enter or replace costs: one row per client and month (a second entry of the same month
/// replaces the first), source `manual`. Every row is checked first and each wrong field named
/// (`rows[2].month`); then all are written, or none.
#[utoipa::path(put, path = "/api/cloud-costs", tag = "cloud costs", request_body = CostsInput,
    responses((status = 200, body = CostsWritten), (status = 422, body = ErrorBody)))]
async fn put_costs(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(input): JsonBody<CostsInput>,
) -> Result<Json<CostsWritten>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| cloud_costs::write_in(tx, &user, input))
            .await?,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RankingQuery {
    /// The first month, YYYY-MM (default: 11 months before `to`).
    pub from: Option<String>,
    /// The last month, YYYY-MM (default: the office's current month). At most 120 months in all.
    pub to: Option<String>,
}

/// The cross-client cost ranking (staff: their book): each client's total over the range,
/// the months with a cost and the average of those, costliest first. Sort by total, average,
/// months or client_name.
#[utoipa::path(get, path = "/api/cloud-costs/ranking", tag = "cloud costs", params(RankingQuery, Page),
    responses((status = 200, body = Ranking)))]
async fn ranking(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<RankingQuery>,
) -> Result<Json<Ranking>, AppError> {
    let book = user.book();
    Ok(Json(
        state
            .db
            .read(move |c| {
                cloud_costs::ranking(c, book.as_deref(), q.from.as_deref(), q.to.as_deref(), &page)
            })
            .await?,
    ))
}

/// The whole ranking as CSV, as the ranking's range and sort select it.
#[utoipa::path(get, path = "/api/cloud-costs/ranking.csv", tag = "cloud costs", params(RankingQuery, Page),
    responses((status = 200, content_type = "text/csv", body = String, description = "Every client of the ranking")))]
async fn ranking_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<RankingQuery>,
) -> Result<Response, AppError> {
    let book = user.book();
    let body = state
        .db
        .read(move |c| {
            cloud_costs::ranking_csv(
                c,
                book.as_deref(),
                q.from.as_deref(),
                q.to.as_deref(),
                page.sort.as_deref(),
            )
        })
        .await?;
    Ok(csv::attachment("cloud-cost-ranking.csv", body))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct PullInput {
    /// The month to pull, YYYY-MM (default: the month before the office's current one).
    pub month: Option<String>,
}

/// Pull a month's costs from the provider now (owner): the rows of our clients written as
/// `pull`, those of unknown clients skipped and named. 409 when no provider is set, 502 when it
/// fails; nothing is written then.
#[utoipa::path(post, path = "/api/cloud-costs/pull", tag = "cloud costs", request_body = PullInput,
    responses((status = 200, body = PullOutcome), (status = 403, body = ErrorBody),
              (status = 409, description = "No provider address or token is set (`cloud_costs_not_configured`)", body = ErrorBody),
              (status = 422, body = ErrorBody),
              (status = 502, description = "The provider did not answer, refused the token or answered something that is not the report", body = ErrorBody)))]
async fn pull_now(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<PullInput>,
) -> Result<Json<PullOutcome>, AppError> {
    let outcome = tokio::task::spawn_blocking(move || {
        let month = match input.month.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
            None => None,
            Some(text) => {
                let current = state.db.read_blocking(cloud_costs::current_month)?;
                Some(rules::month_in("month", text, current)?)
            }
        };
        cloud_costs::pull::run(&state, Some(&user.id), month)
    })
    .await
    .map_err(AppError::internal)??;
    Ok(Json(outcome))
}

/// The cloud-cost provider's settings (owner); the token shows only as `hasToken`.
#[utoipa::path(get, path = "/api/settings/cloud-costs", tag = "settings",
    responses((status = 200, body = ProviderSettings), (status = 403, body = ErrorBody)))]
async fn get_settings(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<Json<ProviderSettings>, AppError> {
    Ok(Json(state.db.read(cloud_costs::settings_view).await?))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProviderInput {
    /// The report's address, e.g. https://costs.example.com/api/usage (checked against request
    /// forgery); "" removes it.
    pub api_url: Option<String>,
    /// Write-only; omit to keep the stored one, "" to remove it.
    pub token: Option<String>,
}

/// Set the cloud-cost provider (owner, audited without the token). The address is checked
/// before it is stored.
#[utoipa::path(put, path = "/api/settings/cloud-costs", tag = "settings", request_body = ProviderInput,
    responses((status = 200, body = ProviderSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_settings(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<ProviderInput>,
) -> Result<Json<ProviderSettings>, AppError> {
    let api_url = input.api_url.map(|u| u.trim().to_string());
    if let Some(url) = api_url.clone().filter(|u| !u.is_empty()) {
        outbound::check_stored(url, state.config.allow_private_targets, "api_url").await?;
    }
    let saved = state
        .db
        .write(move |tx| cloud_costs::save_settings_in(tx, &user, api_url, input.token))
        .await?;
    Ok(Json(saved))
}
