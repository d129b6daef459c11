//! The SQL of client modules (projects) and their milestones. The portal password and the
//! secrets blob are read only by `credentials` and never selected into a `ClientModule`.

use crate::auth::session::AuthUser;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::query::{
    Changes, Filter, ListQuery, Plan, fetch_page, fetch_page_with, insert_row, update_columns,
};
use crate::plumbing::error::AppError;
use crate::projects::rules::{self, Step};
use crate::renewals::rules::RenewalDocument;
use crate::renewals::store::LIVE_RENEWAL_PROFORMA;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

/// A subscription of a client to a module, as the API shows it: credentials only as flags and key names.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ClientModule {
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    pub module_id: String,
    pub module_code: String,
    pub module_name: String,
    pub active: i64,
    pub status: String,
    pub edition: Option<String>,
    pub installed_on: Option<String>,
    pub trained_on: Option<String>,
    pub next_renewal: Option<String>,
    pub created_at: Option<String>,
    pub provider: Option<String>,
    pub username: Option<String>,
    #[serde(rename = "hasPassword")]
    pub has_password: bool,
    #[schema(value_type = Object)]
    pub field_values: serde_json::Value,
    /// The names of the stored secrets; values are only revealed one at a time.
    pub secret_keys: Vec<String>,
    pub sms_balance: Option<i64>,
    /// When the gateway was last asked for the balance, and why that poll read none (null: it
    /// read one); SMS subscriptions only (`crate::sms`).
    pub sms_checked_at: Option<String>,
    pub sms_flag: Option<String>,
    pub updated_at: String,
    /// The subscription's live renewal proforma (a draft or issued PROFORMA its renewal route
    /// made), as the renewals list names it; null when there is none.
    pub renewal_document: Option<RenewalDocument>,
}

const COLUMNS: &str = "cm.id, cm.client_id, c.name, cm.module_id, m.code, m.name, cm.active, cm.status, cm.edition, \
    cm.installed_on, cm.trained_on, cm.next_renewal, cm.created_at, cm.provider, cm.username, \
    (cm.password IS NOT NULL AND cm.password <> '' AND substr(cm.password, 1, 4) <> 'enc:'), cm.field_values, \
    substr(cm.secrets, 1, instr(cm.secrets || char(10), char(10)) - 1), cm.sms_balance, cm.updated_at, \
    cm.sms_checked_at, cm.sms_flag, rd.id, rd.doc_no, rd.status";

/// The client module `cm` with its client `c`, module `m` and live renewal proforma `rd`.
fn from() -> String {
    format!(
        "client_module cm JOIN client c ON c.id = cm.client_id JOIN module m ON m.id = cm.module_id
         LEFT JOIN document rd ON rd.id = ({LIVE_RENEWAL_PROFORMA})"
    )
}

fn client_module(r: &Row<'_>) -> rusqlite::Result<ClientModule> {
    let values: String = r.get(16)?;
    let key_line: Option<String> = r.get(17)?;
    Ok(ClientModule {
        id: r.get(0)?,
        client_id: r.get(1)?,
        client_name: r.get(2)?,
        module_id: r.get(3)?,
        module_code: r.get(4)?,
        module_name: r.get(5)?,
        active: r.get(6)?,
        status: r.get(7)?,
        edition: r.get(8)?,
        installed_on: r.get(9)?,
        trained_on: r.get(10)?,
        next_renewal: r.get(11)?,
        created_at: r.get(12)?,
        provider: r.get(13)?,
        username: r.get(14)?,
        has_password: r.get(15)?,
        field_values: serde_json::from_str(&values).unwrap_or_default(),
        secret_keys: rules::secret_keys(key_line.as_deref()),
        sms_balance: r.get(18)?,
        updated_at: r.get(19)?,
        sms_checked_at: r.get(20)?,
        sms_flag: r.get(21)?,
        renewal_document: match r.get::<_, Option<String>>(22)? {
            Some(id) => Some(RenewalDocument {
                id,
                doc_no: r.get(23)?,
                status: r.get(24)?,
            }),
            None => None,
        },
    })
}

/// The project `id`, if it exists and its client is in the book `owned_by` (None: every book).
pub fn get(conn: &Connection, id: &str, owned_by: Option<&str>) -> Result<Option<ClientModule>, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM {} WHERE cm.id = ?1 AND {}",
            from(),
            crate::book::owner_is("c", "?2")
        ))?
        .query_row(params![id, owned_by], client_module)
        .optional()?)
}

pub fn of_client(conn: &Connection, client_id: &str) -> Result<Vec<ClientModule>, AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM {} WHERE cm.client_id = ?1 ORDER BY m.name COLLATE NOCASE, cm.id",
        from()
    ))?;
    let rows = stmt
        .query_map([client_id], client_module)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

pub fn insert(tx: &Connection, fields: Changes) -> Result<String, AppError> {
    Ok(insert_row(tx, "client_module", fields)?)
}

pub fn update(tx: &Connection, id: &str, fields: Changes) -> Result<(), AppError> {
    update_columns(tx, "client_module", id, fields)?;
    Ok(())
}

/// A project's stored credentials, read only to reveal or rewrite them.
pub struct Credentials {
    pub password: Option<String>,
    pub secrets: Option<String>,
}

/// The stored portal password and secrets blob (None when the project does not exist).
pub fn credentials(conn: &Connection, id: &str) -> Result<Option<Credentials>, AppError> {
    Ok(conn
        .prepare_cached("SELECT password, secrets FROM client_module WHERE id = ?1")?
        .query_row([id], |r| {
            Ok(Credentials {
                password: r.get(0)?,
                secrets: r.get(1)?,
            })
        })
        .optional()?)
}

/// One step of a project's checklist.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Milestone {
    pub key: String,
    pub label: String,
    pub done_on: Option<String>,
    pub payment_id: Option<String>,
    pub document_id: Option<String>,
}

/// Brings a project's steps in line with its checklist: adds the missing ones, puts every step
/// at its place in the checklist and gives it the template's label. Steps no longer in the
/// template keep their ticks and follow, in their old order.
pub fn seed_milestones(tx: &Connection, client_module_id: &str, checklist: &[Step]) -> Result<(), AppError> {
    let now = crate::plumbing::clock::now_timestamp();
    // Steps that left the template move behind the checklist, keeping their order.
    tx.execute(
        "UPDATE project_milestone SET position = position + ?2 + 1000 WHERE client_module_id = ?1",
        params![client_module_id, checklist.len() as i64],
    )?;
    for (position, step) in checklist.iter().enumerate() {
        tx.execute(
            "INSERT INTO project_milestone (id, client_module_id, key, label, position, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
             ON CONFLICT (client_module_id, key) DO UPDATE SET position = excluded.position, label = excluded.label",
            params![crate::plumbing::db::ids::new_id(), client_module_id, step.key, step.label, position as i64, now],
        )?;
    }
    Ok(())
}

pub fn milestones(conn: &Connection, client_module_id: &str) -> Result<Vec<Milestone>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT key, label, done_on, payment_id, document_id FROM project_milestone WHERE client_module_id = ?1 ORDER BY position, id",
    )?;
    let rows = stmt
        .query_map([client_module_id], |r| {
            Ok(Milestone {
                key: r.get(0)?,
                label: r.get(1)?,
                done_on: r.get(2)?,
                payment_id: r.get(3)?,
                document_id: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Sets (or clears, with `done_on` None) a step; answers whether the step exists.
pub fn set_milestone(
    tx: &Connection,
    client_module_id: &str,
    key: &str,
    done_on: Option<&str>,
    payment_id: Option<&str>,
    document_id: Option<&str>,
) -> Result<bool, AppError> {
    let changed = tx.execute(
        "UPDATE project_milestone SET done_on = ?3, payment_id = ?4, document_id = ?5, updated_at = ?6
         WHERE client_module_id = ?1 AND key = ?2",
        params![
            client_module_id,
            key,
            done_on,
            payment_id,
            document_id,
            crate::plumbing::clock::now_timestamp()
        ],
    )?;
    Ok(changed > 0)
}

/// Whether `table` has a row `id` belonging to `client_id`; None when the table does not exist yet.
pub fn belongs_to_client(
    conn: &Connection,
    table: &str,
    id: &str,
    client_id: &str,
) -> Result<Option<bool>, AppError> {
    let exists: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1)",
        [table],
        |r| r.get(0),
    )?;
    if !exists {
        return Ok(None);
    }
    let owned: bool = conn.query_row(
        &format!("SELECT EXISTS (SELECT 1 FROM {table} WHERE id = ?1 AND client_id = ?2)"),
        params![id, client_id],
        |r| r.get(0),
    )?;
    Ok(Some(owned))
}

/// The steps ticked with the payment `payment_id`: (project id, step key, the step).
pub fn ticked_with_payment(
    conn: &Connection,
    payment_id: &str,
) -> Result<Vec<(String, Milestone)>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT client_module_id, key, label, done_on, payment_id, document_id FROM project_milestone
         WHERE payment_id = ?1 ORDER BY client_module_id, position",
    )?;
    let rows = stmt
        .query_map([payment_id], |r| {
            Ok((
                r.get(0)?,
                Milestone {
                    key: r.get(1)?,
                    label: r.get(2)?,
                    done_on: r.get(3)?,
                    payment_id: r.get(4)?,
                    document_id: r.get(5)?,
                },
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The date a payment was received (payments record it as `received_on`).
pub fn payment_received_on(conn: &Connection, payment_id: &str) -> Result<Option<String>, AppError> {
    Ok(conn
        .prepare_cached("SELECT received_on FROM payment WHERE id = ?1")?
        .query_row([payment_id], |r| r.get(0))
        .optional()?)
}

/// Pending count per step over active projects in the book.
#[derive(Debug, Serialize, ToSchema)]
pub struct BoardRow {
    pub key: String,
    pub label: String,
    pub pending: i64,
}

pub fn board(conn: &Connection, book: Option<&str>) -> Result<Vec<BoardRow>, AppError> {
    // Every milestone links to a project and every project to a client, so "of an active
    // project" is "not of an inactive one": a set of a few hundred ids rather than a lookup
    // per milestone. Per step, the first position and label of an active project come from
    // the head of an index in that order, and what is pending from the step tally
    // (migrations/V7); the steps themselves are stepped through with MIN(key) > previous.
    // A staff member's book is a few hundred projects: their milestones are read through the
    // book's clients.
    const EVERY_BOOK: &str = "WITH RECURSIVE step(key) AS (
            SELECT MIN(key) FROM project_milestone
            UNION ALL
            SELECT (SELECT MIN(key) FROM project_milestone WHERE key > step.key) FROM step WHERE step.key IS NOT NULL)
        SELECT key, label, pending FROM (
            SELECT s.key,
                (SELECT pm.label FROM project_milestone pm INDEXED BY project_milestone_key_label
                  WHERE pm.key = s.key AND pm.client_module_id NOT IN
                        (SELECT id FROM client_module WHERE active = 0 AND id IS NOT NULL)
                  ORDER BY pm.label LIMIT 1) AS label,
                COALESCE((SELECT t.pending FROM project_step_tally t WHERE t.key = s.key), 0) AS pending,
                (SELECT pm.position FROM project_milestone pm INDEXED BY project_milestone_key_position
                  WHERE pm.key = s.key AND pm.client_module_id NOT IN
                        (SELECT id FROM client_module WHERE active = 0 AND id IS NOT NULL)
                  ORDER BY pm.position LIMIT 1) AS position
            FROM step s WHERE s.key IS NOT NULL)
        WHERE position IS NOT NULL ORDER BY position, key";
    const ONE_BOOK: &str = "SELECT pm.key, MIN(pm.label), SUM(pm.done_on IS NULL), MIN(pm.position)
         FROM client c CROSS JOIN client_module cm ON cm.client_id = c.id
              CROSS JOIN project_milestone pm ON pm.client_module_id = cm.id
         WHERE c.owner_id = ?1 AND cm.active = 1
         GROUP BY pm.key ORDER BY MIN(pm.position), pm.key";
    let board_row = |r: &Row<'_>| {
        Ok(BoardRow {
            key: r.get(0)?,
            label: r.get(1)?,
            pending: r.get(2)?,
        })
    };
    let rows = match book {
        None => conn
            .prepare_cached(EVERY_BOOK)?
            .query_map([], board_row)?
            .collect::<Result<Vec<_>, _>>()?,
        Some(owner) => conn
            .prepare_cached(ONE_BOOK)?
            .query_map([owner], board_row)?
            .collect::<Result<Vec<_>, _>>()?,
    };
    Ok(rows)
}

/// A project in a worklist.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProjectRow {
    pub client_module_id: String,
    pub client_id: String,
    pub client_name: String,
    pub module_code: String,
    pub module_name: String,
    pub status: String,
    pub created_at: Option<String>,
}

fn project_row(r: &Row<'_>) -> rusqlite::Result<ProjectRow> {
    Ok(ProjectRow {
        client_module_id: r.get(0)?,
        client_id: r.get(1)?,
        client_name: r.get(2)?,
        module_code: r.get(3)?,
        module_name: r.get(4)?,
        status: r.get(5)?,
        created_at: r.get(6)?,
    })
}

/// Active projects still pending the step `key`, by client name.
pub fn pending(
    conn: &Connection,
    key: &str,
    book: Option<String>,
    page: &Page,
) -> Result<Paginated<ProjectRow>, AppError> {
    let mut f = Filter::default();
    f.and(
        "cm.active = 1 AND pm.key = ? AND pm.done_on IS NULL",
        [Value::Text(key.into())],
    );
    crate::book::narrow_joined(&mut f, "c", book);
    let query = ListQuery {
        columns: "cm.id, cm.client_id, c.name, m.code, m.name, cm.status, cm.created_at".into(),
        from: "project_milestone pm JOIN client_module cm ON cm.id = pm.client_module_id JOIN client c ON c.id = cm.client_id JOIN module m ON m.id = cm.module_id",
        order_by: "c.name COLLATE NOCASE, cm.id",
        id_column: "cm.id",
        sorts: &[
            ("client_name", "c.name COLLATE NOCASE"),
            ("module_name", "m.name COLLATE NOCASE"),
            ("status", "cm.status"),
            ("created_at", "cm.created_at"),
        ],
    };
    fetch_page(conn, query, f, page, project_row)
}

/// The active projects with a pending step in `book` (None: every book) whose last activity
/// (the latest ticked step's day, else the creation day; kept in `open_project`, migrations/V29)
/// is on or before `cutoff`, each with that day, by client name as COLLATE NOCASE orders it (ASCII
/// letters folded), then project; and how many of the book's such projects have no activity day.
pub fn stalled_projects(
    conn: &Connection,
    book: Option<&str>,
    cutoff: &str,
) -> Result<(Vec<(ProjectRow, String)>, i64), AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT cm.id, cm.client_id, c.name, m.code, m.name, cm.status, cm.created_at, op.last_on
         FROM open_project op INDEXED BY open_project_last
              CROSS JOIN client_module cm ON cm.id = op.client_module_id
              JOIN client c INDEXED BY client_id_name ON c.id = cm.client_id JOIN module m ON m.id = cm.module_id
         WHERE op.last_on <= ?2 AND {}",
        crate::book::owner_is("c", "?1")
    ))?;
    let mut rows = stmt
        .query_map(params![book, cutoff], |r| Ok((project_row(r)?, r.get(7)?)))?
        .collect::<Result<Vec<(ProjectRow, String)>, _>>()?;
    // Sorted here rather than by SQLite's sorter.
    rows.sort_by(|(a, _), (b, _)| {
        crate::plumbing::db::query::nocase_cmp(&a.client_name, &b.client_name)
            .then_with(|| a.client_module_id.cmp(&b.client_module_id))
    });
    Ok((rows, unknown_age(conn, book)?))
}

/// How many active projects with a pending step in `book` have no activity day.
fn unknown_age(conn: &Connection, book: Option<&str>) -> Result<i64, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT COUNT(*) FROM open_project op INDEXED BY open_project_last
              WHERE op.last_on IS NULL AND {}",
            crate::book::client_is_in(
                "(SELECT client_id FROM client_module cm WHERE cm.id = op.client_module_id)",
                "?1"
            )
        ))?
        .query_row([book], |r| r.get(0))?)
}

/// How many of [`stalled_projects`] there are, without building them: a range of the kept
/// `open_project` (every book), each looked up to its client for a book.
pub fn stalled_count(conn: &Connection, book: Option<&str>, cutoff: &str) -> Result<i64, AppError> {
    let sql = match book {
        None => "SELECT COUNT(*) FROM open_project WHERE last_on <= ?2 AND ?1 IS NULL",
        Some(_) => {
            "SELECT COUNT(*) FROM open_project op INDEXED BY open_project_last
               JOIN client_module cm ON cm.id = op.client_module_id JOIN client c ON c.id = cm.client_id
              WHERE op.last_on <= ?2 AND c.owner_id = ?1"
        }
    };
    Ok(conn
        .prepare_cached(sql)?
        .query_row(params![book, cutoff], |r| r.get(0))?)
}

/// One row of a module's roster.
#[derive(Debug, Serialize, ToSchema)]
pub struct RosterRow {
    pub client_id: String,
    pub client_name: String,
    pub client_module_id: String,
    /// The price-book price on the roster's date (paise).
    pub price: Option<i64>,
    pub next_renewal: Option<String>,
}

/// Every active subscriber of the module in the book, by client name, handed to `each` (client
/// id, name, next renewal) until it answers false: the roster CSV, streamed without a cap.
pub fn each_roster_row(
    conn: &Connection,
    module_id: &str,
    book: Option<&str>,
    mut each: impl FnMut(&str, &str, Option<&str>) -> bool,
) -> Result<(), AppError> {
    let mut stmt = conn.prepare(&format!(
        "SELECT cm.client_id, c.name, cm.next_renewal FROM {ROSTER_FROM}
         WHERE cm.module_id = ?1 AND cm.active = 1 AND {} ORDER BY c.name COLLATE NOCASE, cm.id",
        crate::book::owner_is("c", "?2")
    ))?;
    let mut rows = stmt.query(params![module_id, book])?;
    while let Some(row) = rows.next()? {
        let (client_id, name, renewal): (String, String, Option<String>) =
            (row.get(0)?, row.get(1)?, row.get(2)?);
        if !each(&client_id, &name, renewal.as_deref()) {
            break;
        }
    }
    Ok(())
}

pub const ROSTER_FROM: &str = "client_module cm JOIN client c ON c.id = cm.client_id";
/// The roster in name order: clients walked by name, each asked for its active link (one
/// probe of an index, migrations/V7), so the first page stops after its rows instead of
/// sorting every subscriber.
const ROSTER_BY_NAME: &str = "client c CROSS JOIN client_module cm ON cm.client_id = c.id";

/// The active links of a module, by client name, each with `price`.
pub fn roster(
    conn: &Connection,
    module_id: &str,
    book: Option<String>,
    price: Option<i64>,
    page: &Page,
) -> Result<Paginated<RosterRow>, AppError> {
    let every_book = book.is_none();
    let mut f = Filter::default();
    f.and(
        "cm.module_id = ? AND cm.active = 1",
        [Value::Text(module_id.into())],
    )
    .eq("c.owner_id", book);
    let query = ListQuery {
        columns: "cm.client_id, c.name, cm.id, cm.next_renewal".into(),
        from: ROSTER_FROM,
        order_by: "c.name COLLATE NOCASE, cm.id",
        id_column: "cm.id",
        sorts: &[
            ("client_name", "c.name COLLATE NOCASE"),
            ("next_renewal", "cm.next_renewal"),
        ],
    };
    // Every link has its client, so without a book the links alone give the count.
    let plan = Plan {
        find_in: Some(ROSTER_BY_NAME),
        tally: None,
        count_in: every_book.then_some("client_module cm"),
    };
    fetch_page_with(conn, query, plan, f, page, |r| {
        Ok(RosterRow {
            client_id: r.get(0)?,
            client_name: r.get(1)?,
            client_module_id: r.get(2)?,
            price,
            next_renewal: r.get(3)?,
        })
    })
}

/// Every client with an active link to the module (each once), by name: the whole roster, no page.
pub fn roster_clients(conn: &Connection, module_id: &str) -> Result<Vec<(String, String)>, AppError> {
    let mut stmt = conn.prepare(
        "SELECT DISTINCT c.id, c.name FROM client_module cm JOIN client c ON c.id = cm.client_id
         WHERE cm.module_id = ?1 AND cm.active = 1 ORDER BY c.name COLLATE NOCASE, c.id",
    )?;
    let rows = stmt
        .query_map([module_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The project (client module), if its client is in the user's book.
pub fn visible_project(conn: &Connection, user: &AuthUser, id: &str) -> Result<ClientModule, AppError> {
    get(conn, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("client module"))
}

/// The setting keys of the modules' own milestone tails (`project.milestone_template:<CODE>`,
/// `checklist_templates`), by key.
pub fn tail_keys(conn: &Connection) -> Result<Vec<String>, AppError> {
    let mut stmt = conn.prepare(
        "SELECT DISTINCT key FROM setting WHERE key LIKE 'project.milestone_template:%' ORDER BY key",
    )?;
    let keys = stmt
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(keys)
}
