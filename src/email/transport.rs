//! The transport to send through, read from the settings (409 when it is not set up), and the
//! 409 for a provider that is not alive.

use crate::email::settings::{
    SMTP_PASSWORD_KEY, TOKEN_KEY, TransportChoice, settings_view, stored_credential,
};
use crate::plumbing::error::AppError;
use crate::plumbing::mail::smtp::{Security, SmtpConfig};
use crate::plumbing::mail::{MailConfig, MailError, Transport};
use rusqlite::Connection;

/// The transport to send through, or a 409 saying what is missing.
pub fn config(conn: &Connection) -> Result<Transport, AppError> {
    let view = settings_view(conn)?;
    let not_set = |what: &str| {
        AppError::conflict(
            "mail_not_configured",
            format!("Email is not set up: the owner enters {what} under Settings → Mail."),
        )
    };
    match view.transport {
        TransportChoice::Api => match (view.api_url, view.from, stored_credential(conn, TOKEN_KEY)?) {
            (Some(api_url), Some(from), Some(token)) => {
                Ok(Transport::Api(MailConfig { api_url, from, token }))
            }
            _ => Err(not_set("the mail provider's address, sender and token")),
        },
        TransportChoice::Smtp => match (view.smtp_host, view.from) {
            (Some(host), Some(from)) => {
                let security = view.smtp_security.unwrap_or(Security::Starttls);
                Ok(Transport::Smtp(SmtpConfig {
                    host,
                    port: view.smtp_port.unwrap_or(security.default_port()),
                    security,
                    username: view.smtp_username.unwrap_or_default(),
                    password: stored_credential(conn, SMTP_PASSWORD_KEY)?.unwrap_or_default(),
                    from,
                }))
            }
            _ => Err(not_set("the mail server and the sender")),
        },
    }
}

/// The 409 for a provider that is not alive when a send depends on it.
pub fn dead_provider(e: &MailError) -> AppError {
    AppError::conflict(
        "mail_provider_dead",
        format!("Email cannot go out now: {e}. Nothing was changed."),
    )
}
