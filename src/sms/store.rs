//! The SQL of SMS balances: the subscriptions to poll (with their logins, read directly: spec
//! 5.12), the record of each poll, and the balances report and its CSV of logins.

use crate::book;
use crate::plumbing::db::ids::new_id;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, like_contains};
use crate::plumbing::error::AppError;
use crate::sms::rules::Outcome;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use utoipa::ToSchema;

/// The module whose subscriptions are SMS subscriptions (spec 4.9).
pub const SMS_CODE: &str = "SMS";

/// An SMS subscription with the login the gateway is asked with.
pub struct Subscription {
    pub id: String,
    pub username: Option<String>,
    /// A leftover legacy-encrypted value reads as none (spec 5.12).
    pub password: Option<String>,
}

impl Subscription {
    /// The username and password, when both are stored.
    pub fn login(&self) -> Option<(&str, &str)> {
        Some((
            self.username.as_deref().filter(|u| !u.trim().is_empty())?,
            self.password.as_deref().filter(|p| !p.is_empty())?,
        ))
    }
}

/// The active SMS subscriptions to poll, of one client or of all, in id order.
pub fn to_poll(conn: &Connection, client_id: Option<&str>) -> Result<Vec<Subscription>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT cm.id, cm.username, CASE WHEN substr(cm.password, 1, 4) = 'enc:' THEN NULL ELSE cm.password END
         FROM client_module cm JOIN module m ON m.id = cm.module_id
         WHERE m.code = ?1 AND cm.active = 1 AND (?2 IS NULL OR cm.client_id = ?2)
         ORDER BY cm.id",
    )?;
    let rows = stmt
        .query_map(params![SMS_CODE, client_id], |r| {
            Ok(Subscription {
                id: r.get(0)?,
                username: r.get(1)?,
                password: r.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// One poll, as recorded in `sms_balance_check`.
#[derive(Debug, Clone)]
pub struct Check {
    pub client_module_id: String,
    pub at: String,
    pub outcome: Outcome,
    pub balance: Option<i64>,
    pub error: Option<String>,
    pub latency_ms: i64,
}

/// Writes the telemetry row of a poll.
pub fn insert_check(tx: &Connection, check: &Check) -> Result<(), AppError> {
    tx.prepare_cached(
        "INSERT INTO sms_balance_check (id, client_module_id, at, outcome, balance, error, latency_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        new_id(),
        check.client_module_id,
        check.at,
        check.outcome.as_str(),
        check.balance,
        check.error,
        check.latency_ms
    ])?;
    Ok(())
}

/// The stored balance of a subscription (None: never read; Err when it does not exist).
pub fn balance(tx: &Connection, id: &str) -> Result<Option<i64>, AppError> {
    tx.prepare_cached("SELECT sms_balance FROM client_module WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| AppError::not_found("subscription"))
}

/// Stores a balance read at `at` and clears the flag; a changed balance is an update at `at`.
pub fn set_balance(tx: &Connection, id: &str, balance: i64, at: &str, changed: bool) -> Result<(), AppError> {
    tx.prepare_cached(
        "UPDATE client_module SET sms_balance = ?2, sms_checked_at = ?3, sms_flag = NULL,
             updated_at = CASE WHEN ?4 THEN ?3 ELSE updated_at END
         WHERE id = ?1",
    )?
    .execute(params![id, balance, at, changed])?;
    Ok(())
}

/// Flags a subscription whose poll at `at` read no balance; the stored balance stays.
pub fn set_flag(tx: &Connection, id: &str, flag: &str, at: &str) -> Result<(), AppError> {
    tx.prepare_cached("UPDATE client_module SET sms_checked_at = ?2, sms_flag = ?3 WHERE id = ?1")?
        .execute(params![id, at, flag])?;
    Ok(())
}

/// Which rows of the balances report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// Below the threshold (the default).
    Low,
    /// The last poll read no balance.
    Flagged,
    All,
}

pub struct BalanceFilter {
    pub show: Show,
    /// Part of the client's name.
    pub q: Option<String>,
    /// A staff user's book (None: every book).
    pub book: Option<String>,
    pub threshold: i64,
}

/// The login columns, for managerial users only (spec 4.9): the username and whether a
/// password is stored. The password itself is revealed one at a time (audited) or in the CSV.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SmsLogin {
    pub username: Option<String>,
    #[serde(rename = "hasPassword")]
    pub has_password: bool,
}

/// A row of the balances report.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BalanceRow {
    pub client_module_id: String,
    pub client_id: String,
    pub client_name: String,
    pub module_id: String,
    pub module_code: String,
    /// The last balance read; null when none has been.
    pub balance: Option<i64>,
    /// The balance is below `sms.low_balance_threshold`.
    pub low: bool,
    pub checked_at: Option<String>,
    /// Why the last poll read no balance; null when it read one.
    pub flag: Option<String>,
    /// Managerial users only.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    #[schema(inline)]
    pub login: Option<SmsLogin>,
}

const FROM: &str =
    "client_module cm JOIN module m ON m.id = cm.module_id JOIN client c ON c.id = cm.client_id";

/// The report's rows in its filters, lowest balance first (never-read balances last).
pub fn balances(filter: BalanceFilter, with_logins: bool) -> Listing<BalanceRow> {
    let threshold = filter.threshold;
    Listing::new(
        ListQuery {
            columns: "cm.id, c.id, c.name, m.id, m.code, cm.sms_balance, cm.sms_checked_at, cm.sms_flag, cm.username, \
                      (cm.password IS NOT NULL AND cm.password <> '' AND substr(cm.password, 1, 4) <> 'enc:')"
                .into(),
            from: FROM,
            order_by: ORDER_BY,
            id_column: "cm.id",
            sorts: SORTS,
        },
        report_filter(&filter),
        move |r| {
            let balance: Option<i64> = r.get(5)?;
            Ok(BalanceRow {
                client_module_id: r.get(0)?,
                client_id: r.get(1)?,
                client_name: r.get(2)?,
                module_id: r.get(3)?,
                module_code: r.get(4)?,
                balance,
                low: balance.is_some_and(|b| b < threshold),
                checked_at: r.get(6)?,
                flag: r.get(7)?,
                login: with_logins
                    .then(|| {
                        Ok::<_, rusqlite::Error>(SmsLogin {
                            username: r.get(8)?,
                            has_password: r.get(9)?,
                        })
                    })
                    .transpose()?,
            })
        },
    )
}

/// Lowest balance first, never-read balances last.
const ORDER_BY: &str = "cm.sms_balance IS NULL, cm.sms_balance, c.name COLLATE NOCASE, cm.id";
const SORTS: &[(&str, &str)] = &[
    ("balance", "cm.sms_balance"),
    ("client_name", "c.name COLLATE NOCASE"),
    ("checked_at", "cm.sms_checked_at"),
];

/// The active SMS subscriptions in the report's filters.
fn report_filter(filter: &BalanceFilter) -> Filter {
    let mut f = Filter::default();
    f.and("m.code = ?", [Value::Text(SMS_CODE.into())]);
    f.and("cm.active = 1", []);
    match filter.show {
        Show::Low => {
            f.and("cm.sms_balance < ?", [Value::Integer(filter.threshold)]);
        }
        Show::Flagged => {
            f.and("cm.sms_flag IS NOT NULL", []);
        }
        Show::All => {}
    }
    if let Some(q) = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        f.and("c.name LIKE ? ESCAPE '\\'", [like_contains(q)]);
    }
    book::narrow(&mut f, "cm.client_id", filter.book.clone());
    f
}

/// A row of the CSV of logins (managerial): the password in clear, as the spec asks.
pub struct LoginRow {
    pub client_name: String,
    pub module_code: String,
    pub username: Option<String>,
    pub password: Option<String>,
    pub provider: Option<String>,
    pub balance: Option<i64>,
    pub installed_on: Option<String>,
    pub phone: Option<String>,
}

/// Every row of the report's filters with the logins (legacy-encrypted passwords read as empty).
pub fn logins(filter: BalanceFilter) -> Listing<LoginRow> {
    Listing::new(
        ListQuery {
            columns: "c.name, m.code, cm.username, \
                      CASE WHEN substr(cm.password, 1, 4) = 'enc:' THEN NULL ELSE cm.password END, \
                      cm.provider, cm.sms_balance, cm.installed_on, c.phone"
                .into(),
            from: FROM,
            order_by: ORDER_BY,
            id_column: "cm.id",
            sorts: SORTS,
        },
        report_filter(&filter),
        |r| {
            Ok(LoginRow {
                client_name: r.get(0)?,
                module_code: r.get(1)?,
                username: r.get(2)?,
                password: r.get(3)?,
                provider: r.get(4)?,
                balance: r.get(5)?,
                installed_on: r.get(6)?,
                phone: r.get(7)?,
            })
        },
    )
}
