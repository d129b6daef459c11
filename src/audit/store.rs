//! The SQL of the audit viewer: filtered, newest first, with an honest total. Reading writes nothing.

use crate::db::query::{Filter, ListQuery, Listing, Plan, Tally};
use crate::error::AppError;
use rusqlite::{Connection, Row};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct AuditRow {
    pub id: String,
    pub at: String,
    pub user_id: Option<String>,
    pub user_name: Option<String>,
    pub entity: String,
    pub entity_id: Option<String>,
    pub action: String,
    /// Any JSON: an object, a list or a single value, or null.
    pub before: Option<Value>,
    /// Any JSON, as `before`.
    pub after: Option<Value>,
}

/// Filters of the viewer; `from` and `to` are UTC timestamps bounding `at`.
#[derive(Default)]
pub struct AuditFilter {
    pub entity: Option<String>,
    pub action: Option<String>,
    pub user_id: Option<String>,
    pub entity_id: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// The audit tally's columns (migrations/V7), by the names the filters use.
static TALLY: Tally = Tally {
    table: "audit_tally",
    columns: &[
        ("a.entity", "entity"),
        ("a.action", "action"),
        ("a.user_id", "user_id"),
    ],
};

/// What the audit list may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("at", "a.at"),
    (
        "user_name",
        "(SELECT name FROM staff WHERE id = a.user_id) COLLATE NOCASE",
    ),
    ("entity", "a.entity"),
    ("action", "a.action"),
    ("entity_id", "a.entity_id"),
];

/// The audit trail, newest first: a page, or every row for the CSV twin.
pub fn list(filter: AuditFilter) -> Listing<AuditRow> {
    let mut f = Filter::default();
    f.eq("a.entity", filter.entity)
        .eq("a.action", filter.action)
        .eq("a.user_id", filter.user_id)
        .eq("a.entity_id", filter.entity_id);
    if let Some(from) = filter.from {
        f.and("a.at >= ?", [from.into()]);
    }
    if let Some(to) = filter.to {
        f.and("a.at < ?", [to.into()]);
    }
    let query = ListQuery {
        columns: "a.id, a.at, a.user_id, s.name, a.entity, a.entity_id, a.action, a.before, a.after".into(),
        from: "audit a LEFT JOIN staff s ON s.id = a.user_id",
        order_by: "a.id DESC",
        id_column: "a.id",
        sorts: SORTS,
    };
    let plan = Plan {
        find_in: Some("audit a"),
        tally: Some(&TALLY),
        count_in: None,
    };
    let image = |text: Option<String>| text.and_then(|t| serde_json::from_str(&t).ok());
    let row = move |r: &Row<'_>| {
        Ok(AuditRow {
            id: r.get(0)?,
            at: r.get(1)?,
            user_id: r.get(2)?,
            user_name: r.get(3)?,
            entity: r.get(4)?,
            entity_id: r.get(5)?,
            action: r.get(6)?,
            before: image(r.get(7)?),
            after: image(r.get(8)?),
        })
    };
    Listing::new(query, f, row).with_plan(plan)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FacetUser {
    pub id: String,
    pub name: String,
}

/// The values present for each filter.
#[derive(Debug, Serialize, ToSchema)]
pub struct Facets {
    pub entities: Vec<String>,
    pub actions: Vec<String>,
    pub users: Vec<FacetUser>,
}

pub fn facets(conn: &Connection) -> Result<Facets, AppError> {
    let strings = |sql: &str| -> Result<Vec<String>, AppError> {
        let mut stmt = conn.prepare(sql)?;
        Ok(stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?)
    };
    // From the tally (a few hundred rows) rather than the trail: a DISTINCT over the audit
    // indexes walks every one of a large office's 900k entries.
    let entities = strings("SELECT DISTINCT entity FROM audit_tally WHERE n > 0 ORDER BY entity")?;
    let actions = strings("SELECT DISTINCT action FROM audit_tally WHERE n > 0 ORDER BY action")?;
    let mut stmt = conn.prepare(
        "SELECT s.id, s.name FROM staff s WHERE EXISTS (SELECT 1 FROM audit_tally t WHERE t.user_id = s.id AND t.n > 0) \
         ORDER BY s.name COLLATE NOCASE",
    )?;
    let users = stmt
        .query_map([], |r| {
            Ok(FacetUser {
                id: r.get(0)?,
                name: r.get(1)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Facets {
        entities,
        actions,
        users,
    })
}
