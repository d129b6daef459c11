//! `GET /api/reports/dues-aging` (with its drill-down and CSV) and `GET /api/reports/gst-summary`
//! (with its CSV). Staff see their own book (`crate::book`).

use crate::auth::session::{AuthUser, Manager};
use crate::plumbing::clock::Fy;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::QueryParams;
use crate::reports::continuity::{self, ContinuityReport};
use crate::reports::rules::DueInvoice;
use crate::reports::rules::{BUCKETS, Buckets, ClientDues, GstFigures};
use crate::reports::{reads, store};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dues_aging))
        .routes(routes!(dues_invoices))
        .routes(routes!(dues_csv))
        .routes(routes!(gst_summary))
        .routes(routes!(gst_csv))
        .routes(routes!(number_continuity))
        .routes(routes!(number_continuity_csv))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AsOf {
    /// Default: the office's today.
    pub as_of: Option<NaiveDate>,
}

#[derive(Serialize, ToSchema)]
pub struct DuesAging {
    pub as_of: String,
    /// One row per client owing something, largest total first, this page of them.
    #[serde(flatten)]
    pub page: Paginated<ClientDues>,
    /// Per bucket over every client.
    pub totals: Buckets,
}

/// What each client owes on a date, in buckets by days past due (staff: their own invoices).
#[utoipa::path(get, path = "/api/reports/dues-aging", tag = "reports", params(AsOf, Page),
    responses((status = 200, body = DuesAging), (status = 400, body = ErrorBody)))]
async fn dues_aging(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<AsOf>,
) -> Result<Json<DuesAging>, AppError> {
    let book = user.book();
    let (as_of, rows, totals) = state
        .db
        .read(move |c| reads::dues_aging(c, q.as_of, book.as_deref()))
        .await?;
    Ok(Json(DuesAging {
        as_of: as_of.to_string(),
        page: page.slice(rows),
        totals,
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DrillDown {
    pub client_id: Option<String>,
    pub as_of: Option<NaiveDate>,
    /// not_due, days_1_30, days_31_60, days_61_90 or over_90.
    pub bucket: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct DueInvoices {
    pub as_of: String,
    pub rows: Vec<DueInvoice>,
    pub total: i64,
}

/// The invoices behind the dues aging: of one client and bucket when given.
#[utoipa::path(get, path = "/api/reports/dues-aging/invoices", tag = "reports", params(DrillDown),
    responses((status = 200, body = DueInvoices), (status = 400, body = ErrorBody)))]
async fn dues_invoices(
    State(state): State<AppState>,
    user: AuthUser,
    QueryParams(q): QueryParams<DrillDown>,
) -> Result<Json<DueInvoices>, AppError> {
    if let Some(b) = &q.bucket
        && !BUCKETS.contains(&b.as_str())
    {
        return Err(AppError::bad_request(
            "invalid_bucket",
            format!("bucket is one of {}.", BUCKETS.join(", ")),
        ));
    }
    let book = user.book();
    let (as_of, client) = (q.as_of, q.client_id.clone());
    let (as_of, mut rows) = state
        .db
        .read(move |c| reads::due_invoices(c, as_of, book.as_deref(), client.as_deref()))
        .await?;
    if let Some(b) = &q.bucket {
        rows.retain(|r| r.bucket == b);
    }
    Ok(Json(DueInvoices {
        as_of: as_of.to_string(),
        total: rows.len() as i64,
        rows,
    }))
}

/// The dues aging as CSV, one line per client (rupees with two decimals, decisions 12).
#[utoipa::path(get, path = "/api/reports/dues-aging.csv", tag = "reports", params(AsOf),
    responses((status = 200, content_type = "text/csv", description = "Client ID, Client, the buckets and Total in rupees")))]
async fn dues_csv(
    State(state): State<AppState>,
    user: AuthUser,
    QueryParams(q): QueryParams<AsOf>,
) -> Result<Response, AppError> {
    let book = user.book();
    let (as_of, rows, totals) = state
        .db
        .read(move |c| reads::dues_aging(c, q.as_of, book.as_deref()))
        .await?;
    let mut out = csv::line(&[
        "Client ID",
        "Client",
        "Not due",
        "1-30 days",
        "31-60 days",
        "61-90 days",
        "Over 90 days",
        "Total",
    ]);
    let line = |id: &str, name: &str, b: &Buckets| {
        let cells: Vec<String> = b.cells().iter().map(|p| csv::amount(*p)).collect();
        let mut all = vec![id, name];
        all.extend(cells.iter().map(String::as_str));
        csv::line(&all)
    };
    for r in &rows {
        out.push_str(&line(&r.client_id, &r.client_name, &r.buckets));
    }
    out.push_str(&line("", "TOTAL", &totals));
    Ok(csv::attachment(&format!("dues-aging-{as_of}.csv"), out))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Period {
    /// Default: 1 April of the current financial year.
    pub from: Option<NaiveDate>,
    /// Default: 31 March that ends it.
    pub to: Option<NaiveDate>,
}

#[derive(Serialize, ToSchema)]
pub struct GstMonth {
    /// YYYY-MM.
    pub month: String,
    #[serde(flatten)]
    pub figures: GstFigures,
}

#[derive(Serialize, ToSchema)]
pub struct GstSummary {
    pub from: String,
    pub to: String,
    pub rows: Vec<GstMonth>,
    pub grand_total: GstFigures,
}

async fn gst(state: &AppState, user: &AuthUser, period: Period) -> Result<GstSummary, AppError> {
    let today = state.db.read(settings::office_today).await?;
    let fy = Fy::of(today);
    let (fy_start, fy_end) = (fy.first_day(), fy.last_day());
    let from = period.from.unwrap_or(fy_start);
    let to = period.to.unwrap_or(fy_end);
    if from > to {
        return Err(AppError::bad_request(
            "invalid_period",
            "from must not be after to.",
        ));
    }
    let book = user.book();
    let months = state
        .db
        .read(move |c| store::gst_by_month(c, from, to, book.as_deref()))
        .await?;
    let mut grand_total = GstFigures::default();
    for (_, f) in &months {
        grand_total.add(1, f.taxable, f.cgst, f.sgst, f.igst, f.total);
    }
    Ok(GstSummary {
        from: from.to_string(),
        to: to.to_string(),
        rows: months
            .into_iter()
            .map(|(month, figures)| GstMonth { month, figures })
            .collect(),
        grand_total,
    })
}

/// GST by month: issued invoices added, issued credit notes subtracted, from stored paise.
#[utoipa::path(get, path = "/api/reports/gst-summary", tag = "reports", params(Period),
    responses((status = 200, body = GstSummary), (status = 400, body = ErrorBody)))]
async fn gst_summary(
    State(state): State<AppState>,
    user: AuthUser,
    QueryParams(q): QueryParams<Period>,
) -> Result<Json<GstSummary>, AppError> {
    Ok(Json(gst(&state, &user, q).await?))
}

/// The GST summary as CSV (rupees with two decimals, decisions 12), with the grand total last.
#[utoipa::path(get, path = "/api/reports/gst-summary.csv", tag = "reports", params(Period),
    responses((status = 200, content_type = "text/csv", description = "Month, Taxable, CGST, SGST, IGST, Total in rupees")))]
async fn gst_csv(
    State(state): State<AppState>,
    user: AuthUser,
    QueryParams(q): QueryParams<Period>,
) -> Result<Response, AppError> {
    let summary = gst(&state, &user, q).await?;
    let mut out = csv::line(&["Month", "Taxable", "CGST", "SGST", "IGST", "Total"]);
    let line = |label: &str, f: &GstFigures| {
        let cells = [f.taxable, f.cgst, f.sgst, f.igst, f.total].map(csv::amount);
        csv::line(&[label, &cells[0], &cells[1], &cells[2], &cells[3], &cells[4]])
    };
    for m in &summary.rows {
        out.push_str(&line(&m.month, &m.figures));
    }
    out.push_str(&line("TOTAL", &summary.grand_total));
    Ok(csv::attachment(
        &format!("gst-summary-{}-to-{}.csv", summary.from, summary.to),
        out,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FinancialYear {
    /// YYYY-YY (e.g. 2025-26); none: every year.
    pub fy: Option<String>,
}

/// Each number series of the year (or of every year) with its first and last number, count,
/// and the numbers missing or written twice.
#[utoipa::path(get, path = "/api/reports/number-continuity", tag = "reports", params(FinancialYear),
    responses((status = 200, body = ContinuityReport), (status = 400, body = ErrorBody),
              (status = 403, description = "Staff", body = ErrorBody)))]
async fn number_continuity(
    State(state): State<AppState>,
    _manager: Manager,
    QueryParams(q): QueryParams<FinancialYear>,
) -> Result<Json<ContinuityReport>, AppError> {
    Ok(Json(
        state
            .db
            .read(move |c| continuity::report(c, q.fy.as_deref()))
            .await?,
    ))
}

/// The number continuity as CSV: a line per gap (a series without one: a line of its own), the
/// series' cells on each, its duplicates joined by spaces.
#[utoipa::path(get, path = "/api/reports/number-continuity.csv", tag = "reports", params(FinancialYear),
    responses((status = 200, content_type = "text/csv", body = String, description = "Series, Financial year, First, Last, Count, Missing, Gap from, Gap to, Gap count, Explained by import, Duplicated, Unbroken"),
              (status = 400, body = ErrorBody), (status = 403, description = "Staff", body = ErrorBody)))]
async fn number_continuity_csv(
    State(state): State<AppState>,
    _manager: Manager,
    QueryParams(q): QueryParams<FinancialYear>,
) -> Result<Response, AppError> {
    let name = match q.fy.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(fy) => format!("number-continuity-{fy}.csv"),
        None => "number-continuity.csv".into(),
    };
    let report = state
        .db
        .read(move |c| continuity::report(c, q.fy.as_deref()))
        .await?;
    let mut out = csv::line(&[
        "Series",
        "Financial year",
        "First",
        "Last",
        "Count",
        "Missing",
        "Gap from",
        "Gap to",
        "Gap count",
        "Explained by import",
        "Duplicated",
        "Unbroken",
    ]);
    for r in &report.rows {
        let (count, missing) = (r.count.to_string(), r.gap_count.to_string());
        let duplicates = r.duplicates.join(" ");
        let mut gaps: Vec<[String; 4]> = r
            .gaps
            .iter()
            .map(|g| {
                let explained = g.explained_by_import.as_ref().map(|i| i.doc_no.clone());
                [
                    g.from.clone(),
                    g.to.clone(),
                    g.count.to_string(),
                    explained.unwrap_or_default(),
                ]
            })
            .collect();
        if gaps.is_empty() {
            gaps.push(Default::default());
        }
        for [from, to, gap_count, explained] in &gaps {
            out.push_str(&csv::line(&[
                &r.prefix,
                &r.fy,
                &r.first,
                &r.last,
                &count,
                &missing,
                from,
                to,
                gap_count,
                explained,
                &duplicates,
                if r.unbroken { "yes" } else { "no" },
            ]));
        }
    }
    Ok(csv::attachment(&name, out))
}
