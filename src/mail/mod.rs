//! The mail provider, in Postmark's shape (decisions 7): `POST {api_url}/email` with the
//! header `X-Postmark-Server-Token`, answered `{ ErrorCode: 0, MessageID }`; liveness is
//! `GET {api_url}/server` (200 alive, 401 a dead token). Every call goes through the outbound
//! rules (address check, no redirects, timeout). The token never enters an error text.
//! This is the transport only: what is sent, and the log of it, belong to `crate::email`.

use crate::error::AppError;
use crate::outbound::{self, TargetError};
use base64::Engine;
use serde::{Deserialize, Serialize};

/// Where and as whom mail is sent.
#[derive(Clone)]
pub struct MailConfig {
    pub api_url: String,
    pub from: String,
    pub token: String,
}

impl std::fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailConfig")
            .field("api_url", &self.api_url)
            .field("from", &self.from)
            .field("token", &"<redacted>")
            .finish()
    }
}

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
            MailError::Refused(why) => write!(f, "the mail provider refused the message: {why}"),
            MailError::Unreachable(why) => write!(f, "the mail provider did not answer: {why}"),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct WireAttachment<'a> {
    name: &'a str,
    content: String,
    content_type: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct WireEmail<'a> {
    from: &'a str,
    to: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cc: Option<&'a str>,
    subject: &'a str,
    html_body: &'a str,
    text_body: &'a str,
    attachments: Vec<WireAttachment<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct WireReply {
    error_code: i64,
    #[serde(default)]
    message: String,
    #[serde(rename = "MessageID", default)]
    message_id: String,
}

fn endpoint(config: &MailConfig, path: &str) -> String {
    format!("{}/{path}", config.api_url.trim_end_matches('/'))
}

fn call(
    config: &MailConfig,
    request: minreq::Request,
    allow_private: bool,
) -> Result<minreq::Response, MailError> {
    outbound::check_target(&config.api_url, allow_private).map_err(MailError::Target)?;
    let response = request
        .with_header("X-Postmark-Server-Token", config.token.as_str())
        .with_header("Accept", "application/json")
        .send()
        .map_err(|e| MailError::Unreachable(e.to_string()))?;
    match response.status_code {
        200..=299 => Ok(response),
        401 => Err(MailError::DeadToken),
        code => Err(MailError::Refused(format!(
            "HTTP {code}{}",
            wire_message(&response)
        ))),
    }
}

fn wire_message(response: &minreq::Response) -> String {
    response
        .json::<WireReply>()
        .ok()
        .filter(|r| !r.message.is_empty())
        .map(|r| format!(": {}", r.message.chars().take(300).collect::<String>()))
        .unwrap_or_default()
}

/// Is the provider there and does it take the token? (`GET /server`.)
pub fn alive(config: &MailConfig, allow_private: bool) -> Result<(), MailError> {
    call(
        config,
        outbound::request(minreq::Method::Get, &endpoint(config, "server")),
        allow_private,
    )
    .map(|_| ())
}

/// Sends one email; the provider's message id on success.
pub fn send_now(config: &MailConfig, email: &Email, allow_private: bool) -> Result<String, MailError> {
    let wire = WireEmail {
        from: &config.from,
        to: &email.to,
        cc: email.cc.as_deref(),
        subject: &email.subject,
        html_body: &email.html,
        text_body: &email.text,
        attachments: email
            .attachments
            .iter()
            .map(|a| WireAttachment {
                name: &a.name,
                content: base64::engine::general_purpose::STANDARD.encode(&a.content),
                content_type: a.content_type,
            })
            .collect(),
    };
    let request = outbound::request(minreq::Method::Post, &endpoint(config, "email"))
        .with_json(&wire)
        .map_err(|e| MailError::Refused(e.to_string()))?;
    let response = call(config, request, allow_private)?;
    let reply: WireReply = response
        .json()
        .map_err(|_| MailError::Refused("an answer that is not the provider's JSON".into()))?;
    if reply.error_code != 0 {
        return Err(MailError::Refused(format!(
            "error {}: {}",
            reply.error_code, reply.message
        )));
    }
    Ok(reply.message_id)
}

/// Asks the provider whether it is alive, off the async threads (the call blocks up to its timeout).
pub async fn probe(config: MailConfig, allow_private: bool) -> Result<Result<(), MailError>, AppError> {
    tokio::task::spawn_blocking(move || alive(&config, allow_private))
        .await
        .map_err(AppError::internal)
}

/// Sends one email off the async threads; the email comes back with what came of it.
pub async fn send(
    config: MailConfig,
    email: Email,
    allow_private: bool,
) -> Result<(Email, Result<String, MailError>), AppError> {
    tokio::task::spawn_blocking(move || {
        let result = send_now(&config, &email, allow_private);
        (email, result)
    })
    .await
    .map_err(AppError::internal)
}

/// One bounce the provider reports (`GET /bounces`, Postmark's shape).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Bounce {
    /// The provider's id of the bounce: what makes reading it again harmless.
    #[serde(rename = "ID")]
    pub id: i64,
    /// HardBounce, SoftBounce, SpamComplaint ...
    #[serde(rename = "Type", default)]
    pub kind: String,
    #[serde(default)]
    pub description: String,
    pub email: String,
    /// When it bounced (RFC 3339).
    #[serde(default)]
    pub bounced_at: String,
    /// The provider's id of the message that bounced, as its send answered it.
    #[serde(rename = "MessageID", default)]
    pub message_id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct WireBounces {
    #[serde(default)]
    bounces: Vec<Bounce>,
}

/// The latest bounces (`GET /bounces?count=100&offset=0`, decisions 7).
pub fn bounces(config: &MailConfig, allow_private: bool) -> Result<Vec<Bounce>, MailError> {
    let request = outbound::request(
        minreq::Method::Get,
        &endpoint(config, "bounces?count=100&offset=0"),
    );
    let response = call(config, request, allow_private)?;
    let reply: WireBounces = response
        .json()
        .map_err(|_| MailError::Refused("a bounce list that is not the provider's JSON".into()))?;
    Ok(reply.bounces)
}
