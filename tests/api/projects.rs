//! The catalog, subscriptions and onboarding milestones.

use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode};
use chrono::{Duration, Utc};
use serde_json::{Value, json};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

fn day(offset: i64) -> String {
    // The office is at +05:30; a day's offset either side keeps these dates unambiguous.
    (Utc::now() + Duration::minutes(330) + Duration::days(offset))
        .date_naive()
        .to_string()
}

struct Setup {
    app: TestApp,
    owner: String,
    manager: String,
    staff: String,
    module: Value,
    client: Value,
}

async fn setup() -> Setup {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let (staff_id, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    let spec = json!([
        { "key": "members", "label": "Members", "type": "integer", "required": true },
        { "key": "go_live", "label": "Go-live date", "type": "date" },
        { "key": "plan", "label": "Plan", "type": "select", "options": ["Basic", "Pro"] }
    ]);
    let module = app.post("/api/modules", &owner, json!({ "code": "SMS", "name": "Bulk SMS", "sac": "998319", "gst_rate": 18, "renewal_months": 12, "field_spec": spec, "packs": [{ "name": "10k", "qty": 10000 }] })).await;
    assert_eq!(module.status, StatusCode::CREATED, "{}", module.text);
    let client = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Kadakkal Service Co-operative Bank", "owner_id": staff_id }),
        )
        .await;
    Setup {
        app,
        owner,
        manager,
        staff,
        module: module.body,
        client: client.body,
    }
}

async fn link(s: &Setup) -> Value {
    let reply = s.app.post("/api/client-modules", &s.owner, json!({ "client_id": id(&s.client), "module_id": id(&s.module), "field_values": { "members": 1200 } })).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body
}

#[tokio::test]
async fn modules_are_owner_written_with_checked_codes_and_field_specs() {
    let s = setup().await;
    assert_eq!(s.module["field_spec"][2]["options"], json!(["Basic", "Pro"]));
    assert_eq!(
        s.app
            .post(
                "/api/modules",
                &s.manager,
                json!({ "code": "LOAN", "name": "Loans" })
            )
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let dup = s
        .app
        .post(
            "/api/modules",
            &s.owner,
            json!({ "code": "SMS", "name": "Again" }),
        )
        .await;
    assert_eq!(
        (dup.status, dup.body["error"]["field"].as_str()),
        (StatusCode::CONFLICT, Some("code"))
    );
    for (body, field) in [
        (json!({ "code": "sms2", "name": "x" }), "code"),
        (json!({ "code": "X", "name": "x", "gst_rate": 30 }), "gst_rate"),
        (
            json!({ "code": "X", "name": "x", "field_spec": [{ "key": "a", "label": "A", "type": "money" }] }),
            "field_spec[0].type",
        ),
        (
            json!({ "code": "X", "name": "x", "packs": [{ "name": "p", "qty": 0 }] }),
            "packs",
        ),
    ] {
        assert_eq!(
            s.app.post("/api/modules", &s.owner, body.clone()).await.body["error"]["field"],
            field,
            "{body}"
        );
    }
    let path = format!("/api/modules/{}", id(&s.module));
    assert_eq!(
        s.app
            .patch(&path, &s.owner, json!({ "code": "TXT" }))
            .await
            .code(),
        "immutable"
    );
    assert_eq!(
        s.app
            .patch(&path, &s.owner, json!({ "name": "Bulk SMS Gateway" }))
            .await
            .body["name"],
        "Bulk SMS Gateway"
    );
    assert_eq!(
        s.app.get("/api/modules?q=gateway", &s.staff).await.body["total"],
        1
    );
}

#[tokio::test]
async fn the_price_book_is_dated_and_append_only() {
    let s = setup().await;
    let prices = format!("/api/modules/{}/prices", id(&s.module));
    for (from, price) in [(day(-400), 500_000), (day(0), 600_000), (day(1), 700_000)] {
        let reply = s
            .app
            .post(
                &prices,
                &s.owner,
                json!({ "effective_from": from, "price": price }),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    }
    assert_eq!(
        s.app
            .post(&prices, &s.staff, json!({ "effective_from": day(0), "price": 1 }))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        s.app
            .post(
                &prices,
                &s.owner,
                json!({ "effective_from": day(0), "price": -1 })
            )
            .await
            .body["error"]["field"],
        "price"
    );
    let book = s.app.get(&prices, &s.staff).await;
    let rows = book.body["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let in_force = rows.iter().find(|r| r["id"] == book.body["in_force_id"]).unwrap();
    assert_eq!(in_force["price"], 600_000, "today's row, not tomorrow's");
    assert_eq!(
        s.app
            .get(&format!("/api/modules/{}", id(&s.module)), &s.staff)
            .await
            .body["price_today"],
        600_000
    );
}

#[tokio::test]
async fn rate_cards_are_dated_sets_of_distinct_bands() {
    let s = setup().await;
    let card = format!("/api/modules/{}/rate-card", id(&s.module));
    let bands = json!([{ "min_qty": 50000, "rate": 15 }, { "min_qty": 10000, "rate": 20 }]);
    assert_eq!(
        s.app
            .post(
                &card,
                &s.manager,
                json!({ "effective_from": day(-1), "bands": bands })
            )
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let created = s
        .app
        .post(
            &card,
            &s.owner,
            json!({ "effective_from": day(-1), "bands": bands }),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    assert_eq!(created.body["bands"][0]["min_qty"], 10000, "sorted lowest first");
    let again = s
        .app
        .post(
            &card,
            &s.owner,
            json!({ "effective_from": day(-1), "bands": [{ "min_qty": 1, "rate": 1 }] }),
        )
        .await;
    assert_eq!(
        (again.status, again.code()),
        (StatusCode::CONFLICT, "card_exists")
    );
    for (bad, code) in [
        (json!([]), "invalid_bands"),
        (json!([{ "min_qty": 5, "rate": 0 }]), "invalid_rate"),
        (
            json!([{ "min_qty": 5, "rate": 1 }, { "min_qty": 5, "rate": 2 }]),
            "duplicate_min_qty",
        ),
    ] {
        assert_eq!(
            s.app
                .post(
                    &card,
                    &s.owner,
                    json!({ "effective_from": day(-2), "bands": bad })
                )
                .await
                .code(),
            code
        );
    }
    s.app
        .post(
            &card,
            &s.owner,
            json!({ "effective_from": day(5), "bands": [{ "min_qty": 1000, "rate": 25 }] }),
        )
        .await;
    let today = s.app.get(&card, &s.owner).await;
    assert_eq!(
        (
            today.body["effective_from"].as_str(),
            today.body["bands"].as_array().unwrap().len()
        ),
        (Some(day(-1).as_str()), 2)
    );
    let later = s.app.get(&format!("{card}?on={}", day(6)), &s.owner).await;
    assert_eq!(later.body["bands"], json!([{ "min_qty": 1000, "rate": 25 }]));
}

#[tokio::test]
async fn client_modules_check_fields_and_keep_credentials_secret() {
    let s = setup().await;
    let bad = s.app.post("/api/client-modules", &s.owner, json!({ "client_id": id(&s.client), "module_id": id(&s.module), "field_values": { "members": "many" } })).await;
    assert_eq!(
        (bad.status, bad.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("members"))
    );
    let cm = link(&s).await;
    let path = format!("/api/client-modules/{}", id(&cm));
    assert_eq!(
        (
            cm["module_code"].as_str(),
            cm["status"].as_str(),
            cm["field_values"]["members"].as_i64()
        ),
        (Some("SMS"), Some("new"), Some(1200))
    );
    for (values, field) in [
        (json!({ "members": 1, "colour": "red" }), "colour"),
        (json!({ "members": 1, "plan": "Gold" }), "plan"),
        (json!({ "go_live": "2026-12-01" }), "members"),
    ] {
        let reply = s
            .app
            .send(
                Call::new(Method::PUT, &format!("{path}/fields"))
                    .cookie(&s.staff)
                    .json(values),
            )
            .await;
        assert_eq!(
            (reply.status, reply.body["error"]["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(field))
        );
    }
    let ok = s
        .app
        .send(
            Call::new(Method::PUT, &format!("{path}/fields"))
                .cookie(&s.staff)
                .json(json!({ "members": 1500, "plan": "Pro" })),
        )
        .await;
    assert_eq!(ok.body["field_values"], json!({ "members": 1500, "plan": "Pro" }));

    // Portal password: managerial, atomic with the rest of the PATCH.
    assert_eq!(
        s.app
            .patch(
                &path,
                &s.staff,
                json!({ "edition": "Gold", "password": "portal-pw-9" })
            )
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(s.app.get(&path, &s.staff).await.body["edition"], Value::Null);
    let set = s
        .app
        .patch(
            &path,
            &s.manager,
            json!({ "username": "kscb", "provider": "msg91", "password": "portal-pw-9" }),
        )
        .await;
    assert_eq!(
        (set.body["hasPassword"].as_bool(), set.body["username"].as_str()),
        (Some(true), Some("kscb"))
    );
    assert_eq!(
        s.app
            .post(&format!("{path}/reveal-password"), &s.manager, json!({}))
            .await
            .body["password"],
        "portal-pw-9"
    );

    // Secrets: set by managers, listed by key only, revealed one at a time.
    assert_eq!(
        s.app
            .post(&format!("{path}/secrets"), &s.staff, json!({ "api_key": "x" }))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let secrets = s
        .app
        .post(
            &format!("{path}/secrets"),
            &s.manager,
            json!({ "api_key": "sk-live-777", "sender_id": "KSCBNK" }),
        )
        .await;
    assert_eq!(secrets.body["secret_keys"], json!(["api_key", "sender_id"]));
    let removed = s
        .app
        .post(&format!("{path}/secrets"), &s.manager, json!({ "sender_id": "" }))
        .await;
    assert_eq!(removed.body["secret_keys"], json!(["api_key"]));
    let revealed = s
        .app
        .post(
            &format!("{path}/reveal-secret"),
            &s.manager,
            json!({ "key": "api_key" }),
        )
        .await;
    assert_eq!(revealed.body, json!({ "key": "api_key", "value": "sk-live-777" }));
    assert_eq!(
        s.app
            .post(
                &format!("{path}/reveal-secret"),
                &s.manager,
                json!({ "key": "nope" })
            )
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        s.app
            .post(
                "/api/client-modules/01ZZZZZZZZZZZZZZZZZZZZZZZZ/reveal-password",
                &s.manager,
                json!({})
            )
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        s.app
            .count("SELECT COUNT(*) FROM audit WHERE action IN ('reveal_password', 'reveal_secret')"),
        2
    );

    let lists = [
        s.app
            .get(&format!("/api/clients/{}/modules", id(&s.client)), &s.owner)
            .await
            .text,
        s.app.get(&path, &s.owner).await.text,
        s.app
            .get(&format!("/api/modules/{}/clients", id(&s.module)), &s.owner)
            .await
            .text,
        s.app.get("/api/audit?per_page=200", &s.owner).await.text,
    ];
    for text in lists {
        assert!(
            !text.contains("sk-live-777") && !text.contains("portal-pw-9"),
            "{text}"
        );
    }
    assert_eq!(s.app.count("SELECT COUNT(*) FROM audit WHERE COALESCE(before,'') || COALESCE(after,'') LIKE '%sk-live-777%' OR COALESCE(before,'') || COALESCE(after,'') LIKE '%portal-pw-9%'"), 0);
}

#[tokio::test]
async fn the_reveal_limit_is_shared_by_every_reveal_route() {
    let s = setup().await;
    let cm = link(&s).await;
    s.app
        .patch(
            &format!("/api/client-modules/{}", id(&cm)),
            &s.manager,
            json!({ "password": "pw" }),
        )
        .await;
    let routes = [
        format!("/api/client-modules/{}/reveal-password", id(&cm)),
        format!("/api/clients/{}/reveal-db-password", id(&s.client)),
    ];
    for i in 0..20 {
        assert_eq!(
            s.app.post(&routes[i % 2], &s.manager, json!({})).await.status,
            StatusCode::OK,
            "reveal {i}"
        );
    }
    assert_eq!(
        s.app.post(&routes[0], &s.manager, json!({})).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        s.app.post(&routes[1], &s.manager, json!({})).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn the_roster_totals_over_every_active_link_and_the_csv_streams_all_rows() {
    let s = setup().await;
    s.app
        .post(
            &format!("/api/modules/{}/prices", id(&s.module)),
            &s.owner,
            json!({ "effective_from": day(-10), "price": 250_000 }),
        )
        .await;
    link(&s).await;
    // Ten thousand more subscribers, written straight to the file.
    {
        let conn = s.app.sql();
        conn.execute_batch("BEGIN").unwrap();
        for i in 0..10_000 {
            let (client, cm) = (format!("C{i:05}"), format!("M{i:05}"));
            conn.execute(
                "INSERT INTO client (id, name, status, client_type, category, created_at, updated_at) VALUES (?1, ?2, 'active', 'PACS', 'Other', 'x', 'x')",
                [&client, &format!("Society {i:05}")],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO client_module (id, client_id, module_id, active, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'x', 'x')",
                rusqlite::params![cm, client, id(&s.module), i64::from(i % 100 != 0)],
            )
            .unwrap();
        }
        conn.execute_batch("COMMIT").unwrap();
    }
    let roster = s
        .app
        .get(
            &format!("/api/modules/{}/clients?per_page=3&page=2", id(&s.module)),
            &s.owner,
        )
        .await;
    assert_eq!(roster.body["total"], 9_901, "active links only");
    assert_eq!(roster.body["rows"].as_array().unwrap().len(), 3);
    assert_eq!(roster.body["rows"][0]["price"], 250_000);
    assert_eq!(roster.body["footer"]["revenue_total"], 250_000_i64 * 9_901);
    assert_eq!(
        roster.body["rows"][0]["client_name"], "Society 00003",
        "ordered by client name: Kadakkal, 00001, 00002 on page 1"
    );
    let staff_view = s
        .app
        .get(&format!("/api/modules/{}/clients", id(&s.module)), &s.staff)
        .await;
    assert_eq!(
        (
            staff_view.body["total"].as_i64(),
            staff_view.body["footer"]["revenue_total"].as_i64()
        ),
        (Some(1), Some(250_000))
    );

    let csv = s
        .app
        .get(&format!("/api/modules/{}/clients.csv", id(&s.module)), &s.owner)
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(
        csv.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines.len(), 9_902, "header plus every active row, no cap");
    assert_eq!(lines[0], "Client ID,Client,Price,Next renewal");
    assert!(lines[1].contains(",Kadakkal Service Co-operative Bank,2500.00,"));
    assert!(lines[2].starts_with("C00001,Society 00001,2500.00,"));
}

async fn installed_pending(app: &TestApp, cookie: &str) -> Option<i64> {
    let board = app.get("/api/projects/board", cookie).await;
    board.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "installed")
        .map(|r| r["pending"].as_i64().unwrap())
}

#[tokio::test]
async fn milestones_seed_tick_stamp_once_and_feed_the_board() {
    let s = setup().await;
    let cm = link(&s).await;
    let path = format!("/api/client-modules/{}/milestones", id(&cm));
    let list = s.app.get(&path, &s.staff).await;
    let keys: Vec<&str> = list.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        vec![
            "advance_paid",
            "setup",
            "installed",
            "trained",
            "go_live",
            "balance",
            "amc"
        ]
    );
    assert_eq!(installed_pending(&s.app, &s.owner).await, Some(1));

    let tick = s
        .app
        .post(
            &path,
            &s.staff,
            json!({ "key": "installed", "done": true, "doneOn": "2026-11-20" }),
        )
        .await;
    assert_eq!(tick.status, StatusCode::OK, "{}", tick.text);
    let project = s
        .app
        .get(&format!("/api/client-modules/{}", id(&cm)), &s.staff)
        .await;
    assert_eq!(
        (
            project.body["status"].as_str(),
            project.body["installed_on"].as_str()
        ),
        (Some("installed"), Some("2026-11-20"))
    );
    assert_eq!(
        installed_pending(&s.app, &s.owner).await,
        Some(0),
        "it left the pending count"
    );
    assert_eq!(
        s.app.get("/api/projects/pending/installed", &s.owner).await.body["total"],
        0
    );
    assert_eq!(
        s.app.get("/api/projects/pending/setup", &s.owner).await.body["total"],
        1
    );

    // Untick and tick again on another date: installed_on is never overwritten.
    s.app
        .post(&path, &s.staff, json!({ "key": "installed", "done": false }))
        .await;
    s.app
        .post(
            &path,
            &s.staff,
            json!({ "key": "installed", "done": true, "doneOn": "2026-11-21" }),
        )
        .await;
    let project = s
        .app
        .get(&format!("/api/client-modules/{}", id(&cm)), &s.staff)
        .await;
    assert_eq!(project.body["installed_on"], "2026-11-20");
    s.app
        .post(
            &path,
            &s.staff,
            json!({ "key": "trained", "done": true, "doneOn": "2026-11-22" }),
        )
        .await;
    let project = s
        .app
        .get(&format!("/api/client-modules/{}", id(&cm)), &s.staff)
        .await;
    assert_eq!(
        (
            project.body["status"].as_str(),
            project.body["trained_on"].as_str()
        ),
        (Some("trained"), Some("2026-11-22"))
    );
    let (after,): (String,) = s
        .app
        .sql()
        .query_row(
            "SELECT after FROM audit WHERE action = 'milestone_tick' ORDER BY id LIMIT 1",
            [],
            |r| Ok((r.get(0)?,)),
        )
        .unwrap();
    let after: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(
        (
            after["done_on"].as_str(),
            after["status"].as_str(),
            after["installed_on"].as_str()
        ),
        (Some("2026-11-20"), Some("installed"), Some("2026-11-20"))
    );
    assert_eq!(
        s.app
            .count("SELECT COUNT(*) FROM audit WHERE action IN ('milestone_tick', 'milestone_untick')"),
        4
    );

    let untick = s
        .app
        .post(&path, &s.staff, json!({ "key": "setup", "done": false }))
        .await;
    assert!(
        untick.body["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["key"] != "setup" || r["done_on"].is_null())
    );
}

#[tokio::test]
async fn milestone_failures_are_400s_and_links_must_be_the_same_clients() {
    let s = setup().await;
    let cm = link(&s).await;
    let path = format!("/api/client-modules/{}/milestones", id(&cm));
    for (body, code) in [
        (json!({ "key": "nonsense", "done": true }), "unknown_step"),
        (
            json!({ "key": "setup", "done": true, "paymentId": "P1" }),
            "other_client",
        ),
        (json!({ "key": "setup" }), "invalid_value"),
    ] {
        let reply = s.app.post(&path, &s.staff, body.clone()).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::BAD_REQUEST, code),
            "{body}"
        );
    }
    let malformed = s
        .app
        .send(
            Call::new(Method::POST, &path)
                .cookie(&s.staff)
                .raw("{", Some("application/json")),
        )
        .await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        s.app
            .get(
                "/api/client-modules/01ZZZZZZZZZZZZZZZZZZZZZZZZ/milestones",
                &s.staff
            )
            .await
            .status,
        StatusCode::BAD_REQUEST
    );

    // The same-client rule, with real quotations of this client and of another one.
    let other = s
        .app
        .post("/api/clients", &s.owner, json!({ "name": "Another Society" }))
        .await
        .body;
    let quote = |client: String| {
        let (app, owner) = (&s.app, s.owner.clone());
        async move {
            id(&app
                .post(
                    "/api/documents",
                    &owner,
                    json!({ "type": "QUOTATION", "client_id": client, "lines": [] }),
                )
                .await
                .body)
        }
    };
    let (mine, theirs) = (quote(id(&s.client)).await, quote(id(&other)).await);
    let refused = s
        .app
        .post(
            &path,
            &s.staff,
            json!({ "key": "advance_paid", "done": true, "documentId": theirs }),
        )
        .await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::BAD_REQUEST, "other_client")
    );
    let linked = s
        .app
        .post(
            &path,
            &s.staff,
            json!({ "key": "advance_paid", "done": true, "documentId": mine }),
        )
        .await;
    let step = linked.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "advance_paid")
        .unwrap()
        .clone();
    assert_eq!(step["document_id"], json!(mine));
    let cleared = s
        .app
        .post(&path, &s.staff, json!({ "key": "advance_paid", "done": false }))
        .await;
    let step = cleared.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "advance_paid")
        .unwrap()
        .clone();
    assert_eq!(
        (step["done_on"].clone(), step["document_id"].clone()),
        (Value::Null, Value::Null)
    );
}

#[tokio::test]
async fn stalled_projects_validate_days_and_count_unknown_ages() {
    let s = setup().await;
    let cm = link(&s).await;
    for bad in ["-1", "3651", "abc", "1.5"] {
        let reply = s
            .app
            .get(&format!("/api/projects/stalled?days={bad}"), &s.owner)
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::BAD_REQUEST, "invalid_query"),
            "{bad}"
        );
    }
    let now = s.app.get("/api/projects/stalled?days=0", &s.owner).await;
    assert_eq!(
        (
            now.body["ok"].as_bool(),
            now.body["total"].as_i64(),
            now.body["unknownAgeExcluded"].as_i64()
        ),
        (Some(true), Some(1), Some(0))
    );
    assert_eq!(now.body["projects"][0]["client_module_id"], cm["id"]);
    let default = s.app.get("/api/projects/stalled", &s.owner).await;
    assert_eq!(
        (default.body["days"].as_i64(), default.body["total"].as_i64()),
        (Some(30), Some(0))
    );

    // Old activity makes it stalled; a project with neither ticks nor a creation date is excluded and counted.
    let path = format!("/api/client-modules/{}/milestones", id(&cm));
    s.app
        .post(
            &path,
            &s.owner,
            json!({ "key": "setup", "done": true, "doneOn": day(-45) }),
        )
        .await;
    let stalled = s.app.get("/api/projects/stalled", &s.owner).await;
    assert_eq!(
        (
            stalled.body["total"].as_i64(),
            stalled.body["projects"][0]["age_days"].as_i64()
        ),
        (Some(1), Some(45))
    );
    let second = link(&s).await;
    s.app
        .sql()
        .execute(
            "UPDATE client_module SET created_at = NULL WHERE id = ?1",
            [id(&second)],
        )
        .unwrap();
    let counted = s.app.get("/api/projects/stalled?days=0", &s.owner).await;
    assert_eq!(
        (
            counted.body["total"].as_i64(),
            counted.body["unknownAgeExcluded"].as_i64()
        ),
        (Some(1), Some(1))
    );
}

#[tokio::test]
async fn templates_compose_the_checklist_and_refuse_colliding_keys() {
    let s = setup().await;
    assert_eq!(
        s.app
            .send(
                Call::new(Method::PUT, "/api/settings/milestones/front")
                    .cookie(&s.manager)
                    .json(json!({ "steps": [] }))
            )
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let collide = s
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/milestones/front")
                .cookie(&s.owner)
                .json(json!({ "steps": [{ "key": "", "label": "Setup" }] })),
        )
        .await;
    assert_eq!(
        (collide.status, collide.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "key_collision")
    );
    let front = s.app.send(Call::new(Method::PUT, "/api/settings/milestones/front").cookie(&s.owner).json(json!({ "steps": [{ "key": "", "label": "Site survey" }, { "key": "advance_payment", "label": "Advance" }] }))).await;
    assert_eq!(front.status, StatusCode::OK, "{}", front.text);
    assert_eq!(
        front.body["front"],
        json!([{ "key": "site_survey", "label": "Site survey" }, { "key": "payment_received", "label": "Advance" }])
    );
    let tail = s
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/milestones/tail/SMS")
                .cookie(&s.owner)
                .json(json!({ "steps": [{ "label": "Sender ID approved" }, { "label": "Installed" }] })),
        )
        .await;
    assert_eq!(tail.body["tails"]["SMS"][0]["key"], "sender_id_approved");
    let tail_collide = s
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/milestones/tail/SMS")
                .cookie(&s.owner)
                .json(json!({ "steps": [{ "label": "Site survey" }] })),
        )
        .await;
    assert_eq!(tail_collide.code(), "key_collision");
    let cm = link(&s).await;
    let list = s
        .app
        .get(&format!("/api/client-modules/{}/milestones", id(&cm)), &s.owner)
        .await;
    let keys: Vec<&str> = list.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        vec![
            "site_survey",
            "payment_received",
            "sender_id_approved",
            "installed"
        ]
    );
    assert_eq!(
        s.app.count("SELECT COUNT(*) FROM audit WHERE entity = 'setting'"),
        2
    );
}

#[tokio::test]
async fn bulk_milestone_is_owner_only_all_or_nothing_with_one_summary_row() {
    let s = setup().await;
    let (a, b) = (link(&s).await, link(&s).await);
    let body =
        |ids: Vec<String>| json!({ "projects": ids, "key": "setup", "done": true, "doneOn": "2026-11-01" });
    assert_eq!(
        s.app
            .post("/api/projects/bulk-milestone", &s.manager, body(vec![id(&a)]))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let bad = s
        .app
        .post(
            "/api/projects/bulk-milestone",
            &s.owner,
            body(vec![id(&a), "nope".into()]),
        )
        .await;
    assert_eq!(
        (bad.status, bad.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "unknown_project")
    );
    assert_eq!(
        s.app
            .count("SELECT COUNT(*) FROM project_milestone WHERE done_on IS NOT NULL"),
        0
    );
    let ok = s
        .app
        .post(
            "/api/projects/bulk-milestone",
            &s.owner,
            body(vec![id(&a), id(&b)]),
        )
        .await;
    assert_eq!(ok.body["updated"], 2);
    assert_eq!(
        s.app
            .count("SELECT COUNT(*) FROM project_milestone WHERE key = 'setup' AND done_on = '2026-11-01'"),
        2
    );
    assert_eq!(
        s.app
            .count("SELECT COUNT(*) FROM audit WHERE action = 'bulk_milestone'"),
        1
    );
    assert_eq!(
        s.app
            .count("SELECT COUNT(*) FROM audit WHERE action IN ('milestone_tick', 'milestone_untick')"),
        0,
        "one summary row, not one per project (spec 4.4)"
    );
}

#[tokio::test]
async fn a_template_change_reorders_and_relabels_existing_checklists() {
    let s = setup().await;
    let cm = link(&s).await;
    let path = format!("/api/client-modules/{}/milestones", id(&cm));
    s.app
        .post(
            &path,
            &s.owner,
            json!({ "key": "setup", "done": true, "doneOn": "2026-11-01" }),
        )
        .await;
    let put = |body: Value, url: &'static str| {
        let (app, owner) = (&s.app, s.owner.clone());
        async move {
            app.send(Call::new(Method::PUT, url).cookie(&owner).json(body))
                .await
        }
    };
    put(
        json!({ "steps": [{ "label": "Site survey" }, { "label": "Kick-off" }] }),
        "/api/settings/milestones/front",
    )
    .await;
    put(
        json!({ "steps": [{ "key": "setup", "label": "Server setup" }, { "label": "Installed" }] }),
        "/api/settings/milestones/tail/SMS",
    )
    .await;
    let list = s.app.get(&path, &s.owner).await;
    let steps: Vec<(&str, &str)> = list.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["key"].as_str().unwrap(), r["label"].as_str().unwrap()))
        .collect();
    assert_eq!(
        steps[..4].to_vec(),
        vec![
            ("site_survey", "Site survey"),
            ("kick_off", "Kick-off"),
            ("setup", "Server setup"),
            ("installed", "Installed")
        ],
        "front first, then the tail, with the template's labels"
    );
    let setup_row = list.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "setup")
        .unwrap()
        .clone();
    assert_eq!(setup_row["done_on"], "2026-11-01", "ticks survive");
    let leftovers: Vec<&str> = steps[4..].iter().map(|(k, _)| *k).collect();
    assert_eq!(
        leftovers,
        vec!["advance_paid", "trained", "go_live", "balance", "amc"],
        "old steps follow in their order"
    );
    let board = s.app.get("/api/projects/board", &s.owner).await;
    assert_eq!(board.body["rows"][0]["key"], "site_survey");
}

#[tokio::test]
async fn the_legacy_whole_checklist_serves_modules_without_front_or_tail() {
    let s = setup().await;
    // An older office's value: a list of labels, dated as first boot dates its defaults.
    s.app
        .sql()
        .execute(
            "INSERT INTO setting (id, key, value, effective_from, set_by, set_at)
             VALUES ('01LEGACY0000000000000000000', 'project.milestone_template',
                     '[\"Agreement signed\", \"Data migrated\", \"Go-live\"]', '2000-01-01', NULL, '2000-01-01T00:00:00Z')",
            [],
        )
        .unwrap();
    let templates = s.app.get("/api/settings/milestones", &s.owner).await;
    assert_eq!(
        templates.body["legacy"],
        json!([
            { "key": "agreement_signed", "label": "Agreement signed" },
            { "key": "data_migrated", "label": "Data migrated" },
            { "key": "go_live", "label": "Go-live" }
        ])
    );
    let keys = |rows: &Value| -> Vec<String> {
        rows["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["key"].as_str().unwrap().to_string())
            .collect()
    };
    let sms = link(&s).await;
    let checklist = s
        .app
        .get(&format!("/api/client-modules/{}/milestones", id(&sms)), &s.owner)
        .await;
    assert_eq!(
        keys(&checklist.body),
        vec!["agreement_signed", "data_migrated", "go_live"]
    );

    // A module with its own tail keeps its tail.
    let dep = s
        .app
        .post(
            "/api/modules",
            &s.owner,
            json!({ "code": "DEP", "name": "Deposit", "sac": "998314", "gst_rate": 18 }),
        )
        .await;
    assert_eq!(dep.status, StatusCode::CREATED, "{}", dep.text);
    let tail = s
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/milestones/tail/DEP")
                .cookie(&s.owner)
                .json(json!({ "steps": [{ "label": "Deposit schemes loaded" }] })),
        )
        .await;
    assert_eq!(tail.status, StatusCode::OK, "{}", tail.text);
    let linked = s
        .app
        .post(
            "/api/client-modules",
            &s.owner,
            json!({ "client_id": id(&s.client), "module_id": id(&dep.body) }),
        )
        .await;
    assert_eq!(linked.status, StatusCode::CREATED, "{}", linked.text);
    let checklist = s
        .app
        .get(
            &format!("/api/client-modules/{}/milestones", id(&linked.body)),
            &s.owner,
        )
        .await;
    assert_eq!(keys(&checklist.body), vec!["deposit_schemes_loaded"]);

    // Only the owner replaces it; the new list is audited and serves the module at once.
    let put = |cookie: &str, steps: Value| {
        Call::new(Method::PUT, "/api/settings/milestones/legacy")
            .cookie(cookie)
            .json(json!({ "steps": steps }))
    };
    let by_manager = s
        .app
        .send(put(&s.manager, json!([{ "label": "Agreement" }])))
        .await;
    assert_eq!(by_manager.status, StatusCode::FORBIDDEN);
    let twice = s
        .app
        .send(put(
            &s.owner,
            json!([{ "label": "Agreement" }, { "label": "agreement" }]),
        ))
        .await;
    assert_eq!(
        (twice.status, twice.code(), twice.body["error"]["field"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "duplicate_key",
            Some("steps[1].key")
        )
    );
    let saved = s
        .app
        .send(put(
            &s.owner,
            json!([{ "label": "Agreement signed" }, { "label": "Trained" }]),
        ))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(
        saved.body["legacy"],
        json!([{ "key": "agreement_signed", "label": "Agreement signed" }, { "key": "trained", "label": "Trained" }])
    );
    let checklist = s
        .app
        .get(&format!("/api/client-modules/{}/milestones", id(&sms)), &s.owner)
        .await;
    // The dropped steps follow, as after any template change.
    assert_eq!(
        keys(&checklist.body),
        vec!["agreement_signed", "trained", "data_migrated", "go_live"]
    );
    assert_eq!(
        s.app.count(
            "SELECT COUNT(*) FROM audit WHERE entity = 'setting' AND entity_id = 'project.milestone_template'"
        ),
        1
    );

    // A front list ends it: a new project gets the front list and the default tail.
    let front = s
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/milestones/front")
                .cookie(&s.owner)
                .json(json!({ "steps": [{ "label": "Site survey" }] })),
        )
        .await;
    assert_eq!(front.status, StatusCode::OK, "{}", front.text);
    let other = s
        .app
        .post("/api/clients", &s.owner, json!({ "name": "Anchal SCB" }))
        .await;
    let fresh = s.app.post("/api/client-modules", &s.owner, json!({ "client_id": id(&other.body), "module_id": id(&s.module), "field_values": { "members": 10 } })).await;
    assert_eq!(fresh.status, StatusCode::CREATED, "{}", fresh.text);
    let checklist = s
        .app
        .get(
            &format!("/api/client-modules/{}/milestones", id(&fresh.body)),
            &s.owner,
        )
        .await;
    assert_eq!(
        keys(&checklist.body),
        vec![
            "site_survey",
            "advance_paid",
            "setup",
            "installed",
            "trained",
            "go_live",
            "balance",
            "amc"
        ]
    );

    // No steps clears it.
    let cleared = s.app.send(put(&s.owner, json!([]))).await;
    assert_eq!(
        (cleared.status, cleared.body["legacy"].clone()),
        (StatusCode::OK, Value::Null)
    );
}
