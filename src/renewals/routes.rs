//! `GET /api/renewals` and its CSV twin (decisions 11): for every signed-in user, staff within
//! their book.

use crate::auth::session::AuthUser;
use crate::plumbing::db::page::Page;
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{QueryParams, query_choice};
use crate::plumbing::money;
use crate::renewals::store::RenewalFilter;
use crate::renewals::{self, RenewalList, rules};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_renewals))
        .routes(routes!(renewals_csv))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RenewalQuery {
    /// First day, YYYY-MM-DD (default today).
    #[param(value_type = Option<String>, format = Date)]
    pub from: Option<NaiveDate>,
    /// Last day, YYYY-MM-DD (default 60 days after from or today, whichever is later); at most
    /// three years after from.
    #[param(value_type = Option<String>, format = Date)]
    pub to: Option<NaiveDate>,
    /// module or contract; blank means both.
    pub kind: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
}

impl RenewalQuery {
    async fn filter(self, state: &AppState, user: &AuthUser) -> Result<RenewalFilter, AppError> {
        let kind = self.kind.map(|k| k.trim().to_string()).filter(|k| !k.is_empty());
        query_choice("kind", &kind, rules::KINDS)?;
        let today = state.db.read(settings::office_today).await?;
        let (from, to) = rules::range(self.from, self.to, today)?;
        Ok(RenewalFilter {
            from,
            to,
            kind,
            q: self.q,
            book: user.book(),
        })
    }
}

/// Module renewals (price-book amount on the day) and service-contract renewals (fixed amount)
/// in the range, earliest first, with `total_amount` of the whole range. Sort by due_on,
/// client_name, what, kind, amount or days_until.
#[utoipa::path(get, path = "/api/renewals", tag = "renewals", params(RenewalQuery, Page),
    responses((status = 200, body = RenewalList), (status = 400, body = ErrorBody)))]
async fn list_renewals(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<RenewalQuery>,
) -> Result<Json<RenewalList>, AppError> {
    let filter = q.filter(&state, &user).await?;
    Ok(Json(
        state.db.read(move |c| renewals::page(c, &filter, &page)).await?,
    ))
}

/// Every renewal of the range the list's filters and sort select, as CSV.
#[utoipa::path(get, path = "/api/renewals.csv", tag = "renewals", params(RenewalQuery, Page),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list"),
              (status = 400, body = ErrorBody)))]
async fn renewals_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<RenewalQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&state, &user).await?;
    let name = format!("renewals-{}-to-{}.csv", filter.from, filter.to);
    let rows = state
        .db
        .read(move |c| renewals::renewals(c, &filter, page.sort.as_deref()))
        .await?;
    let mut out = csv::line(&[
        "Due on",
        "Days until",
        "Kind",
        "Client",
        "What",
        "Amount",
        "Renewal invoice",
    ]);
    for r in &rows {
        out.push_str(&csv::line(&[
            &r.due_on,
            &r.days_until.to_string(),
            &r.kind,
            &r.client_name,
            &r.what,
            &r.amount.map(money::decimal).unwrap_or_default(),
            r.doc_no.as_deref().unwrap_or_default(),
        ]));
    }
    Ok(csv::attachment(&name, out))
}
