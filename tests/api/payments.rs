//! Payments: partial payments, TDS, advances and later allocation, every refusal, receipt
//! numbers by financial year, outstanding after credit notes, dues aging at its bucket edges,
//! the GST summary with a credit note in a later month, and milestones linked to a payment.

use crate::common::TestApp;
use axum::http::{StatusCode, header};
use serde_json::{Value, json};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

struct Books {
    app: TestApp,
    owner: String,
    staff: String,
    module: String,
    society: String,
    other: String,
}

async fn books() -> Books {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (staff_id, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    app.set_company(&owner, json!({})).await;
    let module = app.priced_module(&owner, 10_000_000).await;
    let society = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Kadakkal SCB", "state_code": "32", "owner_id": staff_id }),
        )
        .await
        .body;
    let other = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Anchal SCB", "state_code": "32" }),
        )
        .await
        .body;
    Books {
        app,
        owner,
        staff,
        module,
        society: id(&society),
        other: id(&other),
    }
}

/// An issued document (₹1,00,000 taxable + 18% per qty) for `client`, dated `doc_date` when given.
async fn issued(b: &Books, doc_type: &str, client: &str, doc_date: Option<&str>, due: Option<&str>) -> Value {
    let mut body =
        json!({ "type": doc_type, "client_id": client, "lines": [ { "module_id": b.module, "qty": 1 } ] });
    if let Some(d) = doc_date {
        body["doc_date"] = json!(d);
    }
    if let Some(d) = due {
        body["dueDate"] = json!(d);
    }
    let draft = b.app.post("/api/documents", &b.owner, body).await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let reply = b
        .app
        .post(
            &format!("/api/documents/{}/issue", id(&draft.body)),
            &b.owner,
            json!({}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

/// The society subscribed to the module: the project, its milestones path and its checklist.
async fn society_checklist(b: &Books) -> (Value, String, Value) {
    let link = b
        .app
        .post(
            "/api/client-modules",
            &b.owner,
            json!({ "client_id": b.society, "module_id": b.module }),
        )
        .await
        .body;
    let path = format!("/api/client-modules/{}/milestones", id(&link));
    let steps = b.app.get(&path, &b.owner).await.body;
    (link, path, steps)
}

async fn pay(b: &Books, body: Value) -> crate::common::Reply {
    b.app.post("/api/payments", &b.owner, body).await
}

async fn aging(b: &Books, as_of: &str) -> crate::common::Reply {
    b.app
        .get(&format!("/api/reports/dues-aging?as_of={as_of}"), &b.owner)
        .await
}

async fn doc(b: &Books, d: &Value) -> Value {
    b.app
        .get(&format!("/api/documents/{}", id(d)), &b.owner)
        .await
        .body
}

#[tokio::test]
async fn partial_payments_and_tds_settle_an_invoice() {
    let b = books().await;
    let invoice = issued(&b, "INVOICE", &b.society, None, None).await;
    assert_eq!(
        (
            invoice["outstanding"].as_i64(),
            invoice["paid"].as_i64().map(|f| f == 1)
        ),
        (Some(11_800_000), Some(false))
    );
    let first = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 5_000_000, "mode": "cheque", "reference": "004512",
                "allocations": [ { "document_id": id(&invoice), "amount": 5_000_000, "tds": 0 } ] }),
    )
    .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(first.body["receipt_no"], "RCT/26-27-0001");
    assert_eq!(first.body["unallocated"], 0);
    assert_eq!(doc(&b, &invoice).await["outstanding"], 6_800_000);
    // The rest: money plus 10% TDS of the taxable value (never of the GST).
    let second = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-10-15", "amount": 5_800_000, "mode": "neft_rtgs", "reference": "UTR123",
                "allocations": [ { "document_id": id(&invoice), "amount": 5_800_000, "tds": 1_000_000 } ] }),
    )
    .await;
    assert_eq!(second.status, StatusCode::CREATED, "{}", second.text);
    assert_eq!(
        (second.body["receipt_no"].as_str(), second.body["tds"].as_i64()),
        (Some("RCT/26-27-0002"), Some(1_000_000))
    );
    let settled = doc(&b, &invoice).await;
    assert_eq!(
        (
            settled["outstanding"].as_i64(),
            settled["paid"].as_i64().map(|f| f == 1)
        ),
        (Some(0), Some(true))
    );
    let pdf = b
        .app
        .get(
            &format!("/api/payments/{}/receipt.pdf", id(&second.body)),
            &b.owner,
        )
        .await;
    assert_eq!(
        pdf.headers[header::CONTENT_DISPOSITION],
        "inline; filename=\"RCT-26-27-0002.pdf\""
    );
    let text = crate::common::pdf::text(&pdf.bytes);
    for expected in [
        "RECEIPT",
        "RCT/26-27-0002",
        "₹58,000.00",
        "Rupees Fifty Eight Thousand Only",
        "NEFT/RTGS",
        "UTR123",
        "₹10,000.00",
        "Kadakkal SCB",
    ] {
        assert!(text.contains(expected), "{expected} missing from {text}");
    }
    assert!(
        invoice["docNo"].as_str().is_some_and(|no| text.contains(no)),
        "{text}"
    );
    assert_eq!(
        b.app
            .get(
                &format!("/api/payments/{}/receipt.pdf", id(&second.body)),
                &b.staff
            )
            .await
            .status,
        StatusCode::OK,
        "the owner recorded it, but for the staff member's client: it is in their book"
    );
    let list = b
        .app
        .get(&format!("/api/documents?client_id={}", b.society), &b.owner)
        .await;
    assert_eq!(list.body["rows"][0]["outstanding"], 0);
    // Audit: recorded, and each allocation on its invoice with the outstanding before and after.
    assert_eq!(
        b.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'payment' AND action = 'recorded'"),
        2
    );
    let (before, after): (String, String) = b
        .app
        .sql()
        .query_row(
            "SELECT before, after FROM audit WHERE action = 'payment_allocated' ORDER BY id DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(
        before.contains("6800000") && after.contains("\"outstanding\":0"),
        "{before} {after}"
    );
}

#[tokio::test]
async fn an_advance_is_held_and_allocated_later() {
    let b = books().await;
    let advance = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-09-01", "amount": 2_000_000, "mode": "upi" }),
    )
    .await;
    assert_eq!(
        (advance.status, advance.body["unallocated"].as_i64()),
        (StatusCode::CREATED, Some(2_000_000))
    );
    let invoice = issued(&b, "INVOICE", &b.society, None, None).await;
    let path = format!("/api/payments/{}/allocate", id(&advance.body));
    let too_much = b
        .app
        .post(
            &path,
            &b.owner,
            json!({ "allocations": [ { "document_id": id(&invoice), "amount": 2_000_001 } ] }),
        )
        .await;
    assert_eq!(
        (too_much.status, too_much.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "exceeds_unallocated")
    );
    let applied = b
        .app
        .post(
            &path,
            &b.owner,
            json!({ "allocations": [ { "document_id": id(&invoice), "amount": 2_000_000 } ] }),
        )
        .await;
    assert_eq!(
        (applied.status, applied.body["unallocated"].as_i64()),
        (StatusCode::OK, Some(0)),
        "{}",
        applied.text
    );
    assert_eq!(applied.body["allocations"][0]["docNo"], invoice["docNo"]);
    assert_eq!(doc(&b, &invoice).await["outstanding"], 9_800_000);
    assert_eq!(
        b.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'payment' AND action = 'allocated'"),
        1
    );
    let empty = b.app.post(&path, &b.owner, json!({ "allocations": [] })).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn every_refusal_writes_nothing_and_keeps_the_receipt_series_gapless() {
    let b = books().await;
    let invoice = issued(&b, "INVOICE", &b.society, None, None).await;
    let proforma = issued(&b, "PROFORMA", &b.society, None, None).await;
    let theirs = issued(&b, "INVOICE", &b.other, None, None).await;
    let cancelled = issued(&b, "INVOICE", &b.society, None, None).await;
    b.app
        .post(
            &format!("/api/documents/{}/cancel", id(&cancelled)),
            &b.owner,
            json!({ "reason": "Wrong society" }),
        )
        .await;
    let draft = b
        .app
        .post("/api/documents", &b.owner, json!({ "type": "INVOICE", "client_id": b.society, "lines": [ { "module_id": b.module, "qty": 1 } ] }))
        .await
        .body;
    let with = |doc: &Value, amount: i64, tds: i64| {
        json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 20_000_000, "mode": "cheque",
                "allocations": [ { "document_id": id(doc), "amount": amount, "tds": tds } ] })
    };
    let cases = [
        (
            with(&theirs, 100, 0),
            "allocations[0].document_id",
            "other_client",
        ),
        (
            with(&proforma, 100, 0),
            "allocations[0].document_id",
            "not_an_invoice",
        ),
        (
            with(&cancelled, 100, 0),
            "allocations[0].document_id",
            "not_issued",
        ),
        (with(&draft, 100, 0), "allocations[0].document_id", "not_issued"),
        (
            with(&invoice, 11_800_000, 1),
            "allocations[0].amount",
            "exceeds_outstanding",
        ),
        (with(&invoice, 0, 0), "allocations[0].amount", "invalid_amount"),
        (
            json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 100, "mode": "cheque",
                    "allocations": [ { "document_id": id(&invoice), "amount": 101 } ] }),
            "allocations",
            "exceeds_unallocated",
        ),
        (
            json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 0, "mode": "cash" }),
            "amount",
            "invalid_amount",
        ),
        (
            json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 5, "mode": "barter" }),
            "mode",
            "invalid_choice",
        ),
        (
            json!({ "client_id": b.society, "received_on": "2099-01-01", "amount": 5, "mode": "cash" }),
            "received_on",
            "in_the_future",
        ),
    ];
    for (body, field, code) in cases {
        let r = pay(&b, body.clone()).await;
        assert_eq!(
            (r.status, r.body["error"]["field"].as_str(), r.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field), code),
            "{body}"
        );
    }
    let missing = pay(&b, json!({ "client_id": "01NOSUCHCLIENT0000000000000", "received_on": "2026-10-01", "amount": 5, "mode": "cash" })).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(b.app.count("SELECT COUNT(*) FROM payment"), 0);
    assert_eq!(b.app.count("SELECT COUNT(*) FROM payment_allocation"), 0);
    let ok = pay(&b, with(&invoice, 100, 0)).await;
    assert_eq!(
        (ok.status, ok.body["receipt_no"].as_str()),
        (StatusCode::CREATED, Some("RCT/26-27-0001")),
        "{}",
        ok.text
    );
}

#[tokio::test]
async fn receipt_numbers_follow_the_financial_year_of_received_on() {
    let b = books().await;
    let mut numbers = vec![];
    for day in ["2026-03-31", "2026-04-01", "2026-04-02", "2026-03-30"] {
        let r = pay(
            &b,
            json!({ "client_id": b.society, "received_on": day, "amount": 1_000, "mode": "cash" }),
        )
        .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        numbers.push(r.body["receipt_no"].as_str().unwrap().to_string());
    }
    assert_eq!(
        numbers,
        [
            "RCT/25-26-0001",
            "RCT/26-27-0001",
            "RCT/26-27-0002",
            "RCT/25-26-0002"
        ]
    );
}

#[tokio::test]
async fn credit_notes_and_payments_share_one_outstanding() {
    let b = books().await;
    let invoice = issued(&b, "INVOICE", &b.society, None, None).await;
    let credit = b
        .app
        .post(
            &format!("/api/documents/{}/credit-note", id(&invoice)),
            &b.owner,
            json!({ "reason": "Discount agreed", "lines": [ { "description": "Discount", "qty": 1, "unit_price": 1_000_000 } ] }),
        )
        .await;
    assert_eq!(credit.status, StatusCode::OK, "{}", credit.text);
    assert_eq!(doc(&b, &invoice).await["outstanding"], 11_800_000 - 1_180_000);
    let over = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 11_800_000, "mode": "cheque",
                "allocations": [ { "document_id": id(&invoice), "amount": 11_800_000 } ] }),
    )
    .await;
    assert_eq!(over.code(), "exceeds_outstanding");
    let part = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 10_000_000, "mode": "cheque",
                "allocations": [ { "document_id": id(&invoice), "amount": 10_000_000 } ] }),
    )
    .await;
    assert_eq!(part.status, StatusCode::CREATED);
    assert_eq!(doc(&b, &invoice).await["outstanding"], 620_000);
    // A credit note may not take the invoice below zero now that most of it is paid.
    let too_big = b
        .app
        .post(
            &format!("/api/documents/{}/credit-note", id(&invoice)),
            &b.owner,
            json!({ "reason": "More discount", "lines": [ { "description": "Discount", "qty": 1, "unit_price": 1_000_000 } ] }),
        )
        .await;
    assert_eq!(
        (too_big.status, too_big.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "exceeds_creditable")
    );
}

#[tokio::test]
async fn dues_aging_buckets_turn_between_day_30_and_31() {
    let b = books().await;
    // Both due 2026-09-01: on 2026-10-01 one is 30 days late; on 2026-10-02 it is 31.
    let due = issued(&b, "INVOICE", &b.society, Some("2026-08-20"), Some("2026-09-01")).await;
    // Without a due date the anchor is the document date.
    let old = issued(&b, "INVOICE", &b.other, Some("2026-06-01"), None).await;
    b.app
        .sql()
        .execute("UPDATE document SET due_date = NULL WHERE id = ?1", [id(&old)])
        .unwrap();
    let day30 = aging(&b, "2026-10-01").await;
    assert_eq!(day30.status, StatusCode::OK, "{}", day30.text);
    let kadakkal = day30.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["client_id"] == b.society.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (kadakkal["days_1_30"].as_i64(), kadakkal["days_31_60"].as_i64()),
        (Some(11_800_000), Some(0))
    );
    let anchal = day30.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["client_id"] == b.other.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        anchal["over_90"], 11_800_000,
        "2026-06-01 to 2026-10-01 is 122 days"
    );
    assert_eq!(day30.body["totals"]["total"], 23_600_000);
    assert_eq!(day30.body["total"], 2);
    let day31 = aging(&b, "2026-10-02").await;
    let kadakkal = day31.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["client_id"] == b.society.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (kadakkal["days_1_30"].as_i64(), kadakkal["days_31_60"].as_i64()),
        (Some(0), Some(11_800_000))
    );
    // Not yet due on the due date itself; before the invoice existed it owed nothing.
    let on_due = aging(&b, "2026-09-01").await;
    assert_eq!(on_due.body["totals"]["not_due"], 11_800_000);
    assert_eq!(aging(&b, "2026-05-01").await.body["total"], 0);
    // A payment received after the as-of date does not count yet.
    pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-10-05", "amount": 1_800_000, "mode": "cheque",
                "allocations": [ { "document_id": id(&due), "amount": 1_800_000 } ] }),
    )
    .await;
    assert_eq!(
        aging(&b, "2026-10-02").await.body["totals"]["days_31_60"],
        11_800_000
    );
    assert_eq!(
        aging(&b, "2026-10-06").await.body["totals"]["days_31_60"],
        10_000_000
    );
    // Drill-down and CSV.
    let drill = b
        .app
        .get(
            &format!(
                "/api/reports/dues-aging/invoices?client_id={}&as_of=2026-10-06&bucket=days_31_60",
                b.society
            ),
            &b.owner,
        )
        .await;
    assert_eq!(
        (
            drill.body["total"].as_i64(),
            drill.body["rows"][0]["days_past_due"].as_i64()
        ),
        (Some(1), Some(35))
    );
    assert_eq!(drill.body["rows"][0]["docNo"], due["docNo"]);
    let bad = b
        .app
        .get("/api/reports/dues-aging/invoices?bucket=old", &b.owner)
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let csv = b
        .app
        .get("/api/reports/dues-aging.csv?as_of=2026-10-06", &b.owner)
        .await;
    assert_eq!(csv.headers[header::CONTENT_TYPE], "text/csv; charset=utf-8");
    assert!(
        csv.text
            .starts_with("Client ID,Client,Not due,1-30 days,31-60 days,61-90 days,Over 90 days,Total\r\n"),
        "{}",
        csv.text
    );
    assert!(
        csv.text
            .ends_with(",TOTAL,0.00,0.00,100000.00,0.00,118000.00,218000.00\r\n"),
        "{}",
        csv.text
    );
    // Staff see the invoices of their own clients (the owner raised them for Kadakkal, the
    // staff member's client; not those of Anchal).
    let theirs = b
        .app
        .get("/api/reports/dues-aging?as_of=2026-10-06", &b.staff)
        .await
        .body;
    assert_eq!(theirs["total"], 1);
    assert_eq!(theirs["rows"][0]["client_id"], b.society);
}

#[tokio::test]
async fn the_gst_summary_subtracts_a_credit_note_in_its_own_month() {
    let b = books().await;
    let may = issued(&b, "INVOICE", &b.society, Some("2026-05-10"), None).await;
    issued(&b, "INVOICE", &b.other, Some("2026-05-20"), None).await;
    let cancelled = issued(&b, "INVOICE", &b.other, Some("2026-06-02"), None).await;
    b.app
        .post(
            &format!("/api/documents/{}/cancel", id(&cancelled)),
            &b.owner,
            json!({ "reason": "Duplicate" }),
        )
        .await;
    let credit = b
        .app
        .post(
            &format!("/api/documents/{}/credit-note", id(&may)),
            &b.owner,
            json!({ "reason": "Discount", "lines": [ { "description": "Discount", "qty": 1, "unit_price": 1_000_000 } ] }),
        )
        .await
        .body;
    let credit_month = credit["doc_date"].as_str().unwrap()[..7].to_string();
    let r = b
        .app
        .get("/api/reports/gst-summary?from=2026-04-01&to=2027-03-31", &b.owner)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let rows = r.body["rows"].as_array().unwrap();
    assert_eq!(
        rows[0],
        json!({ "month": "2026-05", "taxable": 20_000_000, "cgst": 1_800_000, "sgst": 1_800_000, "igst": 0, "total": 23_600_000 })
    );
    let later = rows.iter().find(|m| m["month"] == credit_month.as_str()).unwrap();
    assert_eq!(later["taxable"], -1_000_000);
    assert_eq!(
        (later["cgst"].as_i64(), later["total"].as_i64()),
        (Some(-90_000), Some(-1_180_000))
    );
    assert_eq!(r.body["grand_total"]["total"], 23_600_000 - 1_180_000);
    assert!(
        rows.iter().all(|m| m["month"] != "2026-06"),
        "a cancelled invoice is not in the return"
    );
    let csv = b
        .app
        .get(
            "/api/reports/gst-summary.csv?from=2026-04-01&to=2027-03-31",
            &b.owner,
        )
        .await;
    assert!(
        csv.text
            .contains("2026-05,200000.00,18000.00,18000.00,0.00,236000.00\r\n"),
        "{}",
        csv.text
    );
    assert!(
        csv.text.ends_with(&format!(
            "TOTAL,190000.00,17100.00,17100.00,0.00,{}\r\n",
            "224200.00"
        )),
        "{}",
        csv.text
    );
    let backwards = b
        .app
        .get("/api/reports/gst-summary?from=2027-01-01&to=2026-01-01", &b.owner)
        .await;
    assert_eq!(backwards.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn staff_see_the_payments_of_their_clients_and_milestones_take_a_payment_of_the_same_client() {
    let b = books().await;
    let theirs = b
        .app
        .post(
            "/api/payments",
            &b.staff,
            json!({ "client_id": b.society, "received_on": "2026-09-15", "amount": 500_000, "mode": "upi" }),
        )
        .await;
    assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.text);
    let owners = pay(
        &b,
        json!({ "client_id": b.other, "received_on": "2026-09-16", "amount": 700_000, "mode": "cash" }),
    )
    .await
    .body;
    // Staff may not record for a client outside their book.
    let refused = b
        .app
        .post(
            "/api/payments",
            &b.staff,
            json!({ "client_id": b.other, "received_on": "2026-09-15", "amount": 1, "mode": "upi" }),
        )
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    // The owner records one for the staff member's client: it is in the staff member's book.
    let for_their_client = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-09-17", "amount": 300_000, "mode": "neft_rtgs" }),
    )
    .await
    .body;
    let list = b.app.get("/api/payments", &b.staff).await;
    let ids: Vec<&str> = list.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        (list.body["total"].as_i64(), ids),
        (
            Some(2),
            vec![
                id(&for_their_client).as_str(),
                theirs.body["id"].as_str().unwrap()
            ]
        )
    );
    assert_eq!(
        b.app
            .get(&format!("/api/payments/{}", id(&for_their_client)), &b.staff)
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        b.app
            .get(&format!("/api/payments/{}", id(&owners)), &b.staff)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let all = b.app.get("/api/payments?mode=cash", &b.owner).await;
    assert_eq!(all.body["total"], 1);
    let dated = b
        .app
        .get("/api/payments?from=2026-09-16&to=2026-09-30", &b.owner)
        .await;
    assert_eq!(
        (
            dated.body["rows"][0]["id"].clone(),
            dated.body["rows"][1]["id"].clone()
        ),
        (for_their_client["id"].clone(), owners["id"].clone())
    );

    // A milestone ticked with the payment takes its received_on; another client's payment is refused.
    let (_, path, steps) = society_checklist(&b).await;
    let key = steps["rows"][0]["key"].as_str().unwrap().to_string();
    let wrong = b
        .app
        .post(
            &path,
            &b.owner,
            json!({ "key": key, "done": true, "paymentId": id(&owners) }),
        )
        .await;
    assert_eq!(wrong.status.as_u16() / 100, 4, "{}", wrong.text);
    let ticked = b
        .app
        .post(
            &path,
            &b.owner,
            // The date typed does not win over the day the money came (spec 2.6).
            json!({ "key": key, "done": true, "doneOn": "2026-10-01", "paymentId": id(&theirs.body) }),
        )
        .await;
    assert_eq!(ticked.status, StatusCode::OK, "{}", ticked.text);
    let steps = b.app.get(&path, &b.owner).await.body;
    let step = steps["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == key.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (step["done_on"].as_str(), step["payment_id"].as_str()),
        (Some("2026-09-15"), theirs.body["id"].as_str())
    );
}

#[tokio::test]
async fn a_cancelled_payment_gives_the_invoices_their_outstanding_back_and_keeps_its_number() {
    let b = books().await;
    let invoice = issued(&b, "INVOICE", &b.society, None, None).await;
    let no_date = pay(
        &b,
        json!({ "client_id": b.society, "amount": 5_000_000, "mode": "cheque" }),
    )
    .await;
    assert_eq!(
        no_date.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "received_on is required: {}",
        no_date.text
    );
    let paid = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 5_000_000, "mode": "cheque",
                "allocations": [ { "document_id": id(&invoice), "amount": 5_000_000, "tds": 1_000_000 } ] }),
    )
    .await;
    assert_eq!(paid.status, StatusCode::CREATED, "{}", paid.text);
    assert_eq!(doc(&b, &invoice).await["outstanding"], 5_800_000);
    let path = format!("/api/payments/{}/cancel", id(&paid.body));
    let audits = || b.app.count("SELECT COUNT(*) FROM audit");
    let audited = audits();

    // Refused: staff, and a missing reason. Nothing changes.
    let by_staff = b
        .app
        .post(&path, &b.staff, json!({ "reason": "Entered twice" }))
        .await;
    assert_eq!(by_staff.status, StatusCode::FORBIDDEN);
    let no_reason = b.app.post(&path, &b.owner, json!({ "reason": "  " })).await;
    assert_eq!(
        (no_reason.status, no_reason.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "reason_required")
    );
    assert_eq!(
        (audits(), doc(&b, &invoice).await["outstanding"].as_i64()),
        (audited, Some(5_800_000))
    );

    let cancelled = b
        .app
        .post(&path, &b.owner, json!({ "reason": "Entered twice" }))
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    let p = &cancelled.body;
    assert_eq!(
        (
            p["status"].as_str(),
            p["cancel_reason"].as_str(),
            p["receipt_no"].as_str(),
            p["unallocated"].as_i64()
        ),
        (
            Some("cancelled"),
            Some("Entered twice"),
            Some("RCT/26-27-0001"),
            Some(0)
        )
    );
    assert_eq!(p["allocations"], json!([]));
    let owed = doc(&b, &invoice).await;
    assert_eq!(
        (owed["outstanding"].as_i64(), owed["payment_state"].as_str()),
        (Some(11_800_000), Some("unpaid"))
    );
    assert_eq!(aging(&b, "2026-12-31").await.body["totals"]["total"], 11_800_000);
    // The trail: the payment with its reason, and the invoice owing again.
    let (after,): (String,) = b
        .app
        .sql()
        .query_row(
            "SELECT after FROM audit WHERE entity = 'payment' AND action = 'cancelled'",
            [],
            |r| Ok((r.get(0)?,)),
        )
        .unwrap();
    assert!(after.contains("Entered twice"), "{after}");
    let (before, after): (String, String) = b
        .app
        .sql()
        .query_row(
            "SELECT before, after FROM audit WHERE entity = 'document' AND action = 'payment_reversed'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(
        before.contains("5800000") && after.contains("11800000"),
        "{before} {after}"
    );
    let text = crate::common::pdf::text(
        &b.app
            .get(&format!("/api/payments/{}/receipt.pdf", id(p)), &b.owner)
            .await
            .bytes,
    );
    assert!(
        text.contains("RECEIPT (CANCELLED)") && text.contains("Entered twice"),
        "{text}"
    );

    // A cancelled payment is not cancelled again, nor allocated.
    let again = b.app.post(&path, &b.owner, json!({ "reason": "Again" })).await;
    assert_eq!(
        (again.status, again.code()),
        (StatusCode::CONFLICT, "payment_cancelled")
    );
    let allocate = b
        .app
        .post(
            &format!("/api/payments/{}/allocate", id(p)),
            &b.owner,
            json!({ "allocations": [ { "document_id": id(&invoice), "amount": 100 } ] }),
        )
        .await;
    assert_eq!(
        (allocate.status, allocate.code()),
        (StatusCode::CONFLICT, "payment_cancelled")
    );
    let listed = b.app.get("/api/payments?status=cancelled", &b.owner).await;
    assert_eq!(
        (
            listed.body["total"].as_i64(),
            listed.body["rows"][0]["status"].as_str()
        ),
        (Some(1), Some("cancelled"))
    );
    assert_eq!(
        b.app.get("/api/payments?status=void", &b.owner).await.status,
        StatusCode::BAD_REQUEST
    );

    // The correct payment is recorded anew, with the next number.
    let anew = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 5_000_000, "mode": "cheque",
                "allocations": [ { "document_id": id(&invoice), "amount": 5_000_000 } ] }),
    )
    .await;
    assert_eq!(anew.body["receipt_no"], "RCT/26-27-0002");
}

#[tokio::test]
async fn an_advance_is_refunded_back_to_zero_with_a_reason() {
    let b = books().await;
    let advance = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-09-01", "amount": 2_000_000, "mode": "upi" }),
    )
    .await;
    let path = format!("/api/payments/{}/refund", id(&advance.body));
    let refund =
        |amount: i64, on: &str| json!({ "amount": amount, "refunded_on": on, "reason": "Project dropped" });
    for (body, who, status, code) in [
        (
            refund(2_000_001, "2026-09-10"),
            &b.owner,
            StatusCode::UNPROCESSABLE_ENTITY,
            "exceeds_unallocated",
        ),
        (
            refund(100, "2026-08-31"),
            &b.owner,
            StatusCode::UNPROCESSABLE_ENTITY,
            "out_of_range",
        ),
        (
            refund(100, "2099-01-01"),
            &b.owner,
            StatusCode::UNPROCESSABLE_ENTITY,
            "out_of_range",
        ),
        (
            json!({ "amount": 100, "refunded_on": "2026-09-10", "reason": "" }),
            &b.owner,
            StatusCode::UNPROCESSABLE_ENTITY,
            "reason_required",
        ),
        (
            refund(100, "2026-09-10"),
            &b.staff,
            StatusCode::FORBIDDEN,
            "forbidden",
        ),
    ] {
        let reply = b.app.post(&path, who, body).await;
        assert_eq!((reply.status, reply.code()), (status, code), "{}", reply.text);
    }
    assert_eq!(b.app.count("SELECT COUNT(*) FROM payment_refund"), 0);
    let part = b.app.post(&path, &b.owner, refund(500_000, "2026-09-10")).await;
    assert_eq!(
        (part.status, part.body["unallocated"].as_i64()),
        (StatusCode::OK, Some(1_500_000)),
        "{}",
        part.text
    );
    let rest = b.app.post(&path, &b.owner, refund(1_500_000, "2026-09-12")).await;
    assert_eq!(
        (
            rest.body["unallocated"].as_i64(),
            rest.body["refunded"].as_i64(),
            rest.body["refunds"].as_array().map(Vec::len)
        ),
        (Some(0), Some(2_000_000), Some(2))
    );
    assert_eq!(rest.body["refunds"][1]["reason"], "Project dropped");
    assert_eq!(
        b.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'payment' AND action = 'refunded'"),
        2
    );
    let cancel = b
        .app
        .post(
            &format!("/api/payments/{}/cancel", id(&advance.body)),
            &b.owner,
            json!({ "reason": "Wrong" }),
        )
        .await;
    assert_eq!((cancel.status, cancel.code()), (StatusCode::CONFLICT, "refunded"));
}

#[tokio::test]
async fn invoices_say_whether_they_are_paid_and_the_list_filters_on_it() {
    let b = books().await;
    let paid = issued(&b, "INVOICE", &b.society, None, None).await;
    let part = issued(&b, "INVOICE", &b.society, None, None).await;
    let unpaid = issued(&b, "INVOICE", &b.society, None, None).await;
    let overdue = issued(&b, "INVOICE", &b.society, Some("2026-09-01"), Some("2026-09-16")).await;
    let quote = issued(&b, "QUOTATION", &b.society, None, None).await;
    let reply = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 12_800_000, "mode": "neft_rtgs",
                "allocations": [ { "document_id": id(&paid), "amount": 11_800_000 }, { "document_id": id(&part), "amount": 1_000_000 } ] }),
    )
    .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    for (d, state) in [
        (&paid, "paid"),
        (&part, "part_paid"),
        (&unpaid, "unpaid"),
        (&overdue, "overdue"),
    ] {
        assert_eq!(doc(&b, d).await["payment_state"], state, "{}", d["docNo"]);
        let listed = b
            .app
            .get(&format!("/api/documents?payment_state={state}"), &b.owner)
            .await;
        let ids: Vec<&str> = listed.body["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert_eq!(
            (ids, listed.body["total"].as_i64()),
            (vec![d["id"].as_str().unwrap()], Some(1)),
            "{state}"
        );
        assert_eq!(listed.body["rows"][0]["payment_state"], state);
    }
    assert_eq!(doc(&b, &quote).await["payment_state"], Value::Null);
    let bad = b.app.get("/api/documents?payment_state=settled", &b.owner).await;
    assert_eq!(
        (bad.status, bad.code()),
        (StatusCode::BAD_REQUEST, "invalid_payment_state")
    );
}

#[tokio::test]
async fn a_paid_or_credited_invoice_is_cancelled_only_once_its_payments_and_notes_are_gone() {
    let b = books().await;
    let invoice = issued(&b, "INVOICE", &b.society, None, None).await;
    let elsewhere = issued(&b, "INVOICE", &b.society, None, None).await;
    let cancel_path = format!("/api/documents/{}/cancel", id(&invoice));
    let paid = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-10-01", "amount": 5_000_000, "mode": "cheque",
                "allocations": [ { "document_id": id(&invoice), "amount": 4_000_000, "tds": 1_000_000 } ] }),
    )
    .await;
    assert_eq!(paid.status, StatusCode::CREATED, "{}", paid.text);
    let receipt = paid.body["receipt_no"].as_str().unwrap().to_string();

    // The invoice names what settles it.
    let shown = doc(&b, &invoice).await;
    assert_eq!(
        shown["payments"],
        json!([ { "payment_id": id(&paid.body), "receipt_no": receipt, "received_on": "2026-10-01",
                  "amount": 4_000_000, "tds": 1_000_000 } ])
    );
    assert_eq!(shown["credit_notes"], json!([]));

    // Refused while the payment is allocated: 409 naming the receipt, nothing written.
    let audits = || b.app.count("SELECT COUNT(*) FROM audit");
    let before = audits();
    let refused = b
        .app
        .post(&cancel_path, &b.owner, json!({ "reason": "Raised in error" }))
        .await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::CONFLICT, "has_payments")
    );
    assert_eq!(
        refused.body["error"]["message"],
        "Payments are allocated to this invoice (RCT/26-27-0001): cancel them, or move them to advance, before cancelling it."
    );
    assert_eq!(
        (audits(), doc(&b, &invoice).await["status"].as_str()),
        (before, Some("issued"))
    );

    // The way out: the payment's allocation goes back to its advance (owner and manager only).
    let unallocate = format!("/api/payments/{}/unallocate", id(&paid.body));
    let by_staff = b
        .app
        .post(&unallocate, &b.staff, json!({ "document_id": id(&invoice) }))
        .await;
    assert_eq!(by_staff.status, StatusCode::FORBIDDEN);
    let nothing_there = b
        .app
        .post(&unallocate, &b.owner, json!({ "document_id": id(&elsewhere) }))
        .await;
    assert_eq!(
        (
            nothing_there.status,
            nothing_there.code(),
            nothing_there.body["error"]["field"].as_str()
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "not_allocated",
            Some("document_id")
        )
    );
    assert_eq!(audits(), before);
    let moved = b
        .app
        .post(&unallocate, &b.owner, json!({ "document_id": id(&invoice) }))
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
    assert_eq!(
        (
            moved.body["unallocated"].as_i64(),
            moved.body["tds"].as_i64(),
            moved.body["allocations"].clone()
        ),
        (Some(5_000_000), Some(0), json!([]))
    );
    let owed = doc(&b, &invoice).await;
    assert_eq!(
        (owed["outstanding"].as_i64(), owed["payments"].clone()),
        (Some(11_800_000), json!([]))
    );
    assert_eq!(
        b.app.count(&format!(
            "SELECT COUNT(*) FROM audit WHERE (entity = 'payment' AND action = 'unallocated' AND entity_id = '{}')
                OR (entity = 'document' AND action = 'payment_reversed' AND entity_id = '{}'
                    AND json_extract(after, '$.outstanding') = 11800000 AND json_extract(after, '$.tds') = 1000000)",
            id(&paid.body),
            id(&invoice)
        )),
        2
    );

    // A live credit note refuses the cancel too, naming it; a cancelled one does not.
    let note = b
        .app
        .post(
            &format!("/api/documents/{}/credit-note", id(&invoice)),
            &b.owner,
            json!({ "reason": "Discount agreed", "lines": [ { "description": "Discount", "qty": 1, "unit_price": 100_000, "gst_rate": 18 } ] }),
        )
        .await;
    assert_eq!(note.status, StatusCode::OK, "{}", note.text);
    let credited = b
        .app
        .post(&cancel_path, &b.owner, json!({ "reason": "Raised in error" }))
        .await;
    assert_eq!(
        (
            credited.status,
            credited.code(),
            credited.body["error"]["message"].as_str()
        ),
        (
            StatusCode::CONFLICT,
            "has_credit_notes",
            Some(
                "Credit notes stand against this invoice (CN/26-27-0001): cancel them before cancelling it."
            )
        )
    );
    let note_cancelled = b
        .app
        .post(
            &format!("/api/documents/{}/cancel", id(&note.body)),
            &b.owner,
            json!({ "reason": "Wrong amount" }),
        )
        .await;
    assert_eq!(note_cancelled.status, StatusCode::OK, "{}", note_cancelled.text);
    assert_eq!(doc(&b, &invoice).await["credit_notes"][0]["status"], "cancelled");
    let cancelled = b
        .app
        .post(&cancel_path, &b.owner, json!({ "reason": "Raised in error" }))
        .await;
    assert_eq!(
        (cancelled.status, cancelled.body["status"].as_str()),
        (StatusCode::OK, Some("cancelled")),
        "{}",
        cancelled.text
    );
    // The money is free: it settles the other invoice.
    let reused = b
        .app
        .post(
            &format!("/api/payments/{}/allocate", id(&paid.body)),
            &b.owner,
            json!({ "allocations": [ { "document_id": id(&elsewhere), "amount": 5_000_000 } ] }),
        )
        .await;
    assert_eq!(
        (reused.status, reused.body["unallocated"].as_i64()),
        (StatusCode::OK, Some(0)),
        "{}",
        reused.text
    );

    // A cancelled payment is not moved.
    let cancel_payment = b
        .app
        .post(
            &format!("/api/payments/{}/cancel", id(&paid.body)),
            &b.owner,
            json!({ "reason": "Bounced" }),
        )
        .await;
    assert_eq!(cancel_payment.status, StatusCode::OK, "{}", cancel_payment.text);
    let after_cancel = b
        .app
        .post(&unallocate, &b.owner, json!({ "document_id": id(&elsewhere) }))
        .await;
    assert_eq!(
        (after_cancel.status, after_cancel.code()),
        (StatusCode::CONFLICT, "payment_cancelled")
    );
}

#[tokio::test]
async fn cancelling_a_payment_unticks_the_steps_ticked_with_it() {
    let b = books().await;
    let paid = pay(
        &b,
        json!({ "client_id": b.society, "received_on": "2026-09-15", "amount": 2_000_000, "mode": "upi" }),
    )
    .await;
    assert_eq!(paid.status, StatusCode::CREATED, "{}", paid.text);
    let (link, path, steps) = society_checklist(&b).await;
    let (with_payment, by_hand) = (
        steps["rows"][0]["key"].as_str().unwrap().to_string(),
        steps["rows"][1]["key"].as_str().unwrap().to_string(),
    );
    for body in [
        json!({ "key": with_payment, "done": true, "paymentId": id(&paid.body) }),
        json!({ "key": by_hand, "done": true, "doneOn": "2026-09-20" }),
    ] {
        let ticked = b.app.post(&path, &b.owner, body).await;
        assert_eq!(ticked.status, StatusCode::OK, "{}", ticked.text);
    }
    // Moving the money to advance would leave it received: only a cancel unticks.
    let cancelled = b
        .app
        .post(
            &format!("/api/payments/{}/cancel", id(&paid.body)),
            &b.owner,
            json!({ "reason": "Cheque bounced" }),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    let steps = b.app.get(&path, &b.owner).await.body;
    let step = |key: &str| {
        steps["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["key"] == key)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        (
            step(&with_payment)["done_on"].clone(),
            step(&with_payment)["payment_id"].clone()
        ),
        (Value::Null, Value::Null)
    );
    assert_eq!(step(&by_hand)["done_on"], "2026-09-20");
    let audited: (String, String) = b
        .app
        .sql()
        .query_row(
            "SELECT json_extract(before, '$.payment_id'), json_extract(after, '$.reason') FROM audit
             WHERE entity = 'client_module' AND action = 'milestone_untick' AND entity_id = ?1",
            [id(&link)],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        audited,
        (
            id(&paid.body),
            "Payment RCT/26-27-0001 was cancelled.".to_string()
        )
    );
}
