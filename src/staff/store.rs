//! The SQL of staff accounts. The password hash is read and written here and never leaves.

use crate::auth::Role;
use crate::plumbing::clock;
use crate::plumbing::db::ids::new_id;
use crate::plumbing::db::query::{Filter, ListQuery, Listing, like_contains};
use crate::plumbing::error::{AppError, OnConstraint};
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

/// A staff member as the API shows them: never a hash.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Employee {
    pub id: String,
    pub username: String,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub phone: Option<String>,
    pub title: Option<String>,
    /// 1 active, 0 deactivated.
    pub active: i64,
    /// Consecutive failed sign-ins.
    pub failed_count: i64,
    /// Set while the account is locked after 8 failures.
    pub locked_until: Option<String>,
    #[serde(rename = "mustChangePassword")]
    pub must_change_password: bool,
    pub created_at: String,
    pub updated_at: String,
}

/// An account as the pickers show it to everyone but the owner: who they are and how to reach
/// them, without the sign-in state (failures, lock, a pending password change) or the times,
/// which tell a colleague whose account is being guessed at and when. Its schema allows no
/// other property, so that a whole account (`Employee`) is not also a card to a validator of the
/// list's `oneOf`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmployeeCard {
    pub id: String,
    pub username: String,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub phone: Option<String>,
    pub title: Option<String>,
    /// 1 active, 0 deactivated.
    pub active: i64,
}

impl From<Employee> for EmployeeCard {
    fn from(e: Employee) -> Self {
        EmployeeCard {
            id: e.id,
            username: e.username,
            email: e.email,
            name: e.name,
            role: e.role,
            phone: e.phone,
            title: e.title,
            active: e.active,
        }
    }
}

const COLUMNS: &str = "id, username, email, name, role, phone, title, active, failed_count, locked_until, \
                       must_change_password, created_at, updated_at";

fn employee(r: &Row<'_>) -> rusqlite::Result<Employee> {
    Ok(Employee {
        id: r.get(0)?,
        username: r.get(1)?,
        email: r.get(2)?,
        name: r.get(3)?,
        role: r.get(4)?,
        phone: r.get(5)?,
        title: r.get(6)?,
        active: r.get(7)?,
        failed_count: r.get(8)?,
        locked_until: r.get(9)?,
        must_change_password: r.get(10)?,
        created_at: r.get(11)?,
        updated_at: r.get(12)?,
    })
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<Employee>, AppError> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM staff WHERE id = ?1"))?
        .query_row([id], employee)
        .optional()?)
}

/// Filters of the employee list.
#[derive(Default)]
pub struct EmployeeFilter {
    pub q: Option<String>,
    pub role: Option<Role>,
    pub active: Option<i64>,
}

/// What the employee list may be sorted by (decisions 10).
const SORTS: &[(&str, &str)] = &[
    ("name", "name COLLATE NOCASE"),
    ("username", "username COLLATE NOCASE"),
    ("email", "email COLLATE NOCASE"),
    ("role", "role"),
    ("status", "active"),
    ("created_at", "created_at"),
];

/// Staff accounts by name: a page, or every row for the CSV twin.
pub fn list(filter: EmployeeFilter) -> Listing<Employee> {
    let mut f = Filter::default();
    if let Some(q) = filter.q.filter(|q| !q.trim().is_empty()) {
        let pattern = like_contains(q.trim());
        f.and(
            "name LIKE ? ESCAPE '\\' OR username LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\'",
            [pattern.clone(), pattern.clone(), pattern],
        );
    }
    f.eq("role", filter.role.map(|r| r.as_str().to_string()))
        .eq("active", filter.active);
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: "staff",
        order_by: "name COLLATE NOCASE, id",
        id_column: "id",
        sorts: SORTS,
    };
    Listing::new(query, f, employee)
}

/// What creating an account needs.
pub struct NewEmployee {
    pub username: String,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub password_hash: String,
    pub must_change_password: bool,
}

pub fn insert(tx: &Connection, new: NewEmployee) -> Result<Employee, AppError> {
    // Email first: when the username defaulted to the email, the email is the field to fix.
    for (column, value) in [("email", &new.email), ("username", &new.username)] {
        let taken: bool = tx.query_row(
            &format!("SELECT EXISTS (SELECT 1 FROM staff WHERE {column} = ?1)"),
            [value],
            |r| r.get(0),
        )?;
        if taken {
            return Err(
                AppError::conflict("duplicate", format!("That {column} is already in use.")).on_field(column),
            );
        }
    }
    let id = new_id();
    let now = clock::now_timestamp();
    tx.execute(
        "INSERT INTO staff (id, username, email, name, role, phone, title, active, failed_count,
                            must_change_password, password_hash, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, 0, ?8, ?9, ?10, ?10)",
        params![
            id,
            new.username,
            new.email,
            new.name,
            new.role,
            new.phone,
            new.title,
            new.must_change_password,
            new.password_hash,
            now
        ],
    )
    .on_unique("username", "That username or email is already in use.")?;
    get(tx, &id)?.ok_or_else(|| AppError::internal("inserted employee vanished"))
}

/// Changes to an account's editable fields; `None` leaves a field as it is.
#[derive(Default)]
pub struct EmployeeChanges {
    pub username: Option<String>,
    pub name: Option<String>,
    pub role: Option<Role>,
    /// `Some(None)` clears the field.
    pub phone: Option<Option<String>>,
    pub title: Option<Option<String>>,
}

pub fn update(tx: &Connection, id: &str, changes: EmployeeChanges) -> Result<(), AppError> {
    if let Some(username) = &changes.username {
        let taken: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM staff WHERE username = ?1 AND id <> ?2)",
            params![username, id],
            |r| r.get(0),
        )?;
        if taken {
            return Err(
                AppError::conflict("duplicate", "That username is already in use.").on_field("username"),
            );
        }
    }
    tx.execute(
        "UPDATE staff SET
            username = COALESCE(?2, username),
            name = COALESCE(?3, name),
            role = COALESCE(?4, role),
            phone = CASE WHEN ?5 THEN ?6 ELSE phone END,
            title = CASE WHEN ?7 THEN ?8 ELSE title END,
            updated_at = ?9
         WHERE id = ?1",
        params![
            id,
            changes.username,
            changes.name,
            changes.role,
            changes.phone.is_some(),
            changes.phone.flatten(),
            changes.title.is_some(),
            changes.title.flatten(),
            clock::now_timestamp()
        ],
    )
    .on_unique("username", "That username is already in use.")?;
    Ok(())
}

pub fn set_active(tx: &Connection, id: &str, active: bool) -> Result<(), AppError> {
    tx.execute(
        "UPDATE staff SET active = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, active, clock::now_timestamp()],
    )?;
    Ok(())
}

/// Stores a new password hash and clears any lock.
pub fn set_password(
    tx: &Connection,
    id: &str,
    password_hash: &str,
    must_change: bool,
) -> Result<(), AppError> {
    tx.execute(
        "UPDATE staff SET password_hash = ?2, must_change_password = ?3, failed_count = 0, locked_until = NULL,
                          updated_at = ?4
         WHERE id = ?1",
        params![id, password_hash, must_change, clock::now_timestamp()],
    )?;
    Ok(())
}

pub fn password_hash(conn: &Connection, id: &str) -> Result<Option<String>, AppError> {
    Ok(conn
        .query_row("SELECT password_hash FROM staff WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?)
}

pub fn active_owner_count(conn: &Connection) -> Result<i64, AppError> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM staff WHERE role = 'owner' AND active = 1",
        [],
        |r| r.get(0),
    )?)
}

/// Active accounts that are not owners: the office's staff and managers.
pub fn active_besides_owners(conn: &Connection) -> Result<i64, AppError> {
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM staff WHERE role <> 'owner' AND active = 1",
        [],
        |r| r.get(0),
    )?)
}

pub fn count(conn: &Connection) -> Result<i64, AppError> {
    Ok(conn.query_row("SELECT COUNT(*) FROM staff", [], |r| r.get(0))?)
}

/// The id of the account whose username or email is `identifier`.
pub fn id_by_identifier(conn: &Connection, identifier: &str) -> Result<Option<String>, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT id FROM staff WHERE username = ?1 OR email = ?1 ORDER BY username = ?1 DESC LIMIT 1",
        )?
        .query_row([identifier], |r| r.get(0))
        .optional()?)
}

/// The id of the first owner account (by id): whom the demo fill writes as.
pub fn first_owner(conn: &Connection) -> Result<String, AppError> {
    Ok(conn.query_row(
        "SELECT id FROM staff WHERE role = 'owner' ORDER BY id LIMIT 1",
        [],
        |r| r.get(0),
    )?)
}
