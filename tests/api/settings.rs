//! The settings that had no write path (decisions 12): payment terms, stall days and ticket
//! types, each owner-written, dated from the office's today, audited, and read back by its GET.

use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode};
use chrono::{Duration, Utc};
use serde_json::{Value, json};

fn today() -> String {
    (Utc::now() + Duration::minutes(330)).date_naive().to_string()
}

struct Route {
    path: &'static str,
    field: &'static str,
    default: Value,
    good: Value,
}

#[tokio::test]
async fn each_setting_is_owner_written_dated_audited_and_read_back() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let routes = [
        Route {
            path: "/api/settings/billing",
            field: "payment_terms_days",
            default: json!(15),
            good: json!(30),
        },
        Route {
            path: "/api/settings/projects",
            field: "stall_days",
            default: json!(30),
            good: json!(45),
        },
        Route {
            path: "/api/settings/tickets",
            field: "types",
            default: json!([
                "service",
                "installation",
                "training",
                "bug",
                "data correction",
                "renewal"
            ]),
            good: json!(["service", "AMC visit", "bug"]),
        },
    ];
    let refusals: [(&str, Value, &str, &str); 9] = [
        (
            "/api/settings/billing",
            json!({ "payment_terms_days": -1 }),
            "payment_terms_days",
            "out_of_range",
        ),
        (
            "/api/settings/billing",
            json!({ "payment_terms_days": 366 }),
            "payment_terms_days",
            "out_of_range",
        ),
        (
            "/api/settings/billing",
            json!({ "payment_terms_days": "30" }),
            "payment_terms_days",
            "invalid_value",
        ),
        (
            "/api/settings/projects",
            json!({ "stall_days": 3651 }),
            "stall_days",
            "out_of_range",
        ),
        (
            "/api/settings/tickets",
            json!({ "types": [] }),
            "types",
            "invalid_types",
        ),
        (
            "/api/settings/tickets",
            json!({ "types": ["bug", "  "] }),
            "types[1]",
            "invalid_type",
        ),
        (
            "/api/settings/tickets",
            json!({ "types": ["Bug", "AMC", "bug"] }),
            "types[2]",
            "duplicate_type",
        ),
        (
            "/api/settings/tickets",
            json!({ "types": ["x".repeat(41)] }),
            "types[0]",
            "invalid_type",
        ),
        (
            "/api/settings/tickets",
            json!({ "types": (0..31).map(|i| format!("type {i}")).collect::<Vec<_>>() }),
            "types",
            "invalid_types",
        ),
    ];
    let put = |cookie: &str, path: &str, body: Value| Call::new(Method::PUT, path).cookie(cookie).json(body);
    let audits = || app.count("SELECT COUNT(*) FROM audit");
    let settings = || app.count("SELECT COUNT(*) FROM setting");

    for r in &routes {
        let read = app.get(r.path, &manager).await;
        assert_eq!(read.status, StatusCode::OK, "{}: {}", r.path, read.text);
        assert_eq!(
            (read.body[r.field].clone(), read.body["effective_from"].clone()),
            (r.default.clone(), json!("2000-01-01")),
            "{}",
            r.path
        );
        let by_manager = app.send(put(&manager, r.path, json!({ r.field: r.good }))).await;
        assert_eq!(by_manager.status, StatusCode::FORBIDDEN, "{}", r.path);
    }
    let (audited, stored) = (audits(), settings());
    for (path, body, field, code) in &refusals {
        let refused = app.send(put(&owner, path, body.clone())).await;
        assert_eq!(
            (
                refused.status,
                refused.code(),
                refused.body["error"]["field"].as_str()
            ),
            (StatusCode::UNPROCESSABLE_ENTITY, *code, Some(*field)),
            "{path} {body}: {}",
            refused.text
        );
    }
    assert_eq!(
        (audits(), settings()),
        (audited, stored),
        "a refusal writes nothing"
    );

    for r in &routes {
        let saved = app.send(put(&owner, r.path, json!({ r.field: r.good }))).await;
        assert_eq!(saved.status, StatusCode::OK, "{}: {}", r.path, saved.text);
        let read = app.get(r.path, &manager).await;
        assert_eq!(
            (read.body[r.field].clone(), read.body["effective_from"].as_str()),
            (r.good.clone(), Some(today().as_str())),
            "{}",
            r.path
        );
        let (before, after): (String, String) = app
            .sql()
            .query_row(
                "SELECT before, after FROM audit WHERE entity = 'setting' AND action = 'update' ORDER BY id DESC LIMIT 1",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!(
            (
                serde_json::from_str::<Value>(&before).unwrap(),
                serde_json::from_str::<Value>(&after).unwrap()
            ),
            (r.default.clone(), r.good.clone()),
            "{}",
            r.path
        );
        // The same value again writes nothing.
        let (audited, stored) = (audits(), settings());
        let again = app.send(put(&owner, r.path, json!({ r.field: r.good }))).await;
        assert_eq!(again.status, StatusCode::OK);
        assert_eq!((audits(), settings()), (audited, stored), "{}", r.path);
    }
    assert_eq!(
        app.get("/api/tickets/types", &manager).await.body["rows"],
        json!(["service", "AMC visit", "bug"])
    );
}

#[tokio::test]
async fn the_settings_take_effect_where_they_are_read() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let module = app.priced_module(&owner, 1_000_000).await;
    let client = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Anchal SCB", "state_code": "32" }),
        )
        .await
        .body;
    let client = client["id"].as_str().unwrap().to_string();
    let put = |path: &str, body: Value| Call::new(Method::PUT, path).cookie(&owner).json(body);

    // Payment terms: an invoice issued without a due date falls due that many days later.
    let terms = app
        .send(put("/api/settings/billing", json!({ "payment_terms_days": 45 })))
        .await;
    assert_eq!(terms.status, StatusCode::OK, "{}", terms.text);
    let draft = app
        .post(
            "/api/documents",
            &owner,
            json!({ "type": "INVOICE", "client_id": client, "lines": [ { "module_id": module, "qty": 1 } ] }),
        )
        .await;
    let issued = app
        .post(
            &format!("/api/documents/{}/issue", draft.body["id"].as_str().unwrap()),
            &owner,
            json!({}),
        )
        .await;
    let due = (Utc::now() + Duration::minutes(330) + Duration::days(45))
        .date_naive()
        .to_string();
    assert_eq!(
        issued.body["due_date"].as_str(),
        Some(due.as_str()),
        "{}",
        issued.text
    );

    // Stall days: the stalled list's default.
    let stall = app
        .send(put("/api/settings/projects", json!({ "stall_days": 0 })))
        .await;
    assert_eq!(stall.status, StatusCode::OK, "{}", stall.text);
    let linked = app
        .post(
            "/api/client-modules",
            &owner,
            json!({ "client_id": client, "module_id": module }),
        )
        .await;
    assert_eq!(linked.status, StatusCode::CREATED, "{}", linked.text);
    let stalled = app.get("/api/projects/stalled", &owner).await;
    assert_eq!(
        (stalled.body["days"].as_i64(), stalled.body["total"].as_i64()),
        (Some(0), Some(1)),
        "{}",
        stalled.text
    );

    // Ticket types: a new ticket takes only a listed type; without "service" it takes the first;
    // a ticket keeps a type taken off the list when edited.
    let (app_ref, owner_ref, client_ref) = (&app, &owner, &client);
    let open = |body: Value| {
        let mut body = body;
        body["client_id"] = json!(client_ref);
        body["subject"] = json!("Printer not printing");
        async move { app_ref.post("/api/tickets", owner_ref, body).await }
    };
    let bug = open(json!({ "type": "bug" })).await;
    assert_eq!(bug.status, StatusCode::CREATED, "{}", bug.text);
    let types = app
        .send(put(
            "/api/settings/tickets",
            json!({ "types": ["AMC visit", "training"] }),
        ))
        .await;
    assert_eq!(types.status, StatusCode::OK, "{}", types.text);
    let unlisted = open(json!({ "type": "bug" })).await;
    assert_eq!(
        (unlisted.status, unlisted.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "unknown_type")
    );
    let plain = open(json!({})).await;
    assert_eq!(
        (plain.status, plain.body["type"].as_str()),
        (StatusCode::CREATED, Some("AMC visit")),
        "{}",
        plain.text
    );
    let kept = app
        .patch(
            &format!("/api/tickets/{}", bug.body["id"].as_str().unwrap()),
            &owner,
            json!({ "type": "bug", "subject": "Printer jams" }),
        )
        .await;
    assert_eq!(
        (
            kept.status,
            kept.body["type"].as_str(),
            kept.body["subject"].as_str()
        ),
        (StatusCode::OK, Some("bug"), Some("Printer jams")),
        "{}",
        kept.text
    );
}
