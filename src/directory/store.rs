//! The SQL of the portals list and the module data directory. Neither selects
//! `client_module.password` (only whether one is stored) nor `client_module.secrets`.

use crate::book;
use crate::catalog::rules::FieldDef;
use crate::directory::rules;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, Plan, like_contains, starts_with};
use crate::plumbing::error::AppError;
use rusqlite::types::Value;
use rusqlite::{Connection, params};
use serde::Serialize;
use serde_json::Map;
use utoipa::ToSchema;

/// A client module's portal login, without its password.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PortalLogin {
    pub client_module_id: String,
    pub client_id: String,
    pub client_name: String,
    pub module_id: String,
    pub module_code: String,
    pub module_name: String,
    pub provider: Option<String>,
    pub username: Option<String>,
    /// The subscription's flag, 0 or 1.
    pub active: i64,
    /// A password is stored (revealed only through `POST /api/client-modules/{id}/reveal-password`).
    #[serde(rename = "hasPassword")]
    pub has_password: bool,
}

/// Filters of the portals list.
#[derive(Debug, Default, Clone)]
pub struct PortalFilter {
    pub module_id: Option<String>,
    /// The provider, whole, ignoring case.
    pub provider: Option<String>,
    /// Part of the client's name or of the username.
    pub q: Option<String>,
    pub active: Option<i64>,
    /// A staff user's book (None: every book).
    pub book: Option<String>,
}

/// Whether a password is stored that can be read (a leftover legacy-encrypted one cannot).
const HAS_PASSWORD: &str =
    "(cm.password IS NOT NULL AND cm.password <> '' AND substr(cm.password, 1, 4) <> 'enc:')";
const PORTAL_FROM: &str =
    "client_module cm JOIN client c ON c.id = cm.client_id JOIN module m ON m.id = cm.module_id";
/// A portal: a provider or a username that is not blank. (`IS NOT NULL` first: most
/// subscriptions have neither, and the test then costs no call; 2 ms instead of 3 over the
/// large office's 21,865 subscriptions.)
const HAS_PORTAL: &str = "((cm.provider IS NOT NULL AND trim(cm.provider) <> '') \
     OR (cm.username IS NOT NULL AND trim(cm.username) <> ''))";

/// What the portals list may be sorted by (decisions 10).
const PORTAL_SORTS: &[(&str, &str)] = &[
    ("client_name", "c.name COLLATE NOCASE"),
    ("module_code", "m.code"),
    ("module_name", "m.name COLLATE NOCASE"),
    ("provider", "cm.provider COLLATE NOCASE"),
    ("username", "cm.username COLLATE NOCASE"),
    ("active", "cm.active"),
];

/// `q` as part of the client's name (its suffix table) or of `other` (by LIKE).
fn name_or(f: &mut Filter, q: &str, other: Option<&str>) {
    let (range, mut values) = starts_with("suffix", q);
    let mut clause = format!("cm.client_id IN (SELECT client_id FROM client_name_search WHERE {range})");
    if let Some(column) = other {
        clause.push_str(&format!(" OR {column} LIKE ? ESCAPE '\\'"));
        values.push(like_contains(q));
    }
    f.and(&clause, values);
}

/// The portals list by client and module name: a page, or every row for the CSV twin.
pub fn portals(filter: PortalFilter) -> Listing<PortalLogin> {
    let mut f = Filter::default();
    f.and(HAS_PORTAL, []);
    f.eq("cm.module_id", filter.module_id);
    f.eq("cm.active", filter.active);
    if let Some(provider) = filter.provider {
        f.and("trim(cm.provider) = ? COLLATE NOCASE", [Value::Text(provider)]);
    }
    if let Some(q) = filter.q.as_deref() {
        name_or(&mut f, q, Some("cm.username"));
    }
    book::narrow(&mut f, "cm.client_id", filter.book);
    let query = ListQuery {
        columns: format!(
            "cm.id, c.id, c.name, m.id, m.code, m.name, cm.provider, cm.username, cm.active, {HAS_PASSWORD}"
        )
        .into(),
        from: PORTAL_FROM,
        order_by: "c.name COLLATE NOCASE, m.name COLLATE NOCASE, cm.id",
        id_column: "cm.id",
        sorts: PORTAL_SORTS,
    };
    // Every filter names the client module alone: it is counted without the joins.
    let plan = Plan {
        count_in: Some("client_module cm"),
        ..Plan::default()
    };
    Listing::new(query, f, |r| {
        Ok(PortalLogin {
            client_module_id: r.get(0)?,
            client_id: r.get(1)?,
            client_name: r.get(2)?,
            module_id: r.get(3)?,
            module_code: r.get(4)?,
            module_name: r.get(5)?,
            provider: r.get(6)?,
            username: r.get(7)?,
            active: r.get(8)?,
            has_password: r.get(9)?,
        })
    })
    .with_plan(plan)
}

/// The providers of the portals in the book, each once (as first written), by name.
pub fn providers(conn: &Connection, book: Option<&str>) -> Result<Vec<String>, AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT MIN(trim(cm.provider)) FROM client_module cm
         WHERE cm.provider IS NOT NULL AND trim(cm.provider) <> '' AND {}
         GROUP BY trim(cm.provider) COLLATE NOCASE ORDER BY 1 COLLATE NOCASE LIMIT 500",
        book::client_is_in("cm.client_id", "?1")
    ))?;
    let rows = stmt
        .query_map(params![book], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// A row of the module data directory: one subscription and its field values.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ModuleDataRow {
    pub client_module_id: String,
    pub client_id: String,
    pub client_name: String,
    /// The subscription's flag, 0 or 1.
    pub active: i64,
    /// The value of each key of the module's field spec (`columns`), null where none is set.
    #[schema(value_type = Object)]
    pub values: Map<String, serde_json::Value>,
}

/// Filters of the module data directory.
#[derive(Debug, Clone)]
pub struct ModuleDataFilter {
    pub module_id: String,
    /// Part of the client's name.
    pub q: Option<String>,
    pub active: Option<i64>,
    /// A staff user's book (None: every book).
    pub book: Option<String>,
}

const MODULE_DATA_SORTS: &[(&str, &str)] =
    &[("client_name", "c.name COLLATE NOCASE"), ("active", "cm.active")];

/// The subscriptions of one module by client name, their values on `spec`'s keys: a page, or
/// every row for the CSV twin.
pub fn module_data(filter: ModuleDataFilter, spec: Vec<FieldDef>) -> Listing<ModuleDataRow> {
    let mut f = Filter::default();
    f.eq("cm.module_id", Some(filter.module_id));
    f.eq("cm.active", filter.active);
    if let Some(q) = filter.q.as_deref() {
        name_or(&mut f, q, None);
    }
    book::narrow(&mut f, "cm.client_id", filter.book);
    let query = ListQuery {
        columns: "cm.id, c.id, c.name, cm.active, cm.field_values".into(),
        from: "client_module cm JOIN client c ON c.id = cm.client_id",
        order_by: "c.name COLLATE NOCASE, cm.id",
        id_column: "cm.id",
        sorts: MODULE_DATA_SORTS,
    };
    let plan = Plan {
        count_in: Some("client_module cm"),
        ..Plan::default()
    };
    Listing::new(query, f, move |r| {
        let stored: String = r.get(4)?;
        Ok(ModuleDataRow {
            client_module_id: r.get(0)?,
            client_id: r.get(1)?,
            client_name: r.get(2)?,
            active: r.get(3)?,
            values: rules::values_in_spec(&stored, &spec),
        })
    })
    .with_plan(plan)
}
