//! Browser test of the Tally export page (issue 36): the owner opens it from the reports index,
//! is told on its field that a ledger needs a name, renames the sales ledger, sets the period's
//! end, and the "Download Tally XML" link then gives the period's invoice posted to the new
//! name, with the client's `&` and `<` escaped. Screenshot 177.

use crate::common::browser::{Office, quiet, shot, until};
use chrono::Duration;
use serde_json::json;

#[test]
fn the_ledger_names_set_on_the_page_are_in_the_download() {
    let Some(office) = Office::start() else { return };
    let client = office.client("A & B <Co>");
    let (_, doc_no) = office.issued_invoice(&client, "Annual maintenance", 1_000_000);
    // The office's today (UTC+05:30): the invoice's date.
    let today = (chrono::Utc::now() + Duration::minutes(330)).date_naive();

    let s = office.owner_window();
    s.goto(&office.server.url("/reports"));
    s.wait_text("a[href='/reports/tally']", "Tally export").click();
    s.wait_page("tally-export");
    until(&s, "the ledger names are loaded", || {
        s.script(
            "return document.querySelector('[name=sales_ledger]')?.value",
            json!([]),
        ) == json!("Sales")
    });

    // An empty ledger name is named on its field, and nothing is saved.
    s.fill("sales_ledger", " ");
    s.click_button("Save ledger names");
    s.wait_text(
        "[data-testid=tally-ledgers-form] .field-error",
        "Give the Sales ledger's name",
    );
    s.fill("sales_ledger", "Software Sales & AMC");
    s.click_button("Save ledger names");
    s.wait_text(".toast", "Tally ledger names saved");
    let (_, _, saved) = office
        .server
        .call("GET", "/api/settings/tally", Some(&office.owner), None);
    assert_eq!(saved["sales_ledger"], "Software Sales & AMC", "{saved}");

    // The period ends on the office's today; the links follow it.
    s.fill("to", &today.format("%d-%m-%Y").to_string());
    s.wait("[name=from]").click();
    let to = format!("to={today}");
    until(&s, "the download link holds the period", || {
        s.wait("[data-testid=tally-download]")
            .attribute("href")
            .is_some_and(|h| h.contains(&to) && h.contains("from="))
    });
    let ledgers = s
        .wait("[data-testid=tally-download-ledgers]")
        .attribute("href")
        .unwrap();
    assert!(
        ledgers.contains("masters=1") && ledgers.contains(&to),
        "{ledgers}"
    );
    let href = s.wait("[data-testid=tally-download]").attribute("href").unwrap();
    let got = s.script_async(
        "const done = arguments[arguments.length - 1];
         fetch(arguments[0]).then(async (r) => done([r.status, r.headers.get('content-type'), await r.text()]));",
        json!([href]),
    );
    assert_eq!(
        (&got[0], &got[1]),
        (&json!(200), &json!("application/xml; charset=utf-8")),
        "{got}"
    );
    let xml = got[2].as_str().unwrap();
    assert!(
        xml.contains("<LEDGERNAME>Software Sales &amp; AMC</LEDGERNAME>"),
        "{xml}"
    );
    assert!(
        xml.contains("<PARTYLEDGERNAME>A &amp; B &lt;Co&gt;</PARTYLEDGERNAME>"),
        "{xml}"
    );
    assert!(
        xml.contains(&format!("<VOUCHERNUMBER>{doc_no}</VOUCHERNUMBER>")),
        "{xml}"
    );
    quiet(&s);
    shot(&s, "177-tally-export");
}
