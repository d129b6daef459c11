//! The SQL of cloud cost usage: the `cloud_cost` rows (migrations/V17: one per client and
//! month, upserted), the list and its CSV twin, the ranking's sums, and whether a month was
//! pulled (the pull's own audit row).

use crate::book;
use crate::cloud_costs::rules::Ranked;
use crate::plumbing::clock::Month;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, Plan, starts_with};
use crate::plumbing::error::AppError;
use crate::revenue::rules::Months;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

/// How a cost came in.
pub const MANUAL: &str = "manual";
pub const PULL: &str = "pull";

/// The audit entity of a pull (one row per pull, its `entity_id` the month): the record that
/// a month was pulled, which the monthly job reads.
pub const PULL_ENTITY: &str = "cloud_cost_pull";

/// One client's cost of one month.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CloudCostRow {
    pub client_id: String,
    pub client_name: String,
    /// YYYY-MM.
    pub month: String,
    /// Paise, before GST.
    pub amount: i64,
    /// manual (entered in the console or through the API) or pull (the provider's report).
    pub source: String,
    /// The employee who entered it, or who ran the pull (null: the monthly job).
    pub updated_by: Option<String>,
    pub updated_at: String,
}

const COLUMNS: &str = "cc.client_id, c.name, cc.month, cc.amount, cc.source, cc.updated_by, cc.updated_at";
const FROM: &str = "cloud_cost cc JOIN client c ON c.id = cc.client_id";
/// Every filter is on the cost rows themselves (a name or a book through the client's id), so
/// the total is counted without the join.
const COUNTED_IN: &str = "cloud_cost cc";

fn row(r: &Row<'_>) -> rusqlite::Result<CloudCostRow> {
    Ok(CloudCostRow {
        client_id: r.get(0)?,
        client_name: r.get(1)?,
        month: r.get(2)?,
        amount: r.get(3)?,
        source: r.get(4)?,
        updated_by: r.get(5)?,
        updated_at: r.get(6)?,
    })
}

/// Filters of the list.
#[derive(Debug, Default, Clone)]
pub struct CostFilter {
    pub month: Option<Month>,
    pub client_id: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
    /// manual or pull.
    pub source: Option<String>,
    /// A staff user's book; None: every client.
    pub book: Option<String>,
}

/// The sort columns of the list (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("month", "cc.month"),
    ("amount", "cc.amount"),
    ("client_name", "c.name COLLATE NOCASE"),
    ("source", "cc.source"),
    ("updated_at", "cc.updated_at"),
];

/// The list of costs: the latest month first, the costliest first within a month (the order of
/// the `cloud_cost_month` index, which holds the client id as its last column); a page of it
/// or every row for the CSV twin. A row's "id" (ties, the sync cursor) is `client_id/month`.
pub fn list(filter: CostFilter) -> Listing<CloudCostRow> {
    let mut f = Filter::default();
    if let Some(q) = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        let (range, values) = starts_with("suffix", q);
        f.and(
            &format!("cc.client_id IN (SELECT client_id FROM client_name_search WHERE {range})"),
            values,
        );
    }
    f.eq("cc.month", filter.month.map(|m| m.to_string()))
        .eq("cc.client_id", filter.client_id)
        .eq("cc.source", filter.source);
    book::narrow(&mut f, "cc.client_id", filter.book);
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: FROM,
        order_by: "cc.month DESC, cc.amount DESC, cc.client_id DESC",
        id_column: "(cc.client_id || '/' || cc.month)",
        sorts: SORTS,
    };
    Listing::new(query, f, row).with_plan(Plan {
        count_in: Some(COUNTED_IN),
        ..Plan::default()
    })
}

/// The row of `client_id` and `month`, if there is one.
pub fn get(conn: &Connection, client_id: &str, month: Month) -> Result<Option<CloudCostRow>, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM {FROM} WHERE cc.client_id = ?1 AND cc.month = ?2"
        ))?
        .query_row(params![client_id, month.to_string()], row)
        .optional()?)
}

/// The stored amount and source of `client_id`'s `month`, if any.
pub fn stored(conn: &Connection, client_id: &str, month: Month) -> Result<Option<(i64, String)>, AppError> {
    Ok(conn
        .prepare_cached("SELECT amount, source FROM cloud_cost WHERE client_id = ?1 AND month = ?2")?
        .query_row(params![client_id, month.to_string()], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?)
}

/// Writes `client_id`'s cost of `month`: the one row of that client and month, replaced when
/// it is there.
pub fn upsert(
    tx: &Connection,
    client_id: &str,
    month: Month,
    amount: i64,
    source: &str,
    user_id: Option<&str>,
) -> Result<(), AppError> {
    tx.prepare_cached(
        "INSERT INTO cloud_cost (client_id, month, amount, source, updated_by, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (client_id, month) DO UPDATE
            SET amount = excluded.amount, source = excluded.source,
                updated_by = excluded.updated_by, updated_at = excluded.updated_at",
    )?
    .execute(params![
        client_id,
        month.to_string(),
        amount,
        source,
        user_id,
        crate::plumbing::clock::now_timestamp()
    ])?;
    Ok(())
}

/// Whether the client `id` exists and is in `book` (None: every book).
pub fn client_in_book(conn: &Connection, id: &str, book: Option<&str>) -> Result<bool, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT EXISTS (SELECT 1 FROM client c WHERE c.id = ?1 AND {})",
            book::owner_is("c", "?2")
        ))?
        .query_row(params![id, book], |r| r.get(0))?)
}

/// Every client of `book` with a cost in `from..=to`: its total and how many months had one.
///
/// Summed per client from the financial years the range covers (`client_year`, migrations/V30)
/// and the months at its edges (`cloud_cost`), as `Months::by_year` splits it: the last twelve
/// months read one row per client of the year to date and a quarter's months of the year
/// before, instead of twelve months of rows grouped in a sorter.
pub fn ranking(
    conn: &Connection,
    from: Month,
    to: Month,
    book: Option<&str>,
) -> Result<Vec<Ranked>, AppError> {
    let pieces = Months { from, to }.by_year();
    // total, months.
    let mut sums: HashMap<String, [i64; 2]> = HashMap::new();
    let mut add = |client: &str, total: i64, months: i64| {
        let sum = match sums.get_mut(client) {
            Some(s) => s,
            None => sums.entry(client.to_string()).or_default(),
        };
        sum[0] += total;
        sum[1] += months;
    };
    let mut years = conn.prepare_cached(
        "SELECT client_id, cost, cost_months FROM client_year WHERE fy = ?1 AND cost_months <> 0",
    )?;
    for fy in &pieces.years {
        let mut rows = years.query([fy.start])?;
        while let Some(r) = rows.next()? {
            add(text(r, 0)?, r.get(1)?, r.get(2)?);
        }
    }
    let mut months = conn.prepare_cached(
        "SELECT client_id, amount FROM cloud_cost INDEXED BY cloud_cost_month WHERE month BETWEEN ?1 AND ?2",
    )?;
    for (range, sign) in pieces.edges() {
        let mut rows = months.query(params![range.from_text(), range.to_text()])?;
        while let Some(r) = rows.next()? {
            let amount: i64 = r.get(1)?;
            add(text(r, 0)?, sign * amount, sign);
        }
    }
    let mut names = conn.prepare_cached(&format!(
        "SELECT c.id, c.name FROM client c INDEXED BY client_id_name WHERE {}",
        book::owner_is("c", "?1")
    ))?;
    let mut clients = names.query([book])?;
    let mut out = vec![];
    while let Some(r) = clients.next()? {
        let Some(&[total, months]) = sums.get(text(r, 0)?) else {
            continue;
        };
        if months > 0 {
            out.push(Ranked {
                client_id: r.get(0)?,
                client_name: r.get(1)?,
                total,
                months,
                average: crate::cloud_costs::rules::average(total, months),
            });
        }
    }
    Ok(out)
}

/// Whether a pull of `month` has been recorded (by the route or the job).
pub fn pulled(conn: &Connection, month: Month) -> Result<bool, AppError> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM audit WHERE entity = ?1 AND entity_id = ?2)")?
        .query_row(params![PULL_ENTITY, month.to_string()], |r| r.get(0))?)
}

/// The client ids among `ids` that exist.
pub fn known_clients(conn: &Connection, ids: &[&str]) -> Result<std::collections::HashSet<String>, AppError> {
    let mut stmt = conn.prepare_cached("SELECT id FROM client WHERE id = ?1")?;
    let mut known = std::collections::HashSet::new();
    for id in ids {
        if let Some(found) = stmt
            .query_row([Value::Text((*id).to_string())], |r| r.get::<_, String>(0))
            .optional()?
        {
            known.insert(found);
        }
    }
    Ok(known)
}

/// The text in column `i` of `row`, borrowed.
fn text<'r>(row: &'r Row, i: usize) -> rusqlite::Result<&'r str> {
    row.get_ref(i)?
        .as_str()
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e)))
}
