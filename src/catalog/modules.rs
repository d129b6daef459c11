//! Keeping the catalog (spec 2.4): a module's fields and their checks, and the owner's audited
//! writes (the module itself, its dated prices and rate cards) that the handlers call.

use crate::auth::session::AuthUser;
use crate::catalog::rules::{self, Band, FieldDef, PriceRow};
use crate::catalog::store::{self, Module};
use crate::plumbing::db::audit::record;
use crate::plumbing::db::query::{Changes, text_or_null};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Checks};
use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

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

pub fn module_changes(input: &ModuleInput, creating: bool) -> Result<Changes, AppError> {
    let mut changes: Changes = vec![];
    let mut checks = Checks::default();
    match (&input.code, creating) {
        (Some(code), true) => {
            if checks.check(rules::check_code(code)).is_some() {
                changes.push(("code", Value::Text(code.clone())));
            }
        }
        (None, true) => {
            checks.fail(AppError::invalid(
                "code",
                "required",
                "Give the module a code, such as SMS.",
            ));
        }
        (Some(_), false) => {
            checks.fail(AppError::invalid(
                "code",
                "immutable",
                "A module's code cannot change: settings keys use it.",
            ));
        }
        (None, false) => {}
    }
    match input.name.as_deref().map(str::trim) {
        Some(n) if n.is_empty() || n.chars().count() > 200 => {
            checks.fail(AppError::invalid(
                "name",
                "invalid_name",
                "A module's name is 1 to 200 characters.",
            ));
        }
        Some(n) => changes.push(("name", Value::Text(n.into()))),
        None if creating => checks.fail(AppError::invalid("name", "required", "Give the module a name.")),
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
            checks.fail(AppError::invalid(
                "gst_rate",
                "invalid_rate",
                "The GST rate is a percent from 0 to 28.",
            ));
        }
        changes.push(("gst_rate", Value::Integer(rate)));
    }
    if let Some(months) = input.renewal_months {
        if !(1..=120).contains(&months) {
            checks.fail(AppError::invalid(
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
            checks.fail(AppError::invalid(
                "packs",
                "invalid_packs",
                "Packs are a list of { name, qty } with a positive qty.",
            ));
        }
        changes.push(("packs", Value::Text(packs.to_string())));
    }
    if let Some(spec) = &input.field_spec
        && checks.check(rules::check_field_spec(spec)).is_some()
    {
        changes.push(("field_spec", Value::Text(serde_json::to_string(spec)?)));
    }
    if let Some(active) = input.active {
        if !(0..=1).contains(&active) {
            checks.fail(AppError::invalid("active", "invalid_flag", "active is 1 or 0."));
        }
        changes.push(("active", Value::Integer(active)));
    }
    checks.done()?;
    Ok(changes)
}

/// One module with its price today, or 404.
pub fn module(conn: &Connection, id: &str) -> Result<Module, AppError> {
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

pub fn create_in(tx: &Connection, user: &AuthUser, changes: Changes) -> Result<Module, AppError> {
    let id = store::insert(tx, changes)?;
    let module = module(tx, &id)?;
    audit_module(
        tx,
        user,
        &id,
        "create",
        None,
        Some(serde_json::to_value(&module)?),
    )?;
    Ok(module)
}

pub fn update_in(tx: &Connection, user: &AuthUser, id: &str, changes: Changes) -> Result<Module, AppError> {
    let before = module(tx, id)?;
    store::update(tx, id, changes)?;
    let after = module(tx, id)?;
    audit_module(
        tx,
        user,
        id,
        "update",
        Some(serde_json::to_value(&before)?),
        Some(serde_json::to_value(&after)?),
    )?;
    Ok(after)
}

/// Appends a dated price; rows are never changed, a later row takes over from its date.
pub fn add_price_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    effective_from: NaiveDate,
    price: i64,
) -> Result<PriceRow, AppError> {
    module(tx, id)?;
    let price_id = store::add_price(tx, id, effective_from, price, &user.id)?;
    let after = json!({ "effective_from": effective_from, "price": price, "price_id": price_id });
    audit_module(tx, user, id, "add_price", None, Some(after))?;
    store::prices(tx, id)?
        .into_iter()
        .find(|r| r.id == price_id)
        .ok_or_else(|| AppError::internal("price vanished"))
}

/// Adds a dated rate card whose bands `rules::check_bands` has passed.
pub fn add_rate_card_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    effective_from: NaiveDate,
    bands: &[Band],
) -> Result<(), AppError> {
    module(tx, id)?;
    store::add_card(tx, id, effective_from, bands, &user.id)?;
    let after = json!({ "effective_from": effective_from, "bands": bands });
    audit_module(tx, user, id, "add_rate_card", None, Some(after))
}
