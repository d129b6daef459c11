//! Layers every request passes: the request log, security headers, and the CSRF rule.

use crate::error::AppError;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
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
}
