//! The ledger names the vouchers post to: an owner's dated setting, read and set (audited).

use super::rules::{self, FIELDS, Ledgers};
use crate::auth::session::AuthUser;
use crate::plumbing::db::settings::{self, office_today};
use crate::plumbing::error::{AppError, Checks};
use rusqlite::Connection;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

/// The dated setting holding the ledger names (one JSON object).
pub const SETTING: &str = "tally.ledgers";

/// The ledger names in force today: each stored one, else its default.
pub fn ledgers(conn: &Connection) -> Result<Ledgers, AppError> {
    let stored = settings::get(conn, SETTING, office_today(conn)?)?;
    let mut out = Ledgers::default();
    if let Some(Value::Object(map)) = stored {
        let mut all = serde_json::to_value(&out)?;
        for (field, _) in FIELDS {
            if let Some(Value::String(s)) = map.get(field) {
                all[field] = json!(s);
            }
        }
        out = serde_json::from_value(all)?;
    }
    Ok(out)
}

/// The ledger names as the owner sees them.
pub fn settings_view(conn: &Connection) -> Result<Ledgers, AppError> {
    ledgers(conn)
}

/// `PUT /api/settings/tally`: the names to change; an absent one is left as it is.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TallySettingsInput {
    pub sales_ledger: Option<String>,
    pub cgst_ledger: Option<String>,
    pub sgst_ledger: Option<String>,
    pub igst_ledger: Option<String>,
    pub bank_ledger: Option<String>,
    pub cash_ledger: Option<String>,
    pub tds_ledger: Option<String>,
    pub round_off_ledger: Option<String>,
    /// Empty: the company loaded in Tally.
    pub company_name: Option<String>,
}

/// Checks every name given (naming each wrong one; nothing is written then), then sets them, in
/// force from today and audited with before and after; an unchanged set writes nothing.
pub fn save_settings_in(
    tx: &Connection,
    user: &AuthUser,
    input: TallySettingsInput,
) -> Result<Ledgers, AppError> {
    let before = ledgers(tx)?;
    let given = [
        input.sales_ledger,
        input.cgst_ledger,
        input.sgst_ledger,
        input.igst_ledger,
        input.bank_ledger,
        input.cash_ledger,
        input.tds_ledger,
        input.round_off_ledger,
        input.company_name,
    ];
    let mut after = serde_json::to_value(&before)?;
    let mut checks = Checks::default();
    for ((field, label), value) in FIELDS.iter().zip(given) {
        if let Some(raw) = value
            && let Some(name) = checks.check(rules::check_name(field, label, &raw))
        {
            after[*field] = json!(name);
        }
    }
    checks.done()?;
    settings::change_in(tx, &user.id, SETTING, serde_json::to_value(&before)?, after)?;
    ledgers(tx)
}
