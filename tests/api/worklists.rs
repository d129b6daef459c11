//! The day's worklists (issue 19): the pipeline's stages, ages and follow-up bands, the
//! renewals ahead priced by the price book on their day, and support tickets with SLA aging,
//! their filters, timeline and bill; each list within the staff book, and every bad input
//! refused with a clear 4xx and nothing written.

use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode};
use backoffice::plumbing::db::settings::office_today;
use chrono::{Duration, NaiveDate};
use serde_json::{Value, json};

struct Office {
    app: TestApp,
    owner: String,
    anna: String,
    anna_id: String,
    /// Anna's clients.
    chavara: String,
    kallai: String,
    /// The owner's.
    anchal: String,
}

async fn office() -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let (anna_id, pw) = app.invite(&owner, "anna@coop.in", "staff").await;
    let anna = app.login("anna@coop.in", &pw).await;
    let mut ids = vec![];
    for body in [
        json!({ "name": "Chavara SCB", "state_code": "32", "owner_id": anna_id }),
        json!({ "name": "Kallai PACS", "state_code": "32", "owner_id": anna_id }),
        json!({ "name": "Anchal SCB", "state_code": "32" }),
    ] {
        let client = app.post("/api/clients", &owner, body).await;
        assert_eq!(client.status, StatusCode::CREATED, "{}", client.text);
        ids.push(id(&client.body));
    }
    Office {
        app,
        owner,
        anna,
        anna_id,
        chavara: ids[0].clone(),
        kallai: ids[1].clone(),
        anchal: ids[2].clone(),
    }
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

fn today(app: &TestApp) -> NaiveDate {
    app.state.db.read_blocking(office_today).unwrap()
}

fn days(app: &TestApp, n: i64) -> String {
    (today(app) + Duration::days(n)).to_string()
}

async fn ok(app: &TestApp, path: &str, cookie: &str) -> Value {
    let reply = app.get(path, cookie).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
    reply.body
}

/// An issued quotation of one ₹10,000 line for `client`; answers its id.
async fn quotation(o: &Office, client: &str) -> String {
    let draft = o
        .app
        .post(
            "/api/documents",
            &o.owner,
            json!({ "type": "QUOTATION", "client_id": client,
                    "lines": [ { "description": "Deposit module", "qty": 1, "unit_price": 1_000_000, "gst_rate": 18 } ] }),
        )
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let doc = id(&draft.body);
    let issued = o
        .app
        .post(&format!("/api/documents/{doc}/issue"), &o.owner, json!({}))
        .await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
    doc
}

async fn act(o: &Office, doc: &str, action: &str) {
    let reply = o
        .app
        .post(&format!("/api/documents/{doc}/{action}"), &o.owner, json!({}))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{action}: {}", reply.text);
}

/// Moves a quotation's first `sent` back `n` days (the office is UTC+05:30; noon UTC is the
/// same office day).
fn sent_days_ago(o: &Office, doc: &str, n: i64) {
    let at = format!("{}T06:30:00Z", days(&o.app, -n));
    o.app
        .sql()
        .execute(
            "UPDATE document_event SET at = ?1 WHERE document_id = ?2 AND kind = 'sent'",
            rusqlite::params![at, doc],
        )
        .unwrap();
}

/// (client name, docNo present, stage, age, band, next_action, next_on) of a row.
type PipelineCells = (String, bool, String, i64, String, String, Option<String>);

fn pipeline_rows(list: &Value) -> Vec<PipelineCells> {
    list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["client_name"].as_str().unwrap().to_string(),
                r["docNo"].is_string(),
                r["stage"].as_str().unwrap().to_string(),
                r["age"].as_i64().unwrap(),
                r["band"].as_str().unwrap().to_string(),
                r["next_action"].as_str().unwrap().to_string(),
                r["next_on"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn row(
    name: &str,
    quoted: bool,
    stage: &str,
    age: i64,
    band: &str,
    action: &str,
    next_on: Option<String>,
) -> PipelineCells {
    (
        name.into(),
        quoted,
        stage.into(),
        age,
        band.into(),
        action.into(),
        next_on,
    )
}

#[tokio::test]
async fn the_pipeline_derives_each_stage_age_and_band_within_the_book() {
    let o = office().await;
    // Chavara: a quotation sent 5 days ago (the default ladder is 3, 7, 14 days).
    let waiting = quotation(&o, &o.chavara).await;
    act(&o, &waiting, "mark-sent").await;
    sent_days_ago(&o, &waiting, 5);
    // Kallai: a quotation sent 20 days ago, then another issued and not sent.
    let stale = quotation(&o, &o.kallai).await;
    act(&o, &stale, "mark-sent").await;
    sent_days_ago(&o, &stale, 20);
    let unsent = quotation(&o, &o.kallai).await;
    // Anchal: a quotation lost, one accepted (neither open), and so not a bare lead either.
    let lost = quotation(&o, &o.anchal).await;
    act(&o, &lost, "mark-sent").await;
    act(&o, &lost, "lost").await;
    let won = quotation(&o, &o.anchal).await;
    act(&o, &won, "mark-sent").await;
    act(&o, &won, "accept").await;
    // A new lead and a society with nothing yet: Enquiry from their creation (today); a lost
    // enquiry; an inactive client and a client with an invoice only are no conversation.
    let mut made = vec![];
    for body in [
        json!({ "name": "Beypore Women's Society", "state_code": "32", "status": "lead" }),
        json!({ "name": "Feroke SCB", "state_code": "32" }),
        json!({ "name": "Mavoor Stores", "state_code": "32", "status": "lost" }),
        json!({ "name": "Olavanna SCB", "state_code": "32", "status": "inactive" }),
    ] {
        let c = o.app.post("/api/clients", &o.owner, body).await;
        assert_eq!(c.status, StatusCode::CREATED, "{}", c.text);
        made.push(id(&c.body));
    }
    let invoice = o
        .app
        .post(
            "/api/documents",
            &o.owner,
            json!({ "type": "INVOICE", "client_id": made[1], "lines": [ { "description": "Training", "qty": 1, "unit_price": 500_000 } ] }),
        )
        .await;
    assert_eq!(invoice.status, StatusCode::CREATED, "{}", invoice.text);
    // ...which makes Feroke no longer bare: it drops out.
    let plus = |n| Some(days(&o.app, n));
    let sent_on = |n: i64| today(&o.app) - Duration::days(n);
    let open = ok(&o.app, "/api/pipeline", &o.owner).await;
    assert_eq!(open["total"], 4, "{open}");
    assert_eq!(
        pipeline_rows(&open),
        [
            row(
                "Kallai PACS",
                true,
                "Quoted/Waiting",
                20,
                "red",
                "Chase for a decision or mark it lost (day 14 passed)",
                None
            ),
            row(
                "Chavara SCB",
                true,
                "Quoted/Waiting",
                5,
                "amber",
                "Follow up (day 3 passed)",
                Some((sent_on(5) + Duration::days(7)).to_string())
            ),
            // The unsent one: from its issue date, today.
            row(
                "Kallai PACS",
                true,
                "Quoted/Waiting",
                0,
                "green",
                "Send the quotation",
                plus(3)
            ),
            row(
                "Beypore Women's Society",
                false,
                "Enquiry",
                0,
                "green",
                "Send a quotation",
                plus(3)
            ),
        ]
    );
    assert_eq!(open["rows"][2]["document_id"].as_str(), Some(unsent.as_str()));
    assert_eq!(open["rows"][0]["total"], 1_180_000);
    assert_eq!(open["rows"][3]["docNo"], Value::Null);
    let lost_list = ok(&o.app, "/api/pipeline?filter=lost", &o.owner).await;
    assert_eq!(
        pipeline_rows(&lost_list)
            .into_iter()
            .map(|r| (r.0, r.2, r.4))
            .collect::<Vec<_>>(),
        [
            (
                "Mavoor Stores".to_string(),
                "Lost".to_string(),
                "grey".to_string()
            ),
            ("Anchal SCB".into(), "Lost".into(), "grey".into()),
        ]
    );
    assert_eq!(ok(&o.app, "/api/pipeline?filter=all", &o.owner).await["total"], 6);

    // The follow-up reminder the scan raised shows on its row.
    let scan = o.app.post("/api/jobs/daily-scan", &o.owner, json!({})).await;
    assert_eq!(scan.status, StatusCode::OK, "{}", scan.text);
    let open = ok(&o.app, "/api/pipeline?q=chavara", &o.owner).await;
    assert_eq!(open["total"], 1);
    assert!(open["rows"][0]["reminder_id"].is_string(), "{open}");
    assert_eq!(
        open["rows"][0]["reminder_due_on"].as_str(),
        Some(sent_on(5).to_string().as_str())
    );

    // Search by number, the owner filter, sorting, and the staff book.
    let doc_no = open["rows"][0]["docNo"].as_str().unwrap().to_string();
    let by_no = ok(&o.app, &format!("/api/pipeline?q={doc_no}"), &o.owner).await;
    assert_eq!(by_no["rows"][0]["client_name"], "Chavara SCB");
    let annas = ok(&o.app, &format!("/api/pipeline?owner_id={}", o.anna_id), &o.owner).await;
    assert_eq!(annas["total"], 3);
    let by_age = ok(&o.app, "/api/pipeline?sort=age", &o.owner).await;
    assert_eq!(
        pipeline_rows(&by_age).iter().map(|r| r.3).collect::<Vec<_>>(),
        [0, 0, 5, 20]
    );
    let staff = ok(&o.app, "/api/pipeline?filter=all", &o.anna).await;
    assert_eq!(
        pipeline_rows(&staff).into_iter().map(|r| r.0).collect::<Vec<_>>(),
        ["Kallai PACS", "Chavara SCB", "Kallai PACS"]
    );
    // Widening by staff is ignored.
    let widened = ok(&o.app, "/api/pipeline?owner_id=", &o.anna).await;
    assert_eq!(widened["total"], 3);

    // The CSV twin: every row, in the list's order.
    let csv = o.app.get("/api/pipeline.csv?sort=age", &o.anna).await;
    assert_eq!(csv.status, StatusCode::OK);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(
        lines[0],
        "Client,Owner,Quotation,Total,Stage,Age (days),Band,Next action,Next on"
    );
    assert_eq!(lines.len(), 4);
    assert!(lines[3].starts_with("Kallai PACS,anna@coop.in,"), "{}", lines[3]);
    assert!(
        lines[3].contains(",11800.00,Quoted/Waiting,20,red,"),
        "{}",
        lines[3]
    );

    for (query, code) in [("filter=won", "invalid_filter"), ("sort=price", "invalid_sort")] {
        let refused = o.app.get(&format!("/api/pipeline?{query}"), &o.owner).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::BAD_REQUEST, code),
            "{query}"
        );
    }
}

/// A module priced ₹10,000 from 2020 and ₹12,000 from `rise`; its id.
async fn module_with_rise(o: &Office, rise: &str) -> String {
    let module = o.app.priced_module(&o.owner, 1_000_000).await;
    let priced = o
        .app
        .post(
            &format!("/api/modules/{module}/prices"),
            &o.owner,
            json!({ "effective_from": rise, "price": 1_200_000 }),
        )
        .await;
    assert_eq!(priced.status, StatusCode::CREATED, "{}", priced.text);
    module
}

async fn subscribe(
    o: &Office,
    client: &str,
    module: &str,
    next_renewal: &str,
    edition: Option<&str>,
) -> String {
    let sub = o
        .app
        .post(
            "/api/client-modules",
            &o.owner,
            json!({ "client_id": client, "module_id": module, "next_renewal": next_renewal, "edition": edition }),
        )
        .await;
    assert_eq!(sub.status, StatusCode::CREATED, "{}", sub.text);
    id(&sub.body)
}

#[tokio::test]
async fn renewals_are_earliest_first_priced_on_their_day_and_totalled() {
    let o = office().await;
    let module = module_with_rise(&o, &days(&o.app, 20)).await;
    // Before the price rise, after it, past, outside the range, and one inactive.
    let before = subscribe(&o, &o.chavara, &module, &days(&o.app, 10), Some("Enterprise")).await;
    let after = subscribe(&o, &o.anchal, &module, &days(&o.app, 30), None).await;
    let past = subscribe(&o, &o.kallai, &module, &days(&o.app, -3), None).await;
    subscribe(&o, &o.anchal, &module, &days(&o.app, 61), None).await;
    let dropped = subscribe(&o, &o.kallai, &module, &days(&o.app, 15), None).await;
    let off = o
        .app
        .patch(
            &format!("/api/client-modules/{dropped}"),
            &o.owner,
            json!({ "active": 0 }),
        )
        .await;
    assert_eq!(off.status, StatusCode::OK, "{}", off.text);
    // Anna's contract ends in 5 days: ₹25,000 fixed.
    let contract = o
        .app
        .post(
            "/api/service-contracts",
            &o.owner,
            json!({ "client_id": o.kallai, "description": "Core banking AMC", "period_from": days(&o.app, -360),
                    "period_to": days(&o.app, 5), "amount": 2_500_000 }),
        )
        .await;
    assert_eq!(contract.status, StatusCode::CREATED, "{}", contract.text);
    let contract = id(&contract.body);

    let shape = |list: &Value| -> Vec<(String, String, String, Option<i64>, i64)> {
        list["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["id"].as_str().unwrap().to_string(),
                    r["kind"].as_str().unwrap().to_string(),
                    r["what"].as_str().unwrap().to_string(),
                    r["amount"].as_i64(),
                    r["days_until"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    let list = ok(&o.app, "/api/renewals", &o.owner).await;
    assert_eq!(
        shape(&list),
        [
            (
                contract.clone(),
                "contract".into(),
                "Core banking AMC".into(),
                Some(2_500_000),
                5
            ),
            (
                before.clone(),
                "module".into(),
                "Deposit module (Enterprise)".into(),
                Some(1_000_000),
                10
            ),
            (
                after.clone(),
                "module".into(),
                "Deposit module".into(),
                Some(1_200_000),
                30
            ),
        ]
    );
    assert_eq!(
        (list["total"].as_i64(), list["total_amount"].as_i64()),
        (Some(3), Some(4_700_000))
    );
    assert_eq!(
        (list["from"].as_str(), list["to"].as_str()),
        (Some(days(&o.app, 0).as_str()), Some(days(&o.app, 60).as_str()))
    );
    // A range reaching back: the past renewal, days_until negative; the page and its total.
    let back = ok(
        &o.app,
        &format!(
            "/api/renewals?from={}&to={}&per_page=2",
            days(&o.app, -7),
            days(&o.app, 12)
        ),
        &o.owner,
    )
    .await;
    assert_eq!(
        shape(&back).into_iter().map(|r| (r.0, r.4)).collect::<Vec<_>>(),
        [(past.clone(), -3), (contract.clone(), 5)]
    );
    assert_eq!(
        (back["total"].as_i64(), back["total_amount"].as_i64()),
        (Some(3), Some(4_500_000))
    );
    // Staff: their clients only; kind and search filters; sorting.
    let annas = ok(
        &o.app,
        &format!("/api/renewals?from={}", days(&o.app, -7)),
        &o.anna,
    )
    .await;
    assert_eq!(
        shape(&annas).into_iter().map(|r| r.0).collect::<Vec<_>>(),
        [past.clone(), contract.clone(), before.clone()]
    );
    let modules = ok(&o.app, "/api/renewals?kind=module&q=anchal", &o.owner).await;
    assert_eq!(
        shape(&modules).into_iter().map(|r| r.0).collect::<Vec<_>>(),
        [after.as_str()]
    );
    let by_amount = ok(&o.app, "/api/renewals?sort=-amount", &o.owner).await;
    assert_eq!(
        shape(&by_amount).into_iter().map(|r| r.3).collect::<Vec<_>>(),
        [Some(2_500_000), Some(1_200_000), Some(1_000_000)]
    );
    let csv = o.app.get("/api/renewals.csv?kind=contract", &o.owner).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert_eq!(
        csv.text.lines().collect::<Vec<_>>(),
        [
            "Due on,Days until,Kind,Client,What,Amount,Renewal invoice",
            &format!(
                "{},5,contract,Kallai PACS,Core banking AMC,25000.00,",
                days(&o.app, 5)
            ),
        ]
    );
    // One click: the module's renewal quote, at the price on today's book.
    let quote = o
        .app
        .post(
            &format!("/api/client-modules/{before}/renewal-quote"),
            &o.anna,
            json!({}),
        )
        .await;
    assert_eq!(quote.status, StatusCode::OK, "{}", quote.text);
    assert_eq!(quote.body["type"], "PROFORMA");

    for (query, code) in [
        (
            format!("from={}&to={}", days(&o.app, 5), days(&o.app, 1)),
            "invalid_range",
        ),
        ("from=2026-13-01".to_string(), "invalid_query"),
        ("kind=plan".to_string(), "invalid_choice"),
        ("sort=price".to_string(), "invalid_sort"),
    ] {
        let refused = o.app.get(&format!("/api/renewals?{query}"), &o.owner).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::BAD_REQUEST, code),
            "{query}: {}",
            refused.text
        );
    }
}

/// A renewals row's `renewal_document` as (id, docNo, status), or None.
type RenewalDocument = Option<(String, Option<String>, String)>;

/// Each renewals row's id with its `renewal_document`.
fn renewal_documents(list: &Value) -> Vec<(String, RenewalDocument)> {
    list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let d = &r["renewal_document"];
            (
                r["id"].as_str().unwrap().to_string(),
                (!d.is_null()).then(|| {
                    (
                        d["id"].as_str().unwrap().to_string(),
                        d["docNo"].as_str().map(str::to_string),
                        d["status"].as_str().unwrap().to_string(),
                    )
                }),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_renewal_row_names_its_live_renewal_proforma_until_it_is_cancelled_or_converted() {
    let o = &office().await;
    let module = o.app.priced_module(&o.owner, 1_000_000).await;
    let chavara = subscribe(o, &o.chavara, &module, &days(&o.app, 10), None).await;
    let anchal = subscribe(o, &o.anchal, &module, &days(&o.app, 20), None).await;
    let list = || async move { ok(&o.app, "/api/renewals?kind=module", &o.owner).await };
    assert_eq!(
        renewal_documents(&list().await),
        [(chavara.clone(), None), (anchal.clone(), None)]
    );
    let renewal = |sub: String| async move {
        let made = o
            .app
            .post(
                &format!("/api/client-modules/{sub}/renewal-quote"),
                &o.owner,
                json!({}),
            )
            .await;
        assert_eq!(made.status, StatusCode::OK, "{}", made.text);
        assert_eq!(
            (made.body["type"].as_str(), made.body["source"].as_str()),
            (Some("PROFORMA"), Some("module_renewal"))
        );
        id(&made.body)
    };
    let issue = |doc: String| async move {
        let issued = o
            .app
            .post(&format!("/api/documents/{doc}/issue"), &o.owner, json!({}))
            .await;
        assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
        issued.body["docNo"].as_str().unwrap().to_string()
    };

    // A draft made by the renewal route names itself on its subscription's row only.
    let draft = renewal(chavara.clone()).await;
    assert_eq!(
        renewal_documents(&list().await),
        [
            (chavara.clone(), Some((draft.clone(), None, "draft".into()))),
            (anchal.clone(), None)
        ]
    );
    // Issued, with its number; a proforma the office made by hand for the same module is not one.
    let no = issue(draft.clone()).await;
    assert!(no.starts_with("PI/") && no.ends_with("-0001"), "{no}");
    let by_hand = o
        .app
        .post(
            "/api/documents",
            &o.owner,
            json!({ "type": "PROFORMA", "client_id": o.anchal,
                    "lines": [ { "module_id": module, "description": "Deposit module", "qty": 1, "unit_price": 1_000_000 } ] }),
        )
        .await;
    assert_eq!(by_hand.status, StatusCode::CREATED, "{}", by_hand.text);
    assert_eq!(
        renewal_documents(&list().await),
        [
            (
                chavara.clone(),
                Some((draft.clone(), Some(no.clone()), "issued".into()))
            ),
            (anchal.clone(), None)
        ]
    );
    // Converted to an invoice, it is no longer live.
    let converted = o
        .app
        .post(
            &format!("/api/documents/{draft}/convert"),
            &o.owner,
            json!({ "to": "INVOICE" }),
        )
        .await;
    assert!(converted.status.is_success(), "{}", converted.text);
    // Cancelled, neither.
    let second = renewal(anchal.clone()).await;
    issue(second.clone()).await;
    let cancelled = o
        .app
        .post(
            &format!("/api/documents/{second}/cancel"),
            &o.owner,
            json!({ "reason": "Wrong edition" }),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(
        renewal_documents(&list().await),
        [(chavara.clone(), None), (anchal.clone(), None)]
    );
    // A contract's row never carries one (its renewal invoice is document_id / docNo).
    let contract = o
        .app
        .post(
            "/api/service-contracts",
            &o.owner,
            json!({ "client_id": o.kallai, "description": "Core banking AMC", "period_from": days(&o.app, -360),
                    "period_to": days(&o.app, 5), "amount": 2_500_000 }),
        )
        .await;
    assert_eq!(contract.status, StatusCode::CREATED, "{}", contract.text);
    let contracts = ok(&o.app, "/api/renewals?kind=contract", &o.owner).await;
    assert_eq!(renewal_documents(&contracts), [(id(&contract.body), None)]);
}

async fn open_ticket(o: &Office, cookie: &str, body: Value) -> Value {
    let reply = o.app.post("/api/tickets", cookie, body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body
}

async fn patch_ticket(o: &Office, ticket: &Value, body: Value) -> Value {
    let reply = o
        .app
        .patch(&format!("/api/tickets/{}", id(ticket)), &o.owner, body)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

#[tokio::test]
async fn a_ticket_ages_in_office_days_against_the_sla_setting_and_keeps_its_timeline() {
    let o = office().await;
    let t = open_ticket(
        &o,
        &o.anna,
        json!({ "client_id": o.chavara, "subject": "Day-end not closing", "kind": "Day-end" }),
    )
    .await;
    let today = days(&o.app, 0);
    assert_eq!(
        (
            t["client_name"].as_str(),
            t["type"].as_str(),
            t["status"].as_str(),
            t["opened_on"].as_str(),
            t["assignee_id"].as_str(),
            t["age"].as_i64(),
            t["overdue"].as_i64(),
            &t["resolved_on"],
        ),
        (
            Some("Chavara SCB"),
            Some("service"),
            Some("open"),
            Some(today.as_str()),
            Some(o.anna_id.as_str()),
            Some(0),
            Some(0),
            &Value::Null
        )
    );
    let kinds = |t: &Value| -> Vec<String> {
        t["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["kind"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(kinds(&t), ["opened"]);

    // Logged late: opened 8 days ago, past the 7-day SLA.
    let late = patch_ticket(&o, &t, json!({ "opened_on": days(&o.app, -8) })).await;
    assert_eq!(
        (late["age"].as_i64(), late["overdue"].as_i64()),
        (Some(8), Some(1))
    );
    // The SLA moves with the setting: 10 days, and it is within it.
    let set = o
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/operations")
                .cookie(&o.owner)
                .json(json!({ "ticket.sla_days": 10 })),
        )
        .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text);
    let shown = ok(&o.app, &format!("/api/tickets/{}", id(&t)), &o.owner).await;
    assert_eq!(
        (shown["age"].as_i64(), shown["overdue"].as_i64()),
        (Some(8), Some(0))
    );
    let list = ok(&o.app, "/api/tickets?overdue=1", &o.owner).await;
    assert_eq!(
        (list["total"].as_i64(), list["sla_days"].as_i64()),
        (Some(0), Some(10))
    );

    // Moves: in progress, resolved (the day is set, the age stops), closed, reopened (cleared).
    let moved = patch_ticket(
        &o,
        &t,
        json!({ "status": "in_progress", "note": "Remote session booked" }),
    )
    .await;
    assert_eq!(moved["status"], "in_progress");
    let resolved = patch_ticket(&o, &t, json!({ "status": "resolved" })).await;
    assert_eq!(
        (
            resolved["resolved_on"].as_str(),
            resolved["age"].as_i64(),
            resolved["overdue"].as_i64()
        ),
        (Some(today.as_str()), Some(8), Some(0))
    );
    let closed = patch_ticket(&o, &t, json!({ "status": "closed" })).await;
    assert_eq!(closed["resolved_on"].as_str(), Some(today.as_str()));
    let reopened = patch_ticket(&o, &t, json!({ "status": "open", "assignee_id": o.anna_id })).await;
    assert_eq!(
        (&reopened["resolved_on"], reopened["age"].as_i64()),
        (&Value::Null, Some(8))
    );
    // A body that changes nothing writes nothing.
    let same = patch_ticket(
        &o,
        &t,
        json!({ "status": "open", "subject": "Day-end not closing" }),
    )
    .await;
    assert_eq!(
        kinds(&same),
        ["opened", "status", "note", "status", "status", "status"]
    );
    let moves: Vec<(String, String)> = same["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "status")
        .map(|e| {
            (
                e["from_status"].as_str().unwrap().to_string(),
                e["to_status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        moves,
        [
            ("open".to_string(), "in_progress".to_string()),
            ("in_progress".into(), "resolved".into()),
            ("resolved".into(), "closed".into()),
            ("closed".into(), "open".into()),
        ]
    );
    assert_eq!(same["events"][2]["note"], "Remote session booked");
    assert_eq!(same["events"][2]["user_name"], "Owner");
    // Reassigned to the owner: an `assigned` entry naming them.
    let owner_id = o.app.count("SELECT COUNT(*) FROM staff WHERE role = 'owner'");
    assert_eq!(owner_id, 1);
    let owner_staff: String = o
        .app
        .sql()
        .query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))
        .unwrap();
    let given = patch_ticket(&o, &t, json!({ "assignee_id": owner_staff })).await;
    let last = given["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["kind"].as_str(), last["assignee_id"].as_str()),
        (Some("assigned"), Some(owner_staff.as_str()))
    );
    assert_eq!(
        o.app.count("SELECT COUNT(*) FROM audit WHERE entity = 'ticket'"),
        0,
        "the timeline is a ticket's record"
    );
}

/// Six tickets over three clients, types and statuses; answers them by subject.
async fn six_tickets(o: &Office) -> Vec<Value> {
    let mut made = vec![];
    for (cookie, client, subject, ty, kind, opened, status) in [
        (
            &o.anna,
            &o.chavara,
            "Passbook printer jams",
            "service",
            "Printing",
            -2,
            "open",
        ),
        (
            &o.anna,
            &o.chavara,
            "Interest slab wrong",
            "bug",
            "Interest calculation",
            -12,
            "in_progress",
        ),
        (
            &o.anna,
            &o.kallai,
            "Train the new secretary",
            "training",
            "",
            -20,
            "waiting_on_client",
        ),
        (
            &o.owner,
            &o.anchal,
            "Printer driver after Windows update",
            "service",
            "Printing",
            -9,
            "open",
        ),
        (
            &o.owner,
            &o.anchal,
            "GST report totals differ",
            "bug",
            "GST return",
            -30,
            "resolved",
        ),
        (
            &o.owner,
            &o.chavara,
            "Backup restore drill",
            "service",
            "Backup",
            -40,
            "closed",
        ),
    ] {
        made.push(
            open_ticket(
                o,
                cookie,
                json!({ "client_id": client, "subject": subject, "type": ty, "kind": kind,
                        "opened_on": days(&o.app, opened), "status": status }),
            )
            .await,
        );
    }
    made
}

fn subjects(list: &Value) -> Vec<String> {
    list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["subject"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_ticket_list_filters_alone_and_combined_with_counts_and_the_staff_share() {
    let o = office().await;
    let made = six_tickets(&o).await;
    // The owner assigns one of Anchal's to Anna: it joins her share.
    patch_ticket(&o, &made[3], json!({ "assignee_id": o.anna_id })).await;

    let all_counts = json!({ "still_open": 4, "open": 2, "in_progress": 1, "waiting_on_client": 1,
                             "resolved": 1, "closed": 1, "all": 6 });
    let default = ok(&o.app, "/api/tickets", &o.owner).await;
    assert_eq!(
        subjects(&default),
        [
            "Train the new secretary",
            "Interest slab wrong",
            "Printer driver after Windows update",
            "Passbook printer jams"
        ],
        "still open, oldest first"
    );
    assert_eq!(default["counts"], all_counts);
    assert_eq!(
        default["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["age"].as_i64().unwrap(), r["overdue"].as_i64().unwrap()))
            .collect::<Vec<_>>(),
        // The ticket waiting on the client is not overdue: its SLA clock is paused.
        [(20, 0), (12, 1), (9, 1), (2, 0)]
    );
    assert_eq!(
        default["kind_suggestions"],
        json!(["Printing", "Backup", "GST return", "Interest calculation"])
    );
    let cases: Vec<(String, Vec<&str>, Value)> = vec![
        (
            "chip=all".into(),
            vec![
                "Passbook printer jams",
                "Printer driver after Windows update",
                "Interest slab wrong",
                "Train the new secretary",
                "GST report totals differ",
                "Backup restore drill",
            ],
            all_counts.clone(),
        ),
        (
            "chip=resolved".into(),
            vec!["GST report totals differ"],
            all_counts.clone(),
        ),
        (
            "chip=all&type=bug".into(),
            vec!["Interest slab wrong", "GST report totals differ"],
            json!({ "still_open": 1, "open": 0, "in_progress": 1, "waiting_on_client": 0, "resolved": 1, "closed": 0, "all": 2 }),
        ),
        (
            "chip=all&search=PRINT".into(),
            vec!["Passbook printer jams", "Printer driver after Windows update"],
            json!({ "still_open": 2, "open": 2, "in_progress": 0, "waiting_on_client": 0, "resolved": 0, "closed": 0, "all": 2 }),
        ),
        (
            // The client's name is searched too.
            "chip=all&search=kallai".into(),
            vec!["Train the new secretary"],
            json!({ "still_open": 1, "open": 0, "in_progress": 0, "waiting_on_client": 1, "resolved": 0, "closed": 0, "all": 1 }),
        ),
        (
            // Past the SLA: not the ticket waiting on the client, whose clock is paused.
            "overdue=1".into(),
            vec!["Interest slab wrong", "Printer driver after Windows update"],
            json!({ "still_open": 2, "open": 1, "in_progress": 1, "waiting_on_client": 0, "resolved": 0, "closed": 0, "all": 2 }),
        ),
        (
            format!("chip=all&client_id={}", o.chavara),
            vec![
                "Passbook printer jams",
                "Interest slab wrong",
                "Backup restore drill",
            ],
            json!({ "still_open": 2, "open": 1, "in_progress": 1, "waiting_on_client": 0, "resolved": 0, "closed": 1, "all": 3 }),
        ),
        (
            "overdue=1&type=service&search=printer".into(),
            vec!["Printer driver after Windows update"],
            json!({ "still_open": 1, "open": 1, "in_progress": 0, "waiting_on_client": 0, "resolved": 0, "closed": 0, "all": 1 }),
        ),
        (
            "type=".into(),
            vec![
                "Train the new secretary",
                "Interest slab wrong",
                "Printer driver after Windows update",
                "Passbook printer jams",
            ],
            all_counts.clone(),
        ),
        (
            "chip=all&sort=subject".into(),
            vec![
                "Backup restore drill",
                "GST report totals differ",
                "Interest slab wrong",
                "Passbook printer jams",
                "Printer driver after Windows update",
                "Train the new secretary",
            ],
            all_counts.clone(),
        ),
    ];
    for (query, want, counts) in &cases {
        let list = ok(&o.app, &format!("/api/tickets?{query}"), &o.owner).await;
        assert_eq!(subjects(&list), *want, "{query}");
        assert_eq!(list["total"].as_i64(), Some(want.len() as i64), "{query}");
        assert_eq!(&list["counts"], counts, "{query}");
    }
    // Mine: the owner's own (the two closed-out ones and the backup drill), and Anna's.
    let owners = ok(&o.app, "/api/tickets?chip=all&mine=1", &o.owner).await;
    assert_eq!(
        subjects(&owners),
        ["GST report totals differ", "Backup restore drill"]
    );
    let annas_mine = ok(&o.app, "/api/tickets?mine=1&type=service", &o.anna).await;
    assert_eq!(
        subjects(&annas_mine),
        ["Printer driver after Windows update", "Passbook printer jams"]
    );
    // Anna's share: her clients' tickets and the one assigned to her; not Anchal's other one.
    let share = ok(&o.app, "/api/tickets?chip=all", &o.anna).await;
    assert_eq!(
        subjects(&share),
        [
            "Passbook printer jams",
            "Printer driver after Windows update",
            "Interest slab wrong",
            "Train the new secretary",
            "Backup restore drill",
        ]
    );
    assert_eq!(share["counts"]["all"], 5);
    let hidden = o
        .app
        .get(&format!("/api/tickets/{}", id(&made[4])), &o.anna)
        .await;
    assert_eq!(hidden.status, StatusCode::NOT_FOUND);
    let csv = o.app.get("/api/tickets.csv?chip=resolved", &o.anna).await;
    assert_eq!(
        csv.text.lines().count(),
        1,
        "the CSV keeps the share: {}",
        csv.text
    );
    let csv = o
        .app
        .get("/api/tickets.csv?chip=all&sort=subject", &o.owner)
        .await;
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(
        lines[0],
        "Opened,Client,Subject,Type,Kind,Status,Assignee,Resolved,Age (days),Overdue"
    );
    assert_eq!(lines.len(), 7);
    assert_eq!(
        lines[3],
        format!(
            "{},Chavara SCB,Interest slab wrong,bug,Interest calculation,in_progress,anna@coop.in,,12,yes",
            days(&o.app, -12)
        )
    );

    let types = ok(&o.app, "/api/tickets/types", &o.anna).await;
    assert_eq!(
        types["rows"],
        json!([
            "service",
            "installation",
            "training",
            "bug",
            "data correction",
            "renewal"
        ])
    );
    for (query, code) in [("chip=pending", "invalid_chip"), ("sort=age", "invalid_sort")] {
        let refused = o.app.get(&format!("/api/tickets?{query}"), &o.owner).await;
        assert_eq!(
            (refused.status, refused.code()),
            (StatusCode::BAD_REQUEST, code),
            "{query}"
        );
    }
}

#[tokio::test]
async fn bad_tickets_are_refused_whole_and_write_nothing() {
    let o = office().await;
    let t = open_ticket(
        &o,
        &o.anna,
        json!({ "client_id": o.chavara, "subject": "Cashier locked out" }),
    )
    .await;
    let before = (
        o.app.count("SELECT COUNT(*) FROM ticket"),
        o.app.count("SELECT COUNT(*) FROM ticket_event"),
        o.app.count("SELECT COUNT(*) FROM document"),
        o.app.count("SELECT COUNT(*) FROM audit"),
    );
    let good = json!({ "client_id": o.chavara, "subject": "Cashier locked out" });
    let with = |patch: Value| {
        let mut body = good.clone();
        for (k, v) in patch.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let creates = [
        (
            with(json!({ "opened_on": days(&o.app, 1) })),
            "opened_on",
            "future_date",
        ),
        (
            with(json!({ "opened_on": "yesterday" })),
            "opened_on",
            "invalid_date",
        ),
        (with(json!({ "type": "hardware" })), "type", "unknown_type"),
        (with(json!({ "status": "pending" })), "status", "unknown_status"),
        (
            with(json!({ "assignee_id": "01NOBODY" })),
            "assignee_id",
            "unknown_assignee",
        ),
        (with(json!({ "subject": "  " })), "subject", "invalid_subject"),
        (json!({ "subject": "No client" }), "client_id", "required"),
        // Anchal is not in Anna's book.
        (
            with(json!({ "client_id": o.anchal })),
            "client_id",
            "unknown_client",
        ),
    ];
    for (body, field, code) in creates {
        let refused = o.app.post("/api/tickets", &o.anna, body.clone()).await;
        assert_eq!(
            (
                refused.status,
                refused.body["error"]["field"].as_str(),
                refused.code()
            ),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field), code),
            "{body}: {}",
            refused.text
        );
    }
    // Several faults are named at once.
    let many = o
        .app
        .post(
            "/api/tickets",
            &o.anna,
            with(json!({ "type": "hardware", "status": "pending", "opened_on": days(&o.app, 3) })),
        )
        .await;
    let fields: Vec<&str> = many.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["type", "status", "opened_on"]);
    let unknown_field = o
        .app
        .post("/api/tickets", &o.anna, with(json!({ "priority": "high" })))
        .await;
    assert_eq!(
        (unknown_field.status, unknown_field.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_value"),
        "{}",
        unknown_field.text
    );
    let path = format!("/api/tickets/{}", id(&t));
    for (body, field, code) in [
        (
            json!({ "opened_on": days(&o.app, 2) }),
            "opened_on",
            "future_date",
        ),
        (json!({ "status": "done" }), "status", "unknown_status"),
        (json!({ "type": "" }), "type", "unknown_type"),
    ] {
        let refused = o.app.patch(&path, &o.anna, body.clone()).await;
        assert_eq!(
            (
                refused.status,
                refused.body["error"]["field"].as_str(),
                refused.code()
            ),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field), code),
            "{body}"
        );
    }
    let wrong_type = o
        .app
        .send(
            Call::new(Method::POST, "/api/tickets")
                .cookie(&o.anna)
                .raw("{}", Some("text/plain")),
        )
        .await;
    assert_eq!(wrong_type.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        (
            o.app.count("SELECT COUNT(*) FROM ticket"),
            o.app.count("SELECT COUNT(*) FROM ticket_event"),
            o.app.count("SELECT COUNT(*) FROM document"),
            o.app.count("SELECT COUNT(*) FROM audit"),
        ),
        before,
        "nothing written"
    );
    let gone = o
        .app
        .get("/api/tickets/01ZZZZZZZZZZZZZZZZZZZZZZZZ", &o.anna)
        .await;
    assert_eq!((gone.status, gone.code()), (StatusCode::NOT_FOUND, "not_found"));
}

#[tokio::test]
async fn a_ticket_is_billed_once_into_a_draft_naming_it_and_never_outside_the_book() {
    let o = office().await;
    let t = open_ticket(
        &o,
        &o.anna,
        json!({ "client_id": o.chavara, "subject": "Data correction: member share capital",
                "type": "data correction", "opened_on": days(&o.app, -3) }),
    )
    .await;
    let bill = o
        .app
        .post(&format!("/api/tickets/{}/bill", id(&t)), &o.anna, json!({}))
        .await;
    assert_eq!(bill.status, StatusCode::OK, "{}", bill.text);
    let opened = (today(&o.app) - Duration::days(3)).format("%d-%m-%Y").to_string();
    assert_eq!(
        (
            bill.body["type"].as_str(),
            bill.body["status"].as_str(),
            bill.body["client_id"].as_str(),
            bill.body["notes"].as_str(),
            bill.body["lines"][0]["description"].as_str(),
            bill.body["total"].as_i64(),
        ),
        (
            Some("INVOICE"),
            Some("draft"),
            Some(o.chavara.as_str()),
            Some(format!("Support ticket of {opened}: Data correction: member share capital.").as_str()),
            Some(format!("Support: Data correction: member share capital (ticket of {opened})").as_str()),
            Some(0),
        )
    );
    let shown = ok(&o.app, &format!("/api/tickets/{}", id(&t)), &o.anna).await;
    let last = shown["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (
            last["kind"].as_str(),
            last["document_id"].as_str(),
            last["document_type"].as_str(),
            last["document_status"].as_str()
        ),
        (
            Some("billed"),
            bill.body["id"].as_str(),
            Some("INVOICE"),
            Some("draft")
        )
    );
    assert_eq!(
        shown["bill"],
        json!({ "id": bill.body["id"], "docNo": null, "type": "INVOICE" })
    );
    // Billed already: 409, nothing more written.
    let documents = o.app.count("SELECT COUNT(*) FROM document");
    let again = o
        .app
        .post(&format!("/api/tickets/{}/bill", id(&t)), &o.owner, json!({}))
        .await;
    assert_eq!(
        (again.status, again.code()),
        (StatusCode::CONFLICT, "already_billed")
    );
    assert_eq!(o.app.count("SELECT COUNT(*) FROM document"), documents);

    // A ticket of Anchal (not Anna's client) assigned to Anna: she sees and works it, but a
    // bill for a client outside her book is refused, and nothing is written.
    let theirs = open_ticket(
        &o,
        &o.owner,
        json!({ "client_id": o.anchal, "subject": "Branch VPN down", "assignee_id": o.anna_id }),
    )
    .await;
    let seen = o.app.get(&format!("/api/tickets/{}", id(&theirs)), &o.anna).await;
    assert_eq!(seen.status, StatusCode::OK);
    let events = o.app.count("SELECT COUNT(*) FROM ticket_event");
    let refused = o
        .app
        .post(&format!("/api/tickets/{}/bill", id(&theirs)), &o.anna, json!({}))
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text);
    assert_eq!(
        (
            o.app.count("SELECT COUNT(*) FROM document"),
            o.app.count("SELECT COUNT(*) FROM ticket_event")
        ),
        (documents, events)
    );
    // A ticket of another staff member's client, not assigned to Anna: not found at all.
    let hidden = open_ticket(
        &o,
        &o.owner,
        json!({ "client_id": o.anchal, "subject": "Audit export" }),
    )
    .await;
    let refused = o
        .app
        .post(&format!("/api/tickets/{}/bill", id(&hidden)), &o.anna, json!({}))
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    // A bad document type is a 422 naming it, nothing written.
    let bad = o
        .app
        .post(
            &format!("/api/tickets/{}/bill", id(&theirs)),
            &o.owner,
            json!({ "type": "RECEIPT" }),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert_eq!(o.app.count("SELECT COUNT(*) FROM document"), documents);
    // The owner bills it as a proforma.
    let proforma = o
        .app
        .post(
            &format!("/api/tickets/{}/bill", id(&theirs)),
            &o.owner,
            json!({ "type": "PROFORMA" }),
        )
        .await;
    assert_eq!(
        (
            proforma.status,
            proforma.body["type"].as_str(),
            proforma.body["client_id"].as_str()
        ),
        (StatusCode::OK, Some("PROFORMA"), Some(o.anchal.as_str()))
    );
}

/// A staff user's kind suggestions are tallied over their own share only: a kind typed only on
/// another book's ticket is not suggested to them, while owner and manager read the tally of
/// every ticket (issue 33).
#[tokio::test]
async fn kind_suggestions_stay_within_the_staff_share() {
    let o = office().await;
    // Anna's clients: "Printing" twice, "Backup" once; a ticket of the owner's client assigned
    // to Anna is in her share too. "Cheque clearing" is typed only on a ticket outside it.
    for (cookie, client, kind, assignee) in [
        (&o.anna, &o.chavara, "Printing", None),
        (&o.anna, &o.kallai, "Printing", None),
        (&o.anna, &o.kallai, "Backup", None),
        (&o.owner, &o.anchal, "Year-end closing", Some(o.anna_id.as_str())),
        (&o.owner, &o.anchal, "Cheque clearing", None),
        (&o.owner, &o.anchal, "Cheque clearing", None),
        (&o.owner, &o.anchal, "Cheque clearing", None),
    ] {
        let mut body = json!({ "client_id": client, "subject": format!("{kind} trouble"), "kind": kind });
        if let Some(assignee) = assignee {
            body["assignee_id"] = json!(assignee);
        }
        open_ticket(&o, cookie, body).await;
    }
    let (_, pw) = o.app.invite(&o.owner, "manager@coop.in", "manager").await;
    let manager = o.app.login("manager@coop.in", &pw).await;
    for (who, cookie, expected) in [
        (
            "owner",
            &o.owner,
            json!(["Cheque clearing", "Printing", "Backup", "Year-end closing"]),
        ),
        (
            "manager",
            &manager,
            json!(["Cheque clearing", "Printing", "Backup", "Year-end closing"]),
        ),
        ("anna", &o.anna, json!(["Printing", "Backup", "Year-end closing"])),
    ] {
        for query in ["", "?chip=all&search=zzz"] {
            let list = ok(&o.app, &format!("/api/tickets{query}"), cookie).await;
            assert_eq!(list["kind_suggestions"], expected, "{who} {query}");
        }
    }
}

#[tokio::test]
async fn the_sla_clock_pauses_while_a_ticket_waits_on_the_client() {
    let o = office().await;
    // Opened ten days ago against the default SLA of 7 days: overdue.
    let t = open_ticket(
        &o,
        &o.owner,
        json!({ "client_id": o.anchal, "subject": "Passbook printer offline", "opened_on": days(&o.app, -10) }),
    )
    .await;
    assert_eq!(
        (t["age"].as_i64(), t["sla_age"].as_i64(), t["overdue"].as_i64()),
        (Some(10), Some(10), Some(1))
    );
    async fn past_sla(o: &Office) -> (Option<i64>, Option<i64>) {
        let list = ok(&o.app, "/api/tickets?overdue=1", &o.owner).await;
        let tile = ok(&o.app, "/api/dashboard", &o.owner).await;
        (list["total"].as_i64(), tile["tickets"]["past_sla"].as_i64())
    }
    assert_eq!(past_sla(&o).await, (Some(1), Some(1)));

    // Waiting on the client: the clock stops, so it is not overdue while it waits.
    let waiting = patch_ticket(&o, &t, json!({ "status": "waiting_on_client" })).await;
    assert_eq!(
        (
            waiting["waiting_since"].as_str(),
            waiting["sla_age"].as_i64(),
            waiting["overdue"].as_i64()
        ),
        (Some(days(&o.app, 0).as_str()), Some(10), Some(0))
    );
    assert_eq!(past_sla(&o).await, (Some(0), Some(0)));

    // The client took six days to answer; when work resumes those days do not count.
    o.app
        .sql()
        .execute(
            "UPDATE ticket SET waiting_since = ?2 WHERE id = ?1",
            [id(&t), days(&o.app, -6)],
        )
        .unwrap();
    let resumed = patch_ticket(&o, &t, json!({ "status": "in_progress" })).await;
    assert_eq!(
        (
            resumed["age"].as_i64(),
            resumed["sla_age"].as_i64(),
            resumed["sla_from"].as_str(),
            resumed["waiting_since"].clone(),
            resumed["overdue"].as_i64()
        ),
        (
            Some(10),
            Some(4),
            Some(days(&o.app, -4).as_str()),
            Value::Null,
            Some(0)
        )
    );
    assert_eq!(past_sla(&o).await, (Some(0), Some(0)));

    // Backdating the ticket by five more days moves its clock as far: overdue again.
    let backdated = patch_ticket(&o, &t, json!({ "opened_on": days(&o.app, -15) })).await;
    assert_eq!(
        (backdated["sla_age"].as_i64(), backdated["overdue"].as_i64()),
        (Some(9), Some(1))
    );
    assert_eq!(past_sla(&o).await, (Some(1), Some(1)));
}
