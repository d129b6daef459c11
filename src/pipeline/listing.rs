//! The pipeline as a filter selects it ([`listing`]), its bands read against the quote
//! follow-up offsets in force today ([`ladder`]).

use crate::pipeline::store::{self, Ladder, PipelineFilter, PipelineRow};
use crate::plumbing::db::query::Listing;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::reminders::schedule;
use rusqlite::Connection;

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
    Ok(store::list(filter, ladder(conn)?, store::kept_day_offset(conn)?))
}
