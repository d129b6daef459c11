//! The GSTR-1 export (issue 21): a month's return built from the issued invoices and credit
//! notes, read as a summary with its warnings, or downloaded as the GST offline tool's CSV
//! sheets or the portal's JSON.

pub mod routes;
pub mod rules;
pub mod store;

use crate::company;
use crate::gst_return::rules::Gstr1;
use crate::plumbing::clock::Month;
use crate::plumbing::error::AppError;
use rusqlite::Connection;

/// The return of `period`, and the company's GSTIN the portal's file is filed under.
pub fn gstr1(conn: &Connection, period: Month) -> Result<(Gstr1, Option<String>), AppError> {
    let lines = store::lines(conn, period.first_day(), period.last_day())?;
    let numbers = store::numbers(conn, period.first_day(), period.last_day())?;
    let profile = company::profile(conn)?;
    let gstin = profile.gstin.filter(|g| !g.trim().is_empty());
    let state = profile
        .state_code
        .or_else(|| gstin.as_ref().map(|g| g.chars().take(2).collect()));
    Ok((
        rules::build(period, &lines, &numbers, gstin.as_deref(), state.as_deref()),
        gstin,
    ))
}
