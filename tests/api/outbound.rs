//! Documents going out: the PDF, the HTML preview, public share links, email through a fake
//! mail provider on loopback (Postmark's wire format), convert-and-send and notify-all, and the
//! letterhead and mail settings.

use crate::common::mail::{FakeMail, TOKEN};
use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode, header};
use base64::Engine;
use chrono::{Duration, Utc};
use serde_json::{Value, json};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

struct Office {
    app: TestApp,
    mail: FakeMail,
    owner: String,
    manager: String,
    staff: String,
    module: String,
    /// Has a contact with role secretary and an email, and an own email.
    society: String,
}

async fn office() -> Office {
    let app = TestApp::with_config(|c| c.allow_private_targets = true);
    let mail = FakeMail::start();
    let owner = app.owner().await;
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let (_, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    app.set_company(
        &owner,
        json!({ "bank_name": "State Bank of India", "bank_account": "0012345678", "bank_ifsc": "SBIN0000123" }),
    )
    .await;
    let module = app.priced_module(&owner, 10_000_000).await;
    let society = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "KADAKKAL SERVICE CO-OPERATIVE BANK LTD NO 1234", "state_code": "32", "email": "office@kadakkal.coop" }),
        )
        .await
        .body;
    let contact = app
        .post(
            &format!("/api/clients/{}/contacts", id(&society)),
            &owner,
            json!({ "name": "Secretary", "role": "secretary", "email": "secretary@kadakkal.coop" }),
        )
        .await;
    assert_eq!(contact.status, StatusCode::CREATED, "{}", contact.text);
    let mail_settings = app
        .send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&owner)
                .json(json!({ "api_url": mail.url, "from": "billing@softland.in", "token": TOKEN })),
        )
        .await;
    assert_eq!(mail_settings.status, StatusCode::OK, "{}", mail_settings.text);
    Office {
        app,
        mail,
        owner,
        manager,
        staff,
        module,
        society: id(&society),
    }
}

/// An issued document of `doc_type` for the society, one line of the module.
async fn issued(o: &Office, doc_type: &str) -> Value {
    let draft = o
        .app
        .post(
            "/api/documents",
            &o.owner,
            json!({ "type": doc_type, "client_id": o.society, "lines": [ { "module_id": o.module, "qty": 1 } ] }),
        )
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let reply = o
        .app
        .post(
            &format!("/api/documents/{}/issue", id(&draft.body)),
            &o.owner,
            json!({}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

#[tokio::test]
async fn the_pdf_is_inline_or_a_named_attachment_and_carries_the_rupee_sign_in_its_text() {
    let o = office().await;
    let invoice = issued(&o, "INVOICE").await;
    let no = invoice["docNo"].as_str().unwrap().to_string();
    let inline = o
        .app
        .get(&format!("/api/documents/{}/pdf", id(&invoice)), &o.owner)
        .await;
    assert_eq!(inline.status, StatusCode::OK);
    assert!(inline.bytes.starts_with(b"%PDF"), "not a PDF");
    assert_eq!(inline.headers[header::CONTENT_TYPE], "application/pdf");
    assert_eq!(
        inline.headers[header::CONTENT_DISPOSITION],
        format!("inline; filename=\"{}.pdf\"", no.replace('/', "-")).as_str()
    );
    let text = crate::common::pdf::text(&inline.bytes);
    assert!(text.contains("TAX INVOICE"), "{text}");
    assert!(text.contains(&no), "{text}");
    // ₹1,18,000.00: 1,00,000 and 18% GST, with the rupee sign in the text layer.
    assert!(text.contains("₹1,18,000.00"), "{text}");
    assert!(text.contains("Rupees One Lakh Eighteen Thousand Only"), "{text}");

    let download = o
        .app
        .get(
            &format!("/api/documents/{}/pdf?download=1", id(&invoice)),
            &o.owner,
        )
        .await;
    assert_eq!(
        download.headers[header::CONTENT_DISPOSITION],
        format!("attachment; filename=\"INV-{}.pdf\"", &no[4..]).as_str()
    );
    let draft = o
        .app
        .post(
            "/api/documents",
            &o.owner,
            json!({ "type": "QUOTATION", "client_id": o.society, "lines": [ { "module_id": o.module, "qty": 2 } ] }),
        )
        .await
        .body;
    let draft_pdf = o
        .app
        .get(&format!("/api/documents/{}/pdf?download=1", id(&draft)), &o.owner)
        .await;
    assert_eq!(
        draft_pdf.headers[header::CONTENT_DISPOSITION],
        "attachment; filename=\"draft.pdf\""
    );
    assert!(crate::common::pdf::text(&draft_pdf.bytes).contains("DRAFT"));
    // A staff user outside the book gets the same 404 as for a missing document.
    let hidden = o
        .app
        .get(&format!("/api/documents/{}/pdf", id(&invoice)), &o.staff)
        .await;
    assert_eq!(hidden.status, StatusCode::NOT_FOUND);
    let bad = o
        .app
        .get(
            &format!("/api/documents/{}/pdf?download=yes", id(&invoice)),
            &o.owner,
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_preview_renders_escaped_html_with_the_live_totals() {
    let o = office().await;
    let hostile = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "<script>alert(1)</script> Society", "state_code": "29" }),
        )
        .await
        .body;
    let preview = |qty: i64| {
        json!({ "type": "INVOICE", "client_id": id(&hostile), "notes": "<img src=x onerror=alert(2)>",
                "lines": [ { "module_id": o.module, "qty": qty } ] })
    };
    let one = o.app.post("/api/documents/preview", &o.owner, preview(1)).await;
    assert_eq!(one.status, StatusCode::OK, "{}", one.text);
    let html = one.body["html"].as_str().unwrap();
    assert!(
        html.contains("&#60;script&#62;alert(1)&#60;/script&#62; Society"),
        "{html}"
    );
    assert!(
        !html.contains("<script>") && !html.contains("<img src=x"),
        "{html}"
    );
    // Inter-state: IGST, and the total in rupees.
    assert!(html.contains("IGST") && html.contains("₹1,18,000.00"), "{html}");
    let two = o.app.post("/api/documents/preview", &o.owner, preview(2)).await;
    assert!(two.body["html"].as_str().unwrap().contains("₹2,36,000.00"));
    assert_eq!(
        o.app.count("SELECT COUNT(*) FROM document"),
        0,
        "a preview writes nothing"
    );

    let sample = o
        .app
        .post(
            "/api/previews/sample",
            &o.staff,
            json!({ "template": { "template.trade_name": "Softland <b>India</b>", "template.accent_color": "#AA3300" } }),
        )
        .await;
    assert_eq!(sample.status, StatusCode::OK, "{}", sample.text);
    let html = sample.body["html"].as_str().unwrap();
    assert!(
        html.contains("Softland &#60;b&#62;India&#60;/b&#62;") && html.contains("data-accent=\"#aa3300\""),
        "{html}"
    );
    let bad = o
        .app
        .post(
            "/api/previews/sample",
            &o.owner,
            json!({ "template": { "template.accent_color": "red" } }),
        )
        .await;
    assert_eq!(
        (bad.status, bad.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("template.accent_color"))
    );
}

#[tokio::test]
async fn shares_are_minted_by_managers_open_without_a_session_and_die_with_one_404() {
    let o = office().await;
    let invoice = issued(&o, "INVOICE").await;
    let path = format!("/api/documents/{}/share", id(&invoice));
    assert_eq!(
        o.app.post(&path, &o.staff, json!({})).await.status,
        StatusCode::FORBIDDEN
    );
    let before = Utc::now();
    let minted = o.app.post(&path, &o.manager, json!({})).await;
    assert_eq!(minted.status, StatusCode::CREATED, "{}", minted.text);
    let token = minted.body["token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 64);
    assert!(
        token
            .chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    );
    let expires = chrono::DateTime::parse_from_rfc3339(minted.body["expires_at"].as_str().unwrap()).unwrap();
    let expected = before + Duration::days(30);
    assert!(
        (expires.with_timezone(&Utc) - expected).num_seconds().abs() < 60,
        "default expiry is 30 days: {expires}"
    );
    // No share.base_url: the request's own origin.
    assert_eq!(minted.body["url"], format!("http://localhost/share/{token}"));

    let page = o
        .app
        .send(Call::new(Method::GET, &format!("/share/{token}")))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains(invoice["docNo"].as_str().unwrap()) && page.text.contains("Download PDF"));
    assert!(
        page.headers[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap()
            .contains("script-src 'self'")
    );
    let pdf = o
        .app
        .send(Call::new(Method::GET, &format!("/share/{token}/pdf")))
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert!(pdf.bytes.starts_with(b"%PDF"));

    // The document lists its shares (with tokens); the list of documents does not.
    let doc = o
        .app
        .get(&format!("/api/documents/{}", id(&invoice)), &o.owner)
        .await
        .body;
    assert_eq!(doc["shares"][0]["token"], token.as_str());
    assert_eq!(doc["shares"][0]["state"], "live");
    let list = o.app.get("/api/documents", &o.owner).await;
    assert!(!list.text.contains(&token));

    // Explicit expiry; base_url from the setting; refusals.
    let until = (Utc::now() + Duration::days(3)).format("%Y-%m-%d").to_string();
    let dated = o.app.post(&path, &o.owner, json!({ "expires_at": until })).await;
    assert_eq!(dated.status, StatusCode::CREATED, "{}", dated.text);
    for body in [
        json!({ "expires_at": "2001-01-01" }),
        json!({ "days": 0 }),
        json!({ "expires_at": "soon" }),
    ] {
        let refused = o.app.post(&path, &o.owner, body.clone()).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    }
    let shares_before = o.app.count("SELECT COUNT(*) FROM document_share");
    assert_eq!(shares_before, 2);

    // Revoked, expired and unknown tokens all get the same 404.
    let revoke = o
        .app
        .post(
            &format!("{path}/{}/revoke", minted.body["id"].as_str().unwrap()),
            &o.staff,
            json!({}),
        )
        .await;
    assert_eq!(revoke.status, StatusCode::NOT_FOUND, "staff outside the book");
    let revoke = o
        .app
        .post(
            &format!("{path}/{}/revoke", minted.body["id"].as_str().unwrap()),
            &o.owner,
            json!({}),
        )
        .await;
    assert_eq!(
        (
            revoke.status,
            revoke.body["state"].as_str(),
            revoke.body["revoked"].as_i64()
        ),
        (StatusCode::OK, Some("revoked"), Some(1)),
        "flags are 0/1 on the wire"
    );
    let expired_token = dated.body["token"].as_str().unwrap().to_string();
    o.app
        .sql()
        .execute(
            "UPDATE document_share SET expires_at = '2020-01-01T00:00:00Z' WHERE token = ?1",
            [&expired_token],
        )
        .unwrap();
    let unknown = "ab".repeat(32);
    let answers: Vec<_> = [token.as_str(), expired_token.as_str(), unknown.as_str(), "short"]
        .iter()
        .map(|t| {
            let app = &o.app;
            let t = t.to_string();
            async move {
                let page = app.send(Call::new(Method::GET, &format!("/share/{t}"))).await;
                let pdf = app.send(Call::new(Method::GET, &format!("/share/{t}/pdf"))).await;
                (page.status, page.text, pdf.status, pdf.text)
            }
        })
        .collect();
    let mut seen = vec![];
    for answer in answers {
        seen.push(answer.await);
    }
    assert_eq!(seen[0].0, StatusCode::NOT_FOUND);
    assert!(
        seen.iter().all(|a| *a == seen[0]),
        "one identical 404 for revoked, expired and unknown"
    );

    // The token never reaches the audit; mint and revoke are audited by share id.
    let audit_text: Vec<String> = {
        let conn = o.app.sql();
        let mut stmt = conn
            .prepare(
                "SELECT COALESCE(before, '') || COALESCE(after, '') || COALESCE(entity_id, '') FROM audit",
            )
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    for t in [&token, &expired_token] {
        assert!(
            audit_text.iter().all(|row| !row.contains(t.as_str())),
            "token in the audit"
        );
    }
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'document_share' AND action = 'minted'"),
        2
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'document_share' AND action = 'revoked'"),
        1
    );

    // share.base_url wins over the request's origin.
    o.app
        .sql()
        .execute(
            "INSERT INTO setting (id, key, value, effective_from, set_at) VALUES ('01SHAREBASE', 'share.base_url', '\"https://office.example.in/\"', '2000-01-01', '2026-01-01T00:00:00Z')",
            [],
        )
        .unwrap();
    let based = o.app.post(&path, &o.owner, json!({ "days": 5 })).await;
    assert!(
        based.body["url"]
            .as_str()
            .unwrap()
            .starts_with("https://office.example.in/share/"),
        "{}",
        based.text
    );
}

#[tokio::test]
async fn the_default_share_expiry_is_an_owner_setting() {
    let o = office().await;
    let get = o.app.get("/api/settings/share", &o.owner).await;
    assert_eq!(
        get.body,
        json!({ "default_expiry_days": 30, "base_url": null, "server_base_url": null, "effective_base_url": null })
    );
    assert_eq!(
        o.app.get("/api/settings/share", &o.manager).await.status,
        StatusCode::FORBIDDEN
    );
    let put = |days: Value| {
        o.app.send(
            Call::new(Method::PUT, "/api/settings/share")
                .cookie(&o.owner)
                .json(json!({ "default_expiry_days": days })),
        )
    };
    assert_eq!(put(json!(0)).await.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(put(json!(7)).await.status, StatusCode::OK);
    let invoice = issued(&o, "INVOICE").await;
    let minted = o
        .app
        .post(
            &format!("/api/documents/{}/share", id(&invoice)),
            &o.owner,
            json!({}),
        )
        .await;
    let expires = chrono::DateTime::parse_from_rfc3339(minted.body["expires_at"].as_str().unwrap()).unwrap();
    assert!(
        (expires.with_timezone(&Utc) - (Utc::now() + Duration::days(7)))
            .num_seconds()
            .abs()
            < 60
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity_id = 'share.default_expiry_days'"),
        1
    );

    // The base of public links (share.base_url): checked with the expiry, rejected whole.
    let put_both = |body: Value| {
        o.app.send(
            Call::new(Method::PUT, "/api/settings/share")
                .cookie(&o.owner)
                .json(body),
        )
    };
    let refused = put_both(json!({ "default_expiry_days": 0, "base_url": "ftp://files" })).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let fields: Vec<&str> = refused.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["default_expiry_days", "base_url"]);
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM setting WHERE key = 'share.base_url'"),
        0
    );
    let set = put_both(json!({ "default_expiry_days": 7, "base_url": " https://office.example.in/ " })).await;
    assert_eq!(
        set.body,
        json!({ "default_expiry_days": 7, "base_url": "https://office.example.in", "server_base_url": null,
                "effective_base_url": "https://office.example.in" })
    );
    let cleared = put_both(json!({ "default_expiry_days": 7, "base_url": "" })).await;
    assert_eq!(cleared.body["effective_base_url"], Value::Null);
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity_id = 'share.base_url'"),
        2
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity_id = 'share.default_expiry_days'"),
        1,
        "an unchanged expiry is not written again"
    );
}

#[tokio::test]
async fn sending_attaches_the_pdf_links_the_share_and_logs_every_attempt() {
    let o = office().await;
    let invoice = issued(&o, "INVOICE").await;
    let send = format!("/api/documents/{}/send", id(&invoice));
    let resolved = o
        .app
        .get(&format!("/api/documents/{}/recipient", id(&invoice)), &o.staff)
        .await;
    assert_eq!(
        resolved.status,
        StatusCode::NOT_FOUND,
        "outside the staff user's book"
    );
    let resolved = o
        .app
        .get(&format!("/api/documents/{}/recipient", id(&invoice)), &o.owner)
        .await;
    assert_eq!(
        resolved.body,
        json!({ "to": "secretary@kadakkal.coop", "bouncing": 0 })
    );
    let sent = o
        .app
        .post(&send, &o.owner, json!({ "cc": "president@kadakkal.coop" }))
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(sent.body["email"]["status"], "sent");
    // The contact with the secretary role wins over the client's own email.
    assert_eq!(sent.body["email"]["to"], "secretary@kadakkal.coop");
    let received = o.mail.received();
    assert_eq!(received.len(), 1);
    let email = &received[0];
    assert_eq!(
        (email["From"].as_str(), email["Cc"].as_str()),
        (Some("billing@softland.in"), Some("president@kadakkal.coop"))
    );
    let attachment = &email["Attachments"][0];
    let no = invoice["docNo"].as_str().unwrap();
    assert_eq!(attachment["Name"], format!("{}.pdf", no.replace('/', "-")));
    assert_eq!(attachment["ContentType"], "application/pdf");
    let pdf = base64::engine::general_purpose::STANDARD
        .decode(attachment["Content"].as_str().unwrap())
        .unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    let token: String = o
        .app
        .sql()
        .query_row("SELECT token FROM document_share", [], |r| r.get(0))
        .unwrap();
    assert!(
        email["HtmlBody"]
            .as_str()
            .unwrap()
            .contains(&format!("http://localhost/share/{token}"))
    );
    assert!(
        email["TextBody"]
            .as_str()
            .unwrap()
            .contains(&format!("/share/{token}"))
    );
    assert_eq!(
        sent.body["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "sent")
            .count(),
        1
    );
    let log = o
        .app
        .get(&format!("/api/email-log?document_id={}", id(&invoice)), &o.owner)
        .await;
    assert_eq!(log.body["total"], 1);
    assert_eq!(
        (
            log.body["rows"][0]["status"].as_str(),
            log.body["rows"][0]["provider_message_id"].as_str()
        ),
        (Some("sent"), Some("msg-0"))
    );

    // A second send reuses the live share.
    let again = o
        .app
        .post(
            &send,
            &o.owner,
            json!({ "to": "accounts@kadakkal.coop", "message": "Reminder." }),
        )
        .await;
    assert_eq!(
        (again.status, again.body["email"]["to"].as_str()),
        (StatusCode::OK, Some("accounts@kadakkal.coop"))
    );
    assert_eq!(o.app.count("SELECT COUNT(*) FROM document_share"), 1);

    // Bad addresses are refused before anything happens.
    let bad = o
        .app
        .post(&send, &o.owner, json!({ "to": "not an address" }))
        .await;
    assert_eq!(
        (bad.status, bad.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("to"))
    );
    // A draft is not emailed.
    let draft = o
        .app
        .post("/api/documents", &o.owner, json!({ "type": "QUOTATION", "client_id": o.society, "lines": [ { "module_id": o.module, "qty": 1 } ] }))
        .await
        .body;
    let refused = o
        .app
        .post(
            &format!("/api/documents/{}/send", id(&draft)),
            &o.owner,
            json!({}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert_eq!(o.app.count("SELECT COUNT(*) FROM email_log"), 2);
}

#[tokio::test]
async fn a_dead_token_is_a_failed_send_recorded_with_the_document_unchanged() {
    let o = office().await;
    let quote = issued(&o, "QUOTATION").await;
    let put = o
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&o.owner)
                .json(json!({ "token": "revoked-token" })),
        )
        .await;
    assert_eq!(
        (put.status, put.body["hasToken"].as_bool()),
        (StatusCode::OK, Some(true))
    );
    let failed = o
        .app
        .post(
            &format!("/api/documents/{}/send", id(&quote)),
            &o.owner,
            json!({}),
        )
        .await;
    assert_eq!(
        (failed.status, failed.code()),
        (StatusCode::BAD_GATEWAY, "mail_failed"),
        "{}",
        failed.text
    );
    assert!(!failed.text.contains("revoked-token"));
    let row: (String, String, String) = o
        .app
        .sql()
        .query_row("SELECT status, to_address, error FROM email_log", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!(
        (row.0.as_str(), row.1.as_str()),
        ("failed", "secretary@kadakkal.coop")
    );
    assert!(row.2.contains("401"), "{}", row.2);
    let doc = o
        .app
        .get(&format!("/api/documents/{}", id(&quote)), &o.owner)
        .await
        .body;
    assert_eq!(
        doc["status"], "issued",
        "a quotation moves to sent only when the email went"
    );
    assert!(
        doc["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["kind"] != "sent")
    );
    assert!(o.mail.received().is_empty());
}

#[tokio::test]
async fn convert_and_send_checks_everything_before_writing_and_keeps_the_invoice_when_the_email_fails() {
    let o = office().await;
    let proforma = issued(&o, "PROFORMA").await;
    let quote = issued(&o, "QUOTATION").await;
    let path = |d: &Value| format!("/api/documents/{}/convert-and-send", id(d));
    let counts = |app: &TestApp| {
        (
            app.count("SELECT COUNT(*) FROM document"),
            app.count("SELECT COUNT(*) FROM email_log"),
            app.count("SELECT COUNT(*) FROM document_event"),
            app.count("SELECT COUNT(*) FROM document_share"),
        )
    };
    let before = counts(&o.app);

    // Not a proforma.
    let r = o.app.post(&path(&quote), &o.owner, json!({})).await;
    assert_eq!((r.status, r.code()), (StatusCode::CONFLICT, "not_proforma"));
    // No recipient anywhere.
    let lonely = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "Quiet Society", "state_code": "32" }),
        )
        .await
        .body;
    let quiet = {
        let d = o
            .app
            .post("/api/documents", &o.owner, json!({ "type": "PROFORMA", "client_id": id(&lonely), "lines": [ { "module_id": o.module, "qty": 1 } ] }))
            .await
            .body;
        o.app
            .post(&format!("/api/documents/{}/issue", id(&d)), &o.owner, json!({}))
            .await
            .body
    };
    let before_quiet = counts(&o.app);
    let r = o.app.post(&path(&quiet), &o.owner, json!({})).await;
    assert_eq!((r.status, r.code()), (StatusCode::CONFLICT, "no_recipient"));
    assert_eq!(counts(&o.app), before_quiet);
    // The provider refuses the token: dead.
    o.app
        .send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&o.owner)
                .json(json!({ "token": "dead" })),
        )
        .await;
    let r = o.app.post(&path(&proforma), &o.owner, json!({})).await;
    assert_eq!(
        (r.status, r.code()),
        (StatusCode::CONFLICT, "mail_provider_dead"),
        "{}",
        r.text
    );
    // Not configured at all.
    o.app
        .send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&o.owner)
                .json(json!({ "token": "" })),
        )
        .await;
    let r = o.app.post(&path(&proforma), &o.owner, json!({})).await;
    assert_eq!(
        (r.status, r.code()),
        (StatusCode::CONFLICT, "mail_not_configured")
    );
    assert_eq!(
        counts(&o.app).0,
        before.0 + 1,
        "only the quiet society's proforma was added"
    );
    assert_eq!(counts(&o.app).1, 0, "no email was attempted");

    // Alive, but the send fails after the commit: the invoice stays issued, with a warning.
    o.app
        .send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&o.owner)
                .json(json!({ "token": TOKEN })),
        )
        .await;
    o.mail.fail_sends(true);
    let r = o.app.post(&path(&proforma), &o.owner, json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        (r.body["type"].as_str(), r.body["status"].as_str()),
        (Some("INVOICE"), Some("issued"))
    );
    assert!(r.body["docNo"].as_str().unwrap().starts_with("INV/"));
    assert_eq!(r.body["warnings"][0]["code"], "email_failed");
    assert_eq!(r.body["email"]["status"], "failed");
    let source = o
        .app
        .get(&format!("/api/documents/{}", id(&proforma)), &o.owner)
        .await
        .body;
    assert_eq!(
        (source["status"].as_str(), source["child_id"].as_str()),
        (Some("invoiced"), r.body["id"].as_str())
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM email_log WHERE status = 'failed'"),
        1
    );

    // The happy path: a fresh proforma goes out as an invoice.
    o.mail.fail_sends(false);
    let fresh = issued(&o, "PROFORMA").await;
    let r = o.app.post(&path(&fresh), &o.manager, json!({})).await;
    assert_eq!(
        (r.status, r.body["email"]["status"].as_str()),
        (StatusCode::OK, Some("sent")),
        "{}",
        r.text
    );
    assert_eq!(r.body["warnings"], json!([]));
    assert_eq!(o.mail.received().len(), 1);
    assert!(
        o.mail.received()[0]["Subject"]
            .as_str()
            .unwrap()
            .contains(r.body["docNo"].as_str().unwrap())
    );
}

#[tokio::test]
async fn notify_all_reaches_every_client_on_the_roster_and_names_the_unreachable() {
    let o = office().await;
    let mut unreachable = vec![];
    for n in 0..120 {
        let mut body =
            json!({ "name": format!("SOCIETY {n:03} SERVICE CO-OPERATIVE BANK"), "state_code": "32" });
        if n % 10 != 3 {
            body["email"] = json!(format!("society{n}@coop.in"));
        }
        let client = o.app.post("/api/clients", &o.owner, body).await.body;
        if n % 10 == 3 {
            unreachable.push(id(&client));
        }
        let link = o
            .app
            .post(
                "/api/client-modules",
                &o.owner,
                json!({ "client_id": id(&client), "module_id": o.module }),
            )
            .await;
        assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
    }
    let path = format!("/api/modules/{}/notify", o.module);
    let notice =
        json!({ "subject": "Deposit module update", "body": "Dear Secretary,\n\nVersion 5 is out." });
    assert_eq!(
        o.app.post(&path, &o.staff, notice.clone()).await.status,
        StatusCode::FORBIDDEN
    );
    let empty = o
        .app
        .post(&path, &o.manager, json!({ "subject": " ", "body": "x" }))
        .await;
    assert_eq!(
        (empty.status, empty.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("subject"))
    );
    let report = o.app.post(&path, &o.manager, notice).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    assert_eq!(
        (
            report.body["roster"].as_u64(),
            report.body["attempted"].as_u64(),
            report.body["sent"].as_u64()
        ),
        (Some(120), Some(108), Some(108))
    );
    let named: Vec<String> = report.body["unreachable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["client_id"].as_str().unwrap().to_string())
        .collect();
    unreachable.sort();
    let mut named_sorted = named.clone();
    named_sorted.sort();
    assert_eq!(named_sorted, unreachable);
    assert_eq!(o.mail.received().len(), 108);
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM email_log WHERE purpose = 'module_notify' AND status = 'sent'"),
        108
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'module' AND action = 'notify'"),
        108
    );
    assert!(
        o.mail.received()[0]["TextBody"]
            .as_str()
            .unwrap()
            .contains("Version 5 is out.")
    );
}

/// A manager who closes the browser while notify-all is sending loses nothing: every email that
/// went out still gets its email_log row and its audit row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_email_that_went_out_is_logged_even_when_the_caller_hangs_up() {
    let o = office().await;
    for n in 0..6 {
        let client = o
            .app
            .post(
                "/api/clients",
                &o.owner,
                json!({ "name": format!("SOCIETY {n} SCB"), "email": format!("s{n}@coop.in") }),
            )
            .await
            .body;
        o.app
            .post(
                "/api/client-modules",
                &o.owner,
                json!({ "client_id": id(&client), "module_id": o.module }),
            )
            .await;
    }
    o.mail.delay_sends(150);
    let path = format!("/api/modules/{}/notify", o.module);
    let notice = json!({ "subject": "Update", "body": "Version 5 is out." });
    let hung_up = tokio::time::timeout(
        std::time::Duration::from_millis(400),
        o.app.post(&path, &o.manager, notice),
    )
    .await;
    assert!(hung_up.is_err(), "the caller left before the sends were done");
    let logged = || {
        o.app
            .count("SELECT COUNT(*) FROM email_log WHERE purpose = 'module_notify'")
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while logged() < 6 && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!((o.mail.received().len(), logged()), (6, 6));
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'module' AND action = 'notify'"),
        6
    );
}

#[tokio::test]
async fn the_letterhead_falls_back_to_the_company_profile_and_takes_a_checked_logo() {
    let o = office().await;
    let get = o.app.get("/api/settings/template", &o.owner).await;
    assert_eq!(get.status, StatusCode::OK);
    assert_eq!(get.body["template.trade_name"], Value::Null);
    assert_eq!(get.body["defaults"]["template.trade_name"], "Softland India");
    assert_eq!(get.body["has_logo"], false);
    assert_eq!(
        o.app.get("/api/settings/template", &o.manager).await.status,
        StatusCode::FORBIDDEN
    );
    let put = |body: Value| {
        o.app.send(
            Call::new(Method::PUT, "/api/settings/template")
                .cookie(&o.owner)
                .json(body),
        )
    };
    let bad = put(json!({ "template.accent_color": "blue" })).await;
    assert_eq!(
        (bad.status, bad.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("template.accent_color"))
    );
    let unknown = put(json!({ "template.font": "Comic" })).await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    let gstin = put(json!({ "template.gstin": "32AABCK1234L1ZX" })).await;
    assert_eq!(
        (gstin.status, gstin.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("template.gstin"))
    );
    let ok =
        put(json!({ "template.trade_name": "Softland Co-op Solutions", "template.upi_id": "softland@sbi" }))
            .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    assert_eq!(ok.body["template.trade_name"], "Softland Co-op Solutions");
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity_id = 'template'"),
        1
    );
    let invoice = issued(&o, "INVOICE").await;
    let pdf = o
        .app
        .get(&format!("/api/documents/{}/pdf", id(&invoice)), &o.owner)
        .await;
    let text = crate::common::pdf::text(&pdf.bytes);
    assert!(
        text.contains("Softland Co-op Solutions") && text.contains("softland@sbi"),
        "{text}"
    );

    let upload = |bytes: Vec<u8>, name: &str| {
        let boundary = "XBOUNDARYX";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"logo\"; filename=\"{name}\"\r\nContent-Type: image/png\r\n\r\n"
        )
        .into_bytes();
        body.extend(bytes);
        body.extend(format!("\r\n--{boundary}--\r\n").into_bytes());
        o.app.send(
            Call::new(Method::POST, "/api/settings/template/logo")
                .cookie(&o.owner)
                .bytes(body, Some(&format!("multipart/form-data; boundary={boundary}"))),
        )
    };
    let fake = upload(b"GIF89a not a png at all".to_vec(), "logo.png").await;
    assert_eq!(
        (fake.status, fake.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "not_an_image")
    );
    let mut huge = b"\x89PNG\r\n\x1a\n".to_vec();
    huge.resize(600 * 1024, 0);
    assert_eq!(
        upload(huge, "big.png").await.status,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    assert_eq!(o.app.count("SELECT COUNT(*) FROM template_logo"), 0);
    let png = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/plumbing/pdf/test_logo.png"
    ))
    .to_vec();
    let stored = upload(png, "logo.jpg").await;
    assert_eq!(
        (stored.status, stored.body["has_logo"].as_bool()),
        (StatusCode::OK, Some(true)),
        "{}",
        stored.text
    );
    assert!(
        stored.body["logo"]
            .as_str()
            .unwrap()
            .starts_with("data:image/png;base64,")
    );
    let audit_after: String = o
        .app
        .sql()
        .query_row(
            "SELECT after FROM audit WHERE entity_id = 'template.logo'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        audit_after.contains("sha256") && audit_after.len() < 300,
        "the audit names the image, not its bytes"
    );
    let with_logo = o
        .app
        .get(&format!("/api/documents/{}/pdf", id(&invoice)), &o.owner)
        .await;
    assert_eq!(with_logo.status, StatusCode::OK);
    assert!(with_logo.bytes.len() > pdf.bytes.len());
}

#[tokio::test]
async fn the_mail_token_is_write_only_and_the_address_is_checked_against_forgery() {
    // The address check is on here (no lab switch).
    let app = TestApp::new();
    let owner = app.owner().await;
    let put = |body: Value| {
        app.send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&owner)
                .json(body),
        )
    };
    for url in [
        "http://127.0.0.1:9/",
        "http://169.254.169.254",
        "http://10.0.0.5",
        "ftp://mail.example.in",
    ] {
        let refused = put(json!({ "api_url": url })).await;
        assert_eq!(
            (refused.status, refused.body["error"]["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("api_url")),
            "{url}"
        );
    }
    let saved = put(json!({ "from": "billing@softland.in", "token": "very-secret-postmark-token" })).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(
        saved.body,
        json!({
            "transport": "api", "api_url": null, "from": "billing@softland.in", "hasToken": true,
            "smtp_host": null, "smtp_port": null, "smtp_security": null, "smtp_username": null,
            "hasSmtpPassword": false,
        })
    );
    let get = app.get("/api/settings/mail", &owner).await;
    assert!(!get.text.contains("very-secret-postmark-token"));
    assert_eq!(app.count("SELECT COUNT(*) FROM audit WHERE after LIKE '%very-secret-postmark-token%' OR before LIKE '%very-secret-postmark-token%'"), 0);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE entity_id = 'mail'"),
        1
    );
    let test = app.post("/api/settings/mail/test", &owner, json!({})).await;
    assert_eq!(
        (test.status, test.code()),
        (StatusCode::CONFLICT, "mail_not_configured")
    );
}

#[tokio::test]
async fn only_a_live_document_is_shared_and_its_cancel_revokes_its_links() {
    let o = office().await;
    let draft = o
        .app
        .post(
            "/api/documents",
            &o.owner,
            json!({ "type": "QUOTATION", "client_id": o.society, "lines": [ { "module_id": o.module, "qty": 1 } ] }),
        )
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let shares = || o.app.count("SELECT COUNT(*) FROM document_share");
    let audits = || o.app.count("SELECT COUNT(*) FROM audit");
    let (before_shares, before_audits) = (shares(), audits());
    let refused = o
        .app
        .post(
            &format!("/api/documents/{}/share", id(&draft.body)),
            &o.owner,
            json!({}),
        )
        .await;
    assert_eq!(
        (
            refused.status,
            refused.code(),
            refused.body["error"]["message"].as_str()
        ),
        (
            StatusCode::CONFLICT,
            "not_shareable",
            Some("A draft has no public link: issue it first.")
        )
    );
    assert_eq!((shares(), audits()), (before_shares, before_audits));

    // Two live links and one revoked by hand; the cancel revokes the live two and says so.
    let invoice = issued(&o, "INVOICE").await;
    let path = format!("/api/documents/{}/share", id(&invoice));
    let mut tokens = vec![];
    for _ in 0..3 {
        let minted = o.app.post(&path, &o.manager, json!({})).await;
        assert_eq!(minted.status, StatusCode::CREATED, "{}", minted.text);
        tokens.push((
            id(&minted.body),
            minted.body["token"].as_str().unwrap().to_string(),
        ));
    }
    let by_hand = o
        .app
        .post(&format!("{path}/{}/revoke", tokens[0].0), &o.owner, json!({}))
        .await;
    assert_eq!(by_hand.status, StatusCode::OK, "{}", by_hand.text);
    let app = &o.app;
    let public = |token: &str| {
        let token = token.to_string();
        async move {
            app.send(Call::new(Method::GET, &format!("/share/{token}")))
                .await
                .status
        }
    };
    assert_eq!(public(&tokens[1].1).await, StatusCode::OK);
    let cancelled = o
        .app
        .post(
            &format!("/api/documents/{}/cancel", id(&invoice)),
            &o.owner,
            json!({ "reason": "Raised twice" }),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    let states: Vec<&str> = cancelled.body["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, vec!["revoked", "revoked", "revoked"]);
    for (_, token) in &tokens {
        assert_eq!(public(token).await, StatusCode::NOT_FOUND);
    }
    assert_eq!(
        o.app.count(
            "SELECT COUNT(*) FROM audit WHERE entity = 'document_share' AND action = 'revoked'
             AND json_extract(after, '$.reason') = 'The document was cancelled.'"
        ),
        2
    );
    assert_eq!(
        o.app.count(&format!(
            "SELECT json_extract(after, '$.links_revoked') FROM audit WHERE entity = 'document' AND action = 'cancelled' AND entity_id = '{}'",
            id(&invoice)
        )),
        2
    );
    let again = o.app.post(&path, &o.owner, json!({})).await;
    assert_eq!(
        (
            again.status,
            again.code(),
            again.body["error"]["message"].as_str()
        ),
        (
            StatusCode::CONFLICT,
            "not_shareable",
            Some("A cancelled document has no public link.")
        )
    );

    // A link of a document cancelled before this version (never revoked) is shut as well.
    let old = issued(&o, "QUOTATION").await;
    let minted = o
        .app
        .post(&format!("/api/documents/{}/share", id(&old)), &o.owner, json!({}))
        .await;
    let token = minted.body["token"].as_str().unwrap().to_string();
    o.app
        .sql()
        .execute(
            "UPDATE document SET status = 'cancelled' WHERE id = ?1",
            [id(&old)],
        )
        .unwrap();
    assert_eq!(public(&token).await, StatusCode::NOT_FOUND);
}

fn codes(v: &Value) -> Vec<String> {
    v["warnings"]
        .as_array()
        .unwrap_or_else(|| panic!("no warnings in {v}"))
        .iter()
        .map(|w| w["code"].as_str().unwrap().to_string())
        .collect()
}

async fn put_share_base(o: &Office, base: &str) {
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

#[tokio::test]
async fn a_link_without_a_public_address_or_on_loopback_comes_with_warnings() {
    let o = office().await;
    let invoice = issued(&o, "INVOICE").await;
    let path = format!("/api/documents/{}/share", id(&invoice));
    // No public address: the link is the request's origin (localhost), and it says so twice.
    let minted = o.app.post(&path, &o.manager, json!({})).await;
    assert_eq!(minted.status, StatusCode::CREATED, "{}", minted.text);
    assert_eq!(codes(&minted.body), ["no_public_address", "loopback_link"]);
    assert_eq!(
        minted.body["warnings"][1]["message"],
        "This link points at this PC (localhost): people outside this PC cannot open it."
    );
    // The send reply carries the same, for the link in the email.
    let send = format!("/api/documents/{}/send", id(&invoice));
    let sent = o.app.post(&send, &o.owner, json!({})).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(codes(&sent.body), ["no_public_address", "loopback_link"]);
    // A public address set to this PC: only the loopback warning.
    put_share_base(&o, "http://127.0.0.1:8080").await;
    let minted = o.app.post(&path, &o.manager, json!({})).await;
    assert!(
        minted.body["url"]
            .as_str()
            .unwrap()
            .starts_with("http://127.0.0.1:8080/share/"),
        "{}",
        minted.text
    );
    assert_eq!(codes(&minted.body), ["loopback_link"]);
    // A real public address: no warnings, on the mint and the send.
    put_share_base(&o, "https://office.example.in").await;
    let minted = o.app.post(&path, &o.manager, json!({})).await;
    assert_eq!(codes(&minted.body), Vec::<String>::new());
    let sent = o.app.post(&send, &o.owner, json!({})).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(sent.body["warnings"], json!([]));
}

#[tokio::test]
async fn the_server_base_url_counts_as_a_public_address() {
    let app = TestApp::with_config(|c| c.base_url = Some("https://billing.example.in".into()));
    let owner = app.owner().await;
    let setup = app.get("/api/setup", &owner).await;
    assert_eq!(
        (
            setup.body["public_address_set"].clone(),
            setup.body["mail_set"].clone()
        ),
        (json!(true), json!(false))
    );
}

/// The checklist of `/api/setup` as (key, done) pairs.
fn checklist(v: &Value) -> Vec<(String, bool)> {
    v["checklist"]
        .as_array()
        .unwrap_or_else(|| panic!("no checklist in {v}"))
        .iter()
        .map(|i| {
            (
                i["key"].as_str().unwrap().to_string(),
                i["done"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn setup_tells_everyone_what_is_set_up_and_the_owner_the_checklist() {
    let app = TestApp::with_config(|c| c.allow_private_targets = true);
    let owner = app.owner().await;
    let fresh = app.get("/api/setup", &owner).await;
    assert_eq!(fresh.status, StatusCode::OK, "{}", fresh.text);
    let undone = |keys: &[&str]| -> Vec<(String, bool)> {
        [
            "company_profile",
            "gstin_state",
            "public_address",
            "mail",
            "upi_id",
            "logo",
            "first_staff",
        ]
        .iter()
        .map(|k| (k.to_string(), !keys.contains(k)))
        .collect()
    };
    assert_eq!(
        checklist(&fresh.body),
        undone(&[
            "company_profile",
            "gstin_state",
            "public_address",
            "mail",
            "upi_id",
            "logo",
            "first_staff"
        ])
    );
    assert_eq!(
        (
            &fresh.body["public_address_set"],
            &fresh.body["mail_set"],
            &fresh.body["complete"]
        ),
        (&json!(false), &json!(false), &json!(false))
    );
    assert_eq!(
        fresh.body["checklist"][2],
        json!({ "key": "public_address", "label": "Public address of shared links", "done": false, "href": "/settings/template#public-links" })
    );
    // Others read the two facts, never the checklist.
    let (_, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    let theirs = app.get("/api/setup", &staff).await;
    assert_eq!(
        theirs.body,
        json!({ "public_address_set": false, "mail_set": false, "checklist": null, "complete": null })
    );
    assert_eq!(
        app.send(Call::new(Method::GET, "/api/setup")).await.status,
        StatusCode::UNAUTHORIZED
    );
    // The profile, a UPI ID, the public address and mail tick theirs; the staff member is there.
    app.set_company(&owner, json!({ "upi_id": "softland@okaxis" }))
        .await;
    let share = app
        .send(
            Call::new(Method::PUT, "/api/settings/share")
                .cookie(&owner)
                .json(json!({ "default_expiry_days": 30, "base_url": "https://office.example.in" })),
        )
        .await;
    assert_eq!(share.status, StatusCode::OK, "{}", share.text);
    let mail = FakeMail::start();
    let put = app
        .send(
            Call::new(Method::PUT, "/api/settings/mail")
                .cookie(&owner)
                .json(json!({ "api_url": mail.url, "from": "billing@softland.in", "token": TOKEN })),
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text);
    let now = app.get("/api/setup", &owner).await;
    assert_eq!(checklist(&now.body), undone(&["logo"]));
    assert_eq!(
        (
            &now.body["public_address_set"],
            &now.body["mail_set"],
            &now.body["complete"]
        ),
        (&json!(true), &json!(true), &json!(false))
    );
    assert_eq!(
        app.get("/api/setup", &staff).await.body,
        json!({ "public_address_set": true, "mail_set": true, "checklist": null, "complete": null })
    );
}
