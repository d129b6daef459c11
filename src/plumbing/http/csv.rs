//! CSV output: RFC 4180 quoting, and a leading apostrophe on text cells a spreadsheet would run
//! as a formula (=, +, -, @, tab, CR), so an exported client name cannot become a command in Excel.
//!
//! Numbers are never guarded (decisions 12, "CSV amounts"): `'-52.30` is text to Excel and to the
//! GST offline tool, while a plain `-52.30` is a number and cannot run anything. This module is the
//! one place that tells the two apart, so every writer gets the same answer: amounts are written
//! with [`amount`] (rupees, two decimals, a plain minus) and any cell that is wholly a number
//! passes unguarded.

use crate::plumbing::db::Db;
use crate::plumbing::db::query::Listing;
use crate::plumbing::error::AppError;
use crate::plumbing::http::download::{headers, stream_body};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use rusqlite::Connection;

/// An amount cell: rupees with two decimals and a plain `-` for a negative (`-52.30`), which
/// [`cell`] never guards because it is a number.
pub fn amount(paise: i64) -> String {
    crate::plumbing::money::decimal(paise)
}

/// Whether a cell is wholly a number (`-52.30`, `7`, `-0.5`): a spreadsheet reads it as a value,
/// never as a formula, so it needs no guard.
fn is_number(value: &str) -> bool {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match digits.split_once('.') {
        Some((whole, fraction)) => all_digits(whole) && all_digits(fraction),
        None => all_digits(digits),
    }
}

/// One cell: a text cell that a spreadsheet would run as a formula gets a leading apostrophe; a
/// number never does.
pub fn cell(value: &str) -> String {
    let formula = value.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let guarded = if formula && !is_number(value) {
        format!("'{value}")
    } else {
        value.to_string()
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// One line, ending in CRLF.
pub fn line(cells: &[&str]) -> String {
    let mut out = cells.iter().map(|c| cell(c)).collect::<Vec<_>>().join(",");
    out.push_str("\r\n");
    out
}

/// A CSV built in memory (reports of a few thousand rows) as a download named `file_name`.
pub fn attachment(file_name: &str, body: String) -> Response {
    (download(file_name), body).into_response()
}

/// The headers of a CSV download named `file_name`.
fn download(file_name: &str) -> [(header::HeaderName, String); 2] {
    headers("text/csv; charset=utf-8", file_name)
}

/// Streams every row of a list as a CSV download named `file_name` (decisions 10: the CSV twin
/// of a paged list, no page and no cap). `listing` builds the list on a reader connection and
/// `cells` turns a row into its cells, in the order of `header`. An error before the first
/// bytes (an unknown sort) is answered as an error; rows go out in chunks as they are read.
pub async fn stream<T: 'static>(
    db: &Db,
    file_name: String,
    header: &'static [&'static str],
    sort: Option<String>,
    listing: impl FnOnce(&Connection) -> Result<Listing<T>, AppError> + Send + 'static,
    cells: fn(&T) -> Vec<String>,
) -> Result<Response, AppError> {
    stream_lines(db, file_name, header, move |c, emit| {
        let listing = listing(c)?;
        listing.each(c, sort.as_deref(), |row| {
            let row = cells(&row);
            emit(&row.iter().map(String::as_str).collect::<Vec<_>>())
        })
    })
    .await
}

/// Streams a CSV download named `file_name`: `header`, then every line `rows` emits as it reads
/// on a reader connection (an emit fails once the client has gone, which ends the read). What
/// every CSV stream shares: an error before the first bytes is answered as an error, the rest
/// goes out in chunks of 64 KiB without the whole file in memory.
pub async fn stream_lines(
    db: &Db,
    file_name: String,
    header: &'static [&'static str],
    rows: impl FnOnce(&Connection, &mut dyn FnMut(&[&str]) -> Result<(), AppError>) -> Result<(), AppError>
    + Send
    + 'static,
) -> Result<Response, AppError> {
    const CHUNK: usize = 64 * 1024;
    let body = stream_body(db, move |c, sink| {
        let mut chunk = line(header).into_bytes();
        rows(c, &mut |cells: &[&str]| {
            chunk.extend(line(cells).into_bytes());
            if chunk.len() >= CHUNK {
                sink(std::mem::take(&mut chunk))?;
            }
            Ok(())
        })?;
        sink(chunk)
    })
    .await?;
    Ok((download(&file_name), body).into_response())
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoting_and_formula_guard() {
        assert_eq!(
            super::line(&["plain", "a,b", "say \"hi\"", "=SUM(A1)", ""]),
            "plain,\"a,b\",\"say \"\"hi\"\"\",'=SUM(A1),\r\n"
        );
    }
}
