//! The return of a month read from the issued documents, with the company's GSTIN.

use crate::company;
use crate::gst_return::rules::Gstr1;
use crate::gst_return::store;
use crate::gst_return::tables;
use crate::plumbing::clock::Month;
use crate::plumbing::db::savepoint;
use crate::plumbing::error::AppError;
use rusqlite::Connection;

/// The return of `period`, and the company's GSTIN the portal's file is filed under.
pub fn gstr1(conn: &Connection, period: Month) -> Result<(Gstr1, Option<String>), AppError> {
    // One snapshot: the numbers of the documents read, and no others.
    let (documents, numbers, profile) = savepoint(conn, |conn| {
        Ok((
            store::documents(conn, period.first_day(), period.last_day())?,
            store::numbers(conn, period.first_day(), period.last_day())?,
            company::profile(conn)?,
        ))
    })?;
    let gstin = profile.gstin.filter(|g| !g.trim().is_empty());
    let state = profile
        .state_code
        .or_else(|| gstin.as_ref().map(|g| g.chars().take(2).collect()));
    Ok((
        tables::build(period, &documents, &numbers, gstin.as_deref(), state.as_deref()),
        gstin,
    ))
}
