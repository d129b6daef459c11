//! Registering and editing clients (spec 2.3): the fields a request may set and their checks,
//! the account owner, the write-only DB password and its reveal, and the bulk edit, each a
//! transaction the handlers call. A refused request writes nothing.

use crate::auth::session::AuthUser;
use crate::clients::owes::{self, Owes};
use crate::clients::rules::{self, one_of};
use crate::clients::store::{self, Client, SameGstin};
use crate::plumbing::db::audit::{Audit, audit, record};
use crate::plumbing::db::query::{Changes, text_or_null};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Checks, Warning};
use crate::plumbing::gstin::{self, Gstin};
use crate::staff::{rules as staff_rules, store as staff_store};
use crate::tds::rules as tds_rules;
use axum::http::StatusCode;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The fields of a client a request may set. On PATCH, an absent field stays as it is and an
/// empty string clears an optional one.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct ClientInput {
    pub name: Option<String>,
    /// 15 characters, validated; its first two digits become the state code.
    pub gstin: Option<String>,
    /// Two-digit GST state code, for societies without a GSTIN.
    pub state_code: Option<String>,
    /// lead, active, lost or inactive (default active).
    pub status: Option<String>,
    /// At create only (managerial users; staff own what they create). Later: PATCH /api/clients/{id}/owner.
    pub owner_id: Option<String>,
    pub district: Option<String>,
    pub sector: Option<String>,
    pub remote_access_id: Option<String>,
    pub os: Option<String>,
    /// PACS or Store (default from the name).
    pub client_type: Option<String>,
    pub address: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub notes: Option<String>,
    /// The society's TAN as a deductor of TDS: 4 letters, 5 digits, a letter (read upper-case);
    /// empty clears it.
    pub tan: Option<String>,
    /// 194J or 194C; empty clears it (the office's `tds.default_section` then applies).
    pub tds_section: Option<String>,
    /// Write-only, managerial users only; empty clears it.
    #[serde(rename = "dbPassword", alias = "db_password")]
    pub db_password: Option<String>,
}

const FREE_TEXT: [&str; 6] = ["district", "sector", "remote_access_id", "os", "address", "notes"];

/// Validates `input` against the client as it is (`None` at create) and answers the column changes.
pub fn client_changes(input: &ClientInput, existing: Option<&Client>) -> Result<Changes, AppError> {
    let mut changes: Changes = vec![];
    let mut checks = Checks::default();
    match input.name.as_deref().map(str::trim) {
        Some(name) if name.is_empty() || name.chars().count() > 200 => {
            checks.fail(AppError::invalid(
                "name",
                "invalid_name",
                "A client's name is 1 to 200 characters.",
            ));
        }
        Some(name) => {
            changes.push(("name", Value::Text(name.to_string())));
            changes.push(("category", Value::Text(rules::category_for(name).into())));
            if existing.is_none() && input.client_type.is_none() {
                changes.push(("client_type", Value::Text(rules::client_type_for(name).into())));
            }
        }
        None if existing.is_none() => {
            checks.fail(AppError::invalid("name", "required", "Enter the society's name."));
        }
        None => {}
    }
    let mut gstin_state = existing
        .and_then(|c| c.gstin.as_ref())
        .map(|g| g.state_code().to_string());
    if let Some(raw) = input.gstin.as_deref() {
        if raw.trim().is_empty() {
            changes.push(("gstin", Value::Null));
            gstin_state = None;
        } else if let Some(gstin) = checks.check(Gstin::parse(raw)) {
            gstin_state = Some(gstin.state_code().to_string());
            changes.push(("state_code", Value::Text(gstin.state_code().to_string())));
            changes.push(("gstin", Value::Text(gstin.into())));
        }
    }
    if let Some(code) = input.state_code.as_deref().map(str::trim) {
        match &gstin_state {
            Some(from_gstin) if !code.is_empty() && code != from_gstin => {
                checks.fail(AppError::invalid(
                    "state_code",
                    "state_code_mismatch",
                    "The state code comes from the GSTIN.",
                ));
            }
            Some(_) => {}
            None if code.is_empty() => changes.push(("state_code", Value::Null)),
            None if gstin::state_name(code).is_none() => {
                checks.fail(AppError::invalid(
                    "state_code",
                    "invalid_state_code",
                    "Enter a two-digit GST state code, such as 32 for Kerala.",
                ));
            }
            None => changes.push(("state_code", Value::Text(code.to_string()))),
        }
    }
    if let Some(status) = input.status.as_deref()
        && checks.check(one_of("status", status, rules::STATUSES)).is_some()
    {
        changes.push(("status", Value::Text(status.into())));
    }
    if let Some(client_type) = input.client_type.as_deref()
        && checks
            .check(one_of("client_type", client_type, rules::CLIENT_TYPES))
            .is_some()
    {
        changes.push(("client_type", Value::Text(client_type.into())));
    }
    if let Some(phone) = input.phone.as_deref() {
        checks.check(staff_rules::check_phone(phone.trim()));
        changes.push(("phone", text_or_null(phone)));
    }
    if let Some(email) = input.email.as_deref() {
        if !email.trim().is_empty() {
            checks.check(staff_rules::check_email(email.trim()));
        }
        changes.push(("email", text_or_null(email)));
    }
    let free = [
        &input.district,
        &input.sector,
        &input.remote_access_id,
        &input.os,
        &input.address,
        &input.notes,
    ];
    for (column, value) in FREE_TEXT.into_iter().zip(free) {
        if let Some(v) = value {
            if v.chars().count() > 2000 {
                checks.fail(AppError::invalid(column, "too_long", "At most 2000 characters."));
            }
            changes.push((column, text_or_null(v)));
        }
    }
    if let Some(raw) = input.tan.as_deref()
        && let Some(tan) = checks.check(tds_rules::check_tan("tan", raw))
    {
        changes.push(("tan", tan.map_or(Value::Null, Value::Text)));
    }
    if let Some(raw) = input.tds_section.as_deref()
        && let Some(section) = checks.check(tds_rules::check_section("tds_section", raw))
    {
        changes.push(("tds_section", section.map_or(Value::Null, Value::Text)));
    }
    if let Some(p) = &input.db_password
        && let Some(value) = checks.check(rules::credential_value("dbPassword", p))
    {
        changes.push(("db_password", value));
    }
    checks.done()?;
    Ok(changes)
}

/// An owner must be an active employee (spec 2.3).
fn check_owner(conn: &Connection, owner_id: &str) -> Result<(), AppError> {
    match staff_store::get(conn, owner_id)? {
        None => Err(AppError::invalid(
            "owner_id",
            "unknown_owner",
            "No employee has that id.",
        )),
        Some(e) if e.active == 0 => Err(AppError::invalid(
            "owner_id",
            "inactive_owner",
            "That employee is deactivated.",
        )),
        Some(_) => Ok(()),
    }
}

fn audit_client(
    conn: &Connection,
    user: &AuthUser,
    id: &str,
    action: &str,
    before: Option<&Client>,
    after: Option<&Client>,
) -> Result<(), AppError> {
    record(conn, &user.id, "client", id, action, before, after)
}

/// Refuses a DB password from a non-managerial user (the whole request writes nothing).
pub fn db_password_gate(user: &AuthUser, input: &ClientInput) -> Result<(), AppError> {
    if input.db_password.is_some() && !user.is_managerial() {
        return Err(AppError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "Only an owner or a manager may set the DB password.",
        )
        .on_field("dbPassword"));
    }
    Ok(())
}

/// A client with the other clients under its GSTIN (those in the reader's book) and, after a
/// write, what the writer should know (`gstin_shared`).
#[derive(Serialize, ToSchema)]
pub struct ClientReply {
    #[serde(flatten)]
    pub client: Client,
    pub same_gstin: Vec<SameGstin>,
    pub warnings: Vec<Warning>,
    /// What the client owes on the office's today (`owes`).
    pub owes: Owes,
}

/// The reply for `client`; a write that set its GSTIN warns when other clients have it too.
pub fn reply(
    conn: &Connection,
    user: &AuthUser,
    client: Client,
    gstin_written: bool,
) -> Result<ClientReply, AppError> {
    let same_gstin = match &client.gstin {
        Some(gstin) => store::same_gstin(conn, &client.id, gstin.as_str(), user.book().as_deref())?,
        None => vec![],
    };
    let warnings = if gstin_written {
        rules::shared_gstin_warning(&same_gstin).into_iter().collect()
    } else {
        vec![]
    };
    let owes = owes::owes(conn, &client.id, settings::office_today(conn)?)?;
    Ok(ClientReply {
        client,
        same_gstin,
        warnings,
        owes,
    })
}

/// Writes a new client of checked `fields`, owned by `owner` (an active employee), audited.
pub fn create_in(
    tx: &Connection,
    user: &AuthUser,
    mut fields: Changes,
    owner: Option<String>,
) -> Result<ClientReply, AppError> {
    if let Some(owner) = owner {
        check_owner(tx, &owner)?;
        fields.push(("owner_id", Value::Text(owner)));
    }
    let client = store::insert(tx, fields, &user.id)?;
    audit_client(tx, user, &client.id, "create", None, Some(&client))?;
    reply(tx, user, client, true)
}

/// Edits the client `id` in the user's book; a DB password set is audited on its own row.
pub fn update_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    input: &ClientInput,
) -> Result<ClientReply, AppError> {
    let before = store::get(tx, id, user.book().as_deref())?.ok_or_else(|| AppError::not_found("client"))?;
    let changes = client_changes(input, Some(&before))?;
    store::update(tx, id, changes)?;
    let after = store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    audit_client(tx, user, id, "update", Some(&before), Some(&after))?;
    if input.db_password.is_some() {
        let flag = |c: &Client| serde_json::json!({ "hasDbPassword": c.has_db_password });
        audit(
            tx,
            Audit {
                entity: "client",
                entity_id: Some(id),
                action: "set_db_password",
                user_id: Some(&user.id),
                before: Some(flag(&before)),
                after: Some(flag(&after)),
            },
        )?;
    }
    let gstin_written = input.gstin.is_some();
    reply(tx, user, after, gstin_written)
}

/// Gives the client `id` to `owner` (an active employee), or to nobody, audited as set_owner.
pub fn set_owner_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    owner: Option<&str>,
) -> Result<Client, AppError> {
    let before = store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    if let Some(owner) = owner {
        check_owner(tx, owner)?;
    }
    store::update(
        tx,
        id,
        vec![(
            "owner_id",
            owner.map(str::to_string).map_or(Value::Null, Value::Text),
        )],
    )?;
    let after = store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let image = |c: &Client| serde_json::json!({ "owner_id": c.owner_id, "owner_name": c.owner_name });
    audit(
        tx,
        Audit {
            entity: "client",
            entity_id: Some(id),
            action: "set_owner",
            user_id: Some(&user.id),
            before: Some(image(&before)),
            after: Some(image(&after)),
        },
    )?;
    Ok(after)
}

/// The client's DB password, the reveal audited without the value.
pub fn reveal_db_password_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<String, AppError> {
    let stored = store::db_password(tx, id)?.ok_or_else(|| AppError::not_found("client"))?;
    audit(
        tx,
        Audit {
            entity: "client",
            entity_id: Some(id),
            action: "reveal_db_password",
            user_id: Some(&user.id),
            before: None,
            after: Some(serde_json::json!({ "revealed": "dbPassword" })),
        },
    )?;
    Ok(rules::readable_credential(stored).unwrap_or_default())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkChanges {
    pub district: Option<String>,
    pub sector: Option<String>,
    pub status: Option<String>,
    pub client_type: Option<String>,
    pub owner_id: Option<String>,
}

/// The column changes of a bulk edit, checked, and the new owner when one is given ("" for
/// none); 422 when nothing is to change.
pub fn bulk_changes(c: BulkChanges) -> Result<(Changes, Option<String>), AppError> {
    let mut changes: Changes = vec![];
    for (column, value) in [("district", &c.district), ("sector", &c.sector)] {
        if let Some(v) = value {
            changes.push((column, text_or_null(v)));
        }
    }
    if let Some(status) = &c.status {
        one_of("status", status, rules::STATUSES)?;
        changes.push(("status", Value::Text(status.clone())));
    }
    if let Some(client_type) = &c.client_type {
        one_of("client_type", client_type, rules::CLIENT_TYPES)?;
        changes.push(("client_type", Value::Text(client_type.clone())));
    }
    let owner = c.owner_id.map(|o| o.trim().to_string());
    if changes.is_empty() && owner.is_none() {
        return Err(AppError::invalid(
            "changes",
            "no_changes",
            "Choose at least one field to change.",
        ));
    }
    Ok((changes, owner))
}

/// Applies the same changes to every client of `ids` (all or nothing), one audit row each.
pub fn bulk_edit_in(
    tx: &Connection,
    user: &AuthUser,
    ids: &[String],
    changes: Changes,
    owner: Option<String>,
) -> Result<usize, AppError> {
    if let Some(owner) = owner.as_deref().filter(|o| !o.is_empty()) {
        check_owner(tx, owner)?;
    }
    let mut all = changes;
    if let Some(owner) = owner {
        all.push((
            "owner_id",
            if owner.is_empty() {
                Value::Null
            } else {
                Value::Text(owner)
            },
        ));
    }
    for id in ids {
        let before = store::get(tx, id, None)?.ok_or_else(|| {
            AppError::invalid(
                "ids",
                "unknown_client",
                format!("No client has the id {id}; nothing was changed."),
            )
        })?;
        store::update(tx, id, all.clone())?;
        let after = store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("client"))?;
        audit_client(tx, user, id, "bulk_update", Some(&before), Some(&after))?;
    }
    Ok(ids.len())
}
