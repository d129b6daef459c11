//! Browser tests of service contracts and recurring plans: the owner records a contract (the
//! form names the wrong field first), renews it and lands on the renewal invoice draft; the
//! owner sets up a plan with a priced line, sees it parked with its reason after the generation
//! failed for a lost client, and retries it into an issued invoice.

use crate::common::browser::{Office, select, shot, until};
use crate::common::webdriver::Session;
use serde_json::json;

fn company(office: &Office) {
    let (status, _, _) = office.server.call(
        "PUT",
        "/api/settings/company",
        Some(&office.owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200);
}

/// Chooses the client `id` in the dialog's client picker once the clients are read.
fn pick_client(s: &Session, id: &str) {
    s.wait(&format!("select[name='client_id'] option[value='{id}']"));
    select(s, "select[name='client_id']", id);
}

#[test]
fn a_contract_is_recorded_in_the_console_and_renewed_into_an_invoice_draft() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    company(&office);
    let client_id = office.client("CHAVARA SERVICE CO-OPERATIVE BANK");

    let s = office.owner_window();
    s.goto(&server.url("/contracts"));
    s.wait_page("contracts");
    s.click_button("New contract");
    pick_client(&s, &client_id);
    s.fill("description", "Core banking AMC");
    s.fill("period_from", "01-04-2026");
    s.fill("period_to", "31-03-2026");
    s.fill("amount", "25,000");
    s.click_button("Save contract");
    s.wait_text(".field-error", "The period cannot end before it starts.");
    s.wait("[name='period_to'][aria-invalid='true']");
    assert_eq!(
        s.script(
            "return document.querySelector(\"[name='period_to']\").value",
            json!([])
        ),
        json!("31-03-2026"),
        "the typed date stays for the person to fix"
    );
    shot(&s, "80-contract-form-errors");
    s.fill("period_to", "31-03-2027");
    s.fill("amount", "25,000");
    s.click_button("Save contract");
    s.wait_text("[data-testid='contracts'] tbody", "Core banking AMC");
    s.wait_text("[data-testid='paid-state']", "Not renewed");
    let row = s.wait("[data-testid='contracts'] tbody tr").text();
    assert!(
        row.contains("01-04-2026 – 31-03-2027") && row.contains("₹25,000.00"),
        "{row}"
    );
    shot(&s, "81-contracts");

    // Renew: asked first, then the new invoice draft opens.
    s.click_button("Renew");
    s.click_button("Renew contract");
    s.wait_page("document");
    s.wait_text("[data-testid='total']", "₹29,500.00");
    s.wait_text(
        "[data-testid='doc-preview']",
        "Annual maintenance: Core banking AMC, 01-04-2027 to 31-03-2028",
    );
    shot(&s, "82-renewal-draft");
    let draft_id = s.url().rsplit('/').next().unwrap().to_string();
    let (_, _, list) = server.call("GET", "/api/service-contracts", Some(owner), None);
    assert_eq!(
        (
            list["rows"][0]["renewal_invoice_id"].as_str(),
            list["rows"][0]["paid_state"].as_str()
        ),
        (Some(draft_id.as_str()), Some("draft"))
    );
    s.goto(&server.url("/contracts"));
    s.wait_page("contracts");
    s.wait_text("[data-testid='paid-state']", "Renewal draft");
    s.wait_text("[data-testid='renewal-link']", "Draft invoice");
}

#[test]
fn a_parked_plan_shows_its_reason_and_is_retried_into_an_issued_invoice() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    company(&office);
    let client_id = office.client("ANCHAL SERVICE CO-OPERATIVE BANK");
    let today = (chrono::Utc::now() + chrono::Duration::minutes(330)).date_naive();

    let s = office.owner_window();
    s.goto(&server.url("/recurring-plans"));
    s.wait_page("recurring-plans");
    s.click_button("New plan");
    pick_client(&s, &client_id);
    s.fill("next_run", &today.format("%d-%m-%Y").to_string());
    s.fill("description", "Cloud hosting");
    s.fill("unit_price", "5,000");
    s.wait_text("[data-testid='total']", "₹5,900.00");
    shot(&s, "83-plan-form");
    s.click_button("Save plan");
    s.wait_text("[data-testid='plans'] tbody", "Cloud hosting");
    let (_, _, plans) = server.call("GET", "/api/recurring-plans", Some(owner), None);
    let plan = &plans["rows"][0];
    assert_eq!(
        (
            plan["next_run"].as_str(),
            plan["interval"].as_str(),
            plan["lines"][0]["unit_price"].as_i64()
        ),
        (Some(today.to_string().as_str()), Some("monthly"), Some(500_000))
    );

    // The society is lost before the day's generation: the plan is parked with the reason.
    let client = format!("/api/clients/{client_id}");
    let (status, _, _) = server.call("PATCH", &client, Some(owner), Some(json!({ "status": "lost" })));
    assert_eq!(status, 200);
    let (status, _, counts) = server.call(
        "POST",
        "/api/jobs/recurring_generation/run",
        Some(owner),
        Some(json!({ "as_of": today.to_string() })),
    );
    assert_eq!((status, counts["parked"].as_i64()), (200, Some(1)), "{counts}");
    s.goto(&server.url("/recurring-plans"));
    s.wait_page("recurring-plans");
    s.wait_text(
        "[data-testid='parked-reason']",
        "ANCHAL SERVICE CO-OPERATIVE BANK is marked lost: it is not billed.",
    );
    s.wait("[data-testid='parked-badge']");
    shot(&s, "84-plan-parked");

    // Active again: the retry issues today's invoice and the park is gone.
    let (status, _, _) = server.call("PATCH", &client, Some(owner), Some(json!({ "status": "active" })));
    assert_eq!(status, 200);
    s.click_button("Retry");
    s.click_button("Retry now");
    until(&s, "the plan to run again", || {
        s.find_all("[data-testid='parked-reason']").is_empty()
    });
    s.wait_text("[data-testid='plans'] tbody", "-0001");
    shot(&s, "85-plan-retried");
    let (_, _, plans) = server.call("GET", "/api/recurring-plans", Some(owner), None);
    let plan = &plans["rows"][0];
    let invoice = plan["last_invoice_id"].as_str().unwrap();
    let (_, _, doc) = server.call("GET", &format!("/api/documents/{invoice}"), Some(owner), None);
    assert_eq!(
        (
            doc["status"].as_str(),
            doc["doc_date"].as_str(),
            doc["total"].as_i64(),
            &plan["parked_reason"]
        ),
        (
            Some("issued"),
            Some(today.to_string().as_str()),
            Some(590_000),
            &serde_json::Value::Null
        )
    );
}
