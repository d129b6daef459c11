//! `GET /api/pipeline` and its CSV twin (decisions 11): for every signed-in user, staff within
//! their book.

use crate::auth::session::AuthUser;
use crate::pipeline::rules;
use crate::pipeline::store::{PipelineFilter, PipelineRow, Show};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::QueryParams;
use crate::plumbing::money;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(pipeline))
        .routes(routes!(pipeline_csv))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PipelineQuery {
    /// open (default: Enquiry and Quoted/Waiting), lost or all.
    pub filter: Option<String>,
    /// Part of the client's name or the quotation's number.
    pub q: Option<String>,
    /// The account owner (owner and manager; staff always see their own book).
    pub owner_id: Option<String>,
}

impl PipelineQuery {
    fn filter(self, user: &AuthUser) -> Result<PipelineFilter, AppError> {
        let show = match self.filter.as_deref().map(str::trim) {
            None | Some("") | Some("open") => Show::Open,
            Some("lost") => Show::Lost,
            Some("all") => Show::All,
            Some(_) => {
                return Err(AppError::bad_request(
                    "invalid_filter",
                    format!("filter is one of {}.", rules::FILTERS.join(", ")),
                )
                .on_field("filter"));
            }
        };
        Ok(PipelineFilter {
            show,
            q: self.q,
            owner_id: self.owner_id.filter(|o| !o.trim().is_empty()),
            book: user.book(),
        })
    }
}

/// The chase list: open quotations and bare leads, the longest waiting first (lost ones newest
/// first). Sort by client_name, docNo, total, stage, age or owner_name.
#[utoipa::path(get, path = "/api/pipeline", tag = "pipeline", params(PipelineQuery, Page),
    responses((status = 200, body = Paginated<PipelineRow>), (status = 400, body = ErrorBody)))]
async fn pipeline(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<PipelineQuery>,
) -> Result<Json<Paginated<PipelineRow>>, AppError> {
    let filter = q.filter(&user)?;
    Ok(Json(
        state
            .db
            .read(move |c| crate::pipeline::listing(c, filter)?.page(c, &page))
            .await?,
    ))
}

const PIPELINE_CSV: &[&str] = &[
    "Client",
    "Owner",
    "Quotation",
    "Total",
    "Stage",
    "Age (days)",
    "Band",
    "Next action",
    "Next on",
];

fn pipeline_cells(r: &PipelineRow) -> Vec<String> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        r.client_name.clone(),
        text(&r.owner_name),
        text(&r.doc_no),
        r.total.map(money::decimal).unwrap_or_default(),
        r.stage.clone(),
        r.age.to_string(),
        r.band.clone(),
        r.next_action.clone(),
        text(&r.next_on),
    ]
}

/// Every conversation the pipeline's filters and sort select, as CSV.
#[utoipa::path(get, path = "/api/pipeline.csv", tag = "pipeline", params(PipelineQuery, Page),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list"),
              (status = 400, body = ErrorBody)))]
async fn pipeline_csv(
    State(state): State<AppState>,
    user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<PipelineQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter(&user)?;
    csv::stream(
        &state.db,
        "pipeline.csv".into(),
        PIPELINE_CSV,
        page.sort,
        move |c| crate::pipeline::listing(c, filter),
        pipeline_cells,
    )
    .await
}
