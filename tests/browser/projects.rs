//! Browser test of the catalog and onboarding: create a module with a field spec, link it to a
//! client, fill its custom fields, tick "installed", and see it leave the board's pending count.

use crate::common::browser::{owner_session, select, shot, sign_in_home};
use crate::common::server::Server;
use crate::common::webdriver::{Driver, Session};
use serde_json::json;

const OWNER_PASSWORD: &str = "owner-initial-pw";
const OWNER_NEW: &str = "the owner's chosen passphrase";

fn pending_installed(s: &Session) -> String {
    s.wait("[data-testid='board'] [data-key='installed'] [data-testid='pending-count']")
        .text()
        .trim()
        .to_string()
}

#[test]
fn the_owner_runs_the_catalog_and_the_onboarding_of_a_project() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let server = Server::start(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some(OWNER_PASSWORD),
    );
    let cookie = owner_session(&server, OWNER_PASSWORD, OWNER_NEW);
    let (status, _, client) = server.call(
        "POST",
        "/api/clients",
        Some(&cookie),
        Some(json!({ "name": "KADAKKAL SERVICE CO-OPERATIVE BANK" })),
    );
    assert_eq!(status, 201);
    let client_id = client["id"].as_str().unwrap().to_string();

    let s = driver.session(1366, 768);
    sign_in_home(&s, &server, "owner@localhost", OWNER_NEW);

    // A module with a field spec.
    s.goto(&server.url("/modules/new"));
    s.wait_page("module-new");
    // Typed in lower case: the field upper-cases as one types (a lower-case code is refused).
    s.fill("code", "deposit");
    assert_eq!(
        s.script(
            "return document.querySelector(\"[name='code']\").value",
            json!([])
        ),
        "DEPOSIT"
    );
    s.fill("name", "Deposit module");
    s.fill("gst_rate", "18");
    s.click_button("Add field");
    s.fill("field_key", "members");
    s.fill("field_label", "Members");
    select(&s, "select[name='field_type']", "integer");
    s.click_button("Create module");
    s.wait_page("module");
    s.wait_text("h1", "Deposit module");
    shot(&s, "20-module");

    // Link it to the client and fill its custom field.
    s.goto(&server.url(&format!("/clients/{client_id}")));
    s.wait_page("client");
    s.click_button("Add module");
    s.wait("select[name='module_id']");
    let (_, _, modules) = server.call("GET", "/api/modules", Some(&cookie), None);
    let module_id = modules["rows"][0]["id"].as_str().unwrap().to_string();
    select(&s, "select[name='module_id']", &module_id);
    s.fill("members", "1200");
    s.fill("edition", "Gold");
    s.click_button("Add module");
    s.wait_text("[data-testid='client-modules']", "Deposit module");
    let (_, _, linked) = server.call(
        "GET",
        &format!("/api/clients/{client_id}/modules"),
        Some(&cookie),
        None,
    );
    let project_id = linked["rows"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(linked["rows"][0]["field_values"]["members"], 1200);

    // The board counts it as pending installation.
    s.goto(&server.url("/projects"));
    s.wait_page("projects");
    assert_eq!(pending_installed(&s), "1");
    shot(&s, "21-projects-board");

    // On the project page: change the custom field, tick "installed".
    s.goto(&server.url(&format!("/projects/{project_id}")));
    s.wait_page("project");
    s.fill("members", "1500");
    s.click_button("Save fields");
    s.wait_text("[role='status']", "");
    s.wait("[data-testid='checklist'] li[data-key='installed'] input[name='done']")
        .click();
    if s.find_all("dialog[open]").iter().any(|d| d.displayed()) {
        s.click_button("Save");
    }
    s.wait_text("[data-testid='checklist'] li[data-key='installed']", "-20");
    shot(&s, "22-project-checklist");
    let (_, _, project) = server.call(
        "GET",
        &format!("/api/client-modules/{project_id}"),
        Some(&cookie),
        None,
    );
    assert_eq!(project["status"], "installed");
    assert_eq!(project["field_values"]["members"], 1500);

    // It has left the board's pending count.
    s.goto(&server.url("/projects"));
    s.wait_page("projects");
    assert_eq!(pending_installed(&s), "0");
    server.stop();
}
