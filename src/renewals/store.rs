//! The SQL of the renewals worklist: the active subscriptions renewing in a range and the
//! service contracts ending in it, of clients not lost, in the caller's book.

use super::rules::RenewalDocument;
use crate::book;
use crate::plumbing::db::query::like_contains;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::types::Value;
use rusqlite::{Connection, params};

/// A subscription renewing in the range, before it is priced.
pub struct ModuleRenewal {
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    pub module_id: String,
    pub module_name: String,
    pub edition: Option<String>,
    pub due_on: String,
    pub renewal_document: Option<RenewalDocument>,
}

/// A contract ending in the range.
pub struct ContractRenewal {
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    pub description: String,
    pub due_on: String,
    pub amount: i64,
    pub document_id: Option<String>,
    pub doc_no: Option<String>,
}

/// Filters of the renewals list.
#[derive(Debug, Clone)]
pub struct RenewalFilter {
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// module or contract; None: both.
    pub kind: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
    /// A staff user's book; None: every book.
    pub book: Option<String>,
}

impl RenewalFilter {
    fn wants(&self, kind: &str) -> bool {
        self.kind.as_deref().is_none_or(|k| k == kind)
    }

    /// ?1 from, ?2 to, ?3 the book, ?4 the name pattern (NULL: any).
    fn values(&self) -> [Value; 4] {
        let pattern = self
            .q
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .map_or(Value::Null, like_contains);
        [
            Value::Text(self.from.to_string()),
            Value::Text(self.to.to_string()),
            self.book.clone().map_or(Value::Null, Value::Text),
            pattern,
        ]
    }
}

/// A subscription up for renewal from `?1` to `?2`, over `client_module cm JOIN client c`: active,
/// its next renewal in the range, its client not lost. The renewals list and the daily scan's
/// `renewal_due` ladder both read it.
pub const MODULE_DUE: &str = "cm.active = 1 AND cm.next_renewal BETWEEN ?1 AND ?2 AND c.status <> 'lost'";

/// A service contract up for renewal from `?1` to `?2`, over `service_contract sc JOIN client
/// c`: its period ends in the range, its client not lost (the list and the `amc_expiring` ladder).
pub const CONTRACT_DUE: &str = "sc.period_to BETWEEN ?1 AND ?2 AND c.status <> 'lost'";

/// The newest live renewal proforma of the subscription `cm`: a PROFORMA that
/// `POST /api/client-modules/{id}/renewal-quote` made (source `module_renewal`) for its client
/// with a line of its module, still a draft or issued (not cancelled, not converted: converting
/// makes it `invoiced`). A document names no subscription, so the client and the module find it.
pub const LIVE_RENEWAL_PROFORMA: &str = "SELECT p.id FROM document p
     WHERE p.client_id = cm.client_id AND p.type = 'PROFORMA' AND p.source = 'module_renewal'
       AND p.status IN ('draft', 'issued')
       AND EXISTS (SELECT 1 FROM document_line l WHERE l.document_id = p.id AND l.module_id = cm.module_id)
     ORDER BY p.created_at DESC, p.id DESC LIMIT 1";

/// The subscriptions with their client and module, as the list reads them.
const MODULES: &str =
    "client_module cm JOIN client c ON c.id = cm.client_id JOIN module m ON m.id = cm.module_id";

/// The subscriptions a filter selects (its values as `RenewalFilter::values` binds them).
fn modules_selected() -> String {
    format!(
        "{MODULE_DUE} AND {} AND (?4 IS NULL OR c.name LIKE ?4 ESCAPE '\\')",
        book::owner_is("c", "?3")
    )
}

/// How many subscriptions of each module renew on each day from `from` to `to` in `book` (None:
/// every book), as `MODULE_DUE` selects them: read from the counts migrations/V29 keeps
/// (`renewal_due`), so the tiles price each module and day once without reading a subscription.
pub fn module_dues(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    book: Option<&str>,
) -> Result<Vec<(String, String, i64)>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT module_id, due_on, SUM(n) FROM renewal_due
          WHERE due_on BETWEEN ?1 AND ?2 AND (?3 IS NULL OR owner_id = ?3)
          GROUP BY module_id, due_on HAVING SUM(n) <> 0",
    )?;
    let rows = stmt
        .query_map(params![from.to_string(), to.to_string(), book], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// How many service contracts `CONTRACT_DUE` selects from `from` to `to` in `book`, and their
/// amounts (paise).
pub fn contract_dues(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    book: Option<&str>,
) -> Result<(i64, i64), AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT COUNT(*), COALESCE(SUM(sc.amount), 0) FROM service_contract sc JOIN client c ON c.id = sc.client_id
              WHERE {CONTRACT_DUE} AND {}",
            book::owner_is("c", "?3")
        ))?
        .query_row(params![from.to_string(), to.to_string(), book], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?)
}

/// The subscriptions `filter` selects; with `first`, only the first that many by day and id.
pub fn modules(
    conn: &Connection,
    filter: &RenewalFilter,
    first: Option<i64>,
) -> Result<Vec<ModuleRenewal>, AppError> {
    if !filter.wants("module") {
        return Ok(vec![]);
    }
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT cm.id, cm.client_id, c.name, cm.module_id, m.name, cm.edition, cm.next_renewal,
                d.id, d.doc_no, d.status
         FROM {MODULES} LEFT JOIN document d ON d.id = ({LIVE_RENEWAL_PROFORMA})
         WHERE {}{}",
        modules_selected(),
        first_by("cm.next_renewal, cm.id", first)
    ))?;
    let rows = stmt
        .query_map(params_of(filter, first), |r| {
            Ok(ModuleRenewal {
                id: r.get(0)?,
                client_id: r.get(1)?,
                client_name: r.get(2)?,
                module_id: r.get(3)?,
                module_name: r.get(4)?,
                edition: r.get(5)?,
                due_on: r.get(6)?,
                renewal_document: match r.get::<_, Option<String>>(7)? {
                    Some(id) => Some(RenewalDocument {
                        id,
                        doc_no: r.get(8)?,
                        status: r.get(9)?,
                    }),
                    None => None,
                },
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// The contracts `filter` selects; with `first`, only the first that many by day and id.
pub fn contracts(
    conn: &Connection,
    filter: &RenewalFilter,
    first: Option<i64>,
) -> Result<Vec<ContractRenewal>, AppError> {
    if !filter.wants("contract") {
        return Ok(vec![]);
    }
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT sc.id, sc.client_id, c.name, sc.description, sc.period_to, sc.amount, d.id, d.doc_no
         FROM service_contract sc JOIN client c ON c.id = sc.client_id
              LEFT JOIN document d ON d.id = sc.renewal_invoice_id AND d.status <> 'cancelled'
         WHERE {CONTRACT_DUE} AND {}
           AND (?4 IS NULL OR c.name LIKE ?4 ESCAPE '\\'){}",
        book::owner_is("c", "?3"),
        first_by("sc.period_to, sc.id", first)
    ))?;
    let rows = stmt
        .query_map(params_of(filter, first), |r| {
            Ok(ContractRenewal {
                id: r.get(0)?,
                client_id: r.get(1)?,
                client_name: r.get(2)?,
                description: r.get(3)?,
                due_on: r.get(4)?,
                amount: r.get(5)?,
                document_id: r.get(6)?,
                doc_no: r.get(7)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// ` ORDER BY {order} LIMIT ?5` when only the `first` rows are wanted.
fn first_by(order: &str, first: Option<i64>) -> String {
    first.map_or_else(String::new, |_| format!(" ORDER BY {order} LIMIT ?5"))
}

fn params_of(filter: &RenewalFilter, first: Option<i64>) -> rusqlite::ParamsFromIter<Vec<Value>> {
    let mut values = filter.values().to_vec();
    values.extend(first.map(Value::Integer));
    rusqlite::params_from_iter(values)
}
