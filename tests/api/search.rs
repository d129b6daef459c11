//! Global search (issue 20): clients by name, GSTIN, district and remote access id; issued
//! documents (never a draft; cancelled ones kept) by number and by their client's name; tickets
//! by subject, still-open ones first. Five hits a group, `capped` at the sixth; a staff user
//! finds their book only (and their share of tickets); bad text refused with a clear 400.

use crate::common::TestApp;
use axum::http::StatusCode;
use serde_json::{Value, json};

struct Office {
    app: TestApp,
    owner: String,
    anna: String,
    anna_id: String,
    /// Anna's.
    chavara: String,
    kallai: String,
    /// The owner's.
    anchal: String,
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

async fn client(app: &TestApp, owner: &str, body: Value) -> String {
    let reply = app.post("/api/clients", owner, body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    id(&reply.body)
}

async fn office() -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let (anna_id, pw) = app.invite(&owner, "anna@coop.in", "staff").await;
    let anna = app.login("anna@coop.in", &pw).await;
    let chavara = client(
        &app,
        &owner,
        json!({ "name": "Chavara Service Co-operative Bank", "gstin": "32AABCK1234L1ZV", "district": "Kollam", "owner_id": anna_id }),
    )
    .await;
    let kallai = client(
        &app,
        &owner,
        json!({ "name": "Kallai PACS", "state_code": "32", "district": "Kozhikode", "remote_access_id": "AD-771-204", "owner_id": anna_id }),
    )
    .await;
    let anchal = client(
        &app,
        &owner,
        json!({ "name": "Anchal Farmers Bank", "gstin": "29AAGCB7383J1Z4", "district": "Kollam" }),
    )
    .await;
    Office {
        app,
        owner,
        anna,
        anna_id,
        chavara,
        kallai,
        anchal,
    }
}

/// A draft of `doc_type` for `client` with one ₹1,000 line; its id.
async fn draft(o: &Office, doc_type: &str, client: &str) -> String {
    let reply = o
        .app
        .post(
            "/api/documents",
            &o.owner,
            json!({ "type": doc_type, "client_id": client,
                    "lines": [ { "description": "Deposit module", "qty": 1, "unit_price": 100_000, "gst_rate": 18 } ] }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    id(&reply.body)
}

/// An issued document; its id and number.
async fn issued(o: &Office, doc_type: &str, client: &str) -> (String, String) {
    let doc = draft(o, doc_type, client).await;
    let reply = o
        .app
        .post(&format!("/api/documents/{doc}/issue"), &o.owner, json!({}))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    (doc, reply.body["docNo"].as_str().unwrap().to_string())
}

async fn ticket(o: &Office, body: Value) -> String {
    let reply = o.app.post("/api/tickets", &o.owner, body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    id(&reply.body)
}

async fn search(o: &Office, cookie: &str, q: &str) -> Value {
    let path = format!("/api/search?q={}", urlencode(q));
    let reply = o.app.get(&path, cookie).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
    reply.body
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// (id, label, matched) of each hit of a group.
fn hits(found: &Value, group: &str) -> Vec<(String, String, String)> {
    found[group]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["id"].as_str().unwrap().to_string(),
                h["label"].as_str().unwrap().to_string(),
                h["matched"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn ids(found: &Value, group: &str) -> Vec<String> {
    hits(found, group).into_iter().map(|h| h.0).collect()
}

fn capped(found: &Value, group: &str) -> bool {
    found[group]["capped"].as_bool().unwrap()
}

#[tokio::test]
async fn clients_are_found_by_name_gstin_district_and_remote_access_id() {
    let o = office().await;
    let by_name = search(&o, &o.owner, "  chavara  ").await;
    assert_eq!(
        hits(&by_name, "clients"),
        [(
            o.chavara.clone(),
            "Chavara Service Co-operative Bank".into(),
            "name".into()
        )]
    );
    assert_eq!(
        by_name["clients"]["rows"][0]["detail"],
        "Kollam · GSTIN 32AABCK1234L1ZV"
    );
    assert_eq!(
        hits(&search(&o, &o.owner, "aagcb7383").await, "clients"),
        [(o.anchal.clone(), "Anchal Farmers Bank".into(), "gstin".into())]
    );
    // By name: Anchal before Chavara.
    assert_eq!(
        hits(&search(&o, &o.owner, "KOLLAM").await, "clients"),
        [
            (o.anchal.clone(), "Anchal Farmers Bank".into(), "district".into()),
            (
                o.chavara.clone(),
                "Chavara Service Co-operative Bank".into(),
                "district".into()
            )
        ]
    );
    let remote = search(&o, &o.owner, "771-2").await;
    assert_eq!(
        hits(&remote, "clients"),
        [(o.kallai.clone(), "Kallai PACS".into(), "remote_access_id".into())]
    );
    assert_eq!(
        remote["clients"]["rows"][0]["detail"],
        "Kozhikode · Remote AD-771-204"
    );
    // "bank" is in two names; % and _ are literal, not wildcards.
    assert_eq!(
        ids(&search(&o, &o.owner, "bank").await, "clients"),
        [o.anchal.clone(), o.chavara.clone()]
    );
    assert!(ids(&search(&o, &o.owner, "a%").await, "clients").is_empty());
    assert!(ids(&search(&o, &o.owner, "l_i").await, "clients").is_empty());
}

#[tokio::test]
async fn issued_documents_are_found_by_number_and_by_client_name_and_drafts_never() {
    let o = office().await;
    let (first, first_no) = issued(&o, "INVOICE", &o.chavara).await;
    let (quote, quote_no) = issued(&o, "QUOTATION", &o.chavara).await;
    let (other, other_no) = issued(&o, "INVOICE", &o.anchal).await;
    let (cancelled, cancelled_no) = issued(&o, "INVOICE", &o.chavara).await;
    let reply = o
        .app
        .post(
            &format!("/api/documents/{cancelled}/cancel"),
            &o.owner,
            json!({ "reason": "Raised twice" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let draft = draft(&o, "INVOICE", &o.chavara).await;
    let today_fy = &first_no[4..9];
    assert_eq!(first_no, format!("INV/{today_fy}-0001"));
    assert_eq!(
        (other_no.as_str(), cancelled_no.as_str(), quote_no.as_str()),
        (
            &*format!("INV/{today_fy}-0002"),
            &*format!("INV/{today_fy}-0003"),
            &*format!("QT/{today_fy}-0001")
        )
    );

    // The whole number: that document, with what the console links and shows.
    let exact = search(&o, &o.owner, &other_no).await;
    assert_eq!(
        hits(&exact, "documents"),
        [(other.clone(), other_no.clone(), "number".into())]
    );
    let hit = &exact["documents"]["rows"][0];
    assert_eq!(
        (
            hit["docNo"].as_str(),
            hit["type"].as_str(),
            hit["status"].as_str(),
            hit["client_id"].as_str(),
            hit["client_name"].as_str(),
            hit["total"].as_i64()
        ),
        (
            Some(other_no.as_str()),
            Some("INVOICE"),
            Some("issued"),
            Some(o.anchal.as_str()),
            Some("Anchal Farmers Bank"),
            Some(118_000)
        )
    );
    assert!(
        hit["detail"]
            .as_str()
            .unwrap()
            .starts_with("Invoice · Anchal Farmers Bank · ")
    );
    assert!(!capped(&exact, "documents"));

    // The tail of a number: those ending with it first, newest first; then where more follows.
    let tail = search(&o, &o.owner, "-0001").await;
    assert_eq!(ids(&tail, "documents"), [quote.clone(), first.clone()]);
    let prefix = search(&o, &o.owner, &format!("inv/{today_fy}-000")).await;
    assert_eq!(
        ids(&prefix, "documents"),
        [first.clone(), other.clone(), cancelled.clone()]
    );
    assert_eq!(prefix["documents"]["rows"][2]["status"], "cancelled");

    // The client's name: its issued documents, newest first; the draft never.
    let named = search(&o, &o.owner, "chavara").await;
    assert_eq!(
        hits(&named, "documents"),
        [
            (cancelled.clone(), cancelled_no.clone(), "client_name".into()),
            (quote.clone(), quote_no.clone(), "client_name".into()),
            (first.clone(), first_no.clone(), "client_name".into()),
        ]
    );
    for q in ["chavara", "inv/", "service co"] {
        assert!(
            !ids(&search(&o, &o.owner, q).await, "documents").contains(&draft),
            "{q}"
        );
    }
}

#[tokio::test]
async fn tickets_are_found_by_subject_still_open_first() {
    let o = office().await;
    let old = ticket(&o, json!({ "client_id": o.kallai, "subject": "Passbook printer skips lines", "opened_on": days_ago(&o, 9) })).await;
    let resolved = ticket(&o, json!({ "client_id": o.chavara, "subject": "Printer driver after Windows update", "status": "resolved" })).await;
    let new = ticket(
        &o,
        json!({ "client_id": o.anchal, "subject": "Cheque PRINTER alignment", "opened_on": days_ago(&o, 2) }),
    )
    .await;
    ticket(&o, json!({ "client_id": o.anchal, "subject": "Day-end fails" })).await;
    let found = search(&o, &o.owner, "printer").await;
    assert_eq!(
        ids(&found, "tickets"),
        [new.clone(), old.clone(), resolved.clone()]
    );
    let first = &found["tickets"]["rows"][0];
    assert_eq!(
        (
            first["label"].as_str(),
            first["status"].as_str(),
            first["client_id"].as_str(),
            first["client_name"].as_str()
        ),
        (
            Some("Cheque PRINTER alignment"),
            Some("open"),
            Some(o.anchal.as_str()),
            Some("Anchal Farmers Bank")
        )
    );
    assert_eq!(
        first["detail"].as_str().unwrap(),
        format!("Anchal Farmers Bank · open · opened {}", days_ago(&o, 2))
    );
    assert!(!capped(&found, "tickets"));
}

fn days_ago(o: &Office, n: i64) -> String {
    let today = o
        .app
        .state
        .db
        .read_blocking(backoffice::plumbing::db::settings::office_today)
        .unwrap();
    (today - chrono::Duration::days(n)).to_string()
}

#[tokio::test]
async fn a_sixth_hit_caps_a_group_of_five() {
    let o = office().await;
    // Five of each: not capped.
    for n in 1..=5 {
        client(
            &o.app,
            &o.owner,
            json!({ "name": format!("Karunagappally Unit {n}"), "state_code": "32" }),
        )
        .await;
        ticket(
            &o,
            json!({ "client_id": o.anchal, "subject": format!("Locker rent report {n}") }),
        )
        .await;
        issued(&o, "INVOICE", &o.kallai).await;
    }
    let five = search(&o, &o.owner, "karunagappally").await;
    assert_eq!(
        (ids(&five, "clients").len(), capped(&five, "clients")),
        (5, false)
    );
    let five = search(&o, &o.owner, "locker rent").await;
    assert_eq!(
        (ids(&five, "tickets").len(), capped(&five, "tickets")),
        (5, false)
    );
    let five = search(&o, &o.owner, "kallai").await;
    assert_eq!(
        (ids(&five, "documents").len(), capped(&five, "documents")),
        (5, false)
    );
    let numbers = search(&o, &o.owner, "inv/").await;
    assert_eq!(
        (ids(&numbers, "documents").len(), capped(&numbers, "documents")),
        (5, false)
    );
    // The sixth.
    client(
        &o.app,
        &o.owner,
        json!({ "name": "Karunagappally Unit 6", "state_code": "32" }),
    )
    .await;
    ticket(
        &o,
        json!({ "client_id": o.anchal, "subject": "Locker rent report 6", "status": "closed" }),
    )
    .await;
    issued(&o, "INVOICE", &o.kallai).await;
    let six = search(&o, &o.owner, "karunagappally").await;
    assert_eq!((ids(&six, "clients").len(), capped(&six, "clients")), (5, true));
    assert_eq!(six["clients"]["rows"][4]["label"], "Karunagappally Unit 5");
    let six = search(&o, &o.owner, "locker rent").await;
    assert_eq!((ids(&six, "tickets").len(), capped(&six, "tickets")), (5, true));
    let six = search(&o, &o.owner, "kallai").await;
    assert_eq!(
        (ids(&six, "documents").len(), capped(&six, "documents")),
        (5, true)
    );
    let numbers = search(&o, &o.owner, "inv/").await;
    assert_eq!(
        (ids(&numbers, "documents").len(), capped(&numbers, "documents")),
        (5, true)
    );
}

#[tokio::test]
async fn staff_find_their_book_and_their_share_of_tickets() {
    let o = office().await;
    let (mine, mine_no) = issued(&o, "INVOICE", &o.chavara).await;
    let (theirs, theirs_no) = issued(&o, "INVOICE", &o.anchal).await;
    let my_ticket = ticket(
        &o,
        json!({ "client_id": o.kallai, "subject": "Ledger printer offline" }),
    )
    .await;
    let assigned = ticket(
        &o,
        json!({ "client_id": o.anchal, "subject": "Branch printer jam", "assignee_id": o.anna_id }),
    )
    .await;
    let other = ticket(
        &o,
        json!({ "client_id": o.anchal, "subject": "Head office printer toner" }),
    )
    .await;

    let owner = search(&o, &o.owner, "kollam").await;
    assert_eq!(ids(&owner, "clients"), [o.anchal.clone(), o.chavara.clone()]);
    let anna = search(&o, &o.anna, "kollam").await;
    assert_eq!(ids(&anna, "clients"), std::slice::from_ref(&o.chavara));
    assert!(ids(&search(&o, &o.anna, "aagcb").await, "clients").is_empty());

    assert_eq!(
        ids(&search(&o, &o.anna, &mine_no).await, "documents"),
        std::slice::from_ref(&mine)
    );
    assert!(ids(&search(&o, &o.anna, &theirs_no).await, "documents").is_empty());
    assert!(ids(&search(&o, &o.anna, "anchal").await, "documents").is_empty());
    assert_eq!(
        ids(&search(&o, &o.owner, &theirs_no).await, "documents"),
        [theirs]
    );
    assert_eq!(ids(&search(&o, &o.anna, "inv/").await, "documents"), [mine]);

    let mut found = ids(&search(&o, &o.anna, "printer").await, "tickets");
    found.sort();
    let mut share = vec![my_ticket.clone(), assigned.clone()];
    share.sort();
    assert_eq!(found, share);
    assert_eq!(ids(&search(&o, &o.owner, "printer").await, "tickets").len(), 3);
    assert!(!ids(&search(&o, &o.anna, "toner").await, "tickets").contains(&other));
}

#[tokio::test]
async fn short_text_finds_nothing_and_bad_text_is_refused() {
    let o = office().await;
    issued(&o, "INVOICE", &o.chavara).await;
    let empty = json!({
        "clients": { "rows": [], "capped": false },
        "documents": { "rows": [], "capped": false },
        "tickets": { "rows": [], "capped": false },
        "payments": { "rows": [], "capped": false },
    });
    for path in [
        "/api/search",
        "/api/search?q=",
        "/api/search?q=%20%20",
        "/api/search?q=c",
        "/api/search?q=%20i%20",
    ] {
        let reply = o.app.get(path, &o.owner).await;
        assert_eq!((reply.status, &reply.body), (StatusCode::OK, &empty), "{path}");
    }
    let long = "k".repeat(101);
    for (path, code, field) in [
        (format!("/api/search?q={long}"), "q_too_long", "q"),
        (
            "/api/search?q=chavara&only=people".to_string(),
            "invalid_group",
            "only",
        ),
    ] {
        let reply = o.app.get(&path, &o.owner).await;
        assert_eq!(
            (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
            (StatusCode::BAD_REQUEST, code, Some(field)),
            "{path}: {}",
            reply.text
        );
    }
    // 100 characters are searched; `only` narrows the groups.
    let hundred = o
        .app
        .get(&format!("/api/search?q={}", "k".repeat(100)), &o.owner)
        .await;
    assert_eq!(hundred.status, StatusCode::OK);
    let only = search(&o, &o.owner, "chavara").await;
    assert_eq!(
        (ids(&only, "clients").len(), ids(&only, "documents").len()),
        (1, 1)
    );
    let reply = o.app.get("/api/search?q=chavara&only=clients", &o.owner).await;
    assert_eq!(
        (ids(&reply.body, "clients"), ids(&reply.body, "documents")),
        (vec![o.chavara.clone()], vec![])
    );
    let signed_out = o.app.get("/api/search?q=chavara", "").await;
    assert_eq!(signed_out.status, StatusCode::UNAUTHORIZED);
}

/// (label, matched, detail) of each client hit.
fn client_lines(found: &Value) -> Vec<(String, String, String)> {
    found["clients"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["label"].as_str().unwrap().to_string(),
                h["matched"].as_str().unwrap().to_string(),
                h["detail"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn phone_numbers_find_clients_and_contacts_whatever_the_spacing() {
    let o = office().await;
    for (client, phone) in [(&o.chavara, "0474 2791234"), (&o.anchal, "9447012345")] {
        let reply = o
            .app
            .patch(
                &format!("/api/clients/{client}"),
                &o.owner,
                json!({ "phone": phone }),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }
    let contact = o
        .app
        .post(
            &format!("/api/clients/{}/contacts", o.kallai),
            &o.owner,
            json!({ "name": "Ravi", "role": "secretary", "phone": "+91 94470-12345" }),
        )
        .await;
    assert_eq!(contact.status, StatusCode::CREATED, "{}", contact.text);
    let anchal = (
        "Anchal Farmers Bank".to_string(),
        "phone".to_string(),
        "Kollam · GSTIN 29AAGCB7383J1Z4 · Phone 9447012345".to_string(),
    );
    let kallai = (
        "Kallai PACS".to_string(),
        "contact_phone".to_string(),
        "Kozhikode · Remote AD-771-204 · Ravi +91 94470-12345".to_string(),
    );
    for q in [
        "94470 12345",
        "+91 9447012345",
        "09447012345",
        "4470123",
        "(944) 701",
    ] {
        let found = search(&o, &o.owner, q).await;
        assert_eq!(client_lines(&found), vec![anchal.clone(), kallai.clone()], "{q}");
        let mine = search(&o, &o.anna, q).await;
        assert_eq!(client_lines(&mine), vec![kallai.clone()], "{q}");
    }
    for q in ["2791234", "474-279"] {
        assert_eq!(
            ids(&search(&o, &o.owner, q).await, "clients"),
            vec![o.chavara.clone()],
            "{q}"
        );
    }
    // Five digits, or digits among letters, are not a phone number.
    for q in ["94470", "+91 94470", "Ravi 9447012345"] {
        assert_eq!(
            ids(&search(&o, &o.owner, q).await, "clients"),
            Vec::<String>::new(),
            "{q}"
        );
    }
}

#[tokio::test]
async fn payments_are_found_by_receipt_number_and_a_paid_invoice_says_so() {
    let o = office().await;
    let (paid, paid_no) = issued(&o, "INVOICE", &o.chavara).await;
    let (_, unpaid_no) = issued(&o, "INVOICE", &o.kallai).await;
    let first = o
        .app
        .post(
            "/api/payments",
            &o.owner,
            json!({ "client_id": o.chavara, "received_on": "2026-10-01", "amount": 118_000, "mode": "neft_rtgs",
                    "allocations": [ { "document_id": paid, "amount": 118_000 } ] }),
        )
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let second = o
        .app
        .post(
            "/api/payments",
            &o.owner,
            json!({ "client_id": o.anchal, "received_on": "2026-10-02", "amount": 50_000, "mode": "cash" }),
        )
        .await;
    assert_eq!(second.status, StatusCode::CREATED, "{}", second.text);
    let (first, second) = (id(&first.body), id(&second.body));

    let found = search(&o, &o.owner, "RCT/26-27-0001").await;
    assert_eq!(
        found["payments"],
        json!({ "rows": [ {
            "id": first, "label": "RCT/26-27-0001", "detail": "Chavara Service Co-operative Bank · 2026-10-01",
            "receipt_no": "RCT/26-27-0001", "client_id": o.chavara, "client_name": "Chavara Service Co-operative Bank",
            "received_on": "2026-10-01", "amount": 118_000, "status": "recorded" } ], "capped": false })
    );
    let receipts = |found: &Value| -> Vec<String> {
        found["payments"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["receipt_no"].as_str().unwrap().to_string())
            .collect()
    };
    for (q, owner, anna) in [
        (
            "rct/26-27",
            vec!["RCT/26-27-0002", "RCT/26-27-0001"],
            vec!["RCT/26-27-0001"],
        ),
        ("27-0002", vec!["RCT/26-27-0002"], vec![]),
        (
            "/26-27-000",
            vec!["RCT/26-27-0002", "RCT/26-27-0001"],
            vec!["RCT/26-27-0001"],
        ),
        ("chavara", vec![], vec![]),
    ] {
        assert_eq!(receipts(&search(&o, &o.owner, q).await), owner, "{q}");
        assert_eq!(receipts(&search(&o, &o.anna, q).await), anna, "{q}");
    }
    let theirs = search(&o, &o.owner, "RCT/26-27-0002").await;
    assert_eq!(theirs["payments"]["rows"][0]["id"], json!(second));

    // An invoice found says whether it is paid.
    let states = |found: &Value| -> Vec<(String, Value)> {
        found["documents"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["label"].as_str().unwrap().to_string(),
                    r["payment_state"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(
        states(&search(&o, &o.owner, &paid_no).await),
        vec![(paid_no.clone(), json!("paid"))]
    );
    assert_eq!(
        states(&search(&o, &o.owner, &unpaid_no).await),
        vec![(unpaid_no.clone(), json!("unpaid"))]
    );
    let (_, quote_no) = issued(&o, "QUOTATION", &o.chavara).await;
    assert_eq!(
        states(&search(&o, &o.owner, &quote_no).await),
        vec![(quote_no.clone(), Value::Null)]
    );
}
