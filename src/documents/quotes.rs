//! Proformas made from a subscription: the renewal quote at the price-book rate, and the bulk
//! SMS top-up priced by the module's usage rate card.

use crate::AppState;
use crate::auth::session::AuthUser;
use crate::book::{visible_document, visible_project};
use crate::catalog::{rules as catalog_rules, store as catalog_store};
use crate::clients::store as client_store;
use crate::db::audit::{Audit, audit};
use crate::db::settings;
use crate::documents::drafts::{DocumentReply, compose};
use crate::documents::pricing::{LineInput, Mode};
use crate::documents::store;
use crate::error::{AppError, ErrorBody};
use crate::http::extract::{IdPath, JsonBody};
use axum::Json;
use axum::extract::State;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(renewal_quote))
        .routes(routes!(bulk_sms_quote))
}

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
    let id = store::insert(
        tx,
        vec![
            ("type", Value::Text("PROFORMA".into())),
            ("status", Value::Text("draft".into())),
            ("client_id", Value::Text(client_id.into())),
            ("source", Value::Text(source.into())),
            ("created_by", Value::Text(user.id.clone())),
            ("intra_state", Value::Integer(i64::from(intra))),
        ],
    )?;
    store::set_lines(tx, &id, &priced)?;
    let document = visible_document(tx, user, &id)?;
    let after = serde_json::json!({ "type": "PROFORMA", "source": source, "total": document.total });
    audit(
        tx,
        Audit {
            entity: "document",
            entity_id: Some(&id),
            action: "create",
            user_id: Some(&user.id),
            before: None,
            after: Some(after),
        },
    )?;
    Ok(DocumentReply {
        document,
        warnings: priced.warnings,
    })
}

/// A renewal PROFORMA for the subscription at today's price-book rate, naming its kind and edition.
#[utoipa::path(post, path = "/api/client-modules/{id}/renewal-quote", tag = "documents", params(("id" = String, Path)),
    responses((status = 200, description = "The new draft", body = DocumentReply), (status = 404, body = ErrorBody),
              (status = 422, description = "No price on today's date", body = ErrorBody)))]
async fn renewal_quote(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
) -> Result<Json<DocumentReply>, AppError> {
    let reply = state
        .db
        .write(move |tx| {
            let project = visible_project(tx, &user, &id)?;
            let today = settings::office_today(tx)?;
            let module = catalog_store::get(tx, &project.module_id, today)?
                .ok_or_else(|| AppError::not_found("module"))?;
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
            proforma(tx, &user, &project.client_id, line, "module_renewal", "module_id")
        })
        .await?;
    Ok(Json(reply))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SmsCount {
    /// How many SMS credits to quote.
    pub count: i64,
}

/// A PROFORMA for an SMS top-up of `count` credits, priced by the module's rate card; under the
/// minimum order is a 422 on `count`.
#[utoipa::path(post, path = "/api/client-modules/{id}/bulk-sms-quote", tag = "documents", request_body = SmsCount, params(("id" = String, Path)),
    responses((status = 200, description = "The new draft", body = DocumentReply), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn bulk_sms_quote(
    State(state): State<AppState>,
    user: AuthUser,
    IdPath(id): IdPath,
    JsonBody(req): JsonBody<SmsCount>,
) -> Result<Json<DocumentReply>, AppError> {
    let reply = state
        .db
        .write(move |tx| {
            let project = visible_project(tx, &user, &id)?;
            if catalog_store::card_on(tx, &project.module_id, settings::office_today(tx)?)?.is_none() {
                return Err(AppError::invalid(
                    "count",
                    "no_rate_card",
                    format!("{} has no rate card in force.", project.module_name),
                ));
            }
            let line = LineInput {
                module_id: Some(project.module_id.clone()),
                description: Some(format!("{} top-up: {} SMS", project.module_name, req.count)),
                sac: None,
                qty: req.count,
                unit_price: None,
                gst_rate: None,
            };
            proforma(tx, &user, &project.client_id, line, "bulk_sms_topup", "count")
        })
        .await?;
    Ok(Json(reply))
}
