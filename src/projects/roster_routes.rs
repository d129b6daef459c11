//! A module's roster: its active subscribers by client name, each with the price-book price of
//! today, and a footer revenue total over every active link (not just the page); and the same
//! roster as CSV, streamed row by row without holding it in memory.

use crate::auth::session::AuthUser;
use crate::catalog::store as catalog_store;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::IdPath;
use crate::projects::store::{self, RosterRow};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(roster))
        .routes(routes!(roster_csv))
}

#[derive(Serialize, ToSchema)]
pub struct Footer {
    /// Today's price times every active link in the caller's book (paise).
    pub revenue_total: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Roster {
    #[serde(flatten)]
    pub list: Paginated<RosterRow>,
    pub footer: Footer,
}

/// The module's active subscribers (staff: their own clients), with today's price and a revenue footer.
#[utoipa::path(get, path = "/api/modules/{id}/clients", tag = "catalog", params(("id" = String, Path), Page),
    responses((status = 200, body = Roster), (status = 404, body = ErrorBody)))]
async fn roster(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    page: Page,
) -> Result<Json<Roster>, AppError> {
    let roster = state
        .db
        .read(move |c| {
            let module = catalog_store::get(c, &id, settings::office_today(c)?)?
                .ok_or_else(|| AppError::not_found("module"))?;
            let list = store::roster(c, &id, user.book(), module.price_today, &page)?;
            let revenue_total = module.price_today.unwrap_or(0) * list.total;
            Ok(Roster {
                list,
                footer: Footer { revenue_total },
            })
        })
        .await?;
    Ok(Json(roster))
}

/// The whole roster as CSV (no row cap), streamed.
#[utoipa::path(get, path = "/api/modules/{id}/clients.csv", tag = "catalog", params(("id" = String, Path)),
    responses((status = 200, description = "Client ID, Client, Price (rupees), Next renewal", content_type = "text/csv"), (status = 404, body = ErrorBody)))]
async fn roster_csv(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Response, AppError> {
    let lookup = id.clone();
    let module = state
        .db
        .read(move |c| {
            catalog_store::get(c, &lookup, settings::office_today(c)?)?
                .ok_or_else(|| AppError::not_found("module"))
        })
        .await?;
    let price = module.price_today.map(csv::amount).unwrap_or_default();
    let name = format!("{}-clients.csv", module.code);
    csv::stream_lines(
        &state.db,
        name,
        &["Client ID", "Client", "Price", "Next renewal"],
        move |conn, emit| {
            let mut failed = None;
            store::each_roster_row(conn, &id, user.book().as_deref(), |client_id, name, renewal| {
                let sent = emit(&[client_id, name, &price, renewal.unwrap_or("")]);
                failed = sent.err();
                failed.is_none()
            })?;
            failed.map_or(Ok(()), Err)
        },
    )
    .await
}
