//! `GET, POST /api/tickets`, its CSV twin, `GET /api/tickets/types`, `GET, PATCH
//! /api/tickets/{id}` and `POST /api/tickets/{id}/bill` (decisions 5, 9, 11): for every
//! signed-in user, staff within their share (their clients' tickets and those assigned to them);
//! `GET/PUT /api/settings/tickets` (PUT owner, audited; decisions 12).

use crate::auth::session::{AuthUser, Owner};
use crate::documents::drafts::DocumentReply;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams};
use crate::state::AppState;
use crate::tickets::store::{self, Ticket, TicketFilter};
use crate::tickets::{self, TicketDetail, TicketInput, TicketSettings, TicketSettingsInput, rules};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_tickets, open_ticket))
        .routes(routes!(tickets_csv))
        .routes(routes!(ticket_types))
        .routes(routes!(get_ticket_settings, put_ticket_settings))
        .routes(routes!(get_ticket, patch_ticket))
        .routes(routes!(bill_ticket))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TicketQuery {
    /// still_open (default: open, in_progress and waiting_on_client), open, in_progress,
    /// waiting_on_client, resolved, closed or all.
    pub chip: Option<String>,
    /// 1: assigned to me.
    pub mine: Option<u8>,
    /// Part of the subject, the description or the client's name.
    pub search: Option<String>,
    /// One type; blank means all.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub ticket_type: Option<String>,
    /// 1: only those still open past `ticket.sla_days`.
    pub overdue: Option<u8>,
    pub client_id: Option<String>,
}

impl TicketQuery {
    fn filter(self, user: &AuthUser) -> Result<TicketFilter, AppError> {
        let chip = match self.chip.as_deref().map(str::trim) {
            None | Some("") => rules::DEFAULT_CHIP,
            Some(c) => rules::CHIPS.iter().find(|k| **k == c).copied().ok_or_else(|| {
                AppError::bad_request(
                    "invalid_chip",
                    format!("chip is one of {}.", rules::CHIPS.join(", ")),
                )
                .on_field("chip")
            })?,
        };
        let blank = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        Ok(TicketFilter {
            chip: chip.to_string(),
            assignee_id: (self.mine == Some(1)).then(|| user.id.clone()),
            search: blank(self.search),
            ticket_type: blank(self.ticket_type),
            overdue: self.overdue == Some(1),
            client_id: blank(self.client_id),
            book: user.book(),
        })
    }
}

/// A page of tickets with what the list's chips and kind box show.
#[derive(Serialize, ToSchema)]
pub struct TicketList {
    #[serde(flatten)]
    pub page: Paginated<Ticket>,
    /// The count of each chip under the other filters.
    pub counts: BTreeMap<String, i64>,
    /// Kinds already used, the most used first.
    pub kind_suggestions: Vec<String>,
    /// `ticket.sla_days` in force today: a still-open ticket older than this is overdue.
    pub sla_days: i64,
}

/// Tickets (staff: their share): still-open chips oldest first, the others newest first. Sort
/// by opened_on, resolved_on, subject, client_name, status, type, kind or created_at.
#[utoipa::path(get, path = "/api/tickets", tag = "tickets", params(TicketQuery, Page),
    responses((status = 200, body = TicketList), (status = 400, body = ErrorBody)))]
async fn list_tickets(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<TicketQuery>,
) -> Result<Json<TicketList>, AppError> {
    let filter = q.filter(&user)?;
    let listed = state.db.read(move |c| tickets::list(c, &filter, &page)).await?;
    Ok(Json(TicketList {
        page: listed.page,
        counts: listed.counts,
        kind_suggestions: listed.kind_suggestions,
        sla_days: listed.sla_days,
    }))
}

const TICKET_CSV: &[&str] = &[
    "Opened",
    "Client",
    "Subject",
    "Type",
    "Kind",
    "Status",
    "Assignee",
    "Resolved",
    "Age (days)",
    "Overdue",
];

fn ticket_cells(t: &Ticket) -> Vec<String> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        t.opened_on.clone(),
        t.client_name.clone(),
        t.subject.clone(),
        t.ticket_type.clone(),
        text(&t.kind),
        t.status.clone(),
        text(&t.assignee_name),
        text(&t.resolved_on),
        t.age.to_string(),
        if t.overdue == 1 { "yes" } else { "" }.to_string(),
    ]
}

/// Every ticket the list's filters and sort select, as CSV.
#[utoipa::path(get, path = "/api/tickets.csv", tag = "tickets", params(TicketQuery, Page),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list"),
              (status = 400, body = ErrorBody)))]
async fn tickets_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<TicketQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user)?;
    csv::stream(
        &state.db,
        "tickets.csv".into(),
        TICKET_CSV,
        page.sort,
        move |c| Ok(store::list(&filter, tickets::clock(c)?)),
        ticket_cells,
    )
    .await
}

#[derive(Serialize, ToSchema)]
pub struct TicketTypes {
    /// The `ticket.types` setting in force.
    pub rows: Vec<String>,
}

/// The ticket types a ticket may take.
#[utoipa::path(get, path = "/api/tickets/types", tag = "tickets",
    responses((status = 200, body = TicketTypes)))]
async fn ticket_types(State(state): State<AppState>, _user: AuthUser) -> Result<Json<TicketTypes>, AppError> {
    let rows = state.db.read(tickets::types).await?;
    Ok(Json(TicketTypes { rows }))
}

/// The ticket settings in force (everyone): the types a ticket may take.
#[utoipa::path(get, path = "/api/settings/tickets", tag = "settings",
    responses((status = 200, body = TicketSettings)))]
async fn get_ticket_settings(
    State(state): State<AppState>,
    _user: AuthUser,
) -> Result<Json<TicketSettings>, AppError> {
    Ok(Json(state.db.read(tickets::ticket_settings).await?))
}

/// Replace the ticket types (owner, audited), in force from today.
#[utoipa::path(put, path = "/api/settings/tickets", tag = "settings", request_body = TicketSettingsInput,
    responses((status = 200, body = TicketSettings), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn put_ticket_settings(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<TicketSettingsInput>,
) -> Result<Json<TicketSettings>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| tickets::save_settings_in(tx, &user, input))
            .await?,
    ))
}

/// One ticket with its timeline (404 outside the caller's share).
#[utoipa::path(get, path = "/api/tickets/{id}", tag = "tickets", params(("id" = String, Path)),
    responses((status = 200, body = TicketDetail), (status = 404, body = ErrorBody)))]
async fn get_ticket(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<TicketDetail>, AppError> {
    Ok(Json(
        state.db.read(move |c| tickets::detail(c, &user, &id)).await?,
    ))
}

/// Open a ticket for a client in the caller's book; every invalid field is named at once.
#[utoipa::path(post, path = "/api/tickets", tag = "tickets", request_body = TicketInput,
    responses((status = 201, body = TicketDetail), (status = 422, body = ErrorBody)))]
async fn open_ticket(
    State(state): State<AppState>,
    user: AuthUser,
    JsonBody(input): JsonBody<TicketInput>,
) -> Result<(StatusCode, Json<TicketDetail>), AppError> {
    let opened = state
        .db
        .write(move |tx| tickets::open_in(tx, &user, &input))
        .await?;
    Ok((StatusCode::CREATED, Json(opened)))
}

/// Change a ticket's fields, move its status or add a note (`note`); absent fields stay.
#[utoipa::path(patch, path = "/api/tickets/{id}", tag = "tickets", params(("id" = String, Path)), request_body = TicketInput,
    responses((status = 200, body = TicketDetail), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn patch_ticket(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<TicketInput>,
) -> Result<Json<TicketDetail>, AppError> {
    let changed = state
        .db
        .write(move |tx| tickets::change_in(tx, &user, &id, &input))
        .await?;
    Ok(Json(changed))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct BillRequest {
    /// INVOICE (default), PROFORMA or QUOTATION.
    #[serde(rename = "type")]
    pub doc_type: Option<String>,
}

/// Bill a ticket: a draft document for its client naming the ticket, linked on its timeline.
/// Answers the new draft at the top level.
#[utoipa::path(post, path = "/api/tickets/{id}/bill", tag = "tickets", params(("id" = String, Path)), request_body = BillRequest,
    responses((status = 200, description = "The new draft", body = DocumentReply), (status = 404, body = ErrorBody),
              (status = 409, description = "Billed already (that document is not cancelled)", body = ErrorBody),
              (status = 422, body = ErrorBody)))]
async fn bill_ticket(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<BillRequest>,
) -> Result<Json<DocumentReply>, AppError> {
    let draft = state
        .db
        .write(move |tx| tickets::bill_in(tx, &user, &id, req.doc_type))
        .await?;
    Ok(Json(draft))
}
