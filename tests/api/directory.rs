//! The portals list and the module data directory (issue 20): every client module with a
//! portal login, filtered and paged, never its password (in JSON or CSV); a module's
//! subscriptions as a table whose columns are its field spec, never a secret; both within a
//! staff user's book, and a missing or unknown module refused with a clear 4xx.

use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

const PASSWORD: &str = "portal-pw-Zq81";
const SECRET: &str = "sk-live-secret-4471";

struct Office {
    app: TestApp,
    owner: String,
    anna: String,
    /// Bulk SMS, with the field spec members, go_live, plan.
    sms: String,
    /// Core banking, no fields.
    core: String,
    /// Anna's.
    chavara: String,
    /// The owner's.
    anchal: String,
    kallai: String,
    /// Subscriptions: Chavara's SMS (msg91 login, a password, a secret), Anchal's SMS
    /// (textlocal, inactive), Kallai's SMS (no portal), Anchal's core banking (a username only).
    chavara_sms: String,
    anchal_sms: String,
    kallai_sms: String,
    anchal_core: String,
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

async fn created(app: &TestApp, cookie: &str, path: &str, body: Value) -> String {
    let reply = app.post(path, cookie, body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{path}: {}", reply.text);
    id(&reply.body)
}

async fn patched(app: &TestApp, cookie: &str, path: &str, body: Value) {
    let reply = app.patch(path, cookie, body).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
}

async fn office() -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (anna_id, pw) = app.invite(&owner, "anna@coop.in", "staff").await;
    let anna = app.login("anna@coop.in", &pw).await;
    let spec = json!([
        { "key": "members", "label": "Members", "type": "integer", "required": true },
        { "key": "go_live", "label": "Go-live date", "type": "date" },
        { "key": "plan", "label": "Plan", "type": "select", "options": ["Basic", "Pro"] }
    ]);
    let sms = created(
        &app,
        &owner,
        "/api/modules",
        json!({ "code": "SMS", "name": "Bulk SMS", "field_spec": spec }),
    )
    .await;
    let core = created(
        &app,
        &owner,
        "/api/modules",
        json!({ "code": "CBS", "name": "Core banking" }),
    )
    .await;
    let chavara = created(
        &app,
        &owner,
        "/api/clients",
        json!({ "name": "Chavara SCB", "state_code": "32", "owner_id": anna_id }),
    )
    .await;
    let anchal = created(
        &app,
        &owner,
        "/api/clients",
        json!({ "name": "Anchal Farmers Bank", "state_code": "32" }),
    )
    .await;
    let kallai = created(
        &app,
        &owner,
        "/api/clients",
        json!({ "name": "Kallai PACS", "state_code": "32" }),
    )
    .await;
    let subscribe = |client: &str, module: &str, values: Value| json!({ "client_id": client, "module_id": module, "field_values": values });
    let chavara_sms = created(
        &app,
        &owner,
        "/api/client-modules",
        subscribe(&chavara, &sms, json!({ "members": 1200, "plan": "Pro" })),
    )
    .await;
    let anchal_sms = created(
        &app,
        &owner,
        "/api/client-modules",
        subscribe(&anchal, &sms, json!({ "members": 800, "go_live": "2025-06-01" })),
    )
    .await;
    let kallai_sms = created(
        &app,
        &owner,
        "/api/client-modules",
        subscribe(&kallai, &sms, json!({ "members": 300 })),
    )
    .await;
    let anchal_core = created(
        &app,
        &owner,
        "/api/client-modules",
        subscribe(&anchal, &core, json!({})),
    )
    .await;
    let cm = |id: &str| format!("/api/client-modules/{id}");
    patched(
        &app,
        &owner,
        &cm(&chavara_sms),
        json!({ "provider": "msg91", "username": "chavara-scb", "password": PASSWORD }),
    )
    .await;
    patched(
        &app,
        &owner,
        &cm(&anchal_sms),
        json!({ "provider": "Textlocal", "username": "anchal.fb", "active": 0 }),
    )
    .await;
    patched(
        &app,
        &owner,
        &cm(&anchal_core),
        json!({ "username": "anchal-core" }),
    )
    .await;
    let secret = app
        .post(
            &format!("{}/secrets", cm(&chavara_sms)),
            &owner,
            json!({ "api_key": SECRET }),
        )
        .await;
    assert_eq!(secret.status, StatusCode::OK, "{}", secret.text);
    Office {
        app,
        owner,
        anna,
        sms,
        core,
        chavara,
        anchal,
        kallai,
        chavara_sms,
        anchal_sms,
        kallai_sms,
        anchal_core,
    }
}

async fn ok(app: &TestApp, path: &str, cookie: &str) -> (Value, String) {
    let reply = app.get(path, cookie).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
    (reply.body, reply.text)
}

/// The client_module_id of each row.
fn rows(list: &Value) -> Vec<String> {
    list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["client_module_id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_portals_list_shows_each_login_without_its_password() {
    let o = office().await;
    let (list, text) = ok(&o.app, "/api/portals", &o.owner).await;
    // By client, then module name: Anchal's Bulk SMS, Anchal's Core banking, Chavara's Bulk
    // SMS; Kallai's subscription has no portal.
    assert_eq!(
        rows(&list),
        [o.anchal_sms.clone(), o.anchal_core.clone(), o.chavara_sms.clone()]
    );
    assert_eq!(list["total"], 3);
    assert_eq!(
        list["rows"][2],
        json!({
            "client_module_id": o.chavara_sms, "client_id": o.chavara, "client_name": "Chavara SCB",
            "module_id": o.sms, "module_code": "SMS", "module_name": "Bulk SMS",
            "provider": "msg91", "username": "chavara-scb", "active": 1, "hasPassword": true,
        })
    );
    assert_eq!(
        (
            list["rows"][1]["provider"].clone(),
            list["rows"][1]["hasPassword"].clone(),
            list["rows"][0]["active"].clone()
        ),
        (Value::Null, json!(false), json!(0))
    );
    assert!(!text.contains(PASSWORD) && !text.contains(SECRET), "{text}");

    let csv = o.app.get("/api/portals.csv", &o.owner).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert_eq!(
        csv.headers.get("content-type").and_then(|v| v.to_str().ok()),
        Some("text/csv; charset=utf-8")
    );
    assert_eq!(
        csv.text,
        "Client,Module code,Module,Provider,Username,Active,Password stored\r\n\
         Anchal Farmers Bank,SMS,Bulk SMS,Textlocal,anchal.fb,0,no\r\n\
         Anchal Farmers Bank,CBS,Core banking,,anchal-core,1,no\r\n\
         Chavara SCB,SMS,Bulk SMS,msg91,chavara-scb,1,yes\r\n"
    );
    assert!(!csv.text.contains(PASSWORD));

    // The password is for the audited reveal only.
    let revealed = o
        .app
        .post(
            &format!("/api/client-modules/{}/reveal-password", o.chavara_sms),
            &o.owner,
            json!({}),
        )
        .await;
    assert_eq!(revealed.body["password"], PASSWORD);

    let (providers, _) = ok(&o.app, "/api/portals/providers", &o.owner).await;
    assert_eq!(providers, json!({ "rows": ["msg91", "Textlocal"] }));
}

#[tokio::test]
async fn the_portals_list_filters_sorts_and_pages() {
    let o = office().await;
    for (query, expected) in [
        (
            format!("module_id={}", o.sms),
            vec![&o.anchal_sms, &o.chavara_sms],
        ),
        ("provider=MSG91".to_string(), vec![&o.chavara_sms]),
        ("provider=%20textlocal%20".to_string(), vec![&o.anchal_sms]),
        ("q=farmers".to_string(), vec![&o.anchal_sms, &o.anchal_core]),
        ("q=CHAVARA-S".to_string(), vec![&o.chavara_sms]),
        ("q=core".to_string(), vec![&o.anchal_core]),
        ("active=0".to_string(), vec![&o.anchal_sms]),
        ("active=true".to_string(), vec![&o.anchal_core, &o.chavara_sms]),
        (
            "sort=-username".to_string(),
            vec![&o.chavara_sms, &o.anchal_sms, &o.anchal_core],
        ),
        // Ties break on the id: Chavara's SMS was subscribed first.
        (
            "sort=module_code".to_string(),
            vec![&o.anchal_core, &o.chavara_sms, &o.anchal_sms],
        ),
        ("per_page=2&page=2".to_string(), vec![&o.chavara_sms]),
    ] {
        let (list, _) = ok(&o.app, &format!("/api/portals?{query}"), &o.owner).await;
        assert_eq!(
            rows(&list),
            expected.into_iter().cloned().collect::<Vec<_>>(),
            "{query}"
        );
    }
    let csv = o.app.get("/api/portals.csv?provider=textlocal", &o.owner).await;
    assert_eq!(csv.text.lines().count(), 2, "{}", csv.text);
    for (query, code, field) in [
        ("active=yes", "invalid_active", "active"),
        ("sort=password", "invalid_sort", "sort"),
        ("per_page=500", "invalid_query", "per_page"),
    ] {
        for path in ["/api/portals", "/api/portals.csv"] {
            let reply = o.app.get(&format!("{path}?{query}"), &o.owner).await;
            assert_eq!(
                (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
                (StatusCode::BAD_REQUEST, code, Some(field)),
                "{path}?{query}: {}",
                reply.text
            );
        }
    }
}

#[tokio::test]
async fn module_data_is_the_field_spec_as_columns_and_never_a_secret() {
    let o = office().await;
    let path = format!("/api/module-data?module_id={}", o.sms);
    let (data, text) = ok(&o.app, &path, &o.owner).await;
    assert_eq!(
        data["module"],
        json!({ "id": o.sms, "code": "SMS", "name": "Bulk SMS" })
    );
    let columns: Vec<(&str, &str)> = data["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["key"].as_str().unwrap(), c["label"].as_str().unwrap()))
        .collect();
    assert_eq!(
        columns,
        [
            ("members", "Members"),
            ("go_live", "Go-live date"),
            ("plan", "Plan")
        ]
    );
    assert_eq!(data["total"], 3);
    assert_eq!(
        data["rows"],
        json!([
            { "client_module_id": o.anchal_sms, "client_id": o.anchal, "client_name": "Anchal Farmers Bank", "active": 0,
              "values": { "members": 800, "go_live": "2025-06-01", "plan": null } },
            { "client_module_id": o.chavara_sms, "client_id": o.chavara, "client_name": "Chavara SCB", "active": 1,
              "values": { "members": 1200, "go_live": null, "plan": "Pro" } },
            { "client_module_id": o.kallai_sms, "client_id": o.kallai, "client_name": "Kallai PACS", "active": 1,
              "values": { "members": 300, "go_live": null, "plan": null } },
        ])
    );
    assert!(
        !text.contains(SECRET) && !text.contains("api_key") && !text.contains(PASSWORD),
        "{text}"
    );

    let csv = o
        .app
        .get(&path.replace("module-data", "module-data.csv"), &o.owner)
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert_eq!(
        csv.headers
            .get("content-disposition")
            .and_then(|v| v.to_str().ok()),
        Some("attachment; filename=\"module-data-SMS.csv\"")
    );
    assert_eq!(
        csv.text,
        "Client,Members,Go-live date,Plan\r\n\
         Anchal Farmers Bank,800,2025-06-01,\r\n\
         Chavara SCB,1200,,Pro\r\n\
         Kallai PACS,300,,\r\n"
    );

    // Filters and sort.
    let (active, _) = ok(&o.app, &format!("{path}&active=1&q=pacs"), &o.owner).await;
    assert_eq!(rows(&active), std::slice::from_ref(&o.kallai_sms));
    let (sorted, _) = ok(&o.app, &format!("{path}&sort=active"), &o.owner).await;
    assert_eq!(rows(&sorted)[0], o.anchal_sms);

    // A field dropped from the spec leaves the table, though the value stays stored.
    let reply = o
        .app
        .patch(
            &format!("/api/modules/{}", o.sms),
            &o.owner,
            json!({ "field_spec": [
                { "key": "plan", "label": "Plan", "type": "select", "options": ["Basic", "Pro"] },
                { "key": "members", "label": "Members", "type": "integer" } ] }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let (data, _) = ok(&o.app, &path, &o.owner).await;
    assert_eq!(data["rows"][0]["values"], json!({ "plan": null, "members": 800 }));
    let csv = o
        .app
        .get(&path.replace("module-data", "module-data.csv"), &o.owner)
        .await;
    assert_eq!(csv.text.lines().next(), Some("Client,Plan,Members"));
    assert_eq!(csv.text.lines().nth(2), Some("Chavara SCB,Pro,1200"));

    // A module without fields: no columns, empty values.
    let (core, _) = ok(
        &o.app,
        &format!("/api/module-data?module_id={}", o.core),
        &o.owner,
    )
    .await;
    assert_eq!(
        (core["columns"].clone(), core["rows"][0]["values"].clone()),
        (json!([]), json!({}))
    );
}

#[tokio::test]
async fn a_missing_or_unknown_module_is_refused() {
    let o = office().await;
    for base in ["/api/module-data", "/api/module-data.csv"] {
        for (query, status, code) in [
            ("", StatusCode::BAD_REQUEST, "module_id_required"),
            ("?module_id=%20", StatusCode::BAD_REQUEST, "module_id_required"),
            (
                "?module_id=01JB0000000000000000000000",
                StatusCode::NOT_FOUND,
                "not_found",
            ),
        ] {
            let reply = o.app.get(&format!("{base}{query}"), &o.owner).await;
            assert_eq!(
                (reply.status, reply.code()),
                (status, code),
                "{base}{query}: {}",
                reply.text
            );
        }
        let reply = o
            .app
            .get(&format!("{base}?module_id={}&active=2", o.sms), &o.owner)
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::BAD_REQUEST, "invalid_active")
        );
        let reply = o
            .app
            .get(&format!("{base}?module_id={}&sort=members", o.sms), &o.owner)
            .await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::BAD_REQUEST, "invalid_sort")
        );
    }
    assert_eq!(
        o.app.get("/api/module-data?module_id=x", "").await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn staff_see_the_portals_and_module_data_of_their_book() {
    let o = office().await;
    let (portals, text) = ok(&o.app, "/api/portals", &o.anna).await;
    assert_eq!(rows(&portals), std::slice::from_ref(&o.chavara_sms));
    assert_eq!(portals["rows"][0]["hasPassword"], true);
    assert!(!text.contains(PASSWORD));
    let csv = o.app.get("/api/portals.csv", &o.anna).await;
    assert_eq!(csv.text.lines().count(), 2);
    assert!(csv.text.contains("Chavara SCB") && !csv.text.contains("Anchal") && !csv.text.contains(PASSWORD));
    let (providers, _) = ok(&o.app, "/api/portals/providers", &o.anna).await;
    assert_eq!(providers, json!({ "rows": ["msg91"] }));

    let (data, _) = ok(&o.app, &format!("/api/module-data?module_id={}", o.sms), &o.anna).await;
    assert_eq!(
        (rows(&data), data["total"].clone()),
        (vec![o.chavara_sms.clone()], json!(1))
    );
    let csv = o
        .app
        .get(&format!("/api/module-data.csv?module_id={}", o.sms), &o.anna)
        .await;
    assert_eq!(
        csv.text,
        "Client,Members,Go-live date,Plan\r\nChavara SCB,1200,,Pro\r\n"
    );
    // The password stays behind the managerial reveal.
    let reveal = o
        .app
        .send(
            Call::new(
                Method::POST,
                &format!("/api/client-modules/{}/reveal-password", o.chavara_sms),
            )
            .cookie(&o.anna)
            .json(json!({})),
        )
        .await;
    assert_eq!(reveal.status, StatusCode::FORBIDDEN);
}
