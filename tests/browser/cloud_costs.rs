//! Browser test of cloud costs (issue 20): the owner enters a society's cost of last month in
//! the dialog (an empty amount is named on its field first), sees it in the months list, changes
//! it from the row (one row stays), reads the ranking as a table and as bars, sets the provider
//! (the token write-only) and pulls last month from a fake provider on loopback, and the
//! figures follow. Screenshots 130 to 135.

use crate::common::browser::{
    OFFICE_OWNER_PASSWORD, owner_session, quiet, select, shot, sign_in_home, until,
};
use crate::common::cloud::FakeCloud;
use crate::common::server::Server;
use crate::common::webdriver::{Driver, Session};
use backoffice::plumbing::clock::Month;
use chrono::Duration;
use serde_json::{Value, json};

const TOKEN: &str = "browser-cloud-token-42";

/// The office's current month (the company is at UTC+05:30).
fn this_month() -> Month {
    Month::of((chrono::Utc::now() + Duration::minutes(330)).date_naive())
}

fn client(server: &Server, owner: &str, name: &str) -> String {
    let (status, _, body) = server.call(
        "POST",
        "/api/clients",
        Some(owner),
        Some(json!({ "name": name, "state_code": "32" })),
    );
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().unwrap().to_string()
}

/// The texts of the cells of the row `css`, spaces collapsed.
fn cells(s: &Session, css: &str) -> Value {
    s.wait(css);
    s.script(
        "return [...document.querySelector(arguments[0]).children].map((td) => td.textContent.replace(/\\s+/g, ' ').trim());",
        json!([css]),
    )
}

#[test]
fn a_cost_is_entered_listed_ranked_and_pulled_from_the_provider() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    // The fake provider listens on loopback, which the guarded outbound client refuses by default.
    let server = Server::start_with_env(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some("owner-initial-pw"),
        &[("BACKOFFICE_ALLOW_PRIVATE_TARGETS", "1")],
    );
    let owner = owner_session(&server, "owner-initial-pw", OFFICE_OWNER_PASSWORD);
    let anchal = client(&server, &owner, "ANCHAL SERVICE CO-OPERATIVE BANK");
    let kadakkal = client(&server, &owner, "KADAKKAL SERVICE CO-OPERATIVE BANK");
    let last = this_month().previous();
    let (status, _, body) = server.call(
        "PUT",
        "/api/cloud-costs",
        Some(&owner),
        Some(json!({ "rows": [
            { "client_id": kadakkal, "month": last.to_string(), "amount": 450_000 },
            { "client_id": kadakkal, "month": last.previous().to_string(), "amount": 400_000 },
        ] })),
    );
    assert_eq!(status, 200, "{body}");

    let s = driver.session(1366, 900);
    sign_in_home(&s, &server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    s.wait_text("nav a[href='/reports/cloud-costs']", "Cloud costs")
        .click();
    s.wait_page("cloud-costs");
    s.wait(&format!("tr[data-client-id='{kadakkal}'][data-month='{last}']"));
    shot(&s, "130-cloud-costs-months");

    // Enter Anchal's cost of last month: without an amount the field says what is missing.
    s.click_button("Enter a cost");
    s.wait("dialog[open]");
    s.fill("client_search", "Anchal");
    until(&s, "the picker chooses the one client found", || {
        s.script(
            "return document.querySelector('select[name=client_id]')?.value",
            json!([]),
        ) == json!(anchal)
    });
    select(&s, "select[name=month]", &last.to_string());
    s.click_button("Enter cost");
    s.wait_text("dialog .field-error", "Give the month's cost in rupees");
    shot(&s, "131-cloud-cost-dialog");
    s.fill("amount", "1,234.50");
    s.click_button("Enter cost");
    s.wait_text(".toast", "₹1,234.50");
    let row = format!("tr[data-client-id='{anchal}'][data-month='{last}']");
    until(&s, "the new cost is listed", || {
        cells(&s, &row)[2] == json!("₹1,234.50")
    });
    let listed = cells(&s, &row);
    assert_eq!(listed[1], "ANCHAL SERVICE CO-OPERATIVE BANK");
    assert_eq!(listed[3], "Entered");
    quiet(&s);
    shot(&s, "132-cloud-cost-entered");

    // Change it from its row: replaced, still one row for that month.
    s.wait(&format!("{row} [data-action=edit-cost]")).click();
    s.wait("dialog[open]");
    s.fill("amount", "1,500");
    s.click_button("Save cost");
    s.wait_text(".toast", "₹1,500.00");
    until(&s, "the cost is replaced", || {
        cells(&s, &row)[2] == json!("₹1,500.00")
    });
    assert_eq!(s.count(&format!("tr[data-client-id='{anchal}']")), 1);

    // The ranking: the last 12 months, costliest first, as a table and as bars.
    s.wait("button[data-filter='ranking']").click();
    s.wait("[data-testid=cost-ranking]");
    let first = format!("[data-testid=cost-ranking] tr[data-client-id='{kadakkal}']");
    let second = format!("[data-testid=cost-ranking] tr[data-client-id='{anchal}']");
    assert_eq!(
        cells(&s, &first),
        json!([
            "1",
            "KADAKKAL SERVICE CO-OPERATIVE BANK",
            "₹8,500.00",
            "2",
            "₹4,250.00"
        ])
    );
    assert_eq!(
        cells(&s, &second),
        json!([
            "2",
            "ANCHAL SERVICE CO-OPERATIVE BANK",
            "₹1,500.00",
            "1",
            "₹1,500.00"
        ])
    );
    s.wait_text("[data-testid=ranking-total]", "₹10,000.00");
    assert_eq!(s.count("[data-testid=ranking-chart] .bar-row"), 2);
    let widths = s.script(
        "return [...document.querySelectorAll('[data-testid=ranking-chart] rect.bar')].map((r) => r.getBoundingClientRect().width)",
        json!([]),
    );
    let widths: Vec<f64> = widths
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_f64().unwrap())
        .collect();
    assert!(widths[0] > widths[1] * 5.0, "the bars are to scale: {widths:?}");
    shot(&s, "133-cloud-cost-ranking");

    // The provider: the token is never shown back; then pull last month.
    let provider = FakeCloud::start(TOKEN);
    provider.report(
        &last.to_string(),
        &[(&anchal, json!("2000.00")), ("SOMEONE-ELSES-CLIENT", json!(10))],
    );
    s.fill("api_url", &provider.url);
    s.fill("token", TOKEN);
    s.click_button("Save provider");
    s.wait_text(".toast", "Cloud-cost provider saved.");
    s.wait_text("[data-testid=cloud-provider]", "A token is stored.");
    assert_eq!(
        s.script(
            "return document.querySelector('input[name=token]').value",
            json!([])
        ),
        json!("")
    );
    assert!(!s.page_text().contains(TOKEN));
    s.click_button("Pull now");
    let result = s.wait("[data-testid=pull-result]").text();
    assert!(
        result.contains(&format!("Pulled {}", month_label(last)))
            && result.contains("1 written, 0 unchanged")
            && result.contains("SOMEONE-ELSES-CLIENT"),
        "{result}"
    );
    assert_eq!(
        provider.requests(),
        [(format!("month={last}"), Some(format!("Bearer {TOKEN}")))]
    );
    // The ranking reads again: Anchal's month is the provider's figure now.
    until(&s, "the ranking follows the pull", || {
        cells(&s, &second)[2] == json!("₹2,000.00")
    });
    quiet(&s);
    shot(&s, "134-cloud-cost-pulled");

    // The months list shows where the figure came from.
    s.wait("button[data-filter='months']").click();
    until(&s, "the pulled row is marked", || {
        cells(&s, &row)[3] == json!("Pulled")
    });

    // On a phone the ranking's bars keep their text readable (they scroll sideways).
    let phone = driver.phone_session(390, 844);
    sign_in_home(&phone, &server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    phone.goto(&server.url("/reports/cloud-costs?view=ranking"));
    phone.wait("[data-testid=ranking-chart]");
    shot(&phone, "135-cloud-cost-ranking-phone");
}

/// "October 2026", as the console writes a month.
fn month_label(m: Month) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let text = m.to_string();
    let (year, month) = text.split_once('-').unwrap();
    format!("{} {year}", MONTHS[month.parse::<usize>().unwrap() - 1])
}
