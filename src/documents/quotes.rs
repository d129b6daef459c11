//! Proformas made from a subscription: the renewal quote at the price-book rate, and the bulk
//! SMS top-up priced by the module's usage rate card.

use crate::auth::session::AuthUser;
use crate::catalog::{rules as catalog_rules, store as catalog_store};
use crate::clients::store as client_store;
use crate::documents::drafts::{DocumentReply, compose, write_draft};
use crate::documents::pricing::{LineInput, Mode};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::projects::store::visible_project;
use rusqlite::Connection;
use rusqlite::types::Value;

/// Creates the PROFORMA draft with one line for the subscription's client.
fn proforma(
    tx: &Connection,
    user: &AuthUser,
    client_id: &str,
    line: LineInput,
    source: &str,
    error_field: &str,
) -> Result<DocumentReply, AppError> {
    let client = client_store::get(tx, client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let today = settings::office_today(tx)?;
    let (priced, intra) = compose(tx, &client, &[line], today, false, Mode::Strict).map_err(|mut e| {
        if e.field.as_deref().is_some_and(|f| f.starts_with("lines[0]")) {
            e.field = Some(error_field.to_string());
        }
        e
    })?;
    let fields = vec![
        ("type", Value::Text("PROFORMA".into())),
        ("client_id", Value::Text(client_id.into())),
        ("source", Value::Text(source.into())),
    ];
    write_draft(tx, user, fields, priced, intra)
}

/// A renewal PROFORMA draft for the subscription `id` at today's price-book rate, naming its
/// kind and edition (422 on `module_id` when it has no price today).
pub fn renewal_quote_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<DocumentReply, AppError> {
    let project = visible_project(tx, user, id)?;
    let today = settings::office_today(tx)?;
    let module =
        catalog_store::get(tx, &project.module_id, today)?.ok_or_else(|| AppError::not_found("module"))?;
    let book = catalog_store::prices(tx, &module.id)?;
    let price = catalog_rules::price_on(&book, today).ok_or_else(|| {
        AppError::invalid(
            "module_id",
            "no_price",
            format!("{} has no price on {today}.", module.name),
        )
    })?;
    let details: Vec<&str> = [module.kind.as_deref(), project.edition.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let description = if details.is_empty() {
        format!("{} renewal", module.name)
    } else {
        format!("{} renewal ({})", module.name, details.join(", "))
    };
    let line = LineInput {
        module_id: Some(module.id),
        description: Some(description),
        sac: None,
        qty: 1,
        unit_price: Some(price.price),
        gst_rate: None,
    };
    proforma(tx, user, &project.client_id, line, "module_renewal", "module_id")
}

/// A PROFORMA draft for an SMS top-up of `count` credits on the subscription `id`, priced by the
/// module's rate card; under the minimum order is a 422 on `count`.
pub fn sms_quote_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    count: i64,
) -> Result<DocumentReply, AppError> {
    let project = visible_project(tx, user, id)?;
    if catalog_store::card_on(tx, &project.module_id, settings::office_today(tx)?)?.is_none() {
        return Err(AppError::invalid(
            "count",
            "no_rate_card",
            format!("{} has no rate card in force.", project.module_name),
        ));
    }
    let line = LineInput {
        module_id: Some(project.module_id.clone()),
        description: Some(format!("{} top-up: {} SMS", project.module_name, count)),
        sac: None,
        qty: count,
        unit_price: None,
        gst_rate: None,
    };
    proforma(tx, user, &project.client_id, line, "bulk_sms_topup", "count")
}
