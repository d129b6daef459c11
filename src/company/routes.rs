//! `GET/PUT /api/settings/company` (owner, audited) and `GET/PUT /api/settings/billing` (PUT
//! owner, audited).

use crate::auth::session::{AuthUser, Owner};
use crate::company::{self, Billing, BillingInput, CompanyProfile};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::JsonBody;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_company, put_company))
        .routes(routes!(billing, put_billing))
}

/// The company profile (owner).
#[utoipa::path(get, path = "/api/settings/company", tag = "settings", responses((status = 200, body = CompanyProfile), (status = 403, body = ErrorBody)))]
async fn get_company(State(state): State<AppState>, _owner: Owner) -> Result<Json<CompanyProfile>, AppError> {
    Ok(Json(state.db.read(company::profile).await?))
}

/// Replace the company profile (owner, audited). The GSTIN is checked and sets the state code.
#[utoipa::path(put, path = "/api/settings/company", tag = "settings", request_body = CompanyProfile,
    responses((status = 200, body = CompanyProfile), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_company(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(mut profile): JsonBody<CompanyProfile>,
) -> Result<Json<CompanyProfile>, AppError> {
    let offset = company::check_profile(&mut profile)?;
    let saved = state
        .db
        .write(move |tx| company::save_profile_in(tx, &user, &profile, offset))
        .await?;
    Ok(Json(saved))
}

/// Billing defaults in force today (everyone).
#[utoipa::path(get, path = "/api/settings/billing", tag = "settings", responses((status = 200, body = Billing)))]
async fn billing(State(state): State<AppState>, _user: AuthUser) -> Result<Json<Billing>, AppError> {
    Ok(Json(state.db.read(company::billing).await?))
}

/// Change the payment terms (owner, audited), in force from today.
#[utoipa::path(put, path = "/api/settings/billing", tag = "settings", request_body = BillingInput,
    responses((status = 200, body = Billing), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_billing(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<BillingInput>,
) -> Result<Json<Billing>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| company::save_billing_in(tx, &user, input))
            .await?,
    ))
}
