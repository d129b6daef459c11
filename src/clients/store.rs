//! The SQL of the client registry. The DB password column is read only by `db_password` and
//! never selected into a `Client`.

use crate::auth::session::AuthUser;
use crate::book;
use crate::plumbing::db::query::{
    Changes, Filter, ListQuery, Listing, Plan, insert_row, like_contains, update_columns,
};
use crate::plumbing::error::{AppError, OnConstraint};
use crate::plumbing::gstin::Gstin;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

/// A co-operative society as the API shows it: the DB password only as `hasDbPassword`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Client {
    pub id: String,
    pub name: String,
    #[schema(value_type = Option<String>)]
    pub gstin: Option<Gstin>,
    pub state_code: Option<String>,
    /// lead, active, lost or inactive.
    pub status: String,
    pub owner_id: Option<String>,
    pub owner_name: Option<String>,
    pub district: Option<String>,
    pub sector: Option<String>,
    pub remote_access_id: Option<String>,
    pub os: Option<String>,
    /// PACS or Store.
    pub client_type: String,
    pub category: String,
    pub address: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub notes: Option<String>,
    /// The society's TAN as a deductor of TDS (AAAA99999A), when known.
    pub tan: Option<String>,
    /// 194J or 194C: the section it deducts TDS under; none: `tds.default_section`.
    pub tds_section: Option<String>,
    #[serde(rename = "hasDbPassword")]
    pub has_db_password: bool,
    pub created_by: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

const COLUMNS: &str = "c.id, c.name, c.gstin, c.state_code, c.status, c.owner_id, u.name, c.district, c.sector, \
    c.remote_access_id, c.os, c.client_type, c.category, c.address, c.phone, c.email, c.notes, \
    (c.db_password IS NOT NULL AND c.db_password <> '' AND substr(c.db_password, 1, 4) <> 'enc:'), \
    c.created_by, c.created_at, c.updated_at, c.tan, c.tds_section";
const FROM: &str = "client c LEFT JOIN staff u ON u.id = c.owner_id";

fn client(r: &Row<'_>) -> rusqlite::Result<Client> {
    Ok(Client {
        id: r.get(0)?,
        name: r.get(1)?,
        gstin: r.get(2)?,
        state_code: r.get(3)?,
        status: r.get(4)?,
        owner_id: r.get(5)?,
        owner_name: r.get(6)?,
        district: r.get(7)?,
        sector: r.get(8)?,
        remote_access_id: r.get(9)?,
        os: r.get(10)?,
        client_type: r.get(11)?,
        category: r.get(12)?,
        address: r.get(13)?,
        phone: r.get(14)?,
        email: r.get(15)?,
        notes: r.get(16)?,
        has_db_password: r.get(17)?,
        created_by: r.get(18)?,
        created_at: r.get(19)?,
        updated_at: r.get(20)?,
        tan: r.get(21)?,
        tds_section: r.get(22)?,
    })
}

/// The client `id`, if it exists and is in the book `owned_by` (None: every book).
pub fn get(conn: &Connection, id: &str, owned_by: Option<&str>) -> Result<Option<Client>, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM {FROM} WHERE c.id = ?1 AND {}",
            book::owner_is("c", "?2")
        ))?
        .query_row(params![id, owned_by], client)
        .optional()?)
}

/// Filters of the client list.
#[derive(Default)]
pub struct ClientFilter {
    /// Part of the name, GSTIN or phone.
    pub q: Option<String>,
    pub district: Option<String>,
    pub sector: Option<String>,
    pub client_type: Option<String>,
    pub category: Option<String>,
    pub status: Option<String>,
    pub owner_id: Option<String>,
}

/// What the client list may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("name", "c.name COLLATE NOCASE"),
    ("category", "c.category"),
    ("client_type", "c.client_type"),
    ("district", "c.district COLLATE NOCASE"),
    ("status", "c.status"),
    (
        "owner_name",
        "(SELECT name FROM staff WHERE id = c.owner_id) COLLATE NOCASE",
    ),
    ("phone", "c.phone"),
    ("created_at", "c.created_at"),
];

/// The client book, by name: a page, or every row for the CSV twin.
pub fn list(filter: ClientFilter) -> Listing<Client> {
    let mut f = Filter::default();
    if let Some(q) = filter.q.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        let p = like_contains(q);
        f.and(
            "c.name LIKE ? ESCAPE '\\' OR c.gstin LIKE ? ESCAPE '\\' OR c.phone LIKE ? ESCAPE '\\'",
            [p.clone(), p.clone(), p],
        );
    }
    for (column, value) in [("c.district", filter.district), ("c.sector", filter.sector)] {
        if let Some(v) = value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
            f.and(&format!("{column} LIKE ? ESCAPE '\\'"), [like_contains(v)]);
        }
    }
    f.eq("c.client_type", filter.client_type)
        .eq("c.category", filter.category)
        .eq("c.status", filter.status);
    match filter.owner_id.as_deref() {
        Some("none") => {
            f.and("c.owner_id IS NULL", []);
        }
        _ => {
            f.eq("c.owner_id", filter.owner_id);
        }
    }
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: FROM,
        order_by: "c.name COLLATE NOCASE, c.id",
        id_column: "c.id",
        sorts: SORTS,
    };
    // Filters name only the client, so the page is found without the owner join.
    let plan = Plan {
        find_in: Some("client c"),
        ..Plan::default()
    };
    Listing::new(query, f, client).with_plan(plan)
}

/// Inserts a client with validated fields; answers it.
pub fn insert(tx: &Connection, mut fields: Changes, created_by: &str) -> Result<Client, AppError> {
    fields.push(("created_by", Value::Text(created_by.to_string())));
    let id = insert_row(tx, "client", fields).on_unique("gstin", EXACT_DUPLICATE)?;
    get(tx, &id, None)?.ok_or_else(|| AppError::internal("inserted client vanished"))
}

/// Indexes the names of the clients `ids` for substring search in one insert, in key order:
/// what the `client_name_search_insert` trigger does row by row (while search is deferred).
pub fn index_names(tx: &Connection, ids: &[String]) -> Result<(), AppError> {
    tx.prepare_cached(
        "INSERT INTO client_name_search (suffix, client_id)
           SELECT lower(substr(c.name, p.n)), c.id FROM json_each(?1) j JOIN client c ON c.id = j.value
             CROSS JOIN search_position p
            WHERE p.n <= length(c.name) ORDER BY 1, 2",
    )?
    .execute([serde_json::to_string(ids)?])?;
    Ok(())
}

/// Applies validated column changes to a client.
pub fn update(tx: &Connection, id: &str, changes: Changes) -> Result<(), AppError> {
    update_columns(tx, "client", id, changes).on_unique("gstin", EXACT_DUPLICATE)?;
    Ok(())
}

/// A GSTIN may be shared (a society and the store it runs), but not by two clients of one name.
const EXACT_DUPLICATE: &str = "A client of this name already has this GSTIN.";

/// Another client under the same GSTIN.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SameGstin {
    pub id: String,
    pub name: String,
}

/// The other clients with `gstin` than `id` in `book` (None: every book), by name. Those
/// outside the book are neither named nor counted: even "another client" would tell a staff
/// user that some other book holds the registration.
pub fn same_gstin(
    conn: &Connection,
    id: &str,
    gstin: &str,
    book: Option<&str>,
) -> Result<Vec<SameGstin>, AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT c.id, c.name FROM client c WHERE c.gstin = ?1 AND c.id <> ?2 AND {}
         ORDER BY c.name COLLATE NOCASE, c.id",
        book::owner_is("c", "?3")
    ))?;
    let clients = stmt
        .query_map(params![gstin, id, book], |r| {
            Ok(SameGstin {
                id: r.get(0)?,
                name: r.get(1)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(clients)
}

/// The stored DB password (None when the client does not exist).
pub fn db_password(conn: &Connection, id: &str) -> Result<Option<Option<String>>, AppError> {
    Ok(conn
        .query_row("SELECT db_password FROM client WHERE id = ?1", [id], |r| r.get(0))
        .optional()?)
}

/// Values present in the registry, for the console's filter pickers.
pub fn distinct_values(conn: &Connection, column: &str) -> Result<Vec<String>, AppError> {
    let mut stmt = conn.prepare(&format!(
        "SELECT DISTINCT {column} FROM client WHERE {column} IS NOT NULL AND {column} <> '' ORDER BY {column} COLLATE NOCASE LIMIT 500"
    ))?;
    let values = stmt
        .query_map([], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(values)
}

/// Where a document for the client is emailed: a contact with an email, the roles accounts,
/// accountant and secretary first (then the oldest contact), else the client's own email.
pub fn email_recipient(conn: &Connection, client_id: &str) -> Result<Option<String>, AppError> {
    // A contact whose mail bounces comes last, after the client's own address.
    let contact = |bouncing: i64| -> Result<Option<String>, AppError> {
        Ok(conn
            .prepare_cached(
                "SELECT email FROM contact WHERE client_id = ?1 AND trim(COALESCE(email, '')) <> '' AND email_bouncing = ?2
                 ORDER BY CASE lower(trim(COALESCE(role, ''))) WHEN 'accounts' THEN 0 WHEN 'accountant' THEN 0
                     WHEN 'secretary' THEN 1 ELSE 2 END, id LIMIT 1",
            )?
            .query_row(params![client_id, bouncing], |r| r.get::<_, String>(0))
            .optional()?
            .map(|e| e.trim().to_string()))
    };
    if let Some(email) = contact(0)? {
        return Ok(Some(email));
    }
    let own: Option<String> = conn
        .query_row("SELECT email FROM client WHERE id = ?1", [client_id], |r| {
            r.get(0)
        })
        .optional()?
        .flatten();
    match own.map(|e| e.trim().to_string()).filter(|e| !e.is_empty()) {
        Some(email) => Ok(Some(email)),
        None => contact(1),
    }
}

/// Whether mail to `address` has bounced (a contact with it is flagged).
pub fn address_bouncing(conn: &Connection, address: &str) -> Result<bool, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM contact WHERE lower(trim(email)) = lower(trim(?1)) AND email_bouncing = 1)",
        )?
        .query_row([address], |r| r.get(0))?)
}

/// Who is behind an email address: a contact of a client, or the client itself.
pub struct Addressee {
    pub client_id: String,
    /// None: the client's own address.
    pub contact_id: Option<String>,
    /// The client's account owner.
    pub owner_id: Option<String>,
}

/// Flags every contact whose email is `address` as bouncing (since `at`), and answers who is
/// behind the address: each such contact, and each client whose own email it is.
pub fn flag_bouncing(tx: &Connection, address: &str, at: &str) -> Result<Vec<Addressee>, AppError> {
    tx.prepare_cached(
        "UPDATE contact SET email_bouncing = 1, bounced_at = ?2
         WHERE lower(trim(email)) = lower(trim(?1)) AND email_bouncing = 0",
    )?
    .execute(params![address, at])?;
    let mut stmt = tx.prepare_cached(
        "SELECT k.client_id, k.id, c.owner_id FROM contact k JOIN client c ON c.id = k.client_id
          WHERE lower(trim(k.email)) = lower(trim(?1))
         UNION ALL
         SELECT c.id, NULL, c.owner_id FROM client c
          WHERE lower(trim(c.email)) = lower(trim(?1))
            AND NOT EXISTS (SELECT 1 FROM contact k WHERE k.client_id = c.id AND lower(trim(k.email)) = lower(trim(?1)))",
    )?;
    let who = stmt
        .query_map([address], |r| {
            Ok(Addressee {
                client_id: r.get(0)?,
                contact_id: r.get(1)?,
                owner_id: r.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(who)
}

/// Every client's id, name and GSTIN: what an import matches its rows against.
pub fn identities(conn: &Connection) -> Result<Vec<(String, String, Option<String>)>, AppError> {
    Ok(conn
        .prepare_cached("SELECT id, name, gstin FROM client")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?)
}

/// The client, if it is in the user's book.
pub fn visible_client(conn: &Connection, user: &AuthUser, id: &str) -> Result<Client, AppError> {
    get(conn, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("client"))
}

/// Whether the office has no client yet (the `--demo` start fills only an empty office).
pub fn no_clients(conn: &Connection) -> Result<bool, AppError> {
    Ok(conn.query_row("SELECT COUNT(*) = 0 FROM client", [], |r| r.get::<_, bool>(0))?)
}
