//! Lists sort server-side on their whitelisted columns with ties on the id, and every list has
//! a CSV twin: the whole filtered, sorted list, in the book of the caller, amounts in rupees,
//! with no secret in it.

use crate::common::TestApp;
use axum::http::{StatusCode, header};
use serde_json::json;

/// The data lines of a CSV answer, each split into cells (no cell here holds a comma).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[tokio::test]
async fn lists_sort_on_their_columns_and_their_csv_twins_carry_every_row_in_the_callers_book() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (staff_id, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    app.set_company(&owner, json!({})).await;
    let mut clients = vec![];
    for (name, owner_id) in [
        ("Anchal SCB", Some(&staff_id)),
        ("Kadakkal SCB", None),
        ("Chadayamangalam SCB", None),
    ] {
        let mut body = json!({ "name": name, "state_code": "32" });
        if let Some(o) = owner_id {
            body["owner_id"] = json!(o);
        }
        clients.push(
            app.post("/api/clients", &owner, body).await.body["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    // Three quotations with totals 2,000, 1,000 and 2,000 (one line each, no GST).
    let mut ids = vec![];
    for (client, price) in [
        (&clients[0], 200_000),
        (&clients[1], 100_000),
        (&clients[2], 200_000),
    ] {
        let reply = app
            .post(
                "/api/documents",
                &owner,
                json!({ "type": "QUOTATION", "client_id": client,
                        "lines": [ { "description": "Loan module", "qty": 1, "unit_price": price, "gst_rate": 0 } ] }),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        ids.push(reply.body["id"].as_str().unwrap().to_string());
    }

    // Largest total first; the two equal totals break on the id, in the same direction.
    let sorted = app.get("/api/documents?sort=-total", &owner).await;
    let order: Vec<(&str, i64)> = sorted.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["total"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        order,
        [
            (ids[2].as_str(), 200_000),
            (ids[0].as_str(), 200_000),
            (ids[1].as_str(), 100_000)
        ]
    );
    let by_client = app.get("/api/documents?sort=client_name", &owner).await;
    let names: Vec<&str> = by_client.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["client_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Anchal SCB", "Chadayamangalam SCB", "Kadakkal SCB"]);
    let unknown = app.get("/api/documents?sort=password", &owner).await;
    assert_eq!(
        (
            unknown.status,
            unknown.code(),
            unknown.body["error"]["field"].as_str()
        ),
        (StatusCode::BAD_REQUEST, "invalid_sort", Some("sort"))
    );
    let clients_by_name = app.get("/api/clients?sort=-name", &owner).await;
    assert_eq!(clients_by_name.body["rows"][0]["name"], "Kadakkal SCB");

    // The CSV twin: the same filters and sort, every row, rupees with two decimals.
    let csv = app
        .get("/api/documents.csv?sort=-total&type=QUOTATION", &owner)
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    assert_eq!(csv.headers[header::CONTENT_TYPE], "text/csv; charset=utf-8");
    assert!(
        csv.headers[header::CONTENT_DISPOSITION]
            .to_str()
            .unwrap()
            .contains("documents.csv")
    );
    assert!(
        csv.text
            .starts_with("Number,Type,Client,Date,Due,Status,Payment,Total,Outstanding\r\n"),
        "{}",
        csv.text
    );
    let rows = csv_rows(&csv.text);
    let totals: Vec<(&str, &str)> = rows.iter().map(|r| (r[2].as_str(), r[7].as_str())).collect();
    assert_eq!(
        totals,
        [
            ("Chadayamangalam SCB", "2000.00"),
            ("Anchal SCB", "2000.00"),
            ("Kadakkal SCB", "1000.00")
        ]
    );
    let bad = app.get("/api/documents.csv?sort=nope", &owner).await;
    assert_eq!(
        (bad.status, bad.code()),
        (StatusCode::BAD_REQUEST, "invalid_sort")
    );

    // Staff get their book only, in the CSV as in the list.
    let theirs = app.get("/api/documents.csv", &staff).await;
    assert_eq!(csv_rows(&theirs.text).len(), 1, "{}", theirs.text);
    assert!(theirs.text.contains("Anchal SCB"));
    let their_clients = app.get("/api/clients.csv", &staff).await;
    assert_eq!(csv_rows(&their_clients.text).len(), 1, "{}", their_clients.text);

    // The Excel twins: the same filters, sort and book, cell for cell; a bad sort refused alike.
    for (url, cookie, rows) in [
        ("/api/documents.csv?sort=-total&type=QUOTATION", &owner, 3),
        ("/api/documents.csv?sort=nope", &owner, 0),
        ("/api/documents.csv", &staff, 1),
        ("/api/clients.csv", &staff, 1),
    ] {
        let (amounts, ok) = xlsx_twin_matches_csv(&app, url, cookie).await;
        assert_eq!(ok, rows > 0, "{url}");
        assert!(
            !url.starts_with("/api/documents.csv?sort=-") || amounts >= rows,
            "{url}: {amounts}"
        );
    }
    let sheet = app
        .get("/api/documents.xlsx?sort=-total&type=QUOTATION", &owner)
        .await;
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(sheet.bytes)).unwrap();
    let range = calamine::Reader::worksheet_range_at(&mut book, 0)
        .unwrap()
        .unwrap();
    assert_eq!(
        range.get((1, 2)),
        Some(&calamine::Data::String("Chadayamangalam SCB".into()))
    );
    assert_eq!(range.get((1, 7)), Some(&calamine::Data::Float(2000.0)));

    // Every list has its twin, with a header row and one line per row of the list.
    for (path, cookie) in [
        ("/api/clients", &owner),
        ("/api/payments", &owner),
        ("/api/employees", &owner),
        ("/api/modules", &owner),
        ("/api/audit", &owner),
        ("/api/login-events", &owner),
        ("/api/documents", &owner),
    ] {
        let list = app.get(&format!("{path}?per_page=200"), cookie).await;
        let csv = app.get(&format!("{path}.csv"), cookie).await;
        assert_eq!(csv.status, StatusCode::OK, "{path}: {}", csv.text);
        assert_eq!(
            csv.text.lines().count() as i64,
            list.body["total"].as_i64().unwrap() + 1,
            "{path}: {}",
            csv.text
        );
    }
    for path in ["/api/audit.csv", "/api/login-events.csv"] {
        assert_eq!(
            app.get(path, &staff).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
    }

    // No secret leaves in an export: no password hash, no session, no DB password.
    app.patch(
        &format!("/api/clients/{}", clients[1]),
        &owner,
        json!({ "dbPassword": "kadakkal-db-secret" }),
    )
    .await;
    for path in [
        "/api/employees.csv",
        "/api/clients.csv",
        "/api/audit.csv",
        "/api/login-events.csv",
    ] {
        let text = app.get(path, &owner).await.text;
        for secret in ["$argon2", "kadakkal-db-secret", &pw, "bo_session"] {
            assert!(!text.contains(secret), "{path} carries {secret}");
        }
    }
}

/// A query value holding a control character is a 400 `invalid_query` naming the parameter, on
/// every list and its CSV twin (they all read their query through one parser): SQLite reads a
/// LIKE pattern as a C string, so a `q` starting with NUL once matched every row (issue 33).
#[tokio::test]
async fn a_control_character_in_a_query_value_is_refused_naming_the_parameter() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.post(
        "/api/clients",
        &owner,
        json!({ "name": "Anchal SCB", "state_code": "32" }),
    )
    .await;
    for (path, field) in [
        ("/api/clients?q=%00", "q"),
        ("/api/clients.csv?q=%00", "q"),
        ("/api/clients?district=Kollam%0A", "district"),
        ("/api/tickets?search=%00abc", "search"),
        ("/api/payments?q=%00", "q"),
        ("/api/pipeline?q=%00", "q"),
        ("/api/documents?q=%00abc", "q"),
        ("/api/documents?page=1&q=a%1Fb", "q"),
        ("/api/employees?q=%7F", "q"),
    ] {
        let reply = app.get(path, &owner).await;
        assert_eq!(
            (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
            (StatusCode::BAD_REQUEST, "invalid_query", Some(field)),
            "{path}: {}",
            reply.text
        );
    }
    // Text that merely is not ASCII is a filter like any other.
    let reply = app.get("/api/clients?q=%E0%B4%95", &owner).await;
    assert_eq!((reply.status, &reply.body["total"]), (StatusCode::OK, &json!(0)));
    let reply = app.get("/api/clients?q=anchal", &owner).await;
    assert_eq!((reply.status, &reply.body["total"]), (StatusCode::OK, &json!(1)));
}

/// Whether a CSV header names an amount (decisions 12, "CSV amounts"): one of its words is a word
/// the exports use for money, or it is one of the dues aging's buckets. Not money: the SMS logins'
/// `balance` (messages left), rates, percentages and counts ("Total Quantity", "Total Number").
fn names_an_amount(route: &str, header: &str) -> bool {
    let h = header.to_lowercase();
    let words: Vec<&str> = h.split(|c: char| !c.is_alphanumeric()).collect();
    let money = [
        "amount",
        "total",
        "taxable",
        "outstanding",
        "value",
        "gst",
        "cgst",
        "sgst",
        "igst",
        "margin",
        "balance",
        "price",
        "billed",
        "collected",
        "cost",
        "average",
        "booked",
        "certified",
        "cess",
        "refunded",
        "unallocated",
        "tds",
    ];
    let counted = ["rate", "quantity", "number", "months", "count"];
    if route.contains("sms-balances") || counted.iter().any(|w| words.contains(w)) || h.contains('%') {
        return false;
    }
    let bucket = route.contains("dues-aging") && (words.contains(&"due") || words.contains(&"days"));
    bucket || h.contains('₹') || money.iter().any(|w| words.contains(w))
}

/// Rupees with exactly two decimals and a plain minus: what Excel and the GST offline tool read
/// as a number.
fn is_rupees(cell: &str) -> bool {
    let digits = cell.strip_prefix('-').unwrap_or(cell);
    match digits.split_once('.') {
        Some((whole, fraction)) => {
            !whole.is_empty()
                && whole.bytes().all(|b| b.is_ascii_digit())
                && fraction.len() == 2
                && fraction.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

#[tokio::test]
async fn every_csv_writes_amounts_in_rupees_with_two_decimals_and_a_plain_minus() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    app.state
        .db
        .write_blocking(|tx| {
            let owner: String =
                tx.query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))?;
            let today = backoffice::plumbing::db::settings::office_today(tx)?;
            let options = backoffice::demo::Options {
                clients: 20,
                years: 2,
                seed: 7,
            };
            backoffice::demo::fill(tx, options, &owner, today)?;
            Ok(())
        })
        .unwrap();
    // A credit note this month on an invoice of last month, on a SAC nothing else uses: the
    // month's HSN row of that SAC is negative (-5230.00 taxable).
    let society = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Anchal SCB", "state_code": "32" }),
        )
        .await
        .body;
    let last_month =
        (chrono::Utc::now() + chrono::Duration::minutes(330)).date_naive() - chrono::Duration::days(35);
    let draft = app
        .post(
            "/api/documents",
            &owner,
            json!({ "type": "INVOICE", "client_id": society["id"], "doc_date": last_month.to_string(),
                    "lines": [{ "description": "Special training", "sac": "999293", "qty": 1, "unit_price": 523_000, "gst_rate": 18 }] }),
        )
        .await
        .body;
    let invoice = draft["id"].as_str().unwrap();
    let issued = app
        .post(&format!("/api/documents/{invoice}/issue"), &owner, json!({}))
        .await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
    let note = app
        .post(
            &format!("/api/documents/{invoice}/credit-note"),
            &owner,
            json!({ "reason": "Training not held" }),
        )
        .await;
    assert!(note.status.is_success(), "{}", note.text);
    let spec = app.get("/api/openapi.json", &owner).await.body;
    let module = app.get("/api/modules", &owner).await.body["rows"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // A client's own CSVs (its statement) are read for the society with the most invoices.
    let society: String = app
        .state
        .db
        .read_blocking(|c| {
            Ok(c.query_row(
                "SELECT client_id FROM document WHERE type = 'INVOICE' GROUP BY client_id ORDER BY COUNT(*) DESC, client_id LIMIT 1",
                [],
                |r| r.get(0),
            )?)
        })
        .unwrap();
    // The import's CSVs echo the legacy file as it came (and its template): not our amounts.
    let mut routes: Vec<String> = spec["paths"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|p| p.ends_with(".csv") && !p.starts_with("/api/import/"))
        .map(|p| {
            p.replace(
                "{id}",
                if p.starts_with("/api/clients/") {
                    &society
                } else {
                    &module
                },
            )
        })
        .collect();
    // Every `.csv` route (the import's too) has an `.xlsx` twin, walked after the CSVs.
    let mut twins = routes.clone();
    twins.extend(
        spec["paths"]
            .as_object()
            .unwrap()
            .keys()
            .filter(|p| p.ends_with(".csv") && p.starts_with("/api/import/"))
            .cloned(),
    );
    let periods: Vec<String> = app
        .state
        .db
        .read_blocking(|c| {
            let mut stmt = c.prepare(
                "SELECT DISTINCT substr(doc_date, 1, 7) FROM document
                 WHERE status <> 'draft' AND type IN ('INVOICE', 'CREDIT_NOTE') ORDER BY 1",
            )?;
            let months = stmt
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(months)
        })
        .unwrap();
    assert!(periods.len() > 12, "{periods:?}");
    for period in &periods {
        for section in [
            "b2b", "b2cl", "b2cs", "cdnr", "cdnur", "hsn", "hsn_b2b", "hsn_b2c", "docs",
        ] {
            routes.push(format!(
                "/api/reports/gstr1?period={period}&format=csv&section={section}"
            ));
        }
    }
    let fy = |route: &str| {
        if route.contains("tds-receivable") || route.contains("number-continuity") {
            "?fy=2025-26".to_string()
        } else if route.contains("module-data") {
            format!("?module_id={module}")
        } else {
            String::new()
        }
    };
    let (mut amounts, mut negatives, mut checked, mut negative_in) = (0, 0, vec![], vec![]);
    for route in &routes {
        let url = format!("{route}{}", fy(route));
        let reply = app.get(&url, &owner).await;
        assert_eq!(reply.status, StatusCode::OK, "{url}: {}", reply.text);
        let mut reader = ::csv::ReaderBuilder::new().from_reader(reply.text.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
        let money: Vec<usize> = (0..header.len())
            .filter(|&i| names_an_amount(route, &header[i]))
            .collect();
        for record in reader.records() {
            let record = record.unwrap();
            for &i in &money {
                let cell = &record[i];
                if cell.is_empty() {
                    continue;
                }
                assert!(
                    is_rupees(cell),
                    "{url}: column {:?} holds {cell:?}, not rupees with two decimals",
                    header[i]
                );
                amounts += 1;
                if cell.starts_with('-') {
                    negatives += 1;
                    negative_in.push(route.split('?').next().unwrap().to_string());
                }
            }
        }
        if !money.is_empty() {
            checked.push(route.split('?').next().unwrap().to_string());
        }
    }
    negative_in.dedup();
    checked.dedup();
    assert!(amounts > 1000, "{amounts} amount cells");
    assert!(
        negatives > 0,
        "a demo office has negative amounts (credit notes, thin margins)"
    );
    for route in [
        "/api/reports/dues-aging.csv",
        "/api/reports/client-profitability.csv",
        "/api/reports/gst-summary.csv",
        "/api/documents.csv",
        "/api/payments.csv",
        "/api/reports/gstr1",
    ] {
        assert!(
            checked.iter().any(|c| c == route),
            "{route} has amount columns: {checked:?}"
        );
    }
    // The `.xlsx` twins: listed in the document, and each the CSV's rows typed.
    let (mut numbers, mut with_amounts) = (0, vec![]);
    for route in &twins {
        let twin = route.replace(".csv", ".xlsx");
        let documented = spec["paths"]
            .as_object()
            .unwrap()
            .keys()
            .any(|p| p.ends_with(".xlsx") && twin_path_matches(p, &twin));
        assert!(documented, "{twin} is not in the OpenAPI document");
        let url = format!("{route}{}", fy(route));
        let (amounts, ok) = xlsx_twin_matches_csv(&app, &url, &owner).await;
        numbers += amounts;
        if ok && amounts > 0 {
            with_amounts.push(route.clone());
        }
    }
    assert!(numbers > 500, "{numbers} amount cells in the workbooks");
    for route in [
        "/api/reports/dues-aging.csv",
        "/api/documents.csv",
        "/api/payments.csv",
    ] {
        assert!(
            with_amounts.iter().any(|c| c == route),
            "{route}: {with_amounts:?}"
        );
    }
}

/// Whether the documented path `documented` (with `{id}`) is the shape of the concrete `twin`.
fn twin_path_matches(documented: &str, twin: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (documented.split('/').collect(), twin.split('/').collect());
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x == y || x.starts_with('{'))
}

/// Fetches `csv_url` and its `.xlsx` twin as `cookie` and holds them together: the same status
/// (and body) on a refusal; else one sheet whose header row is the CSV's, with a frozen header,
/// no formula anywhere, the same rows, each cell typed from the CSV's (amount columns are numbers
/// in rupees shown `#,##,##0.00`, dates are dates). Answers the amount cells read and whether
/// the CSV was a 200.
pub async fn xlsx_twin_matches_csv(app: &TestApp, csv_url: &str, cookie: &str) -> (usize, bool) {
    use backoffice::plumbing::http::xlsx::{Cell, typed};
    use calamine::{Data, Reader};
    let (path, query) = csv_url.split_once('?').unwrap_or((csv_url, ""));
    let xlsx_url = format!(
        "{}.xlsx{}{query}",
        path.strip_suffix(".csv").unwrap(),
        if query.is_empty() { "" } else { "?" }
    );
    let csv = app.get(csv_url, cookie).await;
    let xlsx = app.get(&xlsx_url, cookie).await;
    assert_eq!(xlsx.status, csv.status, "{xlsx_url}: {}", xlsx.text);
    if csv.status != StatusCode::OK {
        assert_eq!(xlsx.text, csv.text, "{xlsx_url}");
        return (0, false);
    }
    assert_eq!(
        xlsx.headers[header::CONTENT_TYPE],
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "{xlsx_url}"
    );
    let csv_name = csv.headers[header::CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(
        xlsx.headers[header::CONTENT_DISPOSITION].to_str().unwrap(),
        csv_name.replace(".csv\"", ".xlsx\""),
        "{xlsx_url}"
    );
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(xlsx.bytes.clone())).unwrap();
    let part = |zip: &mut zip::ZipArchive<std::io::Cursor<Vec<u8>>>, name: &str| {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut zip.by_name(name).unwrap(), &mut text).unwrap();
        text
    };
    let sheet_xml = part(&mut zip, "xl/worksheets/sheet1.xml");
    let styles = part(&mut zip, "xl/styles.xml");
    assert!(
        sheet_xml.contains(r#"ySplit="1""#) && sheet_xml.contains(r#"state="frozen""#),
        "{xlsx_url}: header not frozen"
    );
    assert!(
        !sheet_xml.contains("<f>") && !sheet_xml.contains("<f "),
        "{xlsx_url}: a formula"
    );
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(xlsx.bytes)).unwrap();
    assert_eq!(book.sheet_names().len(), 1, "{xlsx_url}: one sheet");
    let range = book.worksheet_range_at(0).unwrap().unwrap();
    let sheet: Vec<&[Data]> = range.rows().collect();
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv.bytes.as_slice());
    let records: Vec<::csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(sheet.len(), records.len(), "{xlsx_url}: rows");
    let header: Vec<String> = sheet[0].iter().map(|d| d.to_string()).collect();
    let csv_header: Vec<String> = records[0].iter().map(str::to_string).collect();
    assert_eq!(header[..csv_header.len()], csv_header[..], "{xlsx_url}: header");
    let money: Vec<usize> = (0..csv_header.len())
        .filter(|&i| !path.starts_with("/api/import/") && names_an_amount(path, &csv_header[i]))
        .collect();
    let mut amounts = 0;
    for (r, record) in records.iter().enumerate().skip(1) {
        for (i, value) in record.iter().enumerate() {
            let got = sheet[r].get(i).unwrap_or(&Data::Empty);
            let at = format!(
                "{xlsx_url}: row {r} column {:?} ({value:?}): {got:?}",
                csv_header.get(i)
            );
            if money.contains(&i) && !value.is_empty() {
                assert!(
                    matches!(got, Data::Float(_)),
                    "{at}: an amount that is not a number"
                );
                amounts += 1;
            }
            match typed(value) {
                Cell::Blank => assert!(matches!(got, Data::Empty), "{at}"),
                Cell::Text(text) => assert_eq!(got, &Data::String(text.to_string()), "{at}"),
                Cell::Amount(n) | Cell::Integer(n) => assert_eq!(got, &Data::Float(n), "{at}"),
                Cell::Date(y, m, d) => {
                    let Data::DateTime(date) = got else {
                        panic!("{at}: not a date")
                    };
                    let want = rust_xlsxwriter::ExcelDateTime::from_ymd(y, m, d)
                        .unwrap()
                        .to_excel();
                    assert_eq!(date.as_f64(), want, "{at}");
                }
            }
        }
    }
    if amounts > 0 {
        assert!(
            styles.contains("#,##,##0.00"),
            "{xlsx_url}: the Indian amount format"
        );
    }
    (amounts, true)
}

/// The price of an Excel twin over its CSV, end to end (run by hand: `cargo test --test api
/// lists::the_excel_twin -- --ignored --nocapture`): every document of a demo office of 1,000
/// societies over two years, as CSV and as a workbook.
#[tokio::test]
#[ignore]
async fn the_excel_twin_of_the_largest_list_costs_a_second_pass() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    app.state
        .db
        .write_blocking(|tx| {
            let owner: String =
                tx.query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))?;
            let today = backoffice::plumbing::db::settings::office_today(tx)?;
            let options = backoffice::demo::Options {
                clients: 1000,
                years: 2,
                seed: 7,
            };
            backoffice::demo::fill(tx, options, &owner, today)?;
            Ok(())
        })
        .unwrap();
    for url in ["/api/documents.csv", "/api/documents.xlsx"] {
        let started = std::time::Instant::now();
        let reply = app.get(url, &owner).await;
        assert_eq!(reply.status, StatusCode::OK);
        println!(
            "{url}: {} KB in {:.0} ms ({} CSV lines)",
            reply.bytes.len() / 1024,
            started.elapsed().as_secs_f64() * 1000.0,
            if url.ends_with(".csv") {
                reply.text.lines().count()
            } else {
                0
            }
        );
    }
}
