//! `GET /api/reports/tds-receivable` and its CSV twin, `POST /api/tds-certificates` and
//! `POST /api/tds/26as` (owner and manager), and `GET, PUT /api/settings/tds` (owner, audited).

use crate::auth::session::{Manager, Owner};
use crate::plumbing::db::page::Page;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{JsonBody, QueryParams};
use crate::state::AppState;
use crate::tds::{
    self, Asked, Form26asImport, Form26asInput, TdsCertificate, TdsCertificateInput, TdsReceivable,
    TdsSettings, TdsSettingsInput, form26as,
};
use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(receivable))
        .routes(routes!(receivable_csv))
        .routes(routes!(record_certificate))
        .routes(routes!(import_26as).layer(DefaultBodyLimit::max(form26as::BODY_LIMIT)))
        .routes(routes!(get_settings, put_settings))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReceivableQuery {
    /// The financial year, YYYY-YY (default: the office's current one).
    pub fy: Option<String>,
    /// Q1 to Q4 (default: every quarter of the year).
    pub quarter: Option<String>,
    /// awaited, received, mismatch, short_filed or not_filed.
    pub state: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
}

impl From<ReceivableQuery> for Asked {
    fn from(q: ReceivableQuery) -> Asked {
        Asked {
            fy: q.fy,
            quarter: q.quarter,
            state: q.state,
            q: q.q,
        }
    }
}

/// TDS receivable (owner and manager): per client and quarter of a financial year, the TDS
/// booked on its recorded payments, the Form 16A recorded and the state (awaited, received,
/// mismatch; with an upload of Form 26AS, short_filed and not_filed), with the counts per state
/// and the totals. Sort by client_name, quarter, booked, certified, filed, state, due_on,
/// issued_on or certificate_no.
#[utoipa::path(get, path = "/api/reports/tds-receivable", tag = "reports", params(ReceivableQuery, Page),
    responses((status = 200, body = TdsReceivable),
              (status = 400, description = "A financial year, quarter, state or sort out of range (`invalid_fy`, `invalid_quarter`, `invalid_state`, `invalid_sort`)", body = ErrorBody),
              (status = 403, body = ErrorBody)))]
async fn receivable(
    State(state): State<AppState>,
    _manager: Manager,
    page: Page,
    QueryParams(q): QueryParams<ReceivableQuery>,
) -> Result<Json<TdsReceivable>, AppError> {
    let asked = Asked::from(q);
    Ok(Json(
        state.db.read(move |c| tds::receivable(c, &asked, &page)).await?,
    ))
}

/// Every row of the TDS receivable the filters and sort select, as CSV (rupees with two
/// decimals), the totals last.
#[utoipa::path(get, path = "/api/reports/tds-receivable.csv", tag = "reports", params(ReceivableQuery, Page),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered report"),
              (status = 400, description = "A financial year, quarter, state or sort out of range", body = ErrorBody),
              (status = 403, body = ErrorBody)))]
async fn receivable_csv(
    State(state): State<AppState>,
    _manager: Manager,
    page: Page,
    QueryParams(q): QueryParams<ReceivableQuery>,
) -> Result<Response, AppError> {
    let asked = Asked::from(q);
    let (name, body) = state
        .db
        .read(move |c| tds::receivable_csv(c, &asked, page.sort.as_deref()))
        .await?;
    Ok(csv::attachment(&name, body))
}

/// Record a society's Form 16A for a quarter (owner and manager, audited). Every wrong field is
/// named at once and nothing is written. A certificate already recorded for that client and
/// quarter is replaced (a revised Form 16A): 200, the audit row holding before and after; a
/// first one is 201. Answers the certificate with its state against what is booked.
#[utoipa::path(post, path = "/api/tds-certificates", tag = "reports", request_body = TdsCertificateInput,
    responses((status = 201, description = "A first certificate for that client and quarter", body = TdsCertificate),
              (status = 200, description = "A revised certificate replaced the one recorded", body = TdsCertificate),
              (status = 403, body = ErrorBody),
              (status = 422, description = "Unknown client, a bad financial year or quarter, a blank or too long certificate number, an issue day that is not a date, in the future or before the quarter's last day, an amount that is not a positive whole number of paise", body = ErrorBody)))]
async fn record_certificate(
    State(state): State<AppState>,
    Manager(user): Manager,
    JsonBody(input): JsonBody<TdsCertificateInput>,
) -> Result<(StatusCode, Json<TdsCertificate>), AppError> {
    let recorded = state
        .db
        .write(move |tx| tds::record_certificate(tx, &user, input))
        .await?;
    let status = if recorded.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(recorded.certificate)))
}

/// Upload the vendor's Form 26AS for a financial year (owner and manager, audited with the
/// counts): the text download TRACES gives, `^`-separated. Its Part I (what each society
/// deposited against the vendor's PAN) replaces the year's last upload, and the TDS receivable
/// report compares it with the TDS booked, per client and quarter. A file that cannot be read
/// (the line named), of another year or of another PAN is refused and nothing is written.
#[utoipa::path(post, path = "/api/tds/26as", tag = "reports", request_body = Form26asInput,
    responses((status = 200, description = "What the statement holds and how it matched", body = Form26asImport),
              (status = 403, body = ErrorBody),
              (status = 413, description = "A body over 16 MiB", body = ErrorBody),
              (status = 422, description = "A missing or bad financial year (`invalid_fy`), a file of another year (`fy_mismatch`), a text that is not a Form 26AS download or is cut or edited (`invalid_26as`, the line named), a statement of another PAN than the company's GSTIN carries (`pan_mismatch`)", body = ErrorBody)))]
async fn import_26as(
    State(state): State<AppState>,
    Manager(user): Manager,
    JsonBody(input): JsonBody<Form26asInput>,
) -> Result<Json<Form26asImport>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| tds::import_26as(tx, &user, input))
            .await?,
    ))
}

/// The TDS settings (owner): the section of a client whose record names none.
#[utoipa::path(get, path = "/api/settings/tds", tag = "settings",
    responses((status = 200, body = TdsSettings), (status = 403, body = ErrorBody)))]
async fn get_settings(State(state): State<AppState>, _owner: Owner) -> Result<Json<TdsSettings>, AppError> {
    Ok(Json(state.db.read(tds::settings_view).await?))
}

/// Set the default TDS section (owner, audited, in force from today): 194J or 194C.
#[utoipa::path(put, path = "/api/settings/tds", tag = "settings", request_body = TdsSettingsInput,
    responses((status = 200, body = TdsSettings), (status = 403, body = ErrorBody),
              (status = 422, description = "default_section is missing or not 194J or 194C (`invalid_tds_section`)", body = ErrorBody)))]
async fn put_settings(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<TdsSettingsInput>,
) -> Result<Json<TdsSettings>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| tds::save_settings_in(tx, &user, input))
            .await?,
    ))
}
