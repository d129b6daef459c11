//! Browser test of the documents: a staff member takes a society from quotation to issued invoice
//! (live totals with GST, mark sent, convert to proforma, convert to invoice, issue), then a
//! manager cancels the invoice with a reason and its number stays.

use crate::common::browser::{owner_session, ready_user, select, shot, sign_in_home};
use crate::common::server::Server;
use crate::common::webdriver::{Driver, Session};
use serde_json::{Value, json};

const OWNER_PASSWORD: &str = "owner-initial-pw";

fn issue(s: &Session) -> String {
    s.click_button("Issue");
    s.click_button("Issue now");
    s.wait_text("[data-testid='status']", "ssued");
    s.wait("[data-testid='doc-no']").text().trim().to_string()
}

#[test]
fn from_quotation_to_issued_invoice_and_a_cancel_with_a_reason() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let server = Server::start(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some(OWNER_PASSWORD),
    );
    let owner = owner_session(&server, OWNER_PASSWORD, "the owner's chosen passphrase");
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/company",
        Some(&owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
    ready_user(
        &server,
        &owner,
        "staff@coop.in",
        "staff",
        "staff's own passphrase",
    );
    ready_user(
        &server,
        &owner,
        "manager@coop.in",
        "manager",
        "manager's own passphrase",
    );
    let (_, _, staff_list) = server.call("GET", "/api/employees?role=staff", Some(&owner), None);
    let staff_id = staff_list["rows"][0]["id"].as_str().unwrap().to_string();
    let (_, _, client) = server.call(
        "POST",
        "/api/clients",
        Some(&owner),
        Some(
            json!({ "name": "KADAKKAL SERVICE CO-OPERATIVE BANK", "state_code": "32", "owner_id": staff_id }),
        ),
    );
    let client_id = client["id"].as_str().unwrap().to_string();
    let (_, _, module) = server.call(
        "POST",
        "/api/modules",
        Some(&owner),
        Some(json!({ "code": "DEP", "name": "Deposit module", "sac": "998314", "gst_rate": 18 })),
    );
    let module_id = module["id"].as_str().unwrap().to_string();
    server.call(
        "POST",
        &format!("/api/modules/{module_id}/prices"),
        Some(&owner),
        Some(json!({ "effective_from": "2020-04-01", "price": 1_000_000 })),
    );

    // The staff member drafts a quotation and watches the totals as they type.
    let s = driver.session(1366, 768);
    sign_in_home(&s, &server, "staff@coop.in", "staff's own passphrase");
    s.goto(&server.url("/documents/new"));
    s.wait_page("document-new");
    select(&s, "select[name='client_id']", &client_id);
    select(&s, "select[name='type']", "QUOTATION");
    s.wait("select[name='module_id']");
    select(&s, "select[name='module_id']", &module_id);
    s.fill("qty", "2");
    s.wait_text("[data-testid='totals'] [data-testid='total']", "₹23,600.00");
    assert!(
        s.wait("[data-testid='totals'] [data-testid='cgst']")
            .text()
            .contains("₹1,800.00")
    );
    assert!(
        s.wait("[data-testid='totals'] [data-testid='sgst']")
            .text()
            .contains("₹1,800.00")
    );
    shot(&s, "30-quotation-draft");
    s.click_button("Save draft");
    s.wait_page("document");
    let quote_no = issue(&s);
    assert!(quote_no.starts_with("QT/"), "{quote_no}");
    s.click_button("Mark sent");
    s.wait_text("[data-testid='status']", "ent");

    // Quotation → proforma → invoice, each issued.
    s.click_button("Convert to proforma");
    s.wait_text("[data-testid='status']", "raft");
    let proforma_no = issue(&s);
    assert!(proforma_no.starts_with("PI/"), "{proforma_no}");
    s.click_button("Convert to invoice");
    s.wait_text("[data-testid='status']", "raft");
    let invoice_no = issue(&s);
    assert!(
        invoice_no.starts_with("INV/") && invoice_no.ends_with("-0001"),
        "{invoice_no}"
    );
    shot(&s, "31-invoice");
    let invoice_url = s.url();
    let invoice_id = invoice_url.rsplit('/').next().unwrap().to_string();
    let (_, _, invoice) = server.call("GET", &format!("/api/documents/{invoice_id}"), Some(&owner), None);
    assert_eq!(
        (
            invoice["total"].as_i64(),
            invoice["cgst"].as_i64(),
            invoice["sgst"].as_i64()
        ),
        (Some(2_360_000), Some(180_000), Some(180_000))
    );
    assert_eq!(
        s.find_all("button")
            .iter()
            .filter(|b| b.text() == "Cancel document")
            .count(),
        0,
        "staff cannot cancel"
    );

    // A manager cancels it with a reason; the number stays.
    s.click_button("Sign out");
    sign_in_home(&s, &server, "manager@coop.in", "manager's own passphrase");
    s.goto(&invoice_url);
    s.wait_page("document");
    s.click_button("Cancel document");
    s.fill("reason", "Raised against the wrong society");
    s.click_button("Cancel document");
    s.wait_text("[data-testid='status']", "ancelled");
    s.wait_text("[data-testid='timeline']", "Raised against the wrong society");
    assert_eq!(s.wait("[data-testid='doc-no']").text().trim(), invoice_no);
    shot(&s, "32-cancelled-invoice");
    let (_, _, cancelled): (u16, Option<String>, Value) =
        server.call("GET", &format!("/api/documents/{invoice_id}"), Some(&owner), None);
    assert_eq!(
        (cancelled["status"].as_str(), cancelled["docNo"].as_str()),
        (Some("cancelled"), Some(invoice_no.as_str()))
    );
    server.stop();
}

/// A quotation issued at ₹6,998 converted after the price rose to ₹7,500: the new draft shows the
/// moved line, and "Keep the quoted price" brings the draft's total back to the quoted one.
#[test]
fn a_converted_line_whose_price_moved_is_shown_and_can_keep_the_quoted_price() {
    let Some(office) = crate::common::browser::Office::start() else {
        return;
    };
    let server = &office.server;
    let owner = &office.owner;
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/company",
        Some(owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
    let client_id = office.client("Anchal Service Co-operative Bank");
    let (_, _, module) = server.call(
        "POST",
        "/api/modules",
        Some(owner),
        Some(json!({ "code": "DEP", "name": "Deposit module", "sac": "998314", "gst_rate": 18 })),
    );
    let module_id = module["id"].as_str().unwrap().to_string();
    let price = |from: &str, price: i64| {
        let (status, _, body) = server.call(
            "POST",
            &format!("/api/modules/{module_id}/prices"),
            Some(owner),
            Some(json!({ "effective_from": from, "price": price })),
        );
        assert_eq!(status, 201, "{body}");
    };
    price("2020-04-01", 699_800);
    let (status, _, quote) = server.call(
        "POST",
        "/api/documents",
        Some(owner),
        Some(
            json!({ "type": "QUOTATION", "client_id": client_id, "doc_date": "2025-06-01",
                     "lines": [ { "module_id": module_id, "qty": 1 } ] }),
        ),
    );
    assert_eq!(status, 201, "{quote}");
    let quote_id = quote["id"].as_str().unwrap().to_string();
    let (status, _, _) = server.call(
        "POST",
        &format!("/api/documents/{quote_id}/issue"),
        Some(owner),
        Some(json!({})),
    );
    assert_eq!(status, 200);
    let today = (chrono::Utc::now() + chrono::Duration::minutes(330)).date_naive();
    price(&today.to_string(), 750_000);

    let s = office.owner_window();
    s.goto(&server.url(&format!("/documents/{quote_id}")));
    s.wait_page("document");
    s.click_button("Convert to invoice");
    s.wait_text("[data-testid='status']", "raft");
    let moved = s.wait("[data-testid='price-changes'] li[data-line='0']");
    assert_eq!(
        (
            s.wait("[data-testid='price-changes'] [data-testid='quoted']")
                .text(),
            s.wait("[data-testid='price-changes'] [data-testid='now']").text(),
            s.wait("[data-testid='price-changes'] [data-testid='difference']")
                .text(),
        ),
        (
            "₹6,998.00".to_string(),
            "₹7,500.00".to_string(),
            "+₹502.00".to_string()
        )
    );
    assert!(moved.text().contains("Deposit module"), "{}", moved.text());
    s.wait_text("[data-testid='totals'] [data-testid='total']", "₹8,850.00");
    shot(&s, "32-price-moved");
    s.click_button("Keep the quoted price");
    s.wait_text("[data-testid='totals'] [data-testid='total']", "₹8,257.64");
    assert_eq!(s.count("[data-testid='price-changes']"), 0);
    let draft_id = s.url().rsplit('/').next().unwrap().to_string();
    let (_, _, draft) = server.call("GET", &format!("/api/documents/{draft_id}"), Some(owner), None);
    assert_eq!(
        (
            draft["total"].as_i64(),
            draft["lines"][0]["explicit_price"].as_i64()
        ),
        (quote["total"].as_i64(), Some(699_800))
    );
    assert_eq!(quote["total"].as_i64(), Some(825_764));
}

/// An issued invoice of a society whose secretary has a mobile: the page shows what to pay by
/// UPI, and "WhatsApp" shows the chat (number, message) with its click-to-chat link; recording it
/// logs a whatsapp interaction on the client.
#[test]
fn an_owed_invoice_shows_its_upi_amount_and_is_sent_by_whatsapp() {
    let Some(office) = crate::common::browser::Office::start() else {
        return;
    };
    let (server, owner) = (&office.server, &office.owner);
    let (status, _, company) = server.call(
        "PUT",
        "/api/settings/company",
        Some(owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV", "upi_id": "softland@okaxis" })),
    );
    assert_eq!(status, 200, "{company}");
    let client_id = office.client("KUMMIL SERVICE CO-OPERATIVE BANK");
    let (status, _, contact) = server.call(
        "POST",
        &format!("/api/clients/{client_id}/contacts"),
        Some(owner),
        Some(json!({ "name": "Rajan", "role": "secretary", "phone": "098470 12345" })),
    );
    assert_eq!(status, 201, "{contact}");
    let (invoice_id, no) = office.issued_invoice(&client_id, "Deposit module", 1_000_000);

    let s = office.owner_window();
    s.goto(&server.url(&format!("/documents/{invoice_id}")));
    s.wait_page("document");
    s.wait_text("[data-testid='upi-amount']", "₹11,800.00");
    let href = s.wait("[data-testid='upi-link']").attribute("href").unwrap();
    assert!(
        href.starts_with("upi://pay?pa=softland%40okaxis&pn=Softland%20India&am=11800.00&cu=INR&tn="),
        "{href}"
    );

    s.wait("[data-testid='whatsapp']").click();
    s.wait_text("[data-testid='whatsapp-phone']", "+91 98470 12345");
    let text = s.wait("[data-testid='whatsapp-text']").text();
    assert!(
        text.starts_with(&format!("Dear Sir/Madam,\n\nThis is our tax invoice {no} dated "))
            && text.contains("Pay ₹11,800.00 by UPI: upi://pay?"),
        "{text}"
    );
    let open = s.wait("[data-testid='whatsapp-open']").attribute("href").unwrap();
    assert!(
        open.starts_with("https://wa.me/919847012345?text=Dear%20Sir%2FMadam%2C%0A%0A"),
        "{open}"
    );
    shot(&s, "whatsapp-document-dialog");
    s.wait("[data-testid='whatsapp-sent']").click();
    s.wait_text(".toast", "Recorded: WhatsApp to +91 98470 12345.");
    let (_, _, log) = server.call(
        "GET",
        &format!("/api/interactions?client_id={client_id}"),
        Some(owner),
        None,
    );
    assert_eq!(log["rows"][0]["type"], "whatsapp", "{log}");
    assert_eq!(
        log["rows"][0]["notes"],
        format!("WhatsApp to +919847012345: tax invoice {no}"),
        "{log}"
    );
    // The public page: its code, as Chromium draws it, decodes to the invoice's link.
    let (status, _, share) = server.call(
        "POST",
        &format!("/api/documents/{invoice_id}/share"),
        Some(owner),
        Some(json!({})),
    );
    assert_eq!(status, 201, "{share}");
    let (_, _, invoice) = server.call("GET", &format!("/api/documents/{invoice_id}"), Some(owner), None);
    s.goto(share["url"].as_str().unwrap());
    s.wait(".share-upi svg.upi-qr");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots/share-page-upi.png");
    s.screenshot(&path);
    assert_eq!(
        crate::common::qr::codes_in_png(&std::fs::read(&path).unwrap()),
        vec![invoice["upi"]["uri"].as_str().unwrap().to_string()]
    );
}
