//! The GSTR-1 export in the browser (issue 21): the month's warnings come first, each with a link
//! to where it is fixed; fixing the company profile takes its warning away; the totals and the
//! sections (issue 36: with B2C large, CDNUR, nil-rated, HSN B2B and B2C and the documents issued)
//! show with a download of each offline-tool sheet and of the portal's JSON.

use crate::common::browser::{Office, shot};
use chrono::{Datelike, Duration};
use serde_json::json;

#[test]
fn the_month_is_read_warned_and_downloaded() {
    let Some(office) = Office::start() else { return };
    let server = &office.server;
    let today = (chrono::Utc::now() + Duration::minutes(330)).date_naive();
    let period = today.format("%Y-%m").to_string();
    let body = "32AAACC1234A1Z";
    let gstin = format!("{body}{}", backoffice::plumbing::gstin::check_char(body).unwrap());
    let (status, _, chavara) = server.call(
        "POST",
        "/api/clients",
        Some(&office.owner),
        Some(json!({ "name": "Chavara SCB", "gstin": gstin })),
    );
    assert_eq!(status, 201, "{chavara}");
    let (status, _, draft) = server.call(
        "POST",
        "/api/documents",
        Some(&office.owner),
        Some(json!({ "type": "INVOICE", "client_id": chavara["id"], "doc_date": today.with_day(1).unwrap().to_string(),
                     "lines": [ { "description": "Deposit module", "sac": "998314", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] })),
    );
    assert_eq!(status, 201, "{draft}");
    let (status, _, _) = server.call(
        "POST",
        &format!("/api/documents/{}/issue", draft["id"].as_str().unwrap()),
        Some(&office.owner),
        Some(json!({})),
    );
    assert_eq!(status, 200);
    // The office is in Kerala (its GSTIN still unset), so Karnataka is inter-state.
    let (status, _, reply) = server.call(
        "PUT",
        "/api/settings/company",
        Some(&office.owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "state_code": "32" })),
    );
    assert_eq!(status, 200, "{reply}");
    // A society without a GSTIN in Karnataka, invoiced ₹1,50,000 of training: B2C large.
    let (status, _, mysuru) = server.call(
        "POST",
        "/api/clients",
        Some(&office.owner),
        Some(json!({ "name": "Mysuru Housing Society", "state_code": "29" })),
    );
    assert_eq!(status, 201, "{mysuru}");
    let (status, _, large) = server.call(
        "POST",
        "/api/documents",
        Some(&office.owner),
        Some(json!({ "type": "INVOICE", "client_id": mysuru["id"], "doc_date": today.with_day(1).unwrap().to_string(),
                     "lines": [ { "description": "Staff training", "sac": "998314", "qty": 1, "unit_price": 15_000_000, "gst_rate": 18 } ] })),
    );
    assert_eq!(status, 201, "{large}");
    let large_id = large["id"].as_str().unwrap().to_string();
    let (status, _, _) = server.call(
        "POST",
        &format!("/api/documents/{large_id}/issue"),
        Some(&office.owner),
        Some(json!({})),
    );
    assert_eq!(status, 200);
    // A society without a GSTIN, invoiced a line without a SAC code.
    let anchal = office.client("Anchal Women's Society");
    let (no_sac, _) = office.issued_invoice(&anchal, "Data correction", 300_000);

    let s = office.owner_window();
    s.goto(&server.url("/reports"));
    s.wait_page("reports");
    s.find_all("a[href='/reports/gstr1']")[0].click();
    s.wait_page("gstr1");
    s.goto(&server.url(&format!("/reports/gstr1?period={period}")));
    s.wait_page("gstr1");
    s.wait("[data-testid='gstr1-warnings']");
    assert_eq!(
        s.texts("[data-testid='gstr1-warnings'] li[data-code]")
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let codes = s.script(
        "return [...document.querySelectorAll('[data-testid=gstr1-warnings] li')].map((li) => li.dataset.code);",
        json!([]),
    );
    assert_eq!(codes, json!(["company_without_gstin", "missing_sac"]));
    // ₹10,000 + ₹1,50,000 + ₹3,000 taxable; IGST 27,000; CGST 900 + 270.
    let totals = s.texts("[data-testid='gstr1-totals'] dd");
    assert_eq!(
        totals,
        json!(["₹1,63,000.00", "₹27,000.00", "₹1,170.00", "₹1,170.00"])
    );
    // b2b, b2cl, b2cs, cdnr, cdnur, nil, hsn_b2b, hsn_b2c, hsn, docs.
    let counts = s.texts("[data-testid='gstr1-sections'] tbody tr td:nth-child(2)");
    assert_eq!(counts, json!(["1", "1", "1", "0", "0", "0", "1", "2", "2", "1"]));
    // Table 13: the month's one invoice series, its three invoices, none cancelled.
    let docs = s.texts("[data-testid='gstr1-docs'] tbody tr td");
    let docs = docs.as_array().unwrap();
    assert_eq!(docs[0], json!("Invoices for outward supply"));
    assert_eq!(&docs[3..], [json!("3"), json!("0"), json!("3")]);
    // The B2C large invoice, listed on its own.
    assert_eq!(
        s.count(&format!(
            "[data-testid='gstr1-b2cl'] tbody tr[data-id='{large_id}']"
        )),
        1
    );
    assert_eq!(s.count("[data-testid='gstr1-csv-b2cl']"), 1);
    let href = s.find_all("[data-testid='gstr1-csv-b2b']")[0]
        .attribute("href")
        .unwrap();
    assert_eq!(
        href,
        format!("/api/reports/gstr1?period={period}&format=csv&section=b2b")
    );
    let (status, _, _) = server.call("GET", &href, Some(&office.owner), None);
    assert_eq!(status, 200);
    assert_eq!(
        s.find_all("[data-testid='gstr1-portal']")[0]
            .attribute("href")
            .unwrap(),
        format!("/api/reports/gstr1?period={period}&format=portal")
    );
    shot(&s, "165-gstr1-warnings");

    // The document's warning opens the document.
    s.find_all("li[data-code='missing_sac'] a")[0].click();
    s.wait_page("document");
    assert!(s.url().ends_with(&format!("/documents/{no_sac}")), "{}", s.url());

    // The company profile's GSTIN takes its warning away.
    let (status, _, reply) = server.call(
        "PUT",
        "/api/settings/company",
        Some(&office.owner),
        Some(json!({ "name": "Softland India", "address": "Kollam", "gstin": "32AABCK1234L1ZV" })),
    );
    assert_eq!(status, 200, "{reply}");
    s.goto(&server.url(&format!("/reports/gstr1?period={period}")));
    s.wait_page("gstr1");
    s.wait("li[data-code='missing_sac']");
    assert_eq!(s.count("li[data-code='company_without_gstin']"), 0);

    s.set_window(390, 844);
    s.wait("[data-testid='gstr1-totals']");
    shot(&s, "166-gstr1-phone");
}
