//! A fake cloud-cost provider on loopback that speaks our wire format (docs/api/cloud_costs.md, "Cloud
//! costs"): `GET /usage?month=YYYY-MM` with `Authorization: Bearer <token>`, answered with the
//! report set for that month (`{ "month", "rows": [ { "client_id", "amount" } ] }`), or with a
//! raw answer set for it, or 404. It refuses a wrong token with 401 and keeps every request's
//! query and Authorization header, to check what was sent.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Inner {
    /// The token it takes.
    token: Mutex<String>,
    /// month → (status, body).
    answers: Mutex<HashMap<String, (u16, String)>>,
    /// (query, Authorization header) of every request, in order.
    requests: Mutex<Vec<(String, Option<String>)>>,
}

#[derive(Clone)]
pub struct FakeCloud {
    /// The report's address to store as the provider's `api_url`.
    pub url: String,
    inner: Arc<Inner>,
}

impl FakeCloud {
    /// A provider that takes `token`.
    pub fn start(token: &str) -> FakeCloud {
        let inner = Arc::new(Inner::default());
        *inner.token.lock().unwrap() = token.to_string();
        let addr = super::loopback::serve(inner.clone(), serve);
        FakeCloud {
            url: format!("http://{addr}/usage"),
            inner,
        }
    }

    /// The report of `month`: its rows as (client id, amount as JSON: a string or a number).
    pub fn report(&self, month: &str, rows: &[(&str, serde_json::Value)]) {
        let rows: Vec<serde_json::Value> = rows
            .iter()
            .map(|(id, amount)| serde_json::json!({ "client_id": id, "amount": amount }))
            .collect();
        let body = serde_json::json!({ "month": month, "currency": "INR", "rows": rows }).to_string();
        self.answer(month, 200, &body);
    }

    /// For `month`, answer `body` with HTTP `status`.
    pub fn answer(&self, month: &str, status: u16, body: &str) {
        self.inner
            .answers
            .lock()
            .unwrap()
            .insert(month.into(), (status, body.into()));
    }

    pub fn requests(&self) -> Vec<(String, Option<String>)> {
        self.inner.requests.lock().unwrap().clone()
    }
}

fn serve(stream: std::net::TcpStream, inner: &Inner) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut authorization = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("authorization")
        {
            authorization = Some(value.trim().to_string());
        }
    }
    let target = request_line.split_whitespace().nth(1).unwrap_or("");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    inner
        .requests
        .lock()
        .unwrap()
        .push((query.to_string(), authorization.clone()));
    let month = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("month="))
        .unwrap_or("")
        .to_string();
    let expected = format!("Bearer {}", inner.token.lock().unwrap());
    let (status, body) = if path != "/usage" {
        (404, r#"{"error":"not found"}"#.to_string())
    } else if authorization.as_deref() != Some(expected.as_str()) {
        (401, r#"{"error":"bad token"}"#.to_string())
    } else {
        inner
            .answers
            .lock()
            .unwrap()
            .get(&month)
            .cloned()
            .unwrap_or((404, r#"{"error":"no report for that month"}"#.to_string()))
    };
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    out.flush()
}
