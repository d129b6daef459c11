//! Layers every request passes: the request log, security headers, the CSRF rule, and closing
//! a connection whose request body was left unread.

use crate::plumbing::error::AppError;
use axum::body::{Body, BodyDataStream, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;

/// One log line per request. Only the path is logged (never the query or a body), and share
/// tokens in `/share/...` paths are redacted.
pub async fn request_log(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let path = redact_path(req.uri().path());
    let response = next.run(req).await;
    tracing::info!(
        target: "backoffice::http",
        %method,
        path,
        status = response.status().as_u16(),
        ms = started.elapsed().as_millis() as u64,
        "request"
    );
    response
}

/// `/share/<token>/pdf` becomes `/share/<redacted>/pdf`.
pub fn redact_path(path: &str) -> String {
    match path.strip_prefix("/share/") {
        Some(rest) => match rest.split_once('/') {
            Some((_, tail)) => format!("/share/<redacted>/{tail}"),
            None => "/share/<redacted>".into(),
        },
        None => path.to_string(),
    }
}

/// Says `Connection: close` on the answer to a request whose body was not read to its end (a
/// 413, a 415, a 401 or 403 decided before the body extractor). The rest of such a body is
/// still on the connection, in front of the client's next request; hyper then drops the
/// connection rather than read it, and without this header the client learns that only when its
/// next request on the connection fails. With it, hyper closes cleanly after the answer and the
/// client opens a new connection for the next request.
pub async fn close_unread_bodies(req: Request, next: Next) -> Response {
    if !has_body(req.headers()) {
        return next.run(req).await;
    }
    let read_to_end = Arc::new(AtomicBool::new(false));
    let (parts, body) = req.into_parts();
    let tracked = ReadToEnd {
        inner: body.into_data_stream(),
        read_to_end: read_to_end.clone(),
    };
    let mut response = next
        .run(Request::from_parts(parts, Body::from_stream(tracked)))
        .await;
    if !read_to_end.load(Ordering::Acquire) {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// Whether a request carries a body: a Content-Length above zero, or a chunked one.
fn has_body(headers: &HeaderMap) -> bool {
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let chunked = headers
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.to_ascii_lowercase().contains("chunked"));
    chunked || length.is_some_and(|n| n > 0)
}

/// A request body that notes when it has been read to its end.
struct ReadToEnd {
    inner: BodyDataStream,
    read_to_end: Arc<AtomicBool>,
}

impl Stream for ReadToEnd {
    type Item = Result<Bytes, axum::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let polled = Pin::new(&mut self.inner).poll_next(cx);
        if let Poll::Ready(None) = polled {
            self.read_to_end.store(true, Ordering::Release);
        }
        polled
    }
}

/// A strict Content-Security-Policy (no inline script), no sniffing, no framing, no referrer.
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// The CSRF rule of decisions 4: a state-changing API request must come from our own origin
/// (when the browser says where it came from) and carry a JSON content type (multipart for uploads).
pub async fn csrf(req: Request, next: Next) -> Response {
    let changes_state = matches!(
        *req.method(),
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    );
    if changes_state
        && req.uri().path().starts_with("/api/")
        && let Err(e) = check_csrf(&req)
    {
        return e.into_response();
    }
    next.run(req).await
}

fn check_csrf(req: &Request) -> Result<(), AppError> {
    let headers = req.headers();
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin_host = origin
            .to_str()
            .ok()
            .and_then(|o| o.split_once("://"))
            .map(|(_, host)| host.trim_end_matches('/'));
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let same = matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h));
        if !same {
            return Err(AppError::new(
                StatusCode::FORBIDDEN,
                "cross_origin",
                "This request came from another site.",
            ));
        }
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|c| c.to_str().ok())
        .unwrap_or("");
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let json = essence == "application/json";
    let upload = essence == "multipart/form-data" && req.uri().path().ends_with("/logo");
    if json || upload {
        Ok(())
    } else {
        Err(AppError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Send the request body as JSON (Content-Type: application/json).",
        ))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn share_tokens_are_redacted() {
        assert_eq!(
            super::redact_path("/share/abcdef0123/pdf"),
            "/share/<redacted>/pdf"
        );
        assert_eq!(super::redact_path("/share/abcdef0123"), "/share/<redacted>");
        assert_eq!(super::redact_path("/api/me"), "/api/me");
    }

    #[test]
    fn which_requests_carry_a_body() {
        use axum::http::{HeaderMap, HeaderValue, header};
        let with = |pairs: &[(header::HeaderName, &'static str)]| {
            let mut headers = HeaderMap::new();
            for (name, value) in pairs {
                headers.append(name, HeaderValue::from_static(value));
            }
            super::has_body(&headers)
        };
        assert!(!with(&[]));
        assert!(!with(&[(header::CONTENT_LENGTH, "0")]));
        assert!(with(&[(header::CONTENT_LENGTH, "12")]));
        assert!(with(&[(header::TRANSFER_ENCODING, "gzip, chunked")]));
    }
}
