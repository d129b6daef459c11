//! The client registry: classification, GSTIN, filters, staff scoping, owner, DB password and
//! its reveal limiter, bulk edit, contacts, branches, interactions and the audit viewer.

use crate::common::{Call, TestApp};
use axum::http::Method;
use axum::http::StatusCode;
use serde_json::{Value, json};

const GSTIN: &str = "32AABCK1234L1ZV";

async fn create(app: &TestApp, cookie: &str, body: Value) -> Value {
    let reply = app.post("/api/clients", cookie, body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

/// Owner, manager and two staff users, all past their first sign-in.
struct Office {
    app: TestApp,
    owner: String,
    manager: String,
    manager_id: String,
    anna: String,
    anna_id: String,
    ben: String,
    ben_id: String,
}

async fn office() -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (manager_id, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let (anna_id, pw) = app.invite(&owner, "anna@coop.in", "staff").await;
    let anna = app.login("anna@coop.in", &pw).await;
    let (ben_id, pw) = app.invite(&owner, "ben@coop.in", "staff").await;
    let ben = app.login("ben@coop.in", &pw).await;
    Office {
        app,
        owner,
        manager,
        manager_id,
        anna,
        anna_id,
        ben,
        ben_id,
    }
}

#[tokio::test]
async fn create_derives_type_and_category_and_takes_the_state_from_the_gstin() {
    let o = office().await;
    let bank = create(
        &o.app,
        &o.owner,
        json!({ "name": "Kadakkal Service Co-operative Bank Ltd No 1234", "gstin": "32aabck1234l1zv" }),
    )
    .await;
    assert_eq!(
        (bank["client_type"].as_str(), bank["category"].as_str()),
        (Some("PACS"), Some("Service Bank"))
    );
    assert_eq!(
        (
            bank["gstin"].as_str(),
            bank["state_code"].as_str(),
            bank["status"].as_str()
        ),
        (Some(GSTIN), Some("32"), Some("active"))
    );
    let store = create(
        &o.app,
        &o.owner,
        json!({ "name": "ANCHAL CONSUMER STORES", "state_code": "32" }),
    )
    .await;
    assert_eq!(
        (store["client_type"].as_str(), store["category"].as_str()),
        (Some("Store"), Some("Store"))
    );

    // A name change re-derives the category; the type stays as set (it is editable).
    let reply = o
        .app
        .patch(
            &format!("/api/clients/{}", id(&store)),
            &o.owner,
            json!({ "name": "ANCHAL VANITHA CO-OPERATIVE SOCIETY" }),
        )
        .await;
    assert_eq!(
        (
            reply.body["category"].as_str(),
            reply.body["client_type"].as_str()
        ),
        (Some("Vanitha"), Some("Store"))
    );
    let reply = o
        .app
        .patch(
            &format!("/api/clients/{}", id(&store)),
            &o.owner,
            json!({ "client_type": "PACS", "category": "Other" }),
        )
        .await;
    assert_eq!(
        (reply.status, reply.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("category")),
        "category is derived, never set"
    );
    let classify = o
        .app
        .get(
            "/api/clients/classify?name=PERINTHALMANNA%20URBAN%20CO-OPERATIVE%20BANK",
            &o.anna,
        )
        .await;
    assert_eq!(
        classify.body,
        json!({ "client_type": "PACS", "category": "Urban Bank" })
    );
}

#[tokio::test]
async fn gstin_is_checked_and_shared_only_under_another_name() {
    let o = office().await;
    for (gstin, code) in [
        ("32AABCK1234L1ZW", "gstin_checksum"),
        ("40AABCK1234L1ZV", "gstin_state"),
        ("32AABCK1234", "gstin_length"),
        ("32AAB1K1234L1ZV", "gstin_format"),
    ] {
        let reply = o
            .app
            .post(
                "/api/clients",
                &o.owner,
                json!({ "name": "Some Society", "gstin": gstin }),
            )
            .await;
        assert_eq!(
            (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, code, Some("gstin")),
            "{gstin}"
        );
    }
    assert_eq!(o.app.count("SELECT COUNT(*) FROM client"), 0);
    let first = create(&o.app, &o.owner, json!({ "name": "First", "gstin": GSTIN })).await;
    assert_eq!(first["warnings"], json!([]));
    // A society and the store it runs may share a registration: taken, with a warning naming
    // the other client; both client pages list the other.
    let second = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "First Stores", "gstin": GSTIN }),
        )
        .await;
    assert_eq!(second.status, StatusCode::CREATED, "{}", second.text);
    assert_eq!(
        second.body["warnings"],
        json!([{ "code": "gstin_shared", "message": "This GSTIN is also registered to First." }])
    );
    let page = o
        .app
        .get(
            &format!("/api/clients/{}", first["id"].as_str().unwrap()),
            &o.owner,
        )
        .await;
    assert_eq!(
        page.body["same_gstin"],
        json!([{ "id": second.body["id"], "name": "First Stores" }])
    );
    // The same GSTIN under the same name is a duplicate.
    let dup = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "first", "gstin": GSTIN }),
        )
        .await;
    assert_eq!(
        (dup.status, dup.body["error"]["field"].as_str()),
        (StatusCode::CONFLICT, Some("gstin"))
    );
    let bad_state = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "Third", "state_code": "77" }),
        )
        .await;
    assert_eq!(
        (bad_state.status, bad_state.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("state_code"))
    );
    let mismatch = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "Fourth", "gstin": "27AAPFU0939F1ZV", "state_code": "32" }),
        )
        .await;
    assert_eq!(mismatch.code(), "state_code_mismatch");
    assert_eq!(o.app.count("SELECT COUNT(*) FROM client"), 2);
}

#[tokio::test]
async fn filters_match_partially_and_literally_with_an_honest_total() {
    let o = office().await;
    create(
        &o.app,
        &o.owner,
        json!({ "name": "A Society", "district": "Kollam", "sector": "Rural 50%" }),
    )
    .await;
    create(
        &o.app,
        &o.owner,
        json!({ "name": "B Society", "district": "Kollam_East", "phone": "0474 2123456" }),
    )
    .await;
    create(
        &o.app,
        &o.owner,
        json!({ "name": "C Stores", "district": "KollamXEast", "gstin": GSTIN }),
    )
    .await;
    let total = |q: &'static str| {
        let app = &o.app;
        let owner = o.owner.clone();
        async move {
            app.get(&format!("/api/clients?{q}"), &owner).await.body["total"]
                .as_i64()
                .unwrap()
        }
    };
    assert_eq!(total("district=kollam").await, 3);
    assert_eq!(total("district=Kollam_").await, 1, "_ is not a wildcard");
    assert_eq!(total("sector=50%25").await, 1, "% is matched literally");
    assert_eq!(total("sector=%25").await, 1);
    assert_eq!(total("district=%25").await, 0);
    assert_eq!(total("q=stores").await, 1);
    assert_eq!(total("q=aabck").await, 1, "GSTIN search is case-insensitive");
    assert_eq!(total("q=2123456").await, 1, "phone");
    assert_eq!(total("client_type=Store").await, 1);
    assert_eq!(total("category=Society%20(other)").await, 2);
    assert_eq!(total("status=lead").await, 0);
    let page = o.app.get("/api/clients?per_page=2&page=2", &o.owner).await;
    assert_eq!(
        (
            page.body["total"].as_i64(),
            page.body["rows"].as_array().unwrap().len()
        ),
        (Some(3), 1)
    );
    assert_eq!(page.body["rows"][0]["name"], "C Stores", "ordered by name");
}

#[tokio::test]
async fn staff_see_only_their_own_book() {
    let o = office().await;
    let annas = create(
        &o.app,
        &o.anna,
        json!({ "name": "Anna's Society", "owner_id": o.ben_id }),
    )
    .await;
    assert_eq!(
        annas["owner_id"].as_str(),
        Some(o.anna_id.as_str()),
        "staff own what they create"
    );
    let bens = create(
        &o.app,
        &o.owner,
        json!({ "name": "Ben's Society", "owner_id": o.ben_id }),
    )
    .await;
    create(&o.app, &o.owner, json!({ "name": "Nobody's Society" })).await;

    for query in ["", "?mine=0", &format!("?owner_id={}", o.ben_id)] {
        let list = o.app.get(&format!("/api/clients{query}"), &o.anna).await;
        assert_eq!(list.body["total"], 1, "{query}: widening by staff is ignored");
        assert_eq!(list.body["rows"][0]["id"], annas["id"]);
    }
    let theirs = format!("/api/clients/{}", id(&bens));
    assert_eq!(o.app.get(&theirs, &o.anna).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        o.app
            .patch(&theirs, &o.anna, json!({ "name": "Mine now" }))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        o.app.get(&format!("{theirs}/contacts"), &o.anna).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        o.app
            .post(&format!("{theirs}/contacts"), &o.anna, json!({ "name": "X" }))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        o.app
            .get(&format!("/api/interactions?client_id={}", id(&bens)), &o.anna)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let sneaky = o
        .app
        .post(
            "/api/interactions",
            &o.anna,
            json!({ "client_id": id(&bens), "type": "call", "notes": "x" }),
        )
        .await;
    assert_eq!(sneaky.status, StatusCode::NOT_FOUND);
    assert_eq!(
        o.app.count("SELECT COUNT(*) FROM contact") + o.app.count("SELECT COUNT(*) FROM interaction"),
        0
    );

    assert_eq!(o.app.get("/api/clients", &o.manager).await.body["total"], 3);
    assert_eq!(
        o.app.get("/api/clients?mine=1", &o.manager).await.body["total"],
        0
    );
    assert_eq!(
        o.app
            .get(&format!("/api/clients?owner_id={}", o.ben_id), &o.manager)
            .await
            .body["total"],
        1
    );
    let unowned = o.app.get("/api/clients?owner_id=none", &o.manager).await;
    assert_eq!(
        (
            unowned.body["total"].as_i64(),
            unowned.body["rows"][0]["name"].as_str()
        ),
        (Some(1), Some("Nobody's Society"))
    );
    let staff_unowned = o.app.get("/api/clients?owner_id=none", &o.anna).await;
    assert_eq!(
        staff_unowned.body["rows"][0]["name"], "Anna's Society",
        "staff stay in their own book"
    );
}

#[tokio::test]
async fn account_owner_must_be_an_active_employee_and_is_audited() {
    let o = office().await;
    let client = create(&o.app, &o.owner, json!({ "name": "Owned Society" })).await;
    let path = format!("/api/clients/{}/owner", id(&client));
    assert_eq!(
        o.app
            .patch(&path, &o.anna, json!({ "owner_id": o.anna_id }))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let unknown = o
        .app
        .patch(
            &path,
            &o.manager,
            json!({ "owner_id": "01ZZZZZZZZZZZZZZZZZZZZZZZZ" }),
        )
        .await;
    assert_eq!(
        (unknown.status, unknown.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "unknown_owner")
    );
    o.app
        .post(
            &format!("/api/employees/{}/deactivate", o.ben_id),
            &o.owner,
            json!({}),
        )
        .await;
    let inactive = o
        .app
        .patch(&path, &o.manager, json!({ "owner_id": o.ben_id }))
        .await;
    assert_eq!(
        (inactive.status, inactive.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "inactive_owner")
    );
    let created_with_inactive = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "X", "owner_id": o.ben_id }),
        )
        .await;
    assert_eq!(created_with_inactive.code(), "inactive_owner");
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE action = 'set_owner'"),
        0
    );

    let ok = o
        .app
        .patch(&path, &o.manager, json!({ "owner_id": o.anna_id }))
        .await;
    assert_eq!(
        (ok.status, ok.body["owner_id"].as_str()),
        (StatusCode::OK, Some(o.anna_id.as_str()))
    );
    let (before, after, user): (String, String, String) = o
        .app
        .sql()
        .query_row(
            "SELECT before, after, user_id FROM audit WHERE action = 'set_owner'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&before).unwrap()["owner_id"],
        Value::Null
    );
    assert_eq!(
        serde_json::from_str::<Value>(&after).unwrap()["owner_id"],
        json!(o.anna_id)
    );
    assert_eq!(user, o.manager_id);
    assert_eq!(
        o.app
            .get(&format!("/api/clients/{}", id(&client)), &o.anna)
            .await
            .status,
        StatusCode::OK,
        "now in Anna's book"
    );
    let via_patch = o
        .app
        .patch(
            &format!("/api/clients/{}", id(&client)),
            &o.owner,
            json!({ "owner_id": o.manager_id }),
        )
        .await;
    assert_eq!(via_patch.body["error"]["field"], "owner_id");
}

#[tokio::test]
async fn db_password_is_write_only_managerial_and_every_reveal_is_audited() {
    let o = office().await;
    let client = create(&o.app, &o.anna, json!({ "name": "Secretive Society" })).await;
    let path = format!("/api/clients/{}", id(&client));
    let secret = "hunter2-db-secret";

    let staff_try = o
        .app
        .patch(&path, &o.anna, json!({ "name": "Renamed", "dbPassword": secret }))
        .await;
    assert_eq!(staff_try.status, StatusCode::FORBIDDEN);
    assert_eq!(
        o.app.get(&path, &o.anna).await.body["name"],
        "Secretive Society",
        "the refused patch wrote nothing"
    );

    let reply = o
        .app
        .patch(
            &path,
            &o.manager,
            json!({ "notes": "server in the back room", "dbPassword": secret }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        (
            reply.body["hasDbPassword"].as_bool(),
            reply.body["notes"].as_str()
        ),
        (Some(true), Some("server in the back room"))
    );
    assert!(reply.body.get("dbPassword").is_none() && !reply.text.contains(secret));

    let reveal = format!("{path}/reveal-db-password");
    assert_eq!(
        o.app.post(&reveal, &o.anna, json!({})).await.status,
        StatusCode::FORBIDDEN
    );
    let shown = o.app.post(&reveal, &o.manager, json!({})).await;
    assert_eq!(shown.body["password"], secret);
    assert_eq!(
        o.app
            .post(
                "/api/clients/01ZZZZZZZZZZZZZZZZZZZZZZZZ/reveal-db-password",
                &o.manager,
                json!({})
            )
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE action = 'reveal_db_password'"),
        1
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE action = 'set_db_password'"),
        1
    );

    // The secret is in no list, no single read and no audit row.
    for text in [
        o.app.get("/api/clients", &o.owner).await.text,
        o.app.get(&path, &o.owner).await.text,
        o.app.get("/api/audit?per_page=200", &o.owner).await.text,
    ] {
        assert!(!text.contains(secret));
    }
    assert_eq!(
        o.app.count(&format!(
            "SELECT COUNT(*) FROM audit WHERE COALESCE(before, '') || COALESCE(after, '') LIKE '%{secret}%'"
        )),
        0
    );

    // A leftover legacy-encrypted value reads as empty, never as ciphertext.
    o.app
        .sql()
        .execute("UPDATE client SET db_password = 'enc:v1:QUJDREVG'", [])
        .unwrap();
    assert_eq!(o.app.get(&path, &o.owner).await.body["hasDbPassword"], false);
    assert_eq!(
        o.app.post(&reveal, &o.owner, json!({})).await.body["password"],
        ""
    );
}

#[tokio::test]
async fn the_reveal_limiter_trips_at_the_twenty_first_in_a_minute() {
    let o = office().await;
    let client = create(
        &o.app,
        &o.owner,
        json!({ "name": "Limited Society", "dbPassword": "pw-1" }),
    )
    .await;
    let reveal = format!("/api/clients/{}/reveal-db-password", id(&client));
    for i in 1..=20 {
        assert_eq!(
            o.app.post(&reveal, &o.manager, json!({})).await.status,
            StatusCode::OK,
            "reveal {i}"
        );
    }
    let tripped = o.app.post(&reveal, &o.manager, json!({})).await;
    assert_eq!(
        (tripped.status, tripped.code()),
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
    );
    assert!(tripped.headers.get("retry-after").is_some());
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE action = 'reveal_db_password'"),
        20,
        "a refused reveal is not audited"
    );
    assert_eq!(
        o.app.post(&reveal, &o.owner, json!({})).await.status,
        StatusCode::OK,
        "the limit is per user"
    );
}

#[tokio::test]
async fn bulk_edit_is_all_or_nothing_with_one_audit_row_per_client() {
    let o = office().await;
    let a = create(
        &o.app,
        &o.owner,
        json!({ "name": "Alpha Society", "district": "Kollam" }),
    )
    .await;
    let b = create(
        &o.app,
        &o.owner,
        json!({ "name": "Beta Society", "district": "Kollam" }),
    )
    .await;
    let body = |ids: Vec<String>| json!({ "ids": ids, "changes": { "district": "Thrissur", "status": "lead", "owner_id": o.anna_id } });
    assert_eq!(
        o.app
            .post("/api/clients/bulk", &o.manager, body(vec![id(&a)]))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let bad = o
        .app
        .post(
            "/api/clients/bulk",
            &o.owner,
            body(vec![id(&a), "01ZZZZZZZZZZZZZZZZZZZZZZZZ".into(), id(&b)]),
        )
        .await;
    assert_eq!(
        (bad.status, bad.code(), bad.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "unknown_client", Some("ids"))
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM client WHERE district = 'Kollam'"),
        2,
        "nothing changed"
    );
    let bad_value = o
        .app
        .post(
            "/api/clients/bulk",
            &o.owner,
            json!({ "ids": [id(&a)], "changes": { "status": "asleep" } }),
        )
        .await;
    assert_eq!(bad_value.body["error"]["field"], "status");
    let empty = o
        .app
        .post(
            "/api/clients/bulk",
            &o.owner,
            json!({ "ids": [id(&a)], "changes": {} }),
        )
        .await;
    assert_eq!(empty.code(), "no_changes");
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE action = 'bulk_update'"),
        0
    );

    let ok = o
        .app
        .post("/api/clients/bulk", &o.owner, body(vec![id(&a), id(&b), id(&a)]))
        .await;
    assert_eq!(
        (ok.status, ok.body["updated"].as_i64()),
        (StatusCode::OK, Some(2))
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM client WHERE district = 'Thrissur' AND status = 'lead'"),
        2
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE action = 'bulk_update'"),
        2
    );
    assert_eq!(o.app.get("/api/clients", &o.anna).await.body["total"], 2);
}

#[tokio::test]
async fn contacts_and_branches() {
    let o = office().await;
    let client = create(&o.app, &o.anna, json!({ "name": "Contact Society" })).await;
    let base = format!("/api/clients/{}", id(&client));
    let contact = o
        .app
        .post(
            &format!("{base}/contacts"),
            &o.anna,
            json!({ "name": "Raghavan", "role": "secretary", "phone": "9447012345", "email": "sec@coop.in" }),
        )
        .await;
    assert_eq!(contact.status, StatusCode::CREATED);
    let bad = o
        .app
        .post(
            &format!("{base}/contacts"),
            &o.anna,
            json!({ "name": "X", "email": "nope" }),
        )
        .await;
    assert_eq!(bad.body["error"]["field"], "email");
    let list = o.app.get(&format!("{base}/contacts"), &o.anna).await;
    assert_eq!(list.body["rows"].as_array().unwrap().len(), 1);
    assert_eq!(
        list.body["role_suggestions"],
        json!(["WhatsApp", "secretary", "president", "accountant"])
    );
    let cid = id(&contact.body);
    let edited = o
        .app
        .patch(
            &format!("/api/contacts/{cid}"),
            &o.anna,
            json!({ "role": "president", "phone": "" }),
        )
        .await;
    assert_eq!(
        (edited.body["role"].as_str(), edited.body["phone"].as_str()),
        (Some("president"), None)
    );
    assert_eq!(
        o.app
            .patch(&format!("/api/contacts/{cid}"), &o.ben, json!({ "role": "x" }))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let deleted = o
        .app
        .send(
            crate::common::Call::new(axum::http::Method::DELETE, &format!("/api/contacts/{cid}"))
                .cookie(&o.anna)
                .json(json!({})),
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_eq!(o.app.count("SELECT COUNT(*) FROM contact"), 0);
    assert_eq!(
        o.app.count("SELECT COUNT(*) FROM audit WHERE entity = 'contact'"),
        3
    );

    let branch = o
        .app
        .post(
            &format!("{base}/branches"),
            &o.anna,
            json!({ "name": "Chadayamangalam", "district": "Kollam" }),
        )
        .await;
    assert_eq!(branch.status, StatusCode::CREATED);
    let renamed = o
        .app
        .patch(
            &format!("/api/branches/{}", id(&branch.body)),
            &o.anna,
            json!({ "address": "Main Road" }),
        )
        .await;
    assert_eq!(renamed.body["address"], "Main Road");
    assert_eq!(
        o.app.get(&format!("{base}/branches"), &o.anna).await.body["rows"][0]["name"],
        "Chadayamangalam"
    );
}

#[tokio::test]
async fn interactions_are_edited_only_by_their_author_or_a_manager() {
    let o = office().await;
    let client = create(&o.app, &o.anna, json!({ "name": "Chatty Society" })).await;
    let by_manager = o.app.post("/api/interactions", &o.manager, json!({ "client_id": id(&client), "type": "visit", "notes": "Demo of the loan module", "follow_up_on": "2026-12-01" })).await;
    assert_eq!(by_manager.status, StatusCode::CREATED, "{}", by_manager.text);
    let by_anna = o
        .app
        .post(
            "/api/interactions",
            &o.anna,
            json!({ "client_id": id(&client), "type": "call", "notes": "Asked for a quote", "follow_up_on": "" }),
        )
        .await;
    assert_eq!(by_anna.body["author_id"].as_str(), Some(o.anna_id.as_str()));
    assert_eq!(
        by_anna.body["follow_up_on"],
        Value::Null,
        "an empty date means none"
    );
    for (body, field) in [
        (
            json!({ "client_id": id(&client), "type": "telegram", "notes": "x" }),
            "type",
        ),
        (
            json!({ "client_id": id(&client), "type": "call", "notes": " " }),
            "notes",
        ),
        (
            json!({ "client_id": id(&client), "type": "call", "notes": "x", "follow_up_on": "tomorrow" }),
            "follow_up_on",
        ),
    ] {
        assert_eq!(
            o.app.post("/api/interactions", &o.anna, body).await.body["error"]["field"],
            field
        );
    }

    let managers = format!("/api/interactions/{}", id(&by_manager.body));
    let refused = o
        .app
        .patch(&managers, &o.anna, json!({ "notes": "rewritten" }))
        .await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::FORBIDDEN, "not_author")
    );
    assert_eq!(
        o.app
            .patch(
                &format!("/api/interactions/{}", id(&by_anna.body)),
                &o.anna,
                json!({ "follow_up_on": "2026-12-05" })
            )
            .await
            .body["follow_up_on"],
        "2026-12-05"
    );
    assert_eq!(
        o.app
            .patch(
                &format!("/api/interactions/{}", id(&by_anna.body)),
                &o.owner,
                json!({ "notes": "Quote sent" })
            )
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        o.app
            .patch(&managers, &o.ben, json!({ "notes": "x" }))
            .await
            .status,
        StatusCode::NOT_FOUND,
        "outside Ben's book"
    );

    let timeline = o
        .app
        .get(&format!("/api/interactions?client_id={}", id(&client)), &o.anna)
        .await;
    let notes: Vec<&str> = timeline.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["notes"].as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        vec!["Quote sent", "Demo of the loan module"],
        "newest first"
    );
    assert_eq!(timeline.body["rows"][1]["author_name"], "manager@coop.in");
}

#[tokio::test]
async fn the_audit_viewer_filters_counts_and_writes_nothing() {
    let o = office().await;
    let a = create(&o.app, &o.owner, json!({ "name": "Audit Society" })).await;
    o.app
        .patch(
            &format!("/api/clients/{}", id(&a)),
            &o.manager,
            json!({ "district": "Idukki" }),
        )
        .await;
    assert_eq!(
        o.app.get("/api/audit", &o.manager).await.status,
        StatusCode::FORBIDDEN
    );
    let before = o.app.count("SELECT COUNT(*) FROM audit");
    let all = o.app.get("/api/audit?per_page=2", &o.owner).await;
    assert_eq!(
        (
            all.body["total"].as_i64(),
            all.body["rows"].as_array().unwrap().len()
        ),
        (Some(before), 2)
    );
    assert_eq!(all.body["rows"][0]["action"], "update", "newest first");
    assert_eq!(all.body["rows"][0]["before"]["district"], Value::Null);
    assert_eq!(all.body["rows"][0]["after"]["district"], "Idukki");
    let clients = o
        .app
        .get(
            &format!("/api/audit?entity=client&entity_id={}", id(&a)),
            &o.owner,
        )
        .await;
    assert_eq!(clients.body["total"], 2);
    let by_manager = o
        .app
        .get(
            &format!("/api/audit?user_id={}&action=update", o.manager_id),
            &o.owner,
        )
        .await;
    assert_eq!(by_manager.body["total"], 1);
    let today = chrono::Utc::now().date_naive();
    let dated = o
        .app
        .get(
            &format!(
                "/api/audit?from={}&to={}",
                today.pred_opt().unwrap(),
                today.succ_opt().unwrap()
            ),
            &o.owner,
        )
        .await;
    assert_eq!(dated.body["total"].as_i64(), Some(before));
    assert_eq!(
        o.app
            .get("/api/audit?from=2000-01-01&to=2000-01-02", &o.owner)
            .await
            .body["total"],
        0
    );
    assert_eq!(
        o.app.get("/api/audit?from=22-11-2026", &o.owner).await.status,
        StatusCode::BAD_REQUEST
    );
    let facets = o.app.get("/api/audit/facets", &o.owner).await;
    assert!(
        facets.body["entities"]
            .as_array()
            .unwrap()
            .contains(&json!("client"))
    );
    assert!(
        facets.body["actions"]
            .as_array()
            .unwrap()
            .contains(&json!("update"))
    );
    assert!(
        facets.body["users"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u["id"] == json!(o.manager_id))
    );
    assert_eq!(
        o.app.count("SELECT COUNT(*) FROM audit"),
        before,
        "reading the trail wrote nothing"
    );
}

#[tokio::test]
async fn the_audit_viewer_names_the_records_a_row_speaks_of() {
    let o = office().await;
    let a = create(&o.app, &o.owner, json!({ "name": "Named Society" })).await;
    let client = id(&a);
    let reply = o
        .app
        .patch(
            &format!("/api/clients/{client}/owner"),
            &o.manager,
            json!({ "owner_id": o.anna_id }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let contact = o
        .app
        .post(
            &format!("/api/clients/{client}/contacts"),
            &o.owner,
            json!({ "name": "Latha" }),
        )
        .await;
    assert_eq!(contact.status, StatusCode::CREATED, "{}", contact.text);

    let moved = o.app.get("/api/audit?action=set_owner", &o.owner).await.body["rows"][0].clone();
    assert_eq!(moved["entity_label"], "Named Society");
    assert_eq!(
        moved["refs"][&client],
        json!({ "entity": "client", "id": client, "label": "Named Society" })
    );
    assert_eq!(
        moved["refs"][&o.anna_id],
        json!({ "entity": "staff", "id": o.anna_id, "label": "anna@coop.in" }),
        "the new account owner, named: {moved}"
    );

    let added = o.app.get("/api/audit?entity=contact", &o.owner).await.body["rows"][0].clone();
    let contact_id = id(&contact.body);
    assert_eq!(added["entity_label"], "Latha (Named Society)");
    assert_eq!(
        added["refs"][&contact_id],
        json!({ "entity": "client", "id": client, "label": "Latha (Named Society)" }),
        "a contact opens its client"
    );

    // A record that is gone keeps its id and no name; the CSV carries the name column.
    let deleted = o
        .app
        .send(
            Call::new(Method::DELETE, &format!("/api/contacts/{contact_id}"))
                .cookie(&o.owner)
                .json(json!({})),
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    let gone = o.app.get("/api/audit?entity=contact", &o.owner).await;
    assert_eq!(gone.body["rows"][0]["action"], "delete");
    assert_eq!(gone.body["rows"][0]["entity_label"], Value::Null, "{}", gone.text);
    assert_eq!(gone.body["rows"][0]["refs"].get(&contact_id), None);
    let csv = o.app.get("/api/audit.csv?action=set_owner", &o.owner).await;
    let mut lines = csv.text.lines();
    assert_eq!(
        lines.next(),
        Some("Time,User,Entity,Record,Action,Entity id,Before,After")
    );
    assert!(
        lines.next().unwrap().contains(",client,Named Society,set_owner,"),
        "{}",
        csv.text
    );
}

#[tokio::test]
async fn a_body_with_several_invalid_fields_names_them_all_at_once() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let reply = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Anchal SCB", "gstin": "32AABCK1234L1Z", "phone": "12", "email": "not-an-email" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", reply.text);
    assert_eq!(reply.body["error"]["field"], "gstin", "the first names the field");
    let fields: Vec<&str> = reply.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["gstin", "phone", "email"]);
    assert!(
        reply.body["errors"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["code"].is_string() && e["message"].is_string())
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM client"), 0);
    // Contacts, the company profile and payments say the same.
    let client = create(&app, &owner, json!({ "name": "Anchal SCB" })).await;
    let client = id(&client);
    let long = "x".repeat(101);
    for (method, path, body, wanted, table) in [
        (
            Method::POST,
            format!("/api/clients/{client}/contacts"),
            json!({ "name": " ", "phone": "12", "email": "nope" }),
            vec!["name", "phone", "email"],
            "contact",
        ),
        (
            Method::PUT,
            "/api/settings/company".to_string(),
            json!({ "name": "", "gstin": "32AABCK1234L1Z", "email": "nope", "utc_offset": "IST" }),
            vec!["name", "gstin", "email", "utc_offset"],
            "setting",
        ),
        (
            Method::POST,
            "/api/payments".to_string(),
            json!({ "client_id": client, "received_on": "2026-11-02", "amount": 0, "mode": "barter", "reference": long }),
            vec!["amount", "mode", "reference"],
            "payment",
        ),
    ] {
        let rows = app.count(&format!("SELECT COUNT(*) FROM {table}"));
        let reply = app.send(Call::new(method, &path).cookie(&owner).json(body)).await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{path}: {}",
            reply.text
        );
        let fields: Vec<&str> = reply.body["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: {}", reply.text))
            .iter()
            .map(|e| e["field"].as_str().unwrap())
            .collect();
        assert_eq!(fields, wanted, "{path}");
        assert_eq!(
            app.count(&format!("SELECT COUNT(*) FROM {table}")),
            rows,
            "{path} wrote nothing"
        );
    }
    // One invalid field: the error alone, as before.
    let one = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Anchal SCB", "phone": "12" }),
        )
        .await;
    assert_eq!(
        (one.body["error"]["field"].as_str(), one.body.get("errors")),
        (Some("phone"), None)
    );
}

/// A staff user is warned about a shared GSTIN only by the clients of their own book: a GSTIN
/// held only by another book's client draws no warning at all (not even "another client"), and
/// the client page does not list it; owner and manager are told of every client (issue 33).
#[tokio::test]
async fn the_shared_gstin_warning_names_only_the_callers_book() {
    let o = office().await;
    let bens = create(
        &o.app,
        &o.owner,
        json!({ "name": "Ben's Society", "gstin": GSTIN, "owner_id": o.ben_id }),
    )
    .await;
    // Anna gives her new client the GSTIN only Ben's client holds: taken, with no warning.
    let annas = o
        .app
        .post(
            "/api/clients",
            &o.anna,
            json!({ "name": "Anna's Stores", "gstin": GSTIN }),
        )
        .await;
    assert_eq!(annas.status, StatusCode::CREATED, "{}", annas.text);
    assert_eq!(
        (&annas.body["warnings"], &annas.body["same_gstin"]),
        (&json!([]), &json!([]))
    );
    // Nor on an edit that writes it again.
    let annas_path = format!("/api/clients/{}", id(&annas.body));
    let edited = o
        .app
        .patch(&annas_path, &o.anna, json!({ "gstin": GSTIN.to_lowercase() }))
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    assert_eq!(edited.body["warnings"], json!([]));
    assert_eq!(
        o.app.get(&annas_path, &o.anna).await.body["same_gstin"],
        json!([])
    );
    // Her own second client under it is named.
    let second = o
        .app
        .post(
            "/api/clients",
            &o.anna,
            json!({ "name": "Anna's Bank", "gstin": GSTIN }),
        )
        .await;
    assert_eq!(
        second.body["warnings"],
        json!([{ "code": "gstin_shared", "message": "This GSTIN is also registered to Anna's Stores." }])
    );
    // Owner and manager are told of every client under it, whoever's book.
    for (who, cookie) in [("owner", &o.owner), ("manager", &o.manager)] {
        let reply = o.app.patch(&annas_path, cookie, json!({ "gstin": GSTIN })).await;
        assert_eq!(reply.status, StatusCode::OK, "{who}: {}", reply.text);
        assert_eq!(
            reply.body["warnings"],
            json!([{ "code": "gstin_shared", "message": "This GSTIN is also registered to Anna's Bank and Ben's Society." }]),
            "{who}"
        );
        assert_eq!(
            reply.body["same_gstin"],
            json!([
                { "id": second.body["id"], "name": "Anna's Bank" },
                { "id": bens["id"], "name": "Ben's Society" }
            ]),
            "{who}"
        );
    }
    assert_eq!(
        o.app
            .count(&format!("SELECT COUNT(*) FROM client WHERE gstin = '{GSTIN}'")),
        3
    );
}

/// An issued document (₹1,00,000 taxable + 18 % GST = ₹1,18,000) of `module` for `client`.
async fn issued_invoice(
    o: &Office,
    module: &str,
    client: &str,
    doc_type: &str,
    dates: Option<(&str, &str)>,
) -> String {
    let mut body =
        json!({ "type": doc_type, "client_id": client, "lines": [ { "module_id": module, "qty": 1 } ] });
    if let Some((doc_date, due)) = dates {
        body["doc_date"] = json!(doc_date);
        body["dueDate"] = json!(due);
    }
    let draft = o.app.post("/api/documents", &o.owner, body).await;
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
    id(&reply.body)
}

#[tokio::test]
async fn the_client_says_what_it_owes_as_the_dues_aging_does() {
    let o = office().await;
    o.app.set_company(&o.owner, json!({})).await;
    let module = o.app.priced_module(&o.owner, 10_000_000).await;
    let society = id(&create(
        &o.app,
        &o.owner,
        json!({ "name": "Kadakkal SCB", "state_code": "32", "owner_id": o.anna_id }),
    )
    .await);
    let other = id(&create(
        &o.app,
        &o.owner,
        json!({ "name": "Anchal SCB", "state_code": "32" }),
    )
    .await);
    let fresh = o.app.get(&format!("/api/clients/{society}"), &o.owner).await;
    assert_eq!(
        fresh.body["owes"],
        json!({ "outstanding": 0, "overdue": 0, "open_invoices": 0, "unallocated": 0 })
    );

    let overdue = issued_invoice(
        &o,
        &module,
        &society,
        "INVOICE",
        Some(("2026-09-01", "2026-09-16")),
    )
    .await;
    let part = issued_invoice(&o, &module, &society, "INVOICE", None).await;
    let paid = issued_invoice(&o, &module, &society, "INVOICE", None).await;
    let cancelled = issued_invoice(
        &o,
        &module,
        &society,
        "INVOICE",
        Some(("2026-08-01", "2026-08-16")),
    )
    .await;
    let cancel = o
        .app
        .post(
            &format!("/api/documents/{cancelled}/cancel"),
            &o.owner,
            json!({ "reason": "Wrong society" }),
        )
        .await;
    assert_eq!(cancel.status, StatusCode::OK, "{}", cancel.text);
    issued_invoice(&o, &module, &society, "QUOTATION", None).await;
    issued_invoice(&o, &module, &other, "INVOICE", Some(("2026-09-01", "2026-09-16"))).await;
    let draft = o
        .app
        .post("/api/documents", &o.owner, json!({ "type": "INVOICE", "client_id": society, "lines": [ { "module_id": module, "qty": 1 } ] }))
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    // ₹1,18,000 settles `paid`, ₹10,000 goes on `part` and ₹5,000 is held as an advance.
    let settled = o
        .app
        .post(
            "/api/payments",
            &o.owner,
            json!({ "client_id": society, "received_on": "2026-10-01", "amount": 13_300_000, "mode": "neft_rtgs",
                    "allocations": [ { "document_id": paid, "amount": 11_800_000 }, { "document_id": part, "amount": 1_000_000 } ] }),
        )
        .await;
    assert_eq!(settled.status, StatusCode::CREATED, "{}", settled.text);
    // A cancelled advance holds nothing.
    let dropped = o
        .app
        .post(
            "/api/payments",
            &o.owner,
            json!({ "client_id": society, "received_on": "2026-10-02", "amount": 300_000, "mode": "cash" }),
        )
        .await;
    assert_eq!(dropped.status, StatusCode::CREATED, "{}", dropped.text);
    let undone = o
        .app
        .post(
            &format!("/api/payments/{}/cancel", id(&dropped.body)),
            &o.owner,
            json!({ "reason": "Entered twice" }),
        )
        .await;
    assert_eq!(undone.status, StatusCode::OK, "{}", undone.text);

    let expected = json!({ "outstanding": 22_600_000, "overdue": 11_800_000, "open_invoices": 2, "unallocated": 500_000 });
    for cookie in [&o.owner, &o.manager, &o.anna] {
        let reply = o.app.get(&format!("/api/clients/{society}"), cookie).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["owes"], expected);
    }
    let theirs = o.app.get(&format!("/api/clients/{other}"), &o.owner).await;
    assert_eq!(
        theirs.body["owes"],
        json!({ "outstanding": 11_800_000, "overdue": 11_800_000, "open_invoices": 1, "unallocated": 0 })
    );
    // Another staff user's book stays closed.
    let outside = o.app.get(&format!("/api/clients/{society}"), &o.ben).await;
    assert_eq!(outside.status, StatusCode::NOT_FOUND);

    // The dues aging (as of the office's today) says the same of this client.
    let drill = o
        .app
        .get(
            &format!("/api/reports/dues-aging/invoices?client_id={society}"),
            &o.owner,
        )
        .await;
    assert_eq!(drill.status, StatusCode::OK, "{}", drill.text);
    let rows = drill.body["rows"].as_array().unwrap();
    let mut ids: Vec<&str> = rows.iter().map(|r| r["document_id"].as_str().unwrap()).collect();
    ids.sort();
    let mut open = vec![overdue.as_str(), part.as_str()];
    open.sort();
    assert_eq!(ids, open);
    let sum = |overdue_only: bool| -> i64 {
        rows.iter()
            .filter(|r| !overdue_only || r["bucket"] != "not_due")
            .map(|r| r["outstanding"].as_i64().unwrap())
            .sum()
    };
    assert_eq!(
        json!({ "outstanding": sum(false), "overdue": sum(true), "open_invoices": rows.len(), "unallocated": 500_000 }),
        expected
    );
    let aging = o.app.get("/api/reports/dues-aging", &o.owner).await;
    let row = aging.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["client_id"] == society.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (
            row["total"].as_i64(),
            row["total"].as_i64().unwrap() - row["not_due"].as_i64().unwrap()
        ),
        (Some(22_600_000), 11_800_000)
    );
}
