//! `GET /api/clients/{id}/statement` with its `.csv` and `.pdf` twins (decisions 12, "statement
//! of account"). The staff book applies: a client outside it is a 404.

use crate::auth::session::{AuthUser, Manager};
use crate::clients::store::visible_client;
use crate::company::letterhead;
use crate::documents::delivery::EmailOutcome;
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams};
use crate::state::AppState;
use crate::statements::delivery::{self, SendStatement};
use crate::statements::year_end::{self, YearEnd};
use crate::statements::{Statement, StatementPeriod, statement};
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(statement_json))
        .routes(routes!(statement_csv))
        .routes(routes!(statement_pdf))
        .routes(routes!(send_statement))
        .routes(routes!(year_end_clients))
        .routes(routes!(year_end_csv))
}

/// The statement of the client `id` for the period asked for, and the letterhead of its paper.
async fn read(
    state: &AppState,
    user: AuthUser,
    id: String,
    q: StatementPeriod,
) -> Result<(Statement, letterhead::Letterhead), AppError> {
    state
        .db
        .read(move |c| {
            let client = visible_client(c, &user, &id)?;
            let period = q.period(settings::office_today(c)?)?;
            Ok((statement(c, &client, period)?, letterhead::letterhead(c, &[])?))
        })
        .await
}

/// The client's statement of account: opening, rows with a running balance, closing, aging,
/// open invoices (paise).
#[utoipa::path(get, path = "/api/clients/{id}/statement", tag = "clients", params(("id" = String, Path), StatementPeriod),
    responses((status = 200, body = Statement), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn statement_json(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    QueryParams(q): QueryParams<StatementPeriod>,
) -> Result<Json<Statement>, AppError> {
    Ok(Json(read(&state, user, id, q).await?.0))
}

/// The statement as CSV: the opening, a line per row and the closing, amounts in rupees with two
/// decimals (decisions 12).
#[utoipa::path(get, path = "/api/clients/{id}/statement.csv", tag = "clients", params(("id" = String, Path), StatementPeriod),
    responses((status = 200, content_type = "text/csv", description = "Date, Kind, Reference, Debit, Credit, Balance in rupees"),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn statement_csv(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    QueryParams(q): QueryParams<StatementPeriod>,
) -> Result<Response, AppError> {
    let (s, _) = read(&state, user, id, q).await?;
    let mut out = csv::line(&["Date", "Kind", "Reference", "Debit", "Credit", "Balance"]);
    out.push_str(&csv::line(&[
        &s.from,
        "Opening balance",
        "",
        "",
        "",
        &csv::amount(s.opening),
    ]));
    for r in &s.rows {
        out.push_str(&csv::line(&[
            &r.date,
            r.kind.label(),
            &r.reference,
            &csv::amount(r.debit),
            &csv::amount(r.credit),
            &csv::amount(r.balance),
        ]));
    }
    out.push_str(&csv::line(&[
        &s.to,
        "Closing balance",
        "",
        &csv::amount(s.totals.debit),
        &csv::amount(s.totals.credit),
        &csv::amount(s.closing),
    ]));
    Ok(csv::attachment(&s.file_name("csv"), out))
}

/// The statement as an A4 PDF on the letterhead, with the UPI code when something is owed.
#[utoipa::path(get, path = "/api/clients/{id}/statement.pdf", tag = "clients", params(("id" = String, Path), StatementPeriod),
    responses((status = 200, content_type = "application/pdf", body = Vec<u8>), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn statement_pdf(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    QueryParams(q): QueryParams<StatementPeriod>,
) -> Result<Response, AppError> {
    let (s, lh) = read(&state, user, id, q).await?;
    let name = s.file_name("pdf");
    let bytes = tokio::task::spawn_blocking(move || crate::statements::pdf::statement_pdf(&s, &lh))
        .await
        .map_err(AppError::internal)??;
    Ok(crate::documents::pdf_response(
        bytes,
        Some(name.trim_end_matches(".pdf")),
        false,
    ))
}

/// Emails the statement's PDF to the client (an email_log row and an audit row, sent or not).
#[utoipa::path(post, path = "/api/clients/{id}/statement/send", tag = "clients", params(("id" = String, Path)), request_body = SendStatement,
    responses((status = 200, body = EmailOutcome), (status = 404, body = ErrorBody),
              (status = 409, description = "No mail provider, or no address to send to", body = ErrorBody),
              (status = 422, body = ErrorBody)))]
async fn send_statement(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<SendStatement>,
) -> Result<Json<EmailOutcome>, AppError> {
    Ok(Json(delivery::send(&state, user, id, req).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct YearEndQuery {
    /// `2026-27`; default the current financial year.
    pub fy: Option<String>,
}

/// The year-end run's clients: every client whose statement for the year closes with something
/// owed, its address and whether its statement went there today (owner and manager).
#[utoipa::path(get, path = "/api/statements/year-end", tag = "reports", params(YearEndQuery),
    responses((status = 200, body = YearEnd), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn year_end_clients(
    State(state): State<AppState>,
    _: Manager,
    QueryParams(q): QueryParams<YearEndQuery>,
) -> Result<Json<YearEnd>, AppError> {
    Ok(Json(
        state
            .db
            .read(move |c| year_end::year_end(c, q.fy.as_deref()))
            .await?,
    ))
}

/// The year-end run's clients as a CSV: client ID, client, closing, the address the statement
/// goes to and whether it went there today (owner and manager).
#[utoipa::path(get, path = "/api/statements/year-end.csv", tag = "reports", params(YearEndQuery),
    responses((status = 200, content_type = "text/csv", body = String), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn year_end_csv(
    State(state): State<AppState>,
    _: Manager,
    QueryParams(q): QueryParams<YearEndQuery>,
) -> Result<Response, AppError> {
    let y = state
        .db
        .read(move |c| year_end::year_end(c, q.fy.as_deref()))
        .await?;
    let mut out = csv::line(&["Client ID", "Client", "Closing", "Sent to", "Sent today"]);
    for r in &y.rows {
        out.push_str(&csv::line(&[
            &r.client_id,
            &r.client_name,
            &csv::amount(r.closing),
            r.email.as_deref().unwrap_or(""),
            if r.sent_today { "yes" } else { "no" },
        ]));
    }
    Ok(csv::attachment(&format!("year-end-statements-{}.csv", y.fy), out))
}
