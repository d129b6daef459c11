//! What is sent (an email and its attachments) and why a send failed, whatever the transport.

use crate::plumbing::outbound::TargetError;

pub struct Attachment {
    pub name: String,
    pub content_type: &'static str,
    pub content: Vec<u8>,
}

pub struct Email {
    pub to: String,
    pub cc: Option<String>,
    pub subject: String,
    pub html: String,
    pub text: String,
    pub attachments: Vec<Attachment>,
}

/// Why a call to the provider failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailError {
    /// The address was refused before any call.
    Target(TargetError),
    /// 401: the token is wrong or revoked.
    DeadToken,
    /// The SMTP server refused the user name or password (535).
    LoginRefused,
    /// The provider answered, but refused (its ErrorCode and message, or an HTTP status).
    Refused(String),
    /// No answer: connection, TLS or timeout.
    Unreachable(String),
}

impl std::fmt::Display for MailError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MailError::Target(e) => write!(f, "the mail provider address is refused: {e}"),
            MailError::DeadToken => write!(f, "the mail provider refused the token (401)"),
            MailError::LoginRefused => write!(f, "the mail server refused the user name or password"),
            MailError::Refused(why) => write!(f, "the mail provider refused the message: {why}"),
            MailError::Unreachable(why) => write!(f, "the mail provider did not answer: {why}"),
        }
    }
}
