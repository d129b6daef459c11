//! Browser test of the reminder queue as the office works it: the navigation's count, a quote
//! follow-up previewed (refused until the address of public links is set, then sent), the
//! schedule drawn as a timeline and saved, a selection dismissed after a question, and the jobs
//! page's Run now.

use crate::common::browser::{OFFICE_OWNER_PASSWORD, owner_session, select, shot, sign_in_home};
use crate::common::mail::{FakeMail, TOKEN};
use crate::common::server::Server;
use crate::common::webdriver::Driver;
use chrono::{Days, NaiveDate};
use serde_json::{Value, json};

#[test]
fn the_queue_previews_sends_and_dismisses_and_the_schedule_is_a_timeline() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let mail = FakeMail::start();
    let server = Server::start_with_env(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some("owner-initial-pw"),
        &[("BACKOFFICE_ALLOW_PRIVATE_TARGETS", "1")],
    );
    let owner = owner_session(&server, "owner-initial-pw", OFFICE_OWNER_PASSWORD);
    let call = |method: &str, path: &str, body: Value| -> Value {
        let (status, _, reply) = server.call(method, path, Some(&owner), Some(body));
        assert!(status < 300, "{method} {path}: {status} {reply}");
        reply
    };
    call(
        "PUT",
        "/api/settings/company",
        json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" }),
    );
    call(
        "PUT",
        "/api/settings/mail",
        json!({ "api_url": mail.url, "from": "billing@softland.in", "token": TOKEN }),
    );
    let client = call(
        "POST",
        "/api/clients",
        json!({ "name": "Kadakkal SCB", "state_code": "32", "email": "office@kadakkal.coop" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let line =
        json!([ { "description": "Deposit module", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ]);
    let quote = call(
        "POST",
        "/api/documents",
        json!({ "type": "QUOTATION", "client_id": client, "lines": line }),
    );
    let quote_id = quote["id"].as_str().unwrap().to_string();
    let issued = call("POST", &format!("/api/documents/{quote_id}/issue"), json!({}));
    call("POST", &format!("/api/documents/{quote_id}/mark-sent"), json!({}));
    let sent_on = NaiveDate::parse_from_str(&issued["doc_date"].as_str().unwrap()[..10], "%Y-%m-%d").unwrap();
    let scan_day = sent_on.checked_add_days(Days::new(3)).unwrap();
    call(
        "POST",
        "/api/interactions",
        json!({ "client_id": client, "type": "call", "notes": "Ask about the audit module", "follow_up_on": scan_day.to_string() }),
    );
    let scan = call(
        "POST",
        "/api/jobs/daily-scan",
        json!({ "as_of": scan_day.to_string() }),
    );
    assert_eq!(scan["created"]["quote_followup"], 1, "{scan}");
    assert_eq!(scan["created"]["follow_up"], 1, "{scan}");

    let s = driver.session(1366, 900);
    sign_in_home(&s, &server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    // The navigation counts the open reminders.
    s.wait_text("[data-testid=reminders-badge]", "2");
    s.goto(&server.url("/reminders"));
    s.wait_page("reminders");
    s.wait_text("[data-testid=reminders] tbody", "Ask about the audit module");

    // The follow-up's preview: the exact email, and why it cannot go yet.
    s.click_button("Quote follow-up");
    let pane = s.wait_text("[data-testid=email-subject]", "Following up on our quotation");
    assert!(pane.text().contains("QT/"), "{}", pane.text());
    s.wait_text("[data-testid=email-to]", "office@kadakkal.coop");
    s.wait_text("[data-testid=email-text]", "We sent you our quotation");
    s.wait_text("[data-testid=warning-share_base_url_unset]", "share.base_url");
    let send = s
        .find_all("[data-testid=reminder-preview] button")
        .into_iter()
        .find(|b| b.text() == "Send email")
        .expect("a Send email button");
    assert!(
        !send.enabled(),
        "refused until the address of public links is set"
    );
    shot(&s, "72-reminder-preview");

    // The schedule as a timeline; a bad ladder is named, a good one saved.
    s.goto(&server.url("/settings/reminders"));
    s.wait_page("reminder-settings");
    s.wait("[data-testid=timeline-quote_followup] .timeline-rung[data-day='14']");
    s.fill("quote_followup.day_offsets", "2, x");
    s.click_button("Save schedule");
    s.wait_text(".field-error", "Whole numbers of days");
    s.fill("quote_followup.day_offsets", "3, 10, 21");
    s.wait("[data-testid=timeline-quote_followup] .timeline-rung[data-day='21']");
    s.fill("invoice_overdue.days_after", "1, 1");
    s.click_button("Save schedule");
    s.wait_text(".field-error", "Each day appears once");
    s.fill("invoice_overdue.days_after", "1, 15, 30, 60");
    s.click_button("Save schedule");
    s.wait_text(".toast", "Schedule saved");
    let (_, _, saved) = server.call("GET", "/api/settings/reminders", Some(&owner), None);
    assert_eq!(saved["quote_followup"]["day_offsets"], json!([3, 10, 21]));
    assert_eq!(saved["invoice_overdue"]["days_after"], json!([1, 15, 30, 60]));
    shot(&s, "73-reminder-schedule");

    // The address of public links, set on the letterhead page's link settings.
    s.goto(&server.url("/settings/template"));
    s.wait_page("template-settings");
    s.wait_text("[data-testid=base-url-unset]", "quote follow-up");
    s.fill("base_url", "https://office.example.in");
    s.click_button("Save link settings");
    s.wait_text(".toast", "Link settings saved");

    // Sent from the pane: the link is made now, the email goes once.
    s.goto(&server.url("/reminders"));
    s.wait_page("reminders");
    s.click_button("Quote follow-up");
    s.wait_text(
        "[data-testid=warning-link_on_send]",
        "made when the email is sent",
    );
    s.click_button("Send email");
    s.wait_text(".toast", "Sent to office@kadakkal.coop");
    s.wait("[data-testid=reminder-preview][data-status='sent']");
    let received = mail.received();
    assert_eq!(received.len(), 1);
    assert!(
        received[0]["TextBody"]
            .as_str()
            .unwrap()
            .contains("https://office.example.in/share/"),
        "{}",
        received[0]
    );
    s.wait_text("[data-testid=reminders-badge]", "1");

    // The rest ticked and dismissed after a question.
    s.click_button("Close");
    select(&s, "select[name=status]", "all");
    s.wait_text("[data-testid=reminders] tbody", "Sent");
    select(&s, "select[name=status]", "");
    s.wait_text("[data-testid=reminders] tbody", "Ask about the audit module");
    s.wait("input[name=select]").click();
    s.click_button("Dismiss selected");
    s.wait_text("dialog, [role=dialog]", "Dismiss 1 reminder?");
    s.click_button("Dismiss");
    s.wait_text(".toast", "1 reminder dismissed");
    s.wait_text("[data-testid=reminders]", "Nothing to chase");
    assert!(s.find_all("[data-testid=reminders-badge]").is_empty());

    // The jobs page: the last run, and Run now.
    s.goto(&server.url("/jobs"));
    s.wait_page("jobs");
    s.wait("[data-testid=job-daily_scan][data-outcome='ok']");
    s.click_button("Run now");
    s.wait_text("[data-testid=job-result]", "raised");
    shot(&s, "74-jobs");
}

/// Issue 34: a reminder read days after it was raised says its days as of today, and the
/// sentence of the day it was raised stays under it as history, in the list and in the pane.
#[test]
fn the_queue_shows_todays_days_with_the_raising_days_reason_as_history() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("office.db");
    let server = Server::start(&data, &dir.path().join("server.log"), Some("owner-initial-pw"));
    let owner = owner_session(&server, "owner-initial-pw", OFFICE_OWNER_PASSWORD);
    let call = |method: &str, path: &str, body: Value| -> Value {
        let (status, _, reply) = server.call(method, path, Some(&owner), Some(body));
        assert!(status < 300, "{method} {path}: {status} {reply}");
        reply
    };
    call(
        "PUT",
        "/api/settings/company",
        json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" }),
    );
    let client = call(
        "POST",
        "/api/clients",
        json!({ "name": "Kadakkal SCB", "state_code": "32", "email": "office@kadakkal.coop" }),
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    let today = (chrono::Utc::now() + chrono::Duration::minutes(330)).date_naive();
    let back = |n: u64| today.checked_sub_days(Days::new(n)).unwrap();
    let (doc_date, due, raised) = (back(45), back(30), back(11));
    let draft = call(
        "POST",
        "/api/documents",
        json!({ "type": "INVOICE", "client_id": client, "doc_date": doc_date.to_string(), "dueDate": due.to_string(),
                "lines": [ { "description": "Deposit module", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] }),
    );
    let id = draft["id"].as_str().unwrap();
    let doc_no = call("POST", &format!("/api/documents/{id}/issue"), json!({}))["docNo"]
        .as_str()
        .unwrap()
        .to_string();
    let scan = call(
        "POST",
        "/api/jobs/daily-scan",
        json!({ "as_of": raised.to_string() }),
    );
    assert_eq!(scan["created"]["invoice_overdue"], 1, "{scan}");
    let sql = rusqlite::Connection::open(&data).unwrap();
    sql.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    sql.execute(
        "UPDATE reminder SET created_at = ?1",
        [format!("{raised}T06:00:00Z")],
    )
    .unwrap();

    let s = driver.session(1366, 900);
    sign_in_home(&s, &server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    s.goto(&server.url("/reminders"));
    s.wait_page("reminders");
    let (due_text, raised_text) = (due.format("%d-%m-%Y"), raised.format("%d-%m-%Y"));
    let now = format!("{doc_no} is 30 days overdue (due {due_text}); ₹11,800.00 outstanding.");
    let then = format!(
        "When raised ({raised_text}): {doc_no} is 19 days overdue (due {due_text}); ₹11,800.00 outstanding."
    );
    s.wait_text("[data-testid=reminders] [data-testid=reminder-summary]", &now);
    assert_eq!(
        s.wait("[data-testid=reminders] [data-testid=reminder-raised]")
            .text(),
        then
    );
    // The pane: the same two lines above an email that says the same 30 days.
    s.click_button("Invoice overdue");
    s.wait_text("[data-testid=email-subject]", "is 30 days overdue");
    assert_eq!(
        s.wait("[data-testid=reminder-preview] [data-testid=reminder-summary]")
            .text(),
        now
    );
    assert_eq!(
        s.wait("[data-testid=reminder-preview] [data-testid=reminder-raised]")
            .text(),
        then
    );
    s.wait_text("[data-testid=email-text]", "and is now 30 days overdue");
    shot(&s, "75-reminder-summary");
}
