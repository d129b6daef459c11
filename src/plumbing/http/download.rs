//! A download: the headers that name its file, and a body sent as its chunks are made, so a
//! large export never sits whole in memory. The CSV lists, their Excel twins, the Tally XML and
//! the GSTR-1 files go out this way.

use crate::plumbing::db::Db;
use crate::plumbing::error::AppError;
use axum::body::Body;
use axum::http::header::{self, HeaderName};
use rusqlite::Connection;
use tokio::sync::mpsc;

/// The headers of a download of `content_type` named `file_name`.
pub fn headers(content_type: &str, file_name: &str) -> [(HeaderName, String); 2] {
    [
        (header::CONTENT_TYPE, content_type.to_string()),
        (
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{file_name}\""),
        ),
    ]
}

/// The chunks `rx` receives, as a body: an error before the first chunk is the answer (and a
/// channel closed before it is an internal error about `what`); one after it cuts the body short.
pub async fn body_of(
    mut rx: mpsc::Receiver<Result<Vec<u8>, AppError>>,
    what: &str,
) -> Result<Body, AppError> {
    let first = rx
        .recv()
        .await
        .ok_or_else(|| AppError::internal(format!("the {what} ended before it began")))??;
    let rest = futures_util::stream::unfold(rx, |mut rx| async move {
        let next = rx.recv().await?;
        Some((next.map_err(|e| std::io::Error::other(e.message.clone())), rx))
    });
    let body = futures_util::StreamExt::chain(futures_util::stream::once(async move { Ok(first) }), rest);
    Ok(Body::from_stream(body))
}

/// The bytes `write` hands its sink while it reads on a reader connection, as a body
/// ([`body_of`]); the sink fails once the client has gone, which ends the read.
pub async fn stream_body(
    db: &Db,
    write: impl FnOnce(&Connection, &mut dyn FnMut(Vec<u8>) -> Result<(), AppError>) -> Result<(), AppError>
    + Send
    + 'static,
) -> Result<Body, AppError> {
    let (tx, rx) = mpsc::channel::<Result<Vec<u8>, AppError>>(4);
    let db = db.clone();
    let sender = tx.clone();
    tokio::spawn(async move {
        let read = db.read(move |c| {
            write(c, &mut |bytes| {
                sender
                    .blocking_send(Ok(bytes))
                    .map_err(|_| AppError::internal("the download was abandoned"))
            })
        });
        if let Err(e) = read.await {
            let _ = tx.send(Err(e)).await;
        }
    });
    body_of(rx, "export").await
}
