//! The SQL of the document list: its rows, filters, sorts and tally.

use crate::book;
use crate::documents::rules;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, Plan, Tally, starts_with};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use rusqlite::types::Value;
use rusqlite::{Connection, Row};
use serde::Serialize;
use utoipa::ToSchema;

/// A row of the document list (no lines or events).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DocumentRow {
    pub id: String,
    #[serde(rename = "type")]
    pub doc_type: String,
    pub status: String,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    pub doc_date: Option<String>,
    pub due_date: Option<String>,
    pub client_id: String,
    pub client_name: String,
    pub total: i64,
    /// INVOICE only.
    pub outstanding: Option<i64>,
    /// An issued invoice's unpaid, part_paid, paid or overdue; null otherwise.
    pub payment_state: Option<String>,
    pub created_at: String,
}

/// The documents with their clients, as the list and one document read them.
pub(crate) const FROM: &str = "document d JOIN client c ON c.id = d.client_id";

const LIST_COLUMNS: &str = "d.id, d.type, d.status, d.doc_no, d.doc_date, d.due_date, d.client_id, c.name, d.total, d.created_at, \
         CASE WHEN d.status NOT IN ('draft', 'cancelled') THEN d.outstanding END";

/// Filters of the document list.
#[derive(Default)]
pub struct DocumentFilter {
    /// Part of the number or the client's name.
    pub q: Option<String>,
    pub doc_type: Option<String>,
    pub status: Option<String>,
    pub client_id: Option<String>,
    /// A staff user's book (`crate::book`); None: every book.
    pub book: Option<String>,
    /// doc_date bounds, inclusive (YYYY-MM-DD).
    pub from: Option<String>,
    pub to: Option<String>,
    /// An issued invoice's payment state (`rules::PAYMENT_STATES`), checked by the caller.
    pub payment_state: Option<String>,
}

/// The document tally's columns (migrations/V7), by the names the list filters use.
static TALLY: Tally = Tally {
    table: "document_tally",
    columns: &[
        ("d.type", "type"),
        ("d.status", "status"),
        ("d.created_by", "created_by"),
    ],
};

/// What the document list may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("docNo", "d.doc_no"),
    ("type", "d.type"),
    (
        "client_name",
        "(SELECT name FROM client WHERE id = d.client_id) COLLATE NOCASE",
    ),
    ("doc_date", "d.doc_date"),
    ("due_date", "d.due_date"),
    ("status", "d.status"),
    ("total", "d.total"),
    ("outstanding", "d.outstanding"),
    ("created_at", "d.created_at"),
];

/// The document list: a page of it, or every row for the CSV twin.
pub fn list(conn: &Connection, filter: DocumentFilter) -> Result<Listing<DocumentRow>, AppError> {
    let mut f = Filter::default();
    let q = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty());
    if let Some(q) = q {
        // The number or the client's name contains q: two ranges of the suffix tables.
        let (range, values) = starts_with("suffix", q);
        f.either(
            (
                format!("d.id IN (SELECT document_id FROM document_no_search WHERE {range})"),
                values.clone(),
            ),
            (
                format!("d.client_id IN (SELECT client_id FROM client_name_search WHERE {range})"),
                values,
            ),
        );
    }
    // With q the matches are found from the suffix tables; `+` keeps SQLite from walking the
    // type or author index instead and testing every row against them.
    let column = |c: &'static str| if q.is_some() { c } else { &c[1..] };
    f.eq(column("+d.type"), filter.doc_type)
        .eq(column("+d.status"), filter.status)
        .eq("d.client_id", filter.client_id);
    book::narrow(&mut f, "d.client_id", filter.book);
    if let Some(from) = filter.from {
        f.and("d.doc_date >= ?", [Value::Text(from)]);
    }
    if let Some(to) = filter.to {
        f.and("d.doc_date <= ?", [Value::Text(to)]);
    }
    let today = settings::office_today(conn)?;
    if let Some((clause, dated)) = filter.payment_state.as_deref().and_then(rules::payment_state_sql) {
        f.and(
            &format!("d.type = 'INVOICE' AND d.status NOT IN ('draft', 'cancelled') AND {clause}"),
            dated.then(|| Value::Text(today.to_string())),
        );
    }
    let query = ListQuery {
        columns: LIST_COLUMNS.into(),
        from: FROM,
        order_by: "d.id DESC",
        id_column: "d.id",
        sorts: SORTS,
    };
    let plan = Plan {
        find_in: Some("document d"),
        tally: Some(&TALLY),
        count_in: None,
    };
    let row = move |r: &Row<'_>| {
        Ok(DocumentRow {
            id: r.get(0)?,
            doc_type: r.get(1)?,
            status: r.get(2)?,
            doc_no: r.get(3)?,
            doc_date: r.get(4)?,
            due_date: r.get(5)?,
            client_id: r.get(6)?,
            client_name: r.get(7)?,
            total: r.get(8)?,
            created_at: r.get(9)?,
            outstanding: r.get(10)?,
            payment_state: None,
        })
        .map(|mut row: DocumentRow| {
            let falls_due = row.due_date.as_deref().or(row.doc_date.as_deref());
            row.payment_state = rules::payment_state(
                &row.doc_type,
                &row.status,
                row.total,
                row.outstanding,
                falls_due,
                today,
            )
            .map(str::to_string);
            row
        })
    };
    Ok(Listing::new(query, f, row).with_plan(plan))
}
