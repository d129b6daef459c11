//! The GSTR-1 export (issue 21): a hand-built month of B2B, B2C and credit notes whose offline
//! tool sheets and portal JSON match a fixture exactly, totals tied to the GST summary, the
//! warnings that come before a download the tool would refuse, and bad requests refused.

use crate::common::TestApp;
use axum::http::StatusCode;
use backoffice::db::settings::office_today;
use backoffice::gstin::check_char;
use chrono::{Datelike, NaiveDate};
use serde_json::{Value, json};

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

fn gstin(body: &str) -> String {
    format!("{body}{}", check_char(body).unwrap())
}

async fn created(app: &TestApp, path: &str, cookie: &str, body: Value) -> Value {
    let reply = app.post(path, cookie, body).await;
    assert!(reply.status.is_success(), "{path}: {}", reply.text);
    reply.body
}

async fn client(app: &TestApp, owner: &str, body: Value) -> String {
    id(&created(app, "/api/clients", owner, body).await)
}

/// An issued invoice of `client` dated `on`; its id and number.
async fn invoice(app: &TestApp, owner: &str, client: &str, on: NaiveDate, lines: Value) -> (String, String) {
    let draft = created(
        app,
        "/api/documents",
        owner,
        json!({ "type": "INVOICE", "client_id": client, "doc_date": on.to_string(), "lines": lines }),
    )
    .await;
    let issued = created(
        app,
        &format!("/api/documents/{}/issue", id(&draft)),
        owner,
        json!({}),
    )
    .await;
    (id(&draft), issued["docNo"].as_str().unwrap().to_string())
}

async fn credit(app: &TestApp, owner: &str, invoice: &str, lines: Value) -> String {
    let note = created(
        app,
        &format!("/api/documents/{invoice}/credit-note"),
        owner,
        json!({ "reason": "Discount agreed", "lines": lines }),
    )
    .await;
    note["docNo"].as_str().unwrap().to_string()
}

async fn module(app: &TestApp, owner: &str, code: &str, name: &str, sac: &str, rate: i64) -> String {
    id(&created(
        app,
        "/api/modules",
        owner,
        json!({ "code": code, "name": name, "sac": sac, "gst_rate": rate }),
    )
    .await)
}

struct Month {
    app: TestApp,
    owner: String,
    period: String,
    /// The invoices' date (the month's first day) and the credit notes' (today).
    first: NaiveDate,
    today: NaiveDate,
    chavara: String,
    coimbatore: String,
    numbers: Vec<String>,
}

/// Softland India (Kerala, 32) bills in this month:
/// - Chavara SCB (registered, Kerala): ₹10,000 of DEP (998314, 18%) and ₹2,000 of TRN (999293,
///   12%), credited ₹1,000 of DEP today;
/// - Coimbatore Weavers (registered, Tamil Nadu): 2 × ₹5,000 of DEP, IGST;
/// - Anchal Women's Society (no GSTIN, Kerala): ₹3,000 of DEP, credited ₹500 today;
/// - Mysuru Housing (no GSTIN, Karnataka): ₹4,000 of DEP, IGST;
/// - and a cancelled invoice and a draft, which stay out.
async fn month() -> Month {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let today = app.state.db.read_blocking(office_today).unwrap();
    let first = today.with_day(1).unwrap();
    let dep = module(&app, &owner, "DEP", "Deposit module", "998314", 18).await;
    let trn = module(&app, &owner, "TRN", "Staff training", "999293", 12).await;
    let chavara_gstin = gstin("32AAACC1234A1Z");
    let coimbatore_gstin = gstin("33AAACD5678B1Z");
    let chavara = client(
        &app,
        &owner,
        json!({ "name": "Chavara SCB", "gstin": chavara_gstin }),
    )
    .await;
    let coimbatore = client(
        &app,
        &owner,
        json!({ "name": "Coimbatore Weavers Society", "gstin": coimbatore_gstin }),
    )
    .await;
    let anchal = client(
        &app,
        &owner,
        json!({ "name": "Anchal Women's Society", "state_code": "32" }),
    )
    .await;
    let mysuru = client(
        &app,
        &owner,
        json!({ "name": "Mysuru Housing Society", "state_code": "29" }),
    )
    .await;
    let line =
        |module: &str, qty: i64, price: i64| json!({ "module_id": module, "qty": qty, "unit_price": price });
    let (a, inv_a) = invoice(
        &app,
        &owner,
        &chavara,
        first,
        json!([line(&dep, 1, 1_000_000), line(&trn, 1, 200_000)]),
    )
    .await;
    let (_, inv_b) = invoice(&app, &owner, &coimbatore, first, json!([line(&dep, 2, 500_000)])).await;
    let (c, inv_c) = invoice(&app, &owner, &anchal, first, json!([line(&dep, 1, 300_000)])).await;
    let (_, inv_d) = invoice(&app, &owner, &mysuru, first, json!([line(&dep, 1, 400_000)])).await;
    let (cancelled, _) = invoice(&app, &owner, &anchal, first, json!([line(&dep, 1, 900_000)])).await;
    created(
        &app,
        &format!("/api/documents/{cancelled}/cancel"),
        &owner,
        json!({ "reason": "Raised twice" }),
    )
    .await;
    created(
        &app,
        "/api/documents",
        &owner,
        json!({ "type": "INVOICE", "client_id": anchal, "doc_date": first.to_string(), "lines": [line(&dep, 1, 800_000)] }),
    )
    .await;
    let cn_a = credit(&app, &owner, &a, json!([line(&dep, 1, 100_000)])).await;
    let cn_c = credit(&app, &owner, &c, json!([line(&dep, 1, 50_000)])).await;
    Month {
        period: first.format("%Y-%m").to_string(),
        app,
        owner,
        first,
        today,
        chavara: chavara_gstin,
        coimbatore: coimbatore_gstin,
        numbers: vec![inv_a, inv_b, inv_c, inv_d, cn_a, cn_c],
    }
}

async fn get(m: &Month, query: &str) -> crate::common::Reply {
    m.app
        .get(
            &format!("/api/reports/gstr1?period={}{query}", m.period),
            &m.owner,
        )
        .await
}

#[tokio::test]
async fn the_offline_tool_sheets_match_the_hand_built_month_exactly() {
    let m = month().await;
    let [inv_a, inv_b, _, _, cn_a, _] = &m.numbers[..] else {
        unreachable!()
    };
    let d = m.first.format("%d-%b-%Y");
    let t = m.today.format("%d-%b-%Y");
    let sheet = |section: &str| {
        let m = &m;
        let section = section.to_string();
        async move {
            let reply = get(m, &format!("&format=csv&section={section}")).await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
            assert_eq!(reply.header("content-type"), Some("text/csv; charset=utf-8"));
            assert_eq!(
                reply.header("content-disposition").unwrap(),
                format!("attachment; filename=\"gstr1-{}-{section}.csv\"", m.period)
            );
            reply.text
        }
    };
    let (a, b) = (&m.chavara, &m.coimbatore);
    assert_eq!(
        sheet("b2b").await,
        format!(
            "GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,Invoice Value,Place Of Supply,Reverse Charge,Applicable % of Tax Rate,Invoice Type,E-Commerce GSTIN,Rate,Taxable Value,Cess Amount\r\n\
             {a},Chavara SCB,{inv_a},{d},14040.00,32-Kerala,N,,Regular B2B,,12.00,2000.00,0.00\r\n\
             {a},Chavara SCB,{inv_a},{d},14040.00,32-Kerala,N,,Regular B2B,,18.00,10000.00,0.00\r\n\
             {b},Coimbatore Weavers Society,{inv_b},{d},11800.00,33-Tamil Nadu,N,,Regular B2B,,18.00,10000.00,0.00\r\n"
        )
    );
    // B2C small: Karnataka inter-state; Kerala's ₹3,000 less the ₹500 credited.
    assert_eq!(
        sheet("b2cs").await,
        "Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN\r\n\
         OE,29-Karnataka,,18.00,4000.00,0.00,\r\n\
         OE,32-Kerala,,18.00,2500.00,0.00,\r\n"
    );
    assert_eq!(
        sheet("cdnr").await,
        format!(
            "GSTIN/UIN of Recipient,Receiver Name,Note Number,Note Date,Note Type,Place Of Supply,Reverse Charge,Note Supply Type,Note Value,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount\r\n\
             {a},Chavara SCB,{cn_a},{t},C,32-Kerala,N,Regular,1180.00,,18.00,1000.00,0.00\r\n"
        )
    );
    // DEP: 10,000 + 10,000 + 3,000 + 4,000 − 1,000 − 500 = 25,500 taxable; IGST 1,800 + 720;
    // CGST and SGST 900 + 270 − 90 − 45 each.
    assert_eq!(
        sheet("hsn").await,
        "HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount\r\n\
         998314,IT design and development,NA,0,30090.00,18.00,25500.00,2520.00,1035.00,1035.00,0.00\r\n\
         999293,Commercial training,NA,0,2240.00,12.00,2000.00,0.00,120.00,120.00,0.00\r\n"
    );
}

#[tokio::test]
async fn the_portal_json_matches_the_hand_built_month_exactly() {
    let m = month().await;
    let [inv_a, inv_b, _, _, cn_a, _] = &m.numbers[..] else {
        unreachable!()
    };
    let reply = get(&m, "&format=portal").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let fp = m.first.format("%m%Y").to_string();
    assert_eq!(
        reply.header("content-disposition").unwrap(),
        format!("attachment; filename=\"GSTR1_32AABCK1234L1ZV_{fp}.json\"")
    );
    let d = m.first.format("%d-%m-%Y").to_string();
    let t = m.today.format("%d-%m-%Y").to_string();
    let det = |rt: i64, txval: f64, iamt: f64, camt: f64, samt: f64| json!({ "txval": txval, "rt": rt, "iamt": iamt, "camt": camt, "samt": samt, "csamt": 0.0 });
    let expected = json!({
        "gstin": "32AABCK1234L1ZV", "fp": fp, "version": "GST3.1.8", "hash": "hash",
        "b2b": [
            { "ctin": m.chavara, "inv": [ { "inum": inv_a, "idt": d, "val": 14040.0, "pos": "32", "rchrg": "N", "inv_typ": "R",
                "itms": [ { "num": 1, "itm_det": det(12, 2000.0, 0.0, 120.0, 120.0) },
                          { "num": 2, "itm_det": det(18, 10000.0, 0.0, 900.0, 900.0) } ] } ] },
            { "ctin": m.coimbatore, "inv": [ { "inum": inv_b, "idt": d, "val": 11800.0, "pos": "33", "rchrg": "N", "inv_typ": "R",
                "itms": [ { "num": 1, "itm_det": det(18, 10000.0, 1800.0, 0.0, 0.0) } ] } ] },
        ],
        "b2cs": [
            { "sply_ty": "INTER", "pos": "29", "typ": "OE", "txval": 4000.0, "rt": 18, "iamt": 720.0, "camt": 0.0, "samt": 0.0, "csamt": 0.0 },
            { "sply_ty": "INTRA", "pos": "32", "typ": "OE", "txval": 2500.0, "rt": 18, "iamt": 0.0, "camt": 225.0, "samt": 225.0, "csamt": 0.0 },
        ],
        "cdnr": [
            { "ctin": m.chavara, "nt": [ { "ntty": "C", "nt_num": cn_a, "nt_dt": t, "val": 1180.0, "pos": "32", "rchrg": "N", "inv_typ": "R",
                "itms": [ { "num": 1, "itm_det": det(18, 1000.0, 0.0, 90.0, 90.0) } ] } ] },
        ],
        "hsn": { "data": [
            { "num": 1, "hsn_sc": "998314", "desc": "IT design and development", "uqc": "NA", "qty": 0, "rt": 18,
              "txval": 25500.0, "iamt": 2520.0, "camt": 1035.0, "samt": 1035.0, "csamt": 0.0 },
            { "num": 2, "hsn_sc": "999293", "desc": "Commercial training", "uqc": "NA", "qty": 0, "rt": 12,
              "txval": 2000.0, "iamt": 0.0, "camt": 120.0, "samt": 120.0, "csamt": 0.0 },
        ] },
    });
    assert_eq!(reply.body, expected);
}

#[tokio::test]
async fn the_totals_tie_to_the_gst_summary_of_the_month_to_the_paisa() {
    let m = month().await;
    let reply = get(&m, "").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let g = &reply.body;
    assert_eq!(g["period"], m.period);
    assert_eq!(
        g["totals"],
        json!({ "taxable": 2_750_000, "igst": 252_000, "cgst": 115_500, "sgst": 115_500 })
    );
    assert_eq!(g["warnings"], json!([]));
    assert_eq!(
        [
            &g["sections"]["b2b"]["count"],
            &g["sections"]["b2cs"]["count"],
            &g["sections"]["cdnr"]["count"],
            &g["sections"]["hsn"]["count"]
        ],
        [&json!(3), &json!(2), &json!(1), &json!(2)]
    );
    // B2B + B2C small − credit notes to registered clients = the HSN summary = the totals.
    let s = &g["sections"];
    let taxable = |k: &str| s[k]["taxable"].as_i64().unwrap();
    assert_eq!(taxable("b2b") + taxable("b2cs") - taxable("cdnr"), 2_750_000);
    assert_eq!(taxable("hsn"), 2_750_000);
    assert_eq!(s["cdnr"]["rows"][0]["invoice_no"], json!(m.numbers[0]));
    let last = m.first.with_day(1).unwrap() + chrono::Months::new(1) - chrono::Duration::days(1);
    let summary = m
        .app
        .get(
            &format!("/api/reports/gst-summary?from={}&to={last}", m.first),
            &m.owner,
        )
        .await;
    assert_eq!(summary.status, StatusCode::OK);
    let month = &summary.body["rows"][0];
    for (mine, theirs) in [
        ("taxable", "taxable"),
        ("igst", "igst"),
        ("cgst", "cgst"),
        ("sgst", "sgst"),
    ] {
        assert_eq!(g["totals"][mine], month[theirs], "{mine}");
    }
}

#[tokio::test]
async fn what_the_tool_would_refuse_is_warned_with_a_link_before_the_download() {
    let app = TestApp::new();
    let owner = app.owner().await;
    // No company GSTIN yet.
    let today = app.state.db.read_blocking(office_today).unwrap();
    let first = today.with_day(1).unwrap();
    let nowhere = client(&app, &owner, json!({ "name": "Nowhere Society" })).await;
    let (no_sac, _) = invoice(
        &app,
        &owner,
        &nowhere,
        first,
        json!([{ "description": "Data correction", "qty": 1, "unit_price": 100_000, "gst_rate": 18 }]),
    )
    .await;
    let bad = client(
        &app,
        &owner,
        json!({ "name": "Broken GSTIN SCB", "gstin": gstin("32AAACB1111C1Z") }),
    )
    .await;
    app.sql()
        .execute(
            "UPDATE client SET gstin = '32AAACB1111C1ZZ' WHERE id = ?1",
            [&bad],
        )
        .unwrap();
    let dep = module(&app, &owner, "DEP", "Deposit module", "998314", 18).await;
    invoice(
        &app,
        &owner,
        &bad,
        first,
        json!([{ "module_id": dep, "qty": 1, "unit_price": 100_000 }]),
    )
    .await;
    // An invoice of the old system, imported: in the return at 0% with its whole total.
    let staff_id: String = app
        .sql()
        .query_row("SELECT id FROM staff", [], |r| r.get(0))
        .unwrap();
    let legacy = app
        .state
        .db
        .write_blocking(|tx| {
            backoffice::documents::store::insert_legacy(
                tx,
                &backoffice::documents::store::LegacyInvoice {
                    client_id: &bad,
                    doc_no: "OLD/2024/000123",
                    doc_date: &first.to_string(),
                    total: 590_000,
                    paid: 0,
                    intra_state: true,
                    created_by: &staff_id,
                },
            )
        })
        .unwrap();
    let reply = app
        .get(
            &format!("/api/reports/gstr1?period={}", first.format("%Y-%m")),
            &owner,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let warnings: Vec<(String, Option<String>, Option<String>)> = reply.body["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["code"].as_str().unwrap().to_string(),
                w["document_id"].as_str().map(str::to_string),
                w["client_id"].as_str().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(
        warnings,
        [
            ("company_without_gstin".to_string(), None, None),
            ("missing_sac".to_string(), Some(no_sac), None),
            ("client_without_state".to_string(), None, Some(nowhere)),
            ("invalid_gstin".to_string(), None, Some(bad.clone())),
            ("legacy_invoice".to_string(), Some(legacy.clone()), None),
        ]
    );
    let b2b = &reply.body["sections"]["b2b"]["rows"];
    assert_eq!(
        (
            &b2b[1]["document_id"],
            &b2b[1]["rate"],
            &b2b[1]["taxable"],
            &b2b[1]["igst"]
        ),
        (&json!(legacy), &json!(0), &json!(590_000), &json!(0))
    );
    assert_eq!(
        reply.body["totals"]["taxable"],
        json!(100_000 + 100_000 + 590_000)
    );
    assert!(
        reply.body["warnings"][3]["message"]
            .as_str()
            .unwrap()
            .contains("32AAACB1111C1ZZ")
    );
}

#[tokio::test]
async fn bad_periods_formats_and_sections_are_refused_and_staff_kept_out() {
    let app = TestApp::new();
    let owner = app.owner().await;
    for (query, code, field) in [
        ("period=2025-13", "invalid_period", "period"),
        ("period=25-04", "invalid_period", "period"),
        ("period=1999-12", "invalid_period", "period"),
        ("period=2025-04&format=xlsx", "invalid_format", "format"),
        ("period=2025-04&format=csv", "invalid_section", "section"),
        (
            "period=2025-04&format=csv&section=b2cl",
            "invalid_section",
            "section",
        ),
        ("period=2025-04&section=b2b", "invalid_section", "section"),
    ] {
        let reply = app.get(&format!("/api/reports/gstr1?{query}"), &owner).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{query}: {}", reply.text);
        assert_eq!(
            (reply.code(), reply.body["error"]["field"].as_str()),
            (code, Some(field)),
            "{query}"
        );
    }
    // An empty month is an empty return; no period is last month.
    let reply = app.get("/api/reports/gstr1?period=2025-04", &owner).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.body["sections"]["b2b"],
        json!({ "rows": [], "count": 0, "taxable": 0, "igst": 0, "cgst": 0, "sgst": 0 })
    );
    let today = app.state.db.read_blocking(office_today).unwrap();
    let last = today.with_day(1).unwrap() - chrono::Duration::days(1);
    let reply = app.get("/api/reports/gstr1", &owner).await;
    assert_eq!(reply.body["period"], last.format("%Y-%m").to_string());
    let (_, pw) = app.invite(&owner, "anna@coop.in", "staff").await;
    let anna = app.login("anna@coop.in", &pw).await;
    for query in ["", "?format=portal", "?format=csv&section=b2b"] {
        let reply = app.get(&format!("/api/reports/gstr1{query}"), &anna).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{query}");
    }
}
