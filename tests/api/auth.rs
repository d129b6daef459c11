//! Signing in: outcomes, lockout, rate limits, sessions, CSRF, own profile and password.

use crate::common::{Call, OWNER, OWNER_PASSWORD, TestApp};
use axum::http::{Method, StatusCode, header};
use backoffice::auth::rules::{DUMMY_VERIFICATIONS, hash_token};
use serde_json::json;

#[tokio::test]
async fn login_success_sets_a_strict_cookie_and_stores_only_the_token_hash() {
    let app = TestApp::new();
    let reply = app.try_login(OWNER, OWNER_PASSWORD).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["outcome"], "success");
    assert_eq!(reply.body["mustChangePassword"], true);
    assert_eq!(reply.body["user"]["role"], "owner");
    assert_eq!(reply.body["user"]["username"], OWNER);
    let set_cookie = reply.headers[header::SET_COOKIE].to_str().unwrap().to_string();
    for part in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set_cookie.contains(part), "{set_cookie}");
    }
    assert!(
        !set_cookie.contains("Secure"),
        "plain HTTP without a trusted proxy is not Secure"
    );
    let token = reply
        .session_cookie()
        .trim_start_matches("bo_session=")
        .to_string();
    assert_eq!(token.len(), 64);
    let stored: String = app
        .sql()
        .query_row("SELECT token_hash FROM session", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored, hash_token(&token));
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) FROM session WHERE token_hash = '{token}'"
        )),
        0
    );
    let (outcome, ip): (String, String) = app
        .sql()
        .query_row("SELECT outcome, ip FROM login_event", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!((outcome.as_str(), ip.as_str()), ("success", "127.0.0.1"));
}

#[tokio::test]
async fn email_is_the_legacy_fallback_and_an_alias_key() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let reply = app.post("/api/employees", &owner, json!({ "email": "ravi@coop.in", "username": "ravi", "name": "Ravi", "role": "staff", "password": "Kumily-ledger-2026" })).await;
    assert_eq!(reply.status, StatusCode::CREATED);
    app.login("ravi", "Kumily-ledger-2026").await;
    app.login("ravi@coop.in", "Kumily-ledger-2026").await;
    let reply = app
        .send(
            Call::new(Method::POST, "/api/auth/login")
                .json(json!({ "email": "RAVI@coop.in", "password": "Kumily-ledger-2026" })),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

#[tokio::test]
async fn wrong_password_and_unknown_user_get_one_answer_and_unknown_costs_a_dummy_hash() {
    let app = TestApp::new();
    let login = |username: &str, password: &str| {
        Call::new(Method::POST, "/api/auth/login").json(json!({ "username": username, "password": password }))
    };
    // The counter is the process's: counted with no other test's request in flight.
    let (wrong, dummies) = app
        .send_counting(login(OWNER, "not the password"), &DUMMY_VERIFICATIONS)
        .await;
    assert_eq!(
        dummies, 0,
        "a known user's password is checked against their own hash"
    );
    let (unknown, dummies) = app
        .send_counting(login("nobody@nowhere.in", "whatever"), &DUMMY_VERIFICATIONS)
        .await;
    assert_eq!(dummies, 1, "the unknown user took the dummy-hash path");
    for reply in [&wrong, &unknown] {
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        assert_eq!(reply.body["outcome"], "failed");
        assert_eq!(reply.code(), "invalid_credentials");
        assert!(reply.headers.get(header::SET_COOKIE).is_none());
    }
    assert_eq!(wrong.body["error"]["message"], unknown.body["error"]["message"]);
    assert_eq!(app.count("SELECT failed_count FROM staff"), 1);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM login_event WHERE outcome = 'failed' AND staff_id IS NOT NULL"),
        1
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM login_event WHERE outcome = 'failed' AND staff_id IS NULL AND username = 'nobody@nowhere.in'"),
        1
    );
}

#[tokio::test]
async fn eight_failures_lock_the_account_for_fifteen_minutes() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let reply = app.post("/api/employees", &owner, json!({ "email": "kiran@coop.in", "username": "kiran", "name": "Kiran", "role": "staff", "password": "Kumily-ledger-2026" })).await;
    let id = reply.body["id"].as_str().unwrap().to_string();
    for attempt in 1..=8 {
        let reply = app.try_login("kiran", "wrong password").await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "attempt {attempt}");
    }
    let row = format!("SELECT locked_until FROM staff WHERE id = '{id}'");
    let locked_until: String = app.sql().query_row(&row, [], |r| r.get(0)).unwrap();
    let until = chrono::DateTime::parse_from_rfc3339(&locked_until).unwrap();
    let seconds = (until.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_seconds();
    assert!((14 * 60..=15 * 60).contains(&seconds), "locked for {seconds}s");

    // The username's window is used up (8 per 15 minutes); the same account by email is another key.
    let reply = app.try_login("kiran@coop.in", "Kumily-ledger-2026").await;
    assert_eq!(reply.status, StatusCode::LOCKED, "{}", reply.text);
    assert_eq!(reply.body["outcome"], "locked");
    assert_eq!(reply.code(), "locked");
    assert_eq!(reply.body["locked_until"], locked_until.as_str());
    assert_eq!(
        app.count("SELECT COUNT(*) FROM login_event WHERE outcome = 'locked'"),
        1
    );
    assert_eq!(
        app.count(&format!("SELECT COUNT(*) FROM session WHERE staff_id = '{id}'")),
        0
    );

    // Once the lock has passed, the right password works and clears the counter.
    app.sql()
        .execute("UPDATE staff SET locked_until = '2000-01-01T00:00:00Z'", [])
        .unwrap();
    let reply = app.try_login("KIRAN@coop.in", "Kumily-ledger-2026").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        app.count(&format!("SELECT failed_count FROM staff WHERE id = '{id}'")),
        0
    );
    assert_eq!(
        app.count(&format!(
            "SELECT COUNT(*) FROM staff WHERE id = '{id}' AND locked_until IS NULL"
        )),
        1
    );
}

#[tokio::test]
async fn success_clears_the_failure_counter() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (_, password) = app.invite(&owner, "meera@coop.in", "staff").await;
    for _ in 0..5 {
        app.try_login("meera@coop.in", "wrong password").await;
    }
    assert_eq!(
        app.count("SELECT failed_count FROM staff WHERE email = 'meera@coop.in'"),
        5
    );
    app.login("MEERA@coop.in", &password).await;
    assert_eq!(
        app.count("SELECT failed_count FROM staff WHERE email = 'meera@coop.in'"),
        0
    );
}

#[tokio::test]
async fn per_identifier_limit_is_eight_per_window_with_retry_after() {
    let app = TestApp::new();
    for _ in 0..8 {
        assert_eq!(app.try_login("anna", "x").await.status, StatusCode::UNAUTHORIZED);
    }
    let reply = app.try_login("ANNA", "x").await;
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(reply.code(), "rate_limited");
    let retry: u64 = reply.headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=900).contains(&retry), "{retry}");
    assert_eq!(
        app.try_login("anna@example.com", "x").await.status,
        StatusCode::UNAUTHORIZED,
        "another key"
    );
    // Every attempt is recorded: the refusal as `limited`, and a second refusal for the same
    // identifier (in any case) from the same address adds to that row rather than a new one.
    assert_eq!(
        app.try_login("Anna", "x").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    let rows: Vec<(String, String, i64)> = app
        .sql()
        .prepare(
            "SELECT username, outcome, attempts FROM login_event WHERE lower(username) = 'anna' ORDER BY id",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut expected = vec![("anna".to_string(), "failed".to_string(), 1); 8];
    expected.push(("ANNA".into(), "limited".into(), 2));
    assert_eq!(rows, expected);
}

#[tokio::test]
async fn per_address_limit_uses_forwarded_for_only_from_the_trusted_proxy() {
    let app = TestApp::with_config(|c| c.trusted_proxy = Some("127.0.0.1".parse().unwrap()));
    let attempt = |user: String, ip: &'static str| {
        let call = Call::new(Method::POST, "/api/auth/login")
            .json(json!({ "username": user, "password": "x" }))
            .header("x-forwarded-for", &format!("203.0.113.9, {ip}"));
        app.send(call)
    };
    for i in 0..20 {
        assert_eq!(
            attempt(format!("user{i}"), "10.1.1.1").await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    // Refused by the address's limiter: one `limited` row for the address in its window,
    // whatever name each refused attempt tries (a flood of new names adds no rows).
    for user in ["user99", "user97", "user96"] {
        assert_eq!(
            attempt(user.into(), "10.1.1.1").await.status,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
    assert_eq!(
        attempt("user98".into(), "10.1.1.2").await.status,
        StatusCode::UNAUTHORIZED,
        "another address"
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM login_event WHERE ip = '10.1.1.1' AND outcome = 'failed'"),
        20
    );
    let limited: (String, String, i64) = app
        .sql()
        .query_row(
            "SELECT username, ip, attempts FROM login_event WHERE outcome = 'limited'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(limited, ("user99".into(), "10.1.1.1".into(), 3));

    // Without a trusted proxy the header is ignored: everyone is the peer address.
    let app = TestApp::new();
    for i in 0..20 {
        let call = Call::new(Method::POST, "/api/auth/login")
            .json(json!({ "username": format!("u{i}"), "password": "x" }))
            .header("x-forwarded-for", &format!("10.9.9.{i}"));
        assert_eq!(app.send(call).await.status, StatusCode::UNAUTHORIZED);
    }
    let call = Call::new(Method::POST, "/api/auth/login")
        .json(json!({ "username": "u77", "password": "x" }))
        .header("x-forwarded-for", "10.9.9.77");
    assert_eq!(app.send(call).await.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM login_event WHERE ip <> '127.0.0.1'"),
        0
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM login_event WHERE ip = '127.0.0.1' AND outcome = 'limited'"),
        1
    );
}

#[tokio::test]
async fn https_through_the_trusted_proxy_gets_a_secure_cookie() {
    let app = TestApp::with_config(|c| c.trusted_proxy = Some("127.0.0.1".parse().unwrap()));
    let call = Call::new(Method::POST, "/api/auth/login")
        .json(json!({ "username": OWNER, "password": OWNER_PASSWORD }))
        .header("x-forwarded-proto", "https");
    let reply = app.send(call).await;
    assert!(
        reply.headers[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .contains("; Secure")
    );
}

#[tokio::test]
async fn deactivated_account_with_the_right_password_is_told_inactive() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (id, password) = app.invite(&owner, "gone@coop.in", "staff").await;
    let staff = app.login("gone@coop.in", &password).await;
    assert_eq!(app.get("/api/me", &staff).await.status, StatusCode::OK);
    let reply = app
        .post(&format!("/api/employees/{id}/deactivate"), &owner, json!({}))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["active"], 0);
    assert_eq!(
        app.get("/api/me", &staff).await.status,
        StatusCode::UNAUTHORIZED,
        "the session ended"
    );
    assert_eq!(
        app.count(&format!("SELECT COUNT(*) FROM session WHERE staff_id = '{id}'")),
        0
    );
    let reply = app.try_login("gone@coop.in", &password).await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNAUTHORIZED, "inactive")
    );
    assert_eq!(
        app.post(&format!("/api/employees/{id}/reactivate"), &owner, json!({}))
            .await
            .status,
        StatusCode::OK
    );
    app.login("gone@coop.in", &password).await;
}

#[tokio::test]
async fn logout_ends_the_session_and_clears_the_cookie() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let reply = app.post("/api/auth/logout", &owner, json!({})).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    assert!(
        reply.headers[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(app.get("/api/me", &owner).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.count("SELECT COUNT(*) FROM session"), 0);
}

#[tokio::test]
async fn sessions_expire_when_idle_and_at_the_absolute_limit() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.sql()
        .execute("UPDATE session SET last_seen_at = '2000-01-01T00:00:00Z'", [])
        .unwrap();
    let reply = app.get("/api/me", &owner).await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNAUTHORIZED, "session_expired")
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM session"),
        0,
        "the dead session is removed"
    );

    let owner = app.owner().await;
    app.sql()
        .execute("UPDATE session SET expires_at = '2000-01-01T00:00:00Z'", [])
        .unwrap();
    assert_eq!(app.get("/api/me", &owner).await.status, StatusCode::UNAUTHORIZED);

    let reply = app.get("/api/me", "bo_session=0000").await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNAUTHORIZED, "unauthenticated")
    );
    assert_eq!(
        app.send(Call::new(Method::GET, "/api/me")).await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn own_password_change_needs_the_current_one_and_ends_other_sessions() {
    let app = TestApp::new();
    let here = app.owner().await;
    let elsewhere = app.owner().await;
    let reply = app
        .post(
            "/api/me/password",
            &here,
            json!({ "current_password": "wrong", "new_password": "Kumily-ledger-2026" }),
        )
        .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "wrong_password")
    );
    assert_eq!(reply.body["error"]["field"], "current_password");
    let reply = app
        .post(
            "/api/me/password",
            &here,
            json!({ "current_password": OWNER_PASSWORD, "new_password": "short" }),
        )
        .await;
    assert_eq!(
        (reply.status, reply.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("new_password"))
    );
    assert_eq!(
        app.get("/api/me", &elsewhere).await.status,
        StatusCode::OK,
        "refusals changed nothing"
    );

    let reply = app
        .post(
            "/api/me/password",
            &here,
            json!({ "current_password": OWNER_PASSWORD, "new_password": "Kumily-ledger-2026" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.text);
    let me = app.get("/api/me", &here).await;
    assert_eq!(me.status, StatusCode::OK, "the current session survives");
    assert_eq!(me.body["mustChangePassword"], false);
    assert_eq!(
        app.get("/api/me", &elsewhere).await.status,
        StatusCode::UNAUTHORIZED,
        "the other session died"
    );
    assert_eq!(
        app.try_login(OWNER, OWNER_PASSWORD).await.status,
        StatusCode::UNAUTHORIZED
    );
    app.login(OWNER, "Kumily-ledger-2026").await;
    let after: String = app
        .sql()
        .query_row(
            "SELECT after FROM audit WHERE action = 'password_changed'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!after.contains("argon2") && !after.contains("Kumily"), "{after}");
}

#[tokio::test]
async fn own_profile_takes_whitelisted_fields_only() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let reply = app
        .patch(
            "/api/me",
            &owner,
            json!({ "name": "Latha Nair", "phone": "+91 94470 12345" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        (reply.body["name"].as_str(), reply.body["phone"].as_str()),
        (Some("Latha Nair"), Some("+91 94470 12345"))
    );
    for (field, value) in [
        ("role", json!("staff")),
        ("email", json!("x@y.in")),
        ("username", json!("boss")),
    ] {
        let reply = app.patch("/api/me", &owner, json!({ field: value })).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{field}");
        assert_eq!(reply.body["error"]["field"], field);
    }
    let reply = app.patch("/api/me", &owner, json!({ "phone": "call me" })).await;
    assert_eq!(
        (reply.status, reply.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("phone"))
    );
    let me = app.get("/api/me", &owner).await;
    assert_eq!(
        (me.body["role"].as_str(), me.body["phone"].as_str()),
        (Some("owner"), Some("+91 94470 12345"))
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE action = 'update_profile'"),
        1
    );
}

#[tokio::test]
async fn csrf_needs_json_and_a_matching_origin() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let body = r#"{"email":"x@coop.in","name":"X","role":"staff"}"#;
    let reply = app
        .send(
            Call::new(Method::POST, "/api/employees")
                .cookie(&owner)
                .raw(body, Some("text/plain")),
        )
        .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
    );
    let reply = app
        .send(
            Call::new(Method::POST, "/api/employees")
                .cookie(&owner)
                .raw(body, None),
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let reply = app
        .send(
            Call::new(Method::POST, "/api/employees")
                .cookie(&owner)
                .raw(body, Some("application/json"))
                .header("origin", "http://evil.example"),
        )
        .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::FORBIDDEN, "cross_origin")
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM staff"),
        1,
        "refused requests wrote nothing"
    );
    let reply = app
        .send(
            Call::new(Method::POST, "/api/employees")
                .cookie(&owner)
                .raw(body, Some("application/json; charset=utf-8"))
                .header("origin", "http://localhost"),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
}

#[tokio::test]
async fn a_failing_login_event_write_never_breaks_login() {
    let app = TestApp::new();
    app.sql()
        .execute_batch(
            "DROP INDEX login_event_staff; DROP INDEX login_event_outcome; DROP TABLE login_event;",
        )
        .unwrap();
    let reply = app.try_login(OWNER, OWNER_PASSWORD).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        app.try_login(OWNER, "wrong").await.status,
        StatusCode::UNAUTHORIZED
    );
}

/// The outcome and attempts of the login events of `username`, oldest first.
fn events_of(app: &TestApp, username: &str) -> Vec<(String, Option<String>, i64)> {
    app.sql()
        .prepare("SELECT outcome, staff_id, attempts FROM login_event WHERE username = ?1 ORDER BY id")
        .unwrap()
        .query_map([username], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A wrong current password is a failed sign-in of the account (decisions 12): it adds to the
/// same counter as a wrong sign-in, records a `failed` login event, answers 422 on
/// `current_password`, and the failure that reaches the limit locks the account and answers 423
/// as a locked sign-in does (issue 33).
#[tokio::test]
async fn a_wrong_current_password_counts_as_a_failed_sign_in_and_locks() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let reply = app.post("/api/employees", &owner, json!({ "email": "kiran@coop.in", "username": "Kiran", "name": "Kiran", "role": "staff", "password": "Kumily-ledger-2026" })).await;
    let id = reply.body["id"].as_str().unwrap().to_string();
    let kiran = app.login("kiran@coop.in", "Kumily-ledger-2026").await;
    // Two wrong sign-ins, then wrong current passwords: one counter.
    for _ in 0..2 {
        app.try_login("kiran@coop.in", "wrong guess").await;
    }
    let change = |current: &str| {
        app.post(
            "/api/me/password",
            &kiran,
            json!({ "current_password": current, "new_password": "Vembanad-boatrace-88" }),
        )
    };
    let failed_count = || app.count(&format!("SELECT failed_count FROM staff WHERE id = '{id}'"));
    for attempt in 3..=7 {
        let reply = change("a guess at it").await;
        assert_eq!(
            (
                reply.status,
                reply.code(),
                reply.body["error"]["field"].as_str(),
                reply.body["error"]["message"].as_str()
            ),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "wrong_password",
                Some("current_password"),
                Some("The current password is not right.")
            ),
            "attempt {attempt}"
        );
        assert_eq!(failed_count(), attempt);
    }
    // The 8th failure locks the account: 423 with the body of a locked sign-in.
    let reply = change("a guess at it").await;
    assert_eq!(reply.status, StatusCode::LOCKED, "{}", reply.text);
    assert_eq!(
        (reply.code(), &reply.body["outcome"]),
        ("locked", &json!("locked"))
    );
    let locked_until: String = app
        .sql()
        .query_row(
            &format!("SELECT locked_until FROM staff WHERE id = '{id}'"),
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(reply.body["locked_until"], locked_until.as_str());
    assert_eq!(failed_count(), 0, "the lock clears the counter, as at sign-in");
    let failed = ("failed".to_string(), Some(id.clone()), 1);
    assert_eq!(events_of(&app, "Kiran"), vec![failed; 6]);
    assert_eq!(
        events_of(&app, "kiran@coop.in").len(),
        3,
        "the success and two wrong sign-ins"
    );
    // Locked: sign-in by email answers the same 423.
    let login = app.try_login("kiran@coop.in", "Kumily-ledger-2026").await;
    assert_eq!((login.status, login.code()), (StatusCode::LOCKED, "locked"));
}

/// A locked account's password change answers 423 before any hashing and counts nothing more;
/// a tripped limiter answers 429 with Retry-After, shared with sign-in: the username's window
/// holds sign-ins and password changes alike, and each refusal is recorded as `limited` on one
/// row per window (issue 33).
#[tokio::test]
async fn the_password_change_shares_the_lock_and_the_limiters_of_sign_in() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.post("/api/employees", &owner, json!({ "email": "meera@coop.in", "username": "meera", "name": "Meera", "role": "staff", "password": "Kumily-ledger-2026" })).await;
    let meera = app.login("meera", "Kumily-ledger-2026").await;
    let id: String = app
        .sql()
        .query_row("SELECT id FROM staff WHERE username = 'meera'", [], |r| r.get(0))
        .unwrap();
    let body = json!({ "current_password": "Kumily-ledger-2026", "new_password": "Vembanad-boatrace-88" });

    // Locked: 423 even with the right password, no hashing, no failure counted.
    app.sql()
        .execute(
            "UPDATE staff SET locked_until = '2999-01-01T00:00:00Z', failed_count = 3 WHERE username = 'meera'",
            [],
        )
        .unwrap();
    let reply = app.post("/api/me/password", &meera, body.clone()).await;
    assert_eq!(
        (reply.status, reply.code(), reply.body["locked_until"].as_str()),
        (StatusCode::LOCKED, "locked", Some("2999-01-01T00:00:00Z"))
    );
    assert_eq!(
        app.count("SELECT failed_count FROM staff WHERE username = 'meera'"),
        3
    );
    app.sql()
        .execute(
            "UPDATE staff SET locked_until = NULL, failed_count = 0 WHERE username = 'meera'",
            [],
        )
        .unwrap();

    // One sign-in and one refused change so far; six more wrong sign-ins as "MEERA" fill the
    // username's window of 8.
    for _ in 0..6 {
        app.try_login("MEERA", "wrong guess").await;
    }
    let reply = app.post("/api/me/password", &meera, body.clone()).await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
    );
    let retry: u64 = reply.headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=900).contains(&retry), "{retry}");
    assert_eq!(
        app.count("SELECT failed_count FROM staff WHERE username = 'meera'"),
        6,
        "a refused attempt checks nothing"
    );
    // A refused sign-in for the same name from the same address adds to the same row.
    assert_eq!(
        app.try_login("meera", "Kumily-ledger-2026").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    let limited: Vec<(String, Option<String>, i64)> = app
        .sql()
        .prepare("SELECT username, staff_id, attempts FROM login_event WHERE outcome = 'limited'")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(limited, [("meera".to_string(), Some(id.clone()), 2)]);
    assert_eq!(
        events_of(&app, "meera")
            .iter()
            .map(|(outcome, _, _)| outcome.as_str())
            .collect::<Vec<_>>(),
        ["success", "locked", "limited"]
    );

    // The owner reads it in the history: filtered by outcome, with its attempts, in the CSV too.
    let list = app.get("/api/login-events?outcome=limited", &owner).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    assert_eq!(list.body["total"], 1);
    let row = &list.body["rows"][0];
    assert_eq!(
        (
            row["username"].as_str(),
            row["outcome"].as_str(),
            row["attempts"].as_i64(),
            row["staff_id"].as_str(),
            row["ip"].as_str()
        ),
        (
            Some("meera"),
            Some("limited"),
            Some(2),
            Some(id.as_str()),
            Some("127.0.0.1")
        )
    );
    let all = app.get("/api/login-events?per_page=200", &owner).await;
    assert!(
        all.body["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["attempts"] == if r["outcome"] == "limited" { 2 } else { 1 }),
        "{}",
        all.text
    );
    let csv = app.get("/api/login-events.csv?outcome=limited", &owner).await;
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines[0], "Time,User,Outcome,IP address,Device,Attempts");
    assert_eq!(lines.len(), 2);
    assert!(
        lines[1].ends_with(",meera,limited,127.0.0.1,Unknown device,2"),
        "{}",
        lines[1]
    );
}
