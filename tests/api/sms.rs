//! SMS balances pulled from a fake gateway on loopback (the real wire format, decisions 7): each
//! reply shape, audit only on change, telemetry on every poll, the report and its CSV of logins,
//! the refresh routes and their refusals, the scheduled pass, and the operations settings.

use crate::common::gateway::FakeGateway;
use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use std::time::Duration;

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

struct Office {
    app: TestApp,
    gateway: FakeGateway,
    owner: String,
    manager: String,
    staff: String,
    staff_id: String,
    sms: String,
}

/// An office that may call loopback (the fake gateway) with a 1-second timeout, an SMS module,
/// an owner, a manager and a staff user; the gateway address stored.
async fn office() -> Office {
    let app = TestApp::with_config(|c| {
        c.allow_private_targets = true;
        c.outbound_timeout = Duration::from_secs(1);
    });
    let gateway = FakeGateway::start();
    let owner = app.owner().await;
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let (staff_id, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    let sms = app
        .post(
            "/api/modules",
            &owner,
            json!({ "code": "SMS", "name": "Bulk SMS", "sac": "998413", "gst_rate": 18 }),
        )
        .await;
    assert_eq!(sms.status, StatusCode::CREATED, "{}", sms.text);
    let set = put_operations(&app, &owner, json!({ "sms.balance_api_url": gateway.url })).await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text);
    Office {
        sms: id(&sms.body),
        app,
        gateway,
        owner,
        manager,
        staff,
        staff_id,
    }
}

async fn put_operations(app: &TestApp, cookie: &str, body: Value) -> crate::common::Reply {
    app.send(
        Call::new(Method::PUT, "/api/settings/operations")
            .cookie(cookie)
            .json(body),
    )
    .await
}

impl Office {
    /// A client with an SMS subscription whose gateway login is `username` / `{username}-pw-7Q`;
    /// answers (client id, subscription id).
    async fn subscriber(&self, name: &str, username: &str) -> (String, String) {
        let client = self
            .app
            .post(
                "/api/clients",
                &self.owner,
                json!({ "name": name, "state_code": "32" }),
            )
            .await;
        assert_eq!(client.status, StatusCode::CREATED, "{}", client.text);
        let cm = self
            .app
            .post(
                "/api/client-modules",
                &self.owner,
                json!({ "client_id": id(&client.body), "module_id": self.sms }),
            )
            .await;
        assert_eq!(cm.status, StatusCode::CREATED, "{}", cm.text);
        let login = self
            .app
            .patch(
                &format!("/api/client-modules/{}", id(&cm.body)),
                &self.owner,
                json!({ "provider": "MSG91", "username": username, "password": format!("{username}-pw-7Q") }),
            )
            .await;
        assert_eq!(login.status, StatusCode::OK, "{}", login.text);
        (id(&client.body), id(&cm.body))
    }

    /// A subscriber whose gateway account holds `balance`.
    async fn account(&self, name: &str, username: &str, balance: i64) -> (String, String) {
        self.gateway
            .account(username, &format!("{username}-pw-7Q"), balance);
        self.subscriber(name, username).await
    }

    async fn refresh_all(&self, cookie: &str) -> crate::common::Reply {
        self.app
            .post("/api/reports/sms-balances/refresh", cookie, json!({}))
            .await
    }

    /// (sms_balance, sms_flag, sms_checked_at is set) of a subscription.
    fn stored(&self, cm: &str) -> (Option<i64>, Option<String>, bool) {
        self.app
            .sql()
            .query_row(
                "SELECT sms_balance, sms_flag, sms_checked_at IS NOT NULL FROM client_module WHERE id = ?1",
                [cm],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap()
    }

    /// The outcomes of the polls of a subscription, oldest first.
    fn checks(&self, cm: &str) -> Vec<(String, Option<i64>, Option<String>)> {
        self.app
            .sql()
            .prepare("SELECT outcome, balance, error FROM sms_balance_check WHERE client_module_id = ?1 ORDER BY at, id")
            .unwrap()
            .query_map([cm], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    fn balance_audits(&self, cm: &str) -> Vec<(Option<String>, String, String)> {
        self.app
            .sql()
            .prepare("SELECT user_id, before, after FROM audit WHERE action = 'sms_balance' AND entity_id = ?1 ORDER BY at, id")
            .unwrap()
            .query_map([cm], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }
}

#[tokio::test]
async fn each_reply_shape_is_read_or_flagged_and_a_flag_keeps_the_last_balance() {
    let o = office().await;
    let (_, ok) = o.account("ANCHAL SCB", "anchal", 1520).await;
    let (_, error) = o.subscriber("KOTTARAKKARA PACS", "kottarakkara").await; // wrong login
    let (_, garbage) = o.account("PUNALUR SCB", "punalur", 10).await;
    let (_, empty) = o.account("KOLLAM STORES", "kollam", 10).await;
    let (_, huge) = o.account("KARUNAGAPPALLY SCB", "karunagappally", 10).await;
    let (_, slow) = o.account("CHADAYAMANGALAM SCB", "chadayamangalam", 10).await;
    let (_, spaced) = o.account("PATHANAPURAM SCB", "pathanapuram", 10).await;
    o.gateway
        .answer_raw("punalur", 200, "<html><body>Service Unavailable</body></html>");
    o.gateway.answer_raw("kollam", 200, "");
    o.gateway.answer_raw("karunagappally", 200, &"9".repeat(10_000));
    o.gateway.slow("chadayamangalam", Duration::from_secs(3));
    o.gateway
        .answer_raw("pathanapuram", 200, "200|OK|Balance: 1,20,000\r\n");
    // Balances known from before: a flag must keep them.
    for cm in [&error, &garbage, &slow] {
        let set = o
            .app
            .patch(
                &format!("/api/client-modules/{cm}"),
                &o.owner,
                json!({ "sms_balance": 900 }),
            )
            .await;
        assert_eq!(set.status, StatusCode::OK, "{}", set.text);
    }

    let pulled = o.refresh_all(&o.manager).await;
    assert_eq!(pulled.status, StatusCode::OK, "{}", pulled.text);
    assert_eq!(
        pulled.body,
        json!({ "total": 7, "updated": 2, "unchanged": 0, "flagged": 5, "unreachable": 1 })
    );
    assert_eq!(o.stored(&ok), (Some(1520), None, true));
    assert_eq!(o.stored(&spaced), (Some(120_000), None, true));
    assert_eq!(
        o.stored(&error),
        (Some(900), Some("401 Invalid login".into()), true)
    );
    let record = o.app.get(&format!("/api/client-modules/{error}"), &o.staff).await;
    assert_eq!(
        record.status,
        StatusCode::NOT_FOUND,
        "not in the staff user's book"
    );
    let record = o
        .app
        .get(&format!("/api/client-modules/{error}"), &o.manager)
        .await;
    assert_eq!(
        (
            record.body["sms_balance"].as_i64(),
            record.body["sms_flag"].as_str()
        ),
        (Some(900), Some("401 Invalid login")),
        "{}",
        record.text
    );
    assert!(record.body["sms_checked_at"].is_string());
    let (balance, flag, _) = o.stored(&garbage);
    assert_eq!(balance, Some(900));
    assert!(flag.unwrap().contains("not code|STATUS|payload"));
    let (balance, flag, _) = o.stored(&empty);
    assert_eq!(
        (balance, flag.as_deref()),
        (None, Some("The gateway answered HTTP 200 with nothing."))
    );
    assert_eq!(
        o.stored(&huge).1.as_deref(),
        Some("The gateway's answer is refused: the answer is larger than 4096 bytes.")
    );
    let (balance, flag, _) = o.stored(&slow);
    assert_eq!(
        (balance, flag.as_deref()),
        (
            Some(900),
            Some("The gateway did not answer: no answer within 1 seconds.")
        )
    );
    // One telemetry row per poll with its outcome.
    let outcome = |cm: &str| o.checks(cm)[0].0.clone();
    assert_eq!(
        [&ok, &error, &garbage, &empty, &huge, &slow, &spaced].map(|cm| outcome(cm)),
        [
            "ok",
            "error",
            "malformed",
            "malformed",
            "malformed",
            "unreachable",
            "ok"
        ]
    );
    assert_eq!(o.checks(&ok), [("ok".to_string(), Some(1520), None)]);
    assert_eq!(o.app.count("SELECT COUNT(*) FROM sms_balance_check"), 7);
    // The login went to the gateway in the query.
    assert!(
        o.gateway
            .queries()
            .contains(&"username=anchal&password=anchal-pw-7Q".to_string()),
        "{:?}",
        o.gateway.queries()
    );

    // A later good answer clears the flag.
    o.gateway.account("kottarakkara", "kottarakkara-pw-7Q", 75);
    let again = o.refresh_all(&o.manager).await;
    assert_eq!(
        again.body,
        json!({ "total": 7, "updated": 1, "unchanged": 2, "flagged": 4, "unreachable": 1 })
    );
    assert_eq!(o.stored(&error), (Some(75), None, true));
}

#[tokio::test]
async fn an_audit_row_only_when_the_balance_changes_and_telemetry_on_every_poll() {
    let o = office().await;
    let (_, cm) = o.account("ANCHAL SCB", "anchal", 1520).await;
    for _ in 0..3 {
        let pulled = o.refresh_all(&o.manager).await;
        assert_eq!(pulled.status, StatusCode::OK, "{}", pulled.text);
    }
    assert_eq!(o.checks(&cm).len(), 3);
    let manager_id: String = o
        .app
        .sql()
        .query_row("SELECT id FROM staff WHERE email = 'manager@coop.in'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        o.balance_audits(&cm),
        [(
            Some(manager_id),
            r#"{"sms_balance":null}"#.to_string(),
            r#"{"sms_balance":1520}"#.to_string()
        )]
    );
    // The balance moves: one more audit row, written by the scheduled pass (no user).
    o.gateway.account("anchal", "anchal-pw-7Q", 1400);
    let pass = o
        .app
        .post("/api/jobs/sms_balance_pass/run", &o.owner, json!({}))
        .await;
    assert_eq!(pass.status, StatusCode::OK, "{}", pass.text);
    assert_eq!(pass.body["updated"], 1, "{}", pass.text);
    let audits = o.balance_audits(&cm);
    assert_eq!(audits.len(), 2);
    assert_eq!(
        audits[1],
        (
            None,
            r#"{"sms_balance":1520}"#.to_string(),
            r#"{"sms_balance":1400}"#.to_string()
        )
    );
    assert_eq!(o.checks(&cm).len(), 4);
    // An ERROR line: telemetry, a flag, no audit row.
    o.gateway.answer_raw("anchal", 200, "401|ERROR|Account suspended");
    o.refresh_all(&o.manager).await;
    assert_eq!(o.balance_audits(&cm).len(), 2);
    assert_eq!(o.checks(&cm).len(), 5);
    assert_eq!(o.stored(&cm).0, Some(1400));
    // No password of the gateway login in any audit row or telemetry row.
    assert_eq!(
        o.app.count(
            "SELECT (SELECT COUNT(*) FROM audit WHERE COALESCE(before, '') || COALESCE(after, '') LIKE '%anchal-pw-7Q%')
                  + (SELECT COUNT(*) FROM sms_balance_check WHERE error LIKE '%anchal-pw-7Q%')"
        ),
        0
    );
}

#[tokio::test]
async fn a_redirecting_gateway_is_not_followed_and_flags_the_subscription() {
    let o = office().await;
    let (_, cm) = o.account("ANCHAL SCB", "anchal", 1).await;
    o.gateway.answer_raw("anchal", 302, "200|OK|999");
    let pulled = o.refresh_all(&o.manager).await;
    assert_eq!(pulled.body["flagged"], 1, "{}", pulled.text);
    assert_eq!(
        o.stored(&cm),
        (
            None,
            Some("The gateway's answer is refused: it answered with a redirect (HTTP 302), which is not followed.".into()),
            true
        )
    );
    assert_eq!(o.checks(&cm)[0].0, "malformed");
}

#[tokio::test]
async fn a_gateway_echoing_the_login_has_the_password_masked_in_the_flag() {
    let o = office().await;
    let (_, cm) = o.account("ANCHAL SCB", "anchal", 1).await;
    o.gateway
        .answer_raw("anchal", 200, "401|ERROR|Bad password anchal-pw-7Q for anchal");
    o.refresh_all(&o.manager).await;
    assert_eq!(
        o.stored(&cm).1.as_deref(),
        Some("401 Bad password ••• for anchal")
    );
    assert_eq!(
        o.checks(&cm)[0].2.as_deref(),
        Some("401 Bad password ••• for anchal")
    );
}

#[tokio::test]
async fn the_report_is_lowest_first_low_by_default_and_logins_are_for_managers_only() {
    let o = office().await;
    let (client, _) = o.account("ANCHAL SCB", "anchal", 120).await;
    o.account("PUNALUR SCB", "punalur", 499).await;
    o.account("KOLLAM SCB", "kollam", 500).await;
    o.account("CHADAYAMANGALAM SCB", "chadayamangalam", 25_000).await;
    o.subscriber("NEVER CHECKED SCB", "nobody").await;
    o.gateway.answer_raw("nobody", 200, "garbage");
    o.refresh_all(&o.manager).await;

    let low = o.app.get("/api/reports/sms-balances", &o.manager).await;
    assert_eq!(low.status, StatusCode::OK, "{}", low.text);
    assert_eq!(
        (low.body["total"].as_i64(), low.body["threshold"].as_i64()),
        (Some(2), Some(500))
    );
    let names = |r: &Value| -> Vec<String> {
        r["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["client_name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&low.body), ["ANCHAL SCB", "PUNALUR SCB"]);
    let first = &low.body["rows"][0];
    assert_eq!(
        (
            first["balance"].as_i64(),
            first["low"].as_bool(),
            first["module_code"].as_str()
        ),
        (Some(120), Some(true), Some("SMS"))
    );
    assert_eq!(
        (first["username"].as_str(), first["hasPassword"].as_bool()),
        (Some("anchal"), Some(true))
    );
    assert!(!low.text.contains("anchal-pw-7Q"), "no password in the list");

    let all = o
        .app
        .get("/api/reports/sms-balances?filter=all", &o.manager)
        .await;
    assert_eq!(
        names(&all.body),
        [
            "ANCHAL SCB",
            "PUNALUR SCB",
            "KOLLAM SCB",
            "CHADAYAMANGALAM SCB",
            "NEVER CHECKED SCB"
        ]
    );
    let flagged = o
        .app
        .get("/api/reports/sms-balances?filter=flagged", &o.manager)
        .await;
    assert_eq!(names(&flagged.body), ["NEVER CHECKED SCB"]);
    let bad = o
        .app
        .get("/api/reports/sms-balances?filter=lowest", &o.manager)
        .await;
    assert_eq!(
        (bad.status, bad.code()),
        (StatusCode::BAD_REQUEST, "invalid_filter")
    );

    // The threshold moves the line.
    put_operations(&o.app, &o.owner, json!({ "sms.low_balance_threshold": 501 })).await;
    let low = o.app.get("/api/reports/sms-balances", &o.manager).await;
    assert_eq!(names(&low.body), ["ANCHAL SCB", "PUNALUR SCB", "KOLLAM SCB"]);

    // Staff: their book only, balances only, no login of any kind.
    let mine = o.app.get("/api/reports/sms-balances?filter=all", &o.staff).await;
    assert_eq!(mine.body["total"], 0, "{}", mine.text);
    let owned = o
        .app
        .patch(
            &format!("/api/clients/{client}/owner"),
            &o.owner,
            json!({ "owner_id": o.staff_id }),
        )
        .await;
    assert_eq!(owned.status, StatusCode::OK, "{}", owned.text);
    let mine = o.app.get("/api/reports/sms-balances?filter=all", &o.staff).await;
    assert_eq!(names(&mine.body), ["ANCHAL SCB"]);
    let row = mine.body["rows"][0].as_object().unwrap();
    assert!(
        !row.contains_key("username") && !row.contains_key("hasPassword"),
        "{row:?}"
    );
    assert_eq!(row["balance"], 120);
}

#[tokio::test]
async fn the_csv_of_logins_has_every_row_with_passwords_and_each_download_is_audited() {
    let o = office().await;
    for n in 0..230 {
        o.account(&format!("SOCIETY {n:03} SCB"), &format!("soc{n:03}"), 1000 + n)
            .await;
    }
    let legacy = o.subscriber("LEGACY SCB", "legacy").await.1;
    o.app
        .sql()
        .execute(
            "UPDATE client_module SET password = 'enc:QUJD', installed_on = '2024-06-01' WHERE id = ?1",
            [&legacy],
        )
        .unwrap();
    o.app
        .sql()
        .execute(
            "UPDATE client SET phone = '0474 2561234' WHERE name = 'SOCIETY 007 SCB'",
            [],
        )
        .unwrap();
    let csv = o.app.get("/api/reports/sms-balances.csv", &o.manager).await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines.len(), 1 + 231, "every row, no page cap");
    assert_eq!(
        lines[0],
        "client,code,username,password,provider,balance,install date,phone"
    );
    assert!(
        lines.contains(&"SOCIETY 007 SCB,SMS,soc007,soc007-pw-7Q,MSG91,,,0474 2561234"),
        "{}",
        &csv.text[..400]
    );
    assert!(
        lines.contains(&"LEGACY SCB,SMS,legacy,,MSG91,,2024-06-01,"),
        "a legacy-encrypted password reads as empty"
    );
    // The list's filter and sort: highest balance first.
    o.refresh_all(&o.manager).await;
    let sorted = o
        .app
        .get(
            "/api/reports/sms-balances.csv?filter=all&sort=-balance",
            &o.manager,
        )
        .await;
    assert_eq!(sorted.status, StatusCode::OK, "{}", sorted.text);
    assert!(
        sorted
            .text
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("SOCIETY 229 SCB,SMS,soc229,"),
        "{}",
        &sorted.text[..300]
    );
    let bad_sort = o
        .app
        .get("/api/reports/sms-balances.csv?sort=password", &o.manager)
        .await;
    assert_eq!(
        (bad_sort.status, bad_sort.code()),
        (StatusCode::BAD_REQUEST, "invalid_sort")
    );
    let audits = o.app.count(
        "SELECT COUNT(*) FROM audit WHERE action = 'sms_logins_exported' AND after NOT LIKE '%-pw-7Q%'",
    );
    assert_eq!(audits, 2, "each download, not the refused one");
    // Staff may not download logins.
    let refused = o.app.get("/api/reports/sms-balances.csv", &o.staff).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE action = 'sms_logins_exported'"),
        2
    );
}

#[tokio::test]
async fn refreshes_are_managerial_and_refuse_clearly() {
    let o = office().await;
    let (client, cm) = o.account("ANCHAL SCB", "anchal", 300).await;
    let bare = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "NO SMS SCB", "state_code": "32" }),
        )
        .await;

    // Staff: 403 on every refresh and on the progress, nothing polled.
    for (method, path) in [
        (Method::POST, "/api/reports/sms-balances/refresh".to_string()),
        (Method::GET, "/api/reports/sms-balances/refresh".to_string()),
        (Method::POST, format!("/api/clients/{client}/sms-balance/refresh")),
        (Method::GET, "/api/settings/operations".to_string()),
    ] {
        let mut call = Call::new(method.clone(), &path).cookie(&o.staff);
        if method == Method::POST {
            call = call.json(json!({}));
        }
        let reply = o.app.send(call).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{method} {path}");
    }
    assert_eq!(o.gateway.calls(), 0);

    // One client's refresh.
    let one = o
        .app
        .post(
            &format!("/api/clients/{client}/sms-balance/refresh"),
            &o.manager,
            json!({}),
        )
        .await;
    assert_eq!(one.status, StatusCode::OK, "{}", one.text);
    assert_eq!(one.body["total"], 1);
    assert_eq!(o.stored(&cm).0, Some(300));
    let none = o
        .app
        .post(
            &format!("/api/clients/{}/sms-balance/refresh", id(&bare.body)),
            &o.manager,
            json!({}),
        )
        .await;
    assert_eq!(
        (none.status, none.code()),
        (StatusCode::CONFLICT, "no_sms_subscription")
    );
    let unknown = o
        .app
        .post(
            "/api/clients/01ZZZZZZZZZZZZZZZZZZZZZZZZ/sms-balance/refresh",
            &o.manager,
            json!({}),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    // The progress of the last refresh.
    let progress = o.app.get("/api/reports/sms-balances/refresh", &o.manager).await;
    assert_eq!(
        (
            progress.body["running"].as_bool(),
            progress.body["done"].as_i64(),
            progress.body["total"].as_i64()
        ),
        (Some(false), Some(1), Some(1)),
        "{}",
        progress.text
    );

    // The gateway gone: 502, the poll recorded and flagged, the balance kept.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead_url = format!("http://{}/balance", dead.local_addr().unwrap());
    drop(dead);
    put_operations(&o.app, &o.owner, json!({ "sms.balance_api_url": dead_url })).await;
    let down = o.refresh_all(&o.manager).await;
    assert_eq!(
        (down.status, down.code()),
        (StatusCode::BAD_GATEWAY, "sms_gateway_failed"),
        "{}",
        down.text
    );
    assert_eq!(o.checks(&cm).len(), 2);
    assert_eq!(o.checks(&cm)[1].0, "unreachable");
    assert_eq!(o.stored(&cm).0, Some(300));

    // No address: 409, nothing polled or written; the scheduled pass says it skipped.
    put_operations(&o.app, &o.owner, json!({ "sms.balance_api_url": "" })).await;
    let unset = o.refresh_all(&o.owner).await;
    assert_eq!(
        (unset.status, unset.code()),
        (StatusCode::CONFLICT, "sms_gateway_not_set")
    );
    let pass = o
        .app
        .post("/api/jobs/sms_balance_pass/run", &o.owner, json!({}))
        .await;
    assert_eq!(
        (pass.status, pass.body["skipped"].as_str()),
        (StatusCode::OK, Some("no SMS gateway address is set"))
    );
    assert_eq!(o.checks(&cm).len(), 2);
}

#[tokio::test]
async fn a_refresh_of_many_runs_a_few_at_a_time() {
    let o = office().await;
    for n in 0..24 {
        o.account(&format!("SOCIETY {n:02} SCB"), &format!("soc{n:02}"), n)
            .await;
    }
    o.gateway.delay(Duration::from_millis(150));
    let pulled = o.refresh_all(&o.manager).await;
    assert_eq!(pulled.body["updated"], 24, "{}", pulled.text);
    let peak = o.gateway.peak_in_flight();
    assert!(
        (2..=backoffice::sms::pull::PARALLEL).contains(&peak),
        "polls in flight at once: {peak}"
    );
}

#[tokio::test]
async fn operations_settings_are_checked_whole_audited_and_dated() {
    // Without the lab switch: the address check applies.
    let app = TestApp::new();
    let owner = app.owner().await;
    let shown = app.get("/api/settings/operations", &owner).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
    assert_eq!(
        (
            shown.body["sms.balance_api_url"].clone(),
            shown.body["sms.low_balance_threshold"].as_i64(),
            shown.body["ticket.sla_days"].as_i64()
        ),
        (Value::Null, Some(500), Some(7))
    );
    let settings_before = app.count("SELECT COUNT(*) FROM setting");
    let audits_before = app.count("SELECT COUNT(*) FROM audit");

    for (body, field, code) in [
        (
            json!({ "sms.balance_api_url": "http://169.254.169.254/latest", "ticket.sla_days": 10 }),
            "sms.balance_api_url",
            "address_refused",
        ),
        (
            json!({ "sms.balance_api_url": "http://127.0.0.1:9/balance" }),
            "sms.balance_api_url",
            "address_refused",
        ),
        (
            json!({ "sms.balance_api_url": "ftp://8.8.8.8/" }),
            "sms.balance_api_url",
            "address_refused",
        ),
        (
            json!({ "sms.low_balance_threshold": -5, "ticket.sla_days": 10 }),
            "sms.low_balance_threshold",
            "out_of_range",
        ),
        (json!({ "ticket.sla_days": 0 }), "ticket.sla_days", "out_of_range"),
    ] {
        let refused = put_operations(&app, &owner, body.clone()).await;
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
    let both = put_operations(
        &app,
        &owner,
        json!({ "sms.balance_api_url": "http://10.0.0.5/", "ticket.sla_days": 999 }),
    )
    .await;
    let fields: Vec<&str> = both.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["sms.balance_api_url", "ticket.sla_days"]);
    let unknown = put_operations(&app, &owner, json!({ "sms.url": "x" })).await;
    assert!(unknown.status.is_client_error(), "{}", unknown.text);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM setting"),
        settings_before,
        "nothing written"
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM audit"), audits_before);

    // A public address, a threshold and the SLA: stored, dated today, one audit row per change.
    let saved = put_operations(
        &app,
        &owner,
        json!({ "sms.balance_api_url": "https://8.8.8.8/api/balance?key=vendor-key-1", "sms.low_balance_threshold": 1000, "ticket.sla_days": 5 }),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(
        (
            saved.body["sms.balance_api_url"].as_str(),
            saved.body["sms.low_balance_threshold"].as_i64(),
            saved.body["ticket.sla_days"].as_i64()
        ),
        (
            Some("https://8.8.8.8/api/balance?key=vendor-key-1"),
            Some(1000),
            Some(5)
        )
    );
    let today = backoffice::plumbing::db::settings::office_today(&app.sql())
        .unwrap()
        .to_string();
    assert_eq!(saved.body["effective_from"]["sms.balance_api_url"], today);
    let audits: Vec<(String, String, String)> = app
        .sql()
        .prepare("SELECT entity_id, before, after FROM audit WHERE entity = 'setting' ORDER BY at, id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        audits,
        [
            (
                "sms.balance_api_url".into(),
                r#""""#.into(),
                r#""https://8.8.8.8/api/balance?key=•••""#.into()
            ),
            ("sms.low_balance_threshold".into(), "500".into(), "1000".into()),
            ("ticket.sla_days".into(), "7".into(), "5".into()),
        ]
    );
    // The same values again: nothing new.
    put_operations(&app, &owner, json!({ "sms.low_balance_threshold": 1000 })).await;
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE entity = 'setting'"),
        3
    );
    // A manager may not read or change them.
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    assert_eq!(
        app.get("/api/settings/operations", &manager).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        put_operations(&app, &manager, json!({ "ticket.sla_days": 3 }))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
}
