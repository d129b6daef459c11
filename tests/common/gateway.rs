//! A fake SMS gateway on loopback that speaks the real wire format (decisions 7):
//! `GET /balance?username=..&password=..` answered with one line `code|STATUS|payload`.
//! It keeps a login → balance book, answers `401|ERROR|Invalid login` to a wrong password, and
//! can be told to answer a given raw reply, to answer slowly, or to count what it was asked.
//! The benchmark includes this file (and `loopback.rs`) too, so it depends on std only.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Default)]
struct Inner {
    /// username → (password, balance).
    logins: Mutex<HashMap<String, (String, i64)>>,
    /// username → the raw HTTP body to answer instead (e.g. garbage), with its status.
    raw: Mutex<HashMap<String, (u16, String)>>,
    /// Milliseconds before each answer.
    delay_ms: AtomicU64,
    /// username → milliseconds before its answer (beyond `delay_ms`).
    slow: Mutex<HashMap<String, u64>>,
    /// Requests answered.
    calls: AtomicUsize,
    /// The largest number of requests in flight at once.
    peak: AtomicUsize,
    in_flight: AtomicUsize,
    /// Every query string seen, to check what was sent.
    queries: Mutex<Vec<String>>,
}

#[derive(Clone)]
pub struct FakeGateway {
    /// The balance address to store as `sms.balance_api_url`.
    pub url: String,
    inner: Arc<Inner>,
}

impl FakeGateway {
    pub fn start() -> FakeGateway {
        let inner = Arc::new(Inner::default());
        let addr = super::loopback::serve(inner.clone(), serve);
        FakeGateway {
            url: format!("http://{addr}/balance"),
            inner,
        }
    }

    /// The account `username` with `password` holds `balance` credits.
    pub fn account(&self, username: &str, password: &str, balance: i64) {
        self.inner
            .logins
            .lock()
            .unwrap()
            .insert(username.into(), (password.into(), balance));
    }

    /// For `username`, answer `body` with HTTP `status` instead of the balance line.
    pub fn answer_raw(&self, username: &str, status: u16, body: &str) {
        self.inner
            .raw
            .lock()
            .unwrap()
            .insert(username.into(), (status, body.into()));
    }

    /// Makes the answers for `username` take `delay` (past the server's timeout, say).
    pub fn slow(&self, username: &str, delay: Duration) {
        self.inner
            .slow
            .lock()
            .unwrap()
            .insert(username.into(), delay.as_millis() as u64);
    }

    pub fn clear_raw(&self, username: &str) {
        self.inner.raw.lock().unwrap().remove(username);
    }

    pub fn delay(&self, delay: Duration) {
        self.inner
            .delay_ms
            .store(delay.as_millis() as u64, Ordering::SeqCst);
    }

    pub fn calls(&self) -> usize {
        self.inner.calls.load(Ordering::SeqCst)
    }

    pub fn peak_in_flight(&self) -> usize {
        self.inner.peak.load(Ordering::SeqCst)
    }

    pub fn queries(&self) -> Vec<String> {
        self.inner.queries.lock().unwrap().clone()
    }
}

/// Decodes one `application/x-www-form-urlencoded` value.
fn decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                match u8::from_str_radix(hex, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn serve(stream: std::net::TcpStream, inner: &Inner) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let now = inner.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    inner.peak.fetch_max(now, Ordering::SeqCst);
    let target = request_line.split_whitespace().nth(1).unwrap_or("");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    inner.queries.lock().unwrap().push(query.to_string());
    let params: HashMap<String, String> = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect();
    let username = params.get("username").cloned().unwrap_or_default();
    let password = params.get("password").cloned().unwrap_or_default();
    let slow = inner.slow.lock().unwrap().get(&username).copied().unwrap_or(0);
    std::thread::sleep(Duration::from_millis(
        inner.delay_ms.load(Ordering::SeqCst) + slow,
    ));
    let raw = inner.raw.lock().unwrap().get(&username).cloned();
    let (status, body) = match raw {
        Some(raw) => raw,
        None if path != "/balance" => (404, "404|ERROR|Not found".into()),
        None => match inner.logins.lock().unwrap().get(&username) {
            Some((pw, balance)) if *pw == password => (200, format!("200|OK|{balance}")),
            _ => (200, "401|ERROR|Invalid login".into()),
        },
    };
    inner.calls.fetch_add(1, Ordering::SeqCst);
    inner.in_flight.fetch_sub(1, Ordering::SeqCst);
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {status} X\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    out.flush()
}
