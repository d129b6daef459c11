//! Documents: drafts priced by override, rate card and price book; GST split by place of
//! supply; gapless financial-year numbers; the lifecycle with its refusals.

use crate::common::TestApp;
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use serde_json::{Value, json};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

fn today() -> chrono::NaiveDate {
    (Utc::now() + Duration::minutes(330)).date_naive()
}

fn fy(date: chrono::NaiveDate) -> String {
    backoffice::plumbing::clock::Fy::of(date).short()
}

struct Books {
    app: TestApp,
    owner: String,
    manager: String,
    staff: String,
    module: String,
    kerala: String,
    karnataka: String,
    unknown_state: String,
}

async fn books() -> Books {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let (staff_id, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    app.set_company(&owner, json!({})).await;
    let module = app.priced_module(&owner, 1_000_000).await;
    let client = |name: &str, extra: Value| {
        let mut body = json!({ "name": name, "owner_id": staff_id });
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    let kerala = app
        .post(
            "/api/clients",
            &owner,
            client("Kerala Society", json!({ "state_code": "32" })),
        )
        .await
        .body;
    let karnataka = app
        .post(
            "/api/clients",
            &owner,
            client("Karnataka Society", json!({ "gstin": "29AAGCB7383J1Z4" })),
        )
        .await
        .body;
    let unknown = app
        .post("/api/clients", &owner, json!({ "name": "Stateless Society" }))
        .await
        .body;
    Books {
        app,
        owner,
        manager,
        staff,
        module,
        kerala: id(&kerala),
        karnataka: id(&karnataka),
        unknown_state: id(&unknown),
    }
}

async fn draft(b: &Books, body: Value) -> Value {
    let reply = b.app.post("/api/documents", &b.owner, body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body
}

async fn act(b: &Books, doc: &str, action: &str, body: Value) -> crate::common::Reply {
    b.app
        .post(&format!("/api/documents/{doc}/{action}"), &b.owner, body)
        .await
}

#[tokio::test]
async fn drafts_price_lines_and_split_gst_by_place_of_supply() {
    let b = books().await;
    let lines = json!([{ "module_id": b.module, "qty": 1 }, { "description": "Data migration", "sac": "998313", "qty": 2, "unit_price": 250_000, "gst_rate": 18 }]);
    let intra = draft(
        &b,
        json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": lines }),
    )
    .await;
    assert_eq!(
        (
            intra["docNo"].clone(),
            intra["status"].as_str(),
            intra["source"].as_str()
        ),
        (Value::Null, Some("draft"), Some("hq"))
    );
    assert_eq!(intra["lines"][0]["description"], "Deposit module");
    assert_eq!(
        (
            intra["lines"][0]["unit_price"].as_i64(),
            intra["lines"][0]["price_source"].as_str(),
            intra["lines"][0]["sac"].as_str()
        ),
        (Some(1_000_000), Some("price_book"), Some("998314"))
    );
    assert_eq!(intra["lines"][1]["price_source"], "override");
    assert_eq!(
        (
            intra["subtotal"].as_i64(),
            intra["cgst"].as_i64(),
            intra["sgst"].as_i64(),
            intra["igst"].as_i64(),
            intra["total"].as_i64()
        ),
        (
            Some(1_500_000),
            Some(135_000),
            Some(135_000),
            Some(0),
            Some(1_770_000)
        )
    );
    assert_eq!(intra["intra_state"], 1);
    let inter = draft(
        &b,
        json!({ "type": "QUOTATION", "client_id": b.karnataka, "lines": lines }),
    )
    .await;
    assert_eq!(
        (
            inter["cgst"].as_i64(),
            inter["igst"].as_i64(),
            inter["intra_state"].as_i64().map(|f| f == 1)
        ),
        (Some(0), Some(270_000), Some(false))
    );
    let unknown = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.unknown_state, "lines": lines }),
    )
    .await;
    assert_eq!(
        (
            unknown["intra_state"].as_i64().map(|f| f == 1),
            unknown["warnings"][0]["code"].as_str()
        ),
        (Some(true), Some("client_state_unknown"))
    );
    let rounded = draft(&b, json!({ "type": "QUOTATION", "client_id": b.kerala, "round_to_rupee": true, "lines": [{ "description": "Odd", "qty": 1, "unit_price": 33 }] })).await;
    assert_eq!(rounded["round_to_rupee"], 1, "true is taken, 1 is answered");
    let rounded_by_one = draft(
        &b,
        json!({ "type": "QUOTATION", "client_id": b.kerala, "round_to_rupee": 1, "lines": [] }),
    )
    .await;
    assert_eq!(rounded_by_one["round_to_rupee"], 1);
    let refused = b
        .app
        .post(
            "/api/documents",
            &b.owner,
            json!({ "type": "QUOTATION", "client_id": b.kerala, "round_to_rupee": 2, "lines": [] }),
        )
        .await;
    assert_eq!(
        (refused.status, refused.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("round_to_rupee"))
    );
    assert_eq!(
        (rounded["total"].as_i64(), rounded["round_off"].as_i64()),
        (Some(0), Some(-39)),
        "33 + 3 + 3 = 39 paise rounds down to ₹0"
    );
}

#[tokio::test]
async fn refusals_write_nothing_and_the_preview_only_warns() {
    let b = books().await;
    b.app.post(&format!("/api/modules/{}/rate-card", b.module), &b.owner, json!({ "effective_from": "2020-04-01", "bands": [{ "min_qty": 10_000, "rate": 20 }, { "min_qty": 50_000, "rate": 15 }] })).await;
    let cases = [
        (
            json!({ "type": "QUOTATION", "client_id": b.kerala, "dueDate": "2026-12-01", "lines": [] }),
            "dueDate",
            "due_date_not_allowed",
        ),
        (
            json!({ "type": "INVOICE", "client_id": b.kerala, "dueDate": "2026-13-01", "lines": [] }),
            "dueDate",
            "invalid_value",
        ),
        (
            json!({ "type": "INVOICE", "client_id": b.kerala, "doc_date": "2026-12-10", "dueDate": "2026-12-01", "lines": [] }),
            "dueDate",
            "due_before_date",
        ),
        (
            json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 9_999 }] }),
            "lines[0].qty",
            "under_minimum",
        ),
        (
            json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [{ "description": "x", "qty": 1 }] }),
            "lines[0].unit_price",
            "price_required",
        ),
        (
            json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [{ "description": "x", "qty": 0, "unit_price": 1 }] }),
            "lines[0].qty",
            "invalid_qty",
        ),
        (
            json!({ "type": "CREDIT_NOTE", "client_id": b.kerala, "lines": [] }),
            "type",
            "invalid_type",
        ),
    ];
    for (body, field, code) in cases {
        let reply = b.app.post("/api/documents", &b.owner, body.clone()).await;
        assert_eq!(
            (reply.status, reply.body["error"]["field"].as_str(), reply.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field), code),
            "{body}"
        );
    }
    assert_eq!(b.app.count("SELECT COUNT(*) FROM document"), 0);

    let preview = b.app.post("/api/documents/preview", &b.owner, json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 9_999 }, { "module_id": b.module, "qty": 60_000 }] })).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text);
    assert_eq!(preview.body["warnings"][0]["code"], "under_minimum");
    assert_eq!(
        (
            preview.body["lines"][1]["unit_price"].as_i64(),
            preview.body["lines"][1]["price_source"].as_str()
        ),
        (Some(15), Some("rate_card"))
    );
    assert_eq!(preview.body["totals"]["subtotal"], 900_000);
    assert_eq!(
        b.app.count("SELECT COUNT(*) FROM document") + b.app.count("SELECT COUNT(*) FROM document_line"),
        0,
        "the preview persists nothing"
    );
}

#[tokio::test]
async fn issuing_numbers_gaplessly_by_financial_year_and_freezes_the_document() {
    let b = books().await;
    let line = json!([{ "module_id": b.module, "qty": 1 }]);
    let mut numbers = vec![];
    for doc_date in ["2026-03-31", "2026-04-01", "2026-04-02"] {
        let inv = draft(
            &b,
            json!({ "type": "INVOICE", "client_id": b.kerala, "doc_date": doc_date, "lines": line }),
        )
        .await;
        let issued = act(&b, &id(&inv), "issue", json!({})).await;
        assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
        numbers.push(issued.body["docNo"].as_str().unwrap().to_string());
    }
    assert_eq!(
        numbers,
        vec!["INV/25-26-0001", "INV/26-27-0001", "INV/26-27-0002"]
    );
    let quote = draft(
        &b,
        json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": line }),
    )
    .await;
    let issued = act(&b, &id(&quote), "issue", json!({})).await.body;
    assert_eq!(
        issued["docNo"],
        format!("QT/{}-0001", fy(today())),
        "one series per prefix"
    );
    assert_eq!(
        issued["doc_date"],
        today().to_string(),
        "doc_date stamped at issue"
    );
    assert_eq!(issued["due_date"], Value::Null);

    let inv = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.kerala, "lines": line }),
    )
    .await;
    let inv = act(&b, &id(&inv), "issue", json!({})).await.body;
    assert_eq!(
        inv["due_date"],
        (today() + Duration::days(15)).to_string(),
        "doc_date + billing.payment_terms_days"
    );
    let own_due = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.kerala, "dueDate": "2099-01-31", "lines": line }),
    )
    .await;
    assert_eq!(
        act(&b, &id(&own_due), "issue", json!({})).await.body["due_date"],
        "2099-01-31"
    );

    let again = act(&b, &id(&inv), "issue", json!({})).await;
    assert_eq!((again.status, again.code()), (StatusCode::CONFLICT, "not_draft"));
    let edit = b
        .app
        .patch(
            &format!("/api/documents/{}", id(&inv)),
            &b.owner,
            json!({ "notes": "changed" }),
        )
        .await;
    assert_eq!((edit.status, edit.code()), (StatusCode::CONFLICT, "immutable"));
    let empty = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.kerala, "lines": [] }),
    )
    .await;
    assert_eq!(act(&b, &id(&empty), "issue", json!({})).await.code(), "no_lines");
    assert_eq!(
        b.app
            .count("SELECT last_seq FROM number_series WHERE prefix = 'INV' AND fy = '26-27'"),
        if fy(today()) == "26-27" { 4 } else { 2 }
    );

    // Issued documents keep their price when the price book moves.
    b.app
        .post(
            &format!("/api/modules/{}/prices", b.module),
            &b.owner,
            json!({ "effective_from": today().to_string(), "price": 1_200_000 }),
        )
        .await;
    assert_eq!(
        b.app
            .get(&format!("/api/documents/{}", id(&inv)), &b.owner)
            .await
            .body["lines"][0]["unit_price"],
        1_000_000
    );
}

#[tokio::test]
async fn quotations_are_sent_accepted_or_lost() {
    let b = books().await;
    let quote = draft(
        &b,
        json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 1 }] }),
    )
    .await;
    let qid = id(&quote);
    assert_eq!(act(&b, &qid, "mark-sent", json!({})).await.code(), "not_issued");
    act(&b, &qid, "issue", json!({})).await;
    let sent = act(&b, &qid, "mark-sent", json!({})).await.body;
    assert_eq!(sent["status"], "sent");
    let accepted = act(&b, &qid, "accept", json!({})).await.body;
    assert_eq!(accepted["status"], "accepted");
    let kinds: Vec<&str> = accepted["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["issued", "sent", "accepted"]);
    assert_eq!(act(&b, &qid, "lost", json!({})).await.code(), "wrong_state");
    let lost = draft(
        &b,
        json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 1 }] }),
    )
    .await;
    act(&b, &id(&lost), "issue", json!({})).await;
    act(&b, &id(&lost), "lost", json!({})).await;
    assert_eq!(
        act(&b, &id(&lost), "convert", json!({ "to": "INVOICE" }))
            .await
            .code(),
        "wrong_state",
        "a lost quotation stays lost"
    );
}

#[tokio::test]
async fn convert_links_a_child_and_refuses_a_second_until_it_is_cancelled() {
    let b = books().await;
    let quote = draft(&b, json!({ "type": "QUOTATION", "client_id": b.kerala, "doc_date": "2025-06-01", "lines": [{ "module_id": b.module, "qty": 1 }, { "description": "Training", "qty": 1, "unit_price": 300_000 }] })).await;
    let qid = id(&quote);
    assert_eq!(
        act(&b, &qid, "convert", json!({ "to": "PROFORMA" })).await.code(),
        "not_issued"
    );
    act(&b, &qid, "issue", json!({})).await;
    let proforma = act(&b, &qid, "convert", json!({ "to": "PROFORMA" })).await;
    assert_eq!(proforma.status, StatusCode::OK, "{}", proforma.text);
    assert_eq!(
        (
            proforma.body["type"].as_str(),
            proforma.body["status"].as_str(),
            proforma.body["parent_id"].as_str()
        ),
        (Some("PROFORMA"), Some("draft"), Some(qid.as_str()))
    );
    assert_eq!(
        proforma.body["total"], quote["total"],
        "QUOTATION to PROFORMA copies the lines"
    );
    let source = b.app.get(&format!("/api/documents/{qid}"), &b.owner).await.body;
    assert_eq!(
        (source["status"].as_str(), source["child_id"].as_str()),
        (Some("invoiced"), proforma.body["id"].as_str())
    );
    let twice = act(&b, &qid, "convert", json!({ "to": "INVOICE" })).await;
    assert_eq!((twice.status, twice.code()), (StatusCode::CONFLICT, "has_child"));
    assert_eq!(b.app.count("SELECT COUNT(*) FROM document"), 2);

    // Cancelling the child re-opens the path; an INVOICE is priced on its own date, overrides kept.
    act(
        &b,
        &id(&proforma.body),
        "cancel",
        json!({ "reason": "Wrong edition" }),
    )
    .await;
    b.app
        .post(
            &format!("/api/modules/{}/prices", b.module),
            &b.owner,
            json!({ "effective_from": "2026-01-01", "price": 1_100_000 }),
        )
        .await;
    let invoice = act(&b, &qid, "convert", json!({ "to": "INVOICE" })).await.body;
    assert_eq!(
        invoice["lines"][0]["unit_price"], 1_100_000,
        "re-priced on the invoice's date"
    );
    assert_eq!(
        invoice["lines"][1]["unit_price"], 300_000,
        "the explicit override stays"
    );
    assert_eq!(
        act(&b, &id(&invoice), "convert", json!({ "to": "INVOICE" }))
            .await
            .code(),
        "invalid_conversion"
    );
}

#[tokio::test]
async fn a_quotation_converted_to_an_invoice_names_each_line_whose_price_moved() {
    let b = books().await;
    let module = id(&b
        .app
        .post(
            "/api/modules",
            &b.owner,
            json!({ "code": "LOAN", "name": "Loan module", "sac": "998314", "gst_rate": 18 }),
        )
        .await
        .body);
    b.app
        .post(
            &format!("/api/modules/{module}/prices"),
            &b.owner,
            json!({ "effective_from": "2020-04-01", "price": 699_800 }),
        )
        .await;
    let quote = draft(
        &b,
        json!({ "type": "QUOTATION", "client_id": b.kerala, "doc_date": "2025-06-01", "lines": [
        { "module_id": module, "qty": 2 },
        { "description": "Training", "qty": 1, "unit_price": 300_000 },
    ] }),
    )
    .await;
    let qid = id(&quote);
    act(&b, &qid, "issue", json!({})).await;
    let risen = b
        .app
        .post(
            &format!("/api/modules/{module}/prices"),
            &b.owner,
            json!({ "effective_from": today().to_string(), "price": 750_000 }),
        )
        .await;
    assert_eq!(risen.status, StatusCode::CREATED, "{}", risen.text);

    // A proforma is a copy: nothing moves, nothing to say.
    let proforma = act(&b, &qid, "convert", json!({ "to": "PROFORMA" })).await;
    assert_eq!(proforma.status, StatusCode::OK, "{}", proforma.text);
    assert_eq!(proforma.body["lines"][0]["unit_price"], 699_800);
    assert_eq!(proforma.body["warnings"], json!([]));
    act(
        &b,
        &id(&proforma.body),
        "cancel",
        json!({ "reason": "Wrong edition" }),
    )
    .await;

    // An invoice is re-priced on its own date, and says so for the module's line only.
    let invoice = act(&b, &qid, "convert", json!({ "to": "INVOICE" })).await;
    assert_eq!(invoice.status, StatusCode::OK, "{}", invoice.text);
    assert_eq!(
        (
            invoice.body["lines"][0]["unit_price"].as_i64(),
            invoice.body["lines"][1]["unit_price"].as_i64()
        ),
        (Some(750_000), Some(300_000))
    );
    assert_eq!(
        invoice.body["warnings"],
        json!([{
            "code": "price_changed",
            "message": "Line 1, Loan module: quoted at ₹6,998.00, now ₹7,500.00 from the price in force today.",
            "line": 0,
            "quoted": 699_800,
            "now": 750_000,
        }])
    );
    // "Keep the quoted price": the line's explicit price, and the draft is the quote's total again.
    let kept = b
        .app
        .patch(
            &format!("/api/documents/{}", id(&invoice.body)),
            &b.owner,
            json!({ "lines": [
                { "module_id": module, "qty": 2, "unit_price": 699_800 },
                { "description": "Training", "qty": 1, "unit_price": 300_000 },
            ] }),
        )
        .await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.text);
    assert_eq!(kept.body["total"], quote["total"]);
    assert_eq!(quote["total"], 2_005_528);
}

#[tokio::test]
async fn supersede_recreates_a_proforma_and_never_an_invoice() {
    let b = books().await;
    let pi = draft(&b, json!({ "type": "PROFORMA", "client_id": b.kerala, "notes": "Advance 50%", "lines": [{ "module_id": b.module, "qty": 2 }] })).await;
    act(&b, &id(&pi), "issue", json!({})).await;
    let fresh = act(&b, &id(&pi), "supersede", json!({})).await;
    assert_eq!(fresh.status, StatusCode::OK, "{}", fresh.text);
    assert_eq!(
        (
            fresh.body["type"].as_str(),
            fresh.body["status"].as_str(),
            fresh.body["notes"].as_str()
        ),
        (Some("PROFORMA"), Some("draft"), Some("Advance 50%"))
    );
    assert_eq!(
        (fresh.body["total"].clone(), fresh.body["parent_id"].clone()),
        (pi["total"].clone(), pi["id"].clone())
    );
    let old = b
        .app
        .get(&format!("/api/documents/{}", id(&pi)), &b.owner)
        .await
        .body;
    assert_eq!(old["status"], "cancelled");
    assert!(
        old["docNo"].as_str().unwrap().starts_with("PI/"),
        "the number stays consumed"
    );
    assert!(
        old["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "cancelled" && e["reason"] == "Superseded & recreated")
    );
    let inv = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 1 }] }),
    )
    .await;
    act(&b, &id(&inv), "issue", json!({})).await;
    let refused = act(&b, &id(&inv), "supersede", json!({})).await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::CONFLICT, "use_credit_note")
    );
}

#[tokio::test]
async fn cancel_needs_a_manager_and_a_reason_and_keeps_the_number() {
    let b = books().await;
    let inv = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 1 }] }),
    )
    .await;
    let issued = act(&b, &id(&inv), "issue", json!({})).await.body;
    let path = format!("/api/documents/{}/cancel", id(&inv));
    assert_eq!(
        b.app.post(&path, &b.staff, json!({ "reason": "x" })).await.status,
        StatusCode::FORBIDDEN
    );
    let empty = b.app.post(&path, &b.manager, json!({ "reason": "  " })).await;
    assert_eq!(
        (empty.status, empty.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "reason_required")
    );
    let cancelled = b
        .app
        .post(&path, &b.manager, json!({ "reason": "Raised twice" }))
        .await
        .body;
    assert_eq!(
        (cancelled["status"].as_str(), cancelled["docNo"].clone()),
        (Some("cancelled"), issued["docNo"].clone())
    );
    let after: String = b
        .app
        .sql()
        .query_row("SELECT after FROM audit WHERE action = 'cancelled'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&after).unwrap()["reason"],
        "Raised twice"
    );
    assert_eq!(
        b.app
            .post(&path, &b.manager, json!({ "reason": "again" }))
            .await
            .code(),
        "already_cancelled"
    );
    let next = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 1 }] }),
    )
    .await;
    let next = act(&b, &id(&next), "issue", json!({})).await.body;
    assert!(
        next["docNo"].as_str().unwrap().ends_with("-0002"),
        "a cancelled number is never reused"
    );
    let draft_cancel = draft(
        &b,
        json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [] }),
    )
    .await;
    let dc = b
        .app
        .post(
            &format!("/api/documents/{}/cancel", id(&draft_cancel)),
            &b.manager,
            json!({ "reason": "Not needed" }),
        )
        .await
        .body;
    assert_eq!(
        (dc["status"].as_str(), dc["docNo"].clone()),
        (Some("cancelled"), Value::Null)
    );
}

#[tokio::test]
async fn credit_notes_never_take_more_than_is_creditable() {
    let b = books().await;
    let inv = draft(&b, json!({ "type": "INVOICE", "client_id": b.karnataka, "lines": [{ "module_id": b.module, "qty": 1 }, { "description": "Training", "qty": 1, "unit_price": 200_000 }] })).await;
    let inv = act(&b, &id(&inv), "issue", json!({})).await.body;
    let path = format!("/api/documents/{}/credit-note", id(&inv));
    assert_eq!(
        b.app.post(&path, &b.staff, json!({ "reason": "x" })).await.status,
        StatusCode::FORBIDDEN
    );
    let too_much = b.app.post(&path, &b.manager, json!({ "reason": "Discount", "lines": [{ "description": "Refund", "qty": 1, "unit_price": 2_000_000 }] })).await;
    assert_eq!(
        (too_much.status, too_much.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "exceeds_creditable")
    );
    let part = b.app.post(&path, &b.manager, json!({ "reason": "Training not held", "lines": [{ "description": "Training", "qty": 1, "unit_price": 200_000 }] })).await;
    assert_eq!(part.status, StatusCode::OK, "{}", part.text);
    assert_eq!(
        (part.body["type"].as_str(), part.body["status"].as_str()),
        (Some("CREDIT_NOTE"), Some("issued"))
    );
    assert_eq!(part.body["docNo"], format!("CN/{}-0001", fy(today())));
    assert_eq!(
        (part.body["igst"].as_i64(), part.body["total"].as_i64()),
        (Some(36_000), Some(236_000)),
        "the invoice's place of supply"
    );
    let after_part = b
        .app
        .get(&format!("/api/documents/{}", id(&inv)), &b.owner)
        .await
        .body;
    assert_eq!(
        after_part["outstanding"].as_i64(),
        Some(inv["total"].as_i64().unwrap() - 236_000)
    );
    let whole = b.app.post(&path, &b.manager, json!({ "reason": "All" })).await;
    assert_eq!(
        whole.code(),
        "lines_required",
        "a full credit only while nothing is credited"
    );
    let rest = b.app.post(&path, &b.manager, json!({ "reason": "Cancelled order", "lines": [{ "module_id": b.module, "qty": 1, "unit_price": 1_000_000 }] })).await;
    assert_eq!(rest.status, StatusCode::OK, "{}", rest.text);
    assert_eq!(
        b.app
            .get(&format!("/api/documents/{}", id(&inv)), &b.owner)
            .await
            .body["outstanding"],
        0
    );
    assert_eq!(
        b.app
            .post(&path, &b.manager, json!({ "reason": "more" }))
            .await
            .code(),
        "fully_credited"
    );
}

#[tokio::test]
async fn lists_search_by_number_and_client_and_staff_see_their_book() {
    let b = books().await;
    let mine = draft(
        &b,
        json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 1 }] }),
    )
    .await;
    act(&b, &id(&mine), "issue", json!({})).await;
    let theirs = draft(&b, json!({ "type": "QUOTATION", "client_id": b.unknown_state, "lines": [{ "module_id": b.module, "qty": 1 }] })).await;
    assert_eq!(
        b.app
            .get(&format!("/api/documents?q={}", "qt/"), &b.owner)
            .await
            .body["total"],
        1
    );
    assert_eq!(
        b.app.get("/api/documents?q=KERALA", &b.owner).await.body["total"],
        1
    );
    assert_eq!(
        b.app
            .get("/api/documents?type=QUOTATION&status=draft", &b.owner)
            .await
            .body["total"],
        1
    );
    // The staff member owns the Kerala client: its quotation is in their book, whoever made it.
    let staff_list = b.app.get("/api/documents", &b.staff).await.body;
    assert_eq!(staff_list["total"], 1, "staff see the documents of their clients");
    assert_eq!(staff_list["rows"][0]["id"], id(&mine));
    assert_eq!(
        b.app
            .get(&format!("/api/documents/{}", id(&theirs)), &b.staff)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let sneak = b
        .app
        .post(
            "/api/documents",
            &b.staff,
            json!({ "type": "QUOTATION", "client_id": b.unknown_state, "lines": [] }),
        )
        .await;
    assert_eq!(sneak.status, StatusCode::NOT_FOUND);
    assert_eq!(
        b.app.get("/api/settings/billing", &b.staff).await.body["payment_terms_days"],
        15
    );
    assert_eq!(
        b.app.get("/api/settings/company", &b.staff).await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn renewal_and_sms_top_up_quotes_come_from_the_subscription() {
    let b = books().await;
    b.app
        .patch(
            &format!("/api/modules/{}", b.module),
            &b.owner,
            json!({ "kind": "Core banking" }),
        )
        .await;
    let sms = b
        .app
        .post(
            "/api/modules",
            &b.owner,
            json!({ "code": "SMS", "name": "Bulk SMS", "gst_rate": 18 }),
        )
        .await
        .body;
    b.app.post(&format!("/api/modules/{}/rate-card", id(&sms)), &b.owner, json!({ "effective_from": "2020-04-01", "bands": [{ "min_qty": 10_000, "rate": 20 }, { "min_qty": 50_000, "rate": 15 }] })).await;
    let link = |module: String| {
        let (app, owner, client) = (&b.app, b.owner.clone(), b.kerala.clone());
        async move {
            app.post(
                "/api/client-modules",
                &owner,
                json!({ "client_id": client, "module_id": module, "edition": "Gold" }),
            )
            .await
            .body
        }
    };
    let dep = link(b.module.clone()).await;
    let renewal = b
        .app
        .post(
            &format!("/api/client-modules/{}/renewal-quote", id(&dep)),
            &b.staff,
            json!({}),
        )
        .await;
    assert_eq!(renewal.status, StatusCode::OK, "{}", renewal.text);
    assert_eq!(
        (
            renewal.body["type"].as_str(),
            renewal.body["source"].as_str(),
            renewal.body["status"].as_str()
        ),
        (Some("PROFORMA"), Some("module_renewal"), Some("draft"))
    );
    assert_eq!(
        renewal.body["lines"][0]["description"],
        "Deposit module renewal (Core banking, Gold)"
    );
    assert_eq!(renewal.body["lines"][0]["unit_price"], 1_000_000);

    let sms_link = link(id(&sms)).await;
    let path = format!("/api/client-modules/{}/bulk-sms-quote", id(&sms_link));
    let under = b.app.post(&path, &b.staff, json!({ "count": 5_000 })).await;
    assert_eq!(
        (under.status, under.code(), under.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "under_minimum", Some("count"))
    );
    let quote = b.app.post(&path, &b.staff, json!({ "count": 60_000 })).await;
    assert_eq!(
        (
            quote.body["source"].as_str(),
            quote.body["lines"][0]["unit_price"].as_i64(),
            quote.body["subtotal"].as_i64()
        ),
        (Some("bulk_sms_topup"), Some(15), Some(900_000))
    );
    let no_card = b
        .app
        .post(
            &format!("/api/client-modules/{}/bulk-sms-quote", id(&dep)),
            &b.staff,
            json!({ "count": 60_000 }),
        )
        .await;
    assert_eq!(no_card.code(), "no_rate_card");
    assert_eq!(
        b.app.get("/api/documents", &b.staff).await.body["total"],
        2,
        "the staff member created both"
    );
}

#[tokio::test]
async fn an_explicit_price_beats_the_band_which_beats_the_price_book() {
    let b = books().await;
    b.app
        .post(
            &format!("/api/modules/{}/rate-card", b.module),
            &b.owner,
            json!({ "effective_from": "2020-04-01", "bands": [{ "min_qty": 1, "rate": 700 }] }),
        )
        .await;
    let doc = draft(&b, json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 3 }, { "module_id": b.module, "qty": 3, "unit_price": 5 }] })).await;
    let sources: Vec<(i64, &str)> = doc["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["unit_price"].as_i64().unwrap(),
                l["price_source"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(sources, vec![(700, "rate_card"), (5, "override")]);
    let other = b
        .app
        .post(
            "/api/modules",
            &b.owner,
            json!({ "code": "LOAN", "name": "Loans" }),
        )
        .await
        .body;
    b.app
        .post(
            &format!("/api/modules/{}/prices", id(&other)),
            &b.owner,
            json!({ "effective_from": "2020-04-01", "price": 42 }),
        )
        .await;
    let plain = draft(&b, json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [{ "module_id": id(&other), "qty": 3 }] })).await;
    assert_eq!(
        (
            plain["lines"][0]["unit_price"].as_i64(),
            plain["lines"][0]["price_source"].as_str()
        ),
        (Some(42), Some("price_book"))
    );
    // CGST equals SGST whatever the odd paise.
    for line in doc["lines"].as_array().unwrap() {
        assert_eq!(line["cgst"], line["sgst"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_parallel_issues_give_sixteen_consecutive_numbers() {
    let b = std::sync::Arc::new(books().await);
    let mut ids = vec![];
    for _ in 0..16 {
        ids.push(id(&draft(&b, json!({ "type": "INVOICE", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 1 }] })).await));
    }
    let tasks: Vec<_> = ids
        .into_iter()
        .map(|doc| {
            let b = b.clone();
            tokio::spawn(async move {
                act(&b, &doc, "issue", json!({})).await.body["docNo"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
        })
        .collect();
    let mut numbers = vec![];
    for t in tasks {
        numbers.push(t.await.unwrap());
    }
    numbers.sort();
    let expected: Vec<String> = (1..=16).map(|n| format!("INV/{}-{n:04}", fy(today()))).collect();
    assert_eq!(numbers, expected);
}

#[tokio::test]
async fn the_date_range_and_staff_scope_of_the_list() {
    let b = books().await;
    for date in ["2026-01-15", "2026-02-15", "2026-03-15"] {
        draft(
            &b,
            json!({ "type": "QUOTATION", "client_id": b.kerala, "doc_date": date, "lines": [] }),
        )
        .await;
    }
    assert_eq!(
        b.app
            .get("/api/documents?from=2026-02-01&to=2026-03-15", &b.owner)
            .await
            .body["total"],
        2
    );
    assert_eq!(
        b.app.get("/api/documents?from=2026-13-01", &b.owner).await.status,
        StatusCode::BAD_REQUEST
    );
    // The staff member owns the client: its documents are in their book, whoever made them.
    assert_eq!(b.app.get("/api/documents", &b.staff).await.body["total"], 3);
    let own = b
        .app
        .post(
            "/api/documents",
            &b.staff,
            json!({ "type": "QUOTATION", "client_id": b.kerala, "lines": [] }),
        )
        .await;
    assert_eq!(own.status, StatusCode::CREATED);
    assert_eq!(b.app.get("/api/documents", &b.staff).await.body["total"], 4);
    assert_eq!(
        b.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'document' AND action = 'create'"),
        4
    );
}

/// A day its month does not have says so, on its field, whether the body's date is read by
/// serde (a document's) or by the area (an interaction's follow-up); other text keeps asking for
/// the format (issue 34).
#[tokio::test]
async fn a_date_that_does_not_exist_says_there_is_no_such_date() {
    let b = books().await;
    let made = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.kerala, "lines": [ { "module_id": b.module, "qty": 1 } ] }),
    )
    .await;
    let path = format!("/api/documents/{}", id(&made));
    let no_such = "2026-02-31: there is no such date (February has 28 days in 2026).";
    for (body, field) in [
        (json!({ "doc_date": "2026-02-31" }), "doc_date"),
        (json!({ "dueDate": "2026-02-31" }), "dueDate"),
    ] {
        let refused = b.app.patch(&path, &b.owner, body.clone()).await;
        assert_eq!(
            (
                refused.status,
                refused.code(),
                refused.body["error"]["field"].as_str(),
                refused.body["error"]["message"].as_str()
            ),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_value",
                Some(field),
                Some(no_such)
            ),
            "{body}"
        );
    }
    let unreadable = b
        .app
        .patch(&path, &b.owner, json!({ "doc_date": "31-02-2026" }))
        .await;
    assert_eq!(unreadable.code(), "invalid_value");
    assert!(!unreadable.text.contains("no such date"), "{}", unreadable.text);
    let follow_up = b
        .app
        .post(
            "/api/interactions",
            &b.owner,
            json!({ "client_id": b.kerala, "type": "call", "notes": "Asked for a quote", "follow_up_on": "2026-02-29" }),
        )
        .await;
    assert_eq!(
        (
            follow_up.status,
            follow_up.code(),
            follow_up.body["error"]["field"].as_str(),
            follow_up.body["error"]["message"].as_str()
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_date",
            Some("follow_up_on"),
            Some("2026-02-29: there is no such date (February has 28 days in 2026).")
        )
    );
}

#[tokio::test]
async fn a_due_date_is_never_before_the_document_date_and_an_emptied_date_is_cleared() {
    let b = books().await;
    let d = |n: i64| (today() + Duration::days(n)).to_string();
    let line = json!([ { "module_id": b.module, "qty": 1 } ]);
    let documents = || b.app.count("SELECT COUNT(*) FROM document");
    let before = documents();
    // Refused on create: before the given date, and before today when no date is given.
    for body in [
        json!({ "type": "INVOICE", "client_id": b.kerala, "doc_date": d(-10), "dueDate": d(-15), "lines": line }),
        json!({ "type": "INVOICE", "client_id": b.kerala, "dueDate": d(-1), "lines": line }),
    ] {
        let refused = b.app.post("/api/documents", &b.owner, body.clone()).await;
        assert_eq!(
            (
                refused.status,
                refused.code(),
                refused.body["error"]["field"].as_str()
            ),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "due_before_date",
                Some("dueDate")
            ),
            "{body}"
        );
    }
    assert_eq!(documents(), before);
    let made = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.kerala, "doc_date": d(-10), "dueDate": d(-5), "lines": line }),
    )
    .await;
    let path = format!("/api/documents/{}", id(&made));
    // Refused on save: a due date before the stored date; clearing the date alone makes today
    // the document date, which the stored due date is before.
    for body in [json!({ "dueDate": d(-11) }), json!({ "doc_date": null })] {
        let refused = b.app.patch(&path, &b.owner, body.clone()).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "due_before_date"),
            "{body}"
        );
    }
    let kept = b.app.get(&path, &b.owner).await.body;
    assert_eq!(
        (kept["doc_date"].as_str(), kept["due_date"].as_str()),
        (Some(d(-10).as_str()), Some(d(-5).as_str()))
    );
    // Both emptied: both cleared, and the absent keys of a later save leave them so.
    let cleared = b
        .app
        .patch(&path, &b.owner, json!({ "doc_date": null, "dueDate": null }))
        .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.text);
    assert_eq!(
        (cleared.body["doc_date"].clone(), cleared.body["due_date"].clone()),
        (Value::Null, Value::Null)
    );
    let noted = b
        .app
        .patch(&path, &b.owner, json!({ "notes": "Second instalment" }))
        .await;
    assert_eq!(
        (noted.body["doc_date"].clone(), noted.body["due_date"].clone()),
        (Value::Null, Value::Null)
    );

    // Refused on issue: a due date saved yesterday for a draft dated on issue (today).
    let due_yesterday = draft(
        &b,
        json!({ "type": "INVOICE", "client_id": b.kerala, "lines": line }),
    )
    .await;
    b.app
        .sql()
        .execute(
            "UPDATE document SET due_date = ?2 WHERE id = ?1",
            [id(&due_yesterday), d(-1)],
        )
        .unwrap();
    let series = || {
        b.app
            .count("SELECT COALESCE(SUM(last_seq), 0) FROM number_series")
    };
    let numbered = series();
    let refused = act(&b, &id(&due_yesterday), "issue", json!({})).await;
    assert_eq!(
        (
            refused.status,
            refused.code(),
            refused.body["error"]["field"].as_str()
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "due_before_date",
            Some("dueDate")
        )
    );
    assert_eq!(series(), numbered, "no number is used");
    let issued = act(&b, &id(&made), "issue", json!({})).await;
    assert_eq!(
        (issued.status, issued.body["doc_date"].as_str()),
        (StatusCode::OK, Some(today().to_string().as_str())),
        "{}",
        issued.text
    );
}

#[tokio::test]
async fn a_draft_is_priced_again_when_issued_only_if_its_price_moved() {
    let b = books().await;
    let body =
        json!({ "type": "INVOICE", "client_id": b.kerala, "lines": [{ "module_id": b.module, "qty": 2 }] });
    let kept = draft(&b, body.clone()).await;
    let moved = draft(&b, body).await;
    let line_id = |doc: &serde_json::Value| doc["lines"][0]["id"].as_str().unwrap().to_string();

    // Nothing moved: the issued invoice holds the draft's own line, as it was.
    let issued = act(&b, &id(&kept), "issue", json!({})).await.body;
    assert_eq!(line_id(&issued), line_id(&kept));
    assert_eq!(
        (&issued["lines"], &issued["total"]),
        (&kept["lines"], &kept["total"])
    );

    // A price from today on: the other draft is issued at it, lines and totals written again.
    let price = b
        .app
        .post(
            &format!("/api/modules/{}/prices", b.module),
            &b.owner,
            json!({ "effective_from": today().to_string(), "price": 1_200_000 }),
        )
        .await;
    assert_eq!(price.status, StatusCode::CREATED, "{}", price.text);
    let issued = act(&b, &id(&moved), "issue", json!({})).await.body;
    assert_ne!(line_id(&issued), line_id(&moved));
    assert_eq!(issued["lines"][0]["unit_price"], 1_200_000);
    assert_eq!(issued["lines"][0]["taxable"], 2_400_000);
    assert_eq!(issued["subtotal"], 2_400_000);
    assert_eq!(
        issued["total"].as_i64().unwrap(),
        2_400_000
            + issued["cgst"].as_i64().unwrap()
            + issued["sgst"].as_i64().unwrap()
            + issued["igst"].as_i64().unwrap()
            + issued["round_off"].as_i64().unwrap()
    );
}
