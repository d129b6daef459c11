//! Mail through the office's own mailbox (decisions 12 "SMTP", issue 34): the SMTP settings,
//! their checks, and real sends to a real SMTP server on loopback (aiosmtpd, `common::smtp`) in
//! plain text, with STARTTLS and with TLS from the first byte, with a sign-in every time.

use crate::common::smtp::{self, SmtpServer};
use crate::common::{Call, OWNER, TestApp};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

/// An office whose outbound calls may reach loopback and whose SMTP TLS trusts the test CA.
fn lab() -> TestApp {
    TestApp::with_config(|c| {
        c.allow_private_targets = true;
        c.smtp_ca = Some(smtp::CA);
    })
}

async fn put_mail(app: &TestApp, owner: &str, body: Value) -> crate::common::Reply {
    app.send(
        Call::new(Method::PUT, "/api/settings/mail")
            .cookie(owner)
            .json(body),
    )
    .await
}

/// The settings of `server` with `security`, reached by `host`.
fn smtp_settings(server: &SmtpServer, host: &str, security: &str, password: &str) -> Value {
    json!({
        "transport": "smtp",
        "smtp_host": host,
        "smtp_port": server.port,
        "smtp_security": security,
        "smtp_username": smtp::USER,
        "smtp_password": password,
        "from": "billing@softland.in",
    })
}

/// (status, error) of the email log's rows, oldest first.
fn log_rows(app: &TestApp) -> Vec<(String, String, Option<String>)> {
    let conn = app.sql();
    let mut rows = conn
        .prepare("SELECT purpose, status, error FROM email_log ORDER BY id")
        .unwrap();
    rows.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// An issued document of `doc_type` for a society whose only address is its own email, one
/// line of a module at ₹1,00,000.
async fn issued(app: &TestApp, owner: &str, doc_type: &str) -> Value {
    app.set_company(owner, json!({})).await;
    let module = app.priced_module(owner, 10_000_000).await;
    let client = app
        .post(
            "/api/clients",
            owner,
            json!({ "name": "KADAKKAL SERVICE CO-OPERATIVE BANK LTD NO 1234", "state_code": "32", "email": "office@kadakkal.coop" }),
        )
        .await
        .body;
    let draft = app
        .post(
            "/api/documents",
            owner,
            json!({ "type": doc_type, "client_id": client["id"], "lines": [ { "module_id": module, "qty": 1 } ] }),
        )
        .await
        .body;
    let reply = app
        .post(
            &format!("/api/documents/{}/issue", draft["id"].as_str().unwrap()),
            owner,
            json!({}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

#[tokio::test]
async fn the_smtp_settings_are_the_owners_the_password_is_never_shown_and_each_wrong_field_is_named() {
    let app = lab();
    let owner = app.owner().await;
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let body = json!({
        "transport": "smtp", "smtp_host": "localhost", "smtp_port": 587, "smtp_security": "starttls",
        "smtp_username": "billing@softland.in", "smtp_password": "very-secret-app-password", "from": "billing@softland.in",
    });
    assert_eq!(
        put_mail(&app, &manager, body.clone()).await.status,
        StatusCode::FORBIDDEN
    );
    let saved = put_mail(&app, &owner, body).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let expected = json!({
        "transport": "smtp", "api_url": null, "from": "billing@softland.in", "hasToken": false,
        "smtp_host": "localhost", "smtp_port": 587, "smtp_security": "starttls",
        "smtp_username": "billing@softland.in", "hasSmtpPassword": true,
    });
    assert_eq!(saved.body, expected);
    // Left out, the password stays; the GET never shows it, nor does the audit.
    let kept = put_mail(&app, &owner, json!({ "smtp_port": 2525 })).await;
    assert_eq!(
        (
            kept.body["smtp_port"].as_u64(),
            kept.body["hasSmtpPassword"].as_bool()
        ),
        (Some(2525), Some(true))
    );
    let get = app.get("/api/settings/mail", &owner).await;
    assert_eq!(get.body["hasSmtpPassword"], true);
    assert!(!get.text.contains("very-secret-app-password"), "{}", get.text);
    assert_eq!(
        app.count(
            "SELECT COUNT(*) FROM audit WHERE after LIKE '%very-secret%' OR before LIKE '%very-secret%'"
        ),
        0
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE entity_id = 'mail' AND action = 'update'"),
        2
    );
    // An old client without `transport` changes the API's fields and leaves the choice alone.
    let old = put_mail(
        &app,
        &owner,
        json!({ "api_url": "http://127.0.0.1:9", "token": "t" }),
    )
    .await;
    assert_eq!(
        (
            old.status,
            old.body["transport"].as_str(),
            old.body["hasToken"].as_bool()
        ),
        (StatusCode::OK, Some("smtp"), Some(true))
    );
    let back = put_mail(&app, &owner, json!({ "transport": "api" })).await;
    assert_eq!(
        (back.body["transport"].as_str(), back.body["smtp_host"].as_str()),
        (Some("api"), Some("localhost"))
    );

    for (body, field, code) in [
        (
            json!({ "smtp_host": "smtp://smtp.gmail.com" }),
            "smtp_host",
            "invalid_host",
        ),
        (
            json!({ "smtp_host": "smtp.gmail.com:587" }),
            "smtp_host",
            "invalid_host",
        ),
        (
            json!({ "smtp_host": "no-such-host.invalid" }),
            "smtp_host",
            "address_refused",
        ),
        (json!({ "smtp_port": 0 }), "smtp_port", "out_of_range"),
        (json!({ "smtp_port": 70000 }), "smtp_port", "invalid_value"),
        (
            json!({ "smtp_security": "ssl" }),
            "smtp_security",
            "invalid_value",
        ),
        (json!({ "transport": "sendmail" }), "transport", "invalid_value"),
        (
            json!({ "smtp_password": "x".repeat(257) }),
            "smtp_password",
            "too_long",
        ),
        (json!({ "from": "billing" }), "from", "invalid_email"),
    ] {
        let refused = put_mail(&app, &owner, body.clone()).await;
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
    // Several wrong fields at once are all named.
    let several = put_mail(
        &app,
        &owner,
        json!({ "transport": "smtp", "smtp_host": "smtp://x", "smtp_port": 0, "from": "billing" }),
    )
    .await;
    let fields: Vec<&str> = several.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["from", "smtp_host", "smtp_port"], "{}", several.text);
    assert_eq!(
        app.get("/api/settings/mail", &owner).await.body["transport"],
        "api",
        "nothing was stored"
    );
}

#[tokio::test]
async fn a_loopback_or_private_smtp_host_is_refused_without_the_lab_switch() {
    let app = TestApp::new();
    let owner = app.owner().await;
    for host in ["127.0.0.1", "localhost", "10.0.0.5", "169.254.169.254", "::1"] {
        let refused = put_mail(&app, &owner, json!({ "transport": "smtp", "smtp_host": host })).await;
        assert_eq!(
            (
                refused.status,
                refused.body["error"]["field"].as_str(),
                refused.code()
            ),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("smtp_host"),
                "address_refused"
            ),
            "{host}"
        );
    }
    assert_eq!(
        app.count("SELECT COUNT(*) FROM setting WHERE key LIKE 'mail.%'"),
        0
    );
    let test = app.post("/api/settings/mail/test", &owner, json!({})).await;
    assert_eq!(
        (test.status, test.code()),
        (StatusCode::CONFLICT, "mail_not_configured")
    );
}

#[tokio::test]
async fn the_test_message_goes_over_plain_smtp_with_a_sign_in_and_is_logged() {
    let Some(server) = SmtpServer::start("none") else {
        return;
    };
    let app = lab();
    let owner = app.owner().await;
    let saved = put_mail(
        &app,
        &owner,
        smtp_settings(&server, "127.0.0.1", "none", smtp::PASSWORD),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let test = app.post("/api/settings/mail/test", &owner, json!({})).await;
    assert_eq!(test.status, StatusCode::OK, "{}", test.text);
    assert_eq!(
        test.body,
        json!({ "sent": true, "to": OWNER, "transport": "smtp" })
    );
    let got = server.wait_for(1);
    assert_eq!(got.len(), 1);
    let m = &got[0];
    assert_eq!(
        (
            m["auth_user"].as_str(),
            m["encrypted"].as_bool(),
            m["mail_from"].as_str()
        ),
        (Some(smtp::USER), Some(false), Some("billing@softland.in"))
    );
    assert_eq!(m["rcpt_tos"], json!([OWNER]));
    assert_eq!(
        (m["from"].as_str(), m["to"].as_str(), m["subject"].as_str()),
        (
            Some("billing@softland.in"),
            Some(OWNER),
            Some("Test email from the back office")
        )
    );
    assert!(
        m["text"]
            .as_str()
            .unwrap()
            .starts_with("This is a test of the mail settings")
    );
    assert_eq!(log_rows(&app), [("test".to_string(), "sent".to_string(), None)]);
    let message_id: String = app
        .sql()
        .query_row("SELECT provider_message_id FROM email_log", [], |r| r.get(0))
        .unwrap();
    assert_eq!(m["message_id"].as_str(), Some(message_id.as_str()));
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE entity_id = 'mail' AND action = 'test' AND after ->> '$.status' = 'sent'"),
        1
    );
    // To another address when given.
    let other = app
        .post(
            "/api/settings/mail/test",
            &owner,
            json!({ "to": "accounts@softland.in" }),
        )
        .await;
    assert_eq!(other.body["to"], "accounts@softland.in", "{}", other.text);
    assert_eq!(server.wait_for(2)[1]["rcpt_tos"], json!(["accounts@softland.in"]));
    let bad = app
        .post("/api/settings/mail/test", &owner, json!({ "to": "nobody" }))
        .await;
    assert_eq!(
        (bad.status, bad.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("to"))
    );
}

#[tokio::test]
async fn a_wrong_password_is_a_502_that_names_the_login_and_a_failed_log_row() {
    let Some(server) = SmtpServer::start("none") else {
        return;
    };
    let app = lab();
    let owner = app.owner().await;
    put_mail(
        &app,
        &owner,
        smtp_settings(&server, "127.0.0.1", "none", "wrong-app-password"),
    )
    .await;
    let test = app.post("/api/settings/mail/test", &owner, json!({})).await;
    assert_eq!(
        (test.status, test.code()),
        (StatusCode::BAD_GATEWAY, "mail_failed"),
        "{}",
        test.text
    );
    assert_eq!(
        test.body["error"]["message"],
        "The test email was not sent: the mail server refused the user name or password."
    );
    assert!(!test.text.contains("wrong-app-password"));
    assert_eq!(
        log_rows(&app),
        [(
            "test".to_string(),
            "failed".to_string(),
            Some("the mail server refused the user name or password".to_string())
        )]
    );
    assert!(server.received().is_empty());
}

#[tokio::test]
async fn starttls_to_the_office_ca_carries_a_document_with_its_pdf() {
    let Some(server) = SmtpServer::start("starttls") else {
        return;
    };
    let app = lab();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    // The certificate is for localhost: the name TLS checks, while the connection goes to the
    // address the name resolved to and was checked.
    let saved = put_mail(
        &app,
        &owner,
        smtp_settings(&server, "localhost", "starttls", smtp::PASSWORD),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let invoice = issued(&app, &owner, "INVOICE").await;
    let no = invoice["docNo"].as_str().unwrap();
    let sent = app
        .post(
            &format!("/api/documents/{}/send", invoice["id"].as_str().unwrap()),
            &owner,
            json!({ "cc": "president@kadakkal.coop" }),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(sent.body["email"]["status"], "sent");
    let got = server.wait_for(1);
    assert_eq!(got.len(), 1);
    let m = &got[0];
    assert_eq!(
        (m["encrypted"].as_bool(), m["auth_user"].as_str()),
        (Some(true), Some(smtp::USER))
    );
    assert_eq!(
        (m["from"].as_str(), m["to"].as_str(), m["cc"].as_str()),
        (
            Some("billing@softland.in"),
            Some("office@kadakkal.coop"),
            Some("president@kadakkal.coop")
        )
    );
    assert_eq!(
        m["rcpt_tos"],
        json!(["office@kadakkal.coop", "president@kadakkal.coop"])
    );
    assert_eq!(
        m["subject"].as_str(),
        Some(format!("invoice {no} from Softland India").as_str())
    );
    assert_eq!(
        m["attachments"][0]["name"].as_str(),
        Some(format!("{}.pdf", no.replace('/', "-")).as_str())
    );
    assert_eq!(
        (
            m["attachments"][0]["content_type"].as_str(),
            m["attachments"][0]["starts"].as_str()
        ),
        (Some("application/pdf"), Some("%PDF-"))
    );
    assert!(
        m["html"].as_str().unwrap().contains("/share/"),
        "the share link is in the body"
    );
    assert_eq!(
        log_rows(&app),
        [("document".to_string(), "sent".to_string(), None)]
    );
}

#[tokio::test]
async fn tls_from_the_first_byte_sends_and_an_untrusted_certificate_fails_cleanly() {
    let Some(server) = SmtpServer::start("tls") else {
        return;
    };
    let app = lab();
    let owner = app.owner().await;
    put_mail(
        &app,
        &owner,
        smtp_settings(&server, "localhost", "tls", smtp::PASSWORD),
    )
    .await;
    let test = app.post("/api/settings/mail/test", &owner, json!({})).await;
    assert_eq!(test.status, StatusCode::OK, "{}", test.text);
    assert_eq!(server.wait_for(1)[0]["encrypted"], true);

    // Without the office's CA the certificate is not trusted: a 502 that says so, logged.
    let untrusting = TestApp::with_config(|c| c.allow_private_targets = true);
    let owner = untrusting.owner().await;
    put_mail(
        &untrusting,
        &owner,
        smtp_settings(&server, "localhost", "tls", smtp::PASSWORD),
    )
    .await;
    let test = untrusting
        .post("/api/settings/mail/test", &owner, json!({}))
        .await;
    assert_eq!(
        (test.status, test.code()),
        (StatusCode::BAD_GATEWAY, "mail_failed"),
        "{}",
        test.text
    );
    let message = test.body["error"]["message"].as_str().unwrap();
    assert!(
        message
            == "The test email was not sent: the mail provider did not answer: TLS failed: invalid peer certificate: UnknownIssuer.",
        "{message}"
    );
    assert_eq!(log_rows(&untrusting)[0].1, "failed");
    assert_eq!(server.received().len(), 1, "nothing more arrived");
}

#[tokio::test]
async fn convert_and_send_asks_the_mail_server_first_and_a_refused_login_sends_nothing() {
    let Some(server) = SmtpServer::start("none") else {
        return;
    };
    let app = lab();
    let owner = app.owner().await;
    let proforma = issued(&app, &owner, "PROFORMA").await;
    put_mail(
        &app,
        &owner,
        smtp_settings(&server, "127.0.0.1", "none", "wrong-app-password"),
    )
    .await;
    let path = format!(
        "/api/documents/{}/convert-and-send",
        proforma["id"].as_str().unwrap()
    );
    let refused = app.post(&path, &owner, json!({})).await;
    assert_eq!(
        (
            refused.status,
            refused.code(),
            refused.body["error"]["message"].as_str()
        ),
        (
            StatusCode::CONFLICT,
            "mail_provider_dead",
            Some(
                "Email cannot go out now: the mail server refused the user name or password. Nothing was changed."
            )
        )
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM document WHERE type = 'INVOICE'"),
        0
    );
    put_mail(&app, &owner, json!({ "smtp_password": smtp::PASSWORD })).await;
    let sent = app.post(&path, &owner, json!({})).await;
    assert_eq!(
        (sent.status, sent.body["email"]["status"].as_str()),
        (StatusCode::OK, Some("sent")),
        "{}",
        sent.text
    );
    let got = server.wait_for(1);
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0]["subject"].as_str(),
        Some(
            format!(
                "invoice {} from Softland India",
                sent.body["docNo"].as_str().unwrap()
            )
            .as_str()
        )
    );
}

#[tokio::test]
async fn notify_all_goes_out_through_the_mailbox_one_logged_message_per_client() {
    let Some(server) = SmtpServer::start("tls") else {
        return;
    };
    let app = lab();
    let owner = app.owner().await;
    put_mail(
        &app,
        &owner,
        smtp_settings(&server, "localhost", "tls", smtp::PASSWORD),
    )
    .await;
    let module = app.priced_module(&owner, 10_000_000).await;
    for n in 0..3 {
        let client = app
            .post(
                "/api/clients",
                &owner,
                json!({ "name": format!("SOCIETY {n} SERVICE CO-OPERATIVE BANK"), "state_code": "32", "email": format!("society{n}@coop.in") }),
            )
            .await
            .body;
        let link = app
            .post(
                "/api/client-modules",
                &owner,
                json!({ "client_id": client["id"], "module_id": module }),
            )
            .await;
        assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
    }
    let report = app
        .post(
            &format!("/api/modules/{module}/notify"),
            &owner,
            json!({ "subject": "Deposit module update", "body": "Dear Secretary,\n\nVersion 5 is out." }),
        )
        .await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    assert_eq!(
        (report.body["attempted"].as_u64(), report.body["sent"].as_u64()),
        (Some(3), Some(3))
    );
    let got = server.wait_for(3);
    let mut to: Vec<&str> = got.iter().map(|m| m["to"].as_str().unwrap()).collect();
    to.sort();
    assert_eq!(to, ["society0@coop.in", "society1@coop.in", "society2@coop.in"]);
    assert!(
        got.iter()
            .all(|m| m["subject"] == "Deposit module update" && m["encrypted"] == true)
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM email_log WHERE purpose = 'module_notify' AND status = 'sent'"),
        3
    );
}
