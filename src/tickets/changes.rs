//! What changes a ticket, one transaction each: opened, changed (status, assignee, note,
//! fields; each change a timeline entry) and billed (a draft invoice raised from it). A refused
//! request writes nothing.

use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::documents::drafts::{self, DocumentInput, DocumentReply, NewDraft};
use crate::documents::pricing::LineInput;
use crate::plumbing::clock;
use crate::plumbing::db::query::Changes;
use crate::plumbing::db::settings::{self};
use crate::plumbing::error::{AppError, Checks};
use crate::staff::store as staff_store;
use crate::tickets::reads::{TicketDetail, detail};
use crate::tickets::rules;
use crate::tickets::settings::{clock, types};
use crate::tickets::store::visible_ticket;
use crate::tickets::store::{self, NewEvent, Ticket, TicketBill};
use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Deserialize;
use utoipa::ToSchema;

/// The fields of a ticket a request may set (decisions 9). At create `client_id` and `subject`
/// are required; a PATCH sets the fields it gives and keeps the others.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct TicketInput {
    pub client_id: Option<String>,
    /// 1 to 200 characters.
    pub subject: Option<String>,
    /// At most 5000 characters; empty clears it.
    pub description: Option<String>,
    /// Free text, at most 60 characters; empty clears it.
    pub kind: Option<String>,
    /// One of `GET /api/tickets/types`; `service` by default.
    #[serde(rename = "type")]
    pub ticket_type: Option<String>,
    /// YYYY-MM-DD, not after today; today by default.
    #[schema(format = Date)]
    pub opened_on: Option<String>,
    /// An active employee; the person who opens the ticket by default.
    pub assignee_id: Option<String>,
    /// open, in_progress, waiting_on_client, resolved or closed; `open` by default.
    pub status: Option<String>,
    /// A note added to the timeline with this change, at most 5000 characters.
    pub note: Option<String>,
}

fn required(field: &str, message: &str) -> AppError {
    AppError::invalid(field, "required", message.to_string())
}

fn date(text: &str) -> Option<NaiveDate> {
    clock::date(text)
}

/// What a checked request changes: the columns, and the timeline entries they make.
struct Checked {
    changes: Changes,
    status: Option<(String, &'static str)>,
    assignee: Option<String>,
    note: Option<String>,
}

/// Checks `input` against the ticket as it is (None at create), naming every invalid field at
/// once.
fn check(
    conn: &Connection,
    user: &AuthUser,
    input: &TicketInput,
    existing: Option<&Ticket>,
    today: NaiveDate,
) -> Result<Checked, AppError> {
    let creating = existing.is_none();
    let mut checks = Checks::default();
    let mut changes: Changes = vec![];
    match input.client_id.as_deref().map(str::trim) {
        Some(id) if existing.is_none_or(|t| t.client_id != id) => {
            match client_store::get(conn, id, user.book().as_deref())? {
                Some(client) => changes.push(("client_id", Value::Text(client.id))),
                None => checks.fail(AppError::invalid(
                    "client_id",
                    "unknown_client",
                    "No client of yours has that id.",
                )),
            }
        }
        None if creating => checks.fail(required("client_id", "Choose the client.")),
        _ => {}
    }
    match input.subject.as_deref() {
        Some(raw) => {
            if let Some(text) = checks.check(rules::check_subject(raw)) {
                changes.push(("subject", Value::Text(text)));
            }
        }
        None if creating => checks.fail(required("subject", "Write what the call is about.")),
        None => {}
    }
    for (column, given, max) in [
        ("description", &input.description, rules::MAX_TEXT),
        ("kind", &input.kind, rules::MAX_KIND),
    ] {
        if let Some(raw) = given
            && let Some(text) = checks.check(rules::check_text(column, raw, max))
        {
            changes.push((column, text.map_or(Value::Null, Value::Text)));
        }
    }
    match input.ticket_type.as_deref() {
        // A type taken off the list since stays on the tickets that have it.
        Some(raw) if existing.is_some_and(|t| t.ticket_type == raw.trim()) => {}
        Some(raw) => {
            if let Some(t) = checks.check(rules::check_type(raw, &types(conn)?)) {
                changes.push(("type", Value::Text(t)));
            }
        }
        None if creating => changes.push(("type", Value::Text(rules::default_type(&types(conn)?)))),
        None => {}
    }
    let status_before = existing.map_or("open", |t| t.status.as_str());
    let status = match input.status.as_deref() {
        Some(raw) => checks.check(rules::check_status(raw.trim())),
        None => None,
    };
    let moved = status.filter(|s| *s != status_before);
    let kept_resolved = existing.and_then(|t| t.resolved_on.as_deref()).and_then(date);
    let resolved_on = match moved {
        Some(to) => rules::resolved_on_after(status_before, to, kept_resolved, today),
        None => kept_resolved,
    };
    if let Some(to) = moved {
        // The SLA clock pauses while the ticket waits on the client: the wait's days move the
        // day it counts from when the wait ends.
        if to == "waiting_on_client" {
            changes.push(("waiting_since", Value::Text(today.to_string())));
        } else if status_before == "waiting_on_client"
            && let Some(t) = existing
        {
            let sla_from = date(&t.sla_from).unwrap_or(today);
            let resumed =
                rules::sla_from_after_wait(sla_from, t.waiting_since.as_deref().and_then(date), today);
            changes.push(("sla_from", Value::Text(resumed.to_string())));
            changes.push(("waiting_since", Value::Null));
        }
        changes.push(("status", Value::Text(to.into())));
        changes.push((
            "resolved_on",
            resolved_on.map_or(Value::Null, |d| Value::Text(d.to_string())),
        ));
    }
    match input.opened_on.as_deref() {
        Some(raw) => {
            if let Some(day) = checks.check(rules::check_opened_on(raw, today, resolved_on)) {
                changes.push(("opened_on", Value::Text(day.to_string())));
            }
        }
        None if creating => changes.push(("opened_on", Value::Text(today.to_string()))),
        None => {}
    }
    let assignee = match input.assignee_id.as_deref().map(str::trim) {
        Some(id) if existing.is_none_or(|t| t.assignee_id.as_deref() != Some(id)) => {
            match staff_store::get(conn, id)? {
                Some(e) if e.active == 1 => Some(e.id),
                _ => {
                    checks.fail(AppError::invalid(
                        "assignee_id",
                        "unknown_assignee",
                        "Assign the ticket to an active employee.",
                    ));
                    None
                }
            }
        }
        None if creating => Some(user.id.clone()),
        _ => None,
    };
    if let Some(id) = &assignee {
        changes.push(("assignee_id", Value::Text(id.clone())));
    }
    let note = match input.note.as_deref() {
        Some(raw) => checks
            .check(rules::check_text("note", raw, rules::MAX_TEXT))
            .flatten(),
        None => None,
    };
    checks.done()?;
    Ok(Checked {
        changes,
        status: moved.map(|to| (status_before.to_string(), to)),
        assignee,
        note,
    })
}

/// Writes the timeline entries of a checked change.
fn record(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    checked: &Checked,
    creating: bool,
) -> Result<(), AppError> {
    if creating {
        store::add_event(tx, id, &user.id, NewEvent::of("opened"))?;
    }
    if let Some((from, to)) = &checked.status {
        store::add_event(
            tx,
            id,
            &user.id,
            NewEvent {
                from_status: Some(from),
                to_status: Some(to),
                ..NewEvent::of("status")
            },
        )?;
    }
    if let Some(assignee) = checked.assignee.as_deref().filter(|a| !creating || *a != user.id) {
        store::add_event(
            tx,
            id,
            &user.id,
            NewEvent {
                assignee_id: Some(assignee),
                ..NewEvent::of("assigned")
            },
        )?;
    }
    if let Some(note) = &checked.note {
        store::add_event(
            tx,
            id,
            &user.id,
            NewEvent {
                note: Some(note),
                ..NewEvent::of("note")
            },
        )?;
    }
    Ok(())
}

/// Opens a ticket for a client in the caller's book.
pub fn open_in(tx: &Connection, user: &AuthUser, input: &TicketInput) -> Result<TicketDetail, AppError> {
    let today = settings::office_today(tx)?;
    let mut checked = check(tx, user, input, None, today)?;
    checked.changes.push(("created_by", Value::Text(user.id.clone())));
    let id = store::insert(tx, std::mem::take(&mut checked.changes))?;
    record(tx, user, &id, &checked, true)?;
    detail(tx, user, &id)
}

/// Changes the fields `input` gives and adds its note; each change of status or assignee and
/// each note is a timeline entry. A body that changes nothing writes nothing.
pub fn change_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    input: &TicketInput,
) -> Result<TicketDetail, AppError> {
    let today = settings::office_today(tx)?;
    let before = visible_ticket(tx, user, id, clock(tx)?)?;
    let mut checked = check(tx, user, input, Some(&before), today)?;
    if checked.changes.is_empty() && checked.note.is_none() {
        return detail(tx, user, id);
    }
    store::update(tx, id, std::mem::take(&mut checked.changes))?;
    record(tx, user, id, &checked, false)?;
    detail(tx, user, id)
}

/// The bill of a ticket: a draft of `doc_type` (INVOICE by default) for the ticket's client,
/// whose note and one line name the ticket, priced at nothing until someone prices it; linked
/// on the timeline. A ticket with a live bill is 409 `already_billed`; a ticket whose client is
/// outside the caller's book is 404 (the documents area's own rule).
pub fn bill_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    doc_type: Option<String>,
) -> Result<DocumentReply, AppError> {
    let ticket = visible_ticket(tx, user, id, clock(tx)?)?;
    if let Some(TicketBill { doc_no, .. }) = store::live_bill(tx, id)? {
        return Err(AppError::conflict(
            "already_billed",
            format!(
                "This ticket was billed already ({}); cancel that document to bill it again.",
                doc_no.as_deref().unwrap_or("a draft")
            ),
        ));
    }
    let (notes, line) = rules::bill_texts(&ticket.subject, date(&ticket.opened_on));
    let draft = NewDraft::check(DocumentInput {
        doc_type: Some(doc_type.unwrap_or_else(|| "INVOICE".into())),
        client_id: Some(ticket.client_id.clone()),
        notes: Some(notes),
        lines: Some(vec![LineInput {
            module_id: None,
            description: Some(line),
            sac: None,
            qty: 1,
            unit_price: Some(0),
            gst_rate: None,
        }]),
        ..Default::default()
    })?;
    let reply = drafts::create_in(tx, user, draft)?;
    store::add_event(
        tx,
        id,
        &user.id,
        NewEvent {
            document_id: Some(&reply.document.id),
            ..NewEvent::of("billed")
        },
    )?;
    store::touch(tx, id)?;
    Ok(reply)
}
