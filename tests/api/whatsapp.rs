//! WhatsApp click-to-chat (decisions 12): the number chosen (the WhatsApp contact, else the
//! secretary, else any mobile, else the society's phone; a landline refused), the exact text and
//! link of a document and of a reminder, recording a chat as an interaction (and a reminder as
//! sent), the staff book, and a draft refused with nothing written.

use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

/// `value` percent-encoded as the link carries it (RFC 3986 unreserved kept).
fn encoded(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

struct Office {
    app: TestApp,
    owner: String,
    staff: String,
    module: String,
    society: String,
}

/// Softland India (UPI softland@okaxis); Kadakkal SCB with a landline of its own, a secretary
/// and a contact marked WhatsApp; the module at ₹1,00,000 + 18 %.
async fn office() -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (_, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    app.set_company(&owner, json!({ "upi_id": "softland@okaxis" }))
        .await;
    let module = app.priced_module(&owner, 10_000_000).await;
    let society = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Kadakkal SCB", "state_code": "32", "phone": "0474 2456789" }),
        )
        .await;
    assert_eq!(society.status, StatusCode::CREATED, "{}", society.text);
    let society = id(&society.body);
    Office {
        app,
        owner,
        staff,
        module,
        society,
    }
}

impl Office {
    async fn contact(&self, name: &str, role: &str, phone: &str) -> String {
        let reply = self
            .app
            .post(
                &format!("/api/clients/{}/contacts", self.society),
                &self.owner,
                json!({ "name": name, "role": role, "phone": phone }),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        id(&reply.body)
    }

    async fn invoice(&self, doc_date: &str, due: &str) -> Value {
        let draft = self
            .app
            .post(
                "/api/documents",
                &self.owner,
                json!({ "type": "INVOICE", "client_id": self.society, "doc_date": doc_date, "dueDate": due,
                        "lines": [ { "module_id": self.module, "qty": 1 } ] }),
            )
            .await;
        assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
        let issued = self
            .app
            .post(
                &format!("/api/documents/{}/issue", id(&draft.body)),
                &self.owner,
                json!({}),
            )
            .await;
        assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
        issued.body
    }

    fn interactions(&self) -> Vec<(String, String)> {
        let sql = self.app.sql();
        let mut stmt = sql
            .prepare("SELECT type, notes FROM interaction WHERE client_id = ?1 ORDER BY created_at, id")
            .unwrap();
        stmt.query_map([&self.society], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }
}

#[tokio::test]
async fn a_document_chat_goes_to_the_whatsapp_contact_with_the_amount_link_and_upi() {
    let o = office().await;
    o.contact("Rajan", "secretary", "+91 98470 12345").await;
    let marked = o.contact("Suma", "WhatsApp", "094470-55555").await;
    let invoice = o.invoice("2026-10-01", "2026-10-16").await;
    let path = format!("/api/documents/{}/whatsapp", id(&invoice));
    let no = invoice["docNo"].as_str().unwrap();

    let chat = o.app.get(&path, &o.owner).await;
    assert_eq!(chat.status, StatusCode::OK, "{}", chat.text);
    let upi = invoice["upi"]["uri"].as_str().unwrap();
    let text = format!(
        "Dear Sir/Madam,\n\nThis is our tax invoice {no} dated 01 Oct 2026 for ₹1,18,000.00, due on 16 Oct 2026.\n\n\
         Pay ₹1,18,000.00 by UPI: {upi}\n\nRegards,\nSoftland India"
    );
    assert_eq!(
        chat.body,
        json!({ "phone": "919447055555", "text": text, "url": format!("https://wa.me/919447055555?text={}", encoded(&text)) })
    );

    // A live public link under the public address is named.
    let put = o
        .app
        .send(
            Call::new(Method::PUT, "/api/settings/share")
                .cookie(&o.owner)
                .json(json!({ "default_expiry_days": 30, "base_url": "https://office.example.in" })),
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text);
    let share = o
        .app
        .post(
            &format!("/api/documents/{}/share", id(&invoice)),
            &o.owner,
            json!({}),
        )
        .await;
    let token = share.body["token"].as_str().unwrap();
    let chat = o.app.get(&path, &o.owner).await;
    assert!(
        chat.body["text"].as_str().unwrap().contains(&format!(
            "\n\nView it online: https://office.example.in/share/{token}\n\nPay ₹1,18,000.00 by UPI"
        )),
        "{}",
        chat.text
    );

    // Part paid: what is outstanding is said.
    let paid = o
        .app
        .post(
            "/api/payments",
            &o.owner,
            json!({ "client_id": o.society, "received_on": "2026-10-20", "amount": 5_000_000, "mode": "upi",
                    "allocations": [ { "document_id": id(&invoice), "amount": 5_000_000, "tds": 0 } ] }),
        )
        .await;
    assert_eq!(paid.status, StatusCode::CREATED, "{}", paid.text);
    let chat = o.app.get(&path, &o.owner).await;
    assert!(
        chat.body["text"]
            .as_str()
            .unwrap()
            .contains("for ₹1,18,000.00: ₹68,000.00 is outstanding, due on 16 Oct 2026.\n\n"),
        "{}",
        chat.text
    );

    // Without the WhatsApp contact, the secretary.
    let gone = o
        .app
        .send(
            Call::new(Method::DELETE, &format!("/api/contacts/{marked}"))
                .cookie(&o.owner)
                .json(json!({})),
        )
        .await;
    assert!(gone.status.is_success(), "{}", gone.text);
    assert_eq!(o.app.get(&path, &o.owner).await.body["phone"], "919847012345");

    // Recording it: one whatsapp interaction, and the same chat answered.
    let sent = o.app.post(&path, &o.owner, json!({})).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(sent.body["phone"], "919847012345");
    assert_eq!(
        o.interactions(),
        vec![(
            "whatsapp".to_string(),
            format!("WhatsApp to +919847012345: tax invoice {no}")
        )]
    );
    let interaction = o.app.sql().query_row(
        "SELECT id FROM interaction WHERE client_id = ?1",
        [&o.society],
        |r| r.get::<_, String>(0),
    );
    assert_eq!(sent.body["interaction_id"].as_str(), interaction.ok().as_deref());
}

#[tokio::test]
async fn a_landline_is_refused_and_the_book_and_drafts_are_kept() {
    let o = office().await;
    let invoice = o.invoice("2026-10-01", "2026-10-16").await;
    let path = format!("/api/documents/{}/whatsapp", id(&invoice));

    // Only the society's landline: 409, naming it, and a POST writes nothing.
    let refused = o.app.get(&path, &o.owner).await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::CONFLICT, "no_whatsapp_number")
    );
    assert_eq!(
        refused.body["error"]["message"],
        "None of Kadakkal SCB's numbers is an Indian mobile: the society's own number 0474 2456789. \
         Add a contact with the role WhatsApp and a 10-digit mobile number."
    );
    assert_eq!(
        o.app.post(&path, &o.owner, json!({})).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(o.interactions(), vec![]);

    // Any contact with a mobile will do.
    o.contact("Office", "accountant", "9895 123 456").await;
    assert_eq!(o.app.get(&path, &o.owner).await.body["phone"], "919895123456");

    // Staff outside the book: 404.
    assert_eq!(o.app.get(&path, &o.staff).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        o.app.post(&path, &o.staff, json!({})).await.status,
        StatusCode::NOT_FOUND
    );

    // A draft is not sent.
    let draft = o
        .app
        .post(
            "/api/documents",
            &o.owner,
            json!({ "type": "INVOICE", "client_id": o.society, "lines": [ { "module_id": o.module, "qty": 1 } ] }),
        )
        .await;
    let draft_path = format!("/api/documents/{}/whatsapp", id(&draft.body));
    let refused = o.app.post(&draft_path, &o.owner, json!({})).await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::CONFLICT, "not_shareable")
    );
    assert_eq!(o.interactions(), vec![]);
}

#[tokio::test]
async fn a_reminder_chat_carries_its_letter_and_sending_it_closes_the_reminder() {
    let o = office().await;
    o.contact("Rajan", "secretary", "98470 12345").await;
    let invoice = o.invoice("2026-10-01", "2026-10-16").await;
    let no = invoice["docNo"].as_str().unwrap();
    let scan = o
        .app
        .post("/api/jobs/daily-scan", &o.owner, json!({ "as_of": "2026-10-17" }))
        .await;
    assert_eq!(scan.status, StatusCode::OK, "{}", scan.text);
    let list = o
        .app
        .get("/api/reminders?rule_kind=invoice_overdue&status=open", &o.owner)
        .await;
    assert_eq!(list.body["total"], 1, "{}", list.text);
    let reminder = list.body["rows"][0]["id"].as_str().unwrap().to_string();
    let path = format!("/api/reminders/{reminder}/whatsapp");

    let chat = o.app.get(&path, &o.owner).await;
    assert_eq!(chat.status, StatusCode::OK, "{}", chat.text);
    let text = chat.body["text"].as_str().unwrap();
    let upi = invoice["upi"]["uri"].as_str().unwrap();
    assert!(
        text.starts_with(&format!(
            "Dear Sir/Madam,\n\nOur invoice {no} dated 01-10-2026 was due on 16-10-2026 and is now "
        )),
        "{text}"
    );
    assert!(text.contains("The amount outstanding is ₹1,18,000.00."), "{text}");
    assert!(
        text.contains(&format!("\nPay ₹1,18,000.00 by UPI: {upi}\n")),
        "{text}"
    );
    assert_eq!(chat.body["phone"], "919847012345");
    assert_eq!(
        chat.body["url"],
        format!("https://wa.me/919847012345?text={}", encoded(text))
    );

    let sent = o.app.post(&path, &o.owner, json!({})).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let after = o.app.get(&format!("/api/reminders/{reminder}"), &o.owner).await;
    assert_eq!(after.body["status"], "sent");
    assert_eq!(o.interactions().len(), 1);
    assert_eq!(o.interactions()[0].0, "whatsapp");
    assert_eq!(
        o.app.count(&format!(
            "SELECT COUNT(*) FROM audit WHERE entity = 'reminder' AND entity_id = '{reminder}' AND action = 'sent'"
        )),
        1
    );
    // Sending it again records the chat, and the reminder stays sent.
    assert_eq!(
        o.app.post(&path, &o.owner, json!({})).await.status,
        StatusCode::OK
    );
    assert_eq!(o.interactions().len(), 2);
}

#[tokio::test]
async fn a_statement_chat_names_the_period_and_the_balance_due() {
    let o = office().await;
    o.contact("Rajan", "WhatsApp", "98470 12345").await;
    o.invoice("2026-10-01", "2026-10-16").await;
    let path = format!(
        "/api/clients/{}/statement/whatsapp?from=2026-04-01&to=2026-10-31",
        o.society
    );
    let chat = o.app.get(&path, &o.owner).await;
    assert_eq!(chat.status, StatusCode::OK, "{}", chat.text);
    let statement = o
        .app
        .get(
            &format!(
                "/api/clients/{}/statement?from=2026-04-01&to=2026-10-31",
                o.society
            ),
            &o.owner,
        )
        .await;
    let upi = statement.body["upi"]["uri"].as_str().unwrap();
    let text = format!(
        "Dear Sir/Madam,\n\nYour statement of account with us from 01 Apr 2026 to 31 Oct 2026: the balance due is \
         ₹1,18,000.00. We will email you the statement as a PDF on request.\n\nPay ₹1,18,000.00 by UPI: {upi}\n\n\
         Regards,\nSoftland India"
    );
    assert_eq!(
        chat.body,
        json!({ "phone": "919847012345", "text": text, "url": format!("https://wa.me/919847012345?text={}", encoded(&text)) })
    );
    // A bad period is refused and nothing is written; staff outside the book get 404.
    let post_path = format!("/api/clients/{}/statement/whatsapp", o.society);
    let bad = o
        .app
        .post(
            &post_path,
            &o.owner,
            json!({ "from": "2026-11-01", "to": "2026-10-31" }),
        )
        .await;
    assert_eq!(
        (bad.status, bad.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "invalid_period")
    );
    let bad = o.app.get(&format!("{post_path}?from=2026-02-30"), &o.owner).await;
    assert_eq!(
        (bad.status, bad.code()),
        (StatusCode::BAD_REQUEST, "invalid_query")
    );
    assert_eq!(o.app.get(&path, &o.staff).await.status, StatusCode::NOT_FOUND);
    assert_eq!(o.interactions(), vec![]);

    let sent = o
        .app
        .post(
            &post_path,
            &o.owner,
            json!({ "from": "2026-04-01", "to": "2026-10-31" }),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(sent.body["text"], json!(text));
    assert_eq!(
        o.interactions(),
        vec![(
            "whatsapp".to_string(),
            "WhatsApp to +919847012345: statement of account 2026-04-01 to 2026-10-31".to_string()
        )]
    );
}
