//! The handlers of proformas made from a subscription: the renewal quote and the bulk SMS
//! top-up. The drafts are made by `quotes`.

use crate::auth::session::AuthUser;
use crate::documents::drafts::DocumentReply;
use crate::documents::quotes;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(renewal_quote))
        .routes(routes!(bulk_sms_quote))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SmsCount {
    /// How many SMS credits to quote.
    pub count: i64,
}

/// A renewal PROFORMA for the subscription at today's price-book rate, naming its kind and edition.
#[utoipa::path(post, path = "/api/client-modules/{id}/renewal-quote", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, description = "The new draft", body = DocumentReply), (status = 404, body = ErrorBody),
              (status = 422, description = "No price on today's date", body = ErrorBody)))]
async fn renewal_quote(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<DocumentReply>, AppError> {
    let reply = state
        .db
        .write(move |tx| quotes::renewal_quote_in(tx, &user, &id))
        .await?;
    Ok(Json(reply))
}

/// A PROFORMA for an SMS top-up of `count` credits, priced by the module's rate card; under the
/// minimum order is a 422 on `count`.
#[utoipa::path(post, path = "/api/client-modules/{id}/bulk-sms-quote", tag = "documents", request_body = SmsCount, params(("id" = String, Path)),
    responses((status = 200, description = "The new draft", body = DocumentReply), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn bulk_sms_quote(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<SmsCount>,
) -> Result<Json<DocumentReply>, AppError> {
    let reply = state
        .db
        .write(move |tx| quotes::sms_quote_in(tx, &user, &id, req.count))
        .await?;
    Ok(Json(reply))
}
