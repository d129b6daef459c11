//! The pipeline (spec 1 function 7, 4.6; decisions 11): the chase list of open quotations and
//! bare leads, each with its stage, age, colour band and next action. A read: the handler, the
//! CSV twin and the benchmark call [`listing`]; the rules are in `rules`, the SQL in `store`.

pub mod routes;
pub mod rules;
pub mod store;

use crate::plumbing::db::query::Listing;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::reminders::schedule;
use rusqlite::Connection;
use serde::Serialize;
use store::{Ladder, PipelineFilter, PipelineRow, Show};
use utoipa::ToSchema;

/// What the bands are read against today: the quote follow-up offsets in force.
pub fn ladder(conn: &Connection) -> Result<Ladder, AppError> {
    let today = settings::office_today(conn)?;
    Ok(Ladder {
        today,
        offset: settings::office_offset(conn)?,
        offsets: schedule::in_force(conn, today)?
            .schedule
            .quote_followup
            .day_offsets,
    })
}

/// The pipeline as `filter` selects it.
pub fn listing(conn: &Connection, filter: PipelineFilter) -> Result<Listing<PipelineRow>, AppError> {
    Ok(store::list(filter, ladder(conn)?))
}

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
