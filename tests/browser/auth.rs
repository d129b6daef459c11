//! Browser tests of signing in: the owner's first sign-in and new password, a colleague invited
//! by the owner who sees no owner screens, and what the sign-in screen says about wrong
//! credentials, a locked account and rate limits.

use crate::common::browser::shot;
use crate::common::server::Server;
use crate::common::webdriver::{Driver, Session};
use serde_json::json;

const OWNER_PASSWORD: &str = "owner-initial-pw";

fn sign_in(s: &Session, username: &str, password: &str) {
    s.wait_page("login");
    s.fill("username", username);
    s.fill("password", password);
    s.click_button("Sign in");
}

fn change_password(s: &Session, current: &str, new: &str) {
    s.wait_page("profile");
    s.fill("current_password", current);
    s.fill("new_password", new);
    s.fill("confirm_password", new);
    s.click_button("Change password");
}

fn nav_text(s: &Session) -> String {
    s.wait("nav").text()
}

/// The status of a same-origin API call made from the page (with its session cookie).
fn api_status(s: &Session, method: &str, path: &str) -> i64 {
    let script = "const [m, p, done] = arguments;
        fetch(p, { method: m, credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: m === 'GET' ? undefined : '{}' })
            .then(r => done(r.status), () => done(-1));";
    s.script_async(script, json!([method, path])).as_i64().unwrap()
}

#[test]
fn owner_signs_in_changes_password_invites_a_colleague_who_sees_no_owner_screens() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let server = Server::start(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some(OWNER_PASSWORD),
    );
    let s = driver.session(1366, 768);

    // The console's money and date formatting (used by every later screen).
    s.goto(&server.url("/login"));
    s.wait_page("login");
    let formatted = s.script_async(
        "const done = arguments[0];
         import('/js/format.js').then(f => done([f.rupees(12345600), f.rupees(-5), f.rupees(100000000000), f.date('2026-11-22'), f.parseDate('22-11-2026'), f.parseDate('31-02-2026')]));",
        json!([]),
    );
    assert_eq!(
        formatted,
        json!([
            "₹1,23,456.00",
            "-₹0.05",
            "₹1,00,00,00,000.00",
            "22-11-2026",
            "2026-11-22",
            null
        ])
    );

    // Not signed in: the console asks for it.
    s.goto(&server.url("/employees"));
    s.wait_page("login");
    shot(&s, "01-sign-in");
    sign_in(&s, "owner@localhost", OWNER_PASSWORD);

    // Forced change: the profile page, and nowhere else until the password is changed.
    s.wait_page("profile");
    s.wait_text("main", "Choose your own password");
    shot(&s, "02-forced-password-change");
    s.goto(&server.url("/login-history"));
    s.wait_page("profile");
    change_password(&s, OWNER_PASSWORD, "the owner's chosen passphrase");
    s.wait_page("home");
    let nav = nav_text(&s);
    assert!(
        nav.contains("Employees") && nav.contains("Login history"),
        "{nav}"
    );

    // Invite a colleague; the initial password is shown once.
    s.goto(&server.url("/employees"));
    s.wait_page("employees");
    s.click_button("Invite employee");
    s.fill("name", "Priya Menon");
    s.fill("email", "priya@coop.in");
    s.script(
        "const r = document.querySelector(\"[name='role']\"); r.value = 'staff'; r.dispatchEvent(new Event('change', { bubbles: true }));",
        json!([]),
    );
    s.click_button("Invite");
    let initial = s.wait("[data-testid='once-secret']").text().trim().to_string();
    assert!(initial.len() >= 18, "initial password shown: {initial:?}");
    shot(&s, "03-invited-initial-password");
    s.goto(&server.url("/employees"));
    s.wait_text("table", "priya@coop.in");
    shot(&s, "04-employees");

    s.goto(&server.url("/login-history"));
    s.wait_page("login-history");
    s.wait_text("table", "owner@localhost");
    shot(&s, "05-login-history");

    s.click_button("Sign out");
    s.wait_page("login");

    // The colleague signs in, must change the password, then sees only what staff may use.
    sign_in(&s, "priya@coop.in", &initial);
    change_password(&s, &initial, "priya's own passphrase");
    s.wait_page("home");
    let nav = nav_text(&s);
    assert!(nav.contains("Home") && nav.contains("Profile"), "{nav}");
    assert!(
        !nav.contains("Employees") && !nav.contains("Login history"),
        "staff see no owner screens: {nav}"
    );
    shot(&s, "06-staff-home");
    s.goto(&server.url("/employees"));
    s.wait_page("forbidden");
    assert_eq!(api_status(&s, "GET", "/api/login-events"), 403);
    assert_eq!(api_status(&s, "POST", "/api/employees"), 403);

    // A phone-sized screen still works: the navigation collapses behind a menu button.
    s.set_window(390, 844);
    s.goto(&server.url("/"));
    s.wait_page("home");
    shot(&s, "07-staff-home-phone");
    server.stop();
}

#[test]
fn the_sign_in_screen_explains_wrong_credentials_lockout_and_rate_limits() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let server = Server::start(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some(OWNER_PASSWORD),
    );
    let (status, owner, _) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "owner@localhost", "password": OWNER_PASSWORD })),
    );
    assert_eq!(status, 200);
    let body = json!({ "email": "lockme@coop.in", "username": "lockme", "name": "Lock Me", "role": "staff", "password": "Kumily-ledger-2026" });
    assert_eq!(
        server
            .call("POST", "/api/employees", owner.as_deref(), Some(body))
            .0,
        201
    );

    let s = driver.session(1366, 768);
    s.goto(&server.url("/login"));
    for _ in 0..8 {
        sign_in(&s, "lockme", "not the password");
        s.wait_text("[role='alert']", "Wrong username or password");
        s.script(
            "document.querySelectorAll(\"[role='alert']\").forEach(a => a.textContent = '')",
            json!([]),
        );
    }
    // The name's 8 attempts are used up; by email the right password meets the lock.
    sign_in(&s, "lockme@coop.in", "Kumily-ledger-2026");
    let alert = s.wait_text("[role='alert']", "ocked").text();
    assert!(
        alert.to_lowercase().contains("try again after") || alert.contains(':'),
        "the unlock time is shown: {alert}"
    );
    shot(&s, "08-locked");
    sign_in(&s, "lockme", "Kumily-ledger-2026");
    s.wait_text("[role='alert']", "Too many attempts");
    shot(&s, "09-too-many-attempts");

    // Refused attempts are in the owner's login history: one row for the name's window, with
    // its number of attempts (issue 33).
    s.script(
        "document.querySelectorAll(\"[role='alert']\").forEach(a => a.textContent = '')",
        json!([]),
    );
    sign_in(&s, "lockme", "Kumily-ledger-2026");
    s.wait_text("[role='alert']", "Too many attempts");
    let new_password = "the owner's chosen passphrase";
    let change = json!({ "current_password": OWNER_PASSWORD, "new_password": new_password });
    let (status, _, _) = server.call("POST", "/api/me/password", owner.as_deref(), Some(change));
    assert_eq!(status, 204);
    sign_in(&s, "owner@localhost", new_password);
    s.wait_page("home");
    s.goto(&server.url("/login-history?outcome=limited"));
    s.wait_page("login-history");
    s.wait_text("table", "Rate limited");
    let attempts = s.wait("[data-attempts]").text();
    assert_eq!(attempts.trim(), "× 2 attempts");
    shot(&s, "10-login-history-limited");
    server.stop();
}
