//! Modules (read by everyone, written by the owner), their price book and rate cards.

use crate::AppState;
use crate::auth::session::{AuthUser, Owner};
use crate::catalog::rules::{self, Band, FieldDef, PriceRow};
use crate::catalog::store::{self, Module};
use crate::db::audit::record;
use crate::db::page::{Page, Paginated};
use crate::db::query::text_or_null;
use crate::db::settings;
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{IdPath, JsonBody, QueryParams};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_modules, create_module))
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
    Ok(Json(
        state
            .db
            .read(move |c| store::list(c, q.q, q.active, settings::office_today(c)?, &page))
            .await?,
    ))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct ModuleInput {
    /// Upper-case letters, digits and _; fixed once created.
    pub code: Option<String>,
    pub name: Option<String>,
    pub kind: Option<String>,
    pub sac: Option<String>,
    /// Percent, 0 to 28 (default 18).
    pub gst_rate: Option<i64>,
    /// 1 to 120.
    pub renewal_months: Option<i64>,
    pub quote_content: Option<String>,
    #[schema(value_type = Vec<Object>)]
    pub packs: Option<serde_json::Value>,
    pub field_spec: Option<Vec<FieldDef>>,
    pub active: Option<i64>,
}

fn module_changes(input: &ModuleInput, creating: bool) -> Result<Vec<(&'static str, Value)>, AppError> {
    let mut changes: Vec<(&'static str, Value)> = vec![];
    match (&input.code, creating) {
        (Some(code), true) => {
            rules::check_code(code)?;
            changes.push(("code", Value::Text(code.clone())));
        }
        (None, true) => {
            return Err(AppError::invalid(
                "code",
                "required",
                "Give the module a code, such as SMS.",
            ));
        }
        (Some(_), false) => {
            return Err(AppError::invalid(
                "code",
                "immutable",
                "A module's code cannot change: settings keys use it.",
            ));
        }
        (None, false) => {}
    }
    match input.name.as_deref().map(str::trim) {
        Some(n) if n.is_empty() || n.chars().count() > 200 => {
            return Err(AppError::invalid(
                "name",
                "invalid_name",
                "A module's name is 1 to 200 characters.",
            ));
        }
        Some(n) => changes.push(("name", Value::Text(n.into()))),
        None if creating => return Err(AppError::invalid("name", "required", "Give the module a name.")),
        None => {}
    }
    for (column, value) in [
        ("kind", &input.kind),
        ("sac", &input.sac),
        ("quote_content", &input.quote_content),
    ] {
        if let Some(v) = value {
            changes.push((column, text_or_null(v)));
        }
    }
    if let Some(rate) = input.gst_rate {
        if !(0..=28).contains(&rate) {
            return Err(AppError::invalid(
                "gst_rate",
                "invalid_rate",
                "The GST rate is a percent from 0 to 28.",
            ));
        }
        changes.push(("gst_rate", Value::Integer(rate)));
    }
    if let Some(months) = input.renewal_months {
        if !(1..=120).contains(&months) {
            return Err(AppError::invalid(
                "renewal_months",
                "invalid_months",
                "Renewal is every 1 to 120 months.",
            ));
        }
        changes.push(("renewal_months", Value::Integer(months)));
    }
    if let Some(packs) = &input.packs {
        let ok = packs.as_array().is_some_and(|items| {
            items.iter().all(|p| {
                p["name"].as_str().is_some_and(|n| !n.trim().is_empty())
                    && p["qty"].as_i64().is_some_and(|q| q > 0)
            })
        });
        if !ok {
            return Err(AppError::invalid(
                "packs",
                "invalid_packs",
                "Packs are a list of { name, qty } with a positive qty.",
            ));
        }
        changes.push(("packs", Value::Text(packs.to_string())));
    }
    if let Some(spec) = &input.field_spec {
        rules::check_field_spec(spec)?;
        changes.push(("field_spec", Value::Text(serde_json::to_string(spec)?)));
    }
    if let Some(active) = input.active {
        if !(0..=1).contains(&active) {
            return Err(AppError::invalid("active", "invalid_flag", "active is 1 or 0."));
        }
        changes.push(("active", Value::Integer(active)));
    }
    Ok(changes)
}

fn existing(conn: &Connection, id: &str) -> Result<Module, AppError> {
    store::get(conn, id, settings::office_today(conn)?)?.ok_or_else(|| AppError::not_found("module"))
}

fn audit_module(
    conn: &Connection,
    user: &AuthUser,
    id: &str,
    action: &str,
    before: Option<serde_json::Value>,
    after: Option<serde_json::Value>,
) -> Result<(), AppError> {
    record(
        conn,
        &user.id,
        "module",
        id,
        action,
        before.as_ref(),
        after.as_ref(),
    )
}

/// Add a module to the catalog (owner).
#[utoipa::path(post, path = "/api/modules", tag = "catalog", request_body = ModuleInput,
    responses((status = 201, body = Module), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_module(
    State(state): State<AppState>,
    Owner(user): Owner,
    JsonBody(input): JsonBody<ModuleInput>,
) -> Result<(StatusCode, Json<Module>), AppError> {
    let changes = module_changes(&input, true)?;
    let module = state
        .db
        .write(move |tx| {
            let id = store::insert(tx, changes)?;
            let module = existing(tx, &id)?;
            audit_module(
                tx,
                &user,
                &id,
                "create",
                None,
                Some(serde_json::to_value(&module)?),
            )?;
            Ok(module)
        })
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
    Ok(Json(state.db.read(move |c| existing(c, &id)).await?))
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
    let changes = module_changes(&input, false)?;
    let module = state
        .db
        .write(move |tx| {
            let before = existing(tx, &id)?;
            store::update(tx, &id, changes)?;
            let after = existing(tx, &id)?;
            audit_module(
                tx,
                &user,
                &id,
                "update",
                Some(serde_json::to_value(&before)?),
                Some(serde_json::to_value(&after)?),
            )?;
            Ok(after)
        })
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
            existing(c, &id)?;
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
    if !(0..=100_000_000_000).contains(&req.price) {
        return Err(AppError::invalid(
            "price",
            "invalid_price",
            "A price is 0 or more paise (at most ₹100 crore).",
        ));
    }
    let row = state
        .db
        .write(move |tx| {
            existing(tx, &id)?;
            let price_id = store::add_price(tx, &id, req.effective_from, req.price, &user.id)?;
            let after = serde_json::json!({ "effective_from": req.effective_from, "price": req.price, "price_id": price_id });
            audit_module(tx, &user, &id, "add_price", None, Some(after))?;
            store::prices(tx, &id)?.into_iter().find(|r| r.id == price_id).ok_or_else(|| AppError::internal("price vanished"))
        })
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
            existing(c, &id)?;
            let on = match q.on {
                Some(d) => d,
                None => settings::office_today(c)?,
            };
            store::card_on(c, &id, on)
        })
        .await?;
    Ok(Json(match card {
        Some((date, bands)) => RateCard {
            effective_from: NaiveDate::parse_from_str(&date, "%Y-%m-%d").ok(),
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
    let to_store = card.bands.clone();
    state
        .db
        .write(move |tx| {
            existing(tx, &id)?;
            store::add_card(tx, &id, req.effective_from, &to_store, &user.id)?;
            let after = serde_json::json!({ "effective_from": req.effective_from, "bands": to_store });
            audit_module(tx, &user, &id, "add_rate_card", None, Some(after))
        })
        .await?;
    Ok((StatusCode::CREATED, Json(card)))
}
