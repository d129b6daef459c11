//! Modules (read by everyone, written by the owner), their price book and rate cards.

use crate::auth::session::{AuthUser, Owner};
use crate::catalog::modules::{self, ModuleInput};
use crate::catalog::rules::{self, Band, PriceRow};
use crate::catalog::store::{self, Module};
use crate::plumbing::clock;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, ErrorBody};
use crate::plumbing::http::csv;
use crate::plumbing::http::extract::{IdPath, JsonBody, QueryParams};
use crate::plumbing::money;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_modules, create_module))
        .routes(routes!(modules_csv))
        .routes(routes!(get_module, patch_module))
        .routes(routes!(list_prices, add_price))
        .routes(routes!(get_rate_card, add_rate_card))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ModuleQuery {
    /// Part of the code or name.
    pub q: Option<String>,
    /// 1 active only, 0 retired only.
    pub active: Option<i64>,
}

/// The catalog, by name.
#[utoipa::path(get, path = "/api/modules", tag = "catalog", params(Page, ModuleQuery),
    responses((status = 200, body = Paginated<Module>)))]
async fn list_modules(
    State(state): State<AppState>,
    _user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ModuleQuery>,
) -> Result<Json<Paginated<Module>>, AppError> {
    let modules = state
        .db
        .read(move |c| store::list(q.q, q.active, settings::office_today(c)?).page(c, &page))
        .await?;
    Ok(Json(modules))
}

const MODULE_CSV: &[&str] = &[
    "Code",
    "Name",
    "Kind",
    "SAC",
    "GST %",
    "Renewal (months)",
    "Price today",
    "Active",
];

fn module_cells(m: &Module) -> Vec<String> {
    vec![
        m.code.clone(),
        m.name.clone(),
        m.kind.clone().unwrap_or_default(),
        m.sac.clone().unwrap_or_default(),
        m.gst_rate.to_string(),
        m.renewal_months.map(|n| n.to_string()).unwrap_or_default(),
        m.price_today.map(money::decimal).unwrap_or_default(),
        m.active.to_string(),
    ]
}

/// The whole filtered catalog as CSV (prices in rupees).
#[utoipa::path(get, path = "/api/modules.csv", tag = "catalog", params(Page, ModuleQuery),
    responses((status = 200, content_type = "text/csv", body = String, description = "The whole filtered catalog")))]
async fn modules_csv(
    State(state): State<AppState>,
    _user: AuthUser,
    page: Page,
    QueryParams(q): QueryParams<ModuleQuery>,
) -> Result<Response, AppError> {
    let list = move |c: &rusqlite::Connection| Ok(store::list(q.q, q.active, settings::office_today(c)?));
    csv::stream(
        &state.db,
        "modules.csv".into(),
        MODULE_CSV,
        page.sort,
        list,
        module_cells,
    )
    .await
}

/// Add a module to the catalog (owner).
#[utoipa::path(post, path = "/api/modules", tag = "catalog", request_body = ModuleInput,
    responses((status = 201, body = Module), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_module(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<ModuleInput>,
) -> Result<(StatusCode, Json<Module>), AppError> {
    let changes = modules::module_changes(&input, true)?;
    let module = state
        .db
        .write(move |tx| modules::create_in(tx, &user, changes))
        .await?;
    Ok((StatusCode::CREATED, Json(module)))
}

/// One module with its price today.
#[utoipa::path(get, path = "/api/modules/{id}", tag = "catalog", params(("id" = String, Path)),
    responses((status = 200, body = Module), (status = 404, body = ErrorBody)))]
async fn get_module(
    State(state): State<AppState>,
    _user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<Module>, AppError> {
    Ok(Json(state.db.read(move |c| modules::module(c, &id)).await?))
}

/// Edit a module (owner); the code is fixed.
#[utoipa::path(patch, path = "/api/modules/{id}", tag = "catalog", request_body = ModuleInput, params(("id" = String, Path)),
    responses((status = 200, body = Module), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn patch_module(
    State(state): State<AppState>,
    Owner(user): Owner,
    IdPath(id): IdPath,
    JsonBody(input): JsonBody<ModuleInput>,
) -> Result<Json<Module>, AppError> {
    let changes = modules::module_changes(&input, false)?;
    let module = state
        .db
        .write(move |tx| modules::update_in(tx, &user, &id, changes))
        .await?;
    Ok(Json(module))
}

#[derive(Serialize, ToSchema)]
pub struct PriceBook {
    /// Newest first.
    pub rows: Vec<PriceRow>,
    /// The row in force today, if any.
    pub in_force_id: Option<String>,
}

/// A module's price book, newest first, with the row in force today marked.
#[utoipa::path(get, path = "/api/modules/{id}/prices", tag = "catalog", params(("id" = String, Path)),
    responses((status = 200, body = PriceBook), (status = 404, body = ErrorBody)))]
async fn list_prices(
    State(state): State<AppState>,
    _user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<PriceBook>, AppError> {
    let book = state
        .db
        .read(move |c| {
            modules::module(c, &id)?;
            let rows = store::prices(c, &id)?;
            let in_force_id = rules::price_on(&rows, settings::office_today(c)?).map(|r| r.id.clone());
            Ok(PriceBook { rows, in_force_id })
        })
        .await?;
    Ok(Json(book))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPrice {
    /// YYYY-MM-DD
    pub effective_from: NaiveDate,
    /// Paise.
    pub price: i64,
}

/// Append a dated price (owner). Rows are never changed; a later row takes over from its date.
#[utoipa::path(post, path = "/api/modules/{id}/prices", tag = "catalog", request_body = NewPrice, params(("id" = String, Path)),
    responses((status = 201, body = PriceRow), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn add_price(
    State(state): State<AppState>,
    Owner(user): Owner,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<NewPrice>,
) -> Result<(StatusCode, Json<PriceRow>), AppError> {
    rules::check_price(req.price)?;
    let row = state
        .db
        .write(move |tx| modules::add_price_in(tx, &user, &id, req.effective_from, req.price))
        .await?;
    Ok((StatusCode::CREATED, Json(row)))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CardQuery {
    /// The date to read the card for (default today).
    pub on: Option<NaiveDate>,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct RateCard {
    /// When this card took effect (null when the module has none).
    pub effective_from: Option<NaiveDate>,
    /// Lowest first; the first band's min_qty is the minimum order.
    pub bands: Vec<Band>,
}

/// The rate card in force today, or on `on` (owner).
#[utoipa::path(get, path = "/api/modules/{id}/rate-card", tag = "catalog", params(("id" = String, Path), CardQuery),
    responses((status = 200, body = RateCard), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_rate_card(
    State(state): State<AppState>,
    _owner: Owner,
    IdPath(id): IdPath,
    QueryParams(q): QueryParams<CardQuery>,
) -> Result<Json<RateCard>, AppError> {
    let card = state
        .db
        .read(move |c| {
            modules::module(c, &id)?;
            let on = match q.on {
                Some(d) => d,
                None => settings::office_today(c)?,
            };
            store::card_on(c, &id, on)
        })
        .await?;
    Ok(Json(match card {
        Some((date, bands)) => RateCard {
            effective_from: clock::date(&date),
            bands,
        },
        None => RateCard {
            effective_from: None,
            bands: vec![],
        },
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewRateCard {
    pub effective_from: NaiveDate,
    pub bands: Vec<Band>,
}

/// Add a new dated rate card (owner): distinct min_qty, positive rates.
#[utoipa::path(post, path = "/api/modules/{id}/rate-card", tag = "catalog", request_body = NewRateCard, params(("id" = String, Path)),
    responses((status = 201, body = RateCard), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "A card already starts on that date", body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn add_rate_card(
    State(state): State<AppState>,
    Owner(user): Owner,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<NewRateCard>,
) -> Result<(StatusCode, Json<RateCard>), AppError> {
    let bands = rules::check_bands(req.bands)?;
    let card = RateCard {
        effective_from: Some(req.effective_from),
        bands,
    };
    let bands = card.bands.clone();
    state
        .db
        .write(move |tx| modules::add_rate_card_in(tx, &user, &id, req.effective_from, &bands))
        .await?;
    Ok((StatusCode::CREATED, Json(card)))
}
