//! Every secret-bearing path of the real binary, exercised with distinctive values and the log
//! captured at debug level: sign-in (right and wrong passwords), password changes, an invited
//! employee's initial password, an owner's reset, session cookies, a client's DB password, a
//! client module's portal password and secret, the mail provider's token and the SMTP password
//! (each with a test email that uses it, and the token with a failed send) and a share token.
//! Afterwards none of them may appear in the log, in any audit row, in any login event, or in the
//! JSON of the lists and records that show those things (they stay only where each is stored,
//! which is not scanned here).

use crate::common::gateway::FakeGateway;
use crate::common::server::Server;
use serde_json::{Value, json};

const OWNER: &str = "owner@localhost";
const OWNER_PW: &str = "OwnerPw-Zq7Kx2Lm9Tr";
const OWNER_NEW_PW: &str = "OwnerNewPw-Wd4Sy8Fa3";
const WRONG_PW: &str = "WrongPw-Gu3Mr8Yd2Pk";
const EMP_NEW_PW: &str = "EmpNewPw-Qo5Ha1Ze7Jx";
const DB_PW: &str = "DbPw-Vt4Rn8Qc1Xm";
const PORTAL_PW: &str = "PortalPw-Hy6Jd3Wb5Ke";
const MODULE_SECRET: &str = "ModSecret-Xe2Pk7Tf4Lu";
const MAIL_TOKEN: &str = "MailTok-Lc9Bv1Ns6Rg";
const SMTP_PW: &str = "SmtpAppPw-Jh5Dc2Vw8Ny";
const SMS_PW: &str = "SmsGatewayPw-Rk3Vn8Qa5";

fn text(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("no {key} in {v}"))
        .to_string()
}

fn login(server: &Server, username: &str, password: &str) -> String {
    let (status, cookie, body) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": username, "password": password })),
    );
    assert_eq!(status, 200, "login as {username}: {body}");
    cookie.expect("a session cookie")
}

/// The token of a `bo_session=...` pair.
fn token(cookie: &str) -> String {
    cookie
        .strip_prefix("bo_session=")
        .expect("a bo_session cookie")
        .to_string()
}

/// Every page of a paginated list, as JSON text.
fn all_pages(server: &Server, cookie: &str, path: &str) -> Vec<String> {
    let mut pages = vec![];
    for page in 1.. {
        let sep = if path.contains('?') { '&' } else { '?' };
        let (status, _, body) = server.call(
            "GET",
            &format!("{path}{sep}per_page=200&page={page}"),
            Some(cookie),
            None,
        );
        assert_eq!(status, 200, "{path}: {body}");
        let rows = body["rows"].as_array().map_or(0, Vec::len);
        pages.push(body.to_string());
        if rows < 200 {
            break;
        }
    }
    pages
}

/// The status of a GET whose body may be binary (a PDF).
fn get_status(server: &Server, path: &str) -> u16 {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut raw = vec![];
    stream.read_to_end(&mut raw).unwrap();
    let head = String::from_utf8_lossy(&raw[..raw.len().min(64)]).to_string();
    head.split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{head}"))
}

fn assert_absent(place: &str, haystack: &str, secrets: &[(String, String)]) {
    for (name, secret) in secrets {
        assert!(
            !haystack.contains(secret.as_str()),
            "{place} holds the {name} ({secret}):\n{}",
            haystack
                .lines()
                .filter(|l| l.contains(secret.as_str()))
                .take(5)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn no_secret_reaches_the_log_the_audit_the_login_history_or_a_list() {
    let _machine = crate::common::shared();
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("office.db");
    let log = dir.path().join("server.log");
    let server = Server::start_with_env(
        &data,
        &log,
        Some(OWNER_PW),
        &[("BACKOFFICE_ALLOW_PRIVATE_TARGETS", "1")],
    );
    let mut sessions = vec![];

    // Sign-in: a wrong password, the right one, then a change of the owner's own password.
    let (status, cookie, body) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": OWNER, "password": WRONG_PW })),
    );
    assert_eq!((status, cookie), (401, None), "{body}");
    let first = login(&server, OWNER, OWNER_PW);
    sessions.push(first.clone());
    let (status, _, body) = server.call(
        "POST",
        "/api/me/password",
        Some(&first),
        Some(json!({ "current_password": OWNER_PW, "new_password": OWNER_NEW_PW })),
    );
    assert_eq!(status, 204, "{body}");
    let owner = login(&server, OWNER, OWNER_NEW_PW);
    sessions.push(owner.clone());

    // An employee: the initial password, an owner's reset, the employee's own new password.
    let (status, _, invited) = server.call(
        "POST",
        "/api/employees",
        Some(&owner),
        Some(json!({ "email": "clerk@coop.in", "name": "Clerk", "role": "manager" })),
    );
    assert_eq!(status, 201, "{invited}");
    let clerk_id = text(&invited, "id");
    let initial = text(&invited, "initial_password");
    sessions.push(login(&server, "clerk@coop.in", &initial));
    let (status, _, reset) = server.call(
        "POST",
        &format!("/api/employees/{clerk_id}/reset-password"),
        Some(&owner),
        Some(json!({})),
    );
    assert_eq!(status, 200, "{reset}");
    let reset = text(&reset, "password");
    assert_ne!(reset, initial);
    let clerk = login(&server, "clerk@coop.in", &reset);
    sessions.push(clerk.clone());
    let (status, _, body) = server.call(
        "POST",
        "/api/me/password",
        Some(&clerk),
        Some(json!({ "current_password": reset, "new_password": EMP_NEW_PW })),
    );
    assert_eq!(status, 204, "{body}");
    let clerk = login(&server, "clerk@coop.in", EMP_NEW_PW);
    sessions.push(clerk.clone());

    // A client's DB password, set and revealed.
    let (status, _, client) = server.call(
        "POST",
        "/api/clients",
        Some(&owner),
        Some(json!({ "name": "Kadakkal Service Co-operative Bank", "state_code": "32", "email": "accounts@kadakkal.coop.in" })),
    );
    assert_eq!(status, 201, "{client}");
    let client_id = text(&client, "id");
    let (status, _, patched) = server.call(
        "PATCH",
        &format!("/api/clients/{client_id}"),
        Some(&owner),
        Some(json!({ "dbPassword": DB_PW })),
    );
    assert_eq!(
        (status, patched["hasDbPassword"].as_bool()),
        (200, Some(true)),
        "{patched}"
    );
    let (status, _, revealed) = server.call(
        "POST",
        &format!("/api/clients/{client_id}/reveal-db-password"),
        Some(&clerk),
        Some(json!({})),
    );
    assert_eq!((status, revealed["password"].as_str()), (200, Some(DB_PW)));

    // A client module's portal password and a module secret, set and revealed.
    let (status, _, module) = server.call(
        "POST",
        "/api/modules",
        Some(&owner),
        Some(json!({ "code": "FAS", "name": "Financial accounting", "sac": "998314", "gst_rate": 18 })),
    );
    assert_eq!(status, 201, "{module}");
    let (status, _, linked) = server.call(
        "POST",
        "/api/client-modules",
        Some(&owner),
        Some(json!({ "client_id": client_id, "module_id": text(&module, "id") })),
    );
    assert_eq!(status, 201, "{linked}");
    let cm = text(&linked, "id");
    let (status, _, body) = server.call(
        "PATCH",
        &format!("/api/client-modules/{cm}"),
        Some(&owner),
        Some(json!({ "provider": "Society portal", "username": "kadakkal-admin", "password": PORTAL_PW })),
    );
    assert_eq!(
        (status, body["hasPassword"].as_bool()),
        (200, Some(true)),
        "{body}"
    );
    let (status, _, revealed) = server.call(
        "POST",
        &format!("/api/client-modules/{cm}/reveal-password"),
        Some(&clerk),
        Some(json!({})),
    );
    assert_eq!((status, revealed["password"].as_str()), (200, Some(PORTAL_PW)));
    let (status, _, body) = server.call(
        "POST",
        &format!("/api/client-modules/{cm}/secrets"),
        Some(&owner),
        Some(json!({ "api_key": MODULE_SECRET })),
    );
    assert_eq!(
        (status, body["secret_keys"].clone()),
        (200, json!(["api_key"])),
        "{body}"
    );
    let (status, _, revealed) = server.call(
        "POST",
        &format!("/api/client-modules/{cm}/reveal-secret"),
        Some(&clerk),
        Some(json!({ "key": "api_key" })),
    );
    assert_eq!((status, revealed["value"].as_str()), (200, Some(MODULE_SECRET)));

    // The mail token, stored, then used by a connection test and a send (nobody listens on port 9).
    let (status, _, mail) = server.call(
        "PUT",
        "/api/settings/mail",
        Some(&owner),
        Some(json!({ "api_url": "http://127.0.0.1:9", "from": "a@b.in", "token": MAIL_TOKEN })),
    );
    assert_eq!((status, mail["hasToken"].as_bool()), (200, Some(true)), "{mail}");
    let (status, _, body) = server.call("POST", "/api/settings/mail/test", Some(&owner), Some(json!({})));
    assert_eq!(status, 502, "{body}");
    // The SMTP password, stored, then used by a test email; then back to the mail API.
    let (status, _, mail) = server.call(
        "PUT",
        "/api/settings/mail",
        Some(&owner),
        Some(
            json!({ "transport": "smtp", "smtp_host": "127.0.0.1", "smtp_port": 9, "smtp_security": "none",
                     "smtp_username": "a@b.in", "smtp_password": SMTP_PW }),
        ),
    );
    assert_eq!(
        (status, mail["hasSmtpPassword"].as_bool()),
        (200, Some(true)),
        "{mail}"
    );
    let (status, _, body) = server.call("POST", "/api/settings/mail/test", Some(&owner), Some(json!({})));
    assert_eq!(status, 502, "{body}");
    let (status, _, _) = server.call(
        "PUT",
        "/api/settings/mail",
        Some(&owner),
        Some(json!({ "transport": "api" })),
    );
    assert_eq!(status, 200);

    // An SMS gateway login: pulled from the gateway twice, once read, once refused with an ERROR line.
    let gateway = FakeGateway::start();
    gateway.account("kadakkal-sms", SMS_PW, 1520);
    let (status, _, sms) = server.call(
        "POST",
        "/api/modules",
        Some(&owner),
        Some(json!({ "code": "SMS", "name": "Bulk SMS", "sac": "998413", "gst_rate": 18 })),
    );
    assert_eq!(status, 201, "{sms}");
    let (status, _, linked) = server.call(
        "POST",
        "/api/client-modules",
        Some(&owner),
        Some(json!({ "client_id": client_id, "module_id": text(&sms, "id") })),
    );
    assert_eq!(status, 201, "{linked}");
    let (status, _, body) = server.call(
        "PATCH",
        &format!("/api/client-modules/{}", text(&linked, "id")),
        Some(&owner),
        Some(json!({ "provider": "MSG91", "username": "kadakkal-sms", "password": SMS_PW })),
    );
    assert_eq!(status, 200, "{body}");
    let (status, _, body) = server.call(
        "PUT",
        "/api/settings/operations",
        Some(&owner),
        Some(json!({ "sms.balance_api_url": gateway.url })),
    );
    assert_eq!(status, 200, "{body}");
    let (status, _, counts) = server.call(
        "POST",
        &format!("/api/clients/{client_id}/sms-balance/refresh"),
        Some(&clerk),
        Some(json!({})),
    );
    assert_eq!((status, counts["updated"].as_i64()), (200, Some(1)), "{counts}");
    gateway.answer_raw("kadakkal-sms", 200, "401|ERROR|Invalid login");
    let (status, _, counts) = server.call(
        "POST",
        "/api/reports/sms-balances/refresh",
        Some(&clerk),
        Some(json!({})),
    );
    assert_eq!((status, counts["flagged"].as_i64()), (200, Some(1)), "{counts}");
    assert!(
        gateway
            .queries()
            .iter()
            .all(|q| q.contains("username=kadakkal-sms")),
        "the gateway was asked with the login"
    );

    // A share token, minted and used, and a failed send that reuses it.
    let (status, _, draft) = server.call(
        "POST",
        "/api/documents",
        Some(&owner),
        Some(json!({ "type": "INVOICE", "client_id": client_id,
                     "lines": [ { "description": "Annual support", "qty": 1, "unit_price": 1_000_000 } ] })),
    );
    assert_eq!(status, 201, "{draft}");
    let doc = text(&draft, "id");
    let (status, _, body) = server.call(
        "POST",
        &format!("/api/documents/{doc}/issue"),
        Some(&owner),
        Some(json!({})),
    );
    assert_eq!(status, 200, "{body}");
    let (status, _, share) = server.call(
        "POST",
        &format!("/api/documents/{doc}/share"),
        Some(&owner),
        Some(json!({})),
    );
    assert_eq!(status, 201, "{share}");
    let share_token = text(&share, "token");
    for path in [
        format!("/share/{share_token}"),
        format!("/share/{share_token}/pdf"),
    ] {
        assert_eq!(get_status(&server, &path), 200, "{path}");
    }
    let (status, _, sent) = server.call(
        "POST",
        &format!("/api/documents/{doc}/send"),
        Some(&owner),
        Some(json!({ "to": "accounts@kadakkal.coop.in" })),
    );
    assert_eq!(
        (status, sent["error"]["code"].as_str()),
        (502, Some("mail_failed")),
        "{sent}"
    );

    // What the lists and records show, while the server runs.
    let mut shown: Vec<(String, String)> = vec![];
    for path in [
        "/api/clients",
        "/api/documents",
        "/api/employees",
        "/api/audit",
        "/api/email-log",
        "/api/login-events",
        "/api/payments",
        "/api/reports/sms-balances?filter=all",
    ] {
        for page in all_pages(&server, &owner, path) {
            shown.push((format!("GET {path}"), page));
        }
    }
    for path in [
        format!("/api/clients/{client_id}"),
        format!("/api/clients/{client_id}/modules"),
        format!("/api/client-modules/{cm}"),
        "/api/settings/mail".to_string(),
        "/api/me".to_string(),
    ] {
        let (status, _, body) = server.call("GET", &path, Some(&owner), None);
        assert_eq!(status, 200, "{path}: {body}");
        shown.push((format!("GET {path}"), body.to_string()));
    }
    let email_log = shown.iter().find(|(p, _)| p == "GET /api/email-log").unwrap();
    assert!(
        email_log.1.contains("\"failed\""),
        "the failed send is logged: {}",
        email_log.1
    );
    server.stop();

    let conn = rusqlite::Connection::open(&data).unwrap();
    let share_tokens: Vec<String> = conn
        .prepare("SELECT token FROM document_share")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(share_tokens.contains(&share_token), "{share_tokens:?}");
    let mut secrets: Vec<(String, String)> = [
        ("owner's first password", OWNER_PW),
        ("owner's new password", OWNER_NEW_PW),
        ("wrong password tried", WRONG_PW),
        ("employee's initial password", initial.as_str()),
        ("password from the owner's reset", reset.as_str()),
        ("employee's own new password", EMP_NEW_PW),
        ("client's DB password", DB_PW),
        ("portal password", PORTAL_PW),
        ("module secret", MODULE_SECRET),
        ("mail token", MAIL_TOKEN),
        ("SMTP password", SMTP_PW),
        ("SMS gateway password", SMS_PW),
    ]
    .into_iter()
    .map(|(n, s)| (n.to_string(), s.to_string()))
    .collect();
    for (n, cookie) in sessions.iter().enumerate() {
        secrets.push((format!("session token {n}"), token(cookie)));
    }
    for t in &share_tokens {
        secrets.push(("share token".into(), t.clone()));
    }
    for (_, secret) in &secrets {
        assert!(secret.len() >= 16, "a secret too short to search for: {secret}");
    }

    // The log (RUST_LOG=debug, as `Server` starts it): one line per request, and no secret in it.
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(
        log_text.contains("reveal-db-password") && log_text.contains("/share/<redacted>"),
        "the requests are logged"
    );
    assert_absent("the server log", &log_text, &secrets);

    // Every audit row, every login event.
    let audit: Vec<String> = conn
        .prepare(
            "SELECT COALESCE(entity, '') || ' ' || COALESCE(entity_id, '') || ' ' || COALESCE(action, '') || ' '
                    || COALESCE(before, '') || ' ' || COALESCE(after, '') FROM audit",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(audit.len() >= 15, "the paths above were audited: {audit:#?}");
    for actions in [
        "reveal_db_password",
        "set_db_password",
        "reveal_secret",
        "reset_password",
        "minted",
        "sms_balance",
    ] {
        assert!(
            audit.iter().any(|row| row.contains(actions)),
            "no {actions} audit row"
        );
    }
    assert_absent("the audit", &audit.join("\n"), &secrets);
    let events: Vec<String> = conn
        .prepare(
            "SELECT id || ' ' || at || ' ' || COALESCE(staff_id, '') || ' ' || username || ' ' || outcome || ' '
                    || COALESCE(ip, '') || ' ' || COALESCE(user_agent, '') FROM login_event",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(events.len(), 6, "one event per sign-in attempt: {events:#?}");
    assert_absent("the login events", &events.join("\n"), &secrets);
    let polls: Vec<String> = conn
        .prepare(
            "SELECT outcome || ' ' || COALESCE(error, '') FROM sms_balance_check
             UNION ALL SELECT COALESCE(sms_flag, '') FROM client_module",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        polls.iter().any(|p| p == "ok ") && polls.iter().any(|p| p == "error 401 Invalid login"),
        "{polls:?}"
    );
    assert_absent("the SMS polls", &polls.join("\n"), &secrets);

    // The lists and records the API showed.
    for (place, body) in &shown {
        assert_absent(place, body, &secrets);
    }

    // The session table keeps only hashes of the tokens.
    let hashes: Vec<String> = conn
        .prepare("SELECT token_hash FROM session")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_absent("the session table", &hashes.join("\n"), &secrets);
}
