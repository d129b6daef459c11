//! The vendor's own profile (letterhead, GSTIN and state for the place of supply, bank details)
//! and the billing defaults; kept as dated settings.

pub mod letterhead;
pub mod letterhead_pdf;
pub mod letterhead_routes;
pub mod routes;

use crate::db::settings;
use crate::error::AppError;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub const PROFILE_KEY: &str = "company.profile";

/// The company profile. `state_code` comes from the GSTIN when there is one.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CompanyProfile {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub address: String,
    pub gstin: Option<String>,
    pub state_code: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub bank_name: Option<String>,
    pub bank_account: Option<String>,
    pub bank_ifsc: Option<String>,
    pub upi_id: Option<String>,
    /// The office's offset from UTC, e.g. +05:30 ("today" for business rules).
    pub utc_offset: Option<String>,
}

pub fn profile(conn: &Connection) -> Result<CompanyProfile, AppError> {
    let today = settings::office_today(conn)?;
    let mut profile: CompanyProfile = settings::get(conn, PROFILE_KEY, today)?
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    profile.utc_offset =
        settings::get(conn, settings::UTC_OFFSET.name, today)?.and_then(|v| v.as_str().map(str::to_string));
    Ok(profile)
}

/// billing.payment_terms_days in force today.
pub fn payment_terms_days_today(conn: &rusqlite::Connection) -> Result<i64, AppError> {
    let today = settings::office_today(conn)?;
    payment_terms_days(conn, today)
}

/// billing.payment_terms_days in force on `on`.
pub fn payment_terms_days(conn: &rusqlite::Connection, on: chrono::NaiveDate) -> Result<i64, AppError> {
    settings::int(conn, &settings::PAYMENT_TERMS_DAYS, on)
}
