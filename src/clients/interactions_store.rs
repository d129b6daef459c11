//! The SQL of the interactions log (calls, visits, messages) kept per client.

use crate::book;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::query::{Filter, ListQuery, fetch_page};
use crate::plumbing::error::AppError;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Interaction {
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    /// call, visit, email, whatsapp, meeting or note.
    #[serde(rename = "type")]
    pub kind: String,
    pub notes: String,
    pub follow_up_on: Option<String>,
    pub author_id: String,
    pub author_name: String,
    pub created_at: String,
    pub updated_at: String,
}

const COLUMNS: &str = "i.id, i.client_id, k.name, i.type, i.notes, i.follow_up_on, i.author_id, s.name, i.created_at, i.updated_at";
const FROM: &str = "interaction i JOIN client k ON k.id = i.client_id JOIN staff s ON s.id = i.author_id";

fn interaction(r: &Row<'_>) -> rusqlite::Result<Interaction> {
    Ok(Interaction {
        id: r.get(0)?,
        client_id: r.get(1)?,
        client_name: r.get(2)?,
        kind: r.get(3)?,
        notes: r.get(4)?,
        follow_up_on: r.get(5)?,
        author_id: r.get(6)?,
        author_name: r.get(7)?,
        created_at: r.get(8)?,
        updated_at: r.get(9)?,
    })
}

/// Interactions, newest first, of one client or of every client in the book.
pub fn list(
    conn: &Connection,
    client_id: Option<String>,
    book: Option<String>,
    page: &Page,
) -> Result<Paginated<Interaction>, AppError> {
    let mut f = Filter::default();
    f.eq("i.client_id", client_id);
    book::narrow_joined(&mut f, "k", book);
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: FROM,
        order_by: "i.id DESC",
        id_column: "i.id",
        sorts: &[
            ("created_at", "i.created_at"),
            ("type", "i.type"),
            ("follow_up_on", "i.follow_up_on"),
            ("client_name", "k.name COLLATE NOCASE"),
        ],
    };
    fetch_page(conn, query, f, page, interaction)
}

pub fn get(conn: &Connection, id: &str, book: Option<&str>) -> Result<Option<Interaction>, AppError> {
    Ok(conn
        .query_row(
            &format!(
                "SELECT {COLUMNS} FROM {FROM} WHERE i.id = ?1 AND {}",
                book::owner_is("k", "?2")
            ),
            params![id, book],
            interaction,
        )
        .optional()?)
}
