//! The SQL of service contracts: the list (book-scoped, honest total), one contract, and the
//! writes. A contract row carries what its renewal invoice says (number, status, total, what it
//! still owes) so that its paid state is read in the same query.

use crate::auth::session::AuthUser;
use crate::book;
use crate::contracts::rules;
use crate::plumbing::db::query::{
    Changes, Filter, ListQuery, Listing, insert_row, like_contains, update_columns,
};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

/// A service contract (AMC) as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Contract {
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    pub description: String,
    /// First day covered (YYYY-MM-DD).
    pub period_from: String,
    /// Last day covered (YYYY-MM-DD).
    pub period_to: String,
    /// The fixed amount of a period, paise, before GST.
    pub amount: i64,
    /// The invoice raised to renew it (a draft at first), if any; a cancelled one stays named here
    /// until the contract is renewed again.
    pub renewal_invoice_id: Option<String>,
    /// Its number, once issued.
    #[serde(rename = "renewal_docNo")]
    pub renewal_doc_no: Option<String>,
    /// From the renewal invoice: none (no invoice, or it was cancelled), draft, unpaid,
    /// part_paid or paid.
    pub paid_state: String,
    /// active (period_to is the office's today or later) or expired.
    pub state: String,
    pub created_by: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// The renewal invoice's status (draft, issued, sent, cancelled), for the renew rule.
    #[serde(skip)]
    pub renewal_status: Option<String>,
}

const COLUMNS: &str = "sc.id, sc.client_id, c.name, sc.description, sc.period_from, sc.period_to, sc.amount, \
    sc.renewal_invoice_id, d.doc_no, d.type, d.status, d.total, d.outstanding, sc.created_by, sc.created_at, sc.updated_at";
const FROM: &str = "service_contract sc JOIN client c ON c.id = sc.client_id \
    LEFT JOIN document d ON d.id = sc.renewal_invoice_id";

/// How a row reads, with the office's `today` for its state.
fn contract(r: &Row<'_>, today: NaiveDate) -> rusqlite::Result<Contract> {
    let period_to: String = r.get(5)?;
    let invoice = match (r.get::<_, Option<String>>(9)?, r.get::<_, Option<String>>(10)?) {
        (Some(doc_type), Some(status)) => Some(rules::Invoice {
            doc_type,
            status,
            total: r.get(11)?,
            outstanding: r.get(12)?,
        }),
        _ => None,
    };
    Ok(Contract {
        id: r.get(0)?,
        client_id: r.get(1)?,
        client_name: r.get(2)?,
        description: r.get(3)?,
        period_from: r.get(4)?,
        state: rules::state(&period_to, today).to_string(),
        period_to,
        amount: r.get(6)?,
        renewal_invoice_id: r.get(7)?,
        renewal_doc_no: r.get(8)?,
        paid_state: rules::paid_state(invoice.as_ref()).to_string(),
        renewal_status: invoice.map(|i| i.status),
        created_by: r.get(13)?,
        created_at: r.get(14)?,
        updated_at: r.get(15)?,
    })
}

/// The contract `id`, if it exists and its client is in `book` (None: every book).
pub fn get(conn: &Connection, id: &str, book: Option<&str>) -> Result<Option<Contract>, AppError> {
    let today = settings::office_today(conn)?;
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM {FROM} WHERE sc.id = ?1 AND {}",
            book::client_is_in("sc.client_id", "?2")
        ))?
        .query_row(params![id, book], |r| contract(r, today))
        .optional()?)
}

/// Filters of the contract list.
#[derive(Default)]
pub struct ContractFilter {
    pub client_id: Option<String>,
    /// Part of the client's name or the description.
    pub q: Option<String>,
    /// `rules::STATES`, checked by the caller.
    pub state: Option<String>,
    /// `rules::PAID_STATES`, checked by the caller.
    pub paid_state: Option<String>,
    /// A staff user's book (`crate::book`); None: every book.
    pub book: Option<String>,
}

/// The contracts in a paid state: the SQL twin of `rules::paid_state`, over the renewal
/// invoice `d` (what it owes read as the documents read it).
fn paid_state_clause(state: &str) -> Option<String> {
    Some(match state {
        "none" => "d.id IS NULL OR d.status = 'cancelled'".into(),
        "draft" => "d.status = 'draft'".into(),
        _ => format!(
            "d.status NOT IN ('draft', 'cancelled') AND {}",
            crate::documents::rules::owing_sql(state)?
        ),
    })
}

/// What the contract list may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("client_name", "c.name COLLATE NOCASE"),
    ("description", "sc.description COLLATE NOCASE"),
    ("period_from", "sc.period_from"),
    ("period_to", "sc.period_to"),
    ("amount", "sc.amount"),
    ("renewal_docNo", "d.doc_no"),
    ("created_at", "sc.created_at"),
];

/// The contract list, newest first: a page of it, or every row for the CSV twin.
pub fn list(conn: &Connection, filter: ContractFilter) -> Result<Listing<Contract>, AppError> {
    let today = settings::office_today(conn)?;
    let mut f = Filter::default();
    f.eq("sc.client_id", filter.client_id);
    if let Some(q) = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        let pattern = like_contains(q);
        f.and(
            "c.name LIKE ? ESCAPE '\\' OR sc.description LIKE ? ESCAPE '\\'",
            [pattern.clone(), pattern],
        );
    }
    match filter.state.as_deref() {
        Some("active") => {
            f.and("sc.period_to >= ?", [Value::Text(today.to_string())]);
        }
        Some("expired") => {
            f.and("sc.period_to < ?", [Value::Text(today.to_string())]);
        }
        _ => {}
    }
    if let Some(clause) = filter.paid_state.as_deref().and_then(paid_state_clause) {
        f.and(&clause, []);
    }
    book::narrow(&mut f, "sc.client_id", filter.book);
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: FROM,
        order_by: "sc.id DESC",
        id_column: "sc.id",
        sorts: SORTS,
    };
    Ok(Listing::new(query, f, move |r| contract(r, today)))
}

/// Inserts a contract of checked `fields`; answers its id.
pub fn insert(tx: &Connection, fields: Changes) -> Result<String, AppError> {
    Ok(insert_row(tx, "service_contract", fields)?)
}

pub fn update(tx: &Connection, id: &str, changes: Changes) -> Result<(), AppError> {
    update_columns(tx, "service_contract", id, changes)?;
    Ok(())
}

/// The service contract, if its client is in the user's book (the list narrows with [`narrow`]
/// on `sc.client_id`: a contract hangs on its client like a document does).
pub fn visible_contract(conn: &Connection, user: &AuthUser, id: &str) -> Result<Contract, AppError> {
    get(conn, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("service contract"))
}
