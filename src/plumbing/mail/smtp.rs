//! Mail through the office's own mailbox (Gmail, Zoho Mail, Outlook): SMTP with lettre.
//!
//! - The host is resolved once through the same check as every outbound call
//!   (`outbound::resolve_host`), and lettre connects to a checked address, never to the name:
//!   the address checked is the address connected to. TLS is given the host name, so the
//!   certificate is still verified against it.
//! - `starttls` requires STARTTLS (a server that does not offer it is refused), `tls` is TLS from
//!   the first byte, `none` is plain text (a server on the office's own network).
//! - The same timeout as other outbound calls, on the connection and each exchange.
//! - The password never enters an error text nor a `{:?}`.

use super::message::{Email, MailError};
use crate::plumbing::outbound::{self, Guard};
use lettre::message::header::ContentType;
use lettre::message::{Mailbox, Mailboxes, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{Message, SmtpTransport, Transport};
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use utoipa::ToSchema;

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Plain connection upgraded by STARTTLS, which the server must offer (port 587).
    Starttls,
    /// TLS from the first byte, "SSL" in some mail settings (port 465).
    Tls,
    /// No encryption: the password and the mail cross the network readable.
    None,
}

impl Security {
    /// The port this security is usually offered on.
    pub fn default_port(self) -> u16 {
        match self {
            Security::Starttls => 587,
            Security::Tls => 465,
            Security::None => 25,
        }
    }
}

/// Where and as whom mail is sent over SMTP.
#[derive(Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub security: Security,
    /// Empty: the server takes mail without signing in.
    pub username: String,
    pub password: String,
    pub from: String,
}

impl std::fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("password", &"<redacted>")
            .field("from", &self.from)
            .finish()
    }
}

/// Checks that `pem` holds a certificate TLS can trust (`--smtp-ca-file`).
pub fn check_ca(pem: &[u8]) -> Result<(), String> {
    Certificate::from_pem(pem)
        .map(|_| ())
        .map_err(|_| "no PEM certificate could be read".into())
}

/// A transport that connects to `addr` (a checked address) and verifies TLS against the host name.
fn transport(config: &SmtpConfig, addr: SocketAddr, guard: Guard) -> Result<SmtpTransport, MailError> {
    let tls = || {
        let mut params = TlsParameters::builder(config.host.clone());
        if let Some(pem) = guard.smtp_ca {
            let ca = Certificate::from_pem(pem)
                .map_err(|_| MailError::Unreachable("the private CA cannot be read".into()))?;
            params = params.add_root_certificate(ca);
        }
        params
            .build_rustls()
            .map_err(|e| MailError::Unreachable(format!("TLS could not be set up: {e}")))
    };
    let tls = match config.security {
        Security::Starttls => Tls::Required(tls()?),
        Security::Tls => Tls::Wrapper(tls()?),
        Security::None => Tls::None,
    };
    let mut builder = SmtpTransport::builder_dangerous(addr.ip().to_string())
        .port(addr.port())
        .tls(tls)
        .timeout(Some(guard.timeout));
    if !config.username.is_empty() {
        builder = builder.credentials(Credentials::new(config.username.clone(), config.password.clone()));
    }
    Ok(builder.build())
}

/// Runs `exchange` on a transport to each checked address in turn, until one answers (a name
/// may resolve to an IPv6 address this machine cannot reach, and an IPv4 one it can).
fn with_server<T>(
    config: &SmtpConfig,
    guard: Guard,
    exchange: impl Fn(&SmtpTransport) -> Result<T, lettre::transport::smtp::Error>,
) -> Result<T, MailError> {
    let addrs =
        outbound::resolve_host(&config.host, config.port, guard.allow_private).map_err(MailError::Target)?;
    let mut last = MailError::Unreachable("no address to connect to".into());
    for addr in addrs {
        match exchange(&transport(config, addr, guard)?) {
            Ok(done) => return Ok(done),
            // Nothing reached this address, so nothing can go out twice: the next may answer.
            Err(e) if io_kinds(&e).any(|k| NOT_CONNECTED.contains(&k)) => last = failure(&e, guard),
            Err(e) => return Err(failure(&e, guard)),
        }
    }
    Err(last)
}

/// The failures of a connection that never opened.
const NOT_CONNECTED: [std::io::ErrorKind; 4] = [
    std::io::ErrorKind::ConnectionRefused,
    std::io::ErrorKind::NetworkUnreachable,
    std::io::ErrorKind::HostUnreachable,
    std::io::ErrorKind::AddrNotAvailable,
];

/// The kinds of the I/O errors under `e`.
fn io_kinds(e: &lettre::transport::smtp::Error) -> impl Iterator<Item = std::io::ErrorKind> + '_ {
    std::iter::successors(std::error::Error::source(e), |s| s.source())
        .filter_map(|s| s.downcast_ref::<std::io::Error>())
        .map(std::io::Error::kind)
}

/// Names what went wrong in words a person can act on; the server's own reply is quoted (it
/// never holds the password: lettre sends it, the server does not echo it).
fn failure(e: &lettre::transport::smtp::Error, guard: Guard) -> MailError {
    let reply = || {
        let text = e.to_string();
        let said = text.split_once(": ").map_or(text.as_str(), |(_, said)| said);
        said.chars().take(300).collect::<String>()
    };
    // A refused certificate reaches lettre as unreadable data on the socket (rustls), from the
    // handshake of TLS from the first byte as from STARTTLS's.
    let tls = e.is_tls() || io_kinds(e).any(|k| k == std::io::ErrorKind::InvalidData);
    match e.status() {
        // 535 authentication failed, 534 and 530 an account that must sign in some other way.
        Some(code) if matches!(code.to_string().as_str(), "530" | "534" | "535") => MailError::LoginRefused,
        Some(code) => MailError::Refused(format!("{code} {}", reply())),
        None if e.is_timeout() => MailError::Unreachable(format!(
            "no answer within {} seconds",
            guard.timeout.as_secs_f64()
        )),
        None if tls => MailError::Unreachable(format!("TLS failed: {}", reply())),
        None if e.is_client() => MailError::Refused(reply()),
        None => MailError::Unreachable(format!("connection failed: {}", reply())),
    }
}

/// The message as it goes on the wire: the text and HTML bodies, then each attachment.
fn message(config: &SmtpConfig, email: &Email) -> Result<(Message, String), MailError> {
    let bad =
        |what: &str, value: &str| MailError::Refused(format!("{what} {value:?} is not a valid address"));
    let from: Mailbox = config.from.parse().map_err(|_| bad("the sender", &config.from))?;
    let id = format!("<{}@{}>", ulid::Ulid::new(), from.email.domain());
    let mut builder = Message::builder()
        .from(from)
        .subject(email.subject.as_str())
        .message_id(Some(id.clone()));
    for to in email
        .to
        .parse::<Mailboxes>()
        .map_err(|_| bad("the recipient", &email.to))?
    {
        builder = builder.to(to);
    }
    if let Some(cc) = email.cc.as_deref().filter(|c| !c.trim().is_empty()) {
        for cc in cc.parse::<Mailboxes>().map_err(|_| bad("the copy", cc))? {
            builder = builder.cc(cc);
        }
    }
    let mut body = MultiPart::mixed().multipart(MultiPart::alternative_plain_html(
        email.text.clone(),
        email.html.clone(),
    ));
    for a in &email.attachments {
        let kind = ContentType::parse(a.content_type)
            .map_err(|_| MailError::Refused(format!("{} is not a content type", a.content_type)))?;
        body =
            body.singlepart(lettre::message::Attachment::new(a.name.clone()).body(a.content.clone(), kind));
    }
    let message = builder
        .multipart(body)
        .map_err(|e| MailError::Refused(format!("the message could not be built: {e}")))?;
    Ok((message, id))
}

/// Is the server there, and does it take the user name and password? (Connects, signs in,
/// NOOP, QUIT.)
pub fn alive(config: &SmtpConfig, guard: Guard) -> Result<(), MailError> {
    with_server(config, guard, |t| t.test_connection()).and_then(|ok| {
        if ok {
            Ok(())
        } else {
            Err(MailError::Unreachable("the server did not answer NOOP".into()))
        }
    })
}

/// Sends one email; its Message-ID on success (what the email log keeps as the message id).
pub fn send_now(config: &SmtpConfig, email: &Email, guard: Guard) -> Result<String, MailError> {
    let (message, id) = message(config, email)?;
    with_server(config, guard, |t| t.send(&message))?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_redacts_the_password() {
        let config = SmtpConfig {
            host: "smtp.gmail.com".into(),
            port: 587,
            security: Security::Starttls,
            username: "billing@softland.in".into(),
            password: "abcd efgh ijkl mnop".into(),
            from: "billing@softland.in".into(),
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("abcd efgh"), "{shown}");
        assert!(shown.contains("<redacted>"));
    }

    #[test]
    fn each_security_has_its_usual_port() {
        for (security, port) in [
            (Security::Starttls, 587),
            (Security::Tls, 465),
            (Security::None, 25),
        ] {
            assert_eq!(security.default_port(), port);
        }
    }
}
