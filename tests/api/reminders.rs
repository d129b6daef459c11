//! Reminders and the job thread (issue 16, first part): the dated schedule, the daily scan's
//! rules across their offsets, at-most-once creation, the queue's scope, dismissals and the stop
//! conditions of a quotation's follow-ups.

use crate::common::mail::{FakeMail, TOKEN};
use crate::common::{Call, TestApp};
use axum::http::Method;
use axum::http::StatusCode;
use chrono::{Days, NaiveDate};
use serde_json::{Value, json};

struct Office {
    app: TestApp,
    owner: String,
    anna: String,
    anna_id: String,
    client: String,
}

async fn office() -> Office {
    office_on(TestApp::new(), None).await
}

/// The owner, anna (staff) and anna's client, with `email` as the client's own address.
async fn office_on(app: TestApp, email: Option<&str>) -> Office {
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let (anna_id, pw) = app.invite(&owner, "anna@coop.in", "staff").await;
    let anna = app.login("anna@coop.in", &pw).await;
    let client = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Chavara SCB", "state_code": "32", "owner_id": anna_id, "email": email }),
        )
        .await;
    assert_eq!(client.status, StatusCode::CREATED, "{}", client.text);
    let client = client.body["id"].as_str().unwrap().to_string();
    Office {
        app,
        owner,
        anna,
        anna_id,
        client,
    }
}

/// An issued document of one ₹10,000 line by `cookie`; answers it.
async fn issued(o: &Office, cookie: &str, doc_type: &str) -> Value {
    let draft = o
        .app
        .post(
            "/api/documents",
            cookie,
            json!({ "type": doc_type, "client_id": o.client,
                    "lines": [ { "description": "Deposit module", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] }),
        )
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let id = draft.body["id"].as_str().unwrap();
    let doc = o
        .app
        .post(&format!("/api/documents/{id}/issue"), cookie, json!({}))
        .await;
    assert_eq!(doc.status, StatusCode::OK, "{}", doc.text);
    doc.body
}

async fn scan(o: &Office, as_of: NaiveDate) -> Value {
    let reply = o
        .app
        .post(
            "/api/jobs/daily-scan",
            &o.owner,
            json!({ "as_of": as_of.to_string() }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["as_of"], as_of.to_string());
    reply.body
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn plus(d: NaiveDate, n: u64) -> NaiveDate {
    d.checked_add_days(Days::new(n)).unwrap()
}

#[tokio::test]
async fn the_schedule_is_dated_checked_whole_and_audited() {
    let o = office().await;
    let now = o.app.get("/api/settings/reminders", &o.owner).await;
    assert_eq!(now.status, StatusCode::OK, "{}", now.text);
    assert_eq!(now.body["invoice_overdue"]["days_after"], json!([1, 15, 30]));
    assert_eq!(
        now.body["quote_followup"],
        json!({ "day_offsets": [3, 7, 14], "policy": "manual" })
    );
    assert_eq!(
        o.app.get("/api/settings/reminders", &o.anna).await.status,
        StatusCode::FORBIDDEN
    );

    let settings = o.app.count("SELECT COUNT(*) FROM setting");
    let bad = o
        .app
        .send(
            crate::common::Call::new(axum::http::Method::PUT, "/api/settings/reminders")
                .cookie(&o.owner)
                .json(
                    json!({ "renewal_due": { "days_before": [-1] }, "amc_expiring": { "days_before": [7, 7] },
                              "invoice_overdue": { "days_after": [1] },
                              "quote_followup": { "day_offsets": [3], "policy": "sometimes" } }),
                ),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    let fields: Vec<&str> = bad.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "renewal_due.days_before",
            "amc_expiring.days_before",
            "quote_followup.policy"
        ]
    );
    let fraction = o
        .app
        .send(
            crate::common::Call::new(axum::http::Method::PUT, "/api/settings/reminders")
                .cookie(&o.owner)
                .json(
                    json!({ "renewal_due": { "days_before": [1.5] }, "amc_expiring": { "days_before": [7] },
                              "invoice_overdue": { "days_after": [1] },
                              "quote_followup": { "day_offsets": [3], "policy": "auto" } }),
                ),
        )
        .await;
    assert_eq!(
        fraction.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        fraction.text
    );
    assert_eq!(
        o.app.count("SELECT COUNT(*) FROM setting"),
        settings,
        "nothing written"
    );

    let put = o
        .app
        .send(
            crate::common::Call::new(axum::http::Method::PUT, "/api/settings/reminders")
                .cookie(&o.owner)
                .json(json!({ "effective_from": "2030-01-01",
                              "renewal_due": { "days_before": [30, 7] }, "amc_expiring": { "days_before": [15] },
                              "invoice_overdue": { "days_after": [10, 2] },
                              "quote_followup": { "day_offsets": [5], "policy": "auto" } })),
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text);
    assert_eq!(put.body["effective_from"], "2030-01-01");
    assert_eq!(
        put.body["invoice_overdue"]["days_after"],
        json!([2, 10]),
        "sorted"
    );
    // Today the earlier set is still in force; both are kept.
    let now = o.app.get("/api/settings/reminders", &o.owner).await;
    assert_eq!(now.body["quote_followup"]["policy"], "manual");
    assert_eq!(o.app.count("SELECT COUNT(*) FROM setting"), settings + 2);
    assert_eq!(
        o.app.count(
            "SELECT COUNT(*) FROM audit WHERE entity = 'setting' AND entity_id = 'reminders.schedule'"
        ),
        1
    );
}

#[tokio::test]
async fn an_overdue_invoice_raises_one_reminder_per_rung_reached_and_never_twice() {
    let o = office().await;
    let invoice = issued(&o, &o.anna, "INVOICE").await;
    let due = day(invoice["due_date"].as_str().unwrap());
    let doc_no = invoice["docNo"].as_str().unwrap();

    assert_eq!(
        scan(&o, due).await["created"]["invoice_overdue"],
        0,
        "due today: not overdue"
    );
    assert_eq!(scan(&o, plus(due, 1)).await["created"]["invoice_overdue"], 1);
    assert_eq!(
        scan(&o, plus(due, 1)).await["created"]["invoice_overdue"],
        0,
        "the same day again"
    );
    assert_eq!(
        scan(&o, plus(due, 14)).await["created"]["invoice_overdue"],
        0,
        "still the first rung"
    );
    // A scan after a missed fortnight raises the rung reached, 30 days, not 15 and 30.
    assert_eq!(scan(&o, plus(due, 31)).await["created"]["invoice_overdue"], 1);

    let list = o
        .app
        .get("/api/reminders?rule_kind=invoice_overdue&sort=-due_on", &o.owner)
        .await;
    assert_eq!(list.body["total"], 2, "{}", list.text);
    let newest = &o
        .app
        .get("/api/reminders?rule_kind=invoice_overdue", &o.owner)
        .await
        .body["rows"][0];
    assert_eq!(newest["offset_days"], 30);
    assert_eq!(newest["owner_id"], json!(o.anna_id), "the invoice's creator");
    assert_eq!(newest["docNo"], doc_no);
    let due_text = format!("{}", due.format("%d-%m-%Y"));
    assert_eq!(
        newest["reason"],
        format!("{doc_no} is 31 days overdue (due {due_text}); ₹11,800.00 outstanding.")
    );

    // Paid: nothing more.
    let paid = o
        .app
        .post(
            "/api/payments",
            &o.owner,
            json!({ "client_id": o.client, "received_on": invoice["doc_date"], "amount": 1_180_000, "mode": "upi",
                    "allocations": [ { "document_id": invoice["id"], "amount": 1_180_000 } ] }),
        )
        .await;
    assert_eq!(paid.status, StatusCode::CREATED, "{}", paid.text);
    assert_eq!(scan(&o, plus(due, 200)).await["created"]["invoice_overdue"], 0);
}

#[tokio::test]
async fn quote_follow_ups_fire_the_highest_rung_and_stop_when_the_quote_is_decided() {
    let o = office().await;
    let quote = issued(&o, &o.anna, "QUOTATION").await;
    let id = quote["id"].as_str().unwrap();
    let sent = o
        .app
        .post(&format!("/api/documents/{id}/mark-sent"), &o.anna, json!({}))
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let sent_on = day(&quote["doc_date"].as_str().unwrap()[..10]);

    assert_eq!(scan(&o, plus(sent_on, 2)).await["created"]["quote_followup"], 0);
    assert_eq!(scan(&o, plus(sent_on, 3)).await["created"]["quote_followup"], 1);
    // A missed week: only the 14-day follow-up, not the 7-day one as well.
    assert_eq!(scan(&o, plus(sent_on, 20)).await["created"]["quote_followup"], 1);
    let rows = o
        .app
        .get("/api/reminders?rule_kind=quote_followup&status=open", &o.anna)
        .await;
    let offsets: Vec<i64> = rows.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["offset_days"].as_i64().unwrap())
        .collect();
    assert_eq!(offsets, [14, 3]);
    assert_eq!(rows.body["rows"][0]["policy_applied"], "manual");

    // Accepting the quotation dismisses both, each audited, in its own transaction.
    let accepted = o
        .app
        .post(&format!("/api/documents/{id}/accept"), &o.anna, json!({}))
        .await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.text);
    assert_eq!(
        o.app
            .get("/api/reminders?rule_kind=quote_followup&status=open", &o.anna)
            .await
            .body["total"],
        0
    );
    assert_eq!(
        o.app.count("SELECT COUNT(*) FROM audit WHERE entity = 'reminder' AND action = 'dismissed' AND after LIKE '%marked accepted%'"),
        2
    );
    assert_eq!(
        scan(&o, plus(sent_on, 40)).await["created"]["quote_followup"],
        0,
        "a decided quote is left alone"
    );
}

#[tokio::test]
async fn renewals_and_follow_ups_are_shared_work_and_the_queue_is_scoped() {
    let o = office().await;
    let module = o.app.priced_module(&o.owner, 500_000).await;
    // The owner's own invoice on Anna's client: its reminder is the owner's, not Anna's.
    let invoice = issued(&o, &o.owner, "INVOICE").await;
    let today = day(invoice["doc_date"].as_str().unwrap());
    let due = day(invoice["due_date"].as_str().unwrap());
    let renewal = plus(today, 40);
    let link = o
        .app
        .post(
            "/api/client-modules",
            &o.owner,
            json!({ "client_id": o.client, "module_id": module, "next_renewal": renewal.to_string() }),
        )
        .await;
    assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
    let note = o
        .app
        .post(
            "/api/interactions",
            &o.anna,
            json!({ "client_id": o.client, "type": "call", "notes": "Asked for the loan module demo", "follow_up_on": plus(today, 2).to_string() }),
        )
        .await;
    assert_eq!(note.status, StatusCode::CREATED, "{}", note.text);

    let out = scan(&o, plus(today, 10)).await;
    assert_eq!(out["created"]["renewal_due"], 1, "{out}");
    assert_eq!(out["created"]["follow_up"], 1, "{out}");
    assert_eq!(scan(&o, plus(due, 1)).await["created"]["invoice_overdue"], 1);
    let later = scan(&o, plus(today, 33)).await;
    assert_eq!(later["created"]["renewal_due"], 1, "the 7-day rung: {later}");
    assert_eq!(
        later["created"]["invoice_overdue"], 1,
        "18 days overdue: the 15-day rung"
    );

    let all = o.app.get("/api/reminders", &o.owner).await;
    assert_eq!(all.body["total"], 5, "{}", all.text);
    let anna = o.app.get("/api/reminders", &o.anna).await;
    let kinds: Vec<&str> = anna.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rule_kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(
        !kinds.contains(&"invoice_overdue"),
        "the owner's invoice is the owner's: {kinds:?}"
    );
    assert_eq!(
        o.app.get("/api/reminders/open-count", &o.anna).await.body["open"],
        3
    );
    let overdue_id = all.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule_kind"] == "invoice_overdue")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        o.app
            .post(
                &format!("/api/reminders/{overdue_id}/dismiss"),
                &o.anna,
                json!({})
            )
            .await
            .status,
        StatusCode::NOT_FOUND,
        "outside her share"
    );

    // Dismiss one; a second dismissal is 409; a bulk dismissal passes over what is closed.
    let first = anna.body["rows"][0]["id"].as_str().unwrap().to_string();
    let done = o
        .app
        .post(&format!("/api/reminders/{first}/dismiss"), &o.anna, json!({}))
        .await;
    assert_eq!(
        (done.status, done.body["status"].as_str()),
        (StatusCode::OK, Some("dismissed")),
        "{}",
        done.text
    );
    let again = o
        .app
        .post(&format!("/api/reminders/{first}/dismiss"), &o.anna, json!({}))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    let ids: Vec<Value> = anna.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].clone())
        .collect();
    let bulk = o
        .app
        .post("/api/reminders/bulk-dismiss", &o.anna, json!({ "ids": ids }))
        .await;
    assert_eq!(bulk.body["dismissed"], 2, "{}", bulk.text);
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'reminder'"),
        3
    );

    // Bad input: 4xx with the error body, nothing written.
    for (path, body, status) in [
        (
            "/api/reminders/bulk-dismiss",
            json!({ "ids": [] }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/reminders/bulk-dismiss",
            json!({ "ids": "all" }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/jobs/daily-scan",
            json!({ "as_of": "24-11-2026" }),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let reply = o.app.post(path, &o.owner, body).await;
        assert_eq!(reply.status, status, "{path}: {}", reply.text);
        assert!(reply.body["error"]["code"].is_string(), "{}", reply.text);
    }
    assert_eq!(
        o.app.get("/api/reminders?status=late", &o.owner).await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        o.app
            .post("/api/jobs/daily-scan", &o.anna, json!({}))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'reminder'"),
        3
    );
}

#[tokio::test]
async fn two_scans_at_once_raise_each_reminder_once_and_each_run_is_recorded() {
    let o = office().await;
    for _ in 0..5 {
        issued(&o, &o.owner, "INVOICE").await;
    }
    let due = day(
        o.app.get("/api/documents?type=INVOICE", &o.owner).await.body["rows"][0]["due_date"]
            .as_str()
            .unwrap(),
    );
    let (a, b) = tokio::join!(scan(&o, plus(due, 2)), scan(&o, plus(due, 2)));
    assert_eq!(
        a["created"]["invoice_overdue"].as_i64().unwrap() + b["created"]["invoice_overdue"].as_i64().unwrap(),
        5
    );
    assert_eq!(o.app.count("SELECT COUNT(*) FROM reminder"), 5);
    let jobs = o.app.get("/api/jobs", &o.owner).await;
    assert_eq!(jobs.status, StatusCode::OK, "{}", jobs.text);
    assert_eq!(jobs.body["rows"][0]["job"], "daily_scan");
    assert_eq!(jobs.body["rows"][0]["last_outcome"], "ok");
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM job_run WHERE job = 'daily_scan' AND outcome = 'ok'"),
        2
    );
}

/// The office with a mail provider (a fake on loopback) and a client that has an address.
async fn mail_office() -> (Office, FakeMail) {
    let o = office_on(
        TestApp::with_config(|c| c.allow_private_targets = true),
        Some("office@chavara.coop"),
    )
    .await;
    let mail = FakeMail::start();
    let settings = o
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&o.owner)
                .json(json!({ "api_url": mail.url, "from": "billing@softland.in", "token": TOKEN })),
        )
        .await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.text);
    (o, mail)
}

/// A quotation by anna, marked sent; answers its id and the day it was sent.
async fn sent_quote(o: &Office) -> (String, NaiveDate) {
    let quote = issued(o, &o.anna, "QUOTATION").await;
    let id = quote["id"].as_str().unwrap().to_string();
    let sent = o
        .app
        .post(&format!("/api/documents/{id}/mark-sent"), &o.anna, json!({}))
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    (id, day(&quote["doc_date"].as_str().unwrap()[..10]))
}

async fn set_base_url(o: &Office, base: &str) {
    let put = o
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/share")
                .cookie(&o.owner)
                .json(json!({ "default_expiry_days": 30, "base_url": base })),
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text);
}

async fn set_policy(o: &Office, policy: &str) {
    let put = o
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/reminders")
                .cookie(&o.owner)
                .json(json!({ "effective_from": "2000-01-01", "renewal_due": { "days_before": [30, 7] },
                              "amc_expiring": { "days_before": [30] }, "invoice_overdue": { "days_after": [1, 15, 30] },
                              "quote_followup": { "day_offsets": [3, 7, 14], "policy": policy } })),
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text);
}

fn warning_codes(preview: &Value) -> Vec<String> {
    preview["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap().to_string())
        .collect()
}

/// The one open reminder of `kind` anna sees; answers its id.
async fn only_open(o: &Office, kind: &str) -> String {
    let rows = o
        .app
        .get(&format!("/api/reminders?rule_kind={kind}&status=open"), &o.anna)
        .await;
    assert_eq!(rows.body["total"], 1, "{}", rows.text);
    rows.body["rows"][0]["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_quote_follow_up_is_previewed_without_minting_and_sent_at_most_once() {
    let (o, mail) = mail_office().await;
    let (quote, sent_on) = sent_quote(&o).await;
    scan(&o, plus(sent_on, 3)).await;
    let id = only_open(&o, "quote_followup").await;
    let preview_path = format!("/api/reminders/{id}/preview");
    let send_path = format!("/api/reminders/{id}/send");

    let preview = o.app.get(&preview_path, &o.anna).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text);
    assert_eq!(preview.body["to"], "office@chavara.coop");
    assert_eq!(
        preview.body["subject"],
        "Following up on our quotation QT/26-27-0001"
    );
    let sent_day = sent_on.format("%d-%m-%Y").to_string();
    assert!(
        preview.body["text"]
            .as_str()
            .unwrap()
            .contains(&format!("We sent you our quotation QT/26-27-0001 on {sent_day}.")),
        "{}",
        preview.text
    );
    assert!(preview.body["html"].as_str().unwrap().contains("QT/26-27-0001"));
    assert_eq!(warning_codes(&preview.body), ["share_base_url_unset"]);

    // Without share.base_url the send is refused, naming the setting, and writes nothing.
    let refused = o.app.post(&send_path, &o.anna, json!({})).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert_eq!(refused.code(), "share_base_url_unset");
    assert!(refused.text.contains("share.base_url"));
    assert_eq!(o.app.count("SELECT COUNT(*) FROM document_share"), 0);
    assert_eq!(o.app.count("SELECT COUNT(*) FROM email_log"), 0);
    assert_eq!(
        o.app.count(&format!(
            "SELECT COUNT(*) FROM reminder WHERE id = '{id}' AND status = 'open'"
        )),
        1
    );

    // With it, the preview says where the link will be, still minting nothing.
    set_base_url(&o, "https://office.example.in").await;
    let preview = o.app.get(&preview_path, &o.anna).await;
    assert_eq!(warning_codes(&preview.body), ["link_on_send"]);
    assert!(
        preview.body["text"]
            .as_str()
            .unwrap()
            .contains("https://office.example.in/share/…")
    );
    assert_eq!(o.app.count("SELECT COUNT(*) FROM document_share"), 0);

    let sent = o.app.post(&send_path, &o.anna, json!({})).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(sent.body["status"], "sent");
    assert_eq!(sent.body["email"]["status"], "sent");
    assert_eq!(sent.body["email"]["to"], "office@chavara.coop");
    let token: String = o
        .app
        .sql()
        .query_row(
            "SELECT token FROM document_share WHERE document_id = ?1 AND julianday(expires_at) - julianday('now') BETWEEN 59.9 AND 60.1",
            [&quote],
            |r| r.get(0),
        )
        .unwrap();
    let received = mail.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0]["To"], "office@chavara.coop");
    assert!(
        received[0]["TextBody"]
            .as_str()
            .unwrap()
            .contains(&format!("https://office.example.in/share/{token}")),
        "{}",
        received[0]
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM email_log WHERE purpose = 'reminder' AND status = 'sent'"),
        1
    );

    // At most once: a second send answers without sending; the preview now shows the link.
    let again = o.app.post(&send_path, &o.anna, json!({})).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.body["email"], Value::Null);
    assert_eq!(mail.received().len(), 1);
    assert_eq!(o.app.count("SELECT COUNT(*) FROM document_share"), 1);
    let preview = o.app.get(&preview_path, &o.anna).await;
    assert!(preview.body["text"].as_str().unwrap().contains(&token));
    assert_eq!(warning_codes(&preview.body), Vec::<String>::new());
    assert_eq!(
        o.app
            .post(&format!("/api/reminders/{id}/dismiss"), &o.anna, json!({}))
            .await
            .status,
        StatusCode::CONFLICT
    );
}

#[tokio::test]
async fn a_send_that_fails_after_its_link_was_minted_leaves_the_link_usable() {
    let (o, mail) = mail_office().await;
    set_base_url(&o, "https://office.example.in").await;
    let (_, sent_on) = sent_quote(&o).await;
    scan(&o, plus(sent_on, 7)).await;
    let id = only_open(&o, "quote_followup").await;
    mail.fail_sends(true);
    let failed = o
        .app
        .post(&format!("/api/reminders/{id}/send"), &o.anna, json!({}))
        .await;
    assert_eq!(failed.status, StatusCode::BAD_GATEWAY, "{}", failed.text);
    assert_eq!(failed.code(), "mail_failed");
    let row = o.app.get("/api/reminders?status=failed", &o.anna).await;
    assert_eq!(row.body["total"], 1);
    assert!(
        row.body["rows"][0]["failure"]
            .as_str()
            .unwrap()
            .contains("marked as inactive"),
        "{}",
        row.text
    );
    let token: String = o
        .app
        .sql()
        .query_row("SELECT token FROM document_share", [], |r| r.get(0))
        .unwrap();
    let page = o
        .app
        .send(Call::new(Method::GET, &format!("/share/{token}")))
        .await;
    assert_eq!(
        page.status,
        StatusCode::OK,
        "the link minted for the failed send still opens"
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM email_log WHERE purpose = 'reminder' AND status = 'failed'"),
        1
    );

    // Sent again once the provider takes it: the same link, one email.
    mail.fail_sends(false);
    let sent = o
        .app
        .post(&format!("/api/reminders/{id}/send"), &o.anna, json!({}))
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(sent.body["status"], "sent");
    assert_eq!(sent.body["failure"], Value::Null);
    assert_eq!(o.app.count("SELECT COUNT(*) FROM document_share"), 1);
    assert!(mail.received()[0]["TextBody"].as_str().unwrap().contains(&token));
}

#[tokio::test]
async fn the_auto_drain_sends_after_the_scan_and_a_dead_token_leaves_failed_rows_with_reasons() {
    let (o, mail) = mail_office().await;
    set_base_url(&o, "https://office.example.in").await;
    set_policy(&o, "auto").await;
    let (first, sent_on) = sent_quote(&o).await;
    let (second, _) = sent_quote(&o).await;
    mail.kill_token(true);
    let run = scan(&o, plus(sent_on, 3)).await;
    assert_eq!(run["created"]["quote_followup"], 2);
    assert_eq!((run["sent"].as_i64(), run["failed"].as_i64()), (Some(0), Some(2)));
    let failed = o.app.get("/api/reminders?status=failed", &o.anna).await;
    assert_eq!(failed.body["total"], 2);
    for row in failed.body["rows"].as_array().unwrap() {
        assert_eq!(row["policy_applied"], "auto");
        assert_eq!(row["failure"], "the mail provider refused the token (401)");
    }
    // Nothing is lost: the quotations are as they were, each attempt is logged.
    for quote in [&first, &second] {
        let doc = o.app.get(&format!("/api/documents/{quote}"), &o.anna).await;
        assert_eq!(doc.body["status"], "sent");
    }
    assert_eq!(
        o.app.count("SELECT COUNT(*) FROM email_log WHERE purpose = 'reminder' AND status = 'failed' AND sent_by IS NULL"),
        2
    );
    // A failed row waits for a person: the next day's drain does not retry it.
    mail.kill_token(false);
    let next = scan(&o, plus(sent_on, 4)).await;
    assert_eq!(
        (next["sent"].as_i64(), next["failed"].as_i64()),
        (Some(0), Some(0))
    );
    assert!(mail.received().is_empty());
    // The next rung, with a live token, goes out by itself.
    let later = scan(&o, plus(sent_on, 7)).await;
    assert_eq!(later["created"]["quote_followup"], 2);
    assert_eq!(
        (later["sent"].as_i64(), later["failed"].as_i64()),
        (Some(2), Some(0))
    );
    assert_eq!(mail.received().len(), 2);
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM reminder WHERE status = 'sent' AND sent_at IS NOT NULL"),
        2
    );
}

#[tokio::test]
async fn a_bounce_flags_the_contact_and_raises_one_reminder_for_the_account_owner() {
    let (o, mail) = mail_office().await;
    let contact = o
        .app
        .post(
            &format!("/api/clients/{}/contacts", o.client),
            &o.owner,
            json!({ "name": "Secretary", "role": "secretary", "email": "Secretary@Chavara.coop" }),
        )
        .await;
    assert_eq!(contact.status, StatusCode::CREATED, "{}", contact.text);
    let contact_id = contact.body["id"].as_str().unwrap().to_string();
    let today = day(&scan(&o, day("2026-11-24")).await["as_of"].as_str().unwrap()[..10]);
    mail.bounce(
        41,
        "HardBounce",
        "secretary@chavara.coop",
        "2026-11-23T09:30:00.1234567Z",
    );
    mail.bounce(42, "SoftBounce", "office@chavara.coop", "2026-11-23T10:00:00Z");
    let run = scan(&o, plus(today, 1)).await;
    assert_eq!(run["created"]["email_bounced"], 1, "{run}");
    let rows = o.app.get("/api/reminders?rule_kind=email_bounced", &o.anna).await;
    assert_eq!(rows.body["total"], 1, "shared work in the account owner's queue");
    let row = &rows.body["rows"][0];
    assert_eq!(row["owner_id"], o.anna_id.as_str());
    assert_eq!(row["contact_id"], contact_id.as_str());
    assert_eq!(row["due_on"], "2026-11-23");
    assert!(
        row["reason"]
            .as_str()
            .unwrap()
            .starts_with("Mail to secretary@chavara.coop bounced")
    );
    let contacts = o
        .app
        .get(&format!("/api/clients/{}/contacts", o.client), &o.anna)
        .await;
    assert_eq!(contacts.body["rows"][0]["email_bouncing"], 1);
    // The bouncing contact is picked after the client's own address.
    let (quote, _) = sent_quote(&o).await;
    let recipient = o
        .app
        .get(&format!("/api/documents/{quote}/recipient"), &o.anna)
        .await;
    assert_eq!(
        recipient.body,
        json!({ "to": "office@chavara.coop", "bouncing": 0 })
    );
    // Without the client's own address, the bouncing contact is picked, and said to bounce.
    let cleared = o
        .app
        .patch(
            &format!("/api/clients/{}", o.client),
            &o.owner,
            json!({ "email": "" }),
        )
        .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.text);
    let recipient = o
        .app
        .get(&format!("/api/documents/{quote}/recipient"), &o.anna)
        .await;
    assert_eq!(
        recipient.body,
        json!({ "to": "Secretary@Chavara.coop", "bouncing": 1 })
    );
    // Read again: nothing new.
    assert_eq!(scan(&o, plus(today, 2)).await["created"]["email_bounced"], 0);
    // A new address clears the flag.
    let fixed = o
        .app
        .patch(
            &format!("/api/contacts/{contact_id}"),
            &o.anna,
            json!({ "email": "secy@chavara.coop" }),
        )
        .await;
    assert_eq!(fixed.status, StatusCode::OK, "{}", fixed.text);
    assert_eq!(fixed.body["email_bouncing"], 0);
    // A provider that cannot be read is a warning of the run, which goes on.
    mail.kill_token(true);
    let run = scan(&o, plus(today, 3)).await;
    assert_eq!(run["warnings"][0]["code"], "bounces_unread", "{run}");
}

#[tokio::test]
async fn an_overdue_reminder_is_sent_stating_the_due_date_and_the_days() {
    let (o, mail) = mail_office().await;
    let today = (chrono::Utc::now() + chrono::Duration::minutes(330)).date_naive();
    let (doc_date, due) = (today - Days::new(45), today - Days::new(30));
    let draft = o
        .app
        .post(
            "/api/documents",
            &o.anna,
            json!({ "type": "INVOICE", "client_id": o.client, "doc_date": doc_date.to_string(), "dueDate": due.to_string(),
                    "lines": [ { "description": "Deposit module", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] }),
        )
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let invoice = o
        .app
        .post(
            &format!("/api/documents/{}/issue", draft.body["id"].as_str().unwrap()),
            &o.anna,
            json!({}),
        )
        .await;
    assert_eq!(invoice.status, StatusCode::OK, "{}", invoice.text);
    let doc_no = invoice.body["docNo"].as_str().unwrap().to_string();
    // A follow-up task falls due the same day; it sends nothing.
    let note = o
        .app
        .post(
            "/api/interactions",
            &o.anna,
            json!({ "client_id": o.client, "type": "call", "notes": "Call back", "follow_up_on": today.to_string() }),
        )
        .await;
    assert_eq!(note.status, StatusCode::CREATED, "{}", note.text);
    scan(&o, today).await;
    let id = only_open(&o, "invoice_overdue").await;
    let task = only_open(&o, "follow_up").await;
    let refused = o
        .app
        .get(&format!("/api/reminders/{task}/preview"), &o.anna)
        .await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::CONFLICT, "not_sendable")
    );
    assert_eq!(
        o.app
            .post(&format!("/api/reminders/{task}/send"), &o.anna, json!({}))
            .await
            .code(),
        "not_sendable"
    );
    // The overdue email needs no link: it goes without share.base_url.
    let sent = o
        .app
        .post(&format!("/api/reminders/{id}/send"), &o.anna, json!({}))
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let email = &mail.received()[0];
    assert_eq!(
        email["Subject"],
        format!("Payment reminder: invoice {doc_no} is 30 days overdue")
    );
    assert!(
        email["TextBody"].as_str().unwrap().contains(&format!(
            "Our invoice {doc_no} dated {} was due on {} and is now 30 days overdue. The amount outstanding is ₹11,800.00.",
            doc_date.format("%d-%m-%Y"),
            due.format("%d-%m-%Y")
        )),
        "{}",
        email["TextBody"]
    );
}

#[tokio::test]
async fn a_contract_ending_raises_its_rungs_until_a_live_renewal_invoice_is_raised() {
    let o = office().await;
    let end = day("2027-03-31");
    let before = |n: u64| end.checked_sub_days(Days::new(n)).unwrap();
    let contract = o
        .app
        .post(
            "/api/service-contracts",
            &o.owner,
            json!({ "client_id": o.client, "description": "Core banking AMC", "period_from": "2026-04-01",
                    "period_to": "2027-03-31", "amount": 2_500_000 }),
        )
        .await;
    assert_eq!(contract.status, StatusCode::CREATED, "{}", contract.text);
    let path = format!("/api/service-contracts/{}", contract.body["id"].as_str().unwrap());
    assert_eq!(scan(&o, before(31)).await["created"]["amc_expiring"], 0);
    assert_eq!(scan(&o, before(30)).await["created"]["amc_expiring"], 1);
    // Renewed: the 7-day rung is not raised while the renewal invoice lives.
    let renewal = o.app.post(&format!("{path}/renew"), &o.owner, json!({})).await;
    assert_eq!(renewal.status, StatusCode::OK, "{}", renewal.text);
    assert_eq!(scan(&o, before(7)).await["created"]["amc_expiring"], 0);
    // Its invoice cancelled, the contract is not renewed any more.
    let cancelled = o
        .app
        .post(
            &format!("/api/documents/{}/cancel", renewal.body["id"].as_str().unwrap()),
            &o.owner,
            json!({ "reason": "Wrong amount" }),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(scan(&o, before(7)).await["created"]["amc_expiring"], 1);
    // Shared work in the account owner's queue, with the day it ends.
    let rows = o
        .app
        .get("/api/reminders?rule_kind=amc_expiring&sort=due_on", &o.anna)
        .await;
    assert_eq!(rows.body["total"], 2, "{}", rows.text);
    assert_eq!(rows.body["rows"][0]["owner_id"], o.anna_id.as_str());
    let reasons: Vec<&str> = rows.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reason"].as_str().unwrap())
        .collect();
    assert_eq!(
        reasons,
        [
            "Service contract \u{201c}Core banking AMC\u{201d} ends on 31-03-2027 (in 30 days).",
            "Service contract \u{201c}Core banking AMC\u{201d} ends on 31-03-2027 (in 7 days)."
        ]
    );
}

#[tokio::test]
async fn a_job_is_run_now_by_the_owner_only_and_an_unknown_one_is_404() {
    let o = office().await;
    let run = o
        .app
        .post(
            "/api/jobs/recurring_generation/run",
            &o.owner,
            json!({ "as_of": "2026-12-01" }),
        )
        .await;
    assert_eq!(run.status, StatusCode::OK, "{}", run.text);
    assert_eq!(
        run.body,
        json!({ "as_of": "2026-12-01", "generated": 0, "parked": 0, "skipped": 0, "carried_over": 0 })
    );
    let runs = "SELECT COUNT(*) FROM job_run WHERE job = 'recurring_generation' AND as_of = '2026-12-01'";
    assert_eq!(o.app.count(runs), 1, "recorded like a scheduled run");
    let unknown = o
        .app
        .post("/api/jobs/backup_everything/run", &o.owner, json!({}))
        .await;
    assert_eq!(
        (unknown.status, unknown.code()),
        (StatusCode::NOT_FOUND, "not_found")
    );
    let staff = o
        .app
        .post("/api/jobs/recurring_generation/run", &o.anna, json!({}))
        .await;
    assert_eq!(staff.status, StatusCode::FORBIDDEN);
    let bad = o
        .app
        .post(
            "/api/jobs/daily_scan/run",
            &o.owner,
            json!({ "as_of": "31-12-2026" }),
        )
        .await;
    assert_eq!(bad.status.as_u16() / 100, 4, "{}", bad.text);
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM job_run WHERE as_of = '2026-12-31'"),
        0
    );
    assert_eq!(o.app.count(runs), 1);
}

/// The quote_followup reminders of `doc` in `status`.
fn followups(o: &Office, doc: &str, status: &str) -> i64 {
    o.app.count(&format!(
        "SELECT COUNT(*) FROM reminder WHERE doc_id = '{doc}' AND rule_kind = 'quote_followup' AND status = '{status}'"
    ))
}

#[tokio::test]
async fn converting_cancelling_or_losing_a_quotation_dismisses_its_follow_ups_each_audited_and_no_other() {
    // (the stop, its route, its body, whether the owner does it (cancel is a manager's), the audited why)
    let stops = [
        (
            "convert to PROFORMA",
            "convert",
            json!({ "to": "PROFORMA" }),
            false,
            "The quotation was converted.",
        ),
        (
            "convert to INVOICE",
            "convert",
            json!({ "to": "INVOICE" }),
            false,
            "The quotation was converted.",
        ),
        (
            "cancel",
            "cancel",
            json!({ "reason": "Sent to the wrong society" }),
            true,
            "The quotation was cancelled.",
        ),
        ("lost", "lost", json!({}), false, "The quotation was marked lost."),
    ];
    for (stop, route, body, by_owner, why) in stops {
        let o = office().await;
        let (quote, sent_on) = sent_quote(&o).await;
        let (other, _) = sent_quote(&o).await;
        // Two open follow-ups on each: the 3-day one, then the 14-day one after a missed week.
        assert_eq!(scan(&o, plus(sent_on, 3)).await["created"]["quote_followup"], 2);
        assert_eq!(scan(&o, plus(sent_on, 20)).await["created"]["quote_followup"], 2);
        assert_eq!(
            (followups(&o, &quote, "open"), followups(&o, &other, "open")),
            (2, 2),
            "{stop}"
        );
        let mut reminders: Vec<String> = {
            let sql = o.app.sql();
            let mut stmt = sql
                .prepare("SELECT id FROM reminder WHERE doc_id = ?1 ORDER BY id")
                .unwrap();
            stmt.query_map([&quote], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect()
        };
        reminders.sort();
        let (cookie, actor) = if by_owner {
            let owner_id: String = o
                .app
                .sql()
                .query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))
                .unwrap();
            (&o.owner, owner_id)
        } else {
            (&o.anna, o.anna_id.clone())
        };
        let reply = o
            .app
            .post(&format!("/api/documents/{quote}/{route}"), cookie, body)
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{stop}: {}", reply.text);

        assert_eq!(
            (
                followups(&o, &quote, "open"),
                followups(&o, &quote, "dismissed"),
                followups(&o, &other, "open")
            ),
            (0, 2, 2),
            "{stop}"
        );
        let audited: Vec<(String, String, Value, Value)> = {
            let sql = o.app.sql();
            let mut stmt = sql
                .prepare(
                    "SELECT entity_id, user_id, before, after FROM audit
                     WHERE entity = 'reminder' AND action = 'dismissed' ORDER BY entity_id",
                )
                .unwrap();
            stmt.query_map([], |r| {
                let json = |i| -> rusqlite::Result<Value> {
                    Ok(serde_json::from_str(&r.get::<_, String>(i)?).unwrap())
                };
                Ok((r.get(0)?, r.get(1)?, json(2)?, json(3)?))
            })
            .unwrap()
            .map(Result::unwrap)
            .collect()
        };
        let expected: Vec<(String, String, Value, Value)> = reminders
            .iter()
            .map(|id| {
                (
                    id.clone(),
                    actor.clone(),
                    json!({ "status": "open" }),
                    json!({ "status": "dismissed", "reason": why }),
                )
            })
            .collect();
        assert_eq!(audited, expected, "{stop}: one audit row per dismissed follow-up");
        assert_eq!(
            o.app.count(&format!(
                "SELECT COUNT(*) FROM reminder WHERE doc_id = '{quote}' AND closed_by = '{actor}' AND closed_at IS NOT NULL"
            )),
            2,
            "{stop}"
        );
    }
}

#[tokio::test]
async fn the_scan_passes_over_quotes_with_a_live_child_accepted_ones_and_those_of_lost_clients() {
    let o = office().await;
    let (plain, sent_on) = sent_quote(&o).await;
    let (converted, _) = sent_quote(&o).await;
    let (reopened, _) = sent_quote(&o).await;
    let (accepted, _) = sent_quote(&o).await;
    let convert = |quote: String| {
        let app = &o.app;
        let anna = o.anna.clone();
        async move {
            let child = app
                .post(
                    &format!("/api/documents/{quote}/convert"),
                    &anna,
                    json!({ "to": "PROFORMA" }),
                )
                .await;
            assert_eq!(child.status, StatusCode::OK, "{}", child.text);
            child.body["id"].as_str().unwrap().to_string()
        }
    };
    // A live (draft) child keeps its quotation quiet.
    convert(converted.clone()).await;
    // A cancelled child re-opens the quotation (spec 3.1), and with it the follow-ups.
    let child = convert(reopened.clone()).await;
    let cancelled = o
        .app
        .post(
            &format!("/api/documents/{child}/cancel"),
            &o.owner,
            json!({ "reason": "Raised for the wrong branch" }),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    // Accepted is a stop condition of its own, even once its child is cancelled.
    let accept = o
        .app
        .post(&format!("/api/documents/{accepted}/accept"), &o.anna, json!({}))
        .await;
    assert_eq!(accept.status, StatusCode::OK, "{}", accept.text);
    let accepted_child = convert(accepted.clone()).await;
    o.app
        .post(
            &format!("/api/documents/{accepted_child}/cancel"),
            &o.owner,
            json!({ "reason": "Raised for the wrong branch" }),
        )
        .await;
    // A sent quotation of a client that is then marked lost.
    let lost_client = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "Anchal SCB", "state_code": "32", "owner_id": o.anna_id }),
        )
        .await;
    let lost_client = lost_client.body["id"].as_str().unwrap().to_string();
    let draft = o
        .app
        .post(
            "/api/documents",
            &o.anna,
            json!({ "type": "QUOTATION", "client_id": lost_client,
                    "lines": [ { "description": "Deposit module", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] }),
        )
        .await;
    let of_lost = draft.body["id"].as_str().unwrap().to_string();
    for step in ["issue", "mark-sent"] {
        let reply = o
            .app
            .post(&format!("/api/documents/{of_lost}/{step}"), &o.anna, json!({}))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{step}: {}", reply.text);
    }
    let lost = o
        .app
        .patch(
            &format!("/api/clients/{lost_client}"),
            &o.owner,
            json!({ "status": "lost" }),
        )
        .await;
    assert_eq!(lost.status, StatusCode::OK, "{}", lost.text);

    let run = scan(&o, plus(sent_on, 3)).await;
    assert_eq!(run["created"]["quote_followup"], 2, "{run}");
    let mut raised_for = vec![];
    for quote in [&plain, &converted, &reopened, &accepted, &of_lost] {
        raised_for.push(followups(&o, quote, "open"));
    }
    assert_eq!(
        raised_for,
        [1, 0, 1, 0, 0],
        "plain, converted, reopened, accepted, of a lost client"
    );
    let status = o.app.get(&format!("/api/documents/{reopened}"), &o.anna).await;
    assert_eq!(
        (status.body["status"].as_str(), &status.body["child_id"]),
        (Some("invoiced"), &Value::Null)
    );
}

/// The rows of `sql` as (text, text).
fn pairs(o: &Office, sql: &str) -> Vec<(String, String)> {
    let conn = o.app.sql();
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test]
async fn the_days_jobs_run_the_scan_then_the_recurring_invoices_then_the_auto_sends() {
    let (o, mail) = mail_office().await;
    set_base_url(&o, "https://office.example.in").await;
    set_policy(&o, "auto").await;
    let (quote, sent_on) = sent_quote(&o).await;
    // On `day` the quotation's 3-day follow-up (policy auto) is due, and so is a monthly plan.
    let day = plus(sent_on, 3);
    let plan = o
        .app
        .post(
            "/api/recurring-plans",
            &o.owner,
            json!({ "client_id": o.client, "interval": "monthly", "next_run": day.to_string(),
                    "lines": [ { "description": "Cloud hosting", "qty": 1, "unit_price": 500_000, "gst_rate": 18 } ] }),
        )
        .await;
    assert_eq!(plan.status, StatusCode::CREATED, "{}", plan.text);

    let state = o.app.state.clone();
    tokio::task::spawn_blocking(move || backoffice::jobs::run_day(&state, day))
        .await
        .unwrap();

    // Each of the day's three jobs ran once, to the end, in the spec's order (6.3).
    let runs = pairs(
        &o,
        &format!(
            "SELECT job, outcome FROM job_run WHERE as_of = '{day}'
             AND job IN ('daily_scan', 'recurring_generation', 'auto_send_drain') ORDER BY id"
        ),
    );
    let ok = |job: &str| (job.to_string(), "ok".to_string());
    assert_eq!(
        runs,
        [
            ok("daily_scan"),
            ok("recurring_generation"),
            ok("auto_send_drain")
        ]
    );
    // The plan's invoice was issued, then the follow-up went out: the drain came after it.
    let invoices = pairs(&o, "SELECT id, doc_no FROM document WHERE type = 'INVOICE'");
    assert_eq!(invoices.len(), 1, "{invoices:?}");
    let sends = pairs(
        &o,
        "SELECT id, document_id || ' ' || purpose || ' ' || status || ' ' || COALESCE(sent_by, 'the job') FROM email_log",
    );
    assert_eq!(sends.len(), 1, "{sends:?}");
    assert_eq!(sends[0].1, format!("{quote} reminder sent the job"));
    assert!(
        sends[0].0 > invoices[0].0,
        "the auto-send ({}) was written after the day's invoice ({})",
        sends[0].0,
        invoices[0].0
    );
    assert_eq!(mail.received().len(), 1);
    let counts = |job: &str| -> Value {
        let text: String = o
            .app
            .sql()
            .query_row(
                "SELECT counts FROM job_run WHERE job = ?1 AND as_of = ?2",
                [job, &day.to_string()],
                |r| r.get(0),
            )
            .unwrap();
        serde_json::from_str(&text).unwrap()
    };
    assert_eq!(
        counts("auto_send_drain"),
        json!({ "as_of": day.to_string(), "sent": 1, "failed": 0 })
    );
    assert_eq!(counts("recurring_generation")["generated"], 1);
    assert_eq!(counts("daily_scan")["created"]["quote_followup"], 1);

    // The day is done: a second tick runs none of them again.
    let state = o.app.state.clone();
    tokio::task::spawn_blocking(move || backoffice::jobs::run_day(&state, day))
        .await
        .unwrap();
    assert_eq!(
        o.app.count(&format!("SELECT COUNT(*) FROM job_run WHERE as_of = '{day}' AND job IN ('daily_scan', 'recurring_generation', 'auto_send_drain')")),
        3
    );
    assert_eq!(mail.received().len(), 1);
}

/// The office's today (the default `company.utc_offset`, +05:30).
fn office_today() -> NaiveDate {
    (chrono::Utc::now() + chrono::Duration::minutes(330)).date_naive()
}

fn minus(d: NaiveDate, n: u64) -> NaiveDate {
    d.checked_sub_days(Days::new(n)).unwrap()
}

/// Writes the day a reminder was raised back to `on` (06:00 UTC, 11:30 at the office).
fn raised_back(o: &Office, kind: &str, on: NaiveDate) {
    o.app
        .sql()
        .execute(
            "UPDATE reminder SET created_at = ?1 WHERE rule_kind = ?2",
            [format!("{on}T06:00:00Z"), kind.to_string()],
        )
        .unwrap();
}

#[tokio::test]
async fn an_overdue_reminders_summary_and_email_count_the_days_to_today_and_its_reason_is_history() {
    let o = office().await;
    let today = office_today();
    let (doc_date, due) = (minus(today, 45), minus(today, 30));
    let draft = o
        .app
        .post(
            "/api/documents",
            &o.anna,
            json!({ "type": "INVOICE", "client_id": o.client, "doc_date": doc_date.to_string(), "dueDate": due.to_string(),
                    "lines": [ { "description": "Deposit module", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] }),
        )
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let invoice = o
        .app
        .post(
            &format!("/api/documents/{}/issue", draft.body["id"].as_str().unwrap()),
            &o.anna,
            json!({}),
        )
        .await;
    assert_eq!(invoice.status, StatusCode::OK, "{}", invoice.text);
    let doc_no = invoice.body["docNo"].as_str().unwrap().to_string();
    // Raised eleven days ago, when it was 19 days overdue.
    let raised = minus(today, 11);
    assert_eq!(scan(&o, raised).await["created"]["invoice_overdue"], 1);
    raised_back(&o, "invoice_overdue", raised);

    let due_text = due.format("%d-%m-%Y");
    let then = format!("{doc_no} is 19 days overdue (due {due_text}); ₹11,800.00 outstanding.");
    let now = format!("{doc_no} is 30 days overdue (due {due_text}); ₹11,800.00 outstanding.");
    let rows = o
        .app
        .get("/api/reminders?rule_kind=invoice_overdue", &o.anna)
        .await;
    assert_eq!(rows.body["total"], 1, "{}", rows.text);
    let row = &rows.body["rows"][0];
    assert_eq!(row["reason"], then);
    assert_eq!(row["summary"], now);
    assert_eq!(row["raised_on"], raised.to_string());
    let id = row["id"].as_str().unwrap();
    let one = o.app.get(&format!("/api/reminders/{id}"), &o.anna).await;
    assert_eq!(
        (&one.body["summary"], &one.body["reason"]),
        (&json!(now), &json!(then))
    );

    // The email says the same figure as the summary, on the same day.
    let preview = o.app.get(&format!("/api/reminders/{id}/preview"), &o.anna).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text);
    assert_eq!(
        preview.body["subject"],
        format!("Payment reminder: invoice {doc_no} is 30 days overdue")
    );
    let text = preview.body["text"].as_str().unwrap();
    assert!(
        text.contains(&format!(
            "Our invoice {doc_no} dated {} was due on {due_text} and is now 30 days overdue. \
             The amount outstanding is ₹11,800.00.",
            doc_date.format("%d-%m-%Y")
        )),
        "{text}"
    );

    // The CSV twin carries both, the summary first.
    let csv = o
        .app
        .get("/api/reminders.csv?rule_kind=invoice_overdue", &o.anna)
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    assert_eq!(
        csv.text,
        format!(
            "Due on,Kind,Client,Document,Owner,Status,Summary,Raised on,Reason when raised\r\n\
             {due},invoice_overdue,Chavara SCB,{doc_no},anna@coop.in,open,\"{now}\",{raised},\"{then}\"\r\n"
        )
    );
}

#[tokio::test]
async fn a_renewals_summary_counts_from_today_whatever_day_it_was_raised() {
    let o = office().await;
    let module = o.app.priced_module(&o.owner, 500_000).await;
    let today = office_today();
    let link = o
        .app
        .post(
            "/api/client-modules",
            &o.owner,
            json!({ "client_id": o.client, "module_id": module, "next_renewal": plus(today, 26).to_string() }),
        )
        .await;
    assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
    let renew_on = |on: NaiveDate| {
        o.app
            .sql()
            .execute("UPDATE client_module SET next_renewal = ?1", [on.to_string()])
            .unwrap();
    };
    // Raised three days ago, 29 days ahead: in 26 days now.
    assert_eq!(scan(&o, minus(today, 3)).await["created"]["renewal_due"], 1);
    // Raised a week before a renewal that is today.
    renew_on(today);
    assert_eq!(scan(&o, minus(today, 7)).await["created"]["renewal_due"], 1);
    // Raised a week before a renewal two days past.
    renew_on(minus(today, 2));
    assert_eq!(scan(&o, minus(today, 9)).await["created"]["renewal_due"], 1);

    let rows = o
        .app
        .get("/api/reminders?rule_kind=renewal_due&sort=-due_on", &o.anna)
        .await;
    assert_eq!(rows.body["total"], 3, "{}", rows.text);
    let pairs: Vec<(&str, &str)> = rows.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["summary"].as_str().unwrap(), r["reason"].as_str().unwrap()))
        .collect();
    let on = |d: NaiveDate| d.format("%d-%m-%Y").to_string();
    let (ahead, this_day, past) = (on(plus(today, 26)), on(today), on(minus(today, 2)));
    assert_eq!(
        pairs,
        [
            (
                format!("Deposit module renews on {ahead} (in 26 days)."),
                format!("Deposit module renews on {ahead} (in 29 days).")
            ),
            (
                format!("Deposit module renews on {this_day} (today)."),
                format!("Deposit module renews on {this_day} (in 7 days).")
            ),
            (
                format!("Deposit module was due for renewal on {past} (2 days ago)."),
                format!("Deposit module renews on {past} (in 7 days).")
            ),
        ]
        .iter()
        .map(|(s, r)| (s.as_str(), r.as_str()))
        .collect::<Vec<_>>()
    );
}
