//! Browser test of documents going out: the owner opens a draft invoice and watches the live
//! preview's total change as the quantity changes, issues it, mints a share link and emails it
//! (through a fake mail provider on loopback); the link opens in a fresh browser without cookies.

use crate::common::browser::{owner_session, shot, sign_in_home};
use crate::common::mail::{FakeMail, TOKEN};
use crate::common::server::Server;
use crate::common::webdriver::{Driver, Session};
use serde_json::json;

const OWNER_PASSWORD: &str = "owner-initial-pw";
const OWNER_OWN: &str = "the owner's chosen passphrase";

/// The current value of the input `css` once `ready` accepts it (the value property, not the attribute).
fn value_of(s: &Session, css: &str, ready: impl Fn(&str) -> bool) -> String {
    s.wait(css);
    for _ in 0..100 {
        let value = s.script("return document.querySelector(arguments[0]).value", json!([css]));
        if let Some(v) = value.as_str().filter(|v| ready(v)) {
            return v.to_string();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("{css} never got a value");
}

#[test]
fn preview_issue_share_and_email_an_invoice() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let mail = FakeMail::start();
    let server = Server::start_with_env(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some(OWNER_PASSWORD),
        &[("BACKOFFICE_ALLOW_PRIVATE_TARGETS", "1")],
    );
    let owner = owner_session(&server, OWNER_PASSWORD, OWNER_OWN);
    let put = |path: &str, body: serde_json::Value| {
        let (status, _, reply) = server.call("PUT", path, Some(&owner), Some(body));
        assert_eq!(status, 200, "{path}: {reply}");
    };
    put(
        "/api/settings/company",
        json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" }),
    );
    put(
        "/api/settings/mail",
        json!({ "api_url": mail.url, "from": "billing@softland.in", "token": TOKEN }),
    );
    let (_, _, client) = server.call(
        "POST",
        "/api/clients",
        Some(&owner),
        Some(json!({ "name": "KADAKKAL SERVICE CO-OPERATIVE BANK", "state_code": "32", "email": "office@kadakkal.coop" })),
    );
    let (_, _, module) = server.call(
        "POST",
        "/api/modules",
        Some(&owner),
        Some(json!({ "code": "DEP", "name": "Deposit module", "sac": "998314", "gst_rate": 18 })),
    );
    server.call(
        "POST",
        &format!("/api/modules/{}/prices", module["id"].as_str().unwrap()),
        Some(&owner),
        Some(json!({ "effective_from": "2020-04-01", "price": 10_000_000 })),
    );
    let (status, _, draft) = server.call(
        "POST",
        "/api/documents",
        Some(&owner),
        Some(json!({ "type": "INVOICE", "client_id": client["id"], "lines": [ { "module_id": module["id"], "qty": 1 } ] })),
    );
    assert_eq!(status, 201, "{draft}");
    let doc_id = draft["id"].as_str().unwrap();

    // The draft's live preview follows the quantity.
    let s = driver.session(1366, 900);
    sign_in_home(&s, &server, "owner@localhost", OWNER_OWN);
    s.goto(&server.url(&format!("/documents/{doc_id}")));
    s.wait_page("document");
    s.wait_text("[data-testid='doc-preview'] .doc-total", "₹1,18,000.00");
    s.fill("qty", "3");
    s.wait_text("[data-testid='doc-preview'] .doc-total", "₹3,54,000.00");
    shot(&s, "40-draft-with-live-preview");
    s.click_button("Save draft");
    s.click_button("Issue");
    s.click_button("Issue now");
    s.wait_text("[data-testid='status']", "ssued");
    let doc_no = s.wait("[data-testid='doc-no']").text().trim().to_string();
    assert!(doc_no.starts_with("INV/"), "{doc_no}");

    // A share link, minted in the dialog.
    s.click_button("Share link");
    s.click_button("Create link");
    let url = value_of(&s, "input[data-testid='share-url']", |v| !v.is_empty());
    assert!(
        url.starts_with(&server.url("/share/")) && url.len() == server.url("/share/").len() + 64,
        "{url}"
    );
    s.wait_text("[data-testid='shares']", "live");
    shot(&s, "41-share-dialog");

    // Emailed to the client's address, resolved in the dialog.
    s.goto(&server.url(&format!("/documents/{doc_id}")));
    s.wait_page("document");
    s.click_button("Send by email");
    assert_eq!(
        value_of(&s, "input[name='to']", |v| !v.is_empty()),
        "office@kadakkal.coop"
    );
    s.click_button("Send");
    s.wait_text("[data-testid='email-log']", "office@kadakkal.coop");
    assert_eq!(mail.received().len(), 1);
    assert_eq!(mail.received()[0]["To"], "office@kadakkal.coop");

    // The public link in a fresh browser with no session.
    let public = driver.session(1024, 900);
    public.goto(&url);
    public.wait_text(".doc-sheet .doc-no", &doc_no);
    public.wait_text(".doc-sheet .doc-total", "₹3,54,000.00");
    assert!(public.page_text().contains("Download PDF"));
    shot(&public, "42-public-share-page");
    assert_eq!(
        public.script("return document.cookie", json!([])),
        json!(""),
        "no session in the fresh browser"
    );
}

#[test]
fn the_public_share_page_shows_the_whole_invoice_on_a_phone() {
    let Some(office) = crate::common::browser::Office::start() else {
        return;
    };
    let client_id = office.client("VADAKARA SERVICE CO-OPERATIVE BANK LTD");
    let (invoice_id, no) = office.issued_invoice(
        &client_id,
        "Core banking licence with deposits, loans and SMS alerts",
        12_345_600,
    );
    let (status, _, minted) = office.server.call(
        "POST",
        &format!("/api/documents/{invoice_id}/share"),
        Some(&office.owner),
        Some(json!({ "days": 7 })),
    );
    assert_eq!(status, 201, "{minted}");

    let phone = office.driver.phone_session(390, 844);
    phone.goto(minted["url"].as_str().unwrap());
    phone.wait_text(".doc-sheet", &no);
    let width = |css: &str| {
        phone
            .script(
                &format!("return document.querySelector(\"{css}\").getBoundingClientRect().right"),
                json!([]),
            )
            .as_f64()
            .unwrap()
    };
    let viewport = phone
        .script("return window.innerWidth", json!([]))
        .as_f64()
        .unwrap();
    assert_eq!(viewport, 390.0, "Chromium emulates a 390 px phone");
    // The page does not scroll sideways; the sheet and its totals fit the screen.
    let page_width = phone
        .script("return document.documentElement.scrollWidth", json!([]))
        .as_f64()
        .unwrap();
    assert!(
        page_width <= viewport,
        "the page is {page_width} px wide on a {viewport} px screen"
    );
    assert!(
        width(".doc-sheet") <= viewport && width(".doc-total") <= viewport,
        "the total is on screen"
    );
    // Every column of the lines is there: in their own box, which scrolls when they need more room.
    let columns = phone.script(
        "return document.querySelectorAll('.doc-lines thead th').length",
        json!([]),
    );
    assert_eq!(columns, 10);
    let lines_box = phone
        .script(
            "const b = document.querySelector('.doc-lines-box'); return [b.clientWidth, b.scrollWidth, getComputedStyle(b).overflowX];",
            json!([]),
        );
    assert_eq!(lines_box[2], "auto", "{lines_box}");
    assert!(lines_box[0].as_f64().unwrap() <= viewport, "{lines_box}");
    phone.script(
        "document.querySelector('.doc-lines-box').scrollLeft = 10000",
        json!([]),
    );
    let last = phone.script(
        "const b = document.querySelector('.doc-lines-box').getBoundingClientRect(); \
             const c = document.querySelector('.doc-lines tbody tr td:last-child').getBoundingClientRect(); \
             return c.right <= b.right + 1 && c.left >= b.left - 1;",
        json!([]),
    );
    assert_eq!(last, true, "the Total column scrolls into view");
    shot(&phone, "43-share-page-on-a-phone");
}

#[test]
fn the_client_pages_emails_link_opens_the_email_log_filtered_to_that_client() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let mail = FakeMail::start();
    let server = Server::start_with_env(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some(OWNER_PASSWORD),
        &[("BACKOFFICE_ALLOW_PRIVATE_TARGETS", "1")],
    );
    let owner = owner_session(&server, OWNER_PASSWORD, OWNER_OWN);
    for (path, body) in [
        (
            "/api/settings/company",
            json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" }),
        ),
        (
            "/api/settings/mail",
            json!({ "api_url": mail.url, "from": "billing@softland.in", "token": TOKEN }),
        ),
    ] {
        let (status, _, reply) = server.call("PUT", path, Some(&owner), Some(body));
        assert_eq!(status, 200, "{path}: {reply}");
    }
    // An invoice for each of two societies, each emailed: Kadakkal's twice, the second refused.
    let invoice_for = |name: &str, email: &str| {
        let (_, _, client) = server.call(
            "POST",
            "/api/clients",
            Some(&owner),
            Some(json!({ "name": name, "state_code": "32", "email": email })),
        );
        let client_id = client["id"].as_str().unwrap().to_string();
        let (status, _, draft) = server.call(
            "POST",
            "/api/documents",
            Some(&owner),
            Some(json!({ "type": "INVOICE", "client_id": client_id,
                         "lines": [ { "description": "Core banking AMC", "qty": 1, "unit_price": 5_000_000, "gst_rate": 18 } ] })),
        );
        assert_eq!(status, 201, "{draft}");
        let doc_id = draft["id"].as_str().unwrap().to_string();
        let (status, _, issued) = server.call(
            "POST",
            &format!("/api/documents/{doc_id}/issue"),
            Some(&owner),
            Some(json!({})),
        );
        assert_eq!(status, 200, "{issued}");
        (client_id, doc_id)
    };
    let send = |doc_id: &str| {
        server
            .call(
                "POST",
                &format!("/api/documents/{doc_id}/send"),
                Some(&owner),
                Some(json!({})),
            )
            .0
    };
    let (kadakkal, kadakkal_invoice) =
        invoice_for("KADAKKAL SERVICE CO-OPERATIVE BANK", "office@kadakkal.coop");
    let (_, anchal_invoice) = invoice_for("ANCHAL SERVICE CO-OPERATIVE BANK", "office@anchal.coop");
    assert_eq!(send(&kadakkal_invoice), 200);
    assert_eq!(send(&anchal_invoice), 200);
    mail.fail_sends(true);
    assert_eq!(send(&kadakkal_invoice), 502);
    mail.fail_sends(false);
    let (_, _, failed) = server.call("GET", "/api/email-log?status=failed", Some(&owner), None);
    assert_eq!(failed["total"], 1, "{failed}");
    let error = failed["rows"][0]["error"].as_str().unwrap().to_string();

    let s = driver.session(1366, 900);
    sign_in_home(&s, &server, "owner@localhost", OWNER_OWN);
    s.goto(&server.url(&format!("/clients/{kadakkal}")));
    s.wait_page("client");
    s.wait("[data-testid='client-emails']").click();
    s.wait_page("email-log");
    assert_eq!(s.url(), server.url(&format!("/email-log?client_id={kadakkal}")));
    s.wait_text(".filter-chip", "KADAKKAL SERVICE CO-OPERATIVE BANK");
    s.wait("[data-testid='email-log-list'] tr[data-status='failed']");
    // Kadakkal's two attempts, newest first: the refused one with its error under it.
    let rows = s.script(
        "return [...document.querySelectorAll('[data-testid=email-log-list] tbody tr[data-id]')]
           .map((tr) => [tr.dataset.clientId, tr.dataset.status, tr.querySelector('td:nth-child(2)').textContent.trim()])",
        json!([]),
    );
    assert_eq!(
        rows,
        json!([
            [kadakkal, "failed", "office@kadakkal.coop"],
            [kadakkal, "sent", "office@kadakkal.coop"]
        ])
    );
    assert_eq!(s.wait("[data-testid='email-error']").text().trim(), error);
    assert_eq!(s.count("[data-testid='email-document']"), 2);
    shot(&s, "44-email-log-of-a-client");

    // The CSV link carries the filter, and what it downloads is the same two rows.
    let href = s.wait("[data-testid='csv-link']").attribute("href").unwrap();
    assert_eq!(href, format!("/api/email-log.csv?client_id={kadakkal}"));
    let csv = s.script_async(
        "const done = arguments[arguments.length - 1];
         fetch(arguments[0]).then(async (r) => done([r.status, r.headers.get('content-type'), await r.text()]));",
        json!([href]),
    );
    assert_eq!(csv[0], 200, "{csv}");
    assert_eq!(csv[1], "text/csv; charset=utf-8");
    let lines: Vec<&str> = csv[2].as_str().unwrap().lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert_eq!(
        lines[0],
        "Time,To,Cc,Subject,Client,Purpose,Document,Status,Error,Sent by"
    );
    for (line, status) in lines[1..].iter().zip([",failed,", ",sent,"]) {
        assert!(
            line.contains(",office@kadakkal.coop,")
                && line.contains(",KADAKKAL SERVICE CO-OPERATIVE BANK,document,")
                && line.contains(status),
            "{line}"
        );
    }
}

#[test]
fn without_a_public_address_or_mail_the_dialogs_say_so_before_anything_is_done() {
    let Some(office) = crate::common::browser::Office::start() else {
        return;
    };
    let (status, _, reply) = office.server.call(
        "PUT",
        "/api/settings/company",
        Some(&office.owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200, "{reply}");
    let client = office.client("KADAKKAL SERVICE CO-OPERATIVE BANK");
    let (doc_id, _) = office.issued_invoice(&client, "Annual licence", 1_000_000);
    let s = office.owner_window();
    s.goto(&office.server.url(&format!("/documents/{doc_id}")));
    s.wait_page("document");

    // The share dialog warns before the link is made, and beside the link it made.
    s.click_button("Share link");
    let link = s.wait("[data-testid='public-address-unset'] a");
    assert_eq!(
        link.attribute("href").as_deref(),
        Some("/settings/template#public-links")
    );
    s.click_button("Create link");
    let url = value_of(&s, "input[data-testid='share-url']", |v| !v.is_empty());
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    s.wait("[data-testid='share-warnings'] li");
    assert_eq!(
        s.script(
            "return [...document.querySelectorAll(\"[data-testid='share-warnings'] li\")].map((li) => li.dataset.code);",
            json!([])
        ),
        json!(["no_public_address", "loopback_link"])
    );
    shot(&s, "43-share-dialog-loopback-warning");

    // "Send by email" says mail is not set up before the form is filled, and cannot be sent.
    s.goto(&office.server.url(&format!("/documents/{doc_id}")));
    s.wait_page("document");
    s.click_button("Send by email");
    s.wait_text("[data-testid='mail-unset']", "Mail is not set up yet");
    let to_mail = s.wait("[data-testid='mail-unset'] a");
    assert_eq!(to_mail.attribute("href").as_deref(), Some("/settings/mail"));
    s.wait("[data-testid='public-address-unset']");
    let send = s.script(
        "return [...document.querySelectorAll('dialog button[type=submit], [role=dialog] button[type=submit]')].map((b) => [b.textContent.trim(), b.disabled]);",
        json!([]),
    );
    assert_eq!(send, json!([["Send", true]]));
    shot(&s, "44-send-dialog-mail-unset");
}
