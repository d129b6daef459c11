//! The email log as a list of its own (issue 33): every filter, the sort whitelist, the CSV twin
//! and the staff book. The rows are written as the senders write them (`email_log`), at fixed
//! times, so the office-day bounds and the orders are exact.

use crate::common::TestApp;
use axum::http::{StatusCode, header};
use serde_json::{Value, json};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

struct Log {
    app: TestApp,
    owner: String,
    staff: String,
    /// Owned by the staff user.
    adoor: String,
    kadakkal: String,
    module: String,
    invoice: String,
    doc_no: String,
    owner_id: String,
}

/// Five attempts (the ids give the order they were written in, which is not the order of `at`):
///
/// | id  | purpose       | client   | at (UTC)             | office day | status | sent by |
/// |-----|---------------|----------|----------------------|------------|--------|---------|
/// | EL1 | document      | Adoor    | 2026-11-18T18:29:59Z | 18th 23:59 | sent   | Owner   |
/// | EL2 | module_notify | Kadakkal | 2026-11-21T03:00:00Z | 21st       | failed | Owner   |
/// | EL3 | reminder      | Kadakkal | 2026-11-20T20:00:00Z | 21st 01:30 | sent   | the job |
/// | EL4 | module_notify | Adoor    | 2026-11-22T10:00:00Z | 22nd       | sent   | staff   |
/// | EL5 | test          | (none)   | 2026-11-19T05:00:00Z | 19th       | sent   | Owner   |
async fn log() -> Log {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (staff_id, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    app.set_company(&owner, json!({})).await;
    let module = app.priced_module(&owner, 10_000_000).await;
    let client = |name: &str, owner_id: Option<&str>| {
        let mut body = json!({ "name": name, "state_code": "32" });
        if let Some(o) = owner_id {
            body["owner_id"] = json!(o);
        }
        body
    };
    let adoor = id(&app
        .post("/api/clients", &owner, client("Adoor SCB", Some(&staff_id)))
        .await
        .body);
    let kadakkal = id(&app
        .post("/api/clients", &owner, client("Kadakkal SCB", None))
        .await
        .body);
    let draft = app
        .post(
            "/api/documents",
            &owner,
            json!({ "type": "INVOICE", "client_id": adoor, "lines": [ { "module_id": module, "qty": 1 } ] }),
        )
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let issued = app
        .post(
            &format!("/api/documents/{}/issue", id(&draft.body)),
            &owner,
            json!({}),
        )
        .await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
    let invoice = id(&issued.body);
    let doc_no = issued.body["docNo"].as_str().unwrap().to_string();
    let owner_id: String = app
        .sql()
        .query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))
        .unwrap();
    let rows = [
        (
            "EL1",
            "document",
            Some(&invoice),
            Some(&adoor),
            None,
            "accounts@adoor.coop",
            "Invoice from Softland India",
            "sent",
            None,
            Some(&owner_id),
            "2026-11-18T18:29:59Z",
        ),
        (
            "EL2",
            "module_notify",
            None,
            Some(&kadakkal),
            Some(&module),
            "office@kadakkal.coop",
            "Deposit module: new release",
            "failed",
            Some("The mail provider refused the email (406)."),
            Some(&owner_id),
            "2026-11-21T03:00:00Z",
        ),
        (
            "EL3",
            "reminder",
            None,
            Some(&kadakkal),
            None,
            "president@kadakkal.coop",
            "=HYPERLINK(\"http://evil.example\")",
            "sent",
            None,
            None,
            "2026-11-20T20:00:00Z",
        ),
        (
            "EL4",
            "module_notify",
            None,
            Some(&adoor),
            Some(&module),
            "secretary@adoor.coop",
            "Deposit module: new release",
            "sent",
            None,
            Some(&staff_id),
            "2026-11-22T10:00:00Z",
        ),
        (
            "EL5",
            "test",
            None,
            None,
            None,
            "owner@softland.in",
            "Test 100%_done",
            "sent",
            None,
            Some(&owner_id),
            "2026-11-19T05:00:00Z",
        ),
    ];
    let sql = app.sql();
    for (id, purpose, document, client, module, to, subject, status, error, by, at) in rows {
        sql.execute(
            "INSERT INTO email_log (id, purpose, document_id, client_id, module_id, to_address, subject, status,
                                    provider_message_id, error, sent_by, at, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, CASE WHEN ?8 = 'sent' THEN 'msg-' || ?1 END, ?9, ?10, ?11, ?11, ?11)",
            rusqlite::params![id, purpose, document, client, module, to, subject, status, error, by, at],
        )
        .unwrap();
    }
    Log {
        app,
        owner,
        staff,
        adoor,
        kadakkal,
        module,
        invoice,
        doc_no,
        owner_id,
    }
}

fn owned(ids: &[&str]) -> Vec<String> {
    ids.iter().map(|s| s.to_string()).collect()
}

/// The ids of the rows `query` lists for `cookie`, and the total.
async fn ids(l: &Log, cookie: &str, query: &str) -> (Vec<String>, i64) {
    let reply = l.app.get(&format!("/api/email-log?{query}"), cookie).await;
    assert_eq!(reply.status, StatusCode::OK, "{query}: {}", reply.text);
    let rows = reply.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    (rows, reply.body["total"].as_i64().unwrap())
}

#[tokio::test]
async fn each_filter_selects_its_rows_and_a_row_names_its_client_sender_and_document() {
    let l = log().await;
    let (adoor, kadakkal, module, invoice) = (&l.adoor, &l.kadakkal, &l.module, &l.invoice);
    let cases: Vec<(String, &[&str])> = vec![
        (String::new(), &["EL5", "EL4", "EL3", "EL2", "EL1"]),
        ("status=failed".into(), &["EL2"]),
        ("status=sent".into(), &["EL5", "EL4", "EL3", "EL1"]),
        ("purpose=module_notify".into(), &["EL4", "EL2"]),
        ("purpose=reminder".into(), &["EL3"]),
        ("purpose=test".into(), &["EL5"]),
        (format!("client_id={kadakkal}"), &["EL3", "EL2"]),
        (format!("module_id={module}"), &["EL4", "EL2"]),
        (format!("document_id={invoice}"), &["EL1"]),
        // Office days (+05:30): EL3 was written on the 20th in UTC, the 21st in the office.
        ("from=2026-11-19&to=2026-11-21".into(), &["EL5", "EL3", "EL2"]),
        ("from=2026-11-21".into(), &["EL4", "EL3", "EL2"]),
        ("to=2026-11-18".into(), &["EL1"]),
        ("from=2026-11-20&to=2026-11-20".into(), &[]),
        // q: the address, the subject or the client's name, literally.
        ("q=kadakkal".into(), &["EL3", "EL2"]),
        ("q=ADOOR".into(), &["EL4", "EL1"]),
        ("q=new%20release".into(), &["EL4", "EL2"]),
        ("q=100%25".into(), &["EL5"]),
        ("q=_".into(), &["EL5"]),
        ("q=softland".into(), &["EL5", "EL1"]),
        (
            format!("purpose=module_notify&status=sent&client_id={adoor}"),
            &["EL4"],
        ),
    ];
    for (query, expected) in cases {
        let (rows, total) = ids(&l, &l.owner, &query).await;
        assert_eq!((rows, total), (owned(expected), expected.len() as i64), "{query}");
    }

    let failed = l.app.get("/api/email-log?status=failed", &l.owner).await.body["rows"][0].clone();
    assert_eq!(
        failed,
        json!({
            "id": "EL2", "purpose": "module_notify", "document_id": null, "docNo": null,
            "client_id": kadakkal, "client_name": "Kadakkal SCB", "module_id": module,
            "to": "office@kadakkal.coop", "cc": null, "subject": "Deposit module: new release",
            "status": "failed", "provider_message_id": null,
            "error": "The mail provider refused the email (406).",
            "sent_by": l.owner_id, "sent_by_name": "Owner", "at": "2026-11-21T03:00:00Z"
        })
    );
    let document = l
        .app
        .get(&format!("/api/email-log?document_id={invoice}"), &l.owner)
        .await
        .body["rows"][0]
        .clone();
    assert_eq!(
        (
            document["docNo"].as_str(),
            document["client_name"].as_str(),
            document["provider_message_id"].as_str()
        ),
        (Some(l.doc_no.as_str()), Some("Adoor SCB"), Some("msg-EL1"))
    );
    let by_job = l.app.get("/api/email-log?purpose=reminder", &l.owner).await.body["rows"][0].clone();
    assert_eq!(
        (&by_job["sent_by"], &by_job["sent_by_name"]),
        (&Value::Null, &Value::Null)
    );
}

#[tokio::test]
async fn every_column_of_the_whitelist_sorts_both_ways_with_ties_on_the_id() {
    let l = log().await;
    for (sort, expected) in [
        ("at", ["EL1", "EL5", "EL3", "EL2", "EL4"]),
        ("-at", ["EL4", "EL2", "EL3", "EL5", "EL1"]),
        ("to", ["EL1", "EL2", "EL5", "EL3", "EL4"]),
        ("subject", ["EL3", "EL2", "EL4", "EL1", "EL5"]),
        ("status", ["EL2", "EL1", "EL3", "EL4", "EL5"]),
        ("-status", ["EL5", "EL4", "EL3", "EL1", "EL2"]),
        ("purpose", ["EL1", "EL2", "EL4", "EL3", "EL5"]),
        ("client", ["EL5", "EL1", "EL4", "EL2", "EL3"]),
        ("-client", ["EL3", "EL2", "EL4", "EL1", "EL5"]),
        ("sent_by", ["EL3", "EL1", "EL2", "EL5", "EL4"]),
    ] {
        let (rows, total) = ids(&l, &l.owner, &format!("sort={sort}")).await;
        assert_eq!((rows, total), (owned(&expected), 5), "sort={sort}");
    }
    // A page of a sorted list.
    let (rows, total) = ids(&l, &l.owner, "sort=at&per_page=2&page=2").await;
    assert_eq!((rows, total), (owned(&["EL3", "EL2"]), 5));
}

#[tokio::test]
async fn a_wrong_choice_date_or_sort_is_a_400_naming_it_in_the_list_and_the_csv() {
    let l = log().await;
    for (query, field) in [
        ("status=late", "status"),
        ("purpose=newsletter", "purpose"),
        ("from=2026-13-01", "from"),
        ("to=yesterday", "to"),
        ("sort=error", "sort"),
        ("per_page=500", "per_page"),
    ] {
        for path in ["/api/email-log", "/api/email-log.csv"] {
            let reply = l.app.get(&format!("{path}?{query}"), &l.owner).await;
            assert_eq!(
                (reply.status, reply.body["error"]["field"].as_str()),
                (StatusCode::BAD_REQUEST, Some(field)),
                "{path}?{query}: {}",
                reply.text
            );
        }
    }
}

#[tokio::test]
async fn the_csv_takes_the_filters_and_sort_and_guards_formulas() {
    let l = log().await;
    let csv = l
        .app
        .get(
            &format!("/api/email-log.csv?client_id={}&sort=at", l.kadakkal),
            &l.owner,
        )
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    assert_eq!(csv.headers[header::CONTENT_TYPE], "text/csv; charset=utf-8");
    assert_eq!(
        csv.headers[header::CONTENT_DISPOSITION],
        "attachment; filename=\"email-log.csv\""
    );
    assert_eq!(
        csv.text,
        "Time,To,Cc,Subject,Client,Purpose,Document,Status,Error,Sent by\r\n\
         2026-11-20T20:00:00Z,president@kadakkal.coop,,\"'=HYPERLINK(\"\"http://evil.example\"\")\",Kadakkal SCB,reminder,,sent,,\r\n\
         2026-11-21T03:00:00Z,office@kadakkal.coop,,Deposit module: new release,Kadakkal SCB,module_notify,,failed,The mail provider refused the email (406).,Owner\r\n"
    );
    // The Excel twin: the same rows; the subject a string cell, word for word, never a formula.
    let url = format!("/api/email-log.csv?client_id={}&sort=at", l.kadakkal);
    assert_eq!(
        crate::lists::xlsx_twin_matches_csv(&l.app, &url, &l.owner).await,
        (0, true)
    );
    let xlsx = l.app.get(&url.replace(".csv", ".xlsx"), &l.owner).await;
    assert_eq!(
        xlsx.headers[header::CONTENT_DISPOSITION],
        "attachment; filename=\"email-log.xlsx\""
    );
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(xlsx.bytes)).unwrap();
    let sheet = calamine::Reader::worksheet_range_at(&mut book, 0)
        .unwrap()
        .unwrap();
    assert_eq!(
        sheet.get((1, 3)),
        Some(&calamine::Data::String(
            "=HYPERLINK(\"http://evil.example\")".into()
        ))
    );
    assert_eq!(
        sheet.get((1, 0)),
        Some(&calamine::Data::String("2026-11-20T20:00:00Z".into()))
    );
    let documents = l.app.get("/api/email-log.csv?purpose=document", &l.owner).await;
    assert_eq!(
        documents.text.lines().nth(1),
        Some(
            format!(
                "2026-11-18T18:29:59Z,accounts@adoor.coop,,Invoice from Softland India,Adoor SCB,document,{},sent,,Owner",
                l.doc_no
            )
            .as_str()
        )
    );
    let all = l.app.get("/api/email-log.csv?sort=-at", &l.owner).await;
    assert_eq!(
        all.text.lines().count(),
        6,
        "the header and every row: {}",
        all.text
    );
}

#[tokio::test]
async fn staff_see_the_mail_of_their_book_in_the_list_and_the_csv() {
    let l = log().await;
    let (rows, total) = ids(&l, &l.staff, "").await;
    assert_eq!((rows, total), (owned(&["EL4", "EL1"]), 2));
    // Another book's client named is not a way in.
    let (rows, total) = ids(&l, &l.staff, &format!("client_id={}", l.kadakkal)).await;
    assert_eq!((rows.len(), total), (0, 0));
    let (rows, total) = ids(&l, &l.staff, "purpose=test").await;
    assert_eq!((rows.len(), total), (0, 0));
    let csv = l.app.get("/api/email-log.csv?sort=at", &l.staff).await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines.len(), 3, "{}", csv.text);
    assert_eq!(
        lines[2],
        "2026-11-22T10:00:00Z,secretary@adoor.coop,,Deposit module: new release,Adoor SCB,module_notify,,sent,,staff@coop.in"
    );
    assert!(
        lines[1].starts_with("2026-11-18T18:29:59Z,accounts@adoor.coop,"),
        "{}",
        lines[1]
    );
}
