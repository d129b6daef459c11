//! The notify-all handler (spec 4.3): the notice checked, then `notify::notify_all`.

use crate::auth::session::Manager;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody};
use crate::projects::notify::{self, NotifyReport};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(notify))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Notice {
    pub subject: String,
    pub body: String,
}

/// Email every client subscribed to the module (managerial).
#[utoipa::path(post, path = "/api/modules/{id}/notify", tag = "catalog", params(("id" = String, Path)), request_body = Notice,
    responses((status = 200, body = NotifyReport), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn notify(
    State(state): State<AppState>,
    Manager(user): Manager,
    IdPath(id): IdPath,
    JsonBody(notice): JsonBody<Notice>,
) -> Result<Json<NotifyReport>, AppError> {
    let subject = notice.subject.trim().to_string();
    let body = notice.body.trim().to_string();
    if subject.is_empty() || subject.chars().count() > 200 {
        return Err(AppError::invalid(
            "subject",
            "required",
            "Give a subject (at most 200 characters).",
        ));
    }
    if body.is_empty() || body.chars().count() > 20_000 {
        return Err(AppError::invalid(
            "body",
            "required",
            "Write the message (at most 20,000 characters).",
        ));
    }
    Ok(Json(notify::notify_all(&state, &user, id, subject, body).await?))
}
