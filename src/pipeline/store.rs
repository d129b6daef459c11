//! The SQL of the pipeline: open quotations and bare leads as one list (a UNION ALL of the two,
//! narrowed by the filter before the union so a view of open conversations never walks the
//! years of lost ones), each with the day its conversation began; the band is read in Rust. A
//! bare lead is a client marked `lead`, or one made here with no document or module yet: a
//! client the legacy import brought (`imported_at`) is a customer moving in, not an enquiry.

use crate::book;
use crate::pipeline::rules::{self, Chase};
use crate::plumbing::clock;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, like_contains};
use chrono::{FixedOffset, NaiveDate};
use rusqlite::Row;
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

/// The two kinds of conversation, each narrowed to `quotes` and `leads` (SQL conditions).
/// A lead's quotations are looked up by client (`+q.type` keeps the planner off the type
/// index, which walked every quotation of the office for each lead: 5 s on the large office).
fn union(quotes: &str, leads: &str) -> String {
    format!(
        "(SELECT d.id AS row_id, d.client_id, c.name AS client_name, c.owner_id, d.id AS document_id,
                 d.doc_no, d.status AS doc_status, d.total,
                 CASE WHEN d.status = 'lost' OR c.status = 'lost' THEN '{lost}' ELSE '{quoted}' END AS stage,
                 COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = d.id AND e.kind = 'sent'),
                          d.doc_date) AS anchor,
                 r.id AS reminder_id, r.due_on AS reminder_due_on
          FROM document d JOIN client c ON c.id = d.client_id
               LEFT JOIN reminder r ON r.id = (SELECT r2.id FROM reminder r2 WHERE r2.doc_id = d.id
                     AND r2.rule_kind = 'quote_followup' AND r2.status IN ('open', 'failed') ORDER BY r2.id DESC LIMIT 1)
          WHERE d.type = 'QUOTATION' AND c.status <> 'inactive' AND ({quotes})
            AND NOT EXISTS (SELECT 1 FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled')
          UNION ALL
          SELECT c.id, c.id, c.name, c.owner_id, NULL, NULL, NULL, NULL,
                 CASE WHEN c.status = 'lost' THEN '{lost}' ELSE '{enquiry}' END, c.created_at, NULL, NULL
          FROM client c
          WHERE (c.status = 'lead' OR c.id IN (SELECT client_id FROM bare_client) AND c.imported_at IS NULL)
            AND ({leads})
            AND NOT EXISTS (SELECT 1 FROM document q WHERE q.client_id = c.id AND +q.type = 'QUOTATION'
                            AND q.status NOT IN ('draft', 'cancelled'))
         ) p LEFT JOIN staff o ON o.id = p.owner_id",
        lost = rules::LOST,
        quoted = rules::QUOTED,
        enquiry = rules::ENQUIRY,
    )
}

static OPEN: LazyLock<String> = LazyLock::new(|| {
    union(
        "d.status IN ('issued', 'sent') AND c.status <> 'lost'",
        "c.status NOT IN ('lost', 'inactive')",
    )
});
static LOST: LazyLock<String> = LazyLock::new(|| {
    union(
        "d.status IN ('issued', 'sent', 'lost') AND (d.status = 'lost' OR c.status = 'lost')",
        "c.status = 'lost'",
    )
});
static ALL: LazyLock<String> =
    LazyLock::new(|| union("d.status IN ('issued', 'sent', 'lost')", "c.status <> 'inactive'"));

const COLUMNS: &str = "p.row_id, p.client_id, p.client_name, p.owner_id, o.name, p.document_id, p.doc_no, \
    p.doc_status, p.total, p.stage, p.anchor, p.reminder_id, p.reminder_due_on";

/// What the pipeline may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("client_name", "p.client_name COLLATE NOCASE"),
    ("docNo", "p.doc_no"),
    ("total", "p.total"),
    // In the pipeline's own order, not the alphabet's.
    (
        "stage",
        "CASE p.stage WHEN 'Enquiry' THEN 0 WHEN 'Quoted/Waiting' THEN 1 ELSE 2 END",
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
/// made yesterday evening in UTC. The offset is written into the SQL text (it is a whole number
/// of seconds, never user text); one text per offset and list is kept for the process.
fn order_by(show: Show, offset: FixedOffset) -> &'static str {
    static ORDERS: LazyLock<Mutex<HashMap<(Show, i32), &'static str>>> = LazyLock::new(Mutex::default);
    let mut orders = ORDERS.lock().unwrap_or_else(|p| p.into_inner());
    orders.entry((show, offset.local_minus_utc())).or_insert_with(|| {
        let day = format!(
            "CASE WHEN length(p.anchor) = 10 THEN p.anchor ELSE date(p.anchor, '{:+} seconds') END",
            offset.local_minus_utc()
        );
        let direction = if show == Show::Lost { "DESC" } else { "ASC" };
        Box::leak(format!("{day} {direction}, p.row_id {direction}").into_boxed_str())
    })
}

/// The pipeline: open conversations oldest first (the longest waiting on top), lost ones
/// newest first; a page of it or every row for the CSV twin.
pub fn list(filter: PipelineFilter, ladder: Ladder) -> Listing<PipelineRow> {
    let mut f = Filter::default();
    if filter.book.is_none() {
        f.eq("p.owner_id", filter.owner_id);
    }
    if let Some(q) = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        let pattern = like_contains(q);
        f.and(
            "p.client_name LIKE ? ESCAPE '\\' OR p.doc_no LIKE ? ESCAPE '\\'",
            [pattern.clone(), pattern],
        );
    }
    book::narrow(&mut f, "p.client_id", filter.book);
    let from = match filter.show {
        Show::Open => OPEN.as_str(),
        Show::Lost => LOST.as_str(),
        Show::All => ALL.as_str(),
    };
    let order_by = order_by(filter.show, ladder.offset);
    let query = ListQuery {
        columns: COLUMNS.into(),
        from,
        order_by,
        id_column: "p.row_id",
        sorts: SORTS,
    };
    Listing::new(query, f, move |r| row(r, &ladder))
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
