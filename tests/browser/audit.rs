//! Browser test of the audit viewer as a person reads it: records by name as links, money in
//! rupees, dates as DD-MM-YYYY, codes as words, and what changed marked old → new.

use crate::common::browser::{Office, shot};
use serde_json::json;

#[test]
fn the_audit_trail_reads_in_names_rupees_dates_and_words() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let client_id = office.client("Readable Society");
    let (invoice_id, invoice_no) = office.issued_invoice(&client_id, "Loan module", 1_000_000);
    let (status, _, paid) = server.call(
        "POST",
        "/api/payments",
        Some(owner),
        Some(json!({ "client_id": client_id, "received_on": "2026-11-02", "amount": 1_180_000, "mode": "neft_rtgs",
                     "allocations": [ { "document_id": invoice_id, "amount": 1_180_000 } ] })),
    );
    assert_eq!(status, 201, "{paid}");
    let receipt_no = paid["receipt_no"].as_str().unwrap().to_string();
    let (status, _, anita) = server.call(
        "POST",
        "/api/employees",
        Some(owner),
        Some(json!({ "email": "anita@coop.in", "name": "Anita Kumar", "role": "staff" })),
    );
    assert_eq!(status, 201, "{anita}");
    let (status, _, moved) = server.call(
        "PATCH",
        &format!("/api/clients/{client_id}/owner"),
        Some(owner),
        Some(json!({ "owner_id": anita["id"] })),
    );
    assert_eq!(status, 200, "{moved}");
    let (_, _, invoice) = server.call("GET", &format!("/api/documents/{invoice_id}"), Some(owner), None);
    let doc_date = invoice["doc_date"].as_str().unwrap();
    let dd_mm_yyyy = format!("{}-{}-{}", &doc_date[8..10], &doc_date[5..7], &doc_date[0..4]);

    let s = office.owner_window();

    // The payment settled the invoice: the row names the invoice; its changes, the receipt.
    s.goto(&server.url("/audit?action=payment_allocated"));
    s.wait_page("audit");
    let record = s.wait_text("table tbody", &invoice_no);
    assert!(record.text().contains("Document"), "{}", record.text());
    let link = s
        .find_all("table tbody td a")
        .into_iter()
        .find(|a| a.text() == invoice_no)
        .expect("the invoice number is a link");
    assert!(
        link.attribute("href")
            .unwrap()
            .ends_with(&format!("/documents/{invoice_id}")),
        "{:?}",
        link.attribute("href")
    );
    s.click_button("Show changes");
    let diff = s.wait_text(".diff", "Outstanding");
    let text = diff.text();
    for shown in ["Payment", &receipt_no, "₹11,800.00", "₹0.00", "TDS"] {
        assert!(text.contains(shown), "{shown} in {text}");
    }
    assert!(!text.contains("1180000"), "paise are not shown: {text}");
    assert!(
        !text.contains(paid["id"].as_str().unwrap()),
        "the payment by its receipt, not its id: {text}"
    );
    assert_eq!(
        s.find_all(".diff del.diff-old").len(),
        1,
        "the old outstanding, struck through"
    );
    assert!(
        s.find_all(".diff a").iter().any(|a| a.text() == receipt_no
            && a.attribute("href")
                .unwrap()
                .ends_with(&format!("/payments/{}", paid["id"].as_str().unwrap()))),
        "the receipt is a link"
    );
    shot(&s, "70-audit-readable");

    // Issued: the number and the date as DD-MM-YYYY.
    s.goto(&server.url("/audit?action=issued"));
    s.wait_text("table tbody", &invoice_no);
    s.click_button("Show changes");
    let diff = s.wait_text(".diff", "Document no.");
    assert!(diff.text().contains(&dd_mm_yyyy), "{}", diff.text());
    assert!(!diff.text().contains(doc_date), "{}", diff.text());

    // Recorded: the mode in words, the amount in rupees.
    s.goto(&server.url("/audit?entity=payment&action=recorded"));
    s.wait_text("table tbody", &receipt_no);
    s.click_button("Show changes");
    let diff = s.wait_text(".diff", "NEFT/RTGS");
    assert!(diff.text().contains("₹11,800.00"), "{}", diff.text());
    assert!(!diff.text().contains("neft_rtgs"), "{}", diff.text());

    // The account owner by name; the client's name opens the client.
    s.goto(&server.url("/audit?action=set_owner"));
    s.wait_text("table tbody", "Readable Society");
    s.click_button("Show changes");
    s.wait_text(".diff", "Account owner");
    s.wait_text(".diff ins", "Anita Kumar");
    shot(&s, "71-audit-owner");
    s.find_all("table tbody td a")
        .into_iter()
        .find(|a| a.text() == "Readable Society")
        .unwrap()
        .click();
    s.wait_page("client");
    assert!(s.url().ends_with(&format!("/clients/{client_id}")), "{}", s.url());
}
