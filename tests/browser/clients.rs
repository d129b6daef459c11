//! Browser test of the client registry: create a client (seeing its derived type and category),
//! add a contact and an interaction, find it by filter, bulk-edit two clients' district, and
//! read the audit viewer.

use crate::common::browser::{owner_session, select, shot, sign_in_home};
use crate::common::server::Server;
use crate::common::webdriver::Driver;
use serde_json::{Value, json};

const OWNER_PASSWORD: &str = "owner-initial-pw";
const OWNER_NEW: &str = "the owner's chosen passphrase";

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
    let cookie = owner_session(&server, OWNER_PASSWORD, OWNER_NEW);
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
    sign_in_home(&s, &server, "owner@localhost", OWNER_NEW);

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

    // The store the society runs shares its GSTIN: taken with a warning, and the society's page
    // links to it.
    let (status, _, store) = server.call(
        "POST",
        "/api/clients",
        Some(&cookie),
        Some(json!({ "name": "KADAKKAL SCB STORES", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 201, "{store}");
    assert_eq!(store["warnings"][0]["code"], "gstin_shared");
    s.goto(&client_url);
    s.wait_page("client");
    s.wait_text("[data-testid='same-gstin']", "KADAKKAL SCB STORES");

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
    s.click_button("Change 2 clients");
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

#[test]
fn a_long_list_pages_in_the_chosen_size_and_each_page_starts_at_its_top() {
    let Some(office) = crate::common::browser::Office::start() else {
        return;
    };
    for n in 1..=60 {
        office.client(&format!("Society {n:02}"));
    }
    let s = office.owner_window();
    s.set_window(1366, 800);
    s.goto(&office.server.url("/clients?sort=name"));
    s.wait_page("clients");
    s.wait_text(".pagination .range", "1–50 of 60");
    select(&s, ".pagination select", "25");
    s.wait_text(".pagination .range", "1–25 of 60");
    assert!(
        s.url().contains("per_page=25"),
        "the page size is in the URL: {}",
        s.url()
    );
    assert_eq!(s.find_all("table tbody tr").len(), 25);

    // At the foot of the list, Next shows the next page from its top.
    s.script("window.scrollTo(0, document.body.scrollHeight)", json!([]));
    assert!(s.script("return window.scrollY", json!([])).as_f64().unwrap() > 0.0);
    s.click_button("Next");
    s.wait_text(".pagination .range", "26–50 of 60");
    s.wait_text("table tbody tr:first-child", "Society 26");
    let top = s.script(
        "return document.querySelector('.table-card').getBoundingClientRect().top",
        json!([]),
    );
    assert!(
        (0.0..100.0).contains(&top.as_f64().unwrap()),
        "the list's top is in view: {top}"
    );
    shot(&s, "14-clients-page-2-of-25");
}
