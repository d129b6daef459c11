//! Browser test of payments: from an issued invoice, the owner records a part payment with TDS at
//! 10% of the taxable value, sees the receipt and its PDF, and the invoice's outstanding falls;
//! the dues aging report shows what is left.

use crate::common::browser::{Office, owner_session, shot, sign_in_home};
use crate::common::http_call;
use crate::common::server::Server;
use crate::common::webdriver::Driver;
use serde_json::json;

const OWNER_PASSWORD: &str = "owner-initial-pw";
const OWNER_OWN: &str = "the owner's chosen passphrase";

#[test]
fn a_part_payment_with_tds_lowers_the_outstanding_and_prints_a_receipt() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let server = Server::start(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some(OWNER_PASSWORD),
    );
    let owner = owner_session(&server, OWNER_PASSWORD, OWNER_OWN);
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/company",
        Some(&owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
    let (_, _, client) = server.call(
        "POST",
        "/api/clients",
        Some(&owner),
        Some(json!({ "name": "KADAKKAL SERVICE CO-OPERATIVE BANK", "state_code": "32" })),
    );
    let (_, _, draft) = server.call(
        "POST",
        "/api/documents",
        Some(&owner),
        Some(json!({ "type": "INVOICE", "client_id": client["id"],
                     "lines": [ { "description": "Core banking licence", "qty": 1, "unit_price": 10_000_000 } ] })),
    );
    let invoice_id = draft["id"].as_str().unwrap().to_string();
    let (status, _, invoice) = server.call(
        "POST",
        &format!("/api/documents/{invoice_id}/issue"),
        Some(&owner),
        Some(json!({})),
    );
    assert_eq!(status, 200, "{invoice}");

    let s = driver.session(1366, 900);
    sign_in_home(&s, &server, "owner@localhost", OWNER_OWN);
    s.goto(&server.url(&format!("/documents/{invoice_id}")));
    s.wait_page("document");
    s.wait_text("[data-testid='outstanding']", "₹1,18,000.00");
    s.wait_text("[data-testid='paid-badge']", "Unpaid");
    s.click_button("Record payment");
    s.wait_page("payment-new");
    s.wait(&format!(
        "[data-testid='alloc-row'][data-document-id='{invoice_id}']"
    ));
    s.fill("amount", "50000");
    s.fill("alloc_amount", "50000");
    s.click_button("TDS 10%");
    s.wait_text("[data-testid='alloc-summary']", "₹10,000.00");
    select_mode(&s, "cheque");
    s.fill("reference", "004512");
    shot(&s, "50-record-payment");
    s.click_button("Record payment");
    s.wait_page("payment");
    let receipt = s.wait("[data-testid='receipt-no']").text();
    assert!(
        receipt.contains("RCT/") && receipt.ends_with("-0001"),
        "{receipt}"
    );
    let print = s
        .find_all("a")
        .into_iter()
        .find(|a| a.text() == "Print receipt")
        .expect("a Print receipt link");
    let href = print.attribute("href").unwrap();
    let url = if href.starts_with("http") {
        href.clone()
    } else {
        server.url(&href)
    };
    let pdf = http_call("GET", &url, &[("Cookie", owner.as_str())], None, 30).unwrap();
    assert_eq!(
        (pdf.status, pdf.header("content-type")),
        (200, Some("application/pdf"))
    );
    assert!(pdf.body.starts_with(b"%PDF"));
    shot(&s, "51-payment-receipt");

    // The invoice owes what is left: 1,18,000 - 50,000 - 10,000 TDS.
    s.goto(&server.url(&format!("/documents/{invoice_id}")));
    s.wait_page("document");
    s.wait_text("[data-testid='outstanding']", "₹58,000.00");
    s.wait_text("[data-testid='paid-badge']", "Part paid");
    let (_, _, after) = server.call("GET", &format!("/api/documents/{invoice_id}"), Some(&owner), None);
    assert_eq!(after["outstanding"], 5_800_000);

    // The dues aging report carries it (not yet due: 15 days of terms).
    s.goto(&server.url("/reports/dues-aging"));
    s.wait_page("dues-aging");
    s.wait_text("[data-testid='dues-totals']", "₹58,000.00");
    shot(&s, "52-dues-aging");

    // The advance step of the society's project is ticked with that payment: its date follows.
    let (_, _, module) = server.call(
        "POST",
        "/api/modules",
        Some(&owner),
        Some(json!({ "code": "CBS", "name": "Core banking", "sac": "998314", "gst_rate": 18 })),
    );
    let (status, _, project) = server.call(
        "POST",
        "/api/client-modules",
        Some(&owner),
        Some(json!({ "client_id": client["id"], "module_id": module["id"] })),
    );
    assert_eq!(status, 201, "{project}");
    let project_id = project["id"].as_str().unwrap();
    s.goto(&server.url(&format!("/projects/{project_id}")));
    s.wait_page("project");
    s.wait("[data-testid='checklist'] li[data-key='advance_paid'] input[type='checkbox']")
        .click();
    s.wait("select[name='paymentId'] option[value]:not([value=''])");
    let (_, _, payments) = server.call("GET", "/api/payments", Some(&owner), None);
    crate::common::browser::select(
        &s,
        "select[name='paymentId']",
        payments["rows"][0]["id"].as_str().unwrap(),
    );
    s.click_button("Save");
    s.wait_text(
        "[data-testid='checklist'] li[data-key='advance_paid']",
        "Payment linked",
    );
    let (_, _, steps) = server.call(
        "GET",
        &format!("/api/client-modules/{project_id}/milestones"),
        Some(&owner),
        None,
    );
    let advance = steps["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "advance_paid")
        .unwrap()
        .clone();
    assert_eq!(advance["payment_id"], payments["rows"][0]["id"]);
    assert_eq!(advance["done_on"], payments["rows"][0]["received_on"]);
}

fn select_mode(s: &crate::common::webdriver::Session, mode: &str) {
    crate::common::browser::select(s, "select[name='mode']", mode);
}

#[test]
fn a_manager_cancels_a_payment_and_refunds_an_advance_and_invoices_show_what_they_owe() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let client_id = office.client("ANCHAL SERVICE CO-OPERATIVE BANK");
    let (invoice_id, _) = office.issued_invoice(&client_id, "Deposit module", 1_000_000);
    // A quotation beside it: the list narrows from two documents to the one unpaid invoice.
    server.call(
        "POST",
        "/api/documents",
        Some(owner),
        Some(json!({ "type": "QUOTATION", "client_id": client_id,
                     "lines": [ { "description": "Loan module", "qty": 1, "unit_price": 900_000 } ] })),
    );
    let (status, _, paid) = server.call(
        "POST",
        "/api/payments",
        Some(owner),
        Some(
            json!({ "client_id": client_id, "received_on": "2026-11-02", "amount": 1_180_000, "mode": "upi",
                     "allocations": [ { "document_id": invoice_id, "amount": 1_180_000 } ] }),
        ),
    );
    assert_eq!(status, 201, "{paid}");
    let (_, _, advance) = server.call(
        "POST",
        "/api/payments",
        Some(owner),
        Some(
            json!({ "client_id": client_id, "received_on": "2026-11-03", "amount": 500_000, "mode": "cash" }),
        ),
    );

    let s = office.owner_window();
    s.goto(&server.url(&format!("/documents/{invoice_id}")));
    s.wait_page("document");
    s.wait_text("[data-testid='paid-badge']", "Paid");

    // The payment was recorded against the wrong invoice: cancel it with a reason.
    s.goto(&server.url(&format!("/payments/{}", paid["id"].as_str().unwrap())));
    s.wait_page("payment");
    s.click_button("Cancel payment");
    s.click_button("Cancel payment");
    s.wait_text(".field-error", "Give the reason");
    s.fill("reason", "Recorded against the wrong invoice");
    s.click_button("Cancel payment");
    s.wait_text(
        "[data-testid='cancelled-notice']",
        "Recorded against the wrong invoice",
    );
    s.wait_text("[data-testid='payment-status']", "Cancelled");
    shot(&s, "53-cancelled-payment");
    let (_, _, payment) = server.call(
        "GET",
        &format!("/api/payments/{}", paid["id"].as_str().unwrap()),
        Some(owner),
        None,
    );
    assert_eq!(
        (payment["status"].as_str(), payment["receipt_no"].as_str()),
        (Some("cancelled"), paid["receipt_no"].as_str())
    );

    // The invoice owes again, and "unpaid invoices" is one choice on the list.
    s.goto(&server.url("/documents"));
    s.wait_page("documents");
    s.wait_text("main table tbody", "Quotation");
    crate::common::browser::select(&s, "select[name='payment_state']", "unpaid");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while s.find_all("main table tbody tr").len() != 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the list did not narrow: {}",
            s.page_text()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(s.url().contains("payment_state=unpaid"), "{}", s.url());
    let row = s.wait("main table tbody tr").text();
    assert!(row.contains("Tax invoice") && row.contains("Unpaid"), "{row}");
    shot(&s, "54-unpaid-invoices");

    // Sorted by total on the server, and the CSV link takes the same filters and sort.
    s.find_all("th .sort-btn")
        .into_iter()
        .find(|b| b.text().starts_with("Total"))
        .expect("a sortable Total column")
        .click();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !s.url().contains("sort=total") {
        assert!(std::time::Instant::now() < deadline, "{}", s.url());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let href = s.wait("[data-testid='csv-link']").attribute("href").unwrap();
    assert!(
        href.contains("/api/documents.csv?")
            && href.contains("payment_state=unpaid")
            && href.contains("sort=total"),
        "{href}"
    );
    assert!(!href.contains("page="), "the CSV is the whole list: {href}");
    let url = if href.starts_with("http") {
        href.clone()
    } else {
        server.url(&href)
    };
    let csv = http_call("GET", &url, &[("Cookie", owner.as_str())], None, 30).unwrap();
    let text = csv.text();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.contains("ANCHAL SERVICE CO-OPERATIVE BANK") && text.contains(",unpaid,11800.00,11800.00"),
        "{text}"
    );
    // "Download Excel" beside it: the same list as a workbook, the amount a number in rupees.
    let excel = s.wait("[data-testid='xlsx-link']");
    assert_eq!(excel.text(), "Download Excel");
    let xlsx_href = excel.attribute("href").unwrap();
    assert_eq!(
        xlsx_href,
        href.replace("/api/documents.csv?", "/api/documents.xlsx?")
    );
    let url = if xlsx_href.starts_with("http") {
        xlsx_href.clone()
    } else {
        server.url(&xlsx_href)
    };
    let xlsx = http_call("GET", &url, &[("Cookie", owner.as_str())], None, 30).unwrap();
    assert_eq!(
        xlsx.header("content-type"),
        Some("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    );
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(xlsx.body.clone())).unwrap();
    let sheet = calamine::Reader::worksheet_range_at(&mut book, 0)
        .unwrap()
        .unwrap();
    assert_eq!(sheet.height(), 2);
    assert!(
        sheet
            .rows()
            .nth(1)
            .unwrap()
            .contains(&calamine::Data::Float(11800.0)),
        "{sheet:?}"
    );

    // The advance goes back to the society.
    s.goto(&server.url(&format!("/payments/{}", advance["id"].as_str().unwrap())));
    s.wait_page("payment");
    s.click_button("Refund advance");
    s.fill("reason", "The society dropped the project");
    s.click_button("Refund");
    s.wait_text("[data-testid='refunds']", "The society dropped the project");
    s.wait_text("[data-testid='unallocated']", "₹0.00");
    s.wait_text("[data-testid='refunded']", "₹5,000.00");
    let (_, _, after) = server.call(
        "GET",
        &format!("/api/payments/{}", advance["id"].as_str().unwrap()),
        Some(owner),
        None,
    );
    assert_eq!(
        (after["unallocated"].as_i64(), after["refunded"].as_i64()),
        (Some(0), Some(500_000))
    );
}

#[test]
fn a_society_pays_net_of_tds_and_the_form_splits_it_without_retyping() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let client_id = office.client("PUNALUR SERVICE CO-OPERATIVE BANK");
    // Taxable ₹10,000 + 18% GST = ₹11,800; the society keeps 10% of the taxable value as TDS.
    let (invoice_id, no) = office.issued_invoice(&client_id, "SMS module", 1_000_000);

    let s = office.owner_window();
    s.goto(&server.url(&format!("/payments/new?client_id={client_id}")));
    s.wait_page("payment-new");
    s.wait(&format!(
        "[data-testid='alloc-row'][data-document-id='{invoice_id}']"
    ));
    s.fill("amount", "10,800");
    s.wait("input[name='alloc_pick']").click();
    s.wait("input[name='tds_deducted']").click();
    s.wait_text(
        "[data-testid='alloc-settles']",
        &format!("Settles {no}: ₹10,800.00 received + ₹1,000.00 TDS"),
    );
    s.wait_text("[data-testid='alloc-summary']", "Advance held: ₹0.00");
    shot(&s, "55-payment-net-of-tds");
    s.click_button("Record payment");
    s.wait_page("payment");
    let (_, _, after) = server.call("GET", &format!("/api/documents/{invoice_id}"), Some(owner), None);
    assert_eq!(
        (after["outstanding"].as_i64(), after["payment_state"].as_str()),
        (Some(0), Some("paid")),
        "{after}"
    );
    let (_, _, payments) = server.call("GET", "/api/payments", Some(owner), None);
    assert_eq!(
        (
            payments["rows"][0]["amount"].as_i64(),
            payments["rows"][0]["tds"].as_i64()
        ),
        (Some(1_080_000), Some(100_000))
    );
}

#[test]
fn from_an_invoice_its_row_is_ticked_tds_settles_it_net_and_an_untouched_form_leaves_quietly() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let client_id = office.client("ANCHAL SERVICE CO-OPERATIVE BANK");
    // Taxable ₹10,000 + 18% GST = ₹11,800; the society keeps 10% of the taxable value as TDS.
    let (invoice_id, no) = office.issued_invoice(&client_id, "SMS module", 1_000_000);
    let row = format!("[data-testid='alloc-row'][data-document-id='{invoice_id}']");
    let ticked = |s: &crate::common::webdriver::Session| {
        s.script(
            "return document.querySelector(arguments[0] + \" input[name='alloc_pick']\").checked",
            json!([row]),
        )
    };
    let value_of = |s: &crate::common::webdriver::Session, css: &str| {
        s.script("return document.querySelector(arguments[0]).value", json!([css]))
    };

    let s = office.owner_window();
    // An untouched form (only what the page filled in) leaves without a question.
    s.goto(&server.url(&format!("/payments/new?document_id={invoice_id}")));
    s.wait_page("payment-new");
    s.wait(&row);
    s.wait_text("[data-testid='alloc-summary']", "Allocated: ₹11,800.00");
    assert_eq!(ticked(&s), json!(true));
    s.find_all("a")
        .into_iter()
        .find(|a| a.text().trim() == "← Payments")
        .expect("the Payments crumb")
        .click();
    assert_eq!(s.alert_text(), None);
    s.wait_page("payments");

    // From the invoice page: the row is ticked with the outstanding, and TDS 10% splits it.
    s.goto(&server.url(&format!("/documents/{invoice_id}")));
    s.wait_page("document");
    s.click_button("Record payment");
    s.wait_page("payment-new");
    s.wait(&row);
    s.wait_text("[data-testid='alloc-summary']", "Allocated: ₹11,800.00");
    assert_eq!(ticked(&s), json!(true));
    assert_eq!(value_of(&s, "[name='amount']"), json!("11800.00"));
    s.click_button("TDS 10%");
    s.wait_text(
        "[data-testid='alloc-settles']",
        &format!("Settles {no}: ₹10,800.00 received + ₹1,000.00 TDS"),
    );
    s.wait_text("[data-testid='alloc-summary']", "Advance held: ₹0.00");
    assert_eq!(value_of(&s, "[name='amount']"), json!("10800.00"));
    assert_eq!(
        (
            value_of(&s, &format!("{row} [name='alloc_amount']")),
            value_of(&s, &format!("{row} [name='alloc_tds']"))
        ),
        (json!("10800.00"), json!("1000.00"))
    );
    assert!(s.find_all(".alloc-over").is_empty(), "no over-allocation");
    assert!(
        !s.wait("[data-testid='alloc-summary']")
            .text()
            .contains("more than the payment"),
        "no error in the summary"
    );
    shot(&s, "56-payment-from-invoice-net-of-tds");
    s.click_button("Record payment");
    s.wait_page("payment");
    let (_, _, payments) = server.call("GET", "/api/payments", Some(owner), None);
    let payment_id = payments["rows"][0]["id"].as_str().unwrap();
    let (_, _, payment) = server.call("GET", &format!("/api/payments/{payment_id}"), Some(owner), None);
    assert_eq!(
        (
            payment["amount"].as_i64(),
            payment["unallocated"].as_i64(),
            payment["allocations"].as_array().map(Vec::len),
            payment["allocations"][0]["document_id"].as_str(),
            payment["allocations"][0]["amount"].as_i64(),
            payment["allocations"][0]["tds"].as_i64(),
        ),
        (
            Some(1_080_000),
            Some(0),
            Some(1),
            Some(invoice_id.as_str()),
            Some(1_080_000),
            Some(100_000)
        ),
        "{payment}"
    );
    let (_, _, after) = server.call("GET", &format!("/api/documents/{invoice_id}"), Some(owner), None);
    assert_eq!(
        (after["outstanding"].as_i64(), after["payment_state"].as_str()),
        (Some(0), Some("paid")),
        "{after}"
    );
}

#[test]
fn a_paid_invoice_is_cancelled_only_after_its_payment_moves_to_advance_and_its_links_stop() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let client_id = office.client("KUMMIL SERVICE CO-OPERATIVE BANK");
    let (invoice_id, invoice_no) = office.issued_invoice(&client_id, "Deposit module", 1_000_000);
    let (status, _, paid) = server.call(
        "POST",
        "/api/payments",
        Some(owner),
        Some(
            json!({ "client_id": client_id, "received_on": "2026-11-02", "amount": 1_000_000, "mode": "neft_rtgs",
                     "allocations": [ { "document_id": invoice_id, "amount": 1_000_000 } ] }),
        ),
    );
    assert_eq!(status, 201, "{paid}");
    let receipt = paid["receipt_no"].as_str().unwrap().to_string();
    let (status, _, _) = server.call(
        "POST",
        &format!("/api/documents/{invoice_id}/share"),
        Some(owner),
        Some(json!({})),
    );
    assert_eq!(status, 201);

    let s = office.owner_window();
    s.goto(&server.url(&format!("/documents/{invoice_id}")));
    s.wait_page("document");
    // The invoice lists the payment that settles it.
    s.wait_text("[data-testid='settlements']", &receipt);
    s.click_button("Cancel document");
    let blocked = s.wait_text("[data-testid='cancel-blocked']", &receipt);
    assert!(
        blocked
            .text()
            .contains("cancel each payment, or move it to the payment's advance"),
        "{}",
        blocked.text()
    );
    assert!(
        s.find_all("textarea[name='reason']").is_empty(),
        "no reason is asked yet"
    );
    shot(&s, "174-cancel-blocked");
    s.click_button("Move to advance");
    // Once the payment is moved, the same dialog asks for the reason.
    s.wait("textarea[name='reason']");
    s.wait_text(".dialog-intro", "Its public links stop working.");
    s.fill("reason", "Raised for the wrong society");
    s.click_button("Cancel document");
    s.wait_text("[data-testid='status']", "Cancelled");
    s.wait_text(
        "[data-testid='links-revoked']",
        "Its public links stopped working",
    );
    s.wait_text("[data-testid='shares'] tbody", "revoked");
    shot(&s, "175-cancelled-invoice-links-revoked");

    let (_, _, payment) = server.call(
        "GET",
        &format!("/api/payments/{}", paid["id"].as_str().unwrap()),
        Some(owner),
        None,
    );
    assert_eq!(
        (payment["status"].as_str(), payment["unallocated"].as_i64()),
        (Some("recorded"), Some(1_000_000))
    );
    let (_, _, invoice) = server.call("GET", &format!("/api/documents/{invoice_id}"), Some(owner), None);
    assert_eq!(
        (invoice["status"].as_str(), invoice["docNo"].as_str()),
        (Some("cancelled"), Some(invoice_no.as_str()))
    );
}
