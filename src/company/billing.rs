//! The billing defaults: the payment terms in force on a day, read and changed (owner, audited).

use crate::auth::session::AuthUser;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// billing.payment_terms_days in force today.
pub fn payment_terms_days_today(conn: &rusqlite::Connection) -> Result<i64, AppError> {
    let today = settings::office_today(conn)?;
    payment_terms_days(conn, today)
}

/// The billing defaults in force today.
#[derive(Serialize, ToSchema)]
pub struct Billing {
    /// Days from an invoice's date to its due date when the invoice names none.
    pub payment_terms_days: i64,
    /// The day the value took effect (2000-01-01: the default first boot writes).
    pub effective_from: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BillingInput {
    /// 0 to 365.
    pub payment_terms_days: i64,
}

pub fn billing(conn: &Connection) -> Result<Billing, AppError> {
    Ok(Billing {
        payment_terms_days: payment_terms_days_today(conn)?,
        effective_from: settings::since(conn, settings::PAYMENT_TERMS_DAYS.name)?,
    })
}

/// Sets the payment terms in force from today (owner), audited; invoices already issued keep
/// their due dates.
pub fn save_billing_in(tx: &Connection, user: &AuthUser, input: BillingInput) -> Result<Billing, AppError> {
    let days = settings::check_days("payment_terms_days", input.payment_terms_days, 365)?;
    let before = payment_terms_days_today(tx)?;
    settings::change_in(
        tx,
        &user.id,
        settings::PAYMENT_TERMS_DAYS.name,
        before.into(),
        days.into(),
    )?;
    billing(tx)
}

/// billing.payment_terms_days in force on `on`.
pub fn payment_terms_days(conn: &rusqlite::Connection, on: chrono::NaiveDate) -> Result<i64, AppError> {
    settings::int(conn, &settings::PAYMENT_TERMS_DAYS, on)
}
