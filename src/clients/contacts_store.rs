//! The SQL of a client's contacts and branches.

use crate::book;
use crate::plumbing::db::query::{Changes, insert_row, update_columns};
use crate::plumbing::error::AppError;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Contact {
    pub id: String,
    pub client_id: String,
    pub name: String,
    /// Free text, e.g. secretary, president, accountant, WhatsApp.
    pub role: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    /// 1 when mail to this address has bounced (the mail provider said so); cleared when the
    /// address is changed.
    pub email_bouncing: i64,
    pub bounced_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Branch {
    pub id: String,
    pub client_id: String,
    pub name: String,
    pub district: Option<String>,
    pub address: Option<String>,
    pub phone: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

fn contact(r: &Row<'_>) -> rusqlite::Result<Contact> {
    Ok(Contact {
        id: r.get(0)?,
        client_id: r.get(1)?,
        name: r.get(2)?,
        role: r.get(3)?,
        phone: r.get(4)?,
        email: r.get(5)?,
        created_at: r.get(6)?,
        updated_at: r.get(7)?,
        email_bouncing: r.get(8)?,
        bounced_at: r.get(9)?,
    })
}

fn branch(r: &Row<'_>) -> rusqlite::Result<Branch> {
    Ok(Branch {
        id: r.get(0)?,
        client_id: r.get(1)?,
        name: r.get(2)?,
        district: r.get(3)?,
        address: r.get(4)?,
        phone: r.get(5)?,
        created_at: r.get(6)?,
        updated_at: r.get(7)?,
    })
}

/// Which rows a query may see: `Some(staff id)` at `?2` limits them to that staff member's
/// clients.
fn book_clause(alias: &str) -> String {
    book::client_is_in(&format!("{alias}.client_id"), "?2")
}

pub fn contacts_of(conn: &Connection, client_id: &str) -> Result<Vec<Contact>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, client_id, name, role, phone, email, created_at, updated_at, email_bouncing, bounced_at FROM contact WHERE client_id = ?1 ORDER BY id",
    )?;
    let rows = stmt
        .query_map([client_id], contact)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

pub fn get_contact(conn: &Connection, id: &str, book: Option<&str>) -> Result<Option<Contact>, AppError> {
    Ok(conn
        .query_row(
            &format!(
                "SELECT id, client_id, name, role, phone, email, created_at, updated_at, email_bouncing, bounced_at FROM contact c WHERE id = ?1 AND {}",
                book_clause("c")
            ),
            params![id, book],
            contact,
        )
        .optional()?)
}

/// Inserts a row of a client's (`contact`, `branch`, `interaction`) with validated fields; answers its id.
pub fn insert(
    tx: &Connection,
    table: &str,
    client_id: &str,
    mut fields: Changes,
) -> Result<String, AppError> {
    fields.push(("client_id", Value::Text(client_id.to_string())));
    Ok(insert_row(tx, table, fields)?)
}

pub fn update(tx: &Connection, table: &str, id: &str, fields: Changes) -> Result<(), AppError> {
    update_columns(tx, table, id, fields)?;
    Ok(())
}

pub fn delete_contact(tx: &Connection, id: &str) -> Result<(), AppError> {
    tx.execute("DELETE FROM contact WHERE id = ?1", [id])?;
    Ok(())
}

/// Clears the bounce flag of a contact whose address was changed.
pub fn clear_bounce(tx: &Connection, id: &str) -> Result<(), AppError> {
    tx.execute(
        "UPDATE contact SET email_bouncing = 0, bounced_at = NULL WHERE id = ?1",
        [id],
    )?;
    Ok(())
}

pub fn branches_of(conn: &Connection, client_id: &str) -> Result<Vec<Branch>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, client_id, name, district, address, phone, created_at, updated_at FROM branch WHERE client_id = ?1 ORDER BY name COLLATE NOCASE, id",
    )?;
    let rows = stmt
        .query_map([client_id], branch)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

pub fn get_branch(conn: &Connection, id: &str, book: Option<&str>) -> Result<Option<Branch>, AppError> {
    Ok(conn
        .query_row(
            &format!(
                "SELECT id, client_id, name, district, address, phone, created_at, updated_at FROM branch b WHERE id = ?1 AND {}",
                book_clause("b")
            ),
            params![id, book],
            branch,
        )
        .optional()?)
}
