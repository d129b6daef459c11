//! Service contracts and recurring plans (issue 16, second part): a contract recorded, listed,
//! changed and renewed into an invoice draft whose payments move its paid state; the staff
//! book; plans generating issued invoices period by period, a failing plan parked while the
//! others go on, and its retry; every bad body refused with the contract's error body and
//! nothing written.

use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode, header};
use backoffice::plumbing::clock::Fy;
use chrono::NaiveDate;
use serde_json::{Value, json};

struct Office {
    app: TestApp,
    owner: String,
    manager: String,
    anna: String,
    /// Anna's client (her book) and one of nobody's.
    chavara: String,
    anchal: String,
}

async fn office() -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let (_, pw) = app.invite(&owner, "meera@coop.in", "manager").await;
    let manager = app.login("meera@coop.in", &pw).await;
    let (anna_id, pw) = app.invite(&owner, "anna@coop.in", "staff").await;
    let anna = app.login("anna@coop.in", &pw).await;
    let mut ids = vec![];
    for body in [
        json!({ "name": "Chavara SCB", "state_code": "32", "owner_id": anna_id }),
        json!({ "name": "Anchal SCB", "state_code": "32" }),
    ] {
        let client = app.post("/api/clients", &owner, body).await;
        assert_eq!(client.status, StatusCode::CREATED, "{}", client.text);
        ids.push(id(&client.body));
    }
    Office {
        app,
        owner,
        manager,
        anna,
        chavara: ids[0].clone(),
        anchal: ids[1].clone(),
    }
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn today(app: &TestApp) -> NaiveDate {
    app.state
        .db
        .read_blocking(backoffice::plumbing::db::settings::office_today)
        .unwrap()
}

fn ids_of(list: &Value) -> Vec<String> {
    list["rows"].as_array().unwrap().iter().map(id).collect()
}

/// The core banking AMC of Chavara: 1 April 2026 to 31 March 2027 for ₹25,000.
fn amc(client: &str) -> Value {
    json!({ "client_id": client, "description": "Core banking AMC", "period_from": "2026-04-01",
            "period_to": "2027-03-31", "amount": 2_500_000 })
}

async fn list(o: &Office, query: &str) -> Value {
    let reply = o
        .app
        .get(&format!("/api/service-contracts{query}"), &o.owner)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{query}: {}", reply.text);
    reply.body
}

async fn contract(o: &Office, path: &str) -> Value {
    let reply = o.app.get(path, &o.owner).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

#[tokio::test]
async fn a_contract_is_renewed_into_an_invoice_draft_and_its_paid_state_follows_the_invoice() {
    let o = office().await;
    let created = o
        .app
        .post("/api/service-contracts", &o.manager, amc(&o.chavara))
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let c = created.body;
    let path = format!("/api/service-contracts/{}", id(&c));
    let state = if day("2027-03-31") >= today(&o.app) {
        "active"
    } else {
        "expired"
    };
    assert_eq!(
        (
            c["client_name"].as_str(),
            c["description"].as_str(),
            c["period_from"].as_str(),
            c["period_to"].as_str(),
            c["amount"].as_i64(),
            c["paid_state"].as_str(),
            c["state"].as_str(),
            &c["renewal_invoice_id"],
            &c["renewal_docNo"],
        ),
        (
            Some("Chavara SCB"),
            Some("Core banking AMC"),
            Some("2026-04-01"),
            Some("2027-03-31"),
            Some(2_500_000),
            Some("none"),
            Some(state),
            &Value::Null,
            &Value::Null,
        )
    );

    // A partial change: the amount and the description; the period stays.
    let patched = o
        .app
        .patch(
            &path,
            &o.manager,
            json!({ "amount": 3_000_000, "description": "  Core banking and deposits AMC " }),
        )
        .await;
    assert_eq!(patched.status, StatusCode::OK, "{}", patched.text);
    assert_eq!(
        (
            patched.body["amount"].as_i64(),
            patched.body["description"].as_str(),
            patched.body["period_to"].as_str()
        ),
        (
            Some(3_000_000),
            Some("Core banking and deposits AMC"),
            Some("2027-03-31")
        )
    );

    // Renewal: an INVOICE draft for the next year at the contract's amount, 18% GST in Kerala.
    let renewed = o.app.post(&format!("{path}/renew"), &o.manager, json!({})).await;
    assert_eq!(renewed.status, StatusCode::OK, "{}", renewed.text);
    let draft = renewed.body;
    assert_eq!(
        (
            draft["type"].as_str(),
            draft["status"].as_str(),
            draft["client_id"].as_str(),
            draft["lines"][0]["description"].as_str(),
            draft["lines"][0]["qty"].as_i64(),
            draft["lines"][0]["unit_price"].as_i64(),
            draft["lines"][0]["gst_rate"].as_i64(),
            draft["subtotal"].as_i64(),
            draft["cgst"].as_i64(),
            draft["sgst"].as_i64(),
            draft["total"].as_i64(),
        ),
        (
            Some("INVOICE"),
            Some("draft"),
            Some(o.chavara.as_str()),
            Some("Annual maintenance: Core banking and deposits AMC, 01-04-2027 to 31-03-2028"),
            Some(1),
            Some(3_000_000),
            Some(18),
            Some(3_000_000),
            Some(270_000),
            Some(270_000),
            Some(3_540_000),
        )
    );
    let invoice = id(&draft);
    let c = contract(&o, &path).await;
    assert_eq!(
        (c["renewal_invoice_id"].as_str(), c["paid_state"].as_str()),
        (Some(invoice.as_str()), Some("draft"))
    );
    let again = o.app.post(&format!("{path}/renew"), &o.manager, json!({})).await;
    assert_eq!(
        (again.status, again.code()),
        (StatusCode::CONFLICT, "already_renewed")
    );

    // Issued, then paid in two parts: unpaid, part paid, paid.
    let issued = o
        .app
        .post(&format!("/api/documents/{invoice}/issue"), &o.owner, json!({}))
        .await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
    let doc_no = format!("INV/{}-0001", Fy::of(today(&o.app)).short());
    assert_eq!(issued.body["docNo"].as_str(), Some(doc_no.as_str()));
    let c = contract(&o, &path).await;
    assert_eq!(
        (c["renewal_docNo"].as_str(), c["paid_state"].as_str()),
        (Some(doc_no.as_str()), Some("unpaid"))
    );
    let received_on = today(&o.app).to_string();
    for (amount, paid_state) in [(1_000_000, "part_paid"), (2_540_000, "paid")] {
        let paid = o
            .app
            .post(
                "/api/payments",
                &o.owner,
                json!({ "client_id": o.chavara, "received_on": received_on, "amount": amount, "mode": "upi",
                        "allocations": [ { "document_id": invoice, "amount": amount, "tds": 0 } ] }),
            )
            .await;
        assert_eq!(paid.status, StatusCode::CREATED, "{}", paid.text);
        assert_eq!(contract(&o, &path).await["paid_state"], paid_state);
    }
    // The list filters on it, and on the period; the CSV twin carries the same rows.
    let other = o
        .app
        .post(
            "/api/service-contracts",
            &o.owner,
            json!({ "client_id": o.anchal, "description": "Deposit module AMC", "period_from": "2020-04-01",
                    "period_to": "2021-03-31", "amount": 0 }),
        )
        .await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.text);
    let all = list(&o, "").await;
    assert_eq!(
        (all["total"].as_i64(), ids_of(&all)),
        (Some(2), vec![id(&other.body), id(&c)])
    );
    assert_eq!(ids_of(&list(&o, "?paid_state=paid").await), vec![id(&c)]);
    assert_eq!(ids_of(&list(&o, "?paid_state=none").await), vec![id(&other.body)]);
    assert_eq!(
        ids_of(&list(&o, "?state=expired&q=deposit%20module").await),
        vec![id(&other.body)]
    );
    assert_eq!(
        ids_of(&list(&o, &format!("?client_id={}", o.chavara)).await),
        vec![id(&c)]
    );
    assert_eq!(
        ids_of(&list(&o, "?sort=-amount").await),
        vec![id(&c), id(&other.body)]
    );
    let bad_sort = o.app.get("/api/service-contracts?sort=secret", &o.owner).await;
    assert_eq!(
        (bad_sort.status, bad_sort.code()),
        (StatusCode::BAD_REQUEST, "invalid_sort")
    );
    let bad_state = o
        .app
        .get("/api/service-contracts?paid_state=overdue", &o.owner)
        .await;
    assert_eq!(bad_state.status, StatusCode::BAD_REQUEST);
    let csv = o
        .app
        .get("/api/service-contracts.csv?sort=client_name", &o.owner)
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    assert_eq!(csv.headers[header::CONTENT_TYPE], "text/csv; charset=utf-8");
    let expired = if day("2021-03-31") >= today(&o.app) {
        "active"
    } else {
        "expired"
    };
    assert_eq!(
        csv.text,
        format!(
            "Client,Description,From,To,Amount,State,Renewal invoice,Paid state\r\n\
             Anchal SCB,Deposit module AMC,2020-04-01,2021-03-31,0.00,{expired},,none\r\n\
             Chavara SCB,Core banking and deposits AMC,2026-04-01,2027-03-31,30000.00,{state},{doc_no},paid\r\n"
        )
    );

    // Each write is one audit row of its own.
    let actions: Vec<String> = {
        let conn = o.app.sql();
        let mut stmt = conn
            .prepare(
                "SELECT action FROM audit WHERE entity = 'service_contract' AND entity_id = ?1 ORDER BY id",
            )
            .unwrap();
        stmt.query_map([id(&c)], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(actions, ["created", "updated", "renewed"]);
}

#[tokio::test]
async fn a_cancelled_renewal_invoice_lets_the_contract_be_renewed_again() {
    let o = office().await;
    let c = o
        .app
        .post("/api/service-contracts", &o.owner, amc(&o.anchal))
        .await
        .body;
    let path = format!("/api/service-contracts/{}", id(&c));
    let first = o
        .app
        .post(&format!("{path}/renew"), &o.owner, json!({}))
        .await
        .body;
    let cancelled = o
        .app
        .post(
            &format!("/api/documents/{}/cancel", id(&first)),
            &o.owner,
            json!({ "reason": "Wrong amount" }),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(contract(&o, &path).await["paid_state"], "none");
    // While it is renewed the client is fixed; with the invoice cancelled it could move.
    let second = o.app.post(&format!("{path}/renew"), &o.owner, json!({})).await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    assert_ne!(id(&second.body), id(&first));
    let moved = o
        .app
        .patch(&path, &o.owner, json!({ "client_id": o.chavara }))
        .await;
    assert_eq!(
        (moved.status, moved.code(), moved.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "renewed", Some("client_id"))
    );
    assert_eq!(
        contract(&o, &path).await["renewal_invoice_id"].as_str(),
        Some(id(&second.body).as_str())
    );
}

#[tokio::test]
async fn staff_read_the_contracts_of_their_book_and_write_none() {
    let o = office().await;
    let mine = id(&o
        .app
        .post("/api/service-contracts", &o.owner, amc(&o.chavara))
        .await
        .body);
    let theirs = id(&o
        .app
        .post("/api/service-contracts", &o.owner, amc(&o.anchal))
        .await
        .body);
    let list = o.app.get("/api/service-contracts", &o.anna).await;
    assert_eq!(
        (list.body["total"].as_i64(), ids_of(&list.body)),
        (Some(1), vec![mine.clone()])
    );
    // Asking for the other client does not widen the book.
    let widened = o
        .app
        .get(&format!("/api/service-contracts?client_id={}", o.anchal), &o.anna)
        .await;
    assert_eq!(widened.body["total"], 0);
    let csv = o.app.get("/api/service-contracts.csv", &o.anna).await;
    assert_eq!(csv.text.lines().count(), 2, "{}", csv.text);
    assert!(csv.text.contains("Chavara SCB") && !csv.text.contains("Anchal SCB"));
    assert_eq!(
        o.app
            .get(&format!("/api/service-contracts/{mine}"), &o.anna)
            .await
            .status,
        StatusCode::OK
    );
    let hidden = o
        .app
        .get(&format!("/api/service-contracts/{theirs}"), &o.anna)
        .await;
    assert_eq!(
        (hidden.status, hidden.code()),
        (StatusCode::NOT_FOUND, "not_found")
    );
    let audit = o.app.count("SELECT COUNT(*) FROM audit");
    for (method, path, body) in [
        (
            Method::POST,
            "/api/service-contracts".to_string(),
            amc(&o.chavara),
        ),
        (
            Method::PATCH,
            format!("/api/service-contracts/{mine}"),
            json!({ "amount": 1 }),
        ),
        (
            Method::POST,
            format!("/api/service-contracts/{mine}/renew"),
            json!({}),
        ),
    ] {
        let r = o
            .app
            .send(Call::new(method.clone(), &path).cookie(&o.anna).json(body))
            .await;
        assert_eq!(
            (r.status, r.code()),
            (StatusCode::FORBIDDEN, "forbidden"),
            "{method} {path}"
        );
    }
    assert_eq!(o.app.count("SELECT COUNT(*) FROM audit"), audit);
    assert_eq!(o.app.count("SELECT COUNT(*) FROM document"), 0);
    // Plans are the owner's alone.
    for who in [&o.anna, &o.manager] {
        assert_eq!(
            o.app.get("/api/recurring-plans", who).await.status,
            StatusCode::FORBIDDEN
        );
    }
}

/// A plan of one ₹5,000 line at 18% for `client`; answers it.
async fn plan(o: &Office, client: &str, interval: &str, next_run: &str) -> Value {
    let reply = o
        .app
        .post(
            "/api/recurring-plans",
            &o.owner,
            json!({ "client_id": client, "interval": interval, "next_run": next_run,
                    "lines": [ { "description": "Cloud hosting", "qty": 1, "unit_price": 500_000, "gst_rate": 18 } ] }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body
}

async fn generate(app: &TestApp, as_of: NaiveDate) -> Value {
    let state = app.state.clone();
    let outcome = tokio::task::spawn_blocking(move || backoffice::recurring::generate::run(&state, as_of))
        .await
        .unwrap()
        .unwrap();
    serde_json::to_value(outcome).unwrap()
}

fn audit_actions(app: &TestApp, plan_id: &str) -> Vec<String> {
    let conn = app.sql();
    let mut stmt = conn
        .prepare("SELECT action FROM audit WHERE entity = 'recurring_plan' AND entity_id = ?1 ORDER BY id")
        .unwrap();
    stmt.query_map([plan_id], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test]
async fn plans_issue_their_invoices_and_a_failing_plan_is_parked_while_the_others_go_on() {
    let o = office().await;
    // Due first but failing (its client will be lost), then a plan of the 31st, two months behind.
    let failing = plan(&o, &o.anchal, "quarterly", "2026-10-15").await;
    let monthly = plan(&o, &o.chavara, "monthly", "2026-10-31").await;
    assert_eq!(
        (
            monthly["active"].as_i64(),
            monthly["interval"].as_str(),
            monthly["next_run"].as_str(),
            &monthly["parked_reason"],
            &monthly["warnings"],
        ),
        (
            Some(1),
            Some("monthly"),
            Some("2026-10-31"),
            &Value::Null,
            &json!([])
        )
    );
    assert_eq!(
        monthly["lines"],
        json!([ { "module_id": null, "description": "Cloud hosting", "sac": null, "qty": 1, "unit_price": 500_000, "gst_rate": 18 } ])
    );
    let lost = o
        .app
        .patch(
            &format!("/api/clients/{}", o.anchal),
            &o.owner,
            json!({ "status": "lost" }),
        )
        .await;
    assert_eq!(lost.status, StatusCode::OK, "{}", lost.text);

    let as_of = day("2026-12-05");
    let outcome = generate(&o.app, as_of).await;
    assert_eq!(
        outcome,
        json!({ "as_of": "2026-12-05", "generated": 2, "parked": 1, "skipped": 0, "carried_over": 0 })
    );
    // Two periods of the monthly plan, each its own invoice dated the day of the run.
    let monthly_path = format!("/api/recurring-plans/{}", id(&monthly));
    let after = o.app.get(&monthly_path, &o.owner).await.body;
    assert_eq!(
        (
            after["next_run"].as_str(),
            after["last_docNo"].as_str(),
            &after["parked_at"]
        ),
        (Some("2026-12-31"), Some("INV/26-27-0002"), &Value::Null)
    );
    let docs = o.app.get("/api/documents?sort=docNo", &o.owner).await.body;
    let mut invoices = vec![];
    for row in docs["rows"].as_array().unwrap() {
        let doc = o
            .app
            .get(&format!("/api/documents/{}", id(row)), &o.owner)
            .await
            .body;
        invoices.push((
            doc["docNo"].as_str().unwrap().to_string(),
            doc["status"].as_str().unwrap().to_string(),
            doc["doc_date"].as_str().unwrap().to_string(),
            doc["due_date"].as_str().unwrap().to_string(),
            doc["total"].as_i64().unwrap(),
            doc["notes"].as_str().unwrap().to_string(),
            doc["client_id"].as_str().unwrap().to_string(),
        ));
    }
    let invoice = |n: &str, period: &str| {
        (
            format!("INV/26-27-000{n}"),
            "issued".to_string(),
            "2026-12-05".to_string(),
            "2026-12-20".to_string(),
            590_000,
            format!("Recurring billing for the period {period}."),
            o.chavara.clone(),
        )
    };
    assert_eq!(
        invoices,
        [
            invoice("1", "31-10-2026 to 29-11-2026"),
            invoice("2", "30-11-2026 to 30-12-2026")
        ]
    );
    assert_eq!(
        audit_actions(&o.app, &id(&monthly)),
        ["created", "generated", "generated"]
    );

    // The failing plan is parked with the reason, audited; it waits for a retry.
    let failing_path = format!("/api/recurring-plans/{}", id(&failing));
    let parked = o.app.get(&failing_path, &o.owner).await.body;
    let reason = "Anchal SCB is marked lost: it is not billed. Mark the client active, or end the plan.";
    assert_eq!(
        (
            parked["parked_reason"].as_str(),
            parked["next_run"].as_str(),
            parked["parked_at"].is_string()
        ),
        (Some(reason), Some("2026-10-15"), true)
    );
    assert_eq!(
        audit_actions(&o.app, &id(&failing)),
        ["created", "generate_failed"]
    );
    let after_image: String = o
        .app
        .sql()
        .query_row(
            "SELECT after FROM audit WHERE entity = 'recurring_plan' AND action = 'generate_failed'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&after_image).unwrap()["parked_reason"],
        reason
    );
    let parked_list = o.app.get("/api/recurring-plans?parked=1", &o.owner).await;
    assert_eq!(ids_of(&parked_list.body), vec![id(&failing)]);
    let csv = o.app.get("/api/recurring-plans.csv?parked=1", &o.owner).await;
    assert_eq!(
        csv.text,
        format!(
            "Client,Interval,Next run,Active,Lines,Last invoice,Parked at,Parked reason\r\n\
             Anchal SCB,quarterly,2026-10-15,yes,1,,{},\"{reason}\"\r\n",
            parked["parked_at"].as_str().unwrap()
        )
    );
    // The same day again: nothing more is issued, the parked plan is passed over.
    assert_eq!(
        generate(&o.app, as_of).await,
        json!({ "as_of": "2026-12-05", "generated": 0, "parked": 0, "skipped": 1, "carried_over": 0 })
    );

    // A retry that fails again keeps the park (with its reason) and writes nothing else.
    let series = o.app.count("SELECT COUNT(*) FROM document");
    let retry = o
        .app
        .post(&format!("{failing_path}/retry"), &o.owner, json!({}))
        .await;
    assert_eq!(
        (
            retry.status,
            retry.code(),
            retry.body["error"]["message"].as_str()
        ),
        (
            StatusCode::CONFLICT,
            "generate_failed",
            Some(format!("The invoice could not be issued, so the plan is parked again: {reason}").as_str())
        )
    );
    assert_eq!(o.app.count("SELECT COUNT(*) FROM document"), series);
    assert_eq!(
        audit_actions(&o.app, &id(&failing)),
        ["created", "generate_failed", "generate_failed"]
    );
    assert_eq!(
        o.app.get(&failing_path, &o.owner).await.body["parked_reason"],
        reason
    );

    // With the client active again and the plan set to run today, the retry issues its invoice.
    let today = today(&o.app);
    o.app
        .patch(
            &format!("/api/clients/{}", o.anchal),
            &o.owner,
            json!({ "status": "active" }),
        )
        .await;
    let moved = o
        .app
        .patch(&failing_path, &o.owner, json!({ "next_run": today.to_string() }))
        .await;
    assert_eq!(
        (moved.status, moved.body["parked_reason"].as_str()),
        (StatusCode::OK, Some(reason)),
        "an edit keeps the park"
    );
    let retried = o
        .app
        .post(&format!("{failing_path}/retry"), &o.owner, json!({}))
        .await;
    assert_eq!(retried.status, StatusCode::OK, "{}", retried.text);
    let fy = Fy::of(today).short();
    let number = if fy == "26-27" {
        "INV/26-27-0003".to_string()
    } else {
        format!("INV/{fy}-0001")
    };
    let next = backoffice::recurring::rules::advance(today, "quarterly", None).unwrap();
    assert_eq!(
        (
            &retried.body["parked_reason"],
            &retried.body["parked_at"],
            retried.body["last_docNo"].as_str(),
            retried.body["next_run"].as_str(),
        ),
        (
            &Value::Null,
            &Value::Null,
            Some(number.as_str()),
            Some(next.to_string().as_str())
        )
    );
    let issued = o
        .app
        .get(
            &format!(
                "/api/documents/{}",
                retried.body["last_invoice_id"].as_str().unwrap()
            ),
            &o.owner,
        )
        .await
        .body;
    assert_eq!(
        (issued["doc_date"].as_str(), issued["client_id"].as_str()),
        (Some(today.to_string().as_str()), Some(o.anchal.as_str()))
    );
    assert_eq!(
        audit_actions(&o.app, &id(&failing)),
        [
            "created",
            "generate_failed",
            "generate_failed",
            "updated",
            "retried",
            "generated"
        ]
    );
    let not_parked = o
        .app
        .post(&format!("{failing_path}/retry"), &o.owner, json!({}))
        .await;
    assert_eq!(
        (not_parked.status, not_parked.code()),
        (StatusCode::CONFLICT, "not_parked")
    );
}

#[tokio::test]
async fn a_plan_far_behind_issues_at_most_twelve_periods_a_run_and_the_job_is_registered() {
    let o = office().await;
    let behind = plan(&o, &o.chavara, "monthly", "2025-01-31").await;
    let outcome = generate(&o.app, day("2026-03-10")).await;
    assert_eq!(
        outcome,
        json!({ "as_of": "2026-03-10", "generated": 12, "parked": 0, "skipped": 0, "carried_over": 1 })
    );
    let path = format!("/api/recurring-plans/{}", id(&behind));
    assert_eq!(o.app.get(&path, &o.owner).await.body["next_run"], "2026-01-31");
    // The next run carries on: January and February 2026, and the plan is up to date.
    let job = backoffice::jobs::JOBS
        .iter()
        .find(|j| j.name == "recurring_generation")
        .expect("the generation is a scheduled job");
    let state = o.app.state.clone();
    let counts =
        tokio::task::spawn_blocking(move || backoffice::jobs::run_job(&state, job, day("2026-03-11")))
            .await
            .unwrap()
            .unwrap();
    assert_eq!(
        counts,
        json!({ "as_of": "2026-03-11", "generated": 2, "parked": 0, "skipped": 0, "carried_over": 0 })
    );
    let after = o.app.get(&path, &o.owner).await.body;
    assert_eq!(
        (after["next_run"].as_str(), after["last_docNo"].as_str()),
        (Some("2026-03-31"), Some("INV/25-26-0014"))
    );
    // A plan switched off is not generated.
    o.app
        .patch(
            &path,
            &o.owner,
            json!({ "active": false, "next_run": "2026-03-01" }),
        )
        .await;
    assert_eq!(generate(&o.app, day("2026-03-12")).await["generated"], 0);
    assert_eq!(
        o.app.get("/api/recurring-plans?active=0", &o.owner).await.body["total"],
        1
    );
}

/// The fields a 422 names, in order.
fn named_fields(reply: &crate::common::Reply) -> Vec<String> {
    reply.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_string())
        .collect()
}

/// `base` with the keys of `change` set (a key set to null is left out).
fn merged(base: &Value, change: &Value) -> Value {
    let mut body = base.clone();
    for (key, value) in change.as_object().unwrap() {
        if value.is_null() {
            body.as_object_mut().unwrap().remove(key);
        } else {
            body[key] = value.clone();
        }
    }
    body
}

#[tokio::test]
async fn every_bad_body_on_the_new_routes_is_refused_with_the_error_body_and_writes_nothing() {
    let o = office().await;
    let c = o
        .app
        .post("/api/service-contracts", &o.owner, amc(&o.chavara))
        .await
        .body;
    let p = plan(&o, &o.chavara, "monthly", "2026-12-01").await;
    let lost = json!({ "name": "Kollam Lost SCB", "state_code": "32", "status": "lost" });
    let lost_client = id(&o.app.post("/api/clients", &o.owner, lost).await.body);
    let (contracts, plans) = ("/api/service-contracts", "/api/recurring-plans");
    let contract_path = format!("{contracts}/{}", id(&c));
    let plan_path = format!("{plans}/{}", id(&p));
    let good_plan = json!({ "client_id": o.chavara, "interval": "monthly", "next_run": "2026-12-01",
                            "lines": [ { "description": "Cloud hosting", "qty": 1, "unit_price": 500_000 } ] });
    let line = |l: Value| json!({ "lines": [l] });
    let (manager, owner, anna) = (o.manager.as_str(), o.owner.as_str(), o.anna.as_str());

    // 422s: (route, what the body changes, code, field). A POST takes the change on a good body,
    // a PATCH sends the change alone.
    let invalid = [
        (
            "contract",
            json!({ "client_id": "01NOSUCHCLIENT" }),
            "unknown_client",
            "client_id",
        ),
        (
            "contract",
            json!({ "description": "  " }),
            "invalid_description",
            "description",
        ),
        (
            "contract",
            json!({ "description": "x".repeat(201) }),
            "invalid_description",
            "description",
        ),
        (
            "contract",
            json!({ "period_from": "01-04-2026" }),
            "invalid_date",
            "period_from",
        ),
        (
            "contract",
            json!({ "period_to": "2026-03-31" }),
            "period_backwards",
            "period_to",
        ),
        ("contract", json!({ "amount": -1 }), "invalid_amount", "amount"),
        (
            "contract",
            json!({ "amount": 100_000_000_001i64 }),
            "invalid_amount",
            "amount",
        ),
        ("contract", json!({ "amount": 12.5 }), "invalid_value", "amount"),
        ("contract", json!({ "amount": "2500" }), "invalid_value", "amount"),
        (
            "contract",
            json!({ "renewal_invoice_id": "x" }),
            "invalid_value",
            "renewal_invoice_id",
        ),
        (
            "contract patch",
            json!({ "period_to": "2026-01-01" }),
            "period_backwards",
            "period_to",
        ),
        (
            "contract patch",
            json!({ "description": "" }),
            "invalid_description",
            "description",
        ),
        (
            "contract patch",
            json!({ "client_id": "nope" }),
            "unknown_client",
            "client_id",
        ),
        (
            "contract patch",
            json!({ "period_from": "2026-13-01" }),
            "invalid_date",
            "period_from",
        ),
        (
            "contract patch",
            json!({ "paid_state": "paid" }),
            "invalid_value",
            "paid_state",
        ),
        (
            "plan",
            json!({ "client_id": lost_client }),
            "client_not_billed",
            "client_id",
        ),
        (
            "plan",
            json!({ "interval": "weekly" }),
            "invalid_choice",
            "interval",
        ),
        (
            "plan",
            json!({ "next_run": "2026-02-30" }),
            "invalid_date",
            "next_run",
        ),
        ("plan", json!({ "lines": [] }), "no_lines", "lines"),
        (
            "plan",
            line(json!({ "description": "H", "qty": 0, "unit_price": 1 })),
            "invalid_qty",
            "lines[0].qty",
        ),
        (
            "plan",
            line(json!({ "description": "H", "qty": 1 })),
            "price_required",
            "lines[0].unit_price",
        ),
        (
            "plan",
            line(json!({ "module_id": "01NOSUCHMODULE", "qty": 1 })),
            "unknown_module",
            "lines[0].module_id",
        ),
        (
            "plan",
            line(json!({ "description": "H", "qty": 1, "unit_price": 1, "gst_rate": 40 })),
            "invalid_rate",
            "lines[0].gst_rate",
        ),
        (
            "plan",
            line(json!({ "description": "H", "qty": 1, "price": 100 })),
            "invalid_value",
            "lines[0].price",
        ),
        ("plan", json!({ "active": 2 }), "invalid_value", "active"),
        (
            "plan patch",
            json!({ "interval": "daily" }),
            "invalid_choice",
            "interval",
        ),
        (
            "plan patch",
            line(json!({ "qty": -1, "description": "x", "unit_price": 1 })),
            "invalid_qty",
            "lines[0].qty",
        ),
        (
            "plan patch",
            json!({ "parked_reason": null }),
            "invalid_value",
            "parked_reason",
        ),
    ];
    // Everything else: (method, path, who, body or None for JSON cut short, status, code).
    let (post, patch) = (Method::POST, Method::PATCH);
    let renew = format!("{contract_path}/renew");
    let retry = format!("{plan_path}/retry");
    let (no_contract, no_plan) = (
        format!("{contracts}/01NOSUCHCONTRACT0000000000"),
        format!("{plans}/01NOSUCHPLAN00000000000000"),
    );
    let refused = [
        (
            post.clone(),
            contracts,
            manager,
            Some(json!("a contract")),
            422,
            "invalid_value",
        ),
        (
            post.clone(),
            contracts,
            anna,
            Some(amc(&o.chavara)),
            403,
            "forbidden",
        ),
        (
            patch.clone(),
            &no_contract,
            manager,
            Some(json!({ "amount": 1 })),
            404,
            "not_found",
        ),
        (
            post.clone(),
            &format!("{no_contract}/renew"),
            manager,
            Some(json!({})),
            404,
            "not_found",
        ),
        (post.clone(), &renew, anna, Some(json!({})), 403, "forbidden"),
        (
            post.clone(),
            plans,
            manager,
            Some(good_plan.clone()),
            403,
            "forbidden",
        ),
        (
            patch.clone(),
            &plan_path,
            anna,
            Some(json!({ "active": 0 })),
            403,
            "forbidden",
        ),
        (
            patch.clone(),
            &no_plan,
            owner,
            Some(json!({ "active": 0 })),
            404,
            "not_found",
        ),
        (
            post.clone(),
            &format!("{no_plan}/retry"),
            owner,
            Some(json!({})),
            404,
            "not_found",
        ),
        (post.clone(), &retry, owner, Some(json!({})), 409, "not_parked"),
        (post.clone(), &retry, manager, Some(json!({})), 403, "forbidden"),
        (post.clone(), contracts, manager, None, 400, "malformed_json"),
        (
            patch.clone(),
            &contract_path,
            manager,
            None,
            400,
            "malformed_json",
        ),
        (post.clone(), plans, owner, None, 400, "malformed_json"),
        (patch.clone(), &plan_path, owner, None, 400, "malformed_json"),
    ];
    let mut cases = vec![];
    for (route, change, code, field) in invalid {
        let (method, path, who, body) = match route {
            "contract" => (
                post.clone(),
                contracts,
                manager,
                merged(&amc(&o.chavara), &change),
            ),
            "contract patch" => (patch.clone(), contract_path.as_str(), manager, change),
            "plan" => (post.clone(), plans, owner, merged(&good_plan, &change)),
            _ => (patch.clone(), plan_path.as_str(), owner, change),
        };
        cases.push((method, path, who, Some(body), 422, code, Some(field)));
    }
    for (method, path, who, body, status, code) in refused {
        cases.push((method, path, who, body, status, code, None));
    }

    let tables = [
        "service_contract",
        "recurring_plan",
        "audit",
        "document",
        "number_series",
    ];
    let counts = |app: &TestApp| -> Vec<i64> {
        tables
            .iter()
            .map(|t| app.count(&format!("SELECT COUNT(*) FROM {t}")))
            .collect()
    };
    let before = counts(&o.app);
    for (method, path, who, body, status, code, field) in cases {
        let what = format!("{method} {path} {body:?}");
        let call = Call::new(method, path).cookie(who);
        let call = match body {
            Some(body) => call.json(body),
            None => call.raw("{\"client_id\": ", Some("application/json")),
        };
        let r = o.app.send(call).await;
        assert_eq!(
            (r.status.as_u16(), r.code(), r.body["error"]["field"].as_str()),
            (status, code, field),
            "{what}: {}",
            r.text
        );
        assert!(
            r.body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{what}: a sentence for a person"
        );
    }
    // Without a JSON content type a write is 415 before anything else.
    for path in [contracts, plans] {
        let call = Call::new(Method::POST, path)
            .cookie(owner)
            .raw("{}", Some("text/plain"));
        assert_eq!(
            o.app.send(call).await.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{path}"
        );
    }
    // An empty body names every missing field at once.
    let empty = o.app.post(contracts, manager, json!({})).await;
    assert_eq!(
        named_fields(&empty),
        ["client_id", "description", "period_from", "period_to", "amount"]
    );
    let empty = o.app.post(plans, owner, json!({})).await;
    assert_eq!(
        named_fields(&empty),
        ["client_id", "interval", "next_run", "lines"]
    );
    assert_eq!(counts(&o.app), before, "nothing written");

    // The routes are in the OpenAPI document.
    let doc = o.app.send(Call::new(Method::GET, "/api/openapi.json")).await.body;
    for (path, method) in [
        ("/api/service-contracts", "get"),
        ("/api/service-contracts", "post"),
        ("/api/service-contracts.csv", "get"),
        ("/api/service-contracts/{id}", "get"),
        ("/api/service-contracts/{id}", "patch"),
        ("/api/service-contracts/{id}/renew", "post"),
        ("/api/recurring-plans", "get"),
        ("/api/recurring-plans", "post"),
        ("/api/recurring-plans.csv", "get"),
        ("/api/recurring-plans/{id}", "get"),
        ("/api/recurring-plans/{id}", "patch"),
        ("/api/recurring-plans/{id}/retry", "post"),
    ] {
        assert!(doc["paths"][path][method].is_object(), "{method} {path}");
    }
}
