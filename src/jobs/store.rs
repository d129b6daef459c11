//! The record of background runs (`job_run`): one row per run, written when it starts and
//! completed when it ends.

use crate::plumbing::clock;
use crate::plumbing::db::ids::new_id;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, params};

/// The last run of a job.
pub struct LastRun {
    pub as_of: Option<String>,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub outcome: String,
    pub error: Option<String>,
}

pub fn start(tx: &Connection, job: &str, as_of: NaiveDate) -> Result<String, AppError> {
    let id = new_id();
    tx.execute(
        "INSERT INTO job_run (id, job, as_of, started_at) VALUES (?1, ?2, ?3, ?4)",
        params![id, job, as_of.to_string(), clock::now_timestamp()],
    )?;
    Ok(id)
}

pub fn finish(tx: &Connection, id: &str, outcome: Result<&serde_json::Value, &str>) -> Result<(), AppError> {
    let (status, counts, error) = match outcome {
        Ok(counts) => ("ok", Some(counts.to_string()), None),
        Err(e) => ("failed", None, Some(e)),
    };
    tx.execute(
        "UPDATE job_run SET finished_at = ?2, outcome = ?3, counts = ?4, error = ?5 WHERE id = ?1",
        params![id, clock::now_timestamp(), status, counts, error],
    )?;
    Ok(())
}

/// Runs left 'running' by a server that stopped mid-run.
pub fn close_interrupted(tx: &Connection) -> Result<usize, AppError> {
    Ok(tx.execute(
        "UPDATE job_run SET outcome = 'failed', finished_at = ?1,
                error = 'The server stopped before the run ended.'
         WHERE outcome = 'running'",
        [clock::now_timestamp()],
    )?)
}

/// Whether `job` ran to the end for the office day `as_of`.
pub fn done_for(conn: &Connection, job: &str, as_of: NaiveDate) -> Result<bool, AppError> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM job_run WHERE job = ?1 AND as_of = ?2 AND outcome = 'ok')",
        params![job, as_of.to_string()],
        |r| r.get(0),
    )?)
}

pub fn last(conn: &Connection, job: &str) -> Result<Option<LastRun>, AppError> {
    Ok(conn
        .query_row(
            "SELECT as_of, started_at, finished_at, outcome, error FROM job_run WHERE job = ?1
             ORDER BY started_at DESC, id DESC LIMIT 1",
            [job],
            |r| {
                Ok(LastRun {
                    as_of: r.get(0)?,
                    started_at: r.get(1)?,
                    finished_at: r.get(2)?,
                    outcome: r.get(3)?,
                    error: r.get(4)?,
                })
            },
        )
        .optional()?)
}

/// The last error of `job`, from its latest failed run.
pub fn last_error(conn: &Connection, job: &str) -> Result<Option<String>, AppError> {
    Ok(conn
        .query_row(
            "SELECT error FROM job_run WHERE job = ?1 AND outcome = 'failed' ORDER BY started_at DESC, id DESC LIMIT 1",
            [job],
            |r| r.get(0),
        )
        .optional()?
        .flatten())
}
