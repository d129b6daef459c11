//! The open quotations of a book at a glance, by follow-up band: the dashboard's and the
//! cockpit's tile ([`open_quotes`]).

use crate::pipeline::listing::ladder;
use crate::pipeline::store;
use crate::plumbing::error::AppError;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// Open quotations by follow-up band.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct Bands {
    pub green: i64,
    pub amber: i64,
    pub red: i64,
    pub grey: i64,
}

/// The open quotations of a book at a glance (the dashboard's and the cockpit's tile).
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct OpenQuotes {
    /// Open conversations with a quotation (bare leads are not counted).
    pub count: i64,
    /// Their totals, paise.
    pub value: i64,
    pub bands: Bands,
    /// Open conversations without a quotation yet (the Enquiry stage).
    pub enquiries: i64,
}

/// The open quotations of `book` (None: every book): the open pipeline's rows that have one,
/// counted from the open quotations migrations/V29 keeps, each banded as the list bands it.
pub fn open_quotes(conn: &Connection, book: Option<String>) -> Result<OpenQuotes, AppError> {
    let ladder = ladder(conn)?;
    let mut quotes = OpenQuotes {
        enquiries: store::open_leads(conn, book.as_deref())?,
        ..Default::default()
    };
    for (total, anchor) in store::open_quote_anchors(conn, book.as_deref())? {
        quotes.count += 1;
        quotes.value += total.unwrap_or(0);
        let band = &mut quotes.bands;
        *match store::open_band(&anchor, &ladder) {
            "green" => &mut band.green,
            "amber" => &mut band.amber,
            "red" => &mut band.red,
            _ => &mut band.grey,
        } += 1;
    }
    Ok(quotes)
}
