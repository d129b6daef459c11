//! Browser test of the client registry: create a client (seeing its derived type and category),
//! add a contact and an interaction, find it by filter, bulk-edit two clients' district, and
//! read the audit viewer.

mod common;

use common::server::Server;
use common::webdriver::{Driver, Session};
use serde_json::{Value, json};
use std::path::PathBuf;

const OWNER_PASSWORD: &str = "owner-initial-pw";
const OWNER_NEW: &str = "the owner's chosen passphrase";

fn shot(session: &Session, name: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/screenshots")
        .join(format!("{name}.png"));
    session.screenshot(&path);
}

fn select(s: &Session, css: &str, value: &str) {
    s.wait(css);
    s.script(
        "const [css, v] = arguments; const el = document.querySelector(css); el.value = v;
         el.dispatchEvent(new Event('input', { bubbles: true })); el.dispatchEvent(new Event('change', { bubbles: true }));",
        json!([css, value]),
    );
}

#[test]
fn a_manager_keeps_the_client_book_in_the_console() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let server = Server::start(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some(OWNER_PASSWORD),
    );
    // The owner is past the first sign-in; two clients exist already for the bulk edit.
    let (_, cookie, _) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "owner@localhost", "password": OWNER_PASSWORD })),
    );
    let cookie = cookie.unwrap();
    server.call(
        "POST",
        "/api/me/password",
        Some(&cookie),
        Some(json!({ "current_password": OWNER_PASSWORD, "new_password": OWNER_NEW })),
    );
    let mut seeded: Vec<String> = vec![];
    for name in [
        "EDAVA HOUSING CO-OPERATIVE SOCIETY",
        "PALLIKKAL MARKETING CO-OPERATIVE SOCIETY",
    ] {
        let (status, _, body) = server.call(
            "POST",
            "/api/clients",
            Some(&cookie),
            Some(json!({ "name": name, "district": "Thiruvananthapuram" })),
        );
        assert_eq!(status, 201);
        seeded.push(body["id"].as_str().unwrap().into());
    }

    let s = driver.session(1366, 768);
    s.goto(&server.url("/login"));
    s.wait_page("login");
    s.fill("username", "owner@localhost");
    s.fill("password", OWNER_NEW);
    s.click_button("Sign in");
    s.wait_page("home");

    // A new client: the derived type and category show while typing the name.
    s.goto(&server.url("/clients/new"));
    s.wait_page("client-new");
    s.fill("name", "KADAKKAL SERVICE CO-OPERATIVE BANK LTD NO 1234");
    s.wait_text("[data-testid='derived-category']", "Service Bank");
    s.wait_text("[data-testid='derived-type']", "PACS");
    s.fill("gstin", "32AABCK1234L1ZW");
    s.fill("district", "Kollam%East");
    s.click_button("Create client");
    s.wait_text("main", "check the GSTIN");
    shot(&s, "10-new-client-gstin-error");
    s.fill("gstin", "32AABCK1234L1ZV");
    s.click_button("Create client");
    s.wait_page("client");
    s.wait_text("h1", "KADAKKAL SERVICE");
    let client_url = s.url();

    // A contact and an interaction.
    s.click_button("Add contact");
    s.fill("name", "Raghavan Pillai");
    s.fill("role", "secretary");
    s.fill("phone", "9447012345");
    s.click_button("Save contact");
    s.wait_text("[data-testid='contacts']", "Raghavan Pillai");
    s.click_button("Log interaction");
    select(&s, "select[name='type']", "visit");
    s.fill("notes", "Demonstrated the deposit module to the secretary");
    s.click_button("Save interaction");
    s.wait_text(
        "[data-testid='interactions'] li",
        "Demonstrated the deposit module",
    );
    shot(&s, "11-client-page");

    // Find it by the district filter, % matched literally.
    s.goto(&server.url("/clients?district=Kollam%25East"));
    s.wait_page("clients");
    s.wait_text("table", "KADAKKAL SERVICE");
    assert_eq!(s.find_all("tr[data-id]").len(), 1, "only the literal match");
    s.goto(&server.url("/clients"));
    s.wait_text("table", "EDAVA HOUSING");
    shot(&s, "12-clients");

    // Bulk-edit the two seeded clients' district.
    for id in &seeded {
        s.wait(&format!("tr[data-id='{id}'] input[name='select']"))
            .click();
    }
    s.click_button("Bulk edit");
    s.fill("district", "Kottayam");
    s.click_button("Apply");
    if s.find_all("dialog[open]")
        .iter()
        .any(|d| d.text().contains("Confirm"))
    {
        s.click_button("Confirm");
    }
    s.wait_text("[role='status']", "2");
    for id in &seeded {
        let (_, _, body): (u16, Option<String>, Value) =
            server.call("GET", &format!("/api/clients/{id}"), Some(&cookie), None);
        assert_eq!(body["district"], "Kottayam");
    }

    // The audit viewer shows the bulk edit with a readable diff.
    s.goto(&server.url("/audit?action=bulk_update"));
    s.wait_page("audit");
    s.wait_text("table", "Bulk update");
    s.click_button("Show changes");
    s.wait_text("main", "Kottayam");
    shot(&s, "13-audit");
    assert!(client_url.contains("/clients/"));
    server.stop();
}
