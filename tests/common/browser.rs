//! Steps the browser tests share: screenshots, choosing in a select, and users past their first
//! sign-in.

use crate::common::server::Server;
use crate::common::webdriver::Session;
use serde_json::json;
use std::path::PathBuf;

/// Saves a screenshot as target/screenshots/NAME.png for a reviewer.
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
    let (status, cookie, _) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "owner@localhost", "password": initial })),
    );
    assert_eq!(status, 200);
    let cookie = cookie.unwrap();
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
        Some(json!({ "email": email, "name": email, "role": role, "password": "initial-password-1" })),
    );
    assert_eq!(status, 201, "{created}");
    let (_, cookie, _) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": email, "password": "initial-password-1" })),
    );
    let (status, _, _) = server.call(
        "POST",
        "/api/me/password",
        cookie.as_deref(),
        Some(json!({ "current_password": "initial-password-1", "new_password": password })),
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
