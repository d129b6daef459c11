//! The one error type of the API and the one place where it becomes HTTP (decisions.md section 3).
//!
//! A handler returns `Result<T, AppError>`. The user-facing text and the log text are separate:
//! an internal error logs its cause once and sends a generic sentence.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// An error answered to an API client as `{ "error": { code, message, field? } }`.
/// Boxed, so that `Result<T, AppError>` stays one pointer wide on the happy path.
#[derive(Debug)]
pub struct AppError(Box<ErrorParts>);

/// What an [`AppError`] carries; reached through `Deref`.
#[derive(Debug)]
pub struct ErrorParts {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub field: Option<String>,
    /// Seconds, for 429 and 503 answers.
    pub retry_after: Option<u64>,
    /// Login answers also carry `outcome` at the top level (decisions 4).
    pub outcome: Option<&'static str>,
    /// Locked sign-ins also carry when the lock ends.
    pub locked_until: Option<String>,
    /// Every invalid field of the body, when more than one is (decisions 10); the first is
    /// also `field`.
    pub errors: Vec<FieldError>,
    /// The cause of a 500, for the log only.
    internal: Option<String>,
}

/// Something a person should know about a request that was done all the same (decisions 9:
/// `"warnings": [ { "code", "message" } ]` beside the record).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Warning {
    pub code: &'static str,
    pub message: String,
}

/// One invalid field of a body.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FieldError {
    pub field: String,
    pub code: &'static str,
    pub message: String,
}

/// The JSON body of every error answer.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locked_until: Option<String>,
    pub error: ErrorDetail,
    /// Every invalid field, when a 422 found more than one; `error` names the first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

/// Collects what is wrong with a body, so that one 422 names every invalid field at once.
///   let mut checks = Checks::default();
///   let email = checks.check(check_email(&raw));
///   checks.done()?;
#[derive(Default)]
pub struct Checks(Vec<AppError>);

impl Checks {
    /// Keeps `result`'s error, if any, and answers its value.
    pub fn check<T>(&mut self, result: Result<T, AppError>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.0.push(e);
                None
            }
        }
    }

    pub fn fail(&mut self, error: AppError) {
        self.0.push(error);
    }

    /// The first error, carrying every field error found beside it; Ok when there was none.
    pub fn done(self) -> Result<(), AppError> {
        let mut all = self.0.into_iter();
        let Some(mut first) = all.next() else {
            return Ok(());
        };
        let rest: Vec<AppError> = all.collect();
        if !rest.is_empty() {
            first.errors = std::iter::once(&first)
                .chain(&rest)
                .filter_map(|e| {
                    Some(FieldError {
                        field: e.field.clone()?,
                        code: e.code,
                        message: e.message.clone(),
                    })
                })
                .collect();
        }
        Err(first)
    }
}

#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable snake_case code for programs.
    pub code: &'static str,
    /// A sentence for a person.
    pub message: String,
    /// The request field at fault, when there is exactly one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl AppError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        AppError(Box::new(ErrorParts {
            status,
            code,
            message: message.into(),
            field: None,
            retry_after: None,
            outcome: None,
            locked_until: None,
            errors: vec![],
            internal: None,
        }))
    }

    /// Names the one request field at fault.
    pub fn on_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }
    pub fn unauthorized() -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthenticated", "Please sign in.")
    }
    pub fn forbidden() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "Your role does not allow this.",
        )
    }
    pub fn not_found(what: &str) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", format!("No such {what}."))
    }
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }
    /// An outside provider (the mail server, the SMS gateway, the cloud provider) failed or
    /// answered what cannot be used: 502 with what it answered, so the office knows whose fault.
    pub fn upstream(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_GATEWAY, code, message)
    }
    /// A body that parses but holds an invalid value in `field`.
    pub fn invalid(field: &str, code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message).on_field(field)
    }
    pub fn rate_limited(retry_after: u64) -> Self {
        let mut e = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("Too many attempts. Try again in {retry_after} seconds."),
        );
        e.retry_after = Some(retry_after.max(1));
        e
    }
    /// The server cannot take the request now (the writer's queue is full); 503 with
    /// `Retry-After`.
    pub fn busy(retry_after: u64) -> Self {
        let mut e = Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            format!("The server is busy. Try again in {retry_after} seconds."),
        );
        e.retry_after = Some(retry_after.max(1));
        e
    }
    /// An unexpected failure: the cause is logged, the client sees a generic sentence.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        let mut e = Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Something went wrong on the server. The error has been logged.",
        );
        e.internal = Some(cause.to_string());
        e
    }
}

impl std::ops::Deref for AppError {
    type Target = ErrorParts;
    fn deref(&self) -> &ErrorParts {
        &self.0
    }
}

impl std::ops::DerefMut for AppError {
    fn deref_mut(&mut self) -> &mut ErrorParts {
        &mut self.0
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.internal.as_deref().unwrap_or(&self.message)
        )
    }
}

impl std::error::Error for AppError {}

impl From<rusqlite::Error> for AppError {
    fn from(e: rusqlite::Error) -> Self {
        AppError::internal(format!("database: {e}"))
    }
}

impl From<r2d2::Error> for AppError {
    fn from(e: r2d2::Error) -> Self {
        AppError::internal(format!("database pool: {e}"))
    }
}

impl From<serde_json::Error> for AppError {
    fn from(e: serde_json::Error) -> Self {
        AppError::internal(format!("json: {e}"))
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let this = *self.0;
        if let Some(cause) = &this.internal {
            tracing::error!(%cause, "internal error");
        }
        let body = ErrorBody {
            outcome: this.outcome,
            locked_until: this.locked_until,
            error: ErrorDetail {
                code: this.code,
                message: this.message,
                field: this.field,
            },
            errors: this.errors,
        };
        let mut response = (this.status, axum::Json(body)).into_response();
        if let Some(secs) = this.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// Turns a UNIQUE violation at the query that caused it into a 409 on `field`.
pub trait OnConstraint<T> {
    fn on_unique(self, field: &str, message: &str) -> Result<T, AppError>;
}

impl<T> OnConstraint<T> for Result<T, rusqlite::Error> {
    fn on_unique(self, field: &str, message: &str) -> Result<T, AppError> {
        self.map_err(|e| match &e {
            rusqlite::Error::SqliteFailure(f, _)
                if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                    || f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
            {
                AppError::conflict("duplicate", message).on_field(field)
            }
            _ => AppError::from(e),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_name_every_invalid_field_and_the_first_leads() {
        assert!(Checks::default().done().is_ok());
        let mut checks = Checks::default();
        assert_eq!(checks.check(Ok::<_, AppError>(7)), Some(7));
        checks.check::<()>(Err(AppError::invalid("name", "required", "Enter the name.")));
        checks.fail(AppError::invalid("email", "invalid_email", "Not an email."));
        let e = checks.done().unwrap_err();
        assert_eq!(
            (e.status, e.code, e.field.as_deref()),
            (StatusCode::UNPROCESSABLE_ENTITY, "required", Some("name"))
        );
        let fields: Vec<(&str, &str)> = e.errors.iter().map(|f| (f.field.as_str(), f.code)).collect();
        assert_eq!(fields, [("name", "required"), ("email", "invalid_email")]);
        let mut one = Checks::default();
        one.fail(AppError::invalid("name", "required", "Enter the name."));
        assert!(
            one.done().unwrap_err().errors.is_empty(),
            "one field: `error` alone"
        );
    }
}
