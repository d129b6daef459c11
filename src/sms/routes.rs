//! `GET /api/reports/sms-balances` (with its CSV of logins), the refreshes (all, one client)
//! and where a running refresh stands.

use crate::auth::session::{AuthUser, Manager};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, QueryParams};
use crate::sms::pull::Scope;
use crate::sms::pulls::{Progress, PullCounts, Pulls};
use crate::sms::report;
use crate::sms::store::{self, BalanceFilter, BalanceRow, LoginRow, Show};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(balances))
        .routes(routes!(logins_csv))
        .routes(routes!(refresh_all, refresh_progress))
        .routes(routes!(refresh_client))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BalancesQuery {
    /// `low` (default: below the threshold), `flagged` (the last poll read no balance) or `all`.
    pub filter: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
}

impl BalancesQuery {
    fn show(&self, default: Show) -> Result<Show, AppError> {
        match self.filter.as_deref().map(str::trim) {
            None | Some("") => Ok(default),
            Some("low") => Ok(Show::Low),
            Some("flagged") => Ok(Show::Flagged),
            Some("all") => Ok(Show::All),
            Some(_) => Err(
                AppError::bad_request("invalid_filter", "filter is low, flagged or all.").on_field("filter"),
            ),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct Balances {
    #[serde(flatten)]
    pub page: Paginated<BalanceRow>,
    /// `sms.low_balance_threshold` in force today: `low` is a balance below it.
    pub threshold: i64,
}

/// SMS balances, lowest first, Low by default (staff: their book, balances only; managerial
/// users also get `username` and `hasPassword`).
#[utoipa::path(get, path = "/api/reports/sms-balances", tag = "reports", params(BalancesQuery, Page),
    responses((status = 200, body = Balances), (status = 400, body = ErrorBody)))]
async fn balances(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<BalancesQuery>,
) -> Result<Json<Balances>, AppError> {
    let show = q.show(Show::Low)?;
    let (listed, threshold) = state
        .db
        .read(move |c| report::page(c, &user, show, q.q, &page))
        .await?;
    Ok(Json(Balances {
        page: listed,
        threshold,
    }))
}

const LOGIN_HEADER: &[&str] = &[
    "client",
    "code",
    "username",
    "password",
    "provider",
    "balance",
    "install date",
    "phone",
];

fn login_cells(row: &LoginRow) -> Vec<String> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        row.client_name.clone(),
        row.module_code.clone(),
        text(&row.username),
        text(&row.password),
        text(&row.provider),
        row.balance.map(|b| b.to_string()).unwrap_or_default(),
        text(&row.installed_on),
        text(&row.phone),
    ]
}

/// The CSV of SMS logins (managerial; every row, no cap; `filter` defaults to `all`): client,
/// code, username, password, provider, balance, install date, phone; `sort` as the list. Each
/// download is audited.
#[utoipa::path(get, path = "/api/reports/sms-balances.csv", tag = "reports", params(BalancesQuery, Page),
    responses((status = 200, content_type = "text/csv", body = String), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn logins_csv(
    State(state): State<AppState>,
    Manager(user): Manager,
    page: Page,
    QueryParams(q): QueryParams<BalancesQuery>,
) -> Result<Response, AppError> {
    let show = q.show(Show::All)?;
    let name = q.q.clone();
    let download = csv::stream(
        &state.db,
        "sms-logins.csv".into(),
        LOGIN_HEADER,
        page.sort,
        move |c| {
            Ok(store::logins(BalanceFilter {
                show,
                q: q.q,
                book: None,
                threshold: report::threshold(c)?,
            }))
        },
        login_cells,
    )
    .await?;
    // Audited once the download has begun: a refused one (an unknown sort) hands nothing out.
    state
        .db
        .write(move |tx| report::logins_exported_in(tx, &user, show, name.as_deref()))
        .await?;
    Ok(download)
}

async fn refresh(
    state: AppState,
    user: AuthUser,
    client: Option<String>,
) -> Result<Json<PullCounts>, AppError> {
    let counts = tokio::task::spawn_blocking(move || {
        let scope = client.as_deref().map_or(Scope::All, Scope::Client);
        report::refresh(&state, &user, scope)
    })
    .await
    .map_err(AppError::internal)??;
    Ok(Json(counts))
}

/// Pull every active SMS subscription's balance from the gateway now (managerial), a few at a
/// time; answers the counts when done (progress: the GET of this path).
#[utoipa::path(post, path = "/api/reports/sms-balances/refresh", tag = "reports",
    responses((status = 200, body = PullCounts), (status = 403, body = ErrorBody),
              (status = 409, description = "No gateway address is set, or a refresh is already running", body = ErrorBody),
              (status = 502, description = "The gateway answered none of the polls", body = ErrorBody)))]
async fn refresh_all(
    State(state): State<AppState>,
    Manager(user): Manager,
) -> Result<Json<PullCounts>, AppError> {
    refresh(state, user, None).await
}

/// Where the running (or the last) refresh stands (managerial).
#[utoipa::path(get, path = "/api/reports/sms-balances/refresh", tag = "reports",
    responses((status = 200, body = Progress), (status = 403, body = ErrorBody)))]
async fn refresh_progress(State(pulls): State<Arc<Pulls>>, _manager: Manager) -> Json<Progress> {
    Json(pulls.progress())
}

/// Pull one client's SMS balances now (managerial).
#[utoipa::path(post, path = "/api/clients/{id}/sms-balance/refresh", tag = "reports", params(("id" = String, Path)),
    responses((status = 200, body = PullCounts), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "No gateway address is set, the client has no SMS subscription, or a refresh is running", body = ErrorBody),
              (status = 502, description = "The gateway did not answer", body = ErrorBody)))]
async fn refresh_client(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
) -> Result<Json<PullCounts>, AppError> {
    refresh(state, user, Some(id)).await
}
