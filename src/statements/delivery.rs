//! A statement of account going out by email, the way documents go (`documents::delivery`): the
//! recipient (the one asked for, else the client's), the PDF attached, the closing balance and
//! the UPI link in the body; sent off the async threads, then the email_log row (purpose
//! `statement`) and the audit row written together, whatever came of the send. The same
//! statement (client and period) is sent to one address at most once an office day: a second
//! send is a 409 `already_sent`, so the year-end run can be run again without sending twice.

use crate::auth::session::AuthUser;
use crate::clients::store::visible_client;
use crate::company::letterhead;
use crate::documents::delivery::{EmailOutcome, SendRequest, recipient};
use crate::documents::view::long_date;
use crate::email::{self, store::Attempt};
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::plumbing::mail::{self, Attachment, Email, MailError, Transport};
use crate::plumbing::money;
use crate::state::AppState;
use crate::statements::rules::{self, Period};
use crate::statements::{Statement, statement, store};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendStatement {
    /// YYYY-MM-DD; default 1 April of the financial year of `to`.
    pub from: Option<String>,
    /// YYYY-MM-DD; default the office's today.
    pub to: Option<String>,
    /// Default: the client's contact with an email (accounts or secretary first), else the client's email.
    pub to_email: Option<String>,
}

/// Whether the statement of `client_id` for `period` went to `email` today (the office's day).
pub fn sent_today(
    conn: &rusqlite::Connection,
    client_id: &str,
    period: Period,
    email: &str,
) -> Result<bool, AppError> {
    let since = crate::plumbing::clock::office_day_start(
        settings::office_today(conn)?,
        settings::office_offset(conn)?,
    );
    let (from, to) = (period.from.to_string(), period.to.to_string());
    store::sent_since(conn, client_id, (&from, &to), email, &since)
}

/// The statement's email, composed before the call.
struct Outgoing {
    config: Transport,
    email: Email,
    statement: Statement,
}

/// Checks the request, finds the recipient and composes the email with the PDF (a read: nothing
/// is written when any of it fails).
fn compose(
    conn: &rusqlite::Connection,
    user: &AuthUser,
    id: &str,
    req: SendStatement,
) -> Result<Outgoing, AppError> {
    let client = visible_client(conn, user, id)?;
    let today = settings::office_today(conn)?;
    let period = rules::period(req.from.as_deref(), req.to.as_deref(), today)?;
    let to_email = req
        .to_email
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    if let Some(t) = &to_email {
        crate::staff::rules::check_email(t).map_err(|e| e.on_field("to_email"))?;
    }
    let config = email::config(conn)?;
    let to = recipient(
        conn,
        &SendRequest {
            to: to_email,
            ..SendRequest::default()
        },
        &client.id,
    )?;
    if sent_today(conn, &client.id, period, &to)? {
        return Err(AppError::conflict(
            "already_sent",
            format!("This statement was already sent to {to} today."),
        ));
    }
    let lh = letterhead::letterhead(conn, &[])?;
    let s = statement(conn, &client, period)?;
    let mut message = format!(
        "Dear {},\n\nPlease find attached your statement of account from {} to {}. The closing balance is {}.",
        s.client_name,
        long_date(&s.from),
        long_date(&s.to),
        money::rupees(s.closing)
    );
    if let Some(upi) = &s.upi {
        message.push_str(&format!("\n\nTo pay by UPI: {}", upi.uri));
    }
    let (html, text) = crate::documents::html::email(&message, None, None, &lh)?;
    let pdf = crate::statements::pdf::statement_pdf(&s, &lh)?;
    Ok(Outgoing {
        config,
        email: Email {
            to,
            cc: None,
            subject: format!("Statement of account {} from {}", period.name(), lh.trade_name),
            html,
            text,
            attachments: vec![Attachment {
                name: s.file_name("pdf"),
                content_type: "application/pdf",
                content: pdf,
            }],
        },
        statement: s,
    })
}

/// Emails the statement of the client `id`; the log and audit rows are written in a task of
/// its own, so a caller that hangs up never leaves a sent email without them.
pub async fn send(
    state: &AppState,
    user: AuthUser,
    id: String,
    req: SendStatement,
) -> Result<EmailOutcome, AppError> {
    let reader = user.clone();
    let out = state.db.read(move |c| compose(c, &reader, &id, req)).await?;
    let state = state.clone();
    tokio::spawn(async move { send_and_log(&state, &user, out).await })
        .await
        .map_err(AppError::internal)?
}

async fn send_and_log(state: &AppState, user: &AuthUser, out: Outgoing) -> Result<EmailOutcome, AppError> {
    let Outgoing {
        config,
        email,
        statement: s,
    } = out;
    let (email, result) = mail::send(config, email, state.config.guard()).await?;
    if let Err(e) = &result {
        tracing::warn!(client = %s.client_id, error = %e, "statement email failed");
    }
    let user_id = user.id.clone();
    state
        .db
        .write(move |tx| {
            let log_id = email::store::log(
                tx,
                Attempt {
                    purpose: "statement",
                    document_id: None,
                    client_id: Some(&s.client_id),
                    module_id: None,
                    to: &email.to,
                    cc: None,
                    subject: &email.subject,
                    sent_by: Some(&user_id),
                    result: &result,
                },
            )?;
            let status = if result.is_ok() { "sent" } else { "failed" };
            audit(
                tx,
                Audit {
                    entity: "client",
                    entity_id: Some(&s.client_id),
                    action: "statement_emailed",
                    user_id: Some(&user_id),
                    before: None,
                    after: Some(json!({
                        "from": s.from, "to": s.to, "closing": s.closing,
                        "email": email.to, "status": status, "email_log_id": log_id,
                    })),
                },
            )?;
            Ok(EmailOutcome {
                log_id,
                to: email.to.clone(),
                status,
                error: result.as_ref().err().map(MailError::to_string),
            })
        })
        .await
}
