//! A client's statement of account for a period: the period asked for ([`StatementPeriod`]), the
//! ledger's rows and totals, the aging, the open invoices and the UPI link ([`statement`]).

use crate::clients::store::Client;
use crate::company;
use crate::documents::upi::{self, Upi};
use crate::plumbing::error::AppError;
use crate::statements::rules::{self, Aging, Period, Row, Totals};
use crate::statements::store::{self, OpenInvoice};
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Deserialize;
use serde::Serialize;
use utoipa::IntoParams;
use utoipa::ToSchema;

/// The period a statement is asked for, in a query (GET) or a body (POST): a value that is not a
/// date is the query's 400 or the body's 422 on its name; a period that cannot be is a 422
/// (`rules::period`).
#[derive(Debug, Clone, Default, Deserialize, IntoParams, ToSchema)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct StatementPeriod {
    /// YYYY-MM-DD; default 1 April of the financial year of `to`.
    pub from: Option<NaiveDate>,
    /// YYYY-MM-DD; default the office's today.
    pub to: Option<NaiveDate>,
}

impl StatementPeriod {
    /// The period asked for, on the office's `today`.
    pub fn period(&self, today: NaiveDate) -> Result<Period, AppError> {
        let (from, to) = (self.from.map(|d| d.to_string()), self.to.map(|d| d.to_string()));
        rules::period(from.as_deref(), to.as_deref(), today)
    }
}

/// A client's statement of account for a period, in paise.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Statement {
    pub client_id: String,
    pub client_name: String,
    /// YYYY-MM-DD, the first day of the period.
    pub from: String,
    /// YYYY-MM-DD, its last day.
    pub to: String,
    /// What the client owed before `from` (negative: it had paid in advance).
    pub opening: i64,
    /// `opening + totals.debit - totals.credit`.
    pub closing: i64,
    pub rows: Vec<Row>,
    pub totals: Totals,
    /// The open invoices' outstanding on `to` by days past due.
    pub aging: Aging,
    /// The invoices still owing something on `to`, oldest first.
    pub open_invoices: Vec<OpenInvoice>,
    /// A UPI link for the closing balance, when something is owed and the company has a UPI ID.
    pub upi: Option<Upi>,
}

impl Statement {
    /// `statement-<client id>-<from>-to-<to>.<ext>`: the name of its CSV and PDF.
    pub fn file_name(&self, ext: &str) -> String {
        format!("statement-{}-{}-to-{}.{ext}", self.client_id, self.from, self.to)
    }
}

/// The statement of `client` (whose book the caller has checked) for `period`.
pub fn statement(conn: &Connection, client: &Client, period: Period) -> Result<Statement, AppError> {
    let ledger = rules::ledger(store::entries(conn, &client.id, period.to)?, period);
    let open_invoices = store::open_invoices(conn, &client.id, period.to)?;
    let mut aging = Aging::default();
    for invoice in &open_invoices {
        let due = invoice.due_date.parse().unwrap_or(period.to);
        aging.add((period.to - due).num_days(), invoice.outstanding);
    }
    let profile = company::profile(conn)?;
    let upi_id = profile.upi_id.as_deref().map(str::trim).filter(|u| !u.is_empty());
    let upi = match upi_id {
        Some(upi_id) if ledger.closing > 0 => Some(Upi {
            uri: upi::uri(upi_id, &profile.name, ledger.closing, &period.label()),
            amount: ledger.closing,
        }),
        _ => None,
    };
    Ok(Statement {
        client_id: client.id.clone(),
        client_name: client.name.clone(),
        from: period.from.to_string(),
        to: period.to.to_string(),
        opening: ledger.opening,
        closing: ledger.closing,
        rows: ledger.rows,
        totals: ledger.totals,
        aging,
        open_invoices,
        upi,
    })
}
