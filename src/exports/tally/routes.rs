//! `GET /api/exports/tally` (owner and manager) and `GET, PUT /api/settings/tally` (owner,
//! audited): decisions 12, "Tally".

use crate::auth::session::{Manager, Owner};
use crate::exports::tally::envelope::Report;
use crate::exports::tally::rules::Ledgers;
use crate::exports::tally::{self, TallySettingsInput};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::download::{headers, stream_body};
use crate::plumbing::http::extract::{JsonBody, QueryParams, query_choice};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(export))
        .routes(routes!(get_settings, put_settings))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TallyQuery {
    /// YYYY-MM-DD; default 1 April of the financial year of `to`.
    pub from: Option<NaiveDate>,
    /// YYYY-MM-DD; default the office's today.
    pub to: Option<NaiveDate>,
    /// 1: the party ledgers alone (masters), no voucher; 0 or absent: the vouchers.
    pub masters: Option<String>,
}

/// The bytes of the envelope in chunks of this size, as they are written.
const CHUNK: usize = 64 * 1024;

/// The period's vouchers for TallyPrime's Import Data (owner and manager): one `VOUCHER` per
/// issued invoice (Sales), credit note (Credit Note) and recorded payment (Receipt) dated in the
/// period, each balanced under Tally's signs and carrying its id as `REMOTEID`, so a second
/// import alters the vouchers of the first; with `masters=1` the party ledgers of the period's
/// clients (under Sundry Debtors) on their own. Ledger names come from `/api/settings/tally`.
#[utoipa::path(get, path = "/api/exports/tally", tag = "reports", params(TallyQuery),
    responses((status = 200, content_type = "application/xml", body = String, description = "An Import Data envelope, streamed"),
              (status = 400, description = "A date that is not YYYY-MM-DD, or masters neither 0 nor 1", body = ErrorBody),
              (status = 403, body = ErrorBody),
              (status = 422, description = "from after to (`invalid_period`)", body = ErrorBody)))]
async fn export(
    State(state): State<AppState>,
    _manager: Manager,
    QueryParams(q): QueryParams<TallyQuery>,
) -> Result<Response, AppError> {
    query_choice("masters", &q.masters, &["0", "1"])?;
    let report = if q.masters.as_deref() == Some("1") {
        Report::Masters
    } else {
        Report::Vouchers
    };
    let (from, to) = (q.from, q.to);
    let (period, ledgers) = state.db.read(move |c| tally::prepare(c, from, to)).await?;
    let headers = headers("application/xml; charset=utf-8", &period.file_name(report));
    let body = stream_body(&state.db, move |c, sink| {
        tally::export(c, period, report, &ledgers, CHUNK, sink)
    })
    .await?;
    Ok((headers, body).into_response())
}

/// The Tally ledger names (owner and manager; only the owner sets them): what the export's
/// vouchers post to.
#[utoipa::path(get, path = "/api/settings/tally", tag = "settings",
    responses((status = 200, body = Ledgers), (status = 403, body = ErrorBody)))]
async fn get_settings(State(state): State<AppState>, _manager: Manager) -> Result<Json<Ledgers>, AppError> {
    Ok(Json(state.db.read(tally::settings_view).await?))
}

/// Set the Tally ledger names (owner, audited, in force from today). An absent name is left as
/// it is; every wrong one is named at once and nothing is written.
#[utoipa::path(put, path = "/api/settings/tally", tag = "settings", request_body = TallySettingsInput,
    responses((status = 200, body = Ledgers), (status = 403, body = ErrorBody),
              (status = 422, description = "A ledger name empty (`required`), over 100 characters (`too_long`) or of more than one line (`invalid_value`)", body = ErrorBody)))]
async fn put_settings(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<TallySettingsInput>,
) -> Result<Json<Ledgers>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| tally::save_settings_in(tx, &user, input))
            .await?,
    ))
}
