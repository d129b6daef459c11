//! The statement of account (issue 35): a hand-built history with its exact rows, balances,
//! totals, opening, closing, aging and open invoices; the closing at today against what the
//! client owes (also after a refund); the staff book; bad periods; the CSV and PDF twins; the
//! email with its log and audit rows; the year-end list and the once-a-day rule.

use crate::common::mail::{FakeMail, TOKEN};
use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode, header};
use base64::Engine;
use serde_json::{Value, json};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

fn no(v: &Value) -> String {
    v["docNo"].as_str().unwrap().to_string()
}

struct History {
    app: TestApp,
    owner: String,
    staff: String,
    society: String,
    invoice_a: Value,
    invoice_b: Value,
    credit_note: Value,
    part: Value,
    advance: Value,
    cancelled: Value,
}

/// An issued invoice of ₹1,18,000 (₹1,00,000 + 18% GST) dated `doc_date`, due `due`.
async fn invoice(app: &TestApp, owner: &str, module: &str, client: &str, doc_date: &str, due: &str) -> Value {
    app.issue(
        owner,
        json!({ "type": "INVOICE", "client_id": client, "doc_date": doc_date, "dueDate": due,
                    "lines": [ { "module_id": module, "qty": 1 } ] }),
    )
    .await
}

/// Invoice A (10 April, due 10 May) and B (15 June, due 15 September), a cancelled invoice, a part
/// payment of A with TDS (1 July), a credit note on B (20 July), an advance (1 August), and a
/// payment of B (10 August) cancelled on 12 August. The credit note and the cancellation are
/// made today and dated back in SQL, as the office can only make them today.
async fn history() -> History {
    let app = TestApp::with_config(|c| c.allow_private_targets = true);
    let owner = app.owner().await;
    let (staff_id, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    app.set_company(&owner, json!({ "upi_id": "softland@sbi" })).await;
    let module = app.priced_module(&owner, 10_000_000).await;
    let society = id(&app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Kadakkal SCB", "state_code": "32" }),
        )
        .await
        .body);
    app.post(
        "/api/clients",
        &owner,
        json!({ "name": "Anchal SCB", "state_code": "32", "owner_id": staff_id }),
    )
    .await;
    let invoice_a = invoice(&app, &owner, &module, &society, "2026-04-10", "2026-05-10").await;
    let invoice_b = invoice(&app, &owner, &module, &society, "2026-06-15", "2026-09-15").await;
    let void = invoice(&app, &owner, &module, &society, "2026-06-20", "2026-07-20").await;
    let cancel = app
        .post(
            &format!("/api/documents/{}/cancel", id(&void)),
            &owner,
            json!({ "reason": "Raised twice" }),
        )
        .await;
    assert_eq!(cancel.status, StatusCode::OK, "{}", cancel.text);
    let part = app.record_payment(
        &owner,
        json!({ "client_id": society, "received_on": "2026-07-01", "amount": 5_000_000, "mode": "cheque",
                "allocations": [ { "document_id": id(&invoice_a), "amount": 5_000_000, "tds": 1_000_000 } ] }),
    )
    .await;
    let credit = app
        .post(
            &format!("/api/documents/{}/credit-note", id(&invoice_b)),
            &owner,
            json!({ "reason": "Discount agreed", "lines": [ { "description": "Discount", "qty": 1, "unit_price": 1_000_000 } ] }),
        )
        .await;
    assert_eq!(credit.status, StatusCode::OK, "{}", credit.text);
    let advance = app
        .record_payment(
            &owner,
            json!({ "client_id": society, "received_on": "2026-08-01", "amount": 2_000_000, "mode": "upi" }),
        )
        .await;
    let cancelled = app
        .record_payment(
            &owner,
            json!({ "client_id": society, "received_on": "2026-08-10", "amount": 3_000_000, "mode": "cheque",
                "allocations": [ { "document_id": id(&invoice_b), "amount": 3_000_000 } ] }),
        )
        .await;
    let reply = app
        .post(
            &format!("/api/payments/{}/cancel", id(&cancelled)),
            &owner,
            json!({ "reason": "Cheque bounced" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let sql = app.sql();
    sql.execute(
        "UPDATE document SET doc_date = '2026-07-20' WHERE id = ?1",
        [id(&credit.body)],
    )
    .unwrap();
    sql.execute(
        "UPDATE payment SET cancelled_on = '2026-08-12' WHERE id = ?1",
        [id(&cancelled)],
    )
    .unwrap();
    History {
        app,
        owner,
        staff,
        society,
        invoice_a,
        invoice_b,
        credit_note: credit.body,
        part,
        advance,
        cancelled,
    }
}

const PERIOD: &str = "from=2026-05-01&to=2026-10-31";

#[tokio::test]
async fn a_statement_runs_its_balance_from_the_opening_to_the_closing() {
    let h = history().await;
    let reply = h
        .app
        .get(
            &format!("/api/clients/{}/statement?{PERIOD}", h.society),
            &h.owner,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let s = &reply.body;
    let receipt = |p: &Value| p["receipt_no"].as_str().unwrap().to_string();
    let rows: Vec<Value> = s["rows"].as_array().unwrap().clone();
    let expected = [
        json!({ "date": "2026-06-15", "kind": "invoice", "document_id": id(&h.invoice_b), "ref": no(&h.invoice_b),
                "debit": 11_800_000, "credit": 0, "balance": 23_600_000 }),
        json!({ "date": "2026-07-01", "kind": "payment", "payment_id": id(&h.part), "ref": receipt(&h.part),
                "debit": 0, "credit": 5_000_000, "balance": 18_600_000 }),
        json!({ "date": "2026-07-01", "kind": "tds", "payment_id": id(&h.part), "ref": receipt(&h.part),
                "debit": 0, "credit": 1_000_000, "balance": 17_600_000 }),
        json!({ "date": "2026-07-20", "kind": "credit_note", "document_id": id(&h.credit_note),
                "ref": format!("{} on {}", no(&h.credit_note), no(&h.invoice_b)),
                "debit": 0, "credit": 1_180_000, "balance": 16_420_000 }),
        json!({ "date": "2026-08-01", "kind": "payment", "payment_id": id(&h.advance), "ref": receipt(&h.advance),
                "debit": 0, "credit": 2_000_000, "balance": 14_420_000 }),
        json!({ "date": "2026-08-10", "kind": "payment", "payment_id": id(&h.cancelled), "ref": receipt(&h.cancelled),
                "debit": 0, "credit": 3_000_000, "balance": 11_420_000 }),
        json!({ "date": "2026-08-12", "kind": "payment_cancelled", "payment_id": id(&h.cancelled),
                "ref": receipt(&h.cancelled),
                "debit": 3_000_000, "credit": 0, "balance": 14_420_000 }),
    ];
    assert_eq!(rows, expected);
    assert_eq!(
        (
            &s["client_id"],
            &s["client_name"],
            &s["from"],
            &s["to"],
            &s["opening"],
            &s["closing"],
            &s["totals"]
        ),
        (
            &json!(h.society),
            &json!("Kadakkal SCB"),
            &json!("2026-05-01"),
            &json!("2026-10-31"),
            &json!(11_800_000),
            &json!(14_420_000),
            &json!({ "debit": 14_800_000, "credit": 12_180_000 })
        )
    );
    assert_eq!(
        s["aging"],
        json!({ "0-30": 0, "31-60": 10_620_000, "61-90": 0, "90+": 5_800_000 })
    );
    assert_eq!(
        s["open_invoices"],
        json!([
            { "document_id": id(&h.invoice_a), "docNo": no(&h.invoice_a), "doc_date": "2026-04-10",
              "due_date": "2026-05-10", "outstanding": 5_800_000 },
            { "document_id": id(&h.invoice_b), "docNo": no(&h.invoice_b), "doc_date": "2026-06-15",
              "due_date": "2026-09-15", "outstanding": 10_620_000 },
        ])
    );
    assert_eq!(
        s["upi"],
        json!({ "uri": "upi://pay?pa=softland%40sbi&pn=Softland%20India&am=144200.00&cu=INR&tn=Statement%202026-27",
                "amount": 14_420_000 })
    );

    // Before the payments: the open invoices are owed in full, and nothing is paid yet.
    let early = h
        .app
        .get(
            &format!(
                "/api/clients/{}/statement?from=2026-04-01&to=2026-06-30",
                h.society
            ),
            &h.owner,
        )
        .await
        .body;
    assert_eq!(
        (
            &early["opening"],
            &early["closing"],
            &early["rows"].as_array().unwrap().len()
        ),
        (&json!(0), &json!(23_600_000), &2)
    );
    assert_eq!(
        early["aging"],
        json!({ "0-30": 11_800_000, "31-60": 11_800_000, "61-90": 0, "90+": 0 })
    );
}

#[tokio::test]
async fn the_closing_at_today_is_what_the_client_owes_less_its_advances() {
    let h = history().await;
    let statement = h
        .app
        .get(&format!("/api/clients/{}/statement", h.society), &h.owner)
        .await;
    assert_eq!(statement.status, StatusCode::OK, "{}", statement.text);
    let owes = h
        .app
        .get(&format!("/api/clients/{}", h.society), &h.owner)
        .await
        .body["owes"]
        .clone();
    assert_eq!(
        (owes["outstanding"].as_i64(), owes["unallocated"].as_i64()),
        (Some(16_420_000), Some(2_000_000))
    );
    let today = backoffice::plumbing::db::settings::office_today(&h.app.sql()).unwrap();
    let fy_start = backoffice::plumbing::clock::Fy::of(today).first_day();
    assert_eq!(
        (
            &statement.body["closing"],
            &statement.body["to"],
            &statement.body["from"]
        ),
        (
            &json!(14_420_000),
            &json!(today.to_string()),
            &json!(fy_start.to_string())
        )
    );
}

#[tokio::test]
async fn staff_see_only_the_statements_of_their_own_clients() {
    let h = history().await;
    for path in ["statement", "statement.csv", "statement.pdf"] {
        let reply = h
            .app
            .get(&format!("/api/clients/{}/{path}", h.society), &h.staff)
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::NOT_FOUND, "not_found"),
            "{path}"
        );
    }
    let theirs = h
        .app
        .count("SELECT COUNT(*) FROM client WHERE name = 'Anchal SCB'");
    assert_eq!(theirs, 1);
    let anchal: String = h
        .app
        .sql()
        .query_row("SELECT id FROM client WHERE name = 'Anchal SCB'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let own = h
        .app
        .get(&format!("/api/clients/{anchal}/statement?{PERIOD}"), &h.staff)
        .await;
    assert_eq!(
        (own.status, &own.body["closing"], &own.body["rows"]),
        (StatusCode::OK, &json!(0), &json!([]))
    );
}

#[tokio::test]
async fn bad_periods_are_refused_on_their_field_and_write_nothing() {
    let h = history().await;
    let written = || {
        h.app
            .count("SELECT (SELECT COUNT(*) FROM audit) + (SELECT COUNT(*) FROM email_log)")
    };
    let before = written();
    // A value that is not a date is the query's 400; a period that cannot be, a 422.
    let (bad_query, bad_period) = (StatusCode::BAD_REQUEST, StatusCode::UNPROCESSABLE_ENTITY);
    for (query, status, field, code) in [
        (
            "from=2026-11-01&to=2026-10-31",
            bad_period,
            "from",
            "invalid_period",
        ),
        ("from=2026-02-30", bad_query, "from", "invalid_query"),
        ("to=31-10-2026", bad_query, "to", "invalid_query"),
        (
            "from=2000-01-01&to=2026-10-31",
            bad_period,
            "from",
            "period_too_long",
        ),
    ] {
        for ext in ["", ".csv", ".pdf"] {
            let reply = h
                .app
                .get(
                    &format!("/api/clients/{}/statement{ext}?{query}", h.society),
                    &h.owner,
                )
                .await;
            assert_eq!(
                (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
                (status, code, Some(field)),
                "{ext} {query}"
            );
        }
    }
    assert_eq!(written(), before);
}

#[tokio::test]
async fn the_csv_twin_gives_the_same_rows_in_rupees() {
    let h = history().await;
    let reply = h
        .app
        .get(
            &format!("/api/clients/{}/statement.csv?{PERIOD}", h.society),
            &h.owner,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.headers[header::CONTENT_DISPOSITION],
        format!(
            "attachment; filename=\"statement-{}-2026-05-01-to-2026-10-31.csv\"",
            h.society
        )
        .as_str()
    );
    let receipt = |p: &Value| p["receipt_no"].as_str().unwrap().to_string();
    let lines: Vec<&str> = reply.text.split("\r\n").collect();
    let expected = [
        "Date,Kind,Reference,Debit,Credit,Balance".to_string(),
        "2026-05-01,Opening balance,,,,118000.00".to_string(),
        format!("2026-06-15,Invoice,{},118000.00,0.00,236000.00", no(&h.invoice_b)),
        format!("2026-07-01,Payment,{},0.00,50000.00,186000.00", receipt(&h.part)),
        format!("2026-07-01,TDS,{},0.00,10000.00,176000.00", receipt(&h.part)),
        format!(
            "2026-07-20,Credit note,{} on {},0.00,11800.00,164200.00",
            no(&h.credit_note),
            no(&h.invoice_b)
        ),
        format!(
            "2026-08-01,Payment,{},0.00,20000.00,144200.00",
            receipt(&h.advance)
        ),
        format!(
            "2026-08-10,Payment,{},0.00,30000.00,114200.00",
            receipt(&h.cancelled)
        ),
        format!(
            "2026-08-12,Payment cancelled,{},30000.00,0.00,144200.00",
            receipt(&h.cancelled)
        ),
        "2026-10-31,Closing balance,,148000.00,121800.00,144200.00".to_string(),
        String::new(),
    ];
    assert_eq!(lines, expected);
}

#[tokio::test]
async fn the_pdf_twin_names_the_client_the_period_and_the_closing() {
    let h = history().await;
    let reply = h
        .app
        .get(
            &format!("/api/clients/{}/statement.pdf?{PERIOD}", h.society),
            &h.owner,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.headers[header::CONTENT_TYPE], "application/pdf");
    let text = crate::common::pdf::text(&reply.bytes);
    for expected in [
        "STATEMENT OF ACCOUNT",
        "Kadakkal SCB",
        "01 May 2026 to 31 Oct 2026",
        "₹1,44,200.00",
        "₹1,18,000.00",
        "SCAN TO PAY BY UPI",
        &no(&h.invoice_a),
    ] {
        assert!(text.contains(expected), "{expected} missing from {text}");
    }
}

#[tokio::test]
async fn a_statement_is_emailed_with_its_pdf_logged_and_audited() {
    let h = history().await;
    let path = format!("/api/clients/{}/statement/send", h.society);
    let written = || {
        h.app.count(
            "SELECT (SELECT COUNT(*) FROM email_log) * 1000 + (SELECT COUNT(*) FROM audit WHERE action = 'statement_emailed')",
        )
    };
    let body = json!({ "from": "2026-05-01", "to": "2026-10-31", "to_email": "accounts@kadakkal.coop" });
    let no_mail = h.app.post(&path, &h.owner, body.clone()).await;
    assert_eq!(
        (no_mail.status, no_mail.code()),
        (StatusCode::CONFLICT, "mail_not_configured")
    );
    let mail = FakeMail::start();
    let settings = h
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&h.owner)
                .json(json!({ "api_url": mail.url, "from": "billing@softland.in", "token": TOKEN })),
        )
        .await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.text);
    for (request, status, code, field) in [
        (
            json!({ "from": "2026-11-01", "to": "2026-10-31" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_period",
            Some("from"),
        ),
        (
            json!({ "to_email": "not an address" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_email",
            Some("to_email"),
        ),
        (json!({}), StatusCode::CONFLICT, "no_recipient", None),
    ] {
        let reply = h.app.post(&path, &h.owner, request.clone()).await;
        assert_eq!(
            (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
            (status, code, field),
            "{request}"
        );
    }
    let theirs = h.app.post(&path, &h.staff, body.clone()).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND);
    assert_eq!((written(), mail.received().len()), (0, 0));

    let sent = h.app.post(&path, &h.owner, body).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(
        (sent.body["status"].as_str(), sent.body["to"].as_str()),
        (Some("sent"), Some("accounts@kadakkal.coop"))
    );
    let received = mail.received();
    assert_eq!(received.len(), 1);
    let email = &received[0];
    assert_eq!(
        (email["To"].as_str(), email["Subject"].as_str()),
        (
            Some("accounts@kadakkal.coop"),
            Some("Statement of account 2026-27 from Softland India")
        )
    );
    assert!(
        email["TextBody"]
            .as_str()
            .unwrap()
            .contains("from 01 May 2026 to 31 Oct 2026. The closing balance is ₹1,44,200.00."),
        "{}",
        email["TextBody"]
    );
    let attachment = &email["Attachments"][0];
    assert_eq!(
        attachment["Name"],
        format!("statement-{}-2026-05-01-to-2026-10-31.pdf", h.society)
    );
    let pdf = base64::engine::general_purpose::STANDARD
        .decode(attachment["Content"].as_str().unwrap())
        .unwrap();
    assert!(crate::common::pdf::text(&pdf).contains("₹1,44,200.00"));
    let (purpose, client, log_id): (String, String, String) = h
        .app
        .sql()
        .query_row("SELECT purpose, client_id, id FROM email_log", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!(
        (purpose.as_str(), client.as_str(), Some(log_id.as_str())),
        ("statement", h.society.as_str(), sent.body["log_id"].as_str())
    );
    let after: String = h
        .app
        .sql()
        .query_row(
            "SELECT after FROM audit WHERE action = 'statement_emailed' AND entity = 'client' AND entity_id = ?1",
            [&h.society],
            |r| r.get(0),
        )
        .unwrap();
    let after: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(
        (&after["closing"], &after["status"], &after["email"]),
        (
            &json!(14_420_000),
            &json!("sent"),
            &json!("accounts@kadakkal.coop")
        )
    );
}

#[tokio::test]
async fn the_year_end_run_lists_who_owes_and_sends_each_statement_once_a_day() {
    let h = history().await;
    let mail = FakeMail::start();
    let settings = h
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&h.owner)
                .json(json!({ "api_url": mail.url, "from": "billing@softland.in", "token": TOKEN })),
        )
        .await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.text);
    let list = |cookie: String| {
        let app = &h.app;
        async move { app.get("/api/statements/year-end?fy=2026-27", &cookie).await }
    };
    assert_eq!(list(h.staff.clone()).await.status, StatusCode::FORBIDDEN);
    for (fy, status, code) in [
        ("2026", StatusCode::BAD_REQUEST, "invalid_fy"),
        ("2026-28", StatusCode::BAD_REQUEST, "invalid_fy"),
        ("2098-99", StatusCode::UNPROCESSABLE_ENTITY, "future_fy"),
    ] {
        let reply = h
            .app
            .get(&format!("/api/statements/year-end?fy={fy}"), &h.owner)
            .await;
        assert_eq!(
            (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
            (status, code, Some("fy")),
            "{fy}"
        );
    }
    // Kadakkal owes and has no address yet; Anchal has nothing on its books.
    let before = list(h.owner.clone()).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    assert_eq!(
        (&before.body["fy"], &before.body["from"], &before.body["rows"]),
        (
            &json!("2026-27"),
            &json!("2026-04-01"),
            &json!([{ "client_id": h.society, "client_name": "Kadakkal SCB", "closing": 14_420_000,
                      "email": null, "sent_today": false }])
        )
    );
    h.app
        .sql()
        .execute(
            "UPDATE client SET email = 'office@kadakkal.coop' WHERE id = ?1",
            [&h.society],
        )
        .unwrap();
    let to = before.body["to"].as_str().unwrap().to_string();
    let path = format!("/api/clients/{}/statement/send", h.society);
    let body = json!({ "from": "2026-04-01", "to": to });
    let first = h.app.post(&path, &h.owner, body.clone()).await;
    assert_eq!(
        (first.status, first.body["to"].as_str()),
        (StatusCode::OK, Some("office@kadakkal.coop")),
        "{}",
        first.text
    );
    let after = list(h.owner.clone()).await;
    assert_eq!(
        (
            &after.body["rows"][0]["email"],
            &after.body["rows"][0]["sent_today"]
        ),
        (&json!("office@kadakkal.coop"), &json!(true))
    );
    // The same list downloads, for the owner and never for staff.
    let csv = h
        .app
        .get("/api/statements/year-end.csv?fy=2026-27", &h.owner)
        .await;
    assert_eq!(
        (csv.status, csv.header("content-disposition")),
        (
            StatusCode::OK,
            Some("attachment; filename=\"year-end-statements-2026-27.csv\"")
        )
    );
    assert_eq!(
        csv.text
            .trim_start_matches('\u{feff}')
            .lines()
            .collect::<Vec<_>>(),
        [
            "Client ID,Client,Closing,Sent to,Sent today".to_string(),
            format!("{},Kadakkal SCB,144200.00,office@kadakkal.coop,yes", h.society),
        ]
    );
    let staff_csv = h.app.get("/api/statements/year-end.csv", &h.staff).await;
    assert_eq!(staff_csv.status, StatusCode::FORBIDDEN);
    // Run again the same day: nothing goes twice.
    let again = h.app.post(&path, &h.owner, body).await;
    assert_eq!(
        (again.status, again.code()),
        (StatusCode::CONFLICT, "already_sent")
    );
    assert_eq!(mail.received().len(), 1);
    assert_eq!(h.app.count("SELECT COUNT(*) FROM email_log"), 1);
}

#[tokio::test]
async fn a_refunded_advance_is_a_debit_and_the_closing_still_ties() {
    let h = history().await;
    let refund = h
        .app
        .post(
            &format!("/api/payments/{}/refund", id(&h.advance)),
            &h.owner,
            json!({ "amount": 500_000, "reason": "Paid twice", "refunded_on": "2026-09-01" }),
        )
        .await;
    assert_eq!(refund.status, StatusCode::OK, "{}", refund.text);
    let s = h
        .app
        .get(
            &format!(
                "/api/clients/{}/statement?from=2026-08-13&to=2026-10-31",
                h.society
            ),
            &h.owner,
        )
        .await
        .body;
    assert_eq!(
        (&s["opening"], &s["rows"], &s["closing"]),
        (
            &json!(14_420_000),
            &json!([{ "date": "2026-09-01", "kind": "refund", "payment_id": id(&h.advance),
                      "ref": h.advance["receipt_no"], "debit": 500_000, "credit": 0, "balance": 14_920_000 }]),
            &json!(14_920_000)
        )
    );
    let owes = h
        .app
        .get(&format!("/api/clients/{}", h.society), &h.owner)
        .await
        .body["owes"]
        .clone();
    let today = h
        .app
        .get(&format!("/api/clients/{}/statement", h.society), &h.owner)
        .await
        .body["closing"]
        .clone();
    assert_eq!(
        (
            owes["outstanding"].as_i64(),
            owes["unallocated"].as_i64(),
            today.as_i64()
        ),
        (Some(16_420_000), Some(1_500_000), Some(14_920_000))
    );
}
