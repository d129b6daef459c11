//! Employees and role gates, the error shape, lists, health and the OpenAPI document.

use crate::common::{Call, OWNER, TestApp};
use axum::http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn invite_defaults_username_to_email_and_shows_the_initial_password_once() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let reply = app
        .post(
            "/api/employees",
            &owner,
            json!({ "email": "Suma@Coop.in", "name": "Suma", "role": "manager", "title": "Accounts" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    assert_eq!(reply.body["username"], "Suma@Coop.in");
    assert_eq!(reply.body["mustChangePassword"], true);
    let password = reply.body["initial_password"].as_str().unwrap().to_string();
    let id = reply.body["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 26);
    let login = app.try_login("suma@coop.in", &password).await;
    assert_eq!(login.status, StatusCode::OK);
    assert_eq!(login.body["mustChangePassword"], true);
    let list = app.get("/api/employees", &owner).await;
    assert!(
        list.body["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("initial_password").is_none())
    );
    assert!(!list.text.contains(&password));
    let after: String = app
        .sql()
        .query_row(
            "SELECT after FROM audit WHERE action = 'create' AND entity_id = ?1",
            [&id],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!after.contains(&password) && !after.contains("argon2"), "{after}");

    let reply = app
        .post(
            "/api/employees",
            &owner,
            json!({ "email": "other@coop.in", "username": "suma@coop.in", "name": "X", "role": "staff" }),
        )
        .await;
    assert_eq!(
        (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
        (StatusCode::CONFLICT, "duplicate", Some("username"))
    );
    let reply = app
        .post(
            "/api/employees",
            &owner,
            json!({ "email": "SUMA@coop.in", "name": "X", "role": "staff" }),
        )
        .await;
    // The username defaulted to the email, so the email is the field to fix.
    assert_eq!(
        (reply.status, reply.body["error"]["field"].as_str()),
        (StatusCode::CONFLICT, Some("email"))
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM staff"),
        2,
        "refusals wrote nothing"
    );
}

#[tokio::test]
async fn invite_validates_each_field() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let cases = [
        (
            json!({ "email": "not-an-email", "name": "A", "role": "staff" }),
            "email",
        ),
        (
            json!({ "email": "a@coop.in", "name": " ", "role": "staff" }),
            "name",
        ),
        (
            json!({ "email": "a@coop.in", "name": "A", "role": "boss" }),
            "role",
        ),
        (
            json!({ "email": "a@coop.in", "name": "A", "role": "staff", "phone": "12" }),
            "phone",
        ),
        (
            json!({ "email": "a@coop.in", "name": "A", "role": "staff", "password": "short" }),
            "password",
        ),
        (
            json!({ "email": "a@coop.in", "name": "A", "role": "staff", "username": "has space" }),
            "username",
        ),
        (json!({ "name": "A", "role": "staff" }), "email"),
    ];
    for (body, field) in cases {
        let reply = app.post("/api/employees", &owner, body.clone()).await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            reply.text
        );
        assert_eq!(reply.body["error"]["field"], field, "{body}");
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM staff"), 1);
}

/// Each invalid field of a 422 as (field, code), in the order the answer gives them.
fn field_errors(body: &serde_json::Value) -> Vec<(String, String)> {
    body["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("no errors: {body}"))
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap().into(),
                e["code"].as_str().unwrap().into(),
            )
        })
        .collect()
}

/// An invitation and one's own password change answer every invalid field in one 422, the first
/// also as `error` (issue 34).
#[tokio::test]
async fn invitation_and_password_change_name_every_invalid_field_at_once() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let reply = app
        .post(
            "/api/employees",
            &owner,
            json!({ "email": "not-an-email", "username": "has space", "name": " ", "role": "staff",
                    "phone": "12", "title": "x".repeat(81), "password": "short" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", reply.text);
    assert_eq!(reply.body["error"]["field"], "email");
    let wanted = [
        ("email", "invalid_email"),
        ("username", "invalid_username"),
        ("name", "invalid_name"),
        ("phone", "invalid_phone"),
        ("title", "invalid_title"),
        ("password", "weak_password"),
    ];
    assert_eq!(
        field_errors(&reply.body),
        wanted.map(|(f, c)| (f.to_string(), c.to_string()))
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM staff"), 1, "nothing written");

    // A wrong current password and a weak new one: both, the current one first (the form's
    // order); the wrong guess counts as a failed sign-in as it does alone.
    let change = |current: &str, new: &str| {
        app.post(
            "/api/me/password",
            &owner,
            json!({ "current_password": current, "new_password": new }),
        )
    };
    let reply = change("a guess at it", "short").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", reply.text);
    assert_eq!(reply.body["error"]["field"], "current_password");
    assert_eq!(
        field_errors(&reply.body),
        [
            ("current_password".to_string(), "wrong_password".to_string()),
            ("new_password".to_string(), "weak_password".to_string())
        ]
    );
    assert_eq!(
        app.count("SELECT failed_count FROM staff WHERE role = 'owner'"),
        1
    );
    // One invalid field: the error alone, as before.
    let reply = change(crate::common::OWNER_PASSWORD, "short").await;
    assert_eq!(
        (
            reply.status,
            reply.body["error"]["field"].as_str(),
            reply.body.get("errors")
        ),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("new_password"), None)
    );
}

#[tokio::test]
async fn role_gates() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (staff_id, staff_pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let (_, manager_pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let staff = app.login("staff@coop.in", &staff_pw).await;
    let manager = app.login("manager@coop.in", &manager_pw).await;
    for who in [&staff, &manager] {
        let reply = app
            .post(
                "/api/employees",
                who,
                json!({ "email": "x@coop.in", "name": "X", "role": "owner" }),
            )
            .await;
        assert_eq!((reply.status, reply.code()), (StatusCode::FORBIDDEN, "forbidden"));
        assert_eq!(
            app.get("/api/login-events", who).await.status,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            app.patch(
                &format!("/api/employees/{staff_id}"),
                who,
                json!({ "role": "owner" })
            )
            .await
            .status,
            StatusCode::FORBIDDEN
        );
        for action in ["deactivate", "reactivate", "reset-password"] {
            let reply = app
                .post(&format!("/api/employees/{staff_id}/{action}"), who, json!({}))
                .await;
            assert_eq!(reply.status, StatusCode::FORBIDDEN, "{action}");
        }
        assert_eq!(
            app.get("/api/employees", who).await.status,
            StatusCode::OK,
            "everyone may list for pickers"
        );
    }
    assert_eq!(app.count("SELECT COUNT(*) FROM staff WHERE role = 'owner'"), 1);
    let anonymous = app.send(Call::new(Method::GET, "/api/employees")).await;
    assert_eq!(
        (anonymous.status, anonymous.code()),
        (StatusCode::UNAUTHORIZED, "unauthenticated")
    );
}

#[tokio::test]
async fn edit_keeps_email_immutable_and_an_active_owner() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let owner_id = app.get("/api/me", &owner).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (id, _) = app.invite(&owner, "biju@coop.in", "staff").await;
    let reply = app
        .patch(
            &format!("/api/employees/{id}"),
            &owner,
            json!({ "name": "Biju K", "role": "manager", "title": "", "email": "BIJU@coop.in" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        (reply.body["name"].as_str(), reply.body["role"].as_str()),
        (Some("Biju K"), Some("manager"))
    );
    let reply = app
        .patch(
            &format!("/api/employees/{id}"),
            &owner,
            json!({ "email": "new@coop.in" }),
        )
        .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "immutable")
    );
    let reply = app
        .patch(
            &format!("/api/employees/{owner_id}"),
            &owner,
            json!({ "role": "manager" }),
        )
        .await;
    assert_eq!((reply.status, reply.code()), (StatusCode::CONFLICT, "last_owner"));
    let reply = app
        .post(
            &format!("/api/employees/{owner_id}/deactivate"),
            &owner,
            json!({}),
        )
        .await;
    assert_eq!((reply.status, reply.code()), (StatusCode::CONFLICT, "self"));
    let reply = app
        .patch(
            "/api/employees/01ZZZZZZZZZZZZZZZZZZZZZZZZ",
            &owner,
            json!({ "name": "X" }),
        )
        .await;
    assert_eq!((reply.status, reply.code()), (StatusCode::NOT_FOUND, "not_found"));
    let (before, after): (String, String) = app
        .sql()
        .query_row(
            "SELECT before, after FROM audit WHERE action = 'update' AND entity_id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(before.contains("\"role\":\"staff\"") && after.contains("\"role\":\"manager\""));
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE action = 'update'"),
        1,
        "refusals audited nothing"
    );
}

#[tokio::test]
async fn reset_password_gives_a_new_initial_password_and_ends_sessions() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (id, old) = app.invite(&owner, "asha@coop.in", "staff").await;
    let session = app.login("asha@coop.in", &old).await;
    for _ in 0..3 {
        app.try_login("asha@coop.in", "wrong password").await;
    }
    let reply = app
        .post(&format!("/api/employees/{id}/reset-password"), &owner, json!({}))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    let new = reply.body["password"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    assert_eq!(
        app.get("/api/me", &session).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.count(&format!("SELECT failed_count FROM staff WHERE id = '{id}'")),
        0
    );
    let login = app.try_login("asha@coop.in", &new).await;
    assert_eq!(
        (login.status, login.body["mustChangePassword"].as_bool()),
        (StatusCode::OK, Some(true))
    );
    let audit: String = app
        .sql()
        .query_row(
            "SELECT after FROM audit WHERE action = 'reset_password'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!audit.contains(&new) && !audit.contains("argon2"));
}

#[tokio::test]
async fn no_password_hash_in_any_payload_or_audit_row() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (id, _) = app.invite(&owner, "leak@coop.in", "staff").await;
    app.patch(&format!("/api/employees/{id}"), &owner, json!({ "name": "Leak" }))
        .await;
    app.post(&format!("/api/employees/{id}/reset-password"), &owner, json!({}))
        .await;
    let payloads = [
        app.get("/api/employees", &owner).await.text,
        app.get("/api/me", &owner).await.text,
        app.get("/api/login-events", &owner).await.text,
        app.try_login(OWNER, crate::common::OWNER_PASSWORD).await.text,
    ];
    for text in payloads {
        assert!(
            !text.contains("argon2") && !text.contains("password_hash"),
            "{text}"
        );
    }
    let conn = app.sql();
    let mut stmt = conn
        .prepare("SELECT COALESCE(before, '') || COALESCE(after, '') FROM audit")
        .unwrap();
    let images: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(images.len() >= 4);
    for image in images {
        assert!(
            !image.contains("argon2") && !image.contains("password_hash"),
            "{image}"
        );
    }
}

#[tokio::test]
async fn lists_page_filter_and_count_honestly() {
    let app = TestApp::new();
    let owner = app.owner().await;
    for i in 0..7 {
        app.invite(
            &owner,
            &format!("clerk{i}@coop.in"),
            if i % 2 == 0 { "staff" } else { "manager" },
        )
        .await;
    }
    let page = app.get("/api/employees?per_page=3&page=2", &owner).await;
    assert_eq!(
        (
            page.body["total"].as_i64(),
            page.body["page"].as_i64(),
            page.body["per_page"].as_i64()
        ),
        (Some(8), Some(2), Some(3))
    );
    assert_eq!(page.body["rows"].as_array().unwrap().len(), 3);
    let staff = app.get("/api/employees?role=staff&per_page=2", &owner).await;
    assert_eq!(
        (
            staff.body["total"].as_i64(),
            staff.body["rows"].as_array().unwrap().len()
        ),
        (Some(4), 2)
    );
    let search = app.get("/api/employees?q=CLERK3", &owner).await;
    assert_eq!(search.body["total"], 1);
    let literal = app.get("/api/employees?q=%25", &owner).await;
    assert_eq!(literal.body["total"], 0, "% is matched literally");
    let all = app.get("/api/employees?per_page=200", &owner).await;
    let ids: Vec<&str> = all.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort();
    let after = app
        .get(&format!("/api/employees?after={}", sorted[5]), &owner)
        .await;
    let after_ids: Vec<&str> = after.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(after_ids, sorted[6..].to_vec());
    assert_eq!(after.body["total"], 2);
    for bad in [
        "page=0",
        "page=abc",
        "per_page=0",
        "per_page=201",
        "per_page=1.5",
        "page=-1",
    ] {
        let reply = app.get(&format!("/api/employees?{bad}"), &owner).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::BAD_REQUEST, "invalid_query"),
            "{bad}"
        );
        assert!(reply.body["error"]["field"].is_string(), "{bad}");
    }
    let events = app
        .get("/api/login-events?outcome=success&from=2000-01-01", &owner)
        .await;
    assert_eq!(events.body["total"], 1);
    assert_eq!(
        app.get("/api/login-events?from=yesterday", &owner).await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn errors_keep_one_shape() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let malformed = app
        .send(
            Call::new(Method::POST, "/api/employees")
                .cookie(&owner)
                .raw("{\"email\":", Some("application/json")),
        )
        .await;
    assert_eq!(
        (malformed.status, malformed.code()),
        (StatusCode::BAD_REQUEST, "malformed_json")
    );
    let empty = app
        .send(Call::new(Method::POST, "/api/auth/login").raw("", Some("application/json")))
        .await;
    assert_eq!(
        (empty.status, empty.code()),
        (StatusCode::BAD_REQUEST, "malformed_json")
    );
    let trailing = app
        .send(Call::new(Method::POST, "/api/auth/login").raw(
            "{\"username\":\"a\",\"password\":\"b\"} x",
            Some("application/json"),
        ))
        .await;
    assert_eq!(trailing.status, StatusCode::BAD_REQUEST);
    let wrong_type = app
        .post(
            "/api/employees",
            &owner,
            json!({ "email": 5, "name": "A", "role": "staff" }),
        )
        .await;
    assert_eq!(
        (wrong_type.status, wrong_type.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("email"))
    );
    let unknown = app.get("/api/no-such-thing", &owner).await;
    assert_eq!(
        (unknown.status, unknown.code()),
        (StatusCode::NOT_FOUND, "not_found")
    );
    let method = app
        .send(Call::new(Method::DELETE, "/api/health").json(json!({})))
        .await;
    assert_eq!(
        (method.status, method.code()),
        (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed")
    );
    let huge = format!(
        "{{\"username\":\"{}\",\"password\":\"x\"}}",
        "a".repeat(2 * 1024 * 1024)
    );
    let too_big = app
        .send(Call::new(Method::POST, "/api/auth/login").raw(&huge, Some("application/json")))
        .await;
    assert_eq!(
        (too_big.status, too_big.code()),
        (StatusCode::PAYLOAD_TOO_LARGE, "body_too_large")
    );
    for reply in [&malformed, &wrong_type, &unknown, &method, &too_big] {
        assert!(reply.body["error"]["message"].is_string(), "{}", reply.text);
        assert_eq!(reply.headers["x-content-type-options"], "nosniff");
        assert_eq!(reply.headers["x-frame-options"], "DENY");
        assert!(
            reply.headers["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("script-src 'self'")
        );
    }
}

/// The health check asks the writer thread, not only a read: while the writer cannot take a
/// write (here a blocking write holds the connection) past the longest a write may take (cut to
/// nothing here), it answers 503, so a service manager restarts a server whose writer died or
/// hangs; once it can, 200 again. Within that time a long write (an import's commit) is work:
/// 200.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_is_unavailable_while_the_writer_does_not_answer() {
    for (longest_write, answer) in [
        (
            std::time::Duration::ZERO,
            (StatusCode::SERVICE_UNAVAILABLE, Some(false), Some("unavailable")),
        ),
        (
            std::time::Duration::from_secs(600),
            (StatusCode::OK, Some(true), Some("ok")),
        ),
    ] {
        let app = TestApp::with_config(|c| c.longest_write = longest_write);
        health_while_the_writer_is_held(&app, answer).await;
    }
}

async fn health_while_the_writer_is_held(app: &TestApp, answer: (StatusCode, Option<bool>, Option<&str>)) {
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (started, running) = std::sync::mpsc::channel::<()>();
    let db = app.state.db.clone();
    let holder = std::thread::spawn(move || {
        db.write_blocking(|_| {
            started.send(()).unwrap();
            held.recv().unwrap();
            Ok(())
        })
        .unwrap()
    });
    running.recv().unwrap();
    let held = app.send(Call::new(Method::GET, "/api/health")).await;
    assert_eq!(
        (held.status, held.body["ok"].as_bool(), held.body["db"].as_str()),
        answer
    );
    release.send(()).unwrap();
    holder.join().unwrap();
    let healthy = app.send(Call::new(Method::GET, "/api/health")).await;
    assert_eq!(
        (healthy.status, healthy.body["db"].as_str()),
        (StatusCode::OK, Some("ok"))
    );
}

#[tokio::test]
async fn health_and_openapi_are_public_and_the_document_lists_every_route() {
    let app = TestApp::new();
    let health = app.send(Call::new(Method::GET, "/api/health")).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(
        (health.body["ok"].as_bool(), health.body["db"].as_str()),
        (Some(true), Some("ok"))
    );
    let doc = app.send(Call::new(Method::GET, "/api/openapi.json")).await;
    assert_eq!(doc.status, StatusCode::OK);
    assert!(doc.body["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc.body["paths"].as_object().unwrap();
    let expected = [
        ("/api/health", "get"),
        ("/api/auth/login", "post"),
        ("/api/auth/logout", "post"),
        ("/api/me", "get"),
        ("/api/me", "patch"),
        ("/api/me/password", "post"),
        ("/api/employees", "get"),
        ("/api/employees", "post"),
        ("/api/employees/{id}", "patch"),
        ("/api/employees/{id}/deactivate", "post"),
        ("/api/employees/{id}/reactivate", "post"),
        ("/api/employees/{id}/reset-password", "post"),
        ("/api/login-events", "get"),
        ("/api/clients", "get"),
        ("/api/clients", "post"),
        ("/api/clients/options", "get"),
        ("/api/clients/classify", "get"),
        ("/api/clients/{id}", "get"),
        ("/api/clients/{id}", "patch"),
        ("/api/clients/{id}/owner", "patch"),
        ("/api/clients/{id}/reveal-db-password", "post"),
        ("/api/clients/{id}/statement", "get"),
        ("/api/clients/{id}/statement.csv", "get"),
        ("/api/clients/{id}/statement.pdf", "get"),
        ("/api/clients/{id}/statement/send", "post"),
        ("/api/statements/year-end", "get"),
        ("/api/statements/year-end.csv", "get"),
        ("/api/exports/tally", "get"),
        ("/api/settings/tally", "get"),
        ("/api/settings/tally", "put"),
        ("/api/clients/bulk", "post"),
        ("/api/clients/{id}/contacts", "get"),
        ("/api/clients/{id}/contacts", "post"),
        ("/api/contacts/{id}", "patch"),
        ("/api/contacts/{id}", "delete"),
        ("/api/clients/{id}/branches", "get"),
        ("/api/clients/{id}/branches", "post"),
        ("/api/branches/{id}", "patch"),
        ("/api/interactions", "get"),
        ("/api/interactions", "post"),
        ("/api/interactions/{id}", "patch"),
        ("/api/audit", "get"),
        ("/api/audit/facets", "get"),
        ("/api/modules", "get"),
        ("/api/modules", "post"),
        ("/api/modules/{id}", "get"),
        ("/api/modules/{id}", "patch"),
        ("/api/modules/{id}/prices", "get"),
        ("/api/modules/{id}/prices", "post"),
        ("/api/modules/{id}/rate-card", "get"),
        ("/api/modules/{id}/rate-card", "post"),
        ("/api/modules/{id}/clients", "get"),
        ("/api/modules/{id}/clients.csv", "get"),
        ("/api/client-modules", "post"),
        ("/api/clients/{id}/modules", "get"),
        ("/api/client-modules/{id}", "get"),
        ("/api/client-modules/{id}", "patch"),
        ("/api/client-modules/{id}/fields", "put"),
        ("/api/client-modules/{id}/secrets", "post"),
        ("/api/client-modules/{id}/reveal-password", "post"),
        ("/api/client-modules/{id}/reveal-secret", "post"),
        ("/api/client-modules/{id}/milestones", "get"),
        ("/api/client-modules/{id}/milestones", "post"),
        ("/api/projects/board", "get"),
        ("/api/projects/pending/{key}", "get"),
        ("/api/projects/stalled", "get"),
        ("/api/projects/bulk-milestone", "post"),
        ("/api/settings/milestones", "get"),
        ("/api/settings/milestones/front", "put"),
        ("/api/settings/milestones/tail/{code}", "put"),
        ("/api/settings/company", "get"),
        ("/api/settings/company", "put"),
        ("/api/settings/billing", "get"),
        ("/api/documents", "get"),
        ("/api/documents", "post"),
        ("/api/documents/preview", "post"),
        ("/api/documents/{id}", "get"),
        ("/api/documents/{id}", "patch"),
        ("/api/documents/{id}/issue", "post"),
        ("/api/documents/{id}/mark-sent", "post"),
        ("/api/documents/{id}/accept", "post"),
        ("/api/documents/{id}/lost", "post"),
        ("/api/documents/{id}/convert", "post"),
        ("/api/documents/{id}/supersede", "post"),
        ("/api/documents/{id}/cancel", "post"),
        ("/api/documents/{id}/credit-note", "post"),
        ("/api/documents/{id}/pdf", "get"),
        ("/api/documents/{id}/send", "post"),
        ("/api/documents/{id}/recipient", "get"),
        ("/api/documents/{id}/convert-and-send", "post"),
        ("/api/documents/{id}/share", "post"),
        ("/api/documents/{id}/whatsapp", "get"),
        ("/api/documents/{id}/whatsapp", "post"),
        ("/api/reminders/{id}/whatsapp", "get"),
        ("/api/reminders/{id}/whatsapp", "post"),
        ("/api/clients/{id}/statement/whatsapp", "get"),
        ("/api/clients/{id}/statement/whatsapp", "post"),
        ("/api/documents/{id}/share/{share_id}/revoke", "post"),
        ("/api/previews/sample", "post"),
        ("/api/modules/{id}/notify", "post"),
        ("/api/settings/template", "get"),
        ("/api/settings/template", "put"),
        ("/api/settings/template/logo", "post"),
        ("/api/settings/share", "get"),
        ("/api/settings/share", "put"),
        ("/api/settings/mail", "get"),
        ("/api/settings/mail", "put"),
        ("/api/settings/mail/test", "post"),
        ("/api/email-log", "get"),
        ("/api/email-log.csv", "get"),
        ("/api/payments", "get"),
        ("/api/payments", "post"),
        ("/api/payments/{id}", "get"),
        ("/api/payments/{id}/allocate", "post"),
        ("/api/payments/{id}/receipt.pdf", "get"),
        ("/api/reports/dues-aging", "get"),
        ("/api/reports/dues-aging/invoices", "get"),
        ("/api/reports/dues-aging.csv", "get"),
        ("/api/reports/gst-summary", "get"),
        ("/api/reports/gst-summary.csv", "get"),
        ("/api/tds/26as", "post"),
        ("/api/client-modules/{id}/renewal-quote", "post"),
        ("/api/client-modules/{id}/bulk-sms-quote", "post"),
        // The Excel twin of every CSV download (decisions 12, "Excel").
        ("/api/audit.xlsx", "get"),
        ("/api/clients.xlsx", "get"),
        ("/api/clients/{id}/statement.xlsx", "get"),
        ("/api/cloud-costs.xlsx", "get"),
        ("/api/cloud-costs/ranking.xlsx", "get"),
        ("/api/documents.xlsx", "get"),
        ("/api/email-log.xlsx", "get"),
        ("/api/employees.xlsx", "get"),
        ("/api/import/rows.xlsx", "get"),
        ("/api/import/sample.xlsx", "get"),
        ("/api/login-events.xlsx", "get"),
        ("/api/module-data.xlsx", "get"),
        ("/api/modules.xlsx", "get"),
        ("/api/modules/{id}/clients.xlsx", "get"),
        ("/api/payments.xlsx", "get"),
        ("/api/pipeline.xlsx", "get"),
        ("/api/portals.xlsx", "get"),
        ("/api/recurring-plans.xlsx", "get"),
        ("/api/reminders.xlsx", "get"),
        ("/api/renewals.xlsx", "get"),
        ("/api/reports/client-profitability.xlsx", "get"),
        ("/api/reports/dues-aging.xlsx", "get"),
        ("/api/reports/gst-summary.xlsx", "get"),
        ("/api/reports/module-revenue.xlsx", "get"),
        ("/api/reports/number-continuity.xlsx", "get"),
        ("/api/reports/sms-balances.xlsx", "get"),
        ("/api/reports/tds-receivable.xlsx", "get"),
        ("/api/service-contracts.xlsx", "get"),
        ("/api/statements/year-end.xlsx", "get"),
        ("/api/tickets.xlsx", "get"),
    ];
    for (path, method) in expected {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} is documented"
        );
    }
    assert!(doc.body["components"]["schemas"]["Employee"].is_object());
    assert!(doc.body["components"]["securitySchemes"]["session"].is_object());
}

/// The staff list is everyone's picker, but only the owner reads the sign-in state: a manager's
/// and a staff user's rows carry the picker's fields and nothing else (issue 33).
#[tokio::test]
async fn non_owners_read_the_pickers_fields_only() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (staff_id, staff_pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let (_, manager_pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let staff = app.login("staff@coop.in", &staff_pw).await;
    let manager = app.login("manager@coop.in", &manager_pw).await;
    app.try_login("staff@coop.in", "a wrong guess").await;
    let picker = [
        "active", "email", "id", "name", "phone", "role", "title", "username",
    ];
    let account = [
        "active",
        "created_at",
        "email",
        "failed_count",
        "id",
        "locked_until",
        "mustChangePassword",
        "name",
        "phone",
        "role",
        "title",
        "updated_at",
        "username",
    ];
    for (who, cookie, keys) in [
        ("owner", &owner, &account[..]),
        ("manager", &manager, &picker[..]),
        ("staff", &staff, &picker[..]),
    ] {
        let list = app.get("/api/employees?sort=email&role=staff", cookie).await;
        assert_eq!(list.status, StatusCode::OK, "{who}: {}", list.text);
        assert_eq!(
            (list.body["total"].as_i64(), list.body["page"].as_i64()),
            (Some(1), Some(1))
        );
        let row = list.body["rows"][0].as_object().unwrap();
        let mut got: Vec<&str> = row.keys().map(String::as_str).collect();
        got.sort_unstable();
        assert_eq!(got, keys, "{who}");
        assert_eq!(
            (
                row["id"].as_str(),
                row["username"].as_str(),
                row["active"].as_i64()
            ),
            (Some(staff_id.as_str()), Some("staff@coop.in"), Some(1)),
            "{who}"
        );
    }
    let owner_row = app.get("/api/employees?role=staff", &owner).await;
    assert_eq!(owner_row.body["rows"][0]["failed_count"], 1);
    // The CSV twin holds the picker's fields for everyone.
    let csv = app.get("/api/employees.csv?role=staff", &staff).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert_eq!(
        csv.text.lines().collect::<Vec<_>>(),
        [
            "Name,Username,Email,Role,Status,Phone,Title",
            "staff@coop.in,staff@coop.in,staff@coop.in,staff,active,,"
        ]
    );
}

/// A new password that is short or easy to guess is refused with zxcvbn's reason on the field:
/// an invitation's `password`, one's own `new_password` (issue 33).
#[tokio::test]
async fn weak_new_passwords_are_refused_with_the_reason() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let guessable = "This password is too easy to guess. This is a very common password. Add another word or two. Uncommon words are better.";
    for (password, message) in [
        ("password123", guessable),
        ("short", "Use at least 10 characters."),
    ] {
        let reply = app
            .post(
                "/api/employees",
                &owner,
                json!({ "email": "meera@coop.in", "name": "Meera", "role": "staff", "password": password }),
            )
            .await;
        assert_eq!(
            (
                reply.status,
                reply.code(),
                reply.body["error"]["field"].as_str(),
                reply.body["error"]["message"].as_str()
            ),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "weak_password",
                Some("password"),
                Some(message)
            ),
            "{password}"
        );
    }
    // The person's own name and address count as guessable words.
    let reply = app
        .post(
            "/api/employees",
            &owner,
            json!({ "email": "meera@coop.in", "name": "Meera Pillai", "role": "staff", "password": "pillaimeera" }),
        )
        .await;
    assert_eq!(
        (
            reply.status,
            reply.code(),
            reply.body["error"]["message"].as_str()
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "weak_password",
            Some("This password is too easy to guess. Add another word or two. Uncommon words are better.")
        ),
        "{}",
        reply.text
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM staff"), 1, "nothing written");
    // The same letters are no weakness for somebody else.
    let reply = app
        .post(
            "/api/employees",
            &owner,
            json!({ "email": "ravi@coop.in", "name": "Ravi", "role": "staff", "password": "pillaimeera" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    let reply = app
        .post(
            "/api/employees",
            &owner,
            json!({ "email": "meera@coop.in", "name": "Meera Pillai", "role": "staff", "password": "Kumily-ledger-2026" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);

    let reply = app
        .post(
            "/api/me/password",
            &owner,
            json!({ "current_password": crate::common::OWNER_PASSWORD, "new_password": "password123" }),
        )
        .await;
    assert_eq!(
        (
            reply.status,
            reply.code(),
            reply.body["error"]["field"].as_str(),
            reply.body["error"]["message"].as_str()
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "weak_password",
            Some("new_password"),
            Some(guessable)
        )
    );
    assert_eq!(
        app.count("SELECT failed_count FROM staff WHERE role = 'owner'"),
        0,
        "a right current password counts no failure"
    );
}
