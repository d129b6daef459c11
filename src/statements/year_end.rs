//! The year-end run (issue 35): every client whose statement for the financial year closes with
//! something owed, with the address its statement would go to and whether it already went there
//! today. The console sends them one by one through `POST /api/clients/{id}/statement/send`
//! (showing its progress and, at the end, who could not be reached); the send's once-a-day rule
//! (`delivery`) makes a second run the same day send nothing twice.

use crate::documents::delivery::{SendRequest, recipient};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::statements::{delivery, rules, store};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct YearEndClient {
    pub client_id: String,
    pub client_name: String,
    /// What the statement closes at (paise, above zero).
    pub closing: i64,
    /// Where the statement goes (the client's contact with an email, else its own); null: it
    /// cannot be reached by email.
    pub email: Option<String>,
    /// Already sent to `email` today.
    pub sent_today: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct YearEnd {
    /// `2026-27`.
    pub fy: String,
    /// YYYY-MM-DD: 1 April.
    pub from: String,
    /// YYYY-MM-DD: 31 March, or today while the year runs.
    pub to: String,
    /// By name.
    pub rows: Vec<YearEndClient>,
}

/// The clients of the year-end run for `fy` (every book: the run is the owner's and managers').
pub fn year_end(conn: &Connection, fy: Option<&str>) -> Result<YearEnd, AppError> {
    let today = settings::office_today(conn)?;
    let (fy, period) = rules::year_end_period(fy, today)?;
    let mut rows = Vec::new();
    for (client_id, client_name, closing) in store::owing_at(conn, period.to)? {
        let email = recipient(conn, &SendRequest::default(), &client_id).ok();
        let sent_today = match &email {
            Some(e) => delivery::sent_today(conn, &client_id, period, e)?,
            None => false,
        };
        rows.push(YearEndClient {
            client_id,
            client_name,
            closing,
            email,
            sent_today,
        });
    }
    Ok(YearEnd {
        fy: fy.to_string(),
        from: period.from.to_string(),
        to: period.to.to_string(),
        rows,
    })
}
