//! Generic extractors: JSON bodies and query strings that fail in the decisions-3 shape, the
//! client's address behind the one trusted proxy hop, and record ids from the path. The session
//! and role extractors live with sign-in (`auth::session`).

use crate::plumbing::clock;
use crate::plumbing::config::Config;
use crate::plumbing::error::AppError;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// A JSON request body. Malformed JSON is a 400; a well-formed body holding a wrong value is a
/// 422 naming the field; an oversized body is a 413.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                AppError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "body_too_large",
                    "The request body is too large.",
                )
            } else {
                AppError::bad_request("unreadable_body", "The request body could not be read.")
            }
        })?;
        parse_json(&bytes).map(JsonBody)
    }
}

/// Parses a JSON body with the error rules of [`JsonBody`].
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(AppError::bad_request(
            "malformed_json",
            "A JSON body is required.",
        ));
    }
    let malformed = |e: serde_json::Error| {
        AppError::bad_request("malformed_json", format!("The body is not valid JSON: {e}."))
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let no_such_date = impossible_date(bytes, e.path());
        let inner = e.into_inner();
        if inner.classify() != serde_json::error::Category::Data {
            return malformed(inner);
        }
        let field = if path == "." {
            named_field(&inner.to_string())
        } else {
            Some(path)
        };
        let message =
            no_such_date.unwrap_or_else(|| format!("Invalid value: {}.", strip_position(&inner.to_string())));
        let err = AppError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_value", message);
        match field {
            Some(f) => err.on_field(f),
            None => err,
        }
    })?;
    de.end().map_err(malformed)?;
    Ok(value)
}

/// When the value at `path` of the body is a `YYYY-MM-DD` day its month does not have, the
/// sentence that says so (`clock::no_such_date`): chrono's own reads "input is out of range".
fn impossible_date(bytes: &[u8], path: &serde_path_to_error::Path) -> Option<String> {
    let body: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let mut at = &body;
    for segment in path.iter() {
        at = match segment {
            Segment::Seq { index } => at.get(*index)?,
            Segment::Map { key } => at.get(key)?,
            _ => return None,
        };
    }
    clock::no_such_date(at.as_str()?)
}

/// The field an "unknown field `x`" or "missing field `x`" message names.
fn named_field(message: &str) -> Option<String> {
    ["unknown field `", "missing field `"]
        .iter()
        .find_map(|prefix| message.strip_prefix(prefix))
        .and_then(|rest| rest.split('`').next())
        .map(str::to_string)
}

/// serde_json appends " at line 1 column 9" to data errors; a person does not need it.
fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

/// Parses a query string; a bad value is a 400 naming the parameter. Every list's filters pass
/// here (through [`QueryParams`] and the paging extractor), so this is the one place that refuses
/// a decoded value holding a control character: no filter means one, and SQLite reads a LIKE
/// pattern as a C string, so a `q` starting with NUL would match every row.
pub fn parse_query<T: DeserializeOwned>(query: Option<&str>) -> Result<T, AppError> {
    let pairs = form_urlencoded::parse(query.unwrap_or("").as_bytes());
    if let Some((name, _)) = pairs
        .clone()
        .find(|(_, value)| value.chars().any(char::is_control))
    {
        return Err(AppError::bad_request(
            "invalid_query",
            format!("The value of {name} holds a control character."),
        )
        .on_field(name.into_owned()));
    }
    let de = serde_urlencoded::Deserializer::new(pairs);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let err = AppError::bad_request("invalid_query", format!("Invalid query: {}.", e.inner()));
        if path == "." { err } else { err.on_field(path) }
    })
}

/// Query parameters, failing as [`parse_query`] does.
pub struct QueryParams<T>(pub T);

/// A query value that must be one of `choices`: out of range is a 400 naming it (decisions 3),
/// not a body's 422.
pub fn query_choice(field: &str, value: &Option<String>, choices: &[&str]) -> Result<(), AppError> {
    match value {
        Some(v) if !choices.contains(&v.as_str()) => Err(AppError::bad_request(
            "invalid_choice",
            format!("Choose one of: {}.", choices.join(", ")),
        )
        .on_field(field)),
        _ => Ok(()),
    }
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parse_query(parts.uri.query()).map(QueryParams)
    }
}

/// Who is asking: the client's address, whether it came over HTTPS, and its device string.
pub struct ClientInfo {
    pub ip: String,
    pub https: bool,
    pub user_agent: Option<String>,
    /// `http(s)://host[:port]` as the client addressed this server (for links it will follow).
    pub origin: Option<String>,
}

impl<S> FromRequestParts<S> for ClientInfo
where
    S: Send + Sync,
    Arc<Config>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let peer: Option<IpAddr> = ConnectInfo::<SocketAddr>::from_request_parts(parts, state)
            .await
            .ok()
            .map(|c| c.0.ip());
        let header = |name: &str| {
            parts
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
        };
        let via_trusted_proxy = peer.is_some() && peer == Arc::<Config>::from_ref(state).trusted_proxy;
        let forwarded = via_trusted_proxy
            .then(|| {
                header("x-forwarded-for")
                    .and_then(|v| v.rsplit(',').next())
                    .map(str::trim)
            })
            .flatten()
            .and_then(|v| v.parse::<IpAddr>().ok());
        let ip = forwarded
            .or(peer)
            .map(|ip| ip.to_string())
            .unwrap_or_else(|| "unknown".into());
        let https =
            via_trusted_proxy && header("x-forwarded-proto").is_some_and(|p| p.eq_ignore_ascii_case("https"));
        let user_agent = header("user-agent").map(|ua| ua.chars().take(512).collect());
        Ok(ClientInfo {
            origin: header("host")
                .filter(|h| {
                    !h.is_empty()
                        && h.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c))
                })
                .map(|h| format!("{}://{h}", if https { "https" } else { "http" })),
            ip,
            https,
            user_agent,
        })
    }
}

/// A record id from the path; a bad one is a 400 in the usual shape.
pub struct IdPath(pub String);

impl<S: Send + Sync> FromRequestParts<S> for IdPath {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map(|p| IdPath(p.0))
            .map_err(|_| AppError::bad_request("invalid_path", "The id in the address is not valid."))
    }
}
