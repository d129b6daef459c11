//! The SQL of a document's public links (shares).

use crate::documents::rules;
use crate::plumbing::clock;
use crate::plumbing::db::query::insert_row;
use crate::plumbing::error::AppError;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use utoipa::ToSchema;

/// A share as the document shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Share {
    pub id: String,
    pub token: String,
    pub expires_at: String,
    #[serde(with = "crate::plumbing::flag")]
    #[schema(value_type = u8)]
    pub revoked: bool,
    pub created_at: String,
    /// live, expired or revoked.
    pub state: &'static str,
}

/// The shares of a document, newest first, each with its state now.
pub fn shares_of(conn: &Connection, document_id: &str) -> Result<Vec<Share>, AppError> {
    let now = clock::now();
    let mut stmt = conn.prepare_cached(
        "SELECT id, token, expires_at, revoked, created_at FROM document_share WHERE document_id = ?1 ORDER BY id DESC",
    )?;
    let rows = stmt
        .query_map([document_id], |r| {
            let revoked: bool = r.get(3)?;
            let expires_at: String = r.get(2)?;
            Ok(Share {
                id: r.get(0)?,
                token: r.get(1)?,
                state: rules::share_state(revoked, &expires_at, now),
                expires_at,
                revoked,
                created_at: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Writes a share of `document_id`; answers its id.
pub fn insert_share(
    tx: &Connection,
    document_id: &str,
    token: &str,
    expires_at: &str,
    user_id: Option<&str>,
) -> Result<String, AppError> {
    Ok(insert_row(
        tx,
        "document_share",
        vec![
            ("document_id", Value::Text(document_id.into())),
            ("token", Value::Text(token.into())),
            ("expires_at", Value::Text(expires_at.into())),
            (
                "created_by",
                user_id.map_or(Value::Null, |u| Value::Text(u.into())),
            ),
        ],
    )?)
}

/// Marks a share revoked from now.
pub fn revoke_share(tx: &Connection, share_id: &str) -> Result<(), AppError> {
    tx.execute(
        "UPDATE document_share SET revoked = 1, revoked_at = ?2, updated_at = ?2 WHERE id = ?1",
        params![share_id, clock::now_timestamp()],
    )?;
    Ok(())
}

/// The document a token opens while its share is live and the document is neither a draft nor
/// cancelled (links of documents cancelled before their links were revoked with them stay shut).
pub fn document_of_token(conn: &Connection, token: &str) -> Result<Option<String>, AppError> {
    Ok(conn
        .query_row(
            "SELECT s.document_id FROM document_share s JOIN document d ON d.id = s.document_id
             WHERE s.token = ?1 AND s.revoked = 0 AND s.expires_at > ?2 AND d.status NOT IN ('draft', 'cancelled')",
            params![token, clock::now_timestamp()],
            |r| r.get(0),
        )
        .optional()?)
}
