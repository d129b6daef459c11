//! Browser test of SMS balances as an office runs them: the owner sets the gateway's balance
//! address on the Operations page (a refused address and an SLA out of range are shown on their
//! fields and nothing is written), refreshes every balance from a fake gateway on loopback after a
//! confirmation and reads the counts, the Low list (with the threshold saved), the Flagged list
//! with the gateway's reason and the CSV link of the filter; reveals a portal password; makes a
//! top-up quote from a row and lands on the draft; refreshes one client's balance from its page
//! (changed, then flagged); sees the home tile. A staff user sees the balances of their own
//! client, without the Username and Password columns, the CSV or the refresh.

use crate::common::browser::{
    OFFICE_OWNER_PASSWORD, owner_session, quiet, ready_user, shot, sign_in_home, until,
};
use crate::common::gateway::FakeGateway;
use crate::common::server::Server;
use crate::common::webdriver::{Driver, Session};
use serde_json::{Value, json};

const STAFF_PASSWORD: &str = "the staff member's passphrase";

fn created(call: (u16, Option<String>, Value)) -> String {
    let (status, _, body) = call;
    assert!(status == 200 || status == 201, "{status}: {body}");
    body["id"].as_str().unwrap().to_string()
}

/// A client in Kerala made by the holder of `cookie` (a staff user's lands in their book).
fn client(server: &Server, cookie: &str, name: &str) -> String {
    created(server.call(
        "POST",
        "/api/clients",
        Some(cookie),
        Some(json!({ "name": name, "state_code": "32" })),
    ))
}

/// An SMS subscription of `client_id` with its portal login; answers its id.
fn subscription(
    server: &Server,
    owner: &str,
    client_id: &str,
    module_id: &str,
    username: &str,
    password: &str,
) -> String {
    let id = created(server.call(
        "POST",
        "/api/client-modules",
        Some(owner),
        Some(json!({ "client_id": client_id, "module_id": module_id })),
    ));
    let (status, _, patched) = server.call(
        "PATCH",
        &format!("/api/client-modules/{id}"),
        Some(owner),
        Some(json!({ "provider": "Textlocal", "username": username, "password": password })),
    );
    assert_eq!(status, 200, "{patched}");
    id
}

/// The texts of the balances table's column headers (sort arrows left out).
fn headers(s: &Session) -> Value {
    s.script(
        "return [...document.querySelectorAll('[data-testid=sms-balances] thead th')].map((th) => {
           const c = th.cloneNode(true); c.querySelectorAll('.sort-arrow').forEach((a) => a.remove());
           return c.textContent.trim(); });",
        json!([]),
    )
}

/// The client names of the balances table's rows, in order.
fn row_names(s: &Session) -> Value {
    s.script(
        "return [...document.querySelectorAll('[data-testid=sms-balances] tbody tr[data-id] td:first-child')].map((td) => td.textContent.trim());",
        json!([]),
    )
}

/// The texts of the cells of the row `css`, spaces collapsed.
fn cells(s: &Session, css: &str) -> Value {
    s.wait(css);
    s.script(
        "return [...document.querySelector(arguments[0]).children].map((td) => td.textContent.replace(/\\s+/g, ' ').trim());",
        json!([css]),
    )
}

/// Clicks the sort button of the column `label`.
fn sort_by(s: &Session, label: &str) {
    s.find_all("[data-testid='sms-balances'] th .sort-btn")
        .into_iter()
        .find(|b| b.text().starts_with(label))
        .unwrap()
        .click();
}

fn dd_mm_yyyy(iso: &str) -> String {
    let parts: Vec<&str> = iso.split('-').collect();
    format!("{}-{}-{}", parts[2], parts[1], parts[0])
}

#[test]
fn the_owner_sets_the_gateway_refreshes_every_balance_and_quotes_a_top_up_while_staff_see_only_balances() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    // The fake gateway listens on loopback, which the guarded outbound client refuses by default.
    let server = Server::start_with_env(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some("owner-initial-pw"),
        &[("BACKOFFICE_ALLOW_PRIVATE_TARGETS", "1")],
    );
    let owner = owner_session(&server, "owner-initial-pw", OFFICE_OWNER_PASSWORD);
    ready_user(&server, &owner, "staff@office.in", "staff", STAFF_PASSWORD);
    let (_, staff, _) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "staff@office.in", "password": STAFF_PASSWORD })),
    );
    let staff = staff.unwrap();

    let gateway = FakeGateway::start();
    gateway.account("kallada-sms", "kallada-pass-1", 120);
    gateway.account("kundara-sms", "kundara-pass-2", 25_000);
    // Perinad's stored password is not the gateway's: it answers 401|ERROR|Invalid login.
    gateway.account("perinad-sms", "the-right-one", 900);
    gateway.account("chavara-sms", "chavara-pass-4", 300);

    let sms = created(server.call(
        "POST",
        "/api/modules",
        Some(&owner),
        Some(json!({ "code": "SMS", "name": "Bulk SMS", "gst_rate": 18 })),
    ));
    let (status, _, card) = server.call(
        "POST",
        &format!("/api/modules/{sms}/rate-card"),
        Some(&owner),
        Some(json!({ "effective_from": "2020-04-01",
                     "bands": [{ "min_qty": 10_000, "rate": 20 }, { "min_qty": 50_000, "rate": 15 }] })),
    );
    assert!(status == 200 || status == 201, "{status}: {card}");
    let kallada = client(&server, &owner, "Kallada Service Co-operative Bank");
    let kundara = client(&server, &owner, "Kundara Service Co-operative Bank");
    let perinad = client(&server, &owner, "Perinad Vanitha Society");
    let chavara = client(&server, &staff, "Chavara Farmers Society");
    let kallada_sms = subscription(&server, &owner, &kallada, &sms, "kallada-sms", "kallada-pass-1");
    subscription(&server, &owner, &kundara, &sms, "kundara-sms", "kundara-pass-2");
    let perinad_sms = subscription(&server, &owner, &perinad, &sms, "perinad-sms", "a-stale-password");
    subscription(&server, &owner, &chavara, &sms, "chavara-sms", "chavara-pass-4");
    let (_, _, before) = server.call("GET", "/api/settings/operations", Some(&owner), None);
    assert_eq!(before["sms.balance_api_url"], Value::Null);

    // ---- Operations: refused values on their fields, nothing written; then saved.
    let s = driver.session(1366, 900);
    sign_in_home(&s, &server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    s.wait_text("[data-testid='sms-low-tile']", "SMS balances: none low");
    s.find_all("nav a")
        .into_iter()
        .find(|a| a.text().trim() == "Settings")
        .unwrap()
        .click();
    s.wait_page("settings");
    s.find_all("[data-testid='settings-sections'] a")
        .into_iter()
        .find(|a| a.text() == "Operations")
        .unwrap()
        .click();
    s.wait_page("operations-settings");
    s.wait_text(
        "[data-testid='since-sms.balance_api_url']",
        "Not set: balances are not pulled.",
    );
    s.fill("sms.balance_api_url", "ftp://x");
    s.fill("sms.low_balance_threshold", "1,000");
    s.fill("ticket.sla_days", "0");
    s.click_button("Save operations settings");
    assert_eq!(
        s.wait(".field.has-error:has([name='sms.balance_api_url']) .field-error")
            .text(),
        "This address is refused: the address must start with http:// or https://."
    );
    assert_eq!(
        s.wait(".field.has-error:has([name='ticket.sla_days']) .field-error")
            .text(),
        "Give 1 to 365 days."
    );
    assert!(
        s.find_all(".field.has-error:has([name='sms.low_balance_threshold'])")
            .is_empty(),
        "the threshold was fine"
    );
    let (_, _, unchanged) = server.call("GET", "/api/settings/operations", Some(&owner), None);
    assert_eq!(unchanged, before, "nothing is written while one value is refused");
    shot(&s, "100-operations-settings-errors");

    s.fill("sms.balance_api_url", &gateway.url);
    s.fill("ticket.sla_days", "5");
    s.click_button("Save operations settings");
    let toast = s.wait_text(".toast-success", "Operations settings saved");
    let (_, _, saved) = server.call("GET", "/api/settings/operations", Some(&owner), None);
    let today = saved["effective_from"]["sms.balance_api_url"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(
        toast.text().trim_end_matches('×').trim(),
        format!("Operations settings saved, in force from {}.", dd_mm_yyyy(&today))
    );
    assert_eq!(
        (
            saved["sms.balance_api_url"].as_str(),
            saved["sms.low_balance_threshold"].as_i64(),
            saved["ticket.sla_days"].as_i64()
        ),
        (Some(gateway.url.as_str()), Some(1000), Some(5))
    );
    s.wait_text(
        "[data-testid='since-sms.balance_api_url']",
        &format!("In force since {}.", dd_mm_yyyy(&today)),
    );
    assert!(s.find_all(".field.has-error").is_empty());
    shot(&s, "101-operations-settings-saved");
    quiet(&s);

    // ---- SMS balances: nothing read yet; refresh all after a confirmation.
    s.find_all("nav a")
        .into_iter()
        .find(|a| a.text().trim() == "SMS balances")
        .unwrap()
        .click();
    s.wait_page("sms-balances");
    s.wait_text("[data-testid='sms-threshold']", "Low is below 1,000 credits.");
    s.wait_text(
        "[data-testid='sms-balances']",
        "No subscription is below 1,000 credits.",
    );
    assert_eq!(
        headers(&s),
        json!([
            "Client",
            "Code",
            "Balance",
            "Last checked",
            "Flag",
            "Username",
            "Password",
            ""
        ])
    );
    s.click_button("Refresh all from the gateway");
    s.wait_text("dialog[open]", "Refresh every balance from the gateway?");
    shot(&s, "102-refresh-confirm");
    assert_eq!(gateway.calls(), 0, "nothing is asked before the confirmation");
    s.click_button("Refresh all");
    s.wait_text(
        "[data-testid='refresh-result']",
        "4 checked: 3 changed, 0 unchanged, 1 flagged.",
    );
    assert_eq!(gateway.calls(), 4);
    let kallada_row = format!("[data-testid='sms-balances'] tr[data-id='{kallada_sms}']");
    s.wait_text(&kallada_row, "120");
    until(&s, "the Low list holds the two low balances", || {
        row_names(&s) == json!(["Kallada Service Co-operative Bank", "Chavara Farmers Society"])
    });
    let row = cells(&s, &kallada_row);
    assert_eq!(
        row.as_array().unwrap()[..3],
        [
            json!("Kallada Service Co-operative Bank"),
            json!("SMS"),
            json!("Low 120")
        ]
    );
    assert!(row[3].as_str().unwrap().ends_with("just now"), "{row}");
    assert_eq!(
        row.as_array().unwrap()[4..],
        [
            json!("—"),
            json!("kallada-sms"),
            json!("Reveal"),
            json!("Top-up quote")
        ]
    );
    assert_eq!(
        s.wait(&format!("{kallada_row} [data-testid='balance']")).text(),
        "120"
    );
    assert_eq!(
        s.wait(&format!("{kallada_row} a")).attribute("href").unwrap(),
        format!("/clients/{kallada}")
    );
    shot(&s, "103-sms-balances-low");

    // The Flagged list: Perinad with the gateway's reason; the CSV link follows the filter.
    s.wait("button[data-filter='flagged']").click();
    let perinad_row = format!("[data-testid='sms-balances'] tr[data-id='{perinad_sms}']");
    assert_eq!(
        s.wait(&format!("{perinad_row} [data-testid='flag'] .sms-flag-text"))
            .text(),
        "401 Invalid login"
    );
    until(&s, "only Perinad is flagged", || {
        row_names(&s) == json!(["Perinad Vanitha Society"])
    });
    assert_eq!(cells(&s, &perinad_row)[2], "Not read yet");
    assert_eq!(
        s.script(
            "return document.querySelector('[data-testid=sms-csv]').getAttribute('href')",
            json!([])
        ),
        json!("/api/reports/sms-balances.csv?filter=flagged")
    );
    assert!(
        s.url().ends_with("/reports/sms-balances?filter=flagged"),
        "{}",
        s.url()
    );
    shot(&s, "104-sms-balances-flagged");

    // All, by balance highest first.
    s.wait("button[data-filter='all']").click();
    until(&s, "every subscription is listed", || {
        s.find_all("[data-testid='sms-balances'] tbody tr[data-id]").len() == 4
    });
    sort_by(&s, "Balance");
    until(&s, "sorted by balance", || s.url().contains("sort=balance"));
    sort_by(&s, "Balance");
    until(&s, "sorted by balance, highest first", || {
        s.url().contains("sort=-balance") && row_names(&s)[0] == json!("Kundara Service Co-operative Bank")
    });

    // Back to Low: Kallada's password, revealed for 30 s.
    s.wait("button[data-filter='low']").click();
    s.wait(&format!("{kallada_row} button[aria-label^='Reveal']"))
        .click();
    assert_eq!(
        s.wait("[data-testid='revealed-password']").text(),
        "kallada-pass-1"
    );
    s.wait_text(
        ".detail-row",
        "Portal password of Kallada Service Co-operative Bank (kallada-sms)",
    );
    s.wait_text(".detail-row", "Hides in");
    shot(&s, "105-password-revealed");

    // A top-up quote from the row: the count starts at the rate card's minimum.
    s.wait(&format!("{kallada_row} button[aria-label^='Top-up quote']"))
        .click();
    s.wait_text(
        "dialog[open]",
        "SMS top-up quote for Kallada Service Co-operative Bank",
    );
    until(&s, "the count starts at the minimum order", || {
        s.script(
            "const i = document.querySelector('dialog[open] [name=count]'); return i && i.value;",
            json!([]),
        ) == json!("10000")
    });
    s.wait_text("dialog[open]", "The minimum order is 10,000.");
    s.fill("count", "25000");
    shot(&s, "106-top-up-quote");
    s.click_button("SMS top-up quote");
    s.wait_page("document");
    let url = s.url();
    let doc_id = url
        .rsplit_once("/documents/")
        .map(|(_, id)| id.to_string())
        .unwrap_or_default();
    assert!(!doc_id.is_empty() && !doc_id.contains('/'), "{url}");
    let (status, _, doc) = server.call("GET", &format!("/api/documents/{doc_id}"), Some(&owner), None);
    assert_eq!(status, 200, "{doc}");
    assert_eq!(
        (
            doc["type"].as_str(),
            doc["status"].as_str(),
            doc["source"].as_str(),
            doc["client_id"].as_str(),
            doc["lines"][0]["qty"].as_i64(),
            doc["lines"][0]["description"].as_str()
        ),
        (
            Some("PROFORMA"),
            Some("draft"),
            Some("bulk_sms_topup"),
            Some(kallada.as_str()),
            Some(25_000),
            Some("Bulk SMS top-up: 25000 SMS")
        )
    );
    s.wait_text(".toast-success", "Proforma draft made: check it and issue it.");
    shot(&s, "107-top-up-draft");
    quiet(&s);

    // ---- The client page: one client's balance refreshed; changed, then a flag in words.
    gateway.account("kundara-sms", "kundara-pass-2", 24_000);
    s.goto(&server.url(&format!("/clients/{kundara}")));
    s.wait_page("client");
    s.wait_text(
        "[data-testid='client-modules'] [data-testid='sms-balance']",
        "SMS balance 25,000 credits",
    );
    s.click_button("Refresh SMS balance");
    s.wait_text(
        "[data-testid='sms-refresh-result']",
        "The balance was read and has changed.",
    );
    s.wait_text(
        "[data-testid='client-modules'] [data-testid='sms-balance']",
        "SMS balance 24,000 credits",
    );
    shot(&s, "108-client-sms-refreshed");
    s.goto(&server.url(&format!("/clients/{perinad}")));
    s.wait_page("client");
    s.wait_text(
        "[data-testid='client-modules'] [data-testid='sms-balance']",
        "SMS balance not read yet",
    );
    s.click_button("Refresh SMS balance");
    let flagged = s.wait_text(
        "[data-testid='sms-refresh-result']",
        "No balance was read: the subscription is flagged and keeps its last balance.",
    );
    s.wait_text(
        "[data-testid='sms-refresh-result'] .sms-flag-text",
        "401 Invalid login",
    );
    assert!(flagged.text().contains("401 Invalid login"), "{}", flagged.text());
    shot(&s, "109-client-sms-flagged");

    // The home tile counts the low balances.
    s.goto(&server.url("/"));
    s.wait_page("home");
    s.wait_text("[data-testid='sms-low-tile']", "SMS balances low: 2");
    assert!(
        s.wait("[data-testid='sms-low-tile']")
            .text()
            .contains("2 SMS subscriptions are below 1,000 credits")
    );
    shot(&s, "110-home-sms-low");
    drop(s);

    // ---- Staff: their client's balance only, no logins, no CSV, no refresh.
    let t = driver.session(1366, 900);
    sign_in_home(&t, &server, "staff@office.in", STAFF_PASSWORD);
    t.wait_text("[data-testid='sms-low-tile']", "SMS balances low: 1");
    t.wait("[data-testid='sms-low-tile'] a").click();
    t.wait_page("sms-balances");
    until(&t, "the staff member's own client only", || {
        row_names(&t) == json!(["Chavara Farmers Society"])
    });
    assert_eq!(
        headers(&t),
        json!(["Client", "Code", "Balance", "Last checked", "Flag", ""])
    );
    let row = cells(&t, "[data-testid='sms-balances'] tbody tr[data-id]");
    assert_eq!(
        row.as_array().unwrap()[..3],
        [json!("Chavara Farmers Society"), json!("SMS"), json!("Low 300")]
    );
    assert_eq!(row.as_array().unwrap()[4..], [json!("—"), json!("Top-up quote")]);
    assert!(t.find_all("[data-testid='sms-csv']").is_empty());
    assert!(
        !t.page_text().contains("Refresh all from the gateway"),
        "no refresh for staff"
    );
    assert!(t.find_all("button[aria-label^='Reveal']").is_empty());
    t.wait("button[aria-label='Top-up quote for Chavara Farmers Society']");
    shot(&t, "111-sms-balances-staff");
}
