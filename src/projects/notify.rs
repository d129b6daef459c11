//! Notify-all (spec 4.3): one email to every client on a module's roster. The whole roster is
//! resolved first (no truncation); then one email per reachable client, each attempt written
//! to the email_log with its own audit row as it happens; the answer names every client that
//! could not be reached (no email anywhere) and every send that failed.

use crate::auth::session::AuthUser;
use crate::catalog::store as catalog_store;
use crate::clients::store as client_store;
use crate::company::letterhead;
use crate::documents::html;
use crate::email::{self, store::Attempt};
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::plumbing::mail::{self, Email};
use crate::projects::store;
use crate::state::AppState;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema, Clone)]
pub struct ClientRef {
    pub client_id: String,
    pub client_name: String,
}

#[derive(Serialize, ToSchema)]
pub struct FailedSend {
    pub client_id: String,
    pub client_name: String,
    pub to: String,
    pub error: String,
}

#[derive(Serialize, ToSchema)]
pub struct NotifyReport {
    /// Clients on the roster.
    pub roster: usize,
    /// Emails attempted (one per reachable client).
    pub attempted: usize,
    pub sent: usize,
    pub failed: Vec<FailedSend>,
    /// Clients with no email address and no contact with one: nothing was sent to them.
    pub unreachable: Vec<ClientRef>,
}

/// Emails `subject` and `body` to every client on the module's roster, after checking that the
/// provider is alive. The sends and their log rows run as a task of their own: a caller that
/// hangs up never leaves an email that went out without its email_log and audit rows.
pub async fn notify_all(
    state: &AppState,
    user: &AuthUser,
    id: String,
    subject: String,
    body: String,
) -> Result<NotifyReport, AppError> {
    let module_id = id.clone();
    let (config, recipients, unreachable, letterhead) = state
        .db
        .read(move |c| {
            catalog_store::get(c, &module_id, settings::office_today(c)?)?
                .ok_or_else(|| AppError::not_found("module"))?;
            let config = email::config(c)?;
            let mut recipients = vec![];
            let mut unreachable = vec![];
            for (client_id, client_name) in store::roster_clients(c, &module_id)? {
                match client_store::email_recipient(c, &client_id)? {
                    Some(to) => recipients.push((
                        ClientRef {
                            client_id,
                            client_name,
                        },
                        to,
                    )),
                    None => unreachable.push(ClientRef {
                        client_id,
                        client_name,
                    }),
                }
            }
            Ok((config, recipients, unreachable, letterhead::letterhead(c, &[])?))
        })
        .await?;
    let guard = state.config.guard();
    mail::probe(config.clone(), guard)
        .await?
        .map_err(|e| email::dead_provider(&e))?;
    let (html_body, text) = html::email(&body, None, None, &letterhead)?;
    let (state, user) = (state.clone(), user.clone());
    tokio::spawn(async move {
        let mut report = NotifyReport {
            roster: recipients.len() + unreachable.len(),
            attempted: 0,
            sent: 0,
            failed: vec![],
            unreachable,
        };
        for (client, to) in recipients {
            let email = Email {
                to,
                cc: None,
                subject: subject.clone(),
                html: html_body.clone(),
                text: text.clone(),
                attachments: vec![],
            };
            let (email, result) = mail::send(config.clone(), email, guard).await?;
            report.attempted += 1;
            match &result {
                Ok(_) => report.sent += 1,
                Err(e) => report.failed.push(FailedSend {
                    client_id: client.client_id.clone(),
                    client_name: client.client_name.clone(),
                    to: email.to.clone(),
                    error: e.to_string(),
                }),
            }
            let (user_id, module_id) = (user.id.clone(), id.clone());
            state
                .db
                .write(move |tx| {
                    let log_id = email::store::log(
                        tx,
                        Attempt {
                            purpose: "module_notify",
                            document_id: None,
                            client_id: Some(&client.client_id),
                            module_id: Some(&module_id),
                            to: &email.to,
                            cc: None,
                            subject: &email.subject,
                            sent_by: Some(&user_id),
                            result: &result,
                        },
                    )?;
                    audit(
                        tx,
                        Audit {
                            entity: "module",
                            entity_id: Some(&module_id),
                            action: "notify",
                            user_id: Some(&user_id),
                            before: None,
                            after: Some(serde_json::json!({
                                "client_id": client.client_id,
                                "to": email.to,
                                "subject": email.subject,
                                "status": if result.is_ok() { "sent" } else { "failed" },
                                "email_log_id": log_id,
                            })),
                        },
                    )
                })
                .await?;
        }
        Ok(report)
    })
    .await
    .map_err(AppError::internal)?
}
