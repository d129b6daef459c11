//! The dated settings store: appending a value makes it the one in force from its date on.

use crate::plumbing::clock;
use crate::plumbing::db::ids::new_id;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

/// A setting with a default (spec 2.11): its key and its default, each written once here. The
/// default is seeded on first boot and is also what a read answers when the stored value is
/// missing or of the wrong kind.
pub struct Key {
    pub name: &'static str,
    /// The default as JSON text.
    default: &'static str,
}

impl Key {
    pub fn default_value(&self) -> Value {
        serde_json::from_str(self.default).expect("a setting's default is valid JSON")
    }
}

pub const PAYMENT_TERMS_DAYS: Key = Key {
    name: "billing.payment_terms_days",
    default: "15",
};
pub const TICKET_SLA_DAYS: Key = Key {
    name: "ticket.sla_days",
    default: "7",
};
/// A balance below it is low (spec 2.11; the spec gives no default: a few days of a society's
/// passbook and loan alerts).
pub const SMS_LOW_BALANCE_THRESHOLD: Key = Key {
    name: "sms.low_balance_threshold",
    default: "500",
};
/// The SMS gateway's balance address (dated; no default: the pull is off until it is set).
pub const SMS_BALANCE_API_URL: &str = "sms.balance_api_url";
pub const PROJECT_STALL_DAYS: Key = Key {
    name: "project.stall_days",
    default: "30",
};
pub const QUOTE_FOLLOWUP_POLICY: Key = Key {
    name: "quote.followup.policy",
    default: r#""manual""#,
};
pub const TICKET_TYPES: Key = Key {
    name: "ticket.types",
    default: r#"["service", "installation", "training", "bug", "data correction", "renewal"]"#,
};
pub const UTC_OFFSET: Key = Key {
    name: "company.utc_offset",
    default: r#""+05:30""#,
};
pub const SHARE_EXPIRY_DAYS: Key = Key {
    name: "share.default_expiry_days",
    default: "30",
};

/// The section of the Income-tax Act a society deducts TDS under when its client record names
/// none (issue 21): `194J` (fees for professional or technical services) or `194C` (work
/// contracts). Not seeded: a read answers the default until the owner sets it.
pub const TDS_DEFAULT_SECTION: Key = Key {
    name: "tds.default_section",
    default: r#""194J""#,
};

/// The reminders' day-offset ladders (decisions 11, without the policy, which is
/// [`QUOTE_FOLLOWUP_POLICY`]); a dated, append-only schedule.
pub const REMINDER_SCHEDULE: Key = Key {
    name: "reminders.schedule",
    default: r#"{"renewal_due": {"days_before": [7, 30]}, "amc_expiring": {"days_before": [7, 30]},
                 "invoice_overdue": {"days_after": [1, 15, 30]}, "quote_followup": {"day_offsets": [3, 7, 14]}}"#,
};

/// The spec's defaults, written on first boot (dated 2000-01-01 so they are in force for old documents).
pub const DEFAULTS: [&Key; 9] = [
    &PAYMENT_TERMS_DAYS,
    &TICKET_SLA_DAYS,
    &SMS_LOW_BALANCE_THRESHOLD,
    &PROJECT_STALL_DAYS,
    &QUOTE_FOLLOWUP_POLICY,
    &TICKET_TYPES,
    &UTC_OFFSET,
    &SHARE_EXPIRY_DAYS,
    &REMINDER_SCHEDULE,
];

/// A whole-number setting in force on `on`; its default when unset or not a number.
pub fn int(conn: &Connection, key: &Key, on: NaiveDate) -> Result<i64, AppError> {
    Ok(get(conn, key.name, on)?
        .and_then(|v| v.as_i64())
        .or_else(|| key.default_value().as_i64())
        .expect("a whole-number setting has a whole-number default"))
}

const SEED_DATE: &str = "2000-01-01";

/// The value of `key` in force on `on`, if any was ever set.
pub fn get(conn: &Connection, key: &str, on: NaiveDate) -> Result<Option<Value>, AppError> {
    Ok(get_dated(conn, key, on)?.map(|(value, _)| value))
}

/// The value of `key` in force on `on` with the date it took effect, if any was ever set.
pub fn get_dated(
    conn: &Connection,
    key: &str,
    on: NaiveDate,
) -> Result<Option<(Value, NaiveDate)>, AppError> {
    // Cached: every request that needs the office's today reads a setting, and parsing the
    // statement each time was a fifth of a draft invoice's write (callgrind).
    let row: Option<(String, String)> = conn
        .prepare_cached(
            "SELECT value, effective_from FROM setting WHERE key = ?1 AND effective_from <= ?2
             ORDER BY effective_from DESC, id DESC LIMIT 1",
        )?
        .query_row(params![key, on.to_string()], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    row.map(|(text, from)| {
        let from = clock::date(&from)
            .ok_or_else(|| AppError::internal(format!("setting {key}: effective_from {from} is no date")))?;
        Ok((serde_json::from_str(&text)?, from))
    })
    .transpose()
}

/// Appends `value` for `key`, in force from `effective_from`.
pub fn set(
    conn: &Connection,
    key: &str,
    value: &Value,
    effective_from: NaiveDate,
    set_by: Option<&str>,
) -> Result<(), AppError> {
    conn.execute(
        "INSERT INTO setting (id, key, value, effective_from, set_by, set_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![new_id(), key, value.to_string(), effective_from.to_string(), set_by, clock::now_timestamp()],
    )?;
    Ok(())
}

/// Appends `after` for `key`, in force from the office's today, with the audit row of a settings
/// write, when it differs from `before`: what an owner's settings route does with each value.
pub fn change_in(
    tx: &Connection,
    user_id: &str,
    key: &str,
    before: Value,
    after: Value,
) -> Result<(), AppError> {
    if before == after {
        return Ok(());
    }
    set(tx, key, &after, office_today(tx)?, Some(user_id))?;
    crate::plumbing::db::audit::setting_changed(tx, user_id, key, before, after)
}

/// The day the value of `key` in force today took effect; None when it was never set.
pub fn since(conn: &Connection, key: &str) -> Result<Option<String>, AppError> {
    Ok(get_dated(conn, key, office_today(conn)?)?.map(|(_, from)| from.to_string()))
}

/// A setting's whole number of days from 0 to `max`, else a 422 on `field`.
pub fn check_days(field: &str, days: i64, max: i64) -> Result<i64, AppError> {
    if (0..=max).contains(&days) {
        Ok(days)
    } else {
        Err(AppError::invalid(
            field,
            "out_of_range",
            format!("Give a whole number of days from 0 to {max}."),
        ))
    }
}

/// Writes each default whose key has never been set.
pub fn seed_defaults(conn: &Connection) -> Result<(), AppError> {
    let seed_date = clock::date(SEED_DATE).expect("valid seed date");
    for key in DEFAULTS {
        let exists: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM setting WHERE key = ?1)",
            [key.name],
            |r| r.get(0),
        )?;
        if !exists {
            set(conn, key.name, &key.default_value(), seed_date, None)?;
        }
    }
    Ok(())
}

/// The office's offset from UTC ([`UTC_OFFSET`]).
pub fn office_offset(conn: &Connection) -> Result<chrono::FixedOffset, AppError> {
    let today = clock::now().date_naive();
    let parsed = get(conn, UTC_OFFSET.name, today)?
        .as_ref()
        .and_then(Value::as_str)
        .and_then(clock::parse_offset);
    Ok(parsed.unwrap_or_else(|| {
        let default = UTC_OFFSET.default_value();
        clock::parse_offset(default.as_str().unwrap_or_default()).expect("a valid default offset")
    }))
}

/// Today's date at the office: the "today" of business rules (prices, due dates, aging).
pub fn office_today(conn: &Connection) -> Result<NaiveDate, AppError> {
    Ok(clock::office_today(office_offset(conn)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each default is valid JSON of the kind its readers expect, and a read of a key never
    /// set answers the default.
    #[test]
    fn defaults_are_written_once_and_read_back() {
        for key in DEFAULTS {
            key.default_value();
        }
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE setting (id TEXT, key TEXT, value TEXT, effective_from TEXT, set_by TEXT, set_at TEXT)",
        )
        .unwrap();
        let on = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        assert_eq!(int(&conn, &PAYMENT_TERMS_DAYS, on).unwrap(), 15);
        assert_eq!(int(&conn, &SHARE_EXPIRY_DAYS, on).unwrap(), 30);
        set(&conn, PAYMENT_TERMS_DAYS.name, &Value::from(45), on, None).unwrap();
        set(&conn, SHARE_EXPIRY_DAYS.name, &Value::from("soon"), on, None).unwrap();
        assert_eq!(int(&conn, &PAYMENT_TERMS_DAYS, on).unwrap(), 45);
        assert_eq!(
            int(&conn, &SHARE_EXPIRY_DAYS, on).unwrap(),
            30,
            "not a number: the default"
        );
        seed_defaults(&conn).unwrap();
        assert_eq!(int(&conn, &PROJECT_STALL_DAYS, on).unwrap(), 30);
        assert_eq!(
            office_offset(&conn).unwrap(),
            chrono::FixedOffset::east_opt(5 * 3600 + 1800).unwrap()
        );
    }
}
