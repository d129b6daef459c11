//! Subscriptions (spec 2.5): a client's link to a module with its edition, dates, custom fields,
//! portal login and secrets. Linking seeds the module's checklist; the portal password and the
//! secrets are managerial, and every reveal is audited (by key, never by value).

use crate::auth::session::AuthUser;
use crate::catalog::{rules as catalog_rules, store as catalog_store};
use crate::clients::{rules as client_rules, store as client_store};
use crate::plumbing::clock;
use crate::plumbing::db::audit::record;
use crate::plumbing::db::query::{Changes, text_or_null};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::projects::checklist_templates;
use crate::projects::rules;
use crate::projects::store::visible_project;
use crate::projects::store::{self, ClientModule};
use axum::http::StatusCode;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use serde_json::{Map, json};
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct ClientModuleInput {
    /// At create only.
    pub client_id: Option<String>,
    /// At create only.
    pub module_id: Option<String>,
    pub active: Option<i64>,
    pub status: Option<String>,
    pub edition: Option<String>,
    /// YYYY-MM-DD; empty clears.
    pub installed_on: Option<String>,
    pub trained_on: Option<String>,
    pub next_renewal: Option<String>,
    pub provider: Option<String>,
    pub username: Option<String>,
    /// Portal password: write-only, managerial users only; empty clears.
    pub password: Option<String>,
    #[schema(value_type = Object)]
    pub field_values: Option<Map<String, serde_json::Value>>,
    pub sms_balance: Option<i64>,
}

fn date_change(field: &'static str, raw: &str) -> Result<(&'static str, Value), AppError> {
    if raw.trim().is_empty() {
        return Ok((field, Value::Null));
    }
    let date = clock::check_date(field, raw)?;
    Ok((field, Value::Text(date.to_string())))
}

fn changes_of(input: &ClientModuleInput) -> Result<Changes, AppError> {
    let mut changes = vec![];
    if let Some(active) = input.active {
        if !(0..=1).contains(&active) {
            return Err(AppError::invalid("active", "invalid_flag", "active is 1 or 0."));
        }
        changes.push(("active", Value::Integer(active)));
    }
    if let Some(status) = input.status.as_deref().map(str::trim) {
        if status.is_empty() || status.len() > 40 {
            return Err(AppError::invalid(
                "status",
                "invalid_status",
                "A status is 1 to 40 characters.",
            ));
        }
        changes.push(("status", Value::Text(status.into())));
    }
    for (field, value) in [
        ("installed_on", &input.installed_on),
        ("trained_on", &input.trained_on),
        ("next_renewal", &input.next_renewal),
    ] {
        if let Some(raw) = value {
            changes.push(date_change(field, raw)?);
        }
    }
    for (field, value) in [
        ("edition", &input.edition),
        ("provider", &input.provider),
        ("username", &input.username),
    ] {
        if let Some(v) = value {
            changes.push((field, text_or_null(v)));
        }
    }
    if let Some(p) = &input.password {
        changes.push(("password", client_rules::credential_value("password", p)?));
    }
    if let Some(balance) = input.sms_balance {
        changes.push(("sms_balance", Value::Integer(balance)));
    }
    Ok(changes)
}

fn password_gate(user: &AuthUser, input: &ClientModuleInput) -> Result<(), AppError> {
    if input.password.is_some() && !user.is_managerial() {
        return Err(AppError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "Only an owner or a manager may set the portal password.",
        )
        .on_field("password"));
    }
    Ok(())
}

/// The module's field_spec checked against `values`; answers the JSON to store.
fn checked_fields(
    conn: &Connection,
    module_id: &str,
    values: &Map<String, serde_json::Value>,
) -> Result<String, AppError> {
    let module = catalog_store::get(conn, module_id, settings::office_today(conn)?)?
        .ok_or_else(|| AppError::not_found("module"))?;
    Ok(serde_json::Value::Object(catalog_rules::check_field_values(&module.field_spec, values)?).to_string())
}

fn audit_cm(
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
        "client_module",
        id,
        action,
        before.as_ref(),
        after.as_ref(),
    )
}

/// Links a client in the caller's book to a module and seeds its checklist.
pub fn create_in(
    tx: &Connection,
    user: &AuthUser,
    input: ClientModuleInput,
) -> Result<ClientModule, AppError> {
    password_gate(user, &input)?;
    let client_id = input
        .client_id
        .clone()
        .ok_or_else(|| AppError::invalid("client_id", "required", "Choose the client."))?;
    let module_id = input
        .module_id
        .clone()
        .ok_or_else(|| AppError::invalid("module_id", "required", "Choose the module."))?;
    let mut fields = changes_of(&input)?;
    client_store::get(tx, &client_id, user.book().as_deref())?
        .ok_or_else(|| AppError::not_found("client"))?;
    let module = catalog_store::get(tx, &module_id, settings::office_today(tx)?)?
        .ok_or_else(|| AppError::invalid("module_id", "unknown_module", "No module has that id."))?;
    if let Some(values) = &input.field_values {
        fields.push((
            "field_values",
            Value::Text(checked_fields(tx, &module_id, values)?),
        ));
    }
    fields.push(("client_id", Value::Text(client_id)));
    fields.push(("module_id", Value::Text(module_id)));
    let id = store::insert(tx, fields)?;
    store::seed_milestones(tx, &id, &checklist_templates::checklist(tx, &module.code)?)?;
    let cm = store::get(tx, &id, None)?.ok_or_else(|| AppError::internal("client module vanished"))?;
    audit_cm(tx, user, &id, "create", None, Some(serde_json::to_value(&cm)?))?;
    Ok(cm)
}

/// Edits a subscription; the portal password (managerial) applies atomically with the rest. The
/// client and module are fixed.
pub fn update_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    input: ClientModuleInput,
) -> Result<ClientModule, AppError> {
    password_gate(user, &input)?;
    if input.client_id.is_some() || input.module_id.is_some() {
        let field = if input.client_id.is_some() {
            "client_id"
        } else {
            "module_id"
        };
        return Err(AppError::invalid(
            field,
            "immutable",
            "Link the module anew instead of moving a subscription.",
        ));
    }
    let mut changes = changes_of(&input)?;
    let before = visible_project(tx, user, id)?;
    if let Some(values) = &input.field_values {
        changes.push((
            "field_values",
            Value::Text(checked_fields(tx, &before.module_id, values)?),
        ));
    }
    store::update(tx, id, changes)?;
    let after = visible_project(tx, user, id)?;
    audit_cm(
        tx,
        user,
        id,
        "update",
        Some(serde_json::to_value(&before)?),
        Some(serde_json::to_value(&after)?),
    )?;
    Ok(after)
}

/// Replaces the custom field values, checked against the module's field_spec.
pub fn set_fields_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    values: &Map<String, serde_json::Value>,
) -> Result<ClientModule, AppError> {
    let before = visible_project(tx, user, id)?;
    let stored = checked_fields(tx, &before.module_id, values)?;
    store::update(tx, id, vec![("field_values", Value::Text(stored))])?;
    let after = visible_project(tx, user, id)?;
    audit_cm(
        tx,
        user,
        id,
        "set_fields",
        Some(before.field_values.clone()),
        Some(after.field_values.clone()),
    )?;
    Ok(after)
}

/// Each secret has a valid key and is text of at most 2000 characters, or null to remove it.
pub fn check_secrets(values: &Map<String, serde_json::Value>) -> Result<(), AppError> {
    for (key, value) in values {
        rules::check_secret_key(key)?;
        if !(value.is_null() || value.as_str().is_some_and(|s| s.chars().count() <= 2000)) {
            return Err(AppError::invalid(
                key,
                "invalid_value",
                "A secret is text of at most 2000 characters.",
            ));
        }
    }
    Ok(())
}

/// Merges `values` into the secrets (checked by `check_secrets`); an empty or null value removes
/// its key. The audit row names the keys, never the values.
pub fn set_secrets_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    values: Map<String, serde_json::Value>,
) -> Result<ClientModule, AppError> {
    let before = visible_project(tx, user, id)?;
    let stored = store::credentials(tx, id)?.ok_or_else(|| AppError::not_found("client module"))?;
    let mut map = rules::decode_secrets(stored.secrets.as_deref());
    for (key, value) in values {
        match value.as_str().filter(|s| !s.is_empty()) {
            Some(v) => map.insert(key, serde_json::Value::String(v.to_string())),
            None => map.remove(&key),
        };
    }
    let encoded = rules::encode_secrets(&map).map_or(Value::Null, Value::Text);
    store::update(tx, id, vec![("secrets", encoded)])?;
    let after = visible_project(tx, user, id)?;
    let keys = |cm: &ClientModule| json!({ "secret_keys": cm.secret_keys });
    audit_cm(
        tx,
        user,
        id,
        "set_secrets",
        Some(keys(&before)),
        Some(keys(&after)),
    )?;
    Ok(after)
}

/// The portal password, with an audit row saying it was revealed.
pub fn reveal_password_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<String, AppError> {
    let stored = store::credentials(tx, id)?.ok_or_else(|| AppError::not_found("client module"))?;
    audit_cm(
        tx,
        user,
        id,
        "reveal_password",
        None,
        Some(json!({ "revealed": "password" })),
    )?;
    Ok(client_rules::readable_credential(stored.password).unwrap_or_default())
}

#[derive(Serialize, ToSchema)]
pub struct RevealedSecret {
    pub key: String,
    pub value: String,
}

/// One secret, with an audit row naming its key.
pub fn reveal_secret_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    key: String,
) -> Result<RevealedSecret, AppError> {
    let stored = store::credentials(tx, id)?.ok_or_else(|| AppError::not_found("client module"))?;
    let value = rules::decode_secrets(stored.secrets.as_deref())
        .get(&key)
        .and_then(|v| v.as_str().map(str::to_string))
        .ok_or_else(|| AppError::not_found("secret with that key"))?;
    audit_cm(tx, user, id, "reveal_secret", None, Some(json!({ "key": key })))?;
    Ok(RevealedSecret { key, value })
}
