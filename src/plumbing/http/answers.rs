//! The service's own answers: the health check, unknown addresses and methods, and the body
//! limit every request has.

use crate::plumbing::config::Config;
use crate::plumbing::db::Db;
use crate::plumbing::error::AppError;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Serialize;
use std::sync::Arc;
use utoipa::ToSchema;

/// The largest request body accepted anywhere (uploads set their own, smaller, limits).
pub const BODY_LIMIT: usize = 1024 * 1024;

pub async fn not_found() -> AppError {
    AppError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "There is nothing at this address.",
    )
}

pub async fn method_not_allowed() -> AppError {
    AppError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "This address does not take that method.",
    )
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    pub ok: bool,
    pub version: &'static str,
    /// "ok" when the data file answers reads and the writer thread answers a write.
    pub db: String,
}

/// How long the health check waits for the writer thread: far longer than a group of writes
/// takes, far shorter than a service manager's patience.
const WRITER_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

/// Liveness and database check (public): 200 only when reads answer and the writer thread runs
/// a write, so a service manager restarts a server whose writer died.
#[utoipa::path(get, path = "/api/health", tag = "health", security(()),
    responses((status = 200, body = Health), (status = 503, description = "The database or its writer does not answer", body = Health)))]
pub async fn health(State(db): State<Db>, State(config): State<Arc<Config>>) -> impl IntoResponse {
    let reads = db
        .read(|c| Ok(c.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?))
        .await;
    let writes = db.writer_answers(WRITER_PATIENCE, config.longest_write).await;
    let version = env!("CARGO_PKG_VERSION");
    if let (Ok(_), true) = (&reads, writes) {
        return (
            StatusCode::OK,
            Json(Health {
                ok: true,
                version,
                db: "ok".into(),
            }),
        );
    }
    tracing::error!(reads = ?reads.err(), writer_answers = writes, "health check: the database does not answer");
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Json(Health {
            ok: false,
            version,
            db: "unavailable".into(),
        }),
    )
}
