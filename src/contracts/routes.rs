//! `GET, POST /api/service-contracts`, `GET, PATCH /api/service-contracts/{id}`, the CSV twin
//! and `POST /api/service-contracts/{id}/renew` (decisions 5, 9): reads for everyone in their
//! book, writes for owner and manager.

use crate::auth::session::{AuthUser, Manager};
use crate::contracts::rules;
use crate::contracts::store::visible_contract;
use crate::contracts::store::{self, Contract, ContractFilter};
use crate::contracts::{self, ContractInput};
use crate::documents::drafts::DocumentReply;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams, query_choice};
use crate::plumbing::money;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_contracts, create_contract))
        .routes(routes!(contracts_csv))
        .routes(routes!(get_contract, patch_contract))
        .routes(routes!(renew))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ContractQuery {
    pub client_id: Option<String>,
    /// Part of the client's name or the description.
    pub q: Option<String>,
    /// active (period_to is today or later) or expired.
    pub state: Option<String>,
    /// none, draft, unpaid, part_paid or paid (the renewal invoice's).
    pub paid_state: Option<String>,
}

impl ContractQuery {
    fn filter(self, user: &AuthUser) -> Result<ContractFilter, AppError> {
        query_choice("state", &self.state, rules::STATES)?;
        query_choice("paid_state", &self.paid_state, rules::PAID_STATES)?;
        Ok(ContractFilter {
            client_id: self.client_id,
            q: self.q,
            state: self.state,
            paid_state: self.paid_state,
            book: user.book(),
        })
    }
}

/// Service contracts, newest first (staff: those of their clients). Sort by client_name,
/// description, period_from, period_to, amount, renewal_docNo or created_at.
#[utoipa::path(get, path = "/api/service-contracts", tag = "service contracts", params(Page, ContractQuery),
    responses((status = 200, body = Paginated<Contract>)))]
async fn list_contracts(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ContractQuery>,
) -> Result<Json<Paginated<Contract>>, AppError> {
    let filter = q.filter(&user)?;
    Ok(Json(
        state
            .db
            .read(move |c| store::list(c, filter)?.page(c, &page))
            .await?,
    ))
}

const CONTRACT_CSV: &[&str] = &[
    "Client",
    "Description",
    "From",
    "To",
    "Amount",
    "State",
    "Renewal invoice",
    "Paid state",
];

fn contract_cells(c: &Contract) -> Vec<String> {
    vec![
        c.client_name.clone(),
        c.description.clone(),
        c.period_from.clone(),
        c.period_to.clone(),
        money::decimal(c.amount),
        c.state.clone(),
        c.renewal_doc_no.clone().unwrap_or_default(),
        c.paid_state.clone(),
    ]
}

/// Every contract the list's filters and sort select, as CSV (rupees, dates YYYY-MM-DD).
#[utoipa::path(get, path = "/api/service-contracts.csv", tag = "service contracts", params(Page, ContractQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list")))]
async fn contracts_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ContractQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user)?;
    csv::stream(
        &state.db,
        "service-contracts.csv".into(),
        CONTRACT_CSV,
        page.sort,
        move |c| store::list(c, filter),
        contract_cells,
    )
    .await
}

/// One service contract (404 outside the caller's book).
#[utoipa::path(get, path = "/api/service-contracts/{id}", tag = "service contracts", params(("id" = String, Path)),
    responses((status = 200, body = Contract), (status = 404, body = ErrorBody)))]
async fn get_contract(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Contract>, AppError> {
    Ok(Json(
        state.db.read(move |c| visible_contract(c, &user, &id)).await?,
    ))
}

/// Record a service contract (owner or manager), audited; every invalid field is named at once.
#[utoipa::path(post, path = "/api/service-contracts", tag = "service contracts", request_body = ContractInput,
    responses((status = 201, body = Contract), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_contract(
    State(state): State<AppState>,
    Manager(user): Manager,
    JsonBody(input): JsonBody<ContractInput>,
) -> Result<(StatusCode, Json<Contract>), AppError> {
    let created = state
        .db
        .write(move |tx| contracts::create_in(tx, &user, &input))
        .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Change a service contract's fields (owner or manager), audited; absent fields stay.
#[utoipa::path(patch, path = "/api/service-contracts/{id}", tag = "service contracts", params(("id" = String, Path)), request_body = ContractInput,
    responses((status = 200, body = Contract), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn patch_contract(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<ContractInput>,
) -> Result<Json<Contract>, AppError> {
    let updated = state
        .db
        .write(move |tx| contracts::update_in(tx, &user, &id, &input))
        .await?;
    Ok(Json(updated))
}

/// Renew a contract (owner or manager; body `{}`): an INVOICE draft for the next period at the
/// contract's amount, which becomes its renewal invoice. Answers the new draft at the top level.
#[utoipa::path(post, path = "/api/service-contracts/{id}/renew", tag = "service contracts", params(("id" = String, Path)),
    responses((status = 200, description = "The new invoice draft", body = DocumentReply), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, description = "Renewed already (its renewal invoice is not cancelled)", body = ErrorBody)))]
async fn renew(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
) -> Result<Json<DocumentReply>, AppError> {
    let draft = state
        .db
        .write(move |tx| contracts::renew_in(tx, &user, &id))
        .await?;
    Ok(Json(draft))
}
