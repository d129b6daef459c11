//! The transport the mail settings chose, and the calls that go through it: liveness, a send,
//! the bounces; blocking or off the async threads.

use super::api::{self, Bounce, MailConfig};
use super::message::{Email, MailError};
use super::smtp;
use crate::plumbing::error::AppError;
use crate::plumbing::outbound::Guard;

/// The way mail leaves, as the mail settings chose it.
#[derive(Debug, Clone)]
pub enum Transport {
    Api(MailConfig),
    Smtp(smtp::SmtpConfig),
}

/// Is the provider there and does it take the token or the login? (`GET /server`; over SMTP,
/// a connection that signs in.)
pub fn alive(transport: &Transport, guard: Guard) -> Result<(), MailError> {
    match transport {
        Transport::Api(config) => api::alive(config, guard),
        Transport::Smtp(config) => smtp::alive(config, guard),
    }
}

/// Sends one email through the chosen transport; the message id on success.
pub fn send_now(transport: &Transport, email: &Email, guard: Guard) -> Result<String, MailError> {
    match transport {
        Transport::Api(config) => api::send(config, email, guard),
        Transport::Smtp(config) => smtp::send_now(config, email, guard),
    }
}

/// Asks the provider whether it is alive, off the async threads (the call blocks up to its timeout).
pub async fn probe(config: Transport, guard: Guard) -> Result<Result<(), MailError>, AppError> {
    tokio::task::spawn_blocking(move || alive(&config, guard))
        .await
        .map_err(AppError::internal)
}

/// Sends one email off the async threads; the email comes back with what came of it.
pub async fn send(
    config: Transport,
    email: Email,
    guard: Guard,
) -> Result<(Email, Result<String, MailError>), AppError> {
    tokio::task::spawn_blocking(move || {
        let result = send_now(&config, &email, guard);
        (email, result)
    })
    .await
    .map_err(AppError::internal)
}

/// The latest bounces the provider reports. Over SMTP there is no such list (a bounce comes back
/// as mail to the mailbox): none.
pub fn bounces(transport: &Transport, guard: Guard) -> Result<Vec<Bounce>, MailError> {
    match transport {
        Transport::Api(config) => api::bounces(config, guard),
        Transport::Smtp(_) => Ok(Vec::new()),
    }
}
