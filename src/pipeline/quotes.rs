//! The open quotations of a book at a glance, by follow-up band: the dashboard's and the
//! cockpit's tile ([`open_quotes`]).

use crate::pipeline::listing::listing;
use crate::pipeline::store::{PipelineFilter, Show};
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

/// The open quotations of `book` (None: every book): the open pipeline's rows that have one.
pub fn open_quotes(conn: &Connection, book: Option<String>) -> Result<OpenQuotes, AppError> {
    let filter = PipelineFilter {
        show: Show::Open,
        q: None,
        owner_id: None,
        book,
    };
    let mut quotes = OpenQuotes::default();
    listing(conn, filter)?.each(conn, None, |row| {
        if row.document_id.is_none() {
            quotes.enquiries += 1;
        } else {
            quotes.count += 1;
            quotes.value += row.total.unwrap_or(0);
            let band = &mut quotes.bands;
            *match row.band.as_str() {
                "green" => &mut band.green,
                "amber" => &mut band.amber,
                "red" => &mut band.red,
                _ => &mut band.grey,
            } += 1;
        }
        Ok(())
    })?;
    Ok(quotes)
}
