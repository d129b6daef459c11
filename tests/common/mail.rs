//! A fake mail provider on loopback that speaks Postmark's wire format (decisions 7):
//! `GET /server`, `POST /email` and `GET /bounces` with the `X-Postmark-Server-Token` header. It
//! records every email it accepts, reports the bounces it is given, and can be told to refuse
//! the token or to fail sends while staying alive.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

pub const TOKEN: &str = "fake-postmark-token-0123456789";

#[derive(Default)]
struct Inner {
    received: Mutex<Vec<Value>>,
    /// When set, /server answers 200 but every /email answers ErrorCode 406.
    fail_sends: AtomicBool,
    /// Milliseconds each /email takes before it answers.
    send_delay_ms: AtomicUsize,
    counter: AtomicUsize,
    /// When set, every call answers 401 (a revoked token).
    dead_token: AtomicBool,
    /// What `GET /bounces` lists (Postmark's bounce objects).
    bounces: Mutex<Vec<Value>>,
}

#[derive(Clone)]
pub struct FakeMail {
    pub url: String,
    inner: Arc<Inner>,
}

impl FakeMail {
    pub fn start() -> FakeMail {
        let inner = Arc::new(Inner::default());
        let addr = super::loopback::serve(inner.clone(), serve);
        FakeMail {
            url: format!("http://{addr}"),
            inner,
        }
    }

    /// Emails accepted so far (the JSON bodies as posted).
    pub fn received(&self) -> Vec<Value> {
        self.inner.received.lock().unwrap().clone()
    }

    pub fn fail_sends(&self, fail: bool) {
        self.inner.fail_sends.store(fail, Ordering::SeqCst);
    }

    /// Revokes (or restores) the token: every call answers 401.
    pub fn kill_token(&self, dead: bool) {
        self.inner.dead_token.store(dead, Ordering::SeqCst);
    }

    /// Adds a bounce to what `GET /bounces` answers.
    pub fn bounce(&self, id: i64, kind: &str, email: &str, bounced_at: &str) {
        self.inner.bounces.lock().unwrap().push(json!({
            "ID": id, "Type": kind, "TypeCode": 1, "Name": kind, "Tag": "", "MessageID": format!("msg-{id}"),
            "ServerID": 1, "Description": format!("The server was unable to deliver your message ({kind})."),
            "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
            "Email": email, "From": "billing@softland.in", "BouncedAt": bounced_at, "DumpAvailable": false,
            "Inactive": true, "CanActivate": true, "Subject": "Reminder"
        }));
    }

    /// Makes every send take `ms` milliseconds (a slow provider).
    pub fn delay_sends(&self, ms: usize) {
        self.inner.send_delay_ms.store(ms, Ordering::SeqCst);
    }
}

fn serve(stream: std::net::TcpStream, inner: &Inner) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut length = 0usize;
    let mut token = String::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "x-postmark-server-token" => token = value.trim().to_string(),
                _ => {}
            }
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body)?;
    let mut parts = request_line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let (status, reply) = if token != TOKEN || inner.dead_token.load(Ordering::SeqCst) {
        (
            401,
            json!({ "ErrorCode": 10, "Message": "Bad or missing Server API token." }),
        )
    } else {
        match (method, path) {
            ("GET", "/server") => (200, json!({ "ID": 1, "Name": "Fake" })),
            ("GET", "/bounces?count=100&offset=0") => {
                let bounces = inner.bounces.lock().unwrap().clone();
                (200, json!({ "TotalCount": bounces.len(), "Bounces": bounces }))
            }
            ("POST", "/email") if inner.fail_sends.load(Ordering::SeqCst) => (
                422,
                json!({ "ErrorCode": 406, "Message": "You tried to send to a recipient that has been marked as inactive." }),
            ),
            ("POST", "/email") => {
                let delay = inner.send_delay_ms.load(Ordering::SeqCst) as u64;
                std::thread::sleep(std::time::Duration::from_millis(delay));
                let email: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let n = inner.counter.fetch_add(1, Ordering::SeqCst);
                let to = email["To"].clone();
                inner.received.lock().unwrap().push(email);
                (
                    200,
                    json!({ "ErrorCode": 0, "Message": "OK", "MessageID": format!("msg-{n}"), "To": to }),
                )
            }
            _ => (404, json!({ "ErrorCode": 404, "Message": "Not found" })),
        }
    };
    let text = reply.to_string();
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    )?;
    out.flush()
}
