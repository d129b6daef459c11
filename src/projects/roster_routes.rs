//! A module's roster: its active subscribers by client name, each with the price-book price of
//! today, and a footer revenue total over every active link (not just the page); and the same
//! roster as CSV, streamed row by row without holding it in memory.

use crate::AppState;
use crate::auth::session::AuthUser;
use crate::catalog::store as catalog_store;
use crate::db::page::{Page, Paginated};
use crate::db::settings;
use crate::error::{AppError, ErrorBody};
use crate::http::csv;
use crate::http::extract::IdPath;
use crate::projects::store::{self, RosterRow};
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
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
    let (sender, receiver) = tokio::sync::mpsc::channel::<Bytes>(4);
    let db = state.db.clone();
    let price = module.price_today.map(csv::amount).unwrap_or_default();
    tokio::task::spawn_blocking(move || {
        let streamed = db.read_blocking(|conn| {
            let mut chunk = csv::line(&["Client ID", "Client", "Price", "Next renewal"]);
            let mut gone = false;
            store::each_roster_row(conn, &id, user.book().as_deref(), |client_id, name, renewal| {
                chunk.push_str(&csv::line(&[client_id, name, &price, renewal.unwrap_or("")]));
                if chunk.len() >= 64 * 1024
                    && sender
                        .blocking_send(Bytes::from(std::mem::take(&mut chunk)))
                        .is_err()
                {
                    gone = true; // the client went away
                }
                !gone
            })?;
            if !gone {
                let _ = sender.blocking_send(Bytes::from(chunk));
            }
            Ok(())
        });
        if let Err(e) = streamed {
            tracing::error!(error = %e, "roster CSV stream failed");
        }
    });
    let stream = futures_util::stream::unfold(receiver, |mut rx| async move {
        rx.recv().await.map(|chunk| (Ok::<_, std::io::Error>(chunk), rx))
    });
    let mut response = Body::from_stream(stream).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    let name = format!("attachment; filename=\"{}-clients.csv\"", module.code);
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&name).map_err(AppError::internal)?,
    );
    Ok(response)
}
