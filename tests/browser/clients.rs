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

#[test]
fn the_client_page_shows_the_statement_of_account_with_its_closing_balance() {
    let Some(office) = crate::common::browser::Office::start() else {
        return;
    };
    let (server, owner) = (&office.server, &office.owner);
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/company",
        Some(owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
    let anchal = office.client("ANCHAL SERVICE CO-OPERATIVE BANK");
    let today = (chrono::Utc::now() + chrono::Duration::minutes(330))
        .date_naive()
        .to_string();
    // ₹5,900 issued today, ₹900 of it paid with ₹500 more held: ₹4,500 owed at today.
    let (invoice, invoice_no) = office.issued_invoice(&anchal, "SMS pack", 500_000);
    let (status, _, paid) = server.call(
        "POST",
        "/api/payments",
        Some(owner),
        Some(
            json!({ "client_id": anchal, "received_on": today, "amount": 140_000, "mode": "cash",
                     "allocations": [ { "document_id": invoice, "amount": 90_000 } ] }),
        ),
    );
    assert_eq!(status, 201, "{paid}");

    let s = office.owner_window();
    s.goto(&server.url(&format!("/clients/{anchal}")));
    s.wait_page("client");
    s.wait_text("[data-testid=statement-closing-amount]", "₹4,500.00");
    assert_eq!(
        s.texts("[data-testid=client-statement] tbody tr td:nth-child(2)"),
        json!([
            format!("Invoice {invoice_no}"),
            format!("Payment {}", paid["receipt_no"].as_str().unwrap())
        ])
    );
    let pdf = s
        .wait("[data-testid=statement-pdf]")
        .attribute("href")
        .unwrap_or_default();
    assert!(
        pdf.contains(&format!("/api/clients/{anchal}/statement.pdf?from=")),
        "{pdf}"
    );
    s.script(
        "document.querySelector('.client-statement-card').scrollIntoView()",
        json!([]),
    );
    shot(&s, "12-client-statement-of-account");
    // WhatsApp: the society has no mobile yet, and the dialog says so.
    s.wait("[data-testid=statement-whatsapp]").click();
    s.wait_text(
        "[data-testid=whatsapp-error]",
        "Add a contact with the role WhatsApp and a 10-digit mobile number.",
    );
}

#[test]
fn the_year_end_run_shows_its_progress_and_who_could_not_be_reached() {
    let Some(office) = crate::common::browser::Office::start() else {
        return;
    };
    let (server, owner) = (&office.server, &office.owner);
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/company",
        Some(owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
    let kottarakkara = office.client("KOTTARAKKARA SERVICE CO-OPERATIVE BANK");
    office.issued_invoice(&kottarakkara, "SMS pack", 500_000);

    let s = office.owner_window();
    s.goto(&server.url("/reports/year-end-statements"));
    s.wait_page("year-end-statements");
    s.wait_text("table tbody tr", "KOTTARAKKARA SERVICE CO-OPERATIVE BANK");
    let csv = s.wait("[data-testid=year-end-csv]").attribute("href").unwrap();
    // The download is the financial year chosen: this one, by the office's (IST) calendar.
    let now = chrono::Utc::now() + chrono::Duration::minutes(330);
    let start = chrono::Datelike::year(&now) - i32::from(chrono::Datelike::month(&now) < 4);
    let fy = format!("{start}-{:02}", (start + 1) % 100);
    assert!(
        csv.ends_with(&format!("/api/statements/year-end.csv?fy={fy}")),
        "{csv}"
    );
    s.wait("[data-testid=year-end-send]").click();
    s.wait_text(
        "[data-testid=year-end-progress]",
        "1 of 1: 0 sent, 0 already sent today, 1 not reached.",
    );
    s.wait_text(
        "[data-testid=year-end-unreachable]",
        "KOTTARAKKARA SERVICE CO-OPERATIVE BANK: No email address for the client or its contacts.",
    );
    shot(&s, "12-year-end-statements");
}

#[test]
fn the_client_page_says_what_they_owe_with_the_open_invoices() {
    let Some(office) = crate::common::browser::Office::start() else {
        return;
    };
    let (server, owner) = (&office.server, &office.owner);
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/company",
        Some(owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
    let perinad = office.client("PERINAD SERVICE CO-OPERATIVE BANK");
    // ₹11,800 overdue since September, ₹5,900 issued today of which ₹900 is paid, ₹500 held.
    let (status, _, draft) = server.call(
        "POST",
        "/api/documents",
        Some(owner),
        Some(json!({ "type": "INVOICE", "client_id": perinad, "doc_date": "2026-09-01", "dueDate": "2026-09-16",
                     "lines": [ { "description": "Deposit module", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] })),
    );
    assert_eq!(status, 201, "{draft}");
    let old = draft["id"].as_str().unwrap().to_string();
    let (status, _, issued) = server.call(
        "POST",
        &format!("/api/documents/{old}/issue"),
        Some(owner),
        Some(json!({})),
    );
    assert_eq!(status, 200, "{issued}");
    let old_no = issued["docNo"].as_str().unwrap().to_string();
    let (new, new_no) = office.issued_invoice(&perinad, "SMS pack", 500_000);
    let (status, _, paid) = server.call(
        "POST",
        "/api/payments",
        Some(owner),
        Some(
            json!({ "client_id": perinad, "received_on": "2026-10-01", "amount": 140_000, "mode": "cash",
                     "allocations": [ { "document_id": new, "amount": 90_000 } ] }),
        ),
    );
    assert_eq!(status, 201, "{paid}");

    let s = office.owner_window();
    s.goto(&server.url(&format!("/clients/{perinad}")));
    s.wait_page("client");
    s.wait("[data-testid=owes-invoices] tbody tr[data-id]");
    let figures = |id: &str| s.wait(&format!("[data-testid={id}]")).text();
    assert_eq!(
        (
            figures("owes-outstanding"),
            figures("owes-overdue"),
            figures("owes-advance"),
            figures("owes-open-count")
        ),
        (
            "₹16,800.00".to_string(),
            "₹11,800.00".to_string(),
            "₹500.00".to_string(),
            "2".to_string()
        )
    );
    let overdue = s.script(
        "return getComputedStyle(document.querySelector('[data-testid=owes-overdue]')).color",
        json!([]),
    );
    assert_eq!(overdue, json!("rgb(180, 35, 24)"), "the overdue part is red");
    assert_eq!(
        s.texts("[data-testid=owes-invoices] tbody tr[data-id] td:first-child"),
        json!([old_no, new_no])
    );
    assert_eq!(
        s.texts("[data-testid=owes-invoices] tbody tr[data-overdue='1'] td:first-child"),
        json!([old_no])
    );
    assert_eq!(
        s.texts("[data-testid=client-recent-documents] tbody tr td:first-child"),
        json!([new_no, old_no])
    );
    shot(&s, "12-client-what-they-owe");
    // Each open invoice opens; "Record payment" starts one for this client.
    s.find_all("[data-testid=owes-invoices] tbody tr[data-id] a")[0].click();
    s.wait_page("document");
    assert!(s.url().ends_with(&format!("/documents/{old}")), "{}", s.url());
    s.goto(&server.url(&format!("/clients/{perinad}")));
    s.wait_page("client");
    s.wait("[data-testid=owes-record-payment]").click();
    s.wait_page("payment-new");
    assert!(s.url().contains(&format!("client_id={perinad}")), "{}", s.url());
}
