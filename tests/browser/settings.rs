//! Browser test of the console's frame: the navigation in groups, scrolling so that Sign out is
//! reachable in a short window; the settings in one section with back links; and what the
//! documents print of the company entered in one place; the mail settings' choice of SMTP and
//! their test email, received by a real SMTP server on loopback.

use crate::common::browser::{
    OFFICE_OWNER_PASSWORD, Office, owner_session, select, shot, sign_in_home, until,
};
use crate::common::server::Server;
use crate::common::smtp::{self, SmtpServer};
use serde_json::{Value, json};

#[test]
fn settings_sit_in_one_section_and_a_short_window_still_reaches_sign_out() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    // A GSTIN stored on the letterhead by an earlier version overrides the company's.
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/template",
        Some(owner),
        Some(json!({ "template.gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);

    let s = office.owner_window();
    let groups: Vec<String> = s.find_all(".nav-group-title").iter().map(|g| g.text()).collect();
    assert_eq!(groups, ["WORK", "SALES", "REPORTS", "SETTINGS", "YOU"]);

    // Settings → Letterhead → back to Settings.
    s.find_all("nav a")
        .into_iter()
        .find(|a| a.text().trim() == "Settings")
        .unwrap()
        .click();
    s.wait_page("settings");
    for section in [
        "Company profile",
        "Letterhead",
        "Mail",
        "Checklist templates",
        "Catalog",
        "Employees",
    ] {
        s.wait_text("[data-testid='settings-sections']", section);
    }
    shot(&s, "60-settings");
    s.find_all("[data-testid='settings-sections'] a")
        .into_iter()
        .find(|a| a.text() == "Letterhead")
        .unwrap()
        .click();
    s.wait_page("template-settings");
    assert!(
        s.find_all("[name='template.gstin'], [name='template.bank_account']")
            .is_empty(),
        "entered on the Company page only"
    );
    s.wait_text("[data-testid='letterhead-overrides']", "GSTIN: 32AABCK1234L1ZV");
    s.click_button("Use the company profile");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !s.find_all("[data-testid='letterhead-overrides']").is_empty() {
        assert!(std::time::Instant::now() < deadline, "the override stays");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let (_, _, template) = server.call("GET", "/api/settings/template", Some(owner), None);
    assert_eq!(template["template.gstin"], serde_json::Value::Null);
    s.find_all(".crumbs a")
        .into_iter()
        .find(|a| a.text().contains("Settings"))
        .unwrap()
        .click();
    s.wait_page("settings");

    // A short window: the navigation scrolls and Sign out is still there to click.
    s.set_window(1366, 420);
    let scrolls = s.script(
        "const n = document.querySelector('.main-nav'); return n.scrollHeight > n.clientHeight;",
        json!([]),
    );
    assert_eq!(scrolls, true, "the navigation is taller than a 420 px window");
    s.script(
        "[...document.querySelectorAll('.nav-user button')].find(b => b.textContent.trim() === 'Sign out').scrollIntoView();",
        json!([]),
    );
    shot(&s, "61-short-window-nav");
    s.click_button("Sign out");
    s.wait_page("login");
}

/// Whether every column of the tables under `css` lies inside its scroll box (nothing cut off
/// and nothing to scroll sideways for), with what sticks out when not.
fn columns_fit(s: &crate::common::webdriver::Session, css: &str) -> Value {
    s.script(
        "const box = document.querySelector(arguments[0]);
         const edge = box.getBoundingClientRect().right + 1;
         const out = [...box.querySelectorAll('th, td')]
           .filter((c) => c.getBoundingClientRect().right > edge)
           .map((c) => c.textContent.trim());
         return { fits: out.length === 0 && box.scrollWidth <= box.clientWidth + 1, out,
                  scroll: box.scrollWidth, width: box.clientWidth };",
        json!([css]),
    )
}

#[test]
fn at_1366_the_editor_preview_and_the_contacts_card_show_every_column() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let client_id = office.client("Kadakkal Service Co-operative Bank Ltd No 1234");
    let (status, _, contact) = server.call(
        "POST",
        &format!("/api/clients/{client_id}/contacts"),
        Some(owner),
        Some(
            json!({ "name": "Sreelatha Pillai Raghavan", "role": "Secretary in charge",
                     "phone": "+91 94470 12345", "email": "secretary.kadakkal.scb@example.co.in" }),
        ),
    );
    assert_eq!(status, 201, "{contact}");
    let (status, _, draft) = server.call(
        "POST",
        "/api/documents",
        Some(owner),
        Some(json!({ "type": "INVOICE", "client_id": client_id,
                     "lines": [ { "description": "Core banking module, annual maintenance for the head office and branches",
                                  "sac": "998314", "qty": 12, "unit_price": 12_345_600, "gst_rate": 18 } ] })),
    );
    assert_eq!(status, 201, "{draft}");

    let s = office.owner_window();
    s.set_window(1366, 800);
    s.goto(&server.url(&format!("/documents/{}", draft["id"].as_str().unwrap())));
    s.wait_page("document");
    s.wait_text("[data-testid='doc-preview']", "Core banking module");
    s.wait_text("[data-testid='doc-preview']", "Total");
    let fit = columns_fit(&s, "[data-testid='doc-preview']");
    shot(&s, "62-editor-1366");
    assert_eq!(fit["fits"], true, "the preview at 1366 px: {fit}");

    s.goto(&server.url(&format!("/clients/{client_id}")));
    s.wait_page("client");
    s.wait_text("[data-testid='contacts']", "secretary.kadakkal.scb@example.co.in");
    s.script(
        "document.querySelector(arguments[0]).scrollIntoView()",
        json!(["[data-testid='contacts']"]),
    );
    let fit = columns_fit(&s, "[data-testid='contacts'] .table-scroll");
    shot(&s, "63-client-contacts-1366");
    assert_eq!(fit["fits"], true, "the contacts card at 1366 px: {fit}");
}

#[test]
fn the_owner_sets_payment_terms_stall_days_ticket_types_and_the_whole_checklist() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let s = office.owner_window();
    s.goto(&server.url("/settings/operations"));
    s.wait_page("operations-settings");
    s.wait_text(
        "[data-testid='since-payment_terms_days']",
        "The default: never changed.",
    );

    // Out of range: said on the field, nothing saved.
    s.fill("payment_terms_days", "400");
    s.find_all("[data-testid='payment-terms'] button[type='submit']")[0].click();
    s.wait_text("[data-testid='payment-terms'] .field-error", "0 to 365");
    s.fill("payment_terms_days", "30");
    s.find_all("[data-testid='payment-terms'] button[type='submit']")[0].click();
    s.wait_text("[data-testid='since-payment_terms_days']", "In force since");
    s.fill("stall_days", "60");
    s.find_all("[data-testid='stall-days'] button[type='submit']")[0].click();
    s.wait_text("[data-testid='since-stall_days']", "In force since");

    // Ticket types: one more, then a duplicate refused on its row.
    s.click_button("Add type");
    let rows = s.find_all("[data-testid='ticket-types'] input[name='type_name']");
    assert_eq!(rows.len(), 7, "the six defaults and the new row");
    rows[6].type_text("AMC visit");
    s.click_button("Save ticket types");
    s.wait_text("[data-testid='since-ticket.types']", "In force since");
    s.click_button("Add type");
    s.find_all("[data-testid='ticket-types'] input[name='type_name']")[7].type_text("amc VISIT");
    s.click_button("Save ticket types");
    s.wait_text("[data-testid='ticket-types'] .field-error", "in the list twice");
    crate::common::browser::quiet(&s);
    shot(&s, "176-operations-defaults");

    let (_, _, billing) = server.call("GET", "/api/settings/billing", Some(owner), None);
    let (_, _, projects) = server.call("GET", "/api/settings/projects", Some(owner), None);
    let (_, _, tickets) = server.call("GET", "/api/settings/tickets", Some(owner), None);
    assert_eq!(
        (
            billing["payment_terms_days"].clone(),
            projects["stall_days"].clone(),
            tickets["types"].clone()
        ),
        (
            json!(30),
            json!(60),
            json!([
                "service",
                "installation",
                "training",
                "bug",
                "data correction",
                "renewal",
                "AMC visit"
            ])
        )
    );

    // The older offices' whole checklist, on the checklist templates page.
    s.goto(&server.url("/settings/milestones"));
    s.wait_page("milestone-templates");
    s.wait_text("[data-testid='legacy-checklist']", "Not used: no steps.");
    let card = "[data-testid='legacy-checklist']";
    s.find_all(&format!("{card} button"))
        .into_iter()
        .find(|b| b.text().trim() == "Add step")
        .unwrap()
        .click();
    s.find_all(&format!("{card} input[name='step_label']"))[0].type_text("Agreement signed");
    s.find_all(&format!("{card} button[type='submit']"))[0].click();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (_, _, templates) = server.call("GET", "/api/settings/milestones", Some(owner), None);
        if templates["legacy"] == json!([{ "key": "agreement_signed", "label": "Agreement signed" }]) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{templates}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn the_owner_chooses_smtp_saves_and_a_test_email_reaches_the_mail_server() {
    let Some(driver) = crate::common::webdriver::Driver::start() else {
        return;
    };
    let Some(mail) = SmtpServer::start("none") else {
        return;
    };
    let dir = tempfile::TempDir::new().unwrap();
    let server = Server::start_with_env(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some("owner-initial-pw"),
        &[("BACKOFFICE_ALLOW_PRIVATE_TARGETS", "1")],
    );
    let owner = owner_session(&server, "owner-initial-pw", OFFICE_OWNER_PASSWORD);
    let s = driver.session(1366, 900);
    sign_in_home(&s, &server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    s.goto(&server.url("/settings/mail"));
    s.wait_page("mail-settings");
    select(&s, "[name='transport']", "smtp");
    // A preset fills the server, the port and the security.
    s.wait("[data-preset='gmail']").click();
    let value = |name: &str| {
        s.script(
            &format!("return document.querySelector(\"[name='{name}']\").value"),
            json!([]),
        )
    };
    until(&s, "the Gmail preset", || {
        value("smtp_host") == "smtp.gmail.com" && value("smtp_port") == "587"
    });
    assert_eq!(value("smtp_security"), "starttls");

    // Wrong fields are each named beside the field.
    s.fill("smtp_host", "smtp://127.0.0.1");
    s.fill("from", "billing");
    s.click_button("Save mail settings");
    s.wait("[name='smtp_host'][aria-invalid='true']");
    s.wait("[name='from'][aria-invalid='true']");

    s.fill("smtp_host", "127.0.0.1");
    select(&s, "[name='smtp_security']", "none");
    s.wait_text("[data-testid='smtp-unencrypted']", "cross the network readable");
    s.fill("smtp_port", &mail.port.to_string());
    s.fill("smtp_username", smtp::USER);
    s.fill("smtp_password", smtp::PASSWORD);
    s.fill("from", "billing@softland.in");
    s.click_button("Save mail settings");
    until(&s, "the save", || {
        server.call("GET", "/api/settings/mail", Some(&owner), None).2["transport"] == "smtp"
    });
    shot(&s, "61-mail-smtp");
    // A wrong address for the test shows beside its field, and nothing is sent.
    s.fill("test_to", "nobody");
    s.click_button("Send a test email");
    s.wait("[name='test_to'][aria-invalid='true']");
    s.fill("test_to", "owner@localhost");
    s.click_button("Send a test email");
    s.wait_text(
        "[data-testid='mail-test']",
        "A test email went to owner@localhost through the mail server.",
    );
    shot(&s, "62-mail-test-sent");
    let got = mail.wait_for(1);
    assert_eq!(got.len(), 1);
    assert_eq!(
        (got[0]["rcpt_tos"].clone(), got[0]["auth_user"].as_str()),
        (json!(["owner@localhost"]), Some(smtp::USER))
    );
    let (_, _, settings) = server.call("GET", "/api/settings/mail", Some(&owner), None);
    assert_eq!(
        (
            settings["smtp_port"].as_u64(),
            settings["smtp_security"].as_str(),
            settings["hasSmtpPassword"].as_bool()
        ),
        (Some(u64::from(mail.port)), Some("none"), Some(true))
    );
}
