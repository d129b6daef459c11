//! The operations settings (spec 2.11, 4.7; decisions 9: flat dotted keys): the SMS gateway's
//! balance address, the low-balance threshold and the ticket SLA. Each is a dated setting; a
//! change is appended in force from today and audited.

use crate::auth::session::AuthUser;
use crate::company::operations_rules::{self, Change};
use crate::plumbing::db::audit::setting_changed;
use crate::plumbing::db::settings::{self, SMS_BALANCE_API_URL, SMS_LOW_BALANCE_THRESHOLD, TICKET_SLA_DAYS};
use crate::plumbing::error::AppError;
use rusqlite::Connection;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The operations settings in force today.
#[derive(Debug, Serialize, ToSchema)]
pub struct Operations {
    /// The gateway's balance address; null: the pull is off.
    #[serde(rename = "sms.balance_api_url")]
    pub sms_balance_api_url: Option<String>,
    #[serde(rename = "sms.low_balance_threshold")]
    pub sms_low_balance_threshold: i64,
    #[serde(rename = "ticket.sla_days")]
    pub ticket_sla_days: i64,
    /// The day each stored value took effect (a key absent here runs on its default).
    pub effective_from: BTreeMap<String, String>,
}

pub fn read(conn: &Connection) -> Result<Operations, AppError> {
    let today = settings::office_today(conn)?;
    let mut effective_from = BTreeMap::new();
    let mut dated = |key: &str| -> Result<Option<Value>, AppError> {
        Ok(settings::get_dated(conn, key, today)?.map(|(value, from)| {
            effective_from.insert(key.to_string(), from.to_string());
            value
        }))
    };
    let url = dated(SMS_BALANCE_API_URL)?
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|u| !u.is_empty());
    dated(SMS_LOW_BALANCE_THRESHOLD.name)?;
    dated(TICKET_SLA_DAYS.name)?;
    Ok(Operations {
        sms_balance_api_url: url,
        sms_low_balance_threshold: settings::int(conn, &SMS_LOW_BALANCE_THRESHOLD, today)?,
        ticket_sla_days: settings::int(conn, &TICKET_SLA_DAYS, today)?,
        effective_from,
    })
}

/// Appends each changed value, in force from today, with one audit row per key (the address
/// with its query values masked: a gateway key may ride there).
pub fn save_in(tx: &Connection, user: &AuthUser, change: Change) -> Result<Operations, AppError> {
    let before = read(tx)?;
    let today = settings::office_today(tx)?;
    let write =
        |key: &str, before: Value, after: Value, shown: fn(&Value) -> Value| -> Result<(), AppError> {
            if before == after {
                return Ok(());
            }
            settings::set(tx, key, &after, today, Some(&user.id))?;
            setting_changed(tx, &user.id, key, shown(&before), shown(&after))
        };
    let as_is = |v: &Value| v.clone();
    if let Some(url) = change.sms_balance_api_url {
        let url = url.map_or(Value::String(String::new()), Value::String);
        let before = json!(before.sms_balance_api_url.unwrap_or_default());
        write(SMS_BALANCE_API_URL, before, url, |v| {
            json!(operations_rules::masked_query(v.as_str().unwrap_or("")))
        })?;
    }
    if let Some(threshold) = change.sms_low_balance_threshold {
        write(
            SMS_LOW_BALANCE_THRESHOLD.name,
            json!(before.sms_low_balance_threshold),
            json!(threshold),
            as_is,
        )?;
    }
    if let Some(days) = change.ticket_sla_days {
        write(
            TICKET_SLA_DAYS.name,
            json!(before.ticket_sla_days),
            json!(days),
            as_is,
        )?;
    }
    read(tx)
}
