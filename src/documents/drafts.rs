//! Drafts (spec 3.1): what a draft is made of, its place of supply and prices, and writing a
//! new one. A draft has no number until it is issued (`numbering`).

use crate::auth::session::AuthUser;
use crate::clients::store::visible_client;
use crate::clients::store::{self as client_store, Client};
use crate::company;
use crate::documents::pricing::{self, LineInput, Mode, Priced, PricedLine};
use crate::documents::rules;
use crate::documents::store::visible_document;
use crate::documents::store::{self, Document};
use crate::plumbing::clock;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::db::query::{Changes, text_or_null};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Warning};
use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A document with the warnings its computation raised.
#[derive(Serialize, ToSchema)]
pub struct DocumentReply {
    #[serde(flatten)]
    pub document: Document,
    pub warnings: Vec<Warning>,
}

/// What a draft is made of.
#[derive(Deserialize, ToSchema, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct DocumentInput {
    /// QUOTATION, PROFORMA or INVOICE (at create only).
    #[serde(rename = "type")]
    pub doc_type: Option<String>,
    /// At create only.
    pub client_id: Option<String>,
    /// Null clears it (a draft then takes the day it is issued).
    #[serde(default, deserialize_with = "given_or_null")]
    #[schema(value_type = Option<String>, format = Date, nullable)]
    pub doc_date: Option<Option<NaiveDate>>,
    /// INVOICE only; default doc_date + billing.payment_terms_days at issue; null clears it.
    /// Never before the document date (given, or the day it is issued).
    #[serde(
        rename = "dueDate",
        alias = "due_date",
        default,
        deserialize_with = "given_or_null"
    )]
    #[schema(value_type = Option<String>, format = Date, nullable)]
    pub due_date: Option<Option<NaiveDate>>,
    pub notes: Option<String>,
    pub terms: Option<String>,
    /// Bring the total to the nearest rupee (shown as round_off).
    #[serde(with = "crate::plumbing::flag::option", default)]
    #[schema(value_type = Option<u8>)]
    pub round_to_rupee: Option<bool>,
    pub lines: Option<Vec<LineInput>>,
}

/// A field that may be absent (None: left as it is), null (`Some(None)`: cleared) or given.
fn given_or_null<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::deserialize(d).map(Some)
}

/// The place of supply of a draft for `client` (spec 3.4, [`rules::place_of_supply`]).
pub fn place_of_supply(conn: &Connection, client: &Client) -> Result<(bool, Option<Warning>), AppError> {
    let company_state = company::profile(conn)?.state_code;
    let client_state = client
        .gstin
        .as_ref()
        .map(|g| g.state_code().to_string())
        .or(client.state_code.clone());
    Ok(rules::place_of_supply(
        company_state.as_deref(),
        client_state.as_deref(),
    ))
}

/// Prices `lines` for `client` on `on`.
pub fn compose(
    conn: &Connection,
    client: &Client,
    lines: &[LineInput],
    on: NaiveDate,
    round: bool,
    mode: Mode,
) -> Result<(Priced, bool), AppError> {
    let (intra, flag) = place_of_supply(conn, client)?;
    let mut priced = pricing::price(conn, lines, on, intra, round, mode)?;
    priced.warnings.extend(flag);
    Ok((priced, intra))
}

/// A stored line as input again: its explicit price kept, others re-priced.
pub fn as_input(line: &PricedLine) -> LineInput {
    LineInput {
        module_id: line.module_id.clone(),
        description: Some(line.description.clone()),
        sac: line.sac.clone(),
        qty: line.qty,
        unit_price: line.explicit_price,
        gst_rate: Some(line.gst_rate),
    }
}

/// Only an invoice has a due date.
fn check_due_allowed(doc_type: &str, due_date: Option<NaiveDate>) -> Result<(), AppError> {
    if due_date.is_some() && doc_type != "INVOICE" {
        return Err(AppError::invalid(
            "dueDate",
            "due_date_not_allowed",
            "Only an invoice has a due date.",
        ));
    }
    Ok(())
}

/// A draft's dates (decisions 12): a due date only on an invoice, and never before the document
/// date, which for a draft without one is `today` (the day it would be issued; issuing checks
/// again on the day it stamps).
pub fn check_dates(
    doc_type: &str,
    doc_date: Option<NaiveDate>,
    due_date: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<(), AppError> {
    check_due_allowed(doc_type, due_date)?;
    rules::check_due_date(doc_date.unwrap_or(today), due_date)
}

pub fn header_changes(input: &DocumentInput) -> Changes {
    let mut changes = vec![];
    for (column, value) in [("doc_date", input.doc_date), ("due_date", input.due_date)] {
        match value {
            Some(Some(d)) => changes.push((column, Value::Text(d.to_string()))),
            Some(None) => changes.push((column, Value::Null)),
            None => {}
        }
    }
    for (column, value) in [("notes", &input.notes), ("terms", &input.terms)] {
        if let Some(v) = value {
            changes.push((column, text_or_null(v)));
        }
    }
    if let Some(r) = input.round_to_rupee {
        changes.push(("round_to_rupee", Value::Integer(i64::from(r))));
    }
    changes
}

/// The pricing date of a draft: its own date, else the office's today.
pub fn pricing_date(conn: &Connection, doc_date: Option<&str>) -> Result<NaiveDate, AppError> {
    match doc_date.and_then(clock::date) {
        Some(d) => Ok(d),
        None => settings::office_today(conn),
    }
}

/// A new draft's input, checked before any write.
pub struct NewDraft {
    doc_type: String,
    client_id: String,
    input: DocumentInput,
}

impl NewDraft {
    /// Its type and client are given and its dates fit.
    pub fn check(input: DocumentInput) -> Result<NewDraft, AppError> {
        let doc_type = input
            .doc_type
            .clone()
            .ok_or_else(|| AppError::invalid("type", "required", "Choose QUOTATION, PROFORMA or INVOICE."))?;
        if !["QUOTATION", "PROFORMA", "INVOICE"].contains(&doc_type.as_str()) {
            return Err(AppError::invalid(
                "type",
                "invalid_type",
                "A draft is a QUOTATION, PROFORMA or INVOICE (credit notes come from an invoice).",
            ));
        }
        let client_id = input
            .client_id
            .clone()
            .ok_or_else(|| AppError::invalid("client_id", "required", "Choose the client."))?;
        check_due_allowed(&doc_type, input.due_date.flatten())?;
        Ok(NewDraft {
            doc_type,
            client_id,
            input,
        })
    }
}

/// Writes a checked draft, priced and audited, inside the caller's transaction.
pub fn create_in(tx: &Connection, user: &AuthUser, draft: NewDraft) -> Result<DocumentReply, AppError> {
    let NewDraft {
        doc_type,
        client_id,
        input,
    } = draft;
    let client = visible_client(tx, user, &client_id)?;
    let today = settings::office_today(tx)?;
    check_dates(
        &doc_type,
        input.doc_date.flatten(),
        input.due_date.flatten(),
        today,
    )?;
    let on = input.doc_date.flatten().unwrap_or(today);
    let lines = input.lines.clone().unwrap_or_default();
    let (priced, intra) = compose(
        tx,
        &client,
        &lines,
        on,
        input.round_to_rupee.unwrap_or(false),
        Mode::Strict,
    )?;
    let mut fields = header_changes(&input);
    fields.extend([
        ("type", Value::Text(doc_type)),
        ("client_id", Value::Text(client_id)),
    ]);
    write_draft(tx, user, fields, priced, intra)
}

/// Writes a new draft of `fields` (its type and client among them) with `priced` lines,
/// audited as created by `user`, inside the caller's transaction.
pub fn write_draft(
    tx: &Connection,
    user: &AuthUser,
    mut fields: Changes,
    priced: Priced,
    intra: bool,
) -> Result<DocumentReply, AppError> {
    fields.extend([
        ("status", Value::Text("draft".into())),
        ("created_by", Value::Text(user.id.clone())),
        ("intra_state", Value::Integer(i64::from(intra))),
    ]);
    let id = store::insert_priced(tx, fields, &priced)?;
    let document = visible_document(tx, user, &id)?;
    let after = serde_json::json!({ "type": document.doc_type, "client_id": document.client_id, "source": document.source, "total": document.total });
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

/// Edits a draft: its type and client are fixed, and an issued document is immutable (409).
/// The lines are re-priced on the draft's date.
pub fn update_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    input: DocumentInput,
) -> Result<DocumentReply, AppError> {
    if input.doc_type.is_some() || input.client_id.is_some() {
        let field = if input.doc_type.is_some() {
            "type"
        } else {
            "client_id"
        };
        return Err(AppError::invalid(
            field,
            "immutable",
            "Start a new draft to change the type or the client.",
        ));
    }
    let doc = visible_document(tx, user, id)?;
    if doc.status != "draft" {
        return Err(AppError::conflict(
            "immutable",
            "An issued document cannot change: cancel it, supersede it (proforma) or issue a credit note (invoice).",
        ));
    }
    let stored = |d: &Option<String>| d.as_deref().and_then(clock::date);
    let doc_date = input.doc_date.unwrap_or_else(|| stored(&doc.doc_date));
    let due_date = input.due_date.unwrap_or_else(|| stored(&doc.due_date));
    check_dates(&doc.doc_type, doc_date, due_date, settings::office_today(tx)?)?;
    let client = client_store::get(tx, &doc.client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let lines = input
        .lines
        .clone()
        .unwrap_or_else(|| doc.lines.iter().map(|l| as_input(&l.priced)).collect());
    let round = input.round_to_rupee.unwrap_or(doc.round_to_rupee);
    let on = pricing_date(tx, doc_date.map(|d| d.to_string()).as_deref())?;
    let (priced, intra) = compose(tx, &client, &lines, on, round, Mode::Strict)?;
    let mut fields = header_changes(&input);
    fields.push(("intra_state", Value::Integer(i64::from(intra))));
    store::update(tx, id, fields)?;
    store::set_lines(tx, id, &priced)?;
    Ok(DocumentReply {
        document: visible_document(tx, user, id)?,
        warnings: priced.warnings,
    })
}
