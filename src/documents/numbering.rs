//! Issuing (spec 3.1, decisions 6): the date stamped, prices fixed on it, an invoice's due
//! date, and the next number of the document's series and financial year, taken in the
//! issuing transaction so that numbers have no gaps and are never reused.

use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::company;
use crate::documents::drafts::{as_input, compose, pricing_date};
use crate::documents::pricing::{self, LineInput, Mode};
use crate::documents::rules;
use crate::documents::store::visible_document;
use crate::documents::store::{self, Document};
use crate::plumbing::clock;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::error::AppError;
use chrono::Duration;
use rusqlite::Connection;
use rusqlite::types::Value;

/// Issues a draft in the caller's book inside the caller's transaction: stamps the date, re-prices on it (explicit
/// prices kept), sets an invoice's due date, and takes the next number of its series.
pub fn issue_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<Document, AppError> {
    let doc = visible_document(tx, user, id)?;
    if doc.status != "draft" {
        return Err(AppError::conflict(
            "not_draft",
            format!(
                "{} is already {}.",
                doc.doc_no.as_deref().unwrap_or("This document"),
                doc.status
            ),
        ));
    }
    if doc.lines.is_empty() {
        return Err(AppError::invalid(
            "lines",
            "no_lines",
            "A document needs at least one line before it is issued.",
        ));
    }
    let doc_date = pricing_date(tx, doc.doc_date.as_deref())?;
    let due_date = doc.due_date.as_deref().and_then(clock::date);
    rules::check_due_date(doc_date, due_date)?;
    let client = client_store::get(tx, &doc.client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let inputs: Vec<LineInput> = doc.lines.iter().map(|l| as_input(&l.priced)).collect();
    // A credit note keeps its invoice's place of supply, whatever the client's state is now.
    let (priced, intra) = if doc.doc_type == "CREDIT_NOTE" {
        let priced = pricing::price(
            tx,
            &inputs,
            doc_date,
            doc.intra_state,
            doc.round_to_rupee,
            Mode::Strict,
        )?;
        (priced, doc.intra_state)
    } else {
        compose(tx, &client, &inputs, doc_date, doc.round_to_rupee, Mode::Strict)?
    };
    // A draft priced on its issue date already holds these lines (the usual case): rewriting them
    // would cost the writer a delete, an insert and their tallies' triggers for nothing.
    if !doc.holds(&priced) {
        store::set_lines(tx, id, &priced)?;
    }
    let prefix =
        rules::prefix(&doc.doc_type).ok_or_else(|| AppError::internal("document type without a prefix"))?;
    let fy = crate::plumbing::clock::Fy::of(doc_date).short();
    let doc_no = rules::number(prefix, &fy, store::next_seq(tx, prefix, &fy)?);
    let mut fields = vec![
        ("status", Value::Text("issued".into())),
        ("doc_no", Value::Text(doc_no.clone())),
        ("doc_date", Value::Text(doc_date.to_string())),
        ("intra_state", Value::Integer(i64::from(intra))),
    ];
    if doc.doc_type == "INVOICE" && doc.due_date.is_none() {
        let due = doc_date + Duration::days(company::payment_terms_days(tx, doc_date)?);
        fields.push(("due_date", Value::Text(due.to_string())));
    }
    store::update(tx, id, fields)?;
    store::add_event(tx, id, "issued", Some(&user.id), None)?;
    let issued = store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("document"))?;
    audit(
        tx,
        Audit {
            entity: "document",
            entity_id: Some(id),
            action: "issued",
            user_id: Some(&user.id),
            before: None,
            after: Some(
                serde_json::json!({ "docNo": doc_no, "doc_date": issued.doc_date, "due_date": issued.due_date, "total": issued.total }),
            ),
        },
    )?;
    Ok(issued)
}
