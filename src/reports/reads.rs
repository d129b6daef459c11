//! The dues aging as its handlers, their CSV twin and the benchmark read it: the as-of date
//! (the office's today unless given) and the rows, in one read.

use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::reports::rules::{Buckets, ClientDues, DueInvoice, rank_clients};
use crate::reports::store;
use chrono::NaiveDate;
use rusqlite::Connection;

/// `as_of`, or the office's today when none is given: read in the report's own read, so the
/// report costs one trip to a reader.
fn as_of_or_today(conn: &Connection, as_of: Option<NaiveDate>) -> Result<NaiveDate, AppError> {
    match as_of {
        Some(d) => Ok(d),
        None => settings::office_today(conn),
    }
}

/// The dues aging of `book` on `as_of` (default: today), ranked, with its totals.
pub fn dues_aging(
    conn: &Connection,
    as_of: Option<NaiveDate>,
    book: Option<&str>,
) -> Result<(NaiveDate, Vec<ClientDues>, Buckets), AppError> {
    let as_of = as_of_or_today(conn, as_of)?;
    let (rows, totals) = rank_clients(store::dues_by_client(conn, as_of, book)?);
    Ok((as_of, rows, totals))
}

/// The invoices behind the dues aging on `as_of` (default: today), of one client when given.
pub fn due_invoices(
    conn: &Connection,
    as_of: Option<NaiveDate>,
    book: Option<&str>,
    client_id: Option<&str>,
) -> Result<(NaiveDate, Vec<DueInvoice>), AppError> {
    let as_of = as_of_or_today(conn, as_of)?;
    Ok((as_of, store::due_invoices(conn, as_of, book, client_id)?))
}
