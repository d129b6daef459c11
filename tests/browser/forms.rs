//! Browser tests of the forms' guard: a date the console cannot read is never replaced by the
//! field's previous value. On the payment, document and interaction forms, a mistyped date shows
//! "Write the date as DD-MM-YYYY" (a day its month lacks, that there is no such date), takes the
//! cursor, and nothing is written. Several invalid fields show at once, each beside its field.

use crate::common::browser::{Office, shot, until};
use crate::common::webdriver::Session;
use serde_json::{Value, json};

const DATE_ERROR: &str = "Write the date as DD-MM-YYYY";

/// The name of the control that has the cursor.
fn focused(s: &Session) -> String {
    s.script(
        "const e = document.activeElement; return e && (e.name || e.outerHTML.slice(0, 80))",
        json!([]),
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// The error shown beside the control `name`.
fn error_beside(s: &Session, name: &str) -> String {
    s.wait(&format!(".field.has-error [name='{name}'][aria-invalid='true']"));
    s.script(
        "return document.querySelector(`[name='${arguments[0]}']`).closest('.field').querySelector('.field-error').textContent",
        json!([name]),
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

#[test]
fn a_date_that_cannot_be_read_stops_the_save_and_nothing_is_written() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let client_id = office.client("CHADAYAMANGALAM SERVICE CO-OPERATIVE BANK");
    let (status, _, draft) = server.call(
        "POST",
        "/api/documents",
        Some(owner),
        Some(json!({ "type": "QUOTATION", "client_id": client_id,
                     "lines": [ { "description": "Loan module", "qty": 1, "unit_price": 2_500_000 } ] })),
    );
    assert_eq!(status, 201, "{draft}");
    let draft_id = draft["id"].as_str().unwrap().to_string();

    let s = office.owner_window();

    // A payment dated 15/11/26 is not recorded dated today.
    s.goto(&server.url(&format!("/payments/new?client_id={client_id}")));
    s.wait_page("payment-new");
    s.fill("amount", "5000");
    s.fill("received_on", "15/11/26");
    s.click_button("Record payment");
    assert!(error_beside(&s, "received_on").contains(DATE_ERROR));
    assert_eq!(focused(&s), "received_on");
    shot(&s, "15-unreadable-payment-date");
    assert!(
        s.url().ends_with(&format!("/payments/new?client_id={client_id}")),
        "{}",
        s.url()
    );
    let (_, _, payments) = server.call("GET", "/api/payments", Some(owner), None);
    assert_eq!(payments["total"], 0, "{payments}");

    // A quotation dated 31-11-2026 is neither saved nor issued dated today; the field says
    // why (issue 34).
    let no_such_date = "31-11-2026: there is no such date (November has 30 days in 2026).";
    s.goto(&server.url(&format!("/documents/{draft_id}")));
    s.wait_page("document");
    s.fill("doc_date", "31-11-2026");
    s.click_button("Issue");
    assert_eq!(error_beside(&s, "doc_date"), no_such_date);
    assert_eq!(focused(&s), "doc_date");
    assert!(
        s.find_all("button").iter().all(|b| b.text() != "Issue now"),
        "no confirmation opens while the date is unreadable"
    );
    s.click_button("Save draft");
    assert_eq!(error_beside(&s, "doc_date"), no_such_date);
    let (_, _, doc) = server.call("GET", &format!("/api/documents/{draft_id}"), Some(owner), None);
    assert_eq!(
        (doc["status"].as_str(), doc["doc_date"].as_str()),
        (Some("draft"), None),
        "{doc}"
    );
    let (_, _, audit) = server.call(
        "GET",
        &format!("/api/audit?entity_id={draft_id}"),
        Some(owner),
        None,
    );
    assert_eq!(audit["total"], 1, "only the create is audited: {audit}");

    // An interaction's follow-up is not dropped: the entry is not logged without it.
    s.goto(&server.url(&format!("/clients/{client_id}")));
    s.wait_page("client");
    s.click_button("Log interaction");
    s.fill("notes", "Asked for the loan module demo.");
    s.fill("follow_up_on", "15/11/26");
    s.click_button("Save interaction");
    assert!(error_beside(&s, "follow_up_on").contains(DATE_ERROR));
    assert_eq!(focused(&s), "follow_up_on");
    let (_, _, interactions) = server.call(
        "GET",
        &format!("/api/interactions?client_id={client_id}"),
        Some(owner),
        None,
    );
    assert_eq!(interactions["total"], 0, "{interactions}");

    // Corrected, it goes through with the date typed.
    s.fill("follow_up_on", "15-12-2026");
    s.click_button("Save interaction");
    s.wait_text("[data-page='client']", "Asked for the loan module demo.");
    let (_, _, interactions) = server.call(
        "GET",
        &format!("/api/interactions?client_id={client_id}"),
        Some(owner),
        None,
    );
    assert_eq!(
        interactions["rows"][0]["follow_up_on"], "2026-12-15",
        "{interactions}"
    );

    // Several invalid fields come back at once, each beside its field.
    s.goto(&server.url("/clients/new"));
    s.wait_page("client-new");
    s.fill("phone", "12");
    s.fill("email", "not-an-email");
    s.click_button("Create client");
    assert_eq!(error_beside(&s, "name"), "Enter the society's name.");
    assert!(error_beside(&s, "phone").contains("6 to 15 digits"));
    assert!(error_beside(&s, "email").contains("email"));
    assert_eq!(focused(&s), "name");
    s.fill("name", "ANCHAL SERVICE CO-OPERATIVE BANK");
    s.click_button("Create client");
    assert!(error_beside(&s, "phone").contains("6 to 15 digits"));
    assert!(error_beside(&s, "email").contains("email"));
    until(&s, "the cursor on the phone", || focused(&s) == "phone");
    shot(&s, "16-several-field-errors");

    // Leaving with the changes unsaved asks first; declined, the form keeps what was typed.
    let nav_link = |label: &str| {
        s.find_all("nav a")
            .into_iter()
            .find(|a| a.text().trim() == label)
            .unwrap_or_else(|| panic!("a {label} link in the navigation"))
    };
    nav_link("Documents").click();
    let asked = s.alert_text().expect("a question before leaving");
    assert!(asked.contains("not saved"), "{asked}");
    s.answer_alert(false);
    assert!(s.url().ends_with("/clients/new"), "{}", s.url());
    let kept = s.script(
        "return document.querySelector(\"[name='name']\").value",
        json!([]),
    );
    assert_eq!(kept, "ANCHAL SERVICE CO-OPERATIVE BANK");
    nav_link("Documents").click();
    s.answer_alert(true);
    s.wait_page("documents");
}

/// The value of the control `name`.
fn value_of(s: &Session, name: &str) -> String {
    s.wait(&format!("[name='{name}']"));
    s.script(
        "return document.querySelector(`[name='${arguments[0]}']`).value",
        json!([name]),
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// The company, invitation and password forms show every invalid field at once, each beside its
/// field, the first with the cursor, whether the console or the server found them (issue 34).
#[test]
fn the_company_invitation_and_password_forms_show_every_error_at_once() {
    let Some(office) = Office::start() else { return };
    let server = &office.server;
    let s = office.owner_window();

    // The company profile: the server names the four at once.
    s.goto(&server.url("/settings/company"));
    s.wait_page("company");
    s.wait("[name='name']").clear();
    s.fill("gstin", "32AABCK1234L1Z");
    s.fill("email", "nope");
    s.fill("utc_offset", "IST");
    s.click_button("Save company");
    assert!(error_beside(&s, "name").contains("legal name"));
    assert!(
        error_beside(&s, "gstin").contains("GSTIN"),
        "{}",
        error_beside(&s, "gstin")
    );
    assert_eq!(error_beside(&s, "email"), "Enter a valid email address.");
    assert_eq!(error_beside(&s, "utc_offset"), "Give the offset as +05:30.");
    assert_eq!(focused(&s), "name");
    shot(&s, "16b-company-several-errors");

    // The invitation: the console's own checks together, then the server's together.
    s.goto(&server.url("/employees"));
    s.wait_page("employees");
    s.click_button("Invite employee");
    s.click_button("Invite");
    assert_eq!(error_beside(&s, "name"), "Enter the employee's name.");
    assert_eq!(error_beside(&s, "email"), "Enter the employee's email address.");
    assert_eq!(focused(&s), "name");
    s.fill("name", "Meera Pillai");
    s.fill("email", "not-an-email");
    s.fill("phone", "12");
    s.click_button("Invite");
    assert_eq!(error_beside(&s, "email"), "Enter a valid email address.");
    assert_eq!(
        error_beside(&s, "phone"),
        "Enter a phone number of 6 to 15 digits."
    );
    assert_eq!(focused(&s), "email");
    shot(&s, "16c-invitation-several-errors");
    let (_, _, staff) = server.call("GET", "/api/employees", Some(&office.owner), None);
    assert_eq!(staff["total"], 1, "{staff}");

    // One's own password: empty fields together, then a wrong current and a weak new one.
    s.goto(&server.url("/profile"));
    s.wait_page("profile");
    s.click_button("Change password");
    assert_eq!(
        error_beside(&s, "current_password"),
        "Enter your current password."
    );
    assert_eq!(error_beside(&s, "new_password"), "Enter a new password.");
    assert_eq!(focused(&s), "current_password");
    s.fill("current_password", "a guess at it");
    s.fill("new_password", "short");
    s.fill("confirm_password", "short");
    s.click_button("Change password");
    assert_eq!(
        error_beside(&s, "current_password"),
        "The current password is not right."
    );
    assert_eq!(error_beside(&s, "new_password"), "Use at least 10 characters.");
    assert_eq!(focused(&s), "current_password");
    shot(&s, "16d-password-several-errors");
}

/// A day its month lacks says so on its field and saves nothing; emptied document and due dates
/// of a draft are cleared by the save and stay empty (issue 34).
#[test]
fn an_impossible_date_says_so_and_emptied_dates_are_cleared_in_the_editor() {
    let Some(office) = Office::start() else { return };
    let (server, owner) = (&office.server, &office.owner);
    let client_id = office.client("CHADAYAMANGALAM SERVICE CO-OPERATIVE BANK");
    let (status, _, draft) = server.call(
        "POST",
        "/api/documents",
        Some(owner),
        Some(json!({ "type": "INVOICE", "client_id": client_id, "doc_date": "2026-11-02", "dueDate": "2026-11-20",
                     "lines": [ { "description": "Loan module", "qty": 1, "unit_price": 2_500_000, "gst_rate": 18 } ] })),
    );
    assert_eq!(status, 201, "{draft}");
    let id = draft["id"].as_str().unwrap().to_string();
    let dates = || {
        let (_, _, doc) = server.call("GET", &format!("/api/documents/{id}"), Some(owner), None);
        (doc["doc_date"].clone(), doc["due_date"].clone())
    };

    let s = office.owner_window();
    s.goto(&server.url(&format!("/documents/{id}")));
    s.wait_page("document");
    assert_eq!(value_of(&s, "doc_date"), "02-11-2026");
    s.fill("doc_date", "31-02-2026");
    s.click_button("Save draft");
    assert_eq!(
        error_beside(&s, "doc_date"),
        "31-02-2026: there is no such date (February has 28 days in 2026)."
    );
    assert_eq!(focused(&s), "doc_date");
    shot(&s, "15b-no-such-date");
    assert_eq!(dates(), (json!("2026-11-02"), json!("2026-11-20")));

    // Emptied, both dates are cleared, and stay so on the next visit.
    s.wait("[name='doc_date']").clear();
    s.wait("[name='dueDate']").clear();
    s.click_button("Save draft");
    s.wait_text(".toast", "Draft saved.");
    assert_eq!(dates(), (Value::Null, Value::Null));
    s.goto(&server.url(&format!("/documents/{id}")));
    s.wait_page("document");
    assert_eq!(
        (value_of(&s, "doc_date"), value_of(&s, "dueDate")),
        (String::new(), String::new())
    );
}
