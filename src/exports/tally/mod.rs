//! The Tally export (issue 36, decisions 12 "Tally"): a period's issued invoices (Sales), credit
//! notes (Credit Note) and recorded payments (Receipt) as the XML TallyPrime's Import Data
//! accepts, or the party ledgers they name on their own; and the ledger names they post to, an
//! owner's setting. The operations, one read or one transaction each:
//!
//! - [`period`]: the period asked for, checked (400 for a value that is not a date, 422 for a
//!   period that ends before it starts).
//! - [`export`]: writes the envelope, handing its bytes out in chunks as it goes.
//! - [`settings_view`], [`save_settings_in`]: the ledger names, read and set (audited).
//!
//! `rules`: the vouchers built from plain structs. `envelope`: the XML that carries them.
//! `store`: the SQL. `routes`: handlers.

pub mod envelope;
pub mod routes;
pub mod rules;
pub mod store;

use crate::auth::session::AuthUser;
use crate::plumbing::db::settings::{self, office_today};
use crate::plumbing::error::{AppError, Checks};
use chrono::{Datelike, NaiveDate};
use envelope::{Envelope, Report};
use rules::{FIELDS, Ledgers};
use rusqlite::Connection;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

/// The dated setting holding the ledger names (one JSON object).
pub const SETTING: &str = "tally.ledgers";

/// The export's period, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

impl Period {
    /// `tally-vouchers-<from>-to-<to>.xml` or `tally-ledgers-…`.
    pub fn file_name(&self, report: Report) -> String {
        let what = match report {
            Report::Vouchers => "vouchers",
            Report::Masters => "ledgers",
        };
        format!("tally-{what}-{}-to-{}.xml", self.from, self.to)
    }
}

/// The period asked for on the office's `today`: `to` defaults to today, `from` to 1 April of
/// the financial year of `to`; a `from` after `to` is a 422 `invalid_period` on `from`.
pub fn period(from: Option<NaiveDate>, to: Option<NaiveDate>, today: NaiveDate) -> Result<Period, AppError> {
    let to = to.unwrap_or(today);
    let from = from.unwrap_or_else(|| {
        let year = if to.month() >= 4 { to.year() } else { to.year() - 1 };
        NaiveDate::from_ymd_opt(year, 4, 1).unwrap_or(to)
    });
    if from > to {
        return Err(AppError::invalid(
            "from",
            "invalid_period",
            format!("The period starts on {from}, after its end {to}."),
        ));
    }
    Ok(Period { from, to })
}

/// The period of a query on the office's today, and the ledger names in force: what the export
/// needs before it writes its first byte.
pub fn prepare(
    conn: &Connection,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<(Period, Ledgers), AppError> {
    let period = period(from, to, office_today(conn)?)?;
    Ok((period, ledgers(conn)?))
}

/// Writes the envelope of `report` for `period` with the ledger names `ledgers`, handing each
/// chunk of at least `chunk` bytes (and the last one) to `sink`.
pub fn export(
    conn: &Connection,
    period: Period,
    report: Report,
    ledgers: &Ledgers,
    chunk: usize,
    mut sink: impl FnMut(Vec<u8>) -> Result<(), AppError>,
) -> Result<(), AppError> {
    let io = |e: std::io::Error| AppError::internal(format!("writing the Tally XML: {e}"));
    let mut envelope =
        Envelope::begin(Vec::with_capacity(chunk * 2), report, &ledgers.company_name).map_err(io)?;
    let mut drain = |envelope: &mut Envelope<Vec<u8>>| -> Result<(), AppError> {
        let buffer = envelope.writer.get_mut();
        if buffer.len() >= chunk {
            let full = std::mem::replace(buffer, Vec::with_capacity(chunk * 2));
            sink(full)?;
        }
        Ok(())
    };
    match report {
        Report::Masters => {
            for party in store::parties(conn, period.from, period.to)? {
                envelope.ledger(&party).map_err(io)?;
                drain(&mut envelope)?;
            }
        }
        Report::Vouchers => {
            store::sale_docs(conn, period.from, period.to, |doc| {
                envelope.voucher(&rules::sale(&doc, ledgers)).map_err(io)?;
                drain(&mut envelope)
            })?;
            store::payments(conn, period.from, period.to, |p| {
                envelope.voucher(&rules::receipt(&p, ledgers)).map_err(io)?;
                drain(&mut envelope)
            })?;
        }
    }
    let rest = envelope.end().map_err(io)?;
    sink(rest)
}

/// The whole envelope in memory (tests and the benchmark).
pub fn export_bytes(conn: &Connection, period: Period, report: Report) -> Result<Vec<u8>, AppError> {
    let ledgers = ledgers(conn)?;
    let mut out = vec![];
    export(conn, period, report, &ledgers, 64 * 1024, |bytes| {
        out.extend(bytes);
        Ok(())
    })?;
    Ok(out)
}

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
