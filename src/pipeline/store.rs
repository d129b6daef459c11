//! The SQL of the pipeline: open quotations and bare leads as one list, read from the rows
//! migrations/V27 keeps (`pipeline_entry`, one per conversation, in the list's order), each with
//! the day its conversation began; the band is read in Rust. A bare lead is a client marked
//! `lead`, or one made here with no document or module yet: a client the legacy import brought
//! (`imported_at`) is a customer moving in, not an enquiry.

use crate::book;
use crate::pipeline::rules::{self, Chase};
use crate::plumbing::clock;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, Plan, like_contains};
use crate::plumbing::error::AppError;
use chrono::{FixedOffset, NaiveDate};
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use utoipa::ToSchema;

/// One sales conversation.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PipelineRow {
    pub client_id: String,
    pub client_name: String,
    /// The account owner.
    pub owner_id: Option<String>,
    pub owner_name: Option<String>,
    /// The quotation; none for a bare lead.
    pub document_id: Option<String>,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    /// issued, sent or lost.
    pub doc_status: Option<String>,
    /// The quotation's total, paise.
    pub total: Option<i64>,
    /// Enquiry, Quoted/Waiting or Lost.
    pub stage: String,
    /// Days since the first `sent` (a lead: since the client was created).
    pub age: i64,
    /// green, amber, red or grey (from the quote follow-up day offsets).
    pub band: String,
    pub next_action: String,
    /// The day of the next follow-up rung, if one is still to come.
    #[schema(format = Date)]
    pub next_on: Option<String>,
    /// The quotation's open (or failed) follow-up reminder.
    pub reminder_id: Option<String>,
    #[schema(format = Date)]
    pub reminder_due_on: Option<String>,
}

/// Which conversations a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Show {
    Open,
    Lost,
    All,
}

/// Every conversation with its client, quotation, owner and open follow-up reminder. The rows
/// are those migrations/V27 keeps in `pipeline_entry` (quotations issued, sent or lost with no
/// live child, and bare leads, of clients not inactive), each with whether it is lost, its
/// anchor and the office day of it; what is shown of them is read live, for a page's rows only.
/// `CROSS JOIN` keeps the kept rows first, so that a page walks their index in the list's order
/// and stops at its last row.
const FROM: &str = "pipeline_entry p CROSS JOIN client c ON c.id = p.client_id
     LEFT JOIN document d ON d.id = p.document_id
     LEFT JOIN staff o ON o.id = c.owner_id
     LEFT JOIN reminder r ON r.id = (SELECT r2.id FROM reminder r2 WHERE r2.doc_id = p.document_id
           AND r2.rule_kind = 'quote_followup' AND r2.status IN ('open', 'failed') ORDER BY r2.id DESC LIMIT 1)";

/// Where a list without a search is counted: the kept rows alone (their index).
const COUNT_IN: &str = "pipeline_entry p";

/// The stage is Lost, Enquiry (no quotation) or Quoted/Waiting (rules.rs).
const COLUMNS: &str = "p.row_id, p.client_id, c.name, c.owner_id, o.name, p.document_id, d.doc_no, \
    d.status, d.total, CASE WHEN p.lost THEN 'Lost' WHEN p.document_id IS NULL THEN 'Enquiry' \
    ELSE 'Quoted/Waiting' END, p.anchor, r.id, r.due_on";

/// The office's offset (seconds east of UTC) the kept days are for (migrations/V27).
pub fn kept_day_offset(conn: &Connection) -> Result<Option<i32>, AppError> {
    Ok(conn
        .prepare_cached("SELECT seconds FROM pipeline_day_offset")?
        .query_row([], |r| r.get(0))
        .optional()?
        .flatten())
}

/// What the pipeline may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("client_name", "c.name COLLATE NOCASE"),
    ("docNo", "d.doc_no"),
    ("total", "d.total"),
    // In the pipeline's own order, not the alphabet's: Enquiry, Quoted/Waiting, Lost.
    (
        "stage",
        "CASE WHEN p.lost THEN 2 WHEN p.document_id IS NULL THEN 0 ELSE 1 END",
    ),
    ("age", "-julianday(p.anchor)"),
    ("owner_name", "o.name COLLATE NOCASE"),
];

/// Filters of the pipeline.
pub struct PipelineFilter {
    pub show: Show,
    /// Part of the client's name or the quotation's number.
    pub q: Option<String>,
    /// The account owner (ignored for staff: their book is theirs).
    pub owner_id: Option<String>,
    /// A staff user's book (`crate::book`); None: every book.
    pub book: Option<String>,
}

/// What the bands are read against: today, the office's offset from UTC (a `sent` event's
/// office day) and the quote follow-up day offsets in force.
#[derive(Debug, Clone)]
pub struct Ladder {
    pub today: NaiveDate,
    pub offset: FixedOffset,
    pub offsets: Vec<i64>,
}

fn row(r: &Row<'_>, ladder: &Ladder) -> rusqlite::Result<PipelineRow> {
    let stage: String = r.get(9)?;
    // A quotation's first `sent` moment (a timestamp), else its issue date (a day): not sent.
    let anchor: String = r.get(10)?;
    let (began, sent) = match clock::date(&anchor) {
        Some(issued) => (issued, false),
        None => (
            clock::office_date(&anchor, ladder.offset).unwrap_or(ladder.today),
            true,
        ),
    };
    let Chase {
        age,
        band,
        next_action,
        next_on,
    } = rules::chase(&stage, sent, began, &ladder.offsets, ladder.today);
    Ok(PipelineRow {
        client_id: r.get(1)?,
        client_name: r.get(2)?,
        owner_id: r.get(3)?,
        owner_name: r.get(4)?,
        document_id: r.get(5)?,
        doc_no: r.get(6)?,
        doc_status: r.get(7)?,
        total: r.get(8)?,
        stage,
        age,
        band: band.to_string(),
        next_action,
        next_on: next_on.map(|d| d.to_string()),
        reminder_id: r.get(11)?,
        reminder_due_on: r.get(12)?,
    })
}

/// The list's order: the office day each conversation began, then creation order (the row ids
/// are ULIDs). An anchor is an office date (an unsent quotation's `doc_date`) or a UTC moment (a
/// `sent` event, a lead's creation): a moment is read as its office day, so that in the hours
/// when the office's date is ahead of UTC's a quotation issued today does not sort after a lead
/// made yesterday evening in UTC. While the kept days (`p.day`) are for the offset in force,
/// they are the order, read from their index; otherwise (a dated offset coming into force) each
/// day is derived: the offset is written into the SQL text (it is a whole number of seconds,
/// never user text); one text per offset and list is kept for the process.
fn order_by(show: Show, offset: FixedOffset, kept: bool) -> &'static str {
    let direction = if show == Show::Lost { "DESC" } else { "ASC" };
    if kept {
        return if show == Show::Lost {
            "p.day DESC, p.row_id DESC"
        } else {
            "p.day ASC, p.row_id ASC"
        };
    }
    static ORDERS: LazyLock<Mutex<HashMap<(&'static str, i32), &'static str>>> =
        LazyLock::new(Mutex::default);
    let mut orders = ORDERS.lock().unwrap_or_else(|p| p.into_inner());
    orders
        .entry((direction, offset.local_minus_utc()))
        .or_insert_with(|| {
            let day = format!(
                "CASE WHEN length(p.anchor) = 10 THEN p.anchor ELSE date(p.anchor, '{:+} seconds') END",
                offset.local_minus_utc()
            );
            Box::leak(format!("{day} {direction}, p.row_id {direction}").into_boxed_str())
        })
}

/// The pipeline: open conversations oldest first (the longest waiting on top), lost ones
/// newest first; a page of it or every row for the CSV twin. `kept_offset`: the offset the kept
/// days are for ([`kept_day_offset`]).
pub fn list(filter: PipelineFilter, ladder: Ladder, kept_offset: Option<i32>) -> Listing<PipelineRow> {
    let mut f = Filter::default();
    match filter.show {
        Show::Open => f.and("p.lost = 0", []),
        Show::Lost => f.and("p.lost = 1", []),
        Show::All => &mut f,
    };
    if filter.book.is_none()
        && let Some(owner) = filter.owner_id
    {
        f.and(
            "p.client_id IN (SELECT id FROM client WHERE owner_id = ?)",
            [Value::Text(owner)],
        );
    }
    let q = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty());
    let plan = Plan {
        count_in: q.is_none().then_some(COUNT_IN),
        ..Plan::default()
    };
    if let Some(q) = q {
        let pattern = like_contains(q);
        f.and(
            "c.name LIKE ? ESCAPE '\\' OR d.doc_no LIKE ? ESCAPE '\\'",
            [pattern.clone(), pattern],
        );
    }
    book::narrow(&mut f, "p.client_id", filter.book);
    let kept = kept_offset == Some(ladder.offset.local_minus_utc());
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: FROM,
        order_by: order_by(filter.show, ladder.offset, kept),
        id_column: "p.row_id",
        sorts: SORTS,
    };
    Listing::new(query, f, move |r| row(r, &ladder)).with_plan(plan)
}

/// The open pipeline's quotations in `book` (None: every book), as migrations/V29 keeps them
/// (`open_quote`): each one's total (paise) and the moment its conversation began (the anchor
/// of [`list`]'s rows), for the tiles' bands without building the rows.
pub fn open_quote_anchors(
    conn: &rusqlite::Connection,
    book: Option<&str>,
) -> Result<Vec<(Option<i64>, String)>, crate::plumbing::error::AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT q.total, q.anchor FROM open_quote q WHERE {}",
        book::client_is_in("q.client_id", "?1")
    ))?;
    let rows = stmt
        .query_map([book], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// How many bare leads the open pipeline holds in `book` (its rows without a quotation).
pub fn open_leads(
    conn: &rusqlite::Connection,
    book: Option<&str>,
) -> Result<i64, crate::plumbing::error::AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT COUNT(*) FROM client c
              WHERE (c.status = 'lead' OR c.id IN (SELECT client_id FROM bare_client) AND c.imported_at IS NULL)
                AND c.status NOT IN ('lost', 'inactive')
                AND NOT EXISTS (SELECT 1 FROM document q WHERE q.client_id = c.id AND +q.type = 'QUOTATION'
                                AND q.status NOT IN ('draft', 'cancelled'))
                AND {}",
            book::client_is_in("c.id", "?1")
        ))?
        .query_row([book], |r| r.get(0))?)
}

/// The band of an open quotation whose conversation began at `anchor` (as [`list`] reads it).
pub fn open_band(anchor: &str, ladder: &Ladder) -> &'static str {
    let (began, sent) = match clock::date(anchor) {
        Some(issued) => (issued, false),
        None => (
            clock::office_date(anchor, ladder.offset).unwrap_or(ladder.today),
            true,
        ),
    };
    rules::chase(rules::QUOTED, sent, began, &ladder.offsets, ladder.today).band
}
