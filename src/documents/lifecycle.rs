//! The document lifecycle (spec 3.1): sent, accepted and lost; convert; supersede; cancel; credit
//! note. Accept, lost, convert and cancel are the stop conditions of a quotation's follow-ups:
//! `reminders::stop_followups_in` dismisses them inside these same transactions.

use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::documents::drafts::{as_input, compose};
use crate::documents::numbering::issue_in;
use crate::documents::pricing::{self, LineInput, Mode, Priced, Totals};
use crate::documents::rules::{self, Credit};
use crate::documents::shares;
use crate::documents::store::visible_document;
use crate::documents::store::{self, Document};
use crate::plumbing::db::audit::record;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::reminders;
use rusqlite::Connection;
use rusqlite::types::Value;

fn is_live(doc: &Document) -> bool {
    !matches!(doc.status.as_str(), "draft" | "cancelled")
}

fn audit_doc(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    action: &str,
    before: serde_json::Value,
    after: serde_json::Value,
) -> Result<(), AppError> {
    record(tx, &user.id, "document", id, action, Some(&before), Some(&after))
}

fn status_image(doc: &Document) -> serde_json::Value {
    serde_json::json!({ "status": doc.status, "docNo": doc.doc_no })
}

/// Records a 'sent' event (by hand or by email): a quotation moves to sent. Refused for a draft
/// or a cancelled document.
pub fn record_sent(tx: &Connection, user: &AuthUser, id: &str) -> Result<Document, AppError> {
    let doc = visible_document(tx, user, id)?;
    if !is_live(&doc) {
        return Err(AppError::conflict(
            "not_issued",
            "Only an issued document can be sent.",
        ));
    }
    store::add_event(tx, id, "sent", Some(&user.id), None)?;
    if doc.doc_type == "QUOTATION" && doc.status == "issued" {
        store::update(tx, id, vec![("status", Value::Text("sent".into()))])?;
    }
    let after = visible_document(tx, user, id)?;
    audit_doc(tx, user, id, "sent", status_image(&doc), status_image(&after))?;
    Ok(after)
}

/// Marks a quotation accepted or lost; both are stop conditions.
pub fn decide(tx: &Connection, user: &AuthUser, id: &str, outcome: &str) -> Result<Document, AppError> {
    let doc = visible_document(tx, user, id)?;
    if doc.doc_type != "QUOTATION" {
        return Err(AppError::conflict(
            "not_a_quotation",
            "Only a quotation is accepted or lost.",
        ));
    }
    if !matches!(doc.status.as_str(), "issued" | "sent") {
        return Err(AppError::conflict(
            "wrong_state",
            format!("A {} quotation cannot be marked {outcome}.", doc.status),
        ));
    }
    store::update(tx, id, vec![("status", Value::Text(outcome.into()))])?;
    store::add_event(tx, id, outcome, Some(&user.id), None)?;
    let after = visible_document(tx, user, id)?;
    audit_doc(tx, user, id, outcome, status_image(&doc), status_image(&after))?;
    reminders::stop_followups_in(tx, user, id, &format!("The quotation was marked {outcome}."))?;
    Ok(after)
}

/// Creates a draft of `doc_type` linked to `parent`, with `priced` lines.
fn linked_draft(
    tx: &Connection,
    user: &AuthUser,
    parent: &Document,
    doc_type: &str,
    priced: &Priced,
    intra: bool,
) -> Result<String, AppError> {
    let mut fields = vec![
        ("type", Value::Text(doc_type.into())),
        ("status", Value::Text("draft".into())),
        ("client_id", Value::Text(parent.client_id.clone())),
        ("parent_id", Value::Text(parent.id.clone())),
        ("source", Value::Text(parent.source.clone())),
        ("created_by", Value::Text(user.id.clone())),
        ("round_to_rupee", Value::Integer(i64::from(parent.round_to_rupee))),
        ("intra_state", Value::Integer(i64::from(intra))),
    ];
    for (column, value) in [("notes", &parent.notes), ("terms", &parent.terms)] {
        if let Some(v) = value {
            fields.push((column, Value::Text(v.clone())));
        }
    }
    let id = store::insert_priced(tx, fields, priced)?;
    Ok(id)
}

/// The parent's lines exactly as they are (no re-pricing).
fn copied(doc: &Document) -> Priced {
    let totals = Totals {
        subtotal: doc.subtotal,
        cgst: doc.cgst,
        sgst: doc.sgst,
        igst: doc.igst,
        round_off: doc.round_off,
        total: doc.total,
    };
    Priced {
        lines: doc.lines.iter().map(|l| l.priced.clone()).collect(),
        totals,
        warnings: vec![],
    }
}

/// A conversion's new draft and the lines whose price moved on the way.
pub struct Converted {
    pub id: String,
    pub price_changes: Vec<rules::PriceChanged>,
}

/// Converts inside the caller's transaction; answers the new draft's id and, for an invoice,
/// the lines re-pricing moved (a copy to a proforma moves none).
pub fn convert_in(tx: &Connection, user: &AuthUser, id: &str, to: &str) -> Result<Converted, AppError> {
    let doc = visible_document(tx, user, id)?;
    let allowed = matches!(
        (doc.doc_type.as_str(), to),
        ("QUOTATION", "PROFORMA") | ("QUOTATION", "INVOICE") | ("PROFORMA", "INVOICE")
    );
    if !allowed {
        return Err(AppError::invalid(
            "to",
            "invalid_conversion",
            format!("A {} cannot be converted to {to}.", doc.doc_type),
        ));
    }
    if !is_live(&doc) {
        return Err(AppError::conflict(
            "not_issued",
            "Only an issued, not cancelled, document is converted.",
        ));
    }
    if doc.status == "lost" {
        return Err(AppError::conflict(
            "wrong_state",
            "A lost quotation is not converted; start a new quotation.",
        ));
    }
    if let Some(child) = &doc.child_id {
        return Err(AppError::conflict(
            "has_child",
            format!("This document was already converted ({child}); cancel that one to convert again."),
        ));
    }
    let client = client_store::get(tx, &doc.client_id, None)?.ok_or_else(|| AppError::not_found("client"))?;
    let (priced, intra) = if to == "INVOICE" {
        // An invoice is priced on its own date (today, until it is issued); explicit prices stay.
        let inputs: Vec<LineInput> = doc.lines.iter().map(|l| as_input(&l.priced)).collect();
        compose(
            tx,
            &client,
            &inputs,
            settings::office_today(tx)?,
            doc.round_to_rupee,
            Mode::Strict,
        )?
    } else {
        (copied(&doc), doc.intra_state)
    };
    let quoted: Vec<(String, i64)> = doc
        .lines
        .iter()
        .map(|l| (l.priced.description.clone(), l.priced.unit_price))
        .collect();
    let now: Vec<i64> = priced.lines.iter().map(|l| l.unit_price).collect();
    let price_changes = rules::price_changes(&quoted, &now);
    let child = linked_draft(tx, user, &doc, to, &priced, intra)?;
    store::update(tx, id, vec![("status", Value::Text("invoiced".into()))])?;
    store::add_event(tx, id, "converted", Some(&user.id), None)?;
    audit_doc(
        tx,
        user,
        id,
        "converted",
        status_image(&doc),
        serde_json::json!({ "status": "invoiced", "child_id": child, "to": to }),
    )?;
    reminders::stop_followups_in(tx, user, id, "The quotation was converted.")?;
    Ok(Converted {
        id: child,
        price_changes,
    })
}

/// Cancels a document of the caller's book inside the caller's transaction: the number stays
/// consumed, the reason is recorded; answers the document after.
pub fn cancel_in(tx: &Connection, user: &AuthUser, id: &str, reason: &str) -> Result<Document, AppError> {
    let doc = visible_document(tx, user, id)?;
    cancel(tx, user, &doc, reason)?;
    visible_document(tx, user, id)
}

/// Cancels `doc` (the guards of [`rules::check_cancellable`]) and revokes its live public links
/// in the same transaction, each revocation audited.
fn cancel(tx: &Connection, user: &AuthUser, doc: &Document, reason: &str) -> Result<(), AppError> {
    let receipts: Vec<String> = doc.payments.iter().map(|p| p.receipt_no.clone()).collect();
    let notes: Vec<String> = doc
        .credit_notes
        .iter()
        .filter(|n| n.status != "cancelled")
        .map(|n| n.doc_no.clone().unwrap_or_else(|| n.id.clone()))
        .collect();
    rules::check_cancellable(&doc.status, &receipts, &notes)?;
    store::update(tx, &doc.id, vec![("status", Value::Text("cancelled".into()))])?;
    store::add_event(tx, &doc.id, "cancelled", Some(&user.id), Some(reason))?;
    let revoked = shares::revoke_live_in(tx, user, &doc.id, "The document was cancelled.")?;
    audit_doc(
        tx,
        user,
        &doc.id,
        "cancelled",
        status_image(doc),
        serde_json::json!({
            "status": "cancelled", "docNo": doc.doc_no, "reason": reason, "links_revoked": revoked,
        }),
    )?;
    reminders::stop_followups_in(tx, user, &doc.id, "The quotation was cancelled.")
}

/// Supersedes a proforma inside the caller's transaction: it is cancelled ('Superseded &
/// recreated') and a fresh linked proforma draft carries its payload unchanged; answers the new
/// draft. An invoice is never superseded (409): it is credit-noted.
pub fn supersede_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<Document, AppError> {
    let doc = visible_document(tx, user, id)?;
    match doc.doc_type.as_str() {
        "INVOICE" => {
            return Err(AppError::conflict(
                "use_credit_note",
                "An invoice is not superseded: issue a credit note against it.",
            ));
        }
        "PROFORMA" => {}
        _ => {
            return Err(AppError::conflict(
                "not_supersedable",
                "Only a proforma invoice is superseded.",
            ));
        }
    }
    cancel(tx, user, &doc, "Superseded & recreated")?;
    let fresh = linked_draft(tx, user, &doc, "PROFORMA", &copied(&doc), doc.intra_state)?;
    store::add_event(tx, id, "superseded", Some(&user.id), None)?;
    audit_doc(
        tx,
        user,
        id,
        "superseded",
        status_image(&doc),
        serde_json::json!({ "status": "cancelled", "replaced_by": fresh }),
    )?;
    if let Some(due) = &doc.due_date {
        store::update(tx, &fresh, vec![("due_date", Value::Text(due.clone()))])?;
    }
    visible_document(tx, user, &fresh)
}

/// Issues a credit note against the issued invoice `id` inside the caller's transaction: its own
/// CN number, never more than the invoice still owes ([`rules::credit`]); answers the note.
pub fn credit_note_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    reason: &str,
    lines: Option<&[LineInput]>,
) -> Result<Document, AppError> {
    let invoice = visible_document(tx, user, id)?;
    if invoice.doc_type != "INVOICE" || !is_live(&invoice) {
        return Err(AppError::conflict(
            "not_an_issued_invoice",
            "A credit note is issued against an issued invoice.",
        ));
    }
    let creditable = invoice.outstanding.unwrap_or(0);
    let mut priced = match (rules::credit(creditable, invoice.total, lines.is_some())?, lines) {
        (Credit::Whole, _) | (Credit::Lines, None) => copied(&invoice),
        // Priced on the invoice's own place of supply.
        (Credit::Lines, Some(lines)) => pricing::price(
            tx,
            lines,
            settings::office_today(tx)?,
            invoice.intra_state,
            invoice.round_to_rupee,
            Mode::Strict,
        )?,
    };
    rules::check_credited(priced.totals.total, creditable)?;
    // A credit note keeps the figures it credits: its prices are explicit, so issuing keeps them.
    for line in &mut priced.lines {
        line.explicit_price = Some(line.unit_price);
    }
    let note = linked_draft(tx, user, &invoice, "CREDIT_NOTE", &priced, invoice.intra_state)?;
    store::set_notes(tx, &note, reason)?;
    let issued = issue_in(tx, user, &note)?;
    store::add_event(tx, id, "credited", Some(&user.id), Some(reason))?;
    audit_doc(
        tx,
        user,
        &note,
        "credit_note",
        serde_json::json!({ "invoice": invoice.doc_no }),
        serde_json::json!({ "docNo": issued.doc_no, "total": priced.totals.total, "reason": reason }),
    )?;
    visible_document(tx, user, &note)
}
