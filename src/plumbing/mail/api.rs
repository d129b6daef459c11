//! The mail API in Postmark's shape (decisions 7): `POST {api_url}/email` with the header
//! `X-Postmark-Server-Token`, answered `{ ErrorCode: 0, MessageID }`; liveness is
//! `GET {api_url}/server`; bounces are `GET {api_url}/bounces`.

use super::message::{Email, MailError};
use crate::plumbing::outbound::{self, CallError, Guard};
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

/// The largest answer read from the provider (a bounce list of 100 is a few tens of KB).
const MAX_ANSWER: u64 = 1 << 20;

fn call(
    config: &MailConfig,
    method: outbound::Method,
    path: &str,
    body: Option<Vec<u8>>,
    guard: Guard,
) -> Result<outbound::Reply, MailError> {
    let url = endpoint(config, path);
    let mut request = outbound::Request::get(&url, MAX_ANSWER)
        .header("X-Postmark-Server-Token", config.token.as_str())
        .header("Accept", "application/json");
    request.method = method;
    if let Some(body) = body {
        request = request.header("Content-Type", "application/json");
        request.body = Some(body);
    }
    let reply = outbound::call(guard, request).map_err(|e| match e {
        CallError::Target(e) => MailError::Target(e),
        CallError::Redirect(code) => {
            MailError::Refused(format!("HTTP {code}, a redirect, which is not followed"))
        }
        other => MailError::Unreachable(other.to_string()),
    })?;
    match reply.status {
        200..=299 => Ok(reply),
        401 => Err(MailError::DeadToken),
        code => Err(MailError::Refused(format!("HTTP {code}{}", wire_message(&reply)))),
    }
}

fn wire_message(reply: &outbound::Reply) -> String {
    serde_json::from_slice::<WireReply>(&reply.body)
        .ok()
        .filter(|r| !r.message.is_empty())
        .map(|r| format!(": {}", r.message.chars().take(300).collect::<String>()))
        .unwrap_or_default()
}

/// Is the provider there and does it take the token? (`GET /server`.)
pub fn alive(config: &MailConfig, guard: Guard) -> Result<(), MailError> {
    call(config, outbound::Method::GET, "server", None, guard).map(|_| ())
}

pub fn send(config: &MailConfig, email: &Email, guard: Guard) -> Result<String, MailError> {
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
    let body = serde_json::to_vec(&wire).map_err(|e| MailError::Refused(e.to_string()))?;
    let reply = call(config, outbound::Method::POST, "email", Some(body), guard)?;
    let reply: WireReply = serde_json::from_slice(&reply.body)
        .map_err(|_| MailError::Refused("an answer that is not the provider's JSON".into()))?;
    if reply.error_code != 0 {
        return Err(MailError::Refused(format!(
            "error {}: {}",
            reply.error_code, reply.message
        )));
    }
    Ok(reply.message_id)
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
pub fn bounces(config: &MailConfig, guard: Guard) -> Result<Vec<Bounce>, MailError> {
    let reply = call(
        config,
        outbound::Method::GET,
        "bounces?count=100&offset=0",
        None,
        guard,
    )?;
    let reply: WireBounces = serde_json::from_slice(&reply.body)
        .map_err(|_| MailError::Refused("a bounce list that is not the provider's JSON".into()))?;
    Ok(reply.bounces)
}
