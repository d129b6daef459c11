//! Moving in (issue 17): a legacy file staged with its problems marked, corrected in place and
//! committed in one transaction; number series seeded past the legacy numbers; a second commit
//! creating nothing; every bad file and every non-owner refused with nothing written; and the
//! owner's clean-up of legacy-encrypted credentials.

use crate::common::{Call, Reply, TestApp};
use axum::http::{Method, StatusCode};
use backoffice::plumbing::clock::Fy;
use chrono::NaiveDate;
use serde_json::{Value, json};

fn today(app: &TestApp) -> NaiveDate {
    app.state
        .db
        .read_blocking(backoffice::plumbing::db::settings::office_today)
        .unwrap()
}

/// A valid GSTIN of Kerala for the PAN-like `body` (10 characters).
fn gstin(body: &str) -> String {
    let first14 = format!("32{body}1Z");
    format!(
        "{first14}{}",
        backoffice::plumbing::gstin::check_char(&first14).unwrap()
    )
}

async fn stage(app: &TestApp, cookie: &str, csv: &str) -> Reply {
    app.post(
        "/api/import/stage",
        cookie,
        json!({ "csv": csv, "file_name": "old-system.csv" }),
    )
    .await
}

async fn status(app: &TestApp, owner: &str) -> Value {
    let reply = app.get("/api/import/status", owner).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

fn kinds(row: &Value) -> Vec<String> {
    row["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn an_excel_file_stages_with_its_mapping_counts_and_cross_check() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let g = gstin("AABAK1234C");
    // Excel's byte-order mark, CRLF, headers in another order and spelling, a quoted comma, a
    // quoted newline, a Malayalam name, rupees written three ways, and a column it does not read.
    let csv = format!(
        "\u{feff}Invoice Date,Society Name,GSTIN No.,District,Remarks,Invoice No,Invoice Total,Balance\r\n\
         15-04-2024,\"Kallada SCB, No 1432\",{g},Kollam,old,INV/24-25-0101,\"1,180.00\",\r\n\
         02/05/2025,\"Kallada SCB, No 1432\",{g},Kollam,,INV/25-26-0042,\"₹5,900.50\",100\r\n\
         ,\"കുണ്ടറ വനിതാ\nസഹകരണ സംഘം\",,Kollam,,,,\r\n"
    );
    let reply = stage(&app, &owner, &csv).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let s = status(&app, &owner).await;
    assert_eq!(
        (
            s["staged"].as_i64(),
            s["to_create"].as_i64(),
            s["to_update"].as_i64(),
            s["invoices"].as_i64(),
            s["problems"].as_i64()
        ),
        (Some(3), Some(2), Some(0), Some(2), Some(0)),
        "{s}"
    );
    let fields: Vec<(String, Value)> = s["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["header"].as_str().unwrap().to_string(), c["field"].clone()))
        .collect();
    assert_eq!(fields[1], ("Society Name".to_string(), json!("name")));
    assert_eq!(fields[2], ("GSTIN No.".to_string(), json!("gstin")));
    assert_eq!(fields[4], ("Remarks".to_string(), Value::Null));
    assert_eq!(
        s["verification"],
        json!({
            "invoice_total": 118_000 + 590_050,
            "invoices_by_fy": { "24-25": 1, "25-26": 1 },
            "totals_by_fy": { "24-25": 118_000, "25-26": 590_050 }
        })
    );
    let rows = app.get("/api/import/rows?filter=all", &owner).await;
    assert_eq!(rows.body["total"], 3);
    assert_eq!(rows.body["rows"][0]["row"], 2, "the header is row 1");
    assert_eq!(rows.body["rows"][0]["name"], "Kallada SCB, No 1432");
    assert_eq!(rows.body["rows"][2]["name"], "കുണ്ടറ വനിതാ\nസഹകരണ സംഘം");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE entity = 'import' AND action = 'stage'"),
        1
    );

    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(committed.status, StatusCode::OK, "{}", committed.text);
    assert_eq!(
        (
            committed.body["clients_created"].as_i64(),
            committed.body["invoices_created"].as_i64()
        ),
        (Some(2), Some(2))
    );
    let conn = app.sql();
    let (client_type, category, gst): (String, String, String) = conn
        .query_row(
            "SELECT client_type, category, gstin FROM client WHERE name = 'Kallada SCB, No 1432'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((client_type.as_str(), gst.as_str()), ("PACS", g.as_str()));
    assert!(!category.is_empty());
    // Paid in the old system unless the file says what is still owed.
    let owed: Vec<(String, String, i64, i64, Option<String>)> = conn
        .prepare("SELECT doc_no, status, total, outstanding, settled_on FROM document WHERE source = 'legacy' ORDER BY doc_no")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        owed,
        vec![
            (
                "INV/24-25-0101".into(),
                "issued".into(),
                118_000,
                0,
                Some("2024-04-15".into())
            ),
            ("INV/25-26-0042".into(), "issued".into(), 590_050, 10_000, None),
        ]
    );
    let after = status(&app, &owner).await;
    assert_eq!(
        after["committed"]["verification"], s["verification"],
        "read back from the committed invoices"
    );
    assert_eq!(after["committed"]["result"]["clients_created"], 2);
}

/// `n` rows each with one problem (an invalid amount), after a clean one.
fn problem_file(n: usize) -> String {
    let mut csv = "name,invoice_no,invoice_date,invoice_total\nClean PACS,,,\n".to_string();
    for i in 0..n {
        csv.push_str(&format!("Society {i},INV/24-25-{:04},2024-05-01,twelve\n", i + 1));
    }
    csv
}

#[tokio::test]
async fn the_status_shows_the_first_50_problem_rows_and_the_honest_count() {
    let app = TestApp::new();
    let owner = app.owner().await;
    assert_eq!(
        stage(&app, &owner, &problem_file(60)).await.status,
        StatusCode::OK
    );
    let s = status(&app, &owner).await;
    assert_eq!(s["problems"], 60);
    assert_eq!(s["problems_by_kind"], json!({ "amount_invalid": 60 }));
    let shown = s["problem_rows"].as_array().unwrap();
    assert_eq!(shown.len(), 50);
    assert_eq!(
        (shown[0]["row"].as_i64(), shown[49]["row"].as_i64()),
        (Some(3), Some(52))
    );
    assert_eq!(kinds(&shown[0]), ["amount_invalid"]);
    assert_eq!(shown[0]["problems"][0]["field"], "invoice_total");
    let page = app
        .get("/api/import/rows?filter=problems&per_page=200", &owner)
        .await;
    assert_eq!(
        (
            page.body["total"].as_i64(),
            page.body["rows"].as_array().unwrap().len()
        ),
        (Some(60), 60)
    );
}

#[tokio::test]
async fn each_problem_kind_is_marked_on_its_row() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let today = today(&app);
    let fy = Fy::of(today).short();
    let existing = app
        .post(
            "/api/clients",
            &owner,
            json!({ "name": "Perinad SCB", "state_code": "32" }),
        )
        .await;
    assert_eq!(existing.status, StatusCode::CREATED);
    let bad_check = {
        let right = gstin("AABAK1234C");
        let last = if right.ends_with('X') { 'Y' } else { 'X' };
        format!("{}{last}", &right[..14])
    };
    let tomorrow = today.succ_opt().unwrap();
    let csv = format!(
        "name,gstin,invoice_no,invoice_date,invoice_total\n\
         ,,,,\n\
         ,x,,,\n\
         Alpha PACS,{bad_check},,,\n\
         Beta PACS,,INV/24-25-0001,2024-05-01,100\n\
         Beta PACS,,INV/24-25-0001,2024-05-01,100\n\
         Gamma PACS,,INV/24-25-0001,2024-05-01,100\n\
         Delta PACS,,INV 7,2024-05-01,100\n\
         Delta PACS,,INV/23-24-0007,2024-05-01,100\n\
         Eps PACS,,INV/24-25-0009,31/02/2024,1.234\n\
         Zeta PACS,,INV/24-25-0010,,\n\
         Eta PACS,,INV/{fy}-0001,{tomorrow},100\n\
         Perinad S.C.B.,,,,\n"
    );
    let reply = stage(&app, &owner, &csv).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let rows = app.get("/api/import/rows?per_page=200", &owner).await;
    let got: Vec<(i64, Vec<String>, String)> = rows.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["row"].as_i64().unwrap(),
                kinds(r),
                r["action"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(i64, Vec<&str>, &str)> = vec![
        // Row 2 (all empty) is not a row at all.
        (3, vec!["name_missing", "gstin_invalid"], "create"),
        (4, vec!["gstin_invalid"], "create"),
        (5, vec![], "create"),
        (6, vec!["duplicate_row"], "create"),
        (7, vec!["invoice_no_clash"], "create"),
        (8, vec!["invoice_no_shape"], "create"),
        (9, vec!["invoice_fy_mismatch"], "create"),
        (10, vec!["date_invalid", "amount_invalid"], "create"),
        (11, vec!["invoice_incomplete", "invoice_incomplete"], "create"),
        (12, vec!["date_invalid"], "create"),
        // Already in the registry: not a problem, offered as update (or skip).
        (13, vec![], "update"),
    ];
    let want: Vec<(i64, Vec<String>, String)> = want
        .into_iter()
        .map(|(r, k, a)| (r, k.into_iter().map(String::from).collect(), a.to_string()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(rows.body["rows"][10]["match_client_name"], "Perinad SCB");
    let s = status(&app, &owner).await;
    assert_eq!(
        (s["problems"].as_i64(), s["to_update"].as_i64()),
        (Some(9), Some(1))
    );
    assert_eq!(s["problems_by_kind"]["date_invalid"], 2);
}

#[tokio::test]
async fn a_commit_is_refused_while_a_problem_stands_and_accepted_once_it_is_fixed() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let csv = "name,district,invoice_no,invoice_date,invoice_total\nAnchal SCB,Kollam,INV/24-25-0001,2024-06-01,2360\nMylom PACS,Kollam,INV/24-25-0002,2024-06-02,1180 rupees\nTo Drop,,,,\n";
    assert_eq!(stage(&app, &owner, csv).await.status, StatusCode::OK);
    let clients = app.count("SELECT COUNT(*) FROM client");
    let refused = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::CONFLICT, "import_has_problems"),
        "{}",
        refused.text
    );
    assert_eq!(
        (
            app.count("SELECT COUNT(*) FROM client"),
            app.count("SELECT COUNT(*) FROM document"),
            app.count("SELECT COUNT(*) FROM audit WHERE action = 'commit'")
        ),
        (clients, 0, 0),
        "a refused commit writes nothing"
    );
    // Corrected in place: re-checked at once.
    let fixed = app
        .patch("/api/import/rows/3", &owner, json!({ "invoice_total": "1,180" }))
        .await;
    assert_eq!(fixed.status, StatusCode::OK, "{}", fixed.text);
    assert_eq!(
        (
            fixed.body["problems"].clone(),
            fixed.body["invoice_total"].clone()
        ),
        (json!([]), json!("1,180"))
    );
    let excluded = app
        .patch("/api/import/rows/4", &owner, json!({ "excluded": 1 }))
        .await;
    assert_eq!(excluded.body["action"], "exclude");
    let bad = app
        .patch("/api/import/rows/3", &owner, json!({ "action": "merge" }))
        .await;
    assert_eq!(
        (bad.status, bad.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("action"))
    );
    assert_eq!(
        app.patch("/api/import/rows/99", &owner, json!({ "name": "x" }))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.patch("/api/import/rows/abc", &owner, json!({ "name": "x" }))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(committed.status, StatusCode::OK, "{}", committed.text);
    assert_eq!(
        (
            committed.body["clients_created"].as_i64(),
            committed.body["invoices_created"].as_i64()
        ),
        (Some(2), Some(2))
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM client WHERE name = 'To Drop'"), 0);
    assert_eq!(
        app.count("SELECT total FROM document WHERE doc_no = 'INV/24-25-0002'"),
        118_000
    );
    // Committed: the rows are a record now.
    let late = app
        .patch("/api/import/rows/3", &owner, json!({ "name": "x" }))
        .await;
    assert_eq!(
        (late.status, late.code()),
        (StatusCode::CONFLICT, "import_committed")
    );
}

#[tokio::test]
async fn the_series_continues_past_the_largest_legacy_number() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let today = today(&app);
    let fy = Fy::of(today).short();
    let first = Fy::of(today).first_day();
    let csv = format!(
        "name,gstin,invoice_no,invoice_date,invoice_total\n\
         Kallada SCB,{},INV/{fy}-0007,{first},1180\n\
         Kallada SCB,,INV/{fy}-0500,{today},2360\n\
         Mylom PACS,,INV/{fy}-0499,{today},100\n",
        gstin("AABAK1234C")
    );
    assert_eq!(stage(&app, &owner, &csv).await.status, StatusCode::OK);
    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(committed.status, StatusCode::OK, "{}", committed.text);
    assert_eq!(
        committed.body["series"],
        json!([{ "prefix": "INV", "fy": fy, "last_seq": 500 }])
    );
    let module = app.priced_module(&owner, 1_000_000).await;
    let client = app.count("SELECT COUNT(*) FROM client WHERE name = 'Kallada SCB'");
    assert_eq!(client, 1, "two rows, one client");
    let client_id: String = app
        .sql()
        .query_row("SELECT id FROM client WHERE name = 'Kallada SCB'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let draft = app
        .post(
            "/api/documents",
            &owner,
            json!({ "type": "INVOICE", "client_id": client_id, "lines": [{ "module_id": module, "qty": 1 }] }),
        )
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let issued = app
        .post(
            &format!("/api/documents/{}/issue", draft.body["id"].as_str().unwrap()),
            &owner,
            json!({}),
        )
        .await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
    assert_eq!(issued.body["docNo"], format!("INV/{fy}-0501"));
    // The legacy invoices are the client's, issued, in its documents list.
    let docs = app
        .get(
            &format!("/api/documents?client_id={client_id}&type=INVOICE"),
            &owner,
        )
        .await;
    assert_eq!(docs.body["total"], 3, "{}", docs.text);
}

#[tokio::test]
async fn committing_the_same_file_again_creates_nothing() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let g = gstin("AABAK1234C");
    let csv = format!(
        "name,gstin,district,invoice_no,invoice_date,invoice_total\n\
         Kallada SCB,{g},Kollam,INV/24-25-0001,2024-06-01,1180\n\
         Mylom PACS,,Kollam,INV/24-25-0002,2024-06-02,2360\n\
         Kundara Vanitha,,,,,\n"
    );
    assert_eq!(stage(&app, &owner, &csv).await.status, StatusCode::OK);
    assert_eq!(
        app.post("/api/import/commit", &owner, json!({})).await.status,
        StatusCode::OK
    );
    let counts = || {
        (
            app.count("SELECT COUNT(*) FROM client"),
            app.count("SELECT COUNT(*) FROM document"),
            app.count("SELECT COUNT(*) FROM document_line"),
        )
    };
    let before = counts();
    assert_eq!(before, (3, 2, 2));
    // The commit indexed what it added for search as the triggers would have (V14).
    let suffixes = |sql: &str| -> Vec<(String, String)> {
        let conn = app.sql();
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(
        suffixes("SELECT suffix, document_id FROM document_no_search ORDER BY 1, 2"),
        suffixes(
            "SELECT lower(substr(d.doc_no, p.n)), d.id FROM document d JOIN search_position p ON p.n <= length(d.doc_no) ORDER BY 1, 2"
        )
    );
    assert_eq!(
        suffixes("SELECT suffix, client_id FROM client_name_search ORDER BY 1, 2"),
        suffixes(
            "SELECT lower(substr(c.name, p.n)), c.id FROM client c JOIN search_position p ON p.n <= length(c.name) ORDER BY 1, 2"
        )
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM search_deferred"), 0);
    assert_eq!(app.count("SELECT COUNT(*) FROM document_no_search"), 28);
    // The same file staged again: every client and invoice is known.
    assert_eq!(stage(&app, &owner, &csv).await.status, StatusCode::OK);
    let s = status(&app, &owner).await;
    assert_eq!(
        (
            s["to_create"].as_i64(),
            s["to_update"].as_i64(),
            s["invoices"].as_i64(),
            s["invoices_known"].as_i64(),
            s["problems"].as_i64()
        ),
        (Some(0), Some(3), Some(0), Some(2), Some(0)),
        "{s}"
    );
    let again = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(
        (
            again.body["clients_created"].as_i64(),
            again.body["clients_updated"].as_i64(),
            again.body["invoices_created"].as_i64(),
            again.body["invoices_known"].as_i64()
        ),
        (Some(0), Some(0), Some(0), Some(2))
    );
    // And committing the committed batch once more.
    assert_eq!(
        app.post("/api/import/commit", &owner, json!({})).await.status,
        StatusCode::OK
    );
    assert_eq!(counts(), before);
}

#[tokio::test]
async fn a_client_already_in_the_registry_is_updated_or_left_alone_as_chosen() {
    let app = TestApp::new();
    let owner = app.owner().await;
    for name in ["Anchal SCB", "Mylom PACS"] {
        let reply = app
            .post("/api/clients", &owner, json!({ "name": name, "district": "Old" }))
            .await;
        assert_eq!(reply.status, StatusCode::CREATED);
    }
    let csv = "name,district,os\nANCHAL S.C.B. Ltd,Kollam,Windows 10\nMylom PACS,Kollam,\n";
    assert_eq!(stage(&app, &owner, csv).await.status, StatusCode::OK);
    let s = status(&app, &owner).await;
    assert_eq!(
        (s["to_create"].as_i64(), s["to_update"].as_i64()),
        (Some(0), Some(2))
    );
    let skip = app
        .patch("/api/import/rows/3", &owner, json!({ "action": "skip" }))
        .await;
    assert_eq!(skip.body["action"], "skip");
    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(
        (
            committed.body["clients_updated"].as_i64(),
            committed.body["clients_unchanged"].as_i64()
        ),
        (Some(1), Some(1)),
        "{}",
        committed.text
    );
    let district = |name: &str| -> (String, Option<String>) {
        app.sql()
            .query_row("SELECT district, os FROM client WHERE name = ?1", [name], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap()
    };
    assert_eq!(
        district("Anchal SCB"),
        ("Kollam".to_string(), Some("Windows 10".to_string()))
    );
    assert_eq!(district("Mylom PACS"), ("Old".to_string(), None), "skipped");
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE entity = 'client' AND action = 'import_update'"),
        1
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM client"), 2, "nothing doubled");
}

#[tokio::test]
async fn bad_files_and_non_owners_get_a_clear_refusal_and_nothing_is_written() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let (_, pw) = app.invite(&owner, "meera@coop.in", "manager").await;
    let manager = app.login("meera@coop.in", &pw).await;
    let audits = app.count("SELECT COUNT(*) FROM audit");
    let oversized = format!("name\n{}", "A society of a very long name\n".repeat(800_000));
    assert!(oversized.len() > 20 * 1024 * 1024);
    let cases: Vec<(&str, Reply, StatusCode, &str)> = vec![
        (
            "malformed",
            stage(&app, &owner, "name,district\nA,B,C\n").await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "malformed_csv",
        ),
        (
            "empty",
            stage(&app, &owner, "").await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "empty_file",
        ),
        (
            "headers only",
            stage(&app, &owner, "name,gstin\r\n").await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "no_rows",
        ),
        (
            "no name column",
            stage(&app, &owner, "district\nKollam\n").await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "missing_column",
        ),
        (
            "over the limit",
            stage(&app, &owner, &oversized).await,
            StatusCode::PAYLOAD_TOO_LARGE,
            "file_too_large",
        ),
        (
            "no csv",
            app.post("/api/import/stage", &owner, json!({ "file": "x" }))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_value",
        ),
        (
            "manager",
            stage(&app, &manager, "name\nA\n").await,
            StatusCode::FORBIDDEN,
            "forbidden",
        ),
        (
            "manager commit",
            app.post("/api/import/commit", &manager, json!({})).await,
            StatusCode::FORBIDDEN,
            "forbidden",
        ),
        (
            "manager status",
            app.get("/api/import/status", &manager).await,
            StatusCode::FORBIDDEN,
            "forbidden",
        ),
        (
            "nothing staged",
            app.post("/api/import/commit", &owner, json!({})).await,
            StatusCode::CONFLICT,
            "nothing_staged",
        ),
    ];
    for (what, reply, status, code) in cases {
        assert_eq!(
            (reply.status, reply.code()),
            (status, code),
            "{what}: {}",
            &reply.text[..reply.text.len().min(300)]
        );
        assert!(
            !reply.body["error"]["message"].as_str().unwrap_or("").is_empty(),
            "{what}"
        );
    }
    let signed_out = app
        .send(Call::new(Method::POST, "/api/import/stage").json(json!({ "csv": "name\nA\n" })))
        .await;
    assert_eq!(signed_out.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        (
            app.count("SELECT COUNT(*) FROM import_row"),
            app.count("SELECT COUNT(*) FROM import_batch"),
            app.count("SELECT COUNT(*) FROM audit")
        ),
        (0, 0, audits)
    );
    // A good file staged, then a bad one: the good one stays staged.
    assert_eq!(
        stage(&app, &owner, "name\nAnchal SCB\n").await.status,
        StatusCode::OK
    );
    assert_eq!(
        stage(&app, &owner, "name,district\nA,B,C\n").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM import_row WHERE name = 'Anchal SCB'"),
        1
    );
}

#[tokio::test]
async fn legacy_encrypted_credentials_are_counted_then_cleared_and_audited_by_count() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let client = app
        .post("/api/clients", &owner, json!({ "name": "Anchal SCB" }))
        .await;
    let client_id = client.body["id"].as_str().unwrap().to_string();
    let module = app.priced_module(&owner, 100_000).await;
    let link = app
        .post(
            "/api/client-modules",
            &owner,
            json!({ "client_id": client_id, "module_id": module }),
        )
        .await;
    assert_eq!(link.status, StatusCode::CREATED, "{}", link.text);
    let project = link.body["id"].as_str().unwrap().to_string();
    let conn = app.sql();
    conn.execute(
        "UPDATE client SET db_password = 'enc:U2FsdGVkX1' WHERE id = ?1",
        [&client_id],
    )
    .unwrap();
    conn.execute(
        "UPDATE client_module SET password = 'enc:QUJDRA==', secrets = ?2 WHERE id = ?1",
        [
            &project,
            &"api_key,sms_key\n{\"api_key\":\"enc:ZZZZ\",\"sms_key\":\"plain-key\"}".to_string(),
        ],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO setting (id, key, value, effective_from, set_at) VALUES ('01LEGACYTOKEN00000000000000', 'mail.token', '\"enc:T0tFTg==\"', '2020-01-01', '2020-01-01T00:00:00Z')",
        [],
    )
    .unwrap();
    let count = app.get("/api/admin/legacy-credentials", &owner).await;
    assert_eq!(
        count.body,
        json!({ "db_passwords": 1, "portal_passwords": 1, "module_secrets": 1, "mail_token": 1, "total": 4 })
    );
    let (_, pw) = app.invite(&owner, "meera@coop.in", "manager").await;
    let manager = app.login("meera@coop.in", &pw).await;
    let refused = app
        .post("/api/admin/clear-legacy-credentials", &manager, json!({}))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM client WHERE db_password LIKE 'enc:%'"),
        1
    );

    let cleared = app
        .post("/api/admin/clear-legacy-credentials", &owner, json!({}))
        .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.text);
    assert_eq!(cleared.body["total"], 4);
    let left: (Option<String>, Option<String>, Option<String>) = app
        .sql()
        .query_row(
            "SELECT c.db_password, cm.password, cm.secrets FROM client c JOIN client_module cm ON cm.client_id = c.id",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        left,
        (
            None,
            None,
            Some("sms_key\n{\"sms_key\":\"plain-key\"}".to_string())
        )
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM setting WHERE value LIKE '%enc:%'"),
        0
    );
    let audit: String = app
        .sql()
        .query_row(
            "SELECT after FROM audit WHERE entity = 'admin' AND action = 'clear_legacy_credentials'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        audit.contains("\"total\":4") && !audit.contains("enc:"),
        "{audit}"
    );
    let again = app.get("/api/admin/legacy-credentials", &owner).await;
    assert_eq!(again.body["total"], 0);
    // The readable secret is still there to reveal.
    let reveal = app
        .post(
            &format!("/api/client-modules/{project}/reveal-secret"),
            &owner,
            json!({ "key": "sms_key" }),
        )
        .await;
    assert_eq!(
        (reveal.status, reveal.text.contains("plain-key")),
        (StatusCode::OK, true),
        "{}",
        reveal.text
    );
}

#[tokio::test]
async fn a_legacy_balance_is_owed_chased_and_paid_like_any_invoice() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let csv = "name,invoice_no,invoice_date,invoice_total,invoice_balance\n\
               Anchal SCB,INV/24-25-0001,2024-06-01,\"11,800.00\",\"1,800\"\n\
               Anchal SCB,INV/24-25-0002,2024-07-01,5900,\n";
    assert_eq!(stage(&app, &owner, csv).await.status, StatusCode::OK);
    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(committed.status, StatusCode::OK, "{}", committed.text);
    let doc = |no: &str| -> (String, String) {
        app.sql()
            .query_row(
                "SELECT id, client_id FROM document WHERE doc_no = ?1",
                [no],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap()
    };
    let (owing, client) = doc("INV/24-25-0001");
    let shown = app.get(&format!("/api/documents/{owing}"), &owner).await;
    assert_eq!(
        (
            shown.body["outstanding"].as_i64(),
            shown.body["payment_state"].as_str(),
            shown.body["source"].as_str()
        ),
        (Some(180_000), Some("overdue"), Some("legacy")),
        "{}",
        shown.text
    );
    // The dues list has the balance, not the whole of the old invoice.
    let dues = app.get("/api/documents?payment_state=overdue", &owner).await;
    assert_eq!(dues.body["total"], 1);
    let (paid, _) = doc("INV/24-25-0002");
    let refused = app
        .post(
            "/api/payments",
            &owner,
            json!({ "client_id": client, "received_on": "2026-10-01", "amount": 100, "mode": "cash",
                    "allocations": [ { "document_id": paid, "amount": 100, "tds": 0 } ] }),
        )
        .await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::UNPROCESSABLE_ENTITY, "exceeds_outstanding"),
        "paid in the old system: nothing more to take"
    );
    let payment = app
        .post(
            "/api/payments",
            &owner,
            json!({ "client_id": client, "received_on": "2026-10-01", "amount": 180_000, "mode": "cash",
                    "allocations": [ { "document_id": owing, "amount": 180_000, "tds": 0 } ] }),
        )
        .await;
    assert_eq!(payment.status, StatusCode::CREATED, "{}", payment.text);
    let settled: (i64, Option<String>) = app
        .sql()
        .query_row(
            "SELECT outstanding, settled_on FROM document WHERE id = ?1",
            [&owing],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(settled, (0, Some("2026-10-01".to_string())));
}

#[tokio::test]
async fn the_rows_download_the_sample_stages_and_skip_all_and_discard_do_what_they_say() {
    let app = TestApp::new();
    let owner = app.owner().await;
    // The sample file stages without a problem.
    let sample = app.get("/api/import/sample.csv", &owner).await;
    assert_eq!(sample.status, StatusCode::OK);
    assert!(
        sample.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let staged = stage(&app, &owner, &sample.text).await;
    assert_eq!(
        (
            staged.status,
            staged.body["problems"].as_i64(),
            staged.body["to_create"].as_i64()
        ),
        (StatusCode::OK, Some(0), Some(2)),
        "{}",
        staged.text
    );
    // A file with an existing client and a problem row.
    let existing = app
        .post("/api/clients", &owner, json!({ "name": "Anchal SCB" }))
        .await;
    assert_eq!(existing.status, StatusCode::CREATED);
    let csv = "name,invoice_no,invoice_date,invoice_total\nAnchal SCB,,,\n\"Mylom PACS, No 4\",INV/24-25-0001,2024-06-01,12x\n";
    assert_eq!(stage(&app, &owner, csv).await.status, StatusCode::OK);
    let download = app.get("/api/import/rows.csv?filter=problems", &owner).await;
    assert_eq!(download.status, StatusCode::OK);
    assert_eq!(
        download.text,
        "Row,Name,GSTIN,District,Sector,Remote access ID,OS,Phone,Email,Address,Contact name,Contact role,Contact phone,Contact email,\
         Invoice no,Invoice date,Invoice total,Invoice balance,Action,Client in the registry,Problems\r\n\
         3,\"Mylom PACS, No 4\",,,,,,,,,,,,,INV/24-25-0001,2024-06-01,12x,,create,,\"\"\"12x\"\" is not an amount in rupees, such as 1,180.00.\"\r\n"
    );
    assert_eq!(
        app.get("/api/import/rows.csv?filter=odd", &owner).await.status,
        StatusCode::BAD_REQUEST
    );
    // Every client already in the registry left alone at once.
    let skip = app
        .post("/api/import/rows/action", &owner, json!({ "action": "skip" }))
        .await;
    assert_eq!(
        (skip.status, skip.body["rows"].as_i64()),
        (StatusCode::OK, Some(1))
    );
    let s = status(&app, &owner).await;
    assert_eq!(
        (s["to_update"].as_i64(), s["to_skip"].as_i64()),
        (Some(0), Some(1))
    );
    let bad = app
        .post("/api/import/rows/action", &owner, json!({ "action": "merge" }))
        .await;
    assert_eq!(
        (bad.status, bad.body["error"]["field"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("action"))
    );
    // Discarded: nothing staged, audited, and committing is refused.
    let discarded = app.post("/api/import/discard", &owner, json!({})).await;
    assert_eq!(
        (discarded.status, discarded.body["staged"].as_i64()),
        (StatusCode::OK, Some(0))
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM import_row") + app.count("SELECT COUNT(*) FROM import_batch"),
        0
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM audit WHERE entity = 'import' AND action = 'discard'"),
        1
    );
    let refused = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::CONFLICT, "nothing_staged")
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM client"), 1);
}

#[tokio::test]
async fn the_old_systems_checklist_comes_with_the_file_and_the_commit_makes_it_the_whole_checklist() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let csv = "name,district\nKallada SCB,Kollam\n";
    let body =
        |checklist: Value| json!({ "csv": csv, "file_name": "old-system.csv", "checklist": checklist });

    // A bad step is refused on its index and nothing is staged.
    let refused = app
        .post(
            "/api/import/stage",
            &owner,
            body(json!(["Agreement signed", "  "])),
        )
        .await;
    assert_eq!(
        (
            refused.status,
            refused.code(),
            refused.body["error"]["field"].as_str()
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_label",
            Some("checklist[1]")
        )
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM import_batch"), 0);

    let staged = app
        .post(
            "/api/import/stage",
            &owner,
            body(json!(["Agreement signed", "Data migrated", "Go-live"])),
        )
        .await;
    assert_eq!(staged.status, StatusCode::OK, "{}", staged.text);
    let steps = json!([
        { "key": "agreement_signed", "label": "Agreement signed" },
        { "key": "data_migrated", "label": "Data migrated" },
        { "key": "go_live", "label": "Go-live" }
    ]);
    assert_eq!(status(&app, &owner).await["checklist"], steps);
    assert_eq!(
        app.get("/api/settings/milestones", &owner).await.body["legacy"],
        Value::Null,
        "nothing is in force before the commit"
    );

    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(
        (committed.status, committed.body["checklist_steps"].as_i64()),
        (StatusCode::OK, Some(3)),
        "{}",
        committed.text
    );
    assert_eq!(
        app.get("/api/settings/milestones", &owner).await.body["legacy"],
        steps
    );
    let audited = || {
        app.count(
            "SELECT COUNT(*) FROM audit WHERE entity = 'setting' AND entity_id = 'project.milestone_template'",
        )
    };
    assert_eq!(audited(), 1);

    // The same file and checklist again: nothing new is written.
    let again = app
        .post(
            "/api/import/stage",
            &owner,
            body(json!(["Agreement signed", "Data migrated", "Go-live"])),
        )
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    let recommitted = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(recommitted.status, StatusCode::OK, "{}", recommitted.text);
    assert_eq!(audited(), 1);

    // A file without a checklist leaves the one in force alone.
    let plain = stage(&app, &owner, csv).await;
    assert_eq!(
        (plain.status, plain.body["checklist"].clone()),
        (StatusCode::OK, Value::Null)
    );
    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(committed.body["checklist_steps"], 0);
    assert_eq!(
        app.get("/api/settings/milestones", &owner).await.body["legacy"],
        steps
    );
}

/// A file of more than 100 columns is refused whole with the limit named, and what is staged
/// stays staged; a file of 100 is read, and each header is echoed by the status cut to 100
/// characters, so the status never re-sends a huge header (issue 33).
#[tokio::test]
async fn columns_are_capped_and_long_headers_echoed_cut() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let long = format!("Remarks {}", "x".repeat(5_000));
    // 100 columns: name, the long header and 98 more the import does not read.
    let extra: Vec<String> = (3..=100).map(|i| format!("Extra {i}")).collect();
    let csv = format!(
        "Name,{long},{}\nAnchal SCB,note{}\n",
        extra.join(","),
        ",".repeat(extra.len())
    );
    let reply = stage(&app, &owner, &csv).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let s = status(&app, &owner).await;
    let columns = s["columns"].as_array().unwrap();
    assert_eq!(columns.len(), 100);
    let shown = format!("Remarks {}…", "x".repeat(92));
    assert_eq!(
        (columns[1]["header"].as_str(), &columns[1]["field"]),
        (Some(shown.as_str()), &Value::Null)
    );
    assert_eq!(shown.chars().count(), 101);
    assert_eq!(s["staged"], 1);

    // 200,000 columns: refused on `csv` naming the limit; the staged file is kept.
    let wide = format!("Name,{}\nKallada SCB\n", vec!["Col"; 199_999].join(","));
    let reply = stage(&app, &owner, &wide).await;
    assert_eq!(
        (
            reply.status,
            reply.code(),
            reply.body["error"]["field"].as_str(),
            reply.body["error"]["message"].as_str()
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_many_columns",
            Some("csv"),
            Some(
                "The file has 200000 columns; at most 100 are read. Remove the columns the import does not need."
            )
        )
    );
    let s = status(&app, &owner).await;
    assert_eq!(
        (s["staged"].as_i64(), s["columns"].as_array().map(Vec::len)),
        (Some(1), Some(100))
    );
    assert_eq!(
        app.count("SELECT COUNT(*) FROM import_row WHERE name = 'Anchal SCB'"),
        1
    );
}

/// Issues an invoice of one `module` to `client` today; answers its number.
async fn issue_invoice(app: &TestApp, owner: &str, client: &str, module: &str) -> String {
    let draft = app
        .post(
            "/api/documents",
            owner,
            json!({ "type": "INVOICE", "client_id": client, "lines": [{ "module_id": module, "qty": 1 }] }),
        )
        .await;
    assert_eq!(draft.status, StatusCode::CREATED, "{}", draft.text);
    let issued = app
        .post(
            &format!("/api/documents/{}/issue", draft.body["id"].as_str().unwrap()),
            owner,
            json!({}),
        )
        .await;
    assert_eq!(issued.status, StatusCode::OK, "{}", issued.text);
    issued.body["docNo"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn numbers_far_past_the_series_warn_before_the_commit_and_the_report_says_the_import_explains_the_gap()
{
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let module = app.priced_module(&owner, 1_000_000).await;
    let client = app
        .post("/api/clients", &owner, json!({ "name": "Anchal SCB" }))
        .await;
    let client = client.body["id"].as_str().unwrap().to_string();
    let today = today(&app);
    let fy = Fy::of(today).short();
    for seq in 1..=2 {
        assert_eq!(
            issue_invoice(&app, &owner, &client, &module).await,
            format!("INV/{fy}-{seq:04}")
        );
    }
    // The old system's invoice 0900 of the same series, and one of a series the office has not
    // numbered in (it begins where the old system's numbers do: no warning).
    let csv = format!(
        "name,invoice_no,invoice_date,invoice_total\n\
         Mylom PACS,INV/{fy}-0900,{today},1180\n\
         Mylom PACS,SI/{fy}-0042,{today},590\n"
    );
    let staged = stage(&app, &owner, &csv).await;
    assert_eq!(staged.status, StatusCode::OK, "{}", staged.text);
    let expected = json!([{
        "code": "continuity_gap",
        "message": format!(
            "Importing INV/{fy}-0900 leaves INV/{fy}-0003 to INV/{fy}-0899 (897 numbers) missing in INV/{fy}: its last number so far is INV/{fy}-0002."
        ),
        "series": format!("INV/{fy}"),
        "from": format!("INV/{fy}-0003"),
        "to": format!("INV/{fy}-0899"),
        "count": 897,
    }]);
    assert_eq!(staged.body["warnings"], expected);
    assert_eq!(status(&app, &owner).await["warnings"], expected);
    // Excluded, the row opens no gap.
    let excluded = app
        .patch("/api/import/rows/2", &owner, json!({ "excluded": 1 }))
        .await;
    assert_eq!(excluded.status, StatusCode::OK, "{}", excluded.text);
    assert_eq!(status(&app, &owner).await["warnings"], json!([]));
    app.patch("/api/import/rows/2", &owner, json!({ "excluded": 0 }))
        .await;
    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(committed.status, StatusCode::OK, "{}", committed.text);
    assert_eq!(status(&app, &owner).await["warnings"], json!([]));
    // The office's next invoice follows the old system's 0900: the report shows one range,
    // explained by the imported invoice that borders it.
    assert_eq!(
        issue_invoice(&app, &owner, &client, &module).await,
        format!("INV/{fy}-0901")
    );
    let legacy_id: String = app
        .sql()
        .query_row(
            "SELECT id FROM document WHERE doc_no = ?1",
            [format!("INV/{fy}-0900")],
            |r| r.get(0),
        )
        .unwrap();
    let report = app
        .get(&format!("/api/reports/number-continuity?fy=20{fy}"), &owner)
        .await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    let rows = report.body["rows"].as_array().unwrap();
    let inv = rows.iter().find(|r| r["prefix"] == "INV").unwrap();
    assert_eq!(
        (&inv["gaps"], &inv["gap_count"], &inv["count"]),
        (
            &json!([{
                "from": format!("INV/{fy}-0003"),
                "to": format!("INV/{fy}-0899"),
                "count": 897,
                "explained_by_import": { "document_id": legacy_id, "docNo": format!("INV/{fy}-0900") },
            }]),
            &json!(897),
            &json!(4)
        )
    );
    let si = rows.iter().find(|r| r["prefix"] == "SI").unwrap();
    assert_eq!((&si["gaps"], &si["unbroken"]), (&json!([]), &json!(true)));
    let csv = app
        .get(&format!("/api/reports/number-continuity.csv?fy=20{fy}"), &owner)
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(
        lines[0],
        "Series,Financial year,First,Last,Count,Missing,Gap from,Gap to,Gap count,Explained by import,Duplicated,Unbroken"
    );
    assert!(
        lines.contains(
            &format!(
                "INV,{fy},INV/{fy}-0001,INV/{fy}-0901,4,897,INV/{fy}-0003,INV/{fy}-0899,897,INV/{fy}-0900,,no"
            )
            .as_str()
        ),
        "{}",
        csv.text
    );
}

#[tokio::test]
async fn the_import_takes_phone_email_address_and_a_contact_and_checks_them() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let csv = "Society Name,Phone No,Email ID,Address,Contact Person,Designation,Contact Mobile,Contact Email\n\
               Kallada SCB,0474 255 1432,office@kallada.in,\"Main Road, Kallada\",Suresh Kumar,secretary,94470 12345,suresh@kallada.in\n\
               Mylom PACS,call us,mylom at gmail,,Rema,president,12,rema@\n\
               Kallada SCB,,,,Anitha,accountant,,\n";
    let staged = stage(&app, &owner, csv).await;
    assert_eq!(staged.status, StatusCode::OK, "{}", staged.text);
    let fields: Vec<&str> = staged.body["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "name",
            "phone",
            "email",
            "address",
            "contact_name",
            "contact_role",
            "contact_phone",
            "contact_email"
        ]
    );
    // The row with a bad phone and email names each column.
    let problems: Vec<(String, String)> = staged.body["problem_rows"][0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["kind"].as_str().unwrap().into(),
                p["field"].as_str().unwrap().into(),
            )
        })
        .collect();
    let pair = |k: &str, f: &str| (k.to_string(), f.to_string());
    assert_eq!(
        (
            staged.body["problems"].as_i64(),
            staged.body["problem_rows"][0]["row"].as_i64()
        ),
        (Some(1), Some(3))
    );
    assert_eq!(
        problems,
        [
            pair("phone_invalid", "phone"),
            pair("phone_invalid", "contact_phone"),
            pair("email_invalid", "email"),
            pair("email_invalid", "contact_email"),
        ]
    );
    let fixed = app
        .patch(
            "/api/import/rows/3",
            &owner,
            json!({ "phone": "0475 222 333", "email": "mylom@gmail.com", "contact_phone": "", "contact_email": "rema@mylom.in" }),
        )
        .await;
    assert_eq!(
        (
            fixed.status,
            fixed.body["problems"].clone(),
            fixed.body["contact_email"].clone()
        ),
        (StatusCode::OK, json!([]), json!("rema@mylom.in"))
    );
    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(committed.status, StatusCode::OK, "{}", committed.text);
    assert_eq!(
        (
            committed.body["clients_created"].as_i64(),
            committed.body["contacts_created"].as_i64()
        ),
        (Some(2), Some(3))
    );
    let client: (String, String, String, String) = app
        .sql()
        .query_row(
            "SELECT id, phone, email, address FROM client WHERE name = 'Kallada SCB'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(
        (client.1.as_str(), client.2.as_str(), client.3.as_str()),
        ("0474 255 1432", "office@kallada.in", "Main Road, Kallada")
    );
    let contacts = app
        .get(&format!("/api/clients/{}/contacts", client.0), &owner)
        .await;
    assert_eq!(contacts.status, StatusCode::OK, "{}", contacts.text);
    let mut got: Vec<(Value, Value, Value, Value)> = contacts.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].clone(),
                c["role"].clone(),
                c["phone"].clone(),
                c["email"].clone(),
            )
        })
        .collect();
    got.sort_by_key(|c| c.0.to_string());
    assert_eq!(
        got,
        [
            (json!("Anitha"), json!("accountant"), Value::Null, Value::Null),
            (
                json!("Suresh Kumar"),
                json!("secretary"),
                json!("94470 12345"),
                json!("suresh@kallada.in")
            ),
        ]
    );
    // Committing the same file again adds no contact twice.
    assert_eq!(stage(&app, &owner, csv).await.status, StatusCode::OK);
    app.patch(
        "/api/import/rows/3",
        &owner,
        json!({ "phone": "", "email": "", "contact_phone": "", "contact_email": "" }),
    )
    .await;
    let again = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(
        (again.status, again.body["contacts_created"].as_i64()),
        (StatusCode::OK, Some(0)),
        "{}",
        again.text
    );
    assert_eq!(app.count("SELECT COUNT(*) FROM contact"), 3);
}

#[tokio::test]
async fn imported_clients_without_documents_are_not_enquiries_but_hand_made_ones_are() {
    let app = TestApp::new();
    let owner = app.owner().await;
    let made = app
        .post("/api/clients", &owner, json!({ "name": "Anchal SCB" }))
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let staged = stage(&app, &owner, "name,district\nMylom PACS,Kollam\n").await;
    assert_eq!(staged.status, StatusCode::OK, "{}", staged.text);
    let committed = app.post("/api/import/commit", &owner, json!({})).await;
    assert_eq!(committed.status, StatusCode::OK, "{}", committed.text);
    assert_eq!(
        app.count("SELECT COUNT(*) FROM client WHERE name = 'Mylom PACS' AND imported_at IS NOT NULL"),
        1
    );
    let pipeline = app.get("/api/pipeline", &owner).await;
    assert_eq!(pipeline.status, StatusCode::OK, "{}", pipeline.text);
    let rows: Vec<(Value, Value)> = pipeline.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["client_name"].clone(), r["stage"].clone()))
        .collect();
    assert_eq!(rows, [(json!("Anchal SCB"), json!("Enquiry"))]);
}
