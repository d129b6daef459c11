//! The company profile: the vendor's name, address, GSTIN and state (for the place of supply),
//! contact and bank details, UPI ID and the office's UTC offset; read, checked, saved audited.

use crate::auth::session::AuthUser;
use crate::plumbing::clock;
use crate::plumbing::db::audit::record;
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Checks};
use crate::plumbing::gstin::{self, Gstin};
use crate::staff::rules as staff_rules;
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

/// Checks a profile before it is saved: the GSTIN (which sets the state code), or else a state
/// code, the email and the UTC offset, every invalid field named at once. Answers the offset,
/// which is kept as a setting of its own.
pub fn check_profile(profile: &mut CompanyProfile) -> Result<Option<String>, AppError> {
    let mut checks = Checks::default();
    if profile.name.trim().is_empty() {
        checks.fail(AppError::invalid(
            "name",
            "required",
            "Enter the company's legal name.",
        ));
    }
    let gstin = profile.gstin.take().filter(|g| !g.trim().is_empty());
    let parsed = gstin.as_deref().map(Gstin::parse);
    match parsed {
        Some(Ok(g)) => {
            profile.state_code = Some(g.state_code().to_string());
            profile.gstin = Some(String::from(g));
        }
        Some(Err(e)) => {
            profile.gstin = gstin;
            checks.fail(e);
        }
        None => {
            profile.state_code = profile.state_code.take().filter(|s| !s.trim().is_empty());
            if let Some(code) = &profile.state_code
                && gstin::state_name(code).is_none()
            {
                checks.fail(AppError::invalid(
                    "state_code",
                    "invalid_state_code",
                    "Enter a two-digit GST state code.",
                ));
            }
        }
    }
    if let Some(email) = profile.email.as_deref().filter(|e| !e.is_empty()) {
        checks.check(staff_rules::check_email(email));
    }
    profile.upi_id = profile
        .upi_id
        .take()
        .map(|u| u.trim().to_string())
        .filter(|u| !u.is_empty());
    if let Some(upi) = &profile.upi_id
        && !is_upi_id(upi)
    {
        checks.fail(AppError::invalid(
            "upi_id",
            "invalid_upi_id",
            "A UPI ID is a name, @ and the bank's handle, e.g. softland@okaxis.",
        ));
    }
    let offset = profile.utc_offset.take().filter(|o| !o.trim().is_empty());
    if let Some(o) = &offset
        && clock::parse_offset(o).is_none()
    {
        checks.fail(AppError::invalid(
            "utc_offset",
            "invalid_offset",
            "Give the offset as +05:30.",
        ));
    }
    checks.done()?;
    Ok(offset)
}

/// A UPI ID (virtual payment address) as NPCI shapes it: a name of letters, digits, `.`, `-`
/// or `_`, then `@` and the payment provider's handle of letters and digits.
fn is_upi_id(text: &str) -> bool {
    let Some((name, handle)) = text.split_once('@') else {
        return false;
    };
    (2..=256).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
        && (2..=64).contains(&handle.len())
        && handle.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Saves the company profile and the office's UTC offset, audited.
pub fn save_profile_in(
    tx: &Connection,
    user: &AuthUser,
    profile: &CompanyProfile,
    offset: Option<String>,
) -> Result<CompanyProfile, AppError> {
    let before = self::profile(tx)?;
    let today = settings::office_today(tx)?;
    settings::set(
        tx,
        PROFILE_KEY,
        &serde_json::to_value(profile)?,
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
    let after = self::profile(tx)?;
    record(
        tx,
        &user.id,
        "setting",
        PROFILE_KEY,
        "update",
        Some(&before),
        Some(&after),
    )?;
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upi_ids_are_a_name_at_a_handle() {
        for good in ["softland@okaxis", "malabar.soft-1@sbi", "9876543210@ybl"] {
            assert!(is_upi_id(good), "{good}");
        }
        for bad in [
            "softland",
            "@okaxis",
            "softland@",
            "a b@sbi",
            "soft@ok@axis",
            "soft@ok.axis",
            "s@sbi",
        ] {
            assert!(!is_upi_id(bad), "{bad}");
        }
    }
}
