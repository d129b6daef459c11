//! The legacy import's API (owner only, spec 4.8, decisions 1 and 11): stage a CSV file, read
//! the status and the staged rows, correct or exclude a row, choose update or skip for the
//! clients already in the registry, commit, or discard; and a sample file.

use crate::auth::session::Owner;
use crate::imports::commit::{self, CommitResult};
use crate::imports::reading;
use crate::imports::rules;
use crate::imports::staging::{self, RowEdit, Status};
use crate::imports::store::{self, StagedRow};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams, query_choice};
use crate::state::AppState;
use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(stage).layer(DefaultBodyLimit::max(rules::STAGE_BODY_LIMIT)))
        .routes(routes!(import_status))
        .routes(routes!(list_rows))
        .routes(routes!(rows_csv))
        .routes(routes!(edit_row))
        .routes(routes!(set_action_all))
        .routes(routes!(commit_import))
        .routes(routes!(discard))
        .routes(routes!(sample))
}

/// The stage body (decisions 1): the CSV text, and the file's name for the record.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StageBody {
    pub csv: String,
    pub file_name: Option<String>,
    /// The old system's onboarding checklist, one label per step in order (optional): the commit
    /// makes it the whole checklist of modules with neither front nor tail steps.
    pub checklist: Option<Vec<String>>,
}

/// Stages a CSV file of clients and their legacy invoices, replacing what was staged (owner,
/// audited). A file that cannot be read is refused whole and nothing is written.
#[utoipa::path(post, path = "/api/import/stage", tag = "import", request_body = StageBody,
    responses((status = 200, body = Status), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn stage(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(body): JsonBody<StageBody>,
) -> Result<Json<Status>, AppError> {
    Ok(Json(
        state
            .db
            .write_alone(move |tx| {
                staging::stage_in(
                    tx,
                    &user,
                    &body.csv,
                    body.file_name.as_deref(),
                    body.checklist.as_deref(),
                )
            })
            .await?,
    ))
}

/// What is staged: counts, problems by kind, the first 50 problem rows, the invoice-value
/// cross-check, and after the commit what it did (owner).
#[utoipa::path(get, path = "/api/import/status", tag = "import",
    responses((status = 200, body = Status), (status = 403, body = ErrorBody)))]
async fn import_status(State(state): State<AppState>, _owner: Owner) -> Result<Json<Status>, AppError> {
    Ok(Json(state.db.read(staging::status).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RowQuery {
    /// all (default), problems, create, update, skip, excluded or invoices.
    pub filter: Option<String>,
    /// Part of the name or the invoice number.
    pub q: Option<String>,
}

/// The staged rows in file order, paged (owner). Sort by row or name.
#[utoipa::path(get, path = "/api/import/rows", tag = "import", params(Page, RowQuery),
    responses((status = 200, body = Paginated<StagedRow>), (status = 403, body = ErrorBody)))]
async fn list_rows(
    State(state): State<AppState>,
    _owner: Owner,
    page: Page,
    QueryParams(q): QueryParams<RowQuery>,
) -> Result<Json<Paginated<StagedRow>>, AppError> {
    let filter = q.filter()?;
    Ok(Json(
        state
            .db
            .read(move |c| store::list(&filter, q.q.as_deref()).page(c, &page))
            .await?,
    ))
}

impl RowQuery {
    /// The filter asked for (all when none); one outside `store::ROW_FILTERS` is 400.
    fn filter(&self) -> Result<String, AppError> {
        query_choice("filter", &self.filter, store::ROW_FILTERS)?;
        Ok(self.filter.clone().unwrap_or_else(|| "all".into()))
    }
}

const ROW_CSV: &[&str] = &[
    "Row",
    "Name",
    "GSTIN",
    "District",
    "Sector",
    "Remote access ID",
    "OS",
    "Phone",
    "Email",
    "Address",
    "Contact name",
    "Contact role",
    "Contact phone",
    "Contact email",
    "Invoice no",
    "Invoice date",
    "Invoice total",
    "Invoice balance",
    "Action",
    "Client in the registry",
    "Problems",
];

fn row_cells(r: &StagedRow) -> Vec<String> {
    let c = &r.cells;
    vec![
        c.row.to_string(),
        c.name.clone(),
        c.gstin.clone(),
        c.district.clone(),
        c.sector.clone(),
        c.remote_access_id.clone(),
        c.os.clone(),
        c.phone.clone(),
        c.email.clone(),
        c.address.clone(),
        c.contact_name.clone(),
        c.contact_role.clone(),
        c.contact_phone.clone(),
        c.contact_email.clone(),
        c.invoice_no.clone(),
        c.invoice_date.clone(),
        c.invoice_total.clone(),
        c.invoice_balance.clone(),
        r.action.clone(),
        r.match_client_name.clone().unwrap_or_default(),
        r.problems
            .iter()
            .map(|p| p.message.as_str())
            .collect::<Vec<_>>()
            .join("; "),
    ]
}

/// Every staged row the filters select, as CSV: the cells as the file gave them (or as
/// corrected), what the commit does with the row, and its problems (owner).
#[utoipa::path(get, path = "/api/import/rows.csv", tag = "import", params(Page, RowQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered list"),
        (status = 403, body = ErrorBody)))]
async fn rows_csv(
    State(state): State<AppState>,
    _owner: Owner,
    page: Page,
    QueryParams(q): QueryParams<RowQuery>,
) -> Result<Response, AppError> {
    let filter = q.filter()?;
    crate::plumbing::http::csv::stream(
        &state.db,
        "import-rows.csv".into(),
        ROW_CSV,
        page.sort,
        move |_| Ok(store::list(&filter, q.q.as_deref())),
        row_cells,
    )
    .await
}

/// Corrects or excludes a staged row, or sets update or skip for its client; the file is
/// checked again at once and the row answered as it now is (owner).
#[utoipa::path(patch, path = "/api/import/rows/{row}", tag = "import", request_body = RowEdit,
    params(("row" = i64, Path, description = "The spreadsheet row")),
    responses((status = 200, body = StagedRow), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn edit_row(
    State(state): State<AppState>,
    _owner: Owner,
    IdPath(row): IdPath,
    JsonBody(edit): JsonBody<RowEdit>,
) -> Result<Json<StagedRow>, AppError> {
    let row: i64 = row.parse().map_err(|_| AppError::not_found("staged row"))?;
    Ok(Json(
        state
            .db
            .write(move |tx| staging::edit_row_in(tx, row, edit))
            .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionBody {
    /// update or skip.
    pub action: String,
}

#[derive(Serialize, ToSchema)]
pub struct ActionReply {
    /// Staged rows whose client is now to be updated or left alone.
    pub rows: usize,
}

/// Sets every client already in the registry to be updated or left alone (owner).
#[utoipa::path(post, path = "/api/import/rows/action", tag = "import", request_body = ActionBody,
    responses((status = 200, body = ActionReply), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_action_all(
    State(state): State<AppState>,
    _owner: Owner,
    JsonBody(body): JsonBody<ActionBody>,
) -> Result<Json<ActionReply>, AppError> {
    let rows = state
        .db
        .write(move |tx| staging::set_action_all_in(tx, &body.action))
        .await?;
    Ok(Json(ActionReply { rows }))
}

/// Commits what is staged in one transaction of its own (owner, audited): 409 while any row
/// has a problem.
#[utoipa::path(post, path = "/api/import/commit", tag = "import",
    responses((status = 200, body = CommitResult), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn commit_import(
    State(state): State<AppState>,
    Owner(user): Owner,
) -> Result<Json<CommitResult>, AppError> {
    Ok(Json(
        state
            .db
            .write_alone(move |tx| commit::commit_in(tx, &user))
            .await?,
    ))
}

/// Forgets what is staged (owner, audited).
#[utoipa::path(post, path = "/api/import/discard", tag = "import",
    responses((status = 200, body = Status), (status = 403, body = ErrorBody)))]
async fn discard(State(state): State<AppState>, Owner(user): Owner) -> Result<Json<Status>, AppError> {
    Ok(Json(
        state
            .db
            .write(move |tx| {
                staging::discard_in(tx, &user)?;
                staging::status(tx)
            })
            .await?,
    ))
}

/// A sample file with every column the import reads (owner).
#[utoipa::path(get, path = "/api/import/sample.csv", tag = "import",
    responses((status = 200, content_type = "text/csv", body = String), (status = 403, body = ErrorBody)))]
async fn sample(_owner: Owner) -> Response {
    crate::plumbing::http::csv::attachment("import-sample.csv", reading::SAMPLE.to_string())
}
