//! Browser test of the legacy import as an office moving in from spreadsheets does it: a CSV with
//! its own headers is picked in the page, the row whose amount cannot be read is listed with its
//! message and holds the commit back, it is corrected in the row's dialog and checked again, the
//! client already in the registry is set to be updated, and the commit, after a confirmation that
//! says what will be written, creates the clients and the legacy invoices (read back beside the
//! staged totals). Then an old-system encrypted password is cleared from the same page. And a
//! file numbered far past the office's own series is warned of before the commit, its gap then
//! reported as one range the import explains.

use crate::common::browser::{
    OFFICE_OWNER_PASSWORD, Office, owner_session, quiet, select, shot, sign_in_home, until,
};
use crate::common::server::Server;
use crate::common::webdriver::{Driver, Session};
use serde_json::json;
use std::time::Duration;

/// Headers as an old spreadsheet writes them (read by their aliases, "Remarks" ignored); row 5's
/// total is not an amount.
const CSV: &str = "Society Name,GSTIN No.,District,Sector,AnyDesk,OS,Invoice No,Invoice Date,Invoice Total,Balance,Remarks\r\n\
\"Kallada Service Co-operative Bank Ltd, No 1432\",32AABAK1234C1ZI,Kollam,Banking,123 456 789,Windows 10,INV/24-25-0101,15-04-2024,\"11,800.00\",0,\r\n\
\"Kallada Service Co-operative Bank Ltd, No 1432\",32AABAK1234C1ZI,Kollam,Banking,123 456 789,Windows 10,INV/24-25-0102,02/05/2024,\"₹5,900.00\",\"5,900.00\",\r\n\
Kundara Service Co-operative Bank,,Kollam,Banking,,Windows 11,INV/23-24-0007,10-01-2024,\"1,180\",,already a client\r\n\
Perinad Vanitha Society,,Kollam,Women,,,INV/24-25-0103,01-06-2024,12x,,\r\n";

fn button_disabled(s: &Session, text: &str) -> bool {
    s.script(
        "return [...document.querySelectorAll('button')].find(b => b.textContent.trim() === arguments[0]).disabled",
        json!([text]),
    ) == json!(true)
}

#[test]
fn a_legacy_file_is_staged_corrected_and_committed_and_old_credentials_are_cleared() {
    let Some(driver) = Driver::start() else { return };
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("office.db");
    let server = Server::start(&data, &dir.path().join("server.log"), Some("owner-initial-pw"));
    let owner = owner_session(&server, "owner-initial-pw", OFFICE_OWNER_PASSWORD);
    let (status, _, kundara) = server.call(
        "POST",
        "/api/clients",
        Some(&owner),
        Some(json!({ "name": "Kundara Service Co-operative Bank", "state_code": "32" })),
    );
    assert_eq!(status, 201, "{kundara}");
    let file = dir.path().join("old-clients.csv");
    std::fs::write(&file, CSV).unwrap();

    let s = driver.session(1366, 900);
    sign_in_home(&s, &server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    s.goto(&server.url("/import"));
    s.wait_page("import");
    s.wait_text("[data-testid='legacy-none']", "Nothing to clear");
    shot(&s, "96-import-empty");
    // A file without a name column is refused whole, in words.
    let refused_file = dir.path().join("codes.csv");
    std::fs::write(&refused_file, "Client Code,Amount\r\nK-1432,1180\r\n").unwrap();
    s.wait("input[name='csv_file']")
        .type_text(refused_file.to_str().unwrap());
    s.wait_text(
        "[data-testid='stage-error']",
        "The file has no name column: the first row must hold the headers, one of them \"name\".",
    );
    assert!(s.find_all("[data-testid='import-summary']").is_empty());

    // The old system's onboarding checklist travels with the file.
    s.fill("checklist", "Agreement signed\nData migrated\n");
    s.wait("input[name='csv_file']").type_text(file.to_str().unwrap());
    s.wait_text("[data-testid='import-checklist']", "Data migrated");

    // The problem row is listed (the list opens on problems) with its message, and holds the
    // commit back.
    let problem = s.wait_text(
        "[data-testid='import-rows'] tr[data-row='5']",
        "\"12x\" is not an amount in rupees, such as 1,180.00.",
    );
    assert!(
        problem.text().contains("Amount not readable"),
        "{}",
        problem.text()
    );
    assert_eq!(s.find_all("[data-testid='import-rows'] tbody tr").len(), 1);
    s.wait_text("[data-count='problems'] dd", "1");
    let counts = s.wait("[data-testid='import-counts']").text();
    for (label, n) in [
        ("Rows", "4"),
        ("New clients", "2"),
        ("Clients updated", "1"),
        ("Invoices to record", "4"),
    ] {
        assert!(counts.contains(&format!("{label}\n{n}")), "{label} {n}: {counts}");
    }
    let columns = s.wait("[data-testid='import-columns']").text();
    assert!(
        columns.contains("GSTIN No.\n→\nGSTIN") && columns.contains("Remarks\n→\nignored"),
        "{columns}"
    );
    s.wait_text("[data-testid='problem-kinds']", "Amount not readable");
    s.wait_text("[data-testid='verification-total']", "₹18,880.00");
    s.wait_text("[data-testid='verification'] tr[data-fy='24-25']", "₹17,700.00");
    s.wait_text(
        "[data-testid='commit-reason']",
        "Correct or exclude the row with a problem first.",
    );
    assert!(button_disabled(&s, "Review and commit"));
    let (status, _, refused) = server.call("POST", "/api/import/commit", Some(&owner), Some(json!({})));
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (409, Some("import_has_problems"))
    );
    quiet(&s);
    shot(&s, "90-import-staged");

    // Corrected in the row's dialog, which names the cell at fault; checked again at once.
    s.click_button("Correct");
    s.wait_text(".dialog .field-error", "\"12x\" is not an amount in rupees");
    s.wait(".dialog [name='invoice_total'][aria-invalid='true']");
    shot(&s, "95-import-row-dialog");
    s.fill("invoice_total", "1,180.00");
    s.click_button("Save and check");
    s.wait_text(
        "[data-testid='row-result']",
        "Row 5 checked again: no problems left",
    );
    until(&s, "the dialog closes", || s.find_all("dialog[open]").is_empty());
    s.wait_text("[data-count='problems'] dd", "0");
    s.wait_text("[data-testid='verification-total']", "₹20,060.00");
    until(&s, "no commit reason", || {
        s.find_all("[data-testid='commit-reason']").is_empty()
    });
    s.wait_text("[data-testid='import-rows']", "No row has a problem");

    // Every row, and the client already in the registry: skipped for all, then updated again.
    s.click_button("All rows");
    s.wait_text("[data-testid='import-rows'] tr[data-row='5']", "Ready");
    let kundara_row = "[data-testid='import-rows'] tr[data-row='4']";
    s.wait_text(kundara_row, "In the registry: Kundara Service Co-operative Bank");
    let choice = format!("{kundara_row} select[name='row_action']");
    let chosen = || {
        s.script(
            "const el = document.querySelector(arguments[0]); return el && el.value",
            json!([choice]),
        )
    };
    assert_eq!(chosen(), json!("update"));
    s.click_button("Skip all existing");
    s.wait_text("[data-count='to_skip'] dd", "1");
    until(&s, "the row is skipped", || chosen() == json!("skip"));
    select(&s, &choice, "update");
    s.wait_text("[data-count='to_update'] dd", "1");
    until(&s, "the row is updated", || chosen() == json!("update"));

    // A row left out and brought back.
    let row_button = |row: &str, text: &str| {
        s.find_all(&format!(
            "[data-testid='import-rows'] tr[data-row='{row}'] button"
        ))
        .into_iter()
        .find(|b| b.text() == text)
        .unwrap_or_else(|| panic!("no {text} on row {row}: {}", s.page_text()))
        .click()
    };
    row_button("5", "Exclude");
    s.wait_text("[data-testid='import-rows'] tr[data-row='5']", "Excluded");
    s.wait_text("[data-count='excluded'] dd", "1");
    s.wait_text("[data-count='invoices'] dd", "3");
    row_button("5", "Include");
    s.wait_text("[data-count='excluded'] dd", "0");
    s.wait_text("[data-testid='import-rows'] tr[data-row='5']", "New client");
    quiet(&s);
    shot(&s, "91-import-row-fixed");

    // The commit says what it will write, then shows what it did and the totals read back.
    s.click_button("Review and commit");
    let summary = s.wait("[data-testid='commit-summary']").text();
    assert!(
        summary.contains("Create 2 clients, update 1 and record 4 invoices.")
            && summary.contains("Series INV 24-25 continues after INV/24-25-0103")
            && summary.contains("Series INV 23-24 continues after INV/23-24-0007")
            && summary.contains("The old system's checklist of 2 steps becomes the whole checklist"),
        "{summary}"
    );
    shot(&s, "97-import-commit-confirm");
    s.click_button("Commit import");
    let result = s.wait("[data-testid='import-result']").text();
    for line in [
        "2 clients created",
        "1 client updated",
        "4 legacy invoices recorded",
        "INV 2024-25: continues after INV/24-25-0103",
    ] {
        assert!(result.contains(line), "{line}: {result}");
    }
    s.wait_text(
        "[data-testid='verification-match']",
        "The recorded invoices match the staged file",
    );
    s.wait_text("[data-testid='recorded-total']", "₹20,060.00");
    until(&s, "no row actions once committed", || {
        s.find_all("[data-testid='import-rows'] .row-actions").is_empty()
    });
    quiet(&s);
    shot(&s, "92-import-committed");
    let (_, _, templates) = server.call("GET", "/api/settings/milestones", Some(&owner), None);
    assert_eq!(
        templates["legacy"],
        json!([{ "key": "agreement_signed", "label": "Agreement signed" }, { "key": "data_migrated", "label": "Data migrated" }])
    );

    let sql = rusqlite::Connection::open(&data).unwrap();
    sql.busy_timeout(Duration::from_secs(5)).unwrap();
    let one = |q: &str| -> String { sql.query_row(q, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        one(
            "SELECT group_concat(name || '|' || COALESCE(gstin, '') || '|' || COALESCE(os, ''), ';') FROM (SELECT * FROM client ORDER BY name)"
        ),
        "Kallada Service Co-operative Bank Ltd, No 1432|32AABAK1234C1ZI|Windows 10;\
         Kundara Service Co-operative Bank||Windows 11;Perinad Vanitha Society||"
    );
    assert_eq!(
        one(
            "SELECT group_concat(doc_no || '|' || doc_date || '|' || total || '|' || legacy_paid, ';')
               FROM (SELECT * FROM document WHERE source = 'legacy' ORDER BY doc_no)"
        ),
        "INV/23-24-0007|2024-01-10|118000|118000;INV/24-25-0101|2024-04-15|1180000|1180000;\
         INV/24-25-0102|2024-05-02|590000|0;INV/24-25-0103|2024-06-01|118000|118000"
    );
    let perinad_invoice = one("SELECT id FROM document WHERE doc_no = 'INV/24-25-0103'");

    // The legacy invoice's page says where it came from.
    s.goto(&server.url(&format!("/documents/{perinad_invoice}")));
    s.wait_page("document");
    s.wait_text("[data-testid='timeline']", "Imported from the old system");
    assert_eq!(
        s.script(
            "return [...document.querySelectorAll('.detail')].find(d => d.querySelector('dt').textContent === 'Origin').querySelector('dd').textContent",
            json!([])
        ),
        json!("Imported from the old system")
    );
    shot(&s, "94-legacy-invoice");

    // An old-system encrypted password, as a migrated data file holds it, is cleared.
    sql.execute(
        "UPDATE client SET db_password = 'enc:U2FsdGVkX1' WHERE name = 'Perinad Vanitha Society'",
        [],
    )
    .unwrap();
    s.goto(&server.url("/import"));
    s.wait_page("import");
    s.wait_text("[data-testid='legacy-db_passwords']", "1");
    s.click_button("Clear 1 value");
    s.wait_text(
        ".confirm-dialog",
        "1 client DB password from the old system is emptied for good.",
    );
    s.click_button("Clear values");
    s.wait_text("[data-testid='legacy-cleared']", "Cleared 1 value");
    s.wait_text(
        "[data-testid='legacy-cleared']",
        "1 client DB password: now empty.",
    );
    s.wait_text("[data-testid='legacy-none']", "Nothing to clear");
    s.script(
        "document.querySelector(\"[data-testid='legacy-credentials']\").scrollIntoView({ block: 'center' })",
        json!([]),
    );
    quiet(&s);
    shot(&s, "93-legacy-credentials");
    assert_eq!(
        one("SELECT COUNT(*) || '' FROM client WHERE db_password IS NOT NULL"),
        "0"
    );
}

/// The office has issued INV/…-0001 by itself; the old system's file brings INV/…-0900 of the
/// same series. The import page warns of the gap before the commit button and again in the
/// confirmation, and after the commit the continuity report shows the gap as one range that
/// the imported invoice explains.
#[test]
fn a_gap_the_import_opens_is_warned_before_the_commit_and_reported_as_a_range_it_explains() {
    let Some(office) = Office::start() else { return };
    let client = office.client("Anchal SCB");
    let (id, first) = office.issued_invoice(&client, "Support for the year", 1_000_000);
    let fy = first["INV/".len().."INV/".len() + 5].to_string();
    assert_eq!(first, format!("INV/{fy}-0001"));
    let (_, _, doc) = office
        .server
        .call("GET", &format!("/api/documents/{id}"), Some(&office.owner), None);
    let today = doc["doc_date"].as_str().unwrap().to_string();
    let dir = tempfile::TempDir::new().unwrap();
    let file = dir.path().join("old-invoices.csv");
    std::fs::write(
        &file,
        format!("name,invoice_no,invoice_date,invoice_total\r\nMylom PACS,INV/{fy}-0900,{today},1180\r\n"),
    )
    .unwrap();

    let s = office.owner_window();
    s.goto(&office.server.url("/import"));
    s.wait_page("import");
    s.wait("input[name='csv_file']").type_text(file.to_str().unwrap());
    let series =
        format!("[data-testid='import-summary'] [data-testid='import-warnings'] li[data-series='INV/{fy}']");
    s.wait_text(&series, &format!("INV/{fy}: 0002–0899 (898 numbers) missing"));
    // The warning stands above the commit button.
    assert_eq!(
        s.script(
            "const w = document.querySelector(\"[data-testid='import-warnings']\");
             const b = [...document.querySelectorAll('button')].find(b => b.textContent.trim() === 'Review and commit');
             return !!(w.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING)",
            json!([])
        ),
        json!(true)
    );
    quiet(&s);
    shot(&s, "98-import-gap-warning");
    s.click_button("Review and commit");
    s.wait_text(
        "[data-testid='commit-summary'] [data-testid='import-warnings']",
        "0002–0899 (898 numbers)",
    );
    s.click_button("Commit, leaving the gaps");
    s.wait_text("[data-testid='import-result']", "1 legacy invoice recorded");

    s.goto(&office.server.url("/reports/number-continuity"));
    s.wait_page("number-continuity");
    let row = format!("[data-testid='continuity-table'] tr[data-prefix='INV'][data-fy='{fy}']");
    let gap = s.wait_text(&format!("{row} [data-testid='gap']"), "0002–0899 (898 numbers)");
    assert_eq!(gap.attribute("data-explained").as_deref(), Some("1"));
    s.wait_text(
        &format!("{row} [data-testid='gap-explained']"),
        &format!("explained by the import: the old system's INV/{fy}-0900"),
    );
    assert_eq!(s.find_all(&format!("{row} [data-testid='gap']")).len(), 1);
    s.wait_text(
        "[data-testid='continuity-summary']",
        "1 gap lies next to the old system's imported numbers.",
    );
    quiet(&s);
    shot(&s, "99-continuity-gap-explained");
}
