//! The SQL of the audit viewer: filtered, newest first, with an honest total. Reading writes nothing.

use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::query::{Filter, ListQuery, Listing, Plan, Tally};
use crate::plumbing::error::AppError;
use rusqlite::{Connection, Row};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct AuditRow {
    pub id: String,
    pub at: String,
    pub user_id: Option<String>,
    pub user_name: Option<String>,
    pub entity: String,
    pub entity_id: Option<String>,
    /// What a person calls the record today (a client's name, a document's number); null when
    /// it is gone or has no name.
    pub entity_label: Option<String>,
    pub action: String,
    /// Any JSON: an object, a list or a single value, or null.
    pub before: Option<Value>,
    /// Any JSON, as `before`.
    pub after: Option<Value>,
    /// The records this row names, by id: its own and every id under a `client_id`,
    /// `payment_id`, `owner_id`… key of its images. Filled on a page, empty in the CSV.
    pub refs: BTreeMap<String, AuditRef>,
}

/// A record named by an audit row, as the console links it: `entity` and `id` are the record
/// to open (a contact opens its client), `label` what to show.
#[derive(Debug, Serialize, ToSchema, Clone)]
pub struct AuditRef {
    pub entity: String,
    pub id: String,
    pub label: String,
}

/// How a record of an audited entity is named and which record the console opens for it.
struct Named {
    entity: &'static str,
    /// The table as `x`, with any join the label needs.
    from: &'static str,
    label: &'static str,
    link: &'static str,
    link_id: &'static str,
}

const NAMED: &[Named] = &[
    Named {
        entity: "client",
        from: "client x",
        label: "x.name",
        link: "client",
        link_id: "x.id",
    },
    Named {
        entity: "document",
        from: "document x",
        label: "COALESCE(x.doc_no, 'Draft ' || replace(lower(x.type), '_', ' '))",
        link: "document",
        link_id: "x.id",
    },
    Named {
        entity: "payment",
        from: "payment x",
        label: "x.receipt_no",
        link: "payment",
        link_id: "x.id",
    },
    Named {
        entity: "staff",
        from: "staff x",
        label: "x.name",
        link: "staff",
        link_id: "x.id",
    },
    Named {
        entity: "module",
        from: "module x",
        label: "x.name",
        link: "module",
        link_id: "x.id",
    },
    Named {
        entity: "client_module",
        from: "client_module x JOIN client c ON c.id = x.client_id JOIN module m ON m.id = x.module_id",
        label: "m.name || ' for ' || c.name",
        link: "client_module",
        link_id: "x.id",
    },
    Named {
        entity: "contact",
        from: "contact x JOIN client c ON c.id = x.client_id",
        label: "x.name || ' (' || c.name || ')'",
        link: "client",
        link_id: "x.client_id",
    },
    Named {
        entity: "branch",
        from: "branch x JOIN client c ON c.id = x.client_id",
        label: "x.name || ' (' || c.name || ')'",
        link: "client",
        link_id: "x.client_id",
    },
    Named {
        entity: "document_share",
        from: "document_share x JOIN document d ON d.id = x.document_id",
        label: "'Share link of ' || COALESCE(d.doc_no, 'a draft')",
        link: "document",
        link_id: "x.document_id",
    },
];

/// The entity whose id an image holds under `key`.
fn key_entity(key: &str) -> Option<&'static str> {
    Some(match key {
        "client_id" => "client",
        "owner_id" | "user_id" | "staff_id" | "created_by" | "set_by" | "cancelled_by" => "staff",
        "document_id" | "parent_id" | "child_id" | "replaced_by" | "invoice" => "document",
        "payment_id" => "payment",
        "module_id" => "module",
        "client_module_id" | "project_id" => "client_module",
        "contact_id" => "contact",
        "branch_id" => "branch",
        _ => return None,
    })
}

const COLUMNS: &str = "a.id, a.at, a.user_id, s.name, a.entity, a.entity_id, a.action, a.before, a.after";

/// The columns with the record's label read beside them, one keyed lookup per row: for the CSV,
/// which streams row by row (a page names its records in one lookup per entity, [`page`]).
static LABELLED: LazyLock<String> = LazyLock::new(|| {
    let cases: String = NAMED
        .iter()
        .map(|n| {
            format!(
                " WHEN '{}' THEN (SELECT {} FROM {} WHERE x.id = a.entity_id)",
                n.entity, n.label, n.from
            )
        })
        .collect();
    format!("{COLUMNS}, CASE a.entity{cases} END")
});

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

/// The audit trail, newest first, every row with its record's label (the CSV twin).
pub fn labelled(filter: AuditFilter) -> Listing<AuditRow> {
    let mut listing = list(filter);
    listing.query.columns = LABELLED.as_str().into();
    listing
}

/// The audit trail, newest first (its labels left to [`page`] or [`labelled`]).
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
        columns: format!("{COLUMNS}, NULL").into(),
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
            entity_label: r.get(9)?,
            action: r.get(6)?,
            before: image(r.get(7)?),
            after: image(r.get(8)?),
            refs: BTreeMap::new(),
        })
    };
    Listing::new(query, f, row).with_plan(plan)
}

/// One page of the trail with the records each row names ([`AuditRow::refs`]) and its own label.
pub fn page(conn: &Connection, filter: AuditFilter, page: &Page) -> Result<Paginated<AuditRow>, AppError> {
    let mut rows = list(filter).page(conn, page)?;
    name_refs(conn, &mut rows.rows)?;
    for row in &mut rows.rows {
        row.entity_label = row
            .entity_id
            .as_ref()
            .and_then(|id| row.refs.get(id))
            .map(|r| r.label.clone());
    }
    Ok(rows)
}

/// Fills each row's `refs`: the ids it names, looked up once per entity for the whole page.
fn name_refs(conn: &Connection, rows: &mut [AuditRow]) -> Result<(), AppError> {
    let named: Vec<Vec<(&'static str, String)>> = rows
        .iter()
        .map(|r| {
            let mut ids = Vec::new();
            if let (Some(n), Some(id)) = (NAMED.iter().find(|n| n.entity == r.entity), &r.entity_id) {
                ids.push((n.entity, id.clone()));
            }
            for image in [&r.before, &r.after].into_iter().flatten() {
                ids_in(image, &mut ids);
            }
            ids
        })
        .collect();
    let mut wanted: HashMap<&'static str, Vec<String>> = HashMap::new();
    for (entity, id) in named.iter().flatten() {
        wanted.entry(entity).or_default().push(id.clone());
    }
    let mut found: HashMap<String, AuditRef> = HashMap::new();
    for n in NAMED {
        let Some(ids) = wanted.get_mut(n.entity) else {
            continue;
        };
        ids.sort();
        ids.dedup();
        let marks = vec!["?"; ids.len()].join(", ");
        let sql = format!(
            "SELECT x.id, {}, {} FROM {} WHERE x.id IN ({marks}) AND {} IS NOT NULL",
            n.link_id, n.label, n.from, n.label
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let refs = stmt.query_map(rusqlite::params_from_iter(ids.iter()), |r| {
            Ok((
                r.get::<_, String>(0)?,
                AuditRef {
                    entity: n.link.to_string(),
                    id: r.get(1)?,
                    label: r.get(2)?,
                },
            ))
        })?;
        for pair in refs {
            let (id, r) = pair?;
            found.insert(id, r);
        }
    }
    for (row, ids) in rows.iter_mut().zip(named) {
        row.refs = ids
            .into_iter()
            .filter_map(|(_, id)| found.get(&id).map(|r| (id, r.clone())))
            .collect();
    }
    Ok(())
}

/// Every (entity, id) held under an id-naming key, at any depth of an image.
fn ids_in(value: &Value, out: &mut Vec<(&'static str, String)>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key_entity(key), v) {
                    (Some(entity), Value::String(id)) => out.push((entity, id.clone())),
                    _ => ids_in(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| ids_in(v, out)),
        _ => {}
    }
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
