//! The pipeline (spec 1 function 7, 4.6; decisions 11): the chase list of open quotations and
//! bare leads, each with its stage, age, colour band and next action. A read: the handler, the
//! CSV twin and the benchmark call [`listing`]; the rules are in `rules`, the SQL in `store`.

pub mod routes;
pub mod rules;
pub mod store;

use crate::db::query::Listing;
use crate::db::settings;
use crate::error::AppError;
use crate::reminders::schedule;
use rusqlite::Connection;
use store::{Ladder, PipelineFilter, PipelineRow};

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
