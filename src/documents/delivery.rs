//! Documents going out by email (spec 3.1): the recipient chosen, the email composed with the
//! PDF attached and the share link in the body, then sent and logged. A send is checked, then
//! made, then logged: the email_log row is written whatever happens (also when the caller hangs
//! up), and a failure after a commit never undoes the commit.

use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::documents::lifecycle::{convert_in, record_sent};
use crate::documents::numbering::issue_in;
use crate::documents::store::Document;
use crate::documents::store::visible_document;
use crate::documents::{html, shares, view};
use crate::email::{self, store::Attempt};
use crate::plumbing::config::Config;
use crate::plumbing::error::AppError;
use crate::plumbing::mail::{self, Attachment, Email, MailError, Transport};
use crate::state::AppState;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendRequest {
    /// Default: the client's contact with an email (accounts or secretary first), else the client's email.
    pub to: Option<String>,
    pub cc: Option<String>,
    /// The message above the document's summary; default a short greeting.
    pub message: Option<String>,
}

/// What came of the email.
#[derive(Debug, Serialize, ToSchema)]
pub struct EmailOutcome {
    /// The email_log row.
    pub log_id: String,
    pub to: String,
    /// sent or failed.
    pub status: &'static str,
    pub error: Option<String>,
}

/// A send taken as far as the database goes: the document's id, the recipient and its share link.
pub type Ready = (String, String, String);

/// Readies an issued, not cancelled document of the caller's book for sending: the mail
/// provider set up, the recipient found, and a live share link (reused, else minted).
pub fn ready_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    request: &SendRequest,
    config: &Config,
    origin: Option<&str>,
) -> Result<Ready, AppError> {
    let doc = visible_document(tx, user, id)?;
    if matches!(doc.status.as_str(), "draft" | "cancelled") {
        return Err(AppError::conflict(
            "not_issued",
            "Only an issued, not cancelled, document is emailed.",
        ));
    }
    email::config(tx)?;
    let to = recipient(tx, request, &doc.client_id)?;
    with_link(tx, user, doc.id, to, config, origin)
}

/// A live share link of the document (reused, else minted) to put in the email.
fn with_link(
    tx: &Connection,
    user: &AuthUser,
    id: String,
    to: String,
    config: &Config,
    origin: Option<&str>,
) -> Result<Ready, AppError> {
    let share = shares::live_or_new(tx, &id, &user.id)?;
    let link = shares::share_url(tx, config, origin, &share.token)?;
    Ok((id, to, link))
}

/// The guards of convert-and-send, read before anything is written: a proforma of the caller's
/// book, a mail provider and a recipient. Answers the provider's settings, to probe it.
pub fn check_convertible(
    conn: &Connection,
    user: &AuthUser,
    id: &str,
    request: &SendRequest,
) -> Result<Transport, AppError> {
    let doc = visible_document(conn, user, id)?;
    if doc.doc_type != "PROFORMA" {
        return Err(AppError::conflict(
            "not_proforma",
            "Only a proforma invoice is converted and sent.",
        ));
    }
    let config = email::config(conn)?;
    recipient(conn, request, &doc.client_id)?;
    Ok(config)
}

/// Converts a proforma into an invoice, issues it and readies it for sending, in one
/// transaction. The recipient is checked again inside it: nothing is written unless it holds.
pub fn convert_and_issue_in(
    tx: &Connection,
    user: &AuthUser,
    id: &str,
    request: &SendRequest,
    config: &Config,
    origin: Option<&str>,
) -> Result<Ready, AppError> {
    let to = recipient(tx, request, &visible_document(tx, user, id)?.client_id)?;
    let invoice_id = convert_in(tx, user, id, "INVOICE")?.id;
    let invoice = issue_in(tx, user, &invoice_id)?;
    with_link(tx, user, invoice.id, to, config, origin)
}

/// Checks the addresses of a send request (422 naming the field).
pub fn check_addresses(request: &SendRequest) -> Result<(), AppError> {
    for (field, value) in [("to", &request.to), ("cc", &request.cc)] {
        if let Some(v) = value.as_deref().filter(|v| !v.trim().is_empty()) {
            crate::staff::rules::check_email(v.trim()).map_err(|e| e.on_field(field))?;
        }
    }
    if request
        .message
        .as_deref()
        .is_some_and(|m| m.chars().count() > 5000)
    {
        return Err(AppError::invalid(
            "message",
            "too_long",
            "At most 5000 characters.",
        ));
    }
    Ok(())
}

/// The recipient: the one asked for, else the client's; 409 when there is none.
pub fn recipient(
    conn: &rusqlite::Connection,
    request: &SendRequest,
    client_id: &str,
) -> Result<String, AppError> {
    if let Some(to) = request.to.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        return Ok(to.to_string());
    }
    client_store::email_recipient(conn, client_id)?.ok_or_else(|| {
        AppError::conflict(
            "no_recipient",
            "The client has no email address and no contact with one: add one, or give the address to send to.",
        )
    })
}

/// Everything a send needs, gathered before the call.
pub struct Outgoing {
    config: Transport,
    email: Email,
    document_id: String,
    client_id: String,
}

/// The email of a document: its PDF attached and its share link in the body.
fn compose(
    conn: &rusqlite::Connection,
    doc: &Document,
    to: String,
    request: &SendRequest,
    link: &str,
) -> Result<Outgoing, AppError> {
    let config = email::config(conn)?;
    let view = view::build(conn, doc)?;
    let message = request
        .message
        .clone()
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| html::default_message(&view));
    let (html_body, text) = html::email(&message, Some(&view), Some(link), &view.letterhead)?;
    let pdf = crate::documents::pdf::document_pdf(&view)?;
    Ok(Outgoing {
        config,
        email: Email {
            to,
            cc: request
                .cc
                .clone()
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty()),
            subject: format!(
                "{} {} from {}",
                view::title(&doc.doc_type).to_lowercase().replace("tax ", ""),
                doc.doc_no.as_deref().unwrap_or("(draft)"),
                view.letterhead.trade_name
            )
            .trim()
            .to_string(),
            html: html_body,
            text,
            attachments: vec![Attachment {
                name: view::pdf_file_name(doc.doc_no.as_deref()),
                content_type: "application/pdf",
                content: pdf,
            }],
        },
        document_id: doc.id.clone(),
        client_id: doc.client_id.clone(),
    })
}

/// Renders the email of a document on a read connection (the PDF takes milliseconds: not
/// inside the write transaction).
pub async fn prepare(
    state: &AppState,
    user: &AuthUser,
    id: String,
    to: String,
    request: SendRequest,
    link: String,
) -> Result<Outgoing, AppError> {
    let user = user.clone();
    state
        .db
        .read(move |c| {
            let doc = visible_document(c, &user, &id)?;
            compose(c, &doc, to, &request, &link)
        })
        .await
}

/// Sends (off the async threads), then writes the email_log row and, on success, the 'sent'
/// event, in one transaction after the call. It runs as a task of its own: a caller that hangs
/// up (the request dropped) never leaves an email that went out without its log row.
pub async fn deliver(
    state: &AppState,
    user: &AuthUser,
    out: Outgoing,
) -> Result<(Document, EmailOutcome), AppError> {
    let (state, user) = (state.clone(), user.clone());
    tokio::spawn(async move { send_and_log(&state, &user, out).await })
        .await
        .map_err(AppError::internal)?
}

async fn send_and_log(
    state: &AppState,
    user: &AuthUser,
    out: Outgoing,
) -> Result<(Document, EmailOutcome), AppError> {
    let guard = state.config.guard();
    let Outgoing {
        config,
        email,
        document_id,
        client_id,
    } = out;
    let (email, result) = mail::send(config, email, guard).await?;
    if let Err(e) = &result {
        tracing::warn!(document = %document_id, error = %e, "document email failed");
    }
    let user = user.clone();
    state
        .db
        .write(move |tx| {
            let log_id = email::store::log(
                tx,
                Attempt {
                    purpose: "document",
                    document_id: Some(&document_id),
                    client_id: Some(&client_id),
                    module_id: None,
                    to: &email.to,
                    cc: email.cc.as_deref(),
                    subject: &email.subject,
                    sent_by: Some(&user.id),
                    result: &result,
                },
            )?;
            let doc = match &result {
                Ok(_) => record_sent(tx, &user, &document_id)?,
                Err(_) => visible_document(tx, &user, &document_id)?,
            };
            Ok((
                doc,
                EmailOutcome {
                    log_id,
                    to: email.to.clone(),
                    status: if result.is_ok() { "sent" } else { "failed" },
                    error: result.as_ref().err().map(MailError::to_string),
                },
            ))
        })
        .await
}
