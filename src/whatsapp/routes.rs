//! WhatsApp click-to-chat for documents and reminders (decisions 12): GET answers the chat,
//! POST records that it was sent.

use crate::auth::session::AuthUser;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams};
use crate::state::AppState;
use crate::statements::StatementPeriod;
use crate::whatsapp::{self, Message, Sent};
use axum::Json;
use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(document_chat, document_sent))
        .routes(routes!(reminder_chat, reminder_sent))
        .routes(routes!(statement_chat, statement_sent))
}

/// The WhatsApp chat about a document of the caller's book: the number (the client's contact
/// marked WhatsApp, else the secretary, else any mobile, else the client's phone) and the
/// click-to-chat link with the message written.
#[utoipa::path(get, path = "/api/documents/{id}/whatsapp", tag = "whatsapp", params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody),
              (status = 409, description = "No usable mobile (`no_whatsapp_number`), or a draft (`not_shareable`)", body = ErrorBody)))]
async fn document_chat(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Message>, AppError> {
    let config = state.config.clone();
    Ok(Json(
        state
            .db
            .read(move |c| whatsapp::for_document(c, &user, &id, &config))
            .await?,
    ))
}

/// Records that the chat about a document was sent: a `whatsapp` interaction on the client.
#[utoipa::path(post, path = "/api/documents/{id}/whatsapp", tag = "whatsapp", params(("id" = String, Path)),
    responses((status = 200, body = Sent), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn document_sent(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Sent>, AppError> {
    let config = state.config.clone();
    Ok(Json(
        state
            .db
            .write(move |tx| whatsapp::record_document_in(tx, &user, &id, &config))
            .await?,
    ))
}

/// The WhatsApp chat about a reminder of the caller's share: the words its email would carry.
#[utoipa::path(get, path = "/api/reminders/{id}/whatsapp", tag = "whatsapp", params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody),
              (status = 409, description = "No usable mobile (`no_whatsapp_number`), or a kind that is not sent", body = ErrorBody)))]
async fn reminder_chat(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Message>, AppError> {
    let config = state.config.clone();
    Ok(Json(
        state
            .db
            .read(move |c| whatsapp::for_reminder(c, &user, &id, &config))
            .await?,
    ))
}

/// Records that the chat about a reminder was sent: a `whatsapp` interaction on the client, and
/// an open or failed reminder becomes `sent` (audited).
#[utoipa::path(post, path = "/api/reminders/{id}/whatsapp", tag = "whatsapp", params(("id" = String, Path)),
    responses((status = 200, body = Sent), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn reminder_sent(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Sent>, AppError> {
    let config = state.config.clone();
    Ok(Json(
        state
            .db
            .write(move |tx| whatsapp::record_reminder_in(tx, &user, &id, &config))
            .await?,
    ))
}

/// The WhatsApp chat about a client's statement of account for the period (the statement's own
/// default: this financial year to today): the balance at its end and the UPI link for it.
#[utoipa::path(get, path = "/api/clients/{id}/statement/whatsapp", tag = "whatsapp", params(("id" = String, Path), StatementPeriod),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody),
              (status = 409, description = "No usable mobile (`no_whatsapp_number`)", body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn statement_chat(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    QueryParams(q): QueryParams<StatementPeriod>,
) -> Result<Json<Message>, AppError> {
    Ok(Json(
        state
            .db
            .read(move |c| whatsapp::for_statement(c, &user, &id, &q))
            .await?,
    ))
}

/// Records that the chat about a statement was sent: a `whatsapp` interaction on the client;
/// the body names the period as the GET's query does (`{ from?, to? }`).
#[utoipa::path(post, path = "/api/clients/{id}/statement/whatsapp", tag = "whatsapp", params(("id" = String, Path)),
    request_body = StatementPeriod,
    responses((status = 200, body = Sent), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn statement_sent(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(q): JsonBody<StatementPeriod>,
) -> Result<Json<Sent>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| whatsapp::record_statement_in(tx, &user, &id, &q))
            .await?,
    ))
}
