//! The harness the test crates share (each includes it with `#[path = "../common/mod.rs"]`).
//! Here the in-process part: each test gets its own fresh data file in a temp dir and calls the
//! real router with `oneshot`, as a client on 127.0.0.1 would. The real binary as a process is in
//! `server`, the browser in `webdriver` and `browser`, a fake mail provider in `mail`.
//!
//! The tests of a crate share one process and run on parallel threads (one per core unless
//! `--test-threads` says otherwise): nothing here sets environment variables or the working
//! directory, every data file and log is in a temp dir of its own, every port is chosen by the
//! OS. What is shared on purpose is below: `TestApp::send_counting` for the library's
//! process-wide counters, `alone` and `shared` for tests that must not share the machine.

#![allow(dead_code)]

pub mod browser;
pub mod cloud;
pub mod gateway;
pub mod loopback;
pub mod mail;
pub mod pdf;
pub mod qr;
pub mod server;
pub mod smtp;
pub mod webdriver;

/// What a plain HTTP call from a test brought back.
pub struct Got {
    pub status: u16,
    pub headers: axum::http::HeaderMap,
    pub body: Vec<u8>,
}

impl Got {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// A plain HTTP call over the network (a real server, chromedriver): any status is an answer;
/// Err only when nothing answered within `timeout_secs`.
pub fn http_call(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
    timeout_secs: u64,
) -> Result<Got, String> {
    let agent = ureq::Agent::new_with_config(
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(std::time::Duration::from_secs(timeout_secs)))
            .build(),
    );
    let mut request = ureq::http::Request::builder().method(method).uri(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(body.unwrap_or_default().to_vec())
        .map_err(|e| e.to_string())?;
    let mut response = agent.run(request).map_err(|e| e.to_string())?;
    let body = response
        .body_mut()
        .with_config()
        .limit(1 << 30)
        .read_to_vec()
        .map_err(|e| e.to_string())?;
    Ok(Got {
        status: response.status().as_u16(),
        headers: response.headers().clone(),
        body,
    })
}

use axum::Router;
use axum::body::Body;
use axum::extract::connect_info::MockConnectInfo;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use backoffice::app;
use backoffice::plumbing::config::Config;
use backoffice::setup::first_start::bootstrap;
use backoffice::state::AppState;
use http_body_util::BodyExt;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use tempfile::TempDir;
use tower::ServiceExt;

/// Every request through a `TestApp` holds this for reading; `TestApp::send_counting` holds it
/// for writing, so that no request of another test runs while it reads a process-wide counter.
/// (The library's counters move only inside requests, and every request of an in-process test
/// goes through `TestApp::send`: the router is private to it.)
static REQUESTS: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// Held for a whole test: see `alone`.
static MACHINE: RwLock<()> = RwLock::new(());

/// For a test that loads the whole machine, or whose checks need a fair share of it (kills after
/// a random delay that must find writes in progress, a fuzzer's request timeouts): it holds this
/// for its whole run, and no test that holds `shared` runs meanwhile. The tests of a crate
/// run on parallel threads of one process; before the crates were folded such a test was a
/// binary of its own, and cargo runs test binaries one after another.
pub fn alone() -> RwLockWriteGuard<'static, ()> {
    MACHINE.write().unwrap_or_else(PoisonError::into_inner)
}

/// For every other test of a crate that has tests holding `alone` (the system tests): it holds
/// this for its whole run and runs beside other `shared` tests, never beside an `alone` one.
pub fn shared() -> RwLockReadGuard<'static, ()> {
    MACHINE.read().unwrap_or_else(PoisonError::into_inner)
}

/// A program `tests/run.sh` installs from PyPI into `target/fuzz-venv` (Schemathesis,
/// Litestream), or the one the environment variable `env` names. Missing, the test that asks is
/// skipped, except under CI, where that is a failure.
pub fn venv_tool(name: &str, env: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os(env)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("target/fuzz-venv/bin")
                .join(name)
        });
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but {name} is missing: run tests/run.sh"
    );
    eprintln!("test skipped: tests/run.sh installs {name}");
    None
}

pub const OWNER: &str = "owner@localhost";
pub const OWNER_PASSWORD: &str = "owner-initial-pw";

pub struct TestApp {
    pub dir: TempDir,
    pub state: AppState,
    router: Router,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
    pub text: String,
    pub bytes: Vec<u8>,
}

impl Reply {
    /// A header's value, when it is text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
    /// The `error.code` of an error body.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }
    /// The `bo_session=...` pair from Set-Cookie.
    pub fn session_cookie(&self) -> String {
        let cookie = self
            .headers
            .get(header::SET_COOKIE)
            .expect("a Set-Cookie header")
            .to_str()
            .unwrap();
        cookie.split(';').next().unwrap().to_string()
    }
}

/// A request to send: method, path, optional JSON body, optional cookie, extra headers.
pub struct Call {
    method: Method,
    path: String,
    body: Option<Vec<u8>>,
    content_type: Option<String>,
    cookie: Option<String>,
    headers: Vec<(String, String)>,
}

impl Call {
    pub fn new(method: Method, path: &str) -> Self {
        Call {
            method,
            path: path.into(),
            body: None,
            content_type: None,
            cookie: None,
            headers: vec![],
        }
    }
    pub fn json(mut self, body: Value) -> Self {
        self.body = Some(body.to_string().into_bytes());
        self.content_type = Some("application/json".into());
        self
    }
    pub fn raw(self, body: &str, content_type: Option<&str>) -> Self {
        self.bytes(body.as_bytes().to_vec(), content_type)
    }
    pub fn bytes(mut self, body: Vec<u8>, content_type: Option<&str>) -> Self {
        self.body = Some(body);
        self.content_type = content_type.map(str::to_string);
        self
    }
    pub fn cookie(mut self, cookie: &str) -> Self {
        self.cookie = Some(cookie.into());
        self
    }
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
}

impl TestApp {
    pub fn new() -> Self {
        Self::with_config(|_| {})
    }

    pub fn with_config(adjust: impl FnOnce(&mut Config)) -> Self {
        let dir = TempDir::new().unwrap();
        let mut config = Config {
            data: dir.path().join("test.db"),
            owner_password: Some(OWNER_PASSWORD.into()),
            ..Config::default()
        };
        adjust(&mut config);
        let boot = bootstrap(&config).expect("bootstrap");
        let state = AppState::new(boot.db, config);
        let router = app(state.clone()).layer(MockConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
        TestApp { dir, state, router }
    }

    pub async fn send(&self, call: Call) -> Reply {
        let _in_flight = REQUESTS.read().await;
        self.dispatch(call).await
    }

    /// Sends `call` while no other request of this process is in flight (through any `TestApp`,
    /// of any test), and answers the reply with how far `counter` moved meanwhile: exactly what
    /// this request did to a process-wide counter of the library, though the other tests of the
    /// crate run on parallel threads and may move it too.
    pub async fn send_counting(&self, call: Call, counter: &AtomicU64) -> (Reply, u64) {
        let _alone = REQUESTS.write().await;
        let before = counter.load(Ordering::SeqCst);
        let reply = self.dispatch(call).await;
        (reply, counter.load(Ordering::SeqCst) - before)
    }

    async fn dispatch(&self, call: Call) -> Reply {
        let mut builder = Request::builder()
            .method(call.method)
            .uri(&call.path)
            .header(header::HOST, "localhost");
        if let Some(ct) = &call.content_type {
            builder = builder.header(header::CONTENT_TYPE, ct);
        }
        if let Some(cookie) = &call.cookie {
            builder = builder.header(header::COOKIE, cookie);
        }
        for (name, value) in &call.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        let request = builder
            .body(call.body.map(Body::from).unwrap_or_else(Body::empty))
            .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&bytes).to_string();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Reply {
            status,
            headers,
            body,
            text,
            bytes: bytes.to_vec(),
        }
    }

    pub async fn get(&self, path: &str, cookie: &str) -> Reply {
        self.send(Call::new(Method::GET, path).cookie(cookie)).await
    }
    pub async fn post(&self, path: &str, cookie: &str, body: Value) -> Reply {
        self.send(Call::new(Method::POST, path).cookie(cookie).json(body))
            .await
    }
    pub async fn patch(&self, path: &str, cookie: &str, body: Value) -> Reply {
        self.send(Call::new(Method::PATCH, path).cookie(cookie).json(body))
            .await
    }

    pub async fn try_login(&self, username: &str, password: &str) -> Reply {
        self.send(
            Call::new(Method::POST, "/api/auth/login")
                .json(serde_json::json!({ "username": username, "password": password })),
        )
        .await
    }

    /// Signs in and answers the session cookie pair.
    pub async fn login(&self, username: &str, password: &str) -> String {
        let reply = self.try_login(username, password).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "login as {username}: {}",
            reply.text
        );
        reply.session_cookie()
    }

    pub async fn owner(&self) -> String {
        self.login(OWNER, OWNER_PASSWORD).await
    }

    /// Invites an employee as the owner; answers (id, initial password).
    pub async fn invite(&self, owner: &str, email: &str, role: &str) -> (String, String) {
        let reply = self
            .post(
                "/api/employees",
                owner,
                serde_json::json!({ "email": email, "name": email, "role": role }),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        (
            reply.body["id"].as_str().unwrap().into(),
            reply.body["initial_password"].as_str().unwrap().into(),
        )
    }

    /// The vendor's profile the document tests share: Softland India, Kollam, GSTIN in Kerala (32),
    /// with `extra` fields (bank details...).
    pub async fn set_company(&self, owner: &str, extra: Value) {
        let mut body =
            serde_json::json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" });
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().cloned().unwrap_or_default());
        let reply = self
            .send(
                Call::new(Method::PUT, "/api/settings/company")
                    .cookie(owner)
                    .json(body),
            )
            .await;
        assert_eq!(
            (reply.status, reply.body["state_code"].as_str()),
            (StatusCode::OK, Some("32")),
            "{}",
            reply.text
        );
    }

    /// The module DEP (Deposit module, SAC 998314, 18% GST) priced `price` paise from 2020-04-01; its id.
    pub async fn priced_module(&self, owner: &str, price: i64) -> String {
        let module = self
            .post(
                "/api/modules",
                owner,
                serde_json::json!({ "code": "DEP", "name": "Deposit module", "sac": "998314", "gst_rate": 18 }),
            )
            .await;
        assert_eq!(module.status, StatusCode::CREATED, "{}", module.text);
        let id = module.body["id"].as_str().unwrap().to_string();
        let priced = self
            .post(
                &format!("/api/modules/{id}/prices"),
                owner,
                serde_json::json!({ "effective_from": "2020-04-01", "price": price }),
            )
            .await;
        assert_eq!(priced.status, StatusCode::CREATED, "{}", priced.text);
        id
    }

    /// The document `draft` (a `POST /api/documents` body) made and issued; the issued document.
    pub async fn issue(&self, owner: &str, draft: serde_json::Value) -> serde_json::Value {
        let made = self.post("/api/documents", owner, draft).await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        let id = made.body["id"].as_str().unwrap();
        let issued = self
            .post(
                &format!("/api/documents/{id}/issue"),
                owner,
                serde_json::json!({}),
            )
            .await;
        assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
        issued.body
    }

    /// The payment `body` (a `POST /api/payments` body) recorded; the payment.
    pub async fn record_payment(&self, owner: &str, body: serde_json::Value) -> serde_json::Value {
        let reply = self.post("/api/payments", owner, body).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        reply.body
    }

    /// A direct connection to the test's data file, for asserting rows written or not.
    pub fn sql(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(self.dir.path().join("test.db")).unwrap()
    }

    pub fn count(&self, sql: &str) -> i64 {
        self.sql().query_row(sql, [], |r| r.get(0)).unwrap()
    }
}
