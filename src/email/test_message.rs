//! The mail settings' test message: sent through the chosen transport, logged and audited.

use crate::auth::session::AuthUser;
use crate::email::settings::TransportChoice;
use crate::email::store;
use crate::email::transport::config;
use crate::plumbing::db::audit::record;
use crate::plumbing::error::AppError;
use crate::plumbing::mail::{Email, MailError, Transport};
use crate::state::AppState;

const TEST_TEXT: &str =
    "This is a test of the mail settings: email from the back office reaches this address.";

/// What came of the mail settings' test message.
pub struct TestSent {
    pub to: String,
    pub transport: TransportChoice,
    pub result: Result<String, MailError>,
}

/// Sends a short message through the chosen transport to `to`, or else to the signed-in
/// owner's own address, and writes its email_log row (purpose `test`) and an audit row. Like
/// every send it runs as a task of its own, so the row is written even if the caller hangs up.
pub async fn send_test(state: &AppState, user: &AuthUser, to: Option<String>) -> Result<TestSent, AppError> {
    let (state, user) = (state.clone(), user.clone());
    tokio::spawn(async move {
        let who = user.id.clone();
        let (transport, to) = state
            .db
            .read(move |c| {
                let to = match to {
                    Some(to) => to,
                    None => {
                        crate::staff::store::get(c, &who)?
                            .ok_or_else(|| AppError::not_found("employee"))?
                            .email
                    }
                };
                Ok((config(c)?, to))
            })
            .await?;
        let kind = match transport {
            Transport::Api(_) => TransportChoice::Api,
            Transport::Smtp(_) => TransportChoice::Smtp,
        };
        let email = Email {
            to,
            cc: None,
            subject: "Test email from the back office".into(),
            html: format!("<p>{TEST_TEXT}</p>"),
            text: TEST_TEXT.into(),
            attachments: Vec::new(),
        };
        let (email, result) = crate::plumbing::mail::send(transport, email, state.config.guard()).await?;
        let logged = result.clone();
        let to = email.to.clone();
        state
            .db
            .write(move |tx| {
                let log_id = store::log(
                    tx,
                    store::Attempt {
                        purpose: "test",
                        document_id: None,
                        client_id: None,
                        module_id: None,
                        to: &email.to,
                        cc: None,
                        subject: &email.subject,
                        sent_by: Some(&user.id),
                        result: &logged,
                    },
                )?;
                let outcome = serde_json::json!({
                    "to": email.to,
                    "transport": kind,
                    "status": if logged.is_ok() { "sent" } else { "failed" },
                    "email_log_id": log_id,
                });
                record(tx, &user.id, "setting", "mail", "test", None, Some(&outcome))
            })
            .await?;
        Ok(TestSent {
            to,
            transport: kind,
            result,
        })
    })
    .await
    .map_err(AppError::internal)?
}
