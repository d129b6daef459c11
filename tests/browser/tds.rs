//! Browser test of the TDS certificates page (issue 21): the owner opens it from the navigation,
//! picks the quarter that ended last, sees one society's TDS awaited and another's received,
//! records the awaited Form 16A in place through the dialog (a day before the quarter's end is
//! named on its field first), sees the state and the counts change, revises it to a wrong amount
//! (a mismatch), uploads Form 26AS (a wrong file refused on its field, then the download: one
//! society short filed), and reads the page on a phone. Screenshots 170 to 174, 178 and 179.

use crate::common::browser::{OFFICE_OWNER_PASSWORD, Office, quiet, select, shot, sign_in_home, until};
use crate::common::webdriver::Session;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::{Value, json};

/// The office's today (the company is at UTC+05:30).
fn today() -> NaiveDate {
    (chrono::Utc::now() + Duration::minutes(330)).date_naive()
}

/// The financial year ("2026-27") and quarter ("Q2") of `day`, with the quarter's last day.
fn quarter_of(day: NaiveDate) -> (String, String, NaiveDate) {
    let (fy, n, last) = match day.month() {
        4..=6 => (day.year(), 1, NaiveDate::from_ymd_opt(day.year(), 6, 30)),
        7..=9 => (day.year(), 2, NaiveDate::from_ymd_opt(day.year(), 9, 30)),
        10..=12 => (day.year(), 3, NaiveDate::from_ymd_opt(day.year(), 12, 31)),
        _ => (day.year() - 1, 4, NaiveDate::from_ymd_opt(day.year(), 3, 31)),
    };
    (
        format!("{fy}-{:02}", (fy + 1) % 100),
        format!("Q{n}"),
        last.unwrap(),
    )
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
fn a_form_16a_is_recorded_in_place_and_the_state_follows() {
    let Some(office) = Office::start() else { return };
    let server = &office.server;
    let owner = office.owner.as_str();
    // The quarter that ended last: its year, its name and its last day.
    let now = today();
    let first_of_this = NaiveDate::from_ymd_opt(now.year(), (now.month() - 1) / 3 * 3 + 1, 1).unwrap();
    let (fy, quarter, last) = quarter_of(first_of_this - Duration::days(1));
    let call = |method: &str, path: &str, body: Value| {
        let (status, _, reply) = server.call(method, path, Some(owner), Some(body));
        assert!((200..300).contains(&status), "{path}: {status} {reply}");
        reply
    };
    let client = |name: &str, tan: &str| {
        call(
            "POST",
            "/api/clients",
            json!({ "name": name, "state_code": "32", "tan": tan }),
        )["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let chavara = client("CHAVARA SERVICE CO-OPERATIVE BANK", "TVDC01234F");
    let anchal = client("ANCHAL SERVICE CO-OPERATIVE BANK", "TVDA04321K");
    // Each paid an invoice of ₹10,000 + GST on the quarter's last day, deducting ₹1,000 TDS.
    for who in [&chavara, &anchal] {
        let draft = call(
            "POST",
            "/api/documents",
            json!({ "type": "INVOICE", "client_id": who, "doc_date": (last - Duration::days(20)).to_string(),
                    "lines": [ { "description": "Annual maintenance", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] }),
        );
        let doc = draft["id"].as_str().unwrap();
        call("POST", &format!("/api/documents/{doc}/issue"), json!({}));
        call(
            "POST",
            "/api/payments",
            json!({ "client_id": who, "received_on": last.to_string(), "amount": 1_080_000, "mode": "neft_rtgs",
                    "allocations": [ { "document_id": doc, "amount": 1_080_000, "tds": 100_000 } ] }),
        );
    }
    // Anchal's certificate is in already.
    call(
        "POST",
        "/api/tds-certificates",
        json!({ "client_id": anchal, "fy": fy, "quarter": quarter, "certificate_no": "ANCHQ01",
                "issued_on": last.to_string(), "amount": 100_000 }),
    );

    let s = office.owner_window();
    s.wait_text("nav a[href='/reports/tds']", "TDS certificates")
        .click();
    s.wait_page("tds-certificates");
    select(&s, "select[name=fy]", &fy);
    select(&s, "select[name=quarter]", &quarter);
    until(&s, "the URL holds the year and the quarter", || {
        let url = s.url();
        url.contains(&format!("fy={fy}")) && url.contains(&format!("quarter={quarter}"))
    });
    let row = |id: &str| format!("tr[data-client-id='{id}'][data-quarter='{quarter}']");
    let (mine, theirs) = (row(&chavara), row(&anchal));
    until(&s, "Chavara's quarter is awaited", || {
        s.count(&format!("{mine}[data-state='awaited']")) == 1
    });
    let listed = cells(&s, &mine);
    assert_eq!(
        (
            &listed[0], &listed[1], &listed[2], &listed[3], &listed[4], &listed[5]
        ),
        (
            &json!("CHAVARA SERVICE CO-OPERATIVE BANK TVDC01234F · 194J"),
            &json!(quarter),
            &json!("₹1,000.00"),
            &json!("—"),
            &json!("—"),
            &json!("Awaited")
        )
    );
    assert_eq!(cells(&s, &theirs)[5], "Received");
    assert_eq!(
        s.texts(".tds-chips .chip"),
        json!([
            "All 2",
            "Awaited 1",
            "Received 1",
            "Mismatch",
            "Short filed",
            "Not filed"
        ])
    );
    s.wait_text("[data-testid=tds-totals]", "₹2,000.00");
    shot(&s, "170-tds-certificates");

    // Record Chavara's: the amount comes prefilled with what is booked; a day before the
    // quarter's end is refused on its field, and nothing is written.
    s.wait(&format!("{mine} [data-action=record-certificate]"))
        .click();
    s.wait("dialog[open]");
    assert_eq!(
        s.script(
            "return document.querySelector('dialog[open] input[name=amount]').value",
            json!([])
        ),
        json!("1000.00")
    );
    s.fill("certificate_no", "QWERTYU");
    s.fill(
        "issued_on",
        &(last - Duration::days(1)).format("%d-%m-%Y").to_string(),
    );
    s.click_button("Save certificate");
    s.wait_text("dialog .field-error", "issued after its quarter ends");
    shot(&s, "171-tds-certificate-refused");
    s.fill("issued_on", &last.format("%d-%m-%Y").to_string());
    s.click_button("Save certificate");
    s.wait_text(".toast", "it matches the TDS booked");
    until(&s, "the row is received", || {
        s.count(&format!("{mine}[data-state='received']")) == 1
    });
    let listed = cells(&s, &mine);
    assert_eq!(
        (&listed[3], &listed[5]),
        (&json!("₹1,000.00"), &json!("Received"))
    );
    assert!(
        listed[6].as_str().unwrap().starts_with("QWERTYU issued "),
        "{listed:?}"
    );
    assert_eq!(
        s.texts(".tds-chips .chip"),
        json!([
            "All 2",
            "Awaited",
            "Received 2",
            "Mismatch",
            "Short filed",
            "Not filed"
        ])
    );
    quiet(&s);
    shot(&s, "172-tds-certificate-received");

    // A revised certificate for less: a mismatch, and the chip shows only those.
    s.wait(&format!("{mine} [data-action=record-certificate]"))
        .click();
    s.wait("dialog[open]");
    s.fill("amount", "900");
    s.click_button("Save revised certificate");
    s.wait_text(".toast", "does not match the ₹1,000.00 booked");
    s.wait("button[data-filter='mismatch']").click();
    until(&s, "only the mismatch is listed", || {
        s.count("tr[data-state]") == 1 && s.count(&format!("{mine}[data-state='mismatch']")) == 1
    });
    assert_eq!(cells(&s, &mine)[3], "₹900.00");
    let (_, _, certs) = server.call(
        "GET",
        &format!("/api/reports/tds-receivable?fy={fy}&quarter={quarter}&state=mismatch"),
        Some(owner),
        None,
    );
    assert_eq!(certs["rows"][0]["certificate_no"], "QWERTYU", "{certs}");
    quiet(&s);
    shot(&s, "173-tds-certificate-mismatch");

    // Form 26AS for the year: Chavara deposited ₹600 of the ₹1,000 booked, Anchal all of it.
    // A file that is not the download is refused on its field first, and nothing is kept.
    let dir = tempfile::TempDir::new().unwrap();
    let wrong = dir.path().join("tds.txt");
    std::fs::write(&wrong, "Name,Amount\r\nChavara,600\r\n").unwrap();
    let good = dir.path().join("AABCK1234L-2026.txt");
    let start = &fy[..4];
    let end = start.parse::<i32>().unwrap() + 1;
    let on = last.format("%d-%b-%Y");
    let entries = "^Sr. No.^Section^Transaction Date^Status of Booking^Date of Booking^Remarks^Amount Paid / Credited(Rs.)^Tax Deducted(Rs.)^TDS Deposited(Rs.)";
    std::fs::write(
        &good,
        format!(
            "File Creation Date^Permanent Account Number (PAN)^Current Status of PAN^Financial Year^Assessment Year^Name of Assessee\r\n\
             01-12-{end}^AABCK1234L^Active^{start}-{end}^{end}-{}^SOFTLAND INDIA PRIVATE LIMITED\r\n\
             ^PART-I - Details of Tax Deducted at Source^\r\n\
             Sr. No.^Name of Deductor^TAN of Deductor^^^^^Total Amount Paid / Credited(Rs.)^Total Tax Deducted(Rs.)^Total TDS Deposited(Rs.)\r\n\
             1^CHAVARA SERVICE CO-OPERATIVE BANK^TVDC01234F^^^^^10000.00^1000.00^600.00\r\n{entries}\r\n\
             ^1^194J^{on}^F^{on}^^6000.00^600.00^600.00\r\n^2^194J^{on}^U^{on}^^4000.00^400.00^0.00\r\n\
             2^ANCHAL SERVICE CO-OPERATIVE BANK^TVDA04321K^^^^^10000.00^1000.00^1000.00\r\n{entries}\r\n\
             ^1^194J^{on}^F^{on}^^10000.00^1000.00^1000.00\r\n\
             ^PART-II - Details of Tax Deducted at Source for 15G / 15H^\r\n^No Transactions Present^\r\n",
            end + 1
        ),
    )
    .unwrap();
    s.wait("[data-action=upload-26as]").click();
    s.wait("dialog[open]");
    s.wait("dialog[open] input[name='text']")
        .type_text(wrong.to_str().unwrap());
    s.click_button("Upload and match");
    s.wait_text(
        "dialog .field-error",
        "This is not the text download of Form 26AS",
    );
    shot(&s, "178-form-26as-refused");
    s.wait("dialog[open] input[name='text']")
        .type_text(good.to_str().unwrap());
    s.click_button("Upload and match");
    s.wait_text(
        ".toast",
        &format!("Form 26AS {fy} read: 2 deductors, 3 entries. Quarters: 1 matched, 1 short, 0 not filed, 0 deposited without a booking."),
    );
    s.wait("button[data-filter='short_filed']").click();
    until(&s, "Chavara is short filed", || {
        s.count("tr[data-state]") == 1 && s.count(&format!("{mine}[data-state='short_filed']")) == 1
    });
    let listed = cells(&s, &mine);
    assert_eq!(
        (&listed[4], &listed[5]),
        (&json!("₹600.00"), &json!("Short filed"))
    );
    assert_eq!(
        s.texts(".tds-chips .chip"),
        json!([
            "All 2",
            "Awaited",
            "Received 1",
            "Mismatch",
            "Short filed 1",
            "Not filed"
        ])
    );
    quiet(&s);
    shot(&s, "179-form-26as-short-filed");

    // On a phone the page reads without the page itself scrolling sideways.
    let phone = office.driver.phone_session(390, 844);
    sign_in_home(&phone, server, "owner@localhost", OFFICE_OWNER_PASSWORD);
    phone.goto(&server.url(&format!("/reports/tds?fy={fy}&quarter={quarter}")));
    phone.wait(&mine);
    let overflow = phone.script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth",
        json!([]),
    );
    let wide = phone.script(
        "return [document.documentElement, document.body, ...document.querySelectorAll('body *')].filter((e) => e.scrollWidth > e.clientWidth + 1).slice(0, 12).map((e) => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '/' + e.clientWidth + ' ' + getComputedStyle(e).overflowX)",
        json!([]),
    );
    shot(&phone, "174-tds-certificates-phone");
    assert!(
        overflow.as_i64().unwrap() <= 0,
        "the page is wider than the phone: {overflow} {wide}"
    );
    shot(&phone, "174-tds-certificates-phone");
}
