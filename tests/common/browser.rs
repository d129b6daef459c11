//! Steps the browser tests share: screenshots, choosing in a select, and users past their first
//! sign-in.

use crate::common::server::Server;
use crate::common::webdriver::Session;
use serde_json::json;
use std::path::PathBuf;

/// Saves a screenshot as target/screenshots/NAME.png for a reviewer.
/// Waits up to 20 s for `ok`, failing with `what` and the page's text.
pub fn until(s: &Session, what: &str, ok: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !ok() {
        assert!(std::time::Instant::now() < deadline, "{what}: {}", s.page_text());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Closes the toasts, so that a screenshot shows the page under them.
pub fn quiet(s: &Session) {
    s.script(
        "document.querySelectorAll('.toast-close').forEach(b => b.click())",
        json!([]),
    );
}

pub fn shot(session: &Session, name: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/screenshots")
        .join(format!("{name}.png"));
    session.screenshot(&path);
}

/// Chooses `value` in the select `css` as a person would (input and change events).
pub fn select(s: &Session, css: &str, value: &str) {
    s.wait(css);
    s.script(
        "const [css, v] = arguments; const el = document.querySelector(css);
         if (![...el.options].some(o => o.value === v)) throw new Error('no option ' + v + ' in ' + css);
         el.value = v; el.dispatchEvent(new Event('input', { bubbles: true })); el.dispatchEvent(new Event('change', { bubbles: true }));",
        json!([css, value]),
    );
}

/// Signs the seed owner in over the API and sets `new_password`; answers the session cookie.
pub fn owner_session(server: &Server, initial: &str, new_password: &str) -> String {
    let cookie = server.sign_in("owner@localhost", initial);
    let (status, _, _) = server.call(
        "POST",
        "/api/me/password",
        Some(&cookie),
        Some(json!({ "current_password": initial, "new_password": new_password })),
    );
    assert_eq!(status, 204);
    cookie
}

/// Invites a user over the API and sets their own password, so they are past the first sign-in.
pub fn ready_user(server: &Server, owner: &str, email: &str, role: &str, password: &str) {
    let (status, _, created) = server.call(
        "POST",
        "/api/employees",
        Some(owner),
        Some(json!({ "email": email, "name": email, "role": role, "password": "Thekkady-monsoon-41" })),
    );
    assert_eq!(status, 201, "{created}");
    let (_, cookie, _) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": email, "password": "Thekkady-monsoon-41" })),
    );
    let (status, _, _) = server.call(
        "POST",
        "/api/me/password",
        cookie.as_deref(),
        Some(json!({ "current_password": "Thekkady-monsoon-41", "new_password": password })),
    );
    assert_eq!(status, 204);
}

/// Signs in through the console and waits for the home page.
pub fn sign_in_home(s: &Session, server: &Server, username: &str, password: &str) {
    s.goto(&server.url("/login"));
    s.wait_page("login");
    s.fill("username", username);
    s.fill("password", password);
    s.click_button("Sign in");
    s.wait_page("home");
}

/// A browser test's office: Chromium, the real server on a fresh data file, and its owner past
/// the first sign-in (`owner`: the session cookie). None when Chromium is not installed (a
/// failure under CI, see `Driver::start`).
pub struct Office {
    pub driver: crate::common::webdriver::Driver,
    pub server: Server,
    pub owner: String,
    _dir: tempfile::TempDir,
}

pub const OFFICE_OWNER_PASSWORD: &str = "the owner's chosen passphrase";

impl Office {
    pub fn start() -> Option<Office> {
        let driver = crate::common::webdriver::Driver::start()?;
        let dir = tempfile::TempDir::new().unwrap();
        let server = Server::start(
            &dir.path().join("office.db"),
            &dir.path().join("server.log"),
            Some("owner-initial-pw"),
        );
        let owner = owner_session(&server, "owner-initial-pw", OFFICE_OWNER_PASSWORD);
        Some(Office {
            driver,
            server,
            owner,
            _dir: dir,
        })
    }

    /// A society in Kerala; answers its id.
    pub fn client(&self, name: &str) -> String {
        let (status, _, client) = self.server.call(
            "POST",
            "/api/clients",
            Some(&self.owner),
            Some(json!({ "name": name, "state_code": "32" })),
        );
        assert_eq!(status, 201, "{client}");
        client["id"].as_str().unwrap().to_string()
    }

    /// An issued tax invoice of one line at 18% GST; answers its id and number.
    pub fn issued_invoice(&self, client_id: &str, description: &str, unit_price: i64) -> (String, String) {
        let (status, _, draft) = self.server.call(
            "POST",
            "/api/documents",
            Some(&self.owner),
            Some(json!({ "type": "INVOICE", "client_id": client_id,
                         "lines": [ { "description": description, "qty": 1, "unit_price": unit_price, "gst_rate": 18 } ] })),
        );
        assert_eq!(status, 201, "{draft}");
        let id = draft["id"].as_str().unwrap().to_string();
        let (status, _, issued) = self.server.call(
            "POST",
            &format!("/api/documents/{id}/issue"),
            Some(&self.owner),
            Some(json!({})),
        );
        assert_eq!(status, 200, "{issued}");
        (id, issued["docNo"].as_str().unwrap().to_string())
    }

    /// A browser window signed in as the owner, on the home page.
    pub fn owner_window(&self) -> Session {
        let s = self.driver.session(1366, 900);
        sign_in_home(&s, &self.server, "owner@localhost", OFFICE_OWNER_PASSWORD);
        s
    }
}

impl Office {
    /// As `start`, on a data file `backoffice demo-data` filled first with `clients` societies
    /// and two years of their history: long society names, lakhs of rupees, every list full.
    pub fn start_demo(clients: u32) -> Option<Office> {
        let driver = crate::common::webdriver::Driver::start()?;
        let dir = tempfile::TempDir::new().unwrap();
        let data = dir.path().join("office.db");
        let filled = std::process::Command::new(crate::common::server::BIN)
            .arg("demo-data")
            .arg("--data")
            .arg(&data)
            .args(["--clients", &clients.to_string(), "--years", "2", "--seed", "1"])
            .args(["--owner-password", "owner-initial-pw"])
            .output()
            .unwrap();
        assert!(
            filled.status.success(),
            "demo-data: {}",
            String::from_utf8_lossy(&filled.stderr)
        );
        let server = Server::start(&data, &dir.path().join("server.log"), Some("owner-initial-pw"));
        let owner = owner_session(&server, "owner-initial-pw", OFFICE_OWNER_PASSWORD);
        Some(Office {
            driver,
            server,
            owner,
            _dir: dir,
        })
    }
}
