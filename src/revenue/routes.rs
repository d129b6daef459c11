//! `GET /api/reports/module-revenue` and `GET /api/reports/client-profitability`, each with its
//! CSV twin (decisions 5): for every signed-in user, staff within their book.

use crate::auth::session::AuthUser;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::QueryParams;
use crate::plumbing::money;
use crate::revenue::rules::{Months, Start};
use crate::revenue::{self, ModuleRevenue, Profitability};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(module_revenue))
        .routes(routes!(module_revenue_csv))
        .routes(routes!(client_profitability))
        .routes(routes!(client_profitability_csv))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MonthRange {
    /// First month, YYYY-MM (default: April of the current financial year).
    pub from: Option<String>,
    /// Last month, YYYY-MM (default: this month); at most ten years after from.
    pub to: Option<String>,
    /// A financial year instead, YYYY-YY (April to March).
    pub fy: Option<String>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ClientPart {
    /// Part of the client's name.
    pub q: Option<String>,
}

impl MonthRange {
    async fn months(self, state: &AppState) -> Result<Months, AppError> {
        let today = state.db.read(settings::office_today).await?;
        Months::asked(
            self.from.as_deref(),
            self.to.as_deref(),
            self.fy.as_deref(),
            today,
            Start::FinancialYear,
        )
    }
}

/// The taxable value billed per module per month (invoice lines naming a module, credit notes'
/// lines subtracted), largest total first, with the totals per month.
#[utoipa::path(get, path = "/api/reports/module-revenue", tag = "reports", params(MonthRange),
    responses((status = 200, body = ModuleRevenue), (status = 400, body = ErrorBody)))]
async fn module_revenue(
    State(state): State<AppState>,
    user: AuthUser,
    QueryParams(q): QueryParams<MonthRange>,
) -> Result<Json<ModuleRevenue>, AppError> {
    let months = q.months(&state).await?;
    let book = user.book();
    Ok(Json(
        state
            .db
            .read(move |c| revenue::module_revenue(c, months, book.as_deref()))
            .await?,
    ))
}

/// The module revenue as CSV: a module per line, a month per column (rupees), the total last.
#[utoipa::path(get, path = "/api/reports/module-revenue.csv", tag = "reports", params(MonthRange),
    responses((status = 200, content_type = "text/csv", body = String, description = "code, module, each month, total"),
              (status = 400, body = ErrorBody)))]
async fn module_revenue_csv(
    State(state): State<AppState>,
    user: AuthUser,
    QueryParams(q): QueryParams<MonthRange>,
) -> Result<Response, AppError> {
    let months = q.months(&state).await?;
    let book = user.book();
    let report = state
        .db
        .read(move |c| revenue::module_revenue(c, months, book.as_deref()))
        .await?;
    let mut head = vec!["Code", "Module"];
    head.extend(report.months.iter().map(String::as_str));
    head.push("Total");
    let mut out = csv::line(&head);
    let line = |code: &str, name: &str, amounts: &[i64], total: i64| {
        let cells: Vec<String> = amounts
            .iter()
            .chain([&total])
            .map(|p| money::decimal(*p))
            .collect();
        let mut all = vec![code, name];
        all.extend(cells.iter().map(String::as_str));
        csv::line(&all)
    };
    for r in &report.rows {
        out.push_str(&line(&r.code, &r.name, &r.months, r.total));
    }
    out.push_str(&line("", "TOTAL", &report.totals, report.total));
    Ok(csv::attachment(
        &format!("module-revenue-{}-to-{}.csv", report.from, report.to),
        out,
    ))
}

#[derive(Serialize, ToSchema)]
pub struct ProfitabilityList {
    pub from: String,
    pub to: String,
    #[serde(flatten)]
    pub page: Paginated<Profitability>,
    /// Over every client of the range, not just this page.
    pub totals: Profitability,
}

/// Each client's billed (before GST), collected, cloud cost and margin over the range, largest
/// margin first; sort by client_name, billed, collected, cost, margin or margin_pct.
#[utoipa::path(get, path = "/api/reports/client-profitability", tag = "reports", params(MonthRange, ClientPart, Page),
    responses((status = 200, body = ProfitabilityList), (status = 400, body = ErrorBody)))]
async fn client_profitability(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<MonthRange>,
    QueryParams(name): QueryParams<ClientPart>,
) -> Result<Json<ProfitabilityList>, AppError> {
    let months = q.months(&state).await?;
    let book = user.book();
    let sort = page.sort.clone();
    let (rows, totals) = state
        .db
        .read(move |c| revenue::profitability(c, months, book.as_deref(), name.q.as_deref(), sort.as_deref()))
        .await?;
    Ok(Json(ProfitabilityList {
        from: months.from_text(),
        to: months.to_text(),
        page: page.slice(rows),
        totals,
    }))
}

/// Every client of the profitability in the list's order as CSV (rupees), the totals last.
#[utoipa::path(get, path = "/api/reports/client-profitability.csv", tag = "reports", params(MonthRange, ClientPart, Page),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole list"),
              (status = 400, body = ErrorBody)))]
async fn client_profitability_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<MonthRange>,
    QueryParams(name): QueryParams<ClientPart>,
) -> Result<Response, AppError> {
    let months = q.months(&state).await?;
    let book = user.book();
    let sort = page.sort.clone();
    let (rows, totals) = state
        .db
        .read(move |c| revenue::profitability(c, months, book.as_deref(), name.q.as_deref(), sort.as_deref()))
        .await?;
    let mut out = csv::line(&[
        "client_id",
        "Client",
        "Billed (before GST)",
        "Collected",
        "Cloud cost",
        "Margin",
        "Margin %",
    ]);
    for r in rows.iter().chain([&totals]) {
        out.push_str(&csv::line(&[
            &r.client_id,
            &r.client_name,
            &money::decimal(r.billed),
            &money::decimal(r.collected),
            &money::decimal(r.cost),
            &money::decimal(r.margin),
            &r.margin_pct.map(|p| format!("{p:.1}")).unwrap_or_default(),
        ]));
    }
    Ok(csv::attachment(
        &format!(
            "client-profitability-{}-to-{}.csv",
            months.from_text(),
            months.to_text()
        ),
        out,
    ))
}
