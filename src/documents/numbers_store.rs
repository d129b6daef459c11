//! The SQL of the number series: the next number, moving a series on, the numbers already
//! held, and their search index.

use crate::plumbing::error::AppError;
use rusqlite::{Connection, OptionalExtension, params};

/// The next number of a series, taken inside the issuing transaction: no gaps, never reused.
pub fn next_seq(tx: &Connection, prefix: &str, fy: &str) -> Result<i64, AppError> {
    Ok(tx
        .prepare_cached(
            "INSERT INTO number_series (prefix, fy, last_seq) VALUES (?1, ?2, 1)
             ON CONFLICT (prefix, fy) DO UPDATE SET last_seq = last_seq + 1 RETURNING last_seq",
        )?
        .query_row(params![prefix, fy], |r| r.get(0))?)
}

/// The documents holding any of `numbers`: number → (client, source).
pub fn numbers_held(
    conn: &Connection,
    numbers: &[&str],
) -> Result<std::collections::HashMap<String, (String, String)>, AppError> {
    let mut statement = conn.prepare_cached("SELECT client_id, source FROM document WHERE doc_no = ?1")?;
    let mut held = std::collections::HashMap::new();
    for n in numbers {
        if let Some(found) = statement
            .query_row([n], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?
        {
            held.insert(n.to_string(), found);
        }
    }
    Ok(held)
}

/// Indexes the numbers of the documents `ids` for substring search in one insert, in key order:
/// what the `document_no_search_insert` trigger does row by row (while search is deferred).
pub fn index_numbers(tx: &Connection, ids: &[String]) -> Result<(), AppError> {
    tx.prepare_cached(
        "INSERT INTO document_no_search (suffix, document_id)
           SELECT lower(substr(d.doc_no, p.n)), d.id FROM json_each(?1) j JOIN document d ON d.id = j.value
             CROSS JOIN search_position p
            WHERE d.doc_no IS NOT NULL AND p.n <= length(d.doc_no) ORDER BY 1, 2",
    )?
    .execute([serde_json::to_string(ids)?])?;
    Ok(())
}

/// Moves a number series to `seq` (never back): the next number issued follows it. Answers the
/// series' last number now.
pub fn seed_series(tx: &Connection, prefix: &str, fy: &str, seq: i64) -> Result<i64, AppError> {
    Ok(tx
        .prepare_cached(
            "INSERT INTO number_series (prefix, fy, last_seq) VALUES (?1, ?2, ?3)
             ON CONFLICT (prefix, fy) DO UPDATE SET last_seq = MAX(last_seq, excluded.last_seq)
             RETURNING last_seq",
        )?
        .query_row(params![prefix, fy, seq], |r| r.get(0))?)
}
