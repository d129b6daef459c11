//! `GET/PUT /api/settings/company` (owner, audited) and `GET /api/settings/billing`.

use crate::AppState;
use crate::auth::session::{AuthUser, Owner};
use crate::clock;
use crate::company::{self, CompanyProfile, PROFILE_KEY};
use crate::db::audit::{Audit, audit};
use crate::db::settings;
use crate::error::{AppError, ErrorBody};
use crate::gstin::{self, Gstin};
use crate::http::extract::JsonBody;
use crate::staff::rules as staff_rules;
use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_company, put_company))
        .routes(routes!(billing))
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
    if profile.name.trim().is_empty() {
        return Err(AppError::invalid(
            "name",
            "required",
            "Enter the company's legal name.",
        ));
    }
    profile.gstin = profile
        .gstin
        .filter(|g| !g.trim().is_empty())
        .map(|g| Gstin::parse(&g))
        .transpose()?
        .map(|g| {
            profile.state_code = Some(g.state_code().to_string());
            String::from(g)
        });
    match &profile.gstin {
        Some(_) => {}
        None => {
            profile.state_code = profile.state_code.filter(|s| !s.trim().is_empty());
            if let Some(code) = &profile.state_code
                && gstin::state_name(code).is_none()
            {
                return Err(AppError::invalid(
                    "state_code",
                    "invalid_state_code",
                    "Enter a two-digit GST state code.",
                ));
            }
        }
    }
    if let Some(email) = profile.email.as_deref().filter(|e| !e.is_empty()) {
        staff_rules::check_email(email)?;
    }
    let offset = profile.utc_offset.take().filter(|o| !o.trim().is_empty());
    if let Some(o) = &offset
        && clock::parse_offset(o).is_none()
    {
        return Err(AppError::invalid(
            "utc_offset",
            "invalid_offset",
            "Give the offset as +05:30.",
        ));
    }
    let saved = state
        .db
        .write(move |tx| {
            let before = company::profile(tx)?;
            let today = settings::office_today(tx)?;
            settings::set(
                tx,
                PROFILE_KEY,
                &serde_json::to_value(&profile)?,
                today,
                Some(&user.id),
            )?;
            if let Some(o) = offset {
                settings::set(
                    tx,
                    settings::UTC_OFFSET.name,
                    &serde_json::json!(o),
                    today,
                    Some(&user.id),
                )?;
            }
            let after = company::profile(tx)?;
            audit(
                tx,
                Audit {
                    entity: "setting",
                    entity_id: Some(PROFILE_KEY),
                    action: "update",
                    user_id: Some(&user.id),
                    before: Some(serde_json::to_value(&before)?),
                    after: Some(serde_json::to_value(&after)?),
                },
            )?;
            Ok(after)
        })
        .await?;
    Ok(Json(saved))
}

#[derive(Serialize, ToSchema)]
pub struct Billing {
    pub payment_terms_days: i64,
}

/// Billing defaults in force today (everyone).
#[utoipa::path(get, path = "/api/settings/billing", tag = "settings", responses((status = 200, body = Billing)))]
async fn billing(State(state): State<AppState>, _user: AuthUser) -> Result<Json<Billing>, AppError> {
    let days = state.db.read(company::payment_terms_days_today).await?;
    Ok(Json(Billing {
        payment_terms_days: days,
    }))
}
