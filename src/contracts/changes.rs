//! A contract created, changed or renewed (its renewal invoice drafted by the documents area),
//! each in one transaction and audited.

use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::contracts::rules;
use crate::contracts::store::visible_contract;
use crate::contracts::store::{self, Contract};
use crate::documents::drafts::{self, DocumentInput, DocumentReply, NewDraft};
use crate::documents::pricing::LineInput;
use crate::plumbing::clock;
use crate::plumbing::db::audit::record;
use crate::plumbing::db::query::Changes;
use crate::plumbing::error::{AppError, Checks};
use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Deserialize;
use utoipa::ToSchema;

/// The fields of a contract a request may set. At create every field is required; a PATCH sets
/// the fields it gives and keeps the others.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct ContractInput {
    pub client_id: Option<String>,
    /// 1 to 200 characters.
    pub description: Option<String>,
    /// YYYY-MM-DD.
    #[schema(format = Date)]
    pub period_from: Option<String>,
    /// YYYY-MM-DD, not before period_from.
    #[schema(format = Date)]
    pub period_to: Option<String>,
    /// Paise, 0 to 10^11 (₹100 crore).
    pub amount: Option<i64>,
}

fn required(field: &str, message: &str) -> AppError {
    AppError::invalid(field, "required", message.to_string())
}

/// The date a contract will have in `field`: the one given (checked), else the one it has.
fn period_date(
    checks: &mut Checks,
    field: &str,
    given: Option<&str>,
    kept: Option<&str>,
) -> Option<NaiveDate> {
    match (given, kept) {
        (Some(raw), _) => checks.check(clock::check_date(field, raw)),
        (None, Some(kept)) => clock::date(kept),
        (None, None) => {
            checks.fail(required(field, "Give the date as YYYY-MM-DD."));
            None
        }
    }
}

/// Checks `input` against the contract as it is (None at create), naming every invalid field
/// at once, and answers the column changes.
fn contract_changes(
    conn: &Connection,
    input: &ContractInput,
    existing: Option<&Contract>,
) -> Result<Changes, AppError> {
    let creating = existing.is_none();
    let mut checks = Checks::default();
    let mut changes: Changes = vec![];
    match input.client_id.as_deref().map(str::trim) {
        Some(id) => match client_store::get(conn, id, None)? {
            None => checks.fail(AppError::invalid(
                "client_id",
                "unknown_client",
                "No client has that id.",
            )),
            Some(client) => {
                let moved = existing.filter(|c| c.client_id != client.id);
                if let Some(c) = moved {
                    checks.check(rules::check_client_change(c.renewal_status.as_deref()));
                }
                changes.push(("client_id", Value::Text(client.id)));
            }
        },
        None if creating => checks.fail(required("client_id", "Choose the client.")),
        None => {}
    }
    match input.description.as_deref() {
        Some(raw) => {
            if let Some(text) = checks.check(rules::check_description(raw)) {
                changes.push(("description", Value::Text(text)));
            }
        }
        None if creating => checks.fail(required("description", "Describe the contract.")),
        None => {}
    }
    let from = period_date(
        &mut checks,
        "period_from",
        input.period_from.as_deref(),
        existing.map(|c| c.period_from.as_str()),
    );
    let to = period_date(
        &mut checks,
        "period_to",
        input.period_to.as_deref(),
        existing.map(|c| c.period_to.as_str()),
    );
    if let (Some(from), Some(to)) = (from, to) {
        checks.check(rules::check_period(from, to));
    }
    for (column, given, day) in [
        ("period_from", &input.period_from, from),
        ("period_to", &input.period_to, to),
    ] {
        if let (Some(_), Some(day)) = (given, day) {
            changes.push((column, Value::Text(day.to_string())));
        }
    }
    match input.amount {
        Some(amount) => {
            if let Some(amount) = checks.check(rules::check_amount(amount)) {
                changes.push(("amount", Value::Integer(amount)));
            }
        }
        None if creating => checks.fail(required("amount", "Give the amount in paise.")),
        None => {}
    }
    checks.done()?;
    Ok(changes)
}

fn audit_contract(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    action: &str,
    before: Option<&Contract>,
    after: Option<&Contract>,
) -> Result<(), AppError> {
    record(tx, &user.id, "service_contract", id, action, before, after)
}

/// The contract, read inside a write (any book: the writers are owner and manager).
fn contract(tx: &Connection, id: &str) -> Result<Contract, AppError> {
    store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("service contract"))
}

/// Writes a new contract, audited `created`.
pub fn create_in(tx: &Connection, user: &AuthUser, input: &ContractInput) -> Result<Contract, AppError> {
    let mut fields = contract_changes(tx, input, None)?;
    fields.push(("created_by", Value::Text(user.id.clone())));
    let id = store::insert(tx, fields)?;
    let created = contract(tx, &id)?;
    audit_contract(tx, user, &id, "created", None, Some(&created))?;
    Ok(created)
}

/// Changes the fields `input` gives, audited `updated` (a body that changes nothing writes
/// nothing).
pub fn update_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    input: &ContractInput,
) -> Result<Contract, AppError> {
    let before = visible_contract(tx, user, id)?;
    let changes = contract_changes(tx, input, Some(&before))?;
    if changes.is_empty() {
        return Ok(before);
    }
    store::update(tx, id, changes)?;
    let after = contract(tx, id)?;
    audit_contract(tx, user, id, "updated", Some(&before), Some(&after))?;
    Ok(after)
}

/// Renews a contract: one INVOICE draft for its client, priced at the contract's amount for the
/// next period (default GST), made by the documents area's own draft operation; the contract
/// names it as its renewal invoice, audited `renewed`. Answers the new draft. A contract whose
/// renewal invoice is live is 409 `already_renewed`.
pub fn renew_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<DocumentReply, AppError> {
    let before = visible_contract(tx, user, id)?;
    rules::check_renewable(before.renewal_status.as_deref(), before.renewal_doc_no.as_deref())?;
    let day = |text: &str| clock::date(text);
    let (from, to) = day(&before.period_from)
        .zip(day(&before.period_to))
        .and_then(|(from, to)| rules::next_period(from, to))
        .ok_or_else(|| {
            AppError::conflict(
                "no_next_period",
                "This contract's period has no next period to invoice.",
            )
        })?;
    let draft = NewDraft::check(DocumentInput {
        doc_type: Some("INVOICE".into()),
        client_id: Some(before.client_id.clone()),
        lines: Some(vec![LineInput {
            module_id: None,
            description: Some(rules::renewal_line(&before.description, from, to)),
            sac: None,
            qty: 1,
            unit_price: Some(before.amount),
            gst_rate: None,
        }]),
        ..Default::default()
    })?;
    let reply = drafts::create_in(tx, user, draft)?;
    store::update(
        tx,
        id,
        vec![("renewal_invoice_id", Value::Text(reply.document.id.clone()))],
    )?;
    let after = contract(tx, id)?;
    audit_contract(tx, user, id, "renewed", Some(&before), Some(&after))?;
    Ok(reply)
}
