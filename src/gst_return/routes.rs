//! `GET /api/reports/gstr1` (owner and manager): the month's GSTR-1 as a summary with its
//! warnings, or downloaded as the offline tool's CSV sheet of one section or the portal's JSON.

use crate::auth::session::Manager;
use crate::gst_return::gstr1;
use crate::gst_return::portal::{portal, portal_text};
use crate::gst_return::rules::Gstr1;
use crate::gst_return::sheets::{self, Sheet};
use crate::plumbing::clock::Month;
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::download::headers;
use crate::plumbing::http::extract::QueryParams;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(gstr1_report))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Gstr1Query {
    /// The month filed, YYYY-MM (default: last month).
    pub period: Option<String>,
    /// Absent: the summary; `portal`: the portal's GSTR-1 JSON; `csv`: the offline tool's sheet
    /// of `section`.
    pub format: Option<String>,
    /// With `format=csv`: `b2b`, `b2cl`, `b2cs`, `cdnr`, `cdnur`, `hsn`, `hsn_b2b`, `hsn_b2c` or
    /// `docs`.
    pub section: Option<String>,
}

/// What the request asks for.
enum Asked {
    Summary,
    Portal,
    Sheet(Sheet),
}

impl Gstr1Query {
    fn asked(&self) -> Result<Asked, AppError> {
        let section = self.section.as_deref().map(str::trim).filter(|s| !s.is_empty());
        let format = self.format.as_deref().map(str::trim).filter(|s| !s.is_empty());
        let wrong_section = || {
            AppError::bad_request(
                "invalid_section",
                "section is b2b, b2cl, b2cs, cdnr, cdnur, hsn, hsn_b2b, hsn_b2c or docs, with format=csv.",
            )
            .on_field("section")
        };
        match (format, section) {
            (None, None) => Ok(Asked::Summary),
            (Some("portal"), None) => Ok(Asked::Portal),
            (Some("csv"), Some(s)) => Sheet::parse(s).map(Asked::Sheet).ok_or_else(wrong_section),
            (Some("csv"), None) | (None | Some("portal"), Some(_)) => Err(wrong_section()),
            (Some(_), _) => Err(AppError::bad_request(
                "invalid_format",
                "format is portal or csv (absent for the summary).",
            )
            .on_field("format")),
        }
    }

    async fn period(&self, state: &AppState) -> Result<Month, AppError> {
        match self.period.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            Some(text) => Month::parse(text).ok_or_else(|| {
                AppError::bad_request("invalid_period", "period is a month as YYYY-MM, from 2000-01.")
                    .on_field("period")
            }),
            None => Ok(Month::of(state.db.read(settings::office_today).await?).previous()),
        }
    }
}

/// The month's GSTR-1 from its issued invoices and credit notes (cancelled ones left out, legacy
/// invoices in): B2B, B2C large and small, credit notes to registered and unregistered clients,
/// nil-rated supplies, the HSN/SAC summary (whole, B2B and B2C) and the documents issued, with
/// the totals (the GST summary's for the month) and what would make the offline tool refuse the
/// file. `format=portal` downloads the portal's JSON, `format=csv&section=` one offline-tool sheet.
#[utoipa::path(get, path = "/api/reports/gstr1", tag = "reports", params(Gstr1Query),
    responses((status = 200, body = Gstr1, description = "The summary; with format=portal the portal's JSON (an attachment), with format=csv the sheet (text/csv)"),
              (status = 400, description = "A bad period, format or section", body = ErrorBody),
              (status = 403, description = "Staff", body = ErrorBody)))]
async fn gstr1_report(
    State(state): State<AppState>,
    _manager: Manager,
    QueryParams(q): QueryParams<Gstr1Query>,
) -> Result<Response, AppError> {
    let asked = q.asked()?;
    let period = q.period(&state).await?;
    let (g, gstin) = state.db.read(move |c| gstr1(c, period)).await?;
    Ok(match asked {
        Asked::Summary => Json(g).into_response(),
        Asked::Sheet(sheet) => csv::attachment(
            &format!("gstr1-{period}-{}.csv", sheet.name()),
            sheets::sheet(&g, sheet),
        ),
        Asked::Portal => {
            let gstin = gstin.unwrap_or_default();
            let fp = period.first_day().format("%m%Y");
            (
                headers("application/json", &format!("GSTR1_{gstin}_{fp}.json")),
                portal_text(&portal(&g, &gstin, period)),
            )
                .into_response()
        }
    })
}
