//! The GSTR-1 export (issue 21; the current portal shape, issue 36): a hand-built month of B2B,
//! B2C and credit notes whose offline tool sheets and portal JSON match a fixture exactly, totals
//! tied to the GST summary, the warnings that come before a download the tool would refuse, and
//! bad requests refused; a second month with every current table (B2C large, CDNUR, nil-rated,
//! HSN B2B and B2C, documents issued) tied together to the paisa, and the portal JSON of it and
//! of every month of the demo office validated against the schema in tests/fixtures.

use crate::common::TestApp;
use axum::http::StatusCode;
use backoffice::plumbing::db::settings::office_today;
use backoffice::plumbing::gstin::check_char;
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
    cancelled_no: String,
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
    let (cancelled, cancelled_no) =
        invoice(&app, &owner, &anchal, first, json!([line(&dep, 1, 900_000)])).await;
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
        cancelled_no,
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
        "gstin": "32AABCK1234L1ZV", "fp": fp, "version": "GST3.2.4", "hash": "hash",
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
        // Registered: DEP 10,000 − 1,000 + 10,000 (IGST); unregistered: DEP 3,000 − 500 + 4,000.
        "hsn": {
            "hsn_b2b": [
                { "num": 1, "hsn_sc": "998314", "desc": "IT design and development", "user_desc": "Deposit module",
                  "uqc": "NA", "qty": 0, "rt": 18, "txval": 19000.0, "iamt": 1800.0, "camt": 810.0, "samt": 810.0, "csamt": 0.0 },
                { "num": 2, "hsn_sc": "999293", "desc": "Commercial training", "user_desc": "Staff training",
                  "uqc": "NA", "qty": 0, "rt": 12, "txval": 2000.0, "iamt": 0.0, "camt": 120.0, "samt": 120.0, "csamt": 0.0 },
            ],
            "hsn_b2c": [
                { "num": 1, "hsn_sc": "998314", "desc": "IT design and development", "user_desc": "Deposit module",
                  "uqc": "NA", "qty": 0, "rt": 18, "txval": 6500.0, "iamt": 720.0, "camt": 225.0, "samt": 225.0, "csamt": 0.0 },
            ],
        },
        // Five invoice numbers (the cancelled one among them), two credit notes; the draft has none.
        "doc_issue": { "doc_det": [
            { "doc_num": 1, "docs": [ { "num": 1, "from": inv_a, "to": m.cancelled_no, "totnum": 5, "cancel": 1, "net_issue": 4 } ] },
            { "doc_num": 5, "docs": [ { "num": 1, "from": cn_a, "to": m.numbers[5], "totnum": 2, "cancel": 0, "net_issue": 2 } ] },
        ] },
    });
    assert_eq!(reply.body, expected);
    assert_valid(&schema(), &reply.body);
    assert_two_decimals(&reply.text);
    assert!(reply.text.contains(r#""val":14040.00"#), "{}", reply.text);
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

/// A B2B row names the invoice a credit note credits, and nothing for an invoice: the
/// proforma an invoice came from is its parent too, and is not an invoice.
#[tokio::test]
async fn an_invoice_from_a_proforma_names_no_credited_invoice() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let today = app.state.db.read_blocking(office_today).unwrap();
    let dep = module(&app, &owner, "DEP", "Deposit module", "998314", 18).await;
    let chavara = client(
        &app,
        &owner,
        json!({ "name": "Chavara SCB", "gstin": gstin("32AAACC1234A1Z") }),
    )
    .await;
    let proforma = created(
        &app,
        "/api/documents",
        &owner,
        json!({ "type": "PROFORMA", "client_id": chavara, "doc_date": today.to_string(),
                "lines": [{ "module_id": dep, "qty": 1, "unit_price": 1_000_000 }] }),
    )
    .await;
    created(
        &app,
        &format!("/api/documents/{}/issue", id(&proforma)),
        &owner,
        json!({}),
    )
    .await;
    let draft = created(
        &app,
        &format!("/api/documents/{}/convert", id(&proforma)),
        &owner,
        json!({ "to": "INVOICE" }),
    )
    .await;
    let issued = created(
        &app,
        &format!("/api/documents/{}/issue", id(&draft)),
        &owner,
        json!({}),
    )
    .await;
    let note = credit(
        &app,
        &owner,
        &id(&draft),
        json!([{ "module_id": dep, "qty": 1, "unit_price": 100_000 }]),
    )
    .await;
    let reply = app
        .get(
            &format!("/api/reports/gstr1?period={}", today.format("%Y-%m")),
            &owner,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let rows = |section: &str| {
        reply.body["sections"][section]["rows"]
            .as_array()
            .unwrap()
            .clone()
    };
    let b2b = rows("b2b");
    assert_eq!(b2b.len(), 1, "{b2b:?}");
    assert_eq!(b2b[0]["number"], issued["docNo"]);
    assert_eq!(b2b[0].get("invoice_no"), None, "{:?}", b2b[0]);
    assert_eq!(b2b[0].get("invoice_date"), None, "{:?}", b2b[0]);
    let cdnr = rows("cdnr");
    assert_eq!(cdnr.len(), 1, "{cdnr:?}");
    assert_eq!(cdnr[0]["number"], json!(note));
    assert_eq!(cdnr[0]["invoice_no"], issued["docNo"]);
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
    let audited = app.count("SELECT COUNT(*) FROM audit");
    for (query, code, field) in [
        ("period=2025-13", "invalid_period", "period"),
        ("period=25-04", "invalid_period", "period"),
        ("period=1999-12", "invalid_period", "period"),
        ("period=2025-04&format=xlsx", "invalid_format", "format"),
        ("period=2025-04&format=csv", "invalid_section", "section"),
        (
            "period=2025-04&format=csv&section=exp",
            "invalid_section",
            "section",
        ),
        ("period=2025-04&section=b2b", "invalid_section", "section"),
        ("period=2025-04&section=hsn_b2c", "invalid_section", "section"),
        (
            "period=2025-04&format=portal&section=docs",
            "invalid_section",
            "section",
        ),
        ("period=2025-4&format=portal", "invalid_period", "period"),
    ] {
        let reply = app.get(&format!("/api/reports/gstr1?{query}"), &owner).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{query}: {}", reply.text);
        assert_eq!(
            (reply.code(), reply.body["error"]["field"].as_str()),
            (code, Some(field)),
            "{query}"
        );
    }
    // A refused request writes nothing.
    assert_eq!(app.count("SELECT COUNT(*) FROM audit"), audited);
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

/// A month with every table of the current return, in odd paise, issued in one financial year's
/// series from nothing (so the number-continuity report's rows are the month's):
/// - Chavara SCB (registered, Kerala): ₹10,000.01 of DEP (998314, 18%) and ₹2,000.33 of NIL
///   (999293 at 0%, nil-rated), credited ₹1,000.07 of DEP;
/// - Coimbatore Weavers (registered, Tamil Nadu): ₹5,000.03 of DEP, IGST;
/// - Mysuru Housing (no GSTIN, Karnataka): ₹1,50,000.37 of DEP (B2C large), credited ₹10,000.11
///   (CDNUR), and ₹4,000.19 of DEP (B2C small, inter-state) and ₹700.05 of NIL;
/// - Anchal Women's Society (no GSTIN, Kerala): ₹3,000.05 of DEP, credited ₹500.01 (B2C small);
/// - a cancelled invoice and a draft.
struct Current {
    app: TestApp,
    owner: String,
    period: String,
    first: NaiveDate,
    large: String,
    note_large: String,
}

async fn current() -> Current {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let today = app.state.db.read_blocking(office_today).unwrap();
    let first = today.with_day(1).unwrap();
    let dep = module(&app, &owner, "DEP", "Deposit module", "998314", 18).await;
    let nil = module(&app, &owner, "NIL", "Co-operative audit training", "999293", 0).await;
    let chavara = client(
        &app,
        &owner,
        json!({ "name": "Chavara SCB", "gstin": gstin("32AAACC1234A1Z") }),
    )
    .await;
    let coimbatore = client(
        &app,
        &owner,
        json!({ "name": "Coimbatore Weavers Society", "gstin": gstin("33AAACD5678B1Z") }),
    )
    .await;
    let mysuru = client(
        &app,
        &owner,
        json!({ "name": "Mysuru Housing Society", "state_code": "29" }),
    )
    .await;
    let anchal = client(
        &app,
        &owner,
        json!({ "name": "Anchal Women's Society", "state_code": "32" }),
    )
    .await;
    let line =
        |module: &str, qty: i64, price: i64| json!({ "module_id": module, "qty": qty, "unit_price": price });
    let (a, _) = invoice(
        &app,
        &owner,
        &chavara,
        first,
        json!([line(&dep, 1, 1_000_001), line(&nil, 1, 200_033)]),
    )
    .await;
    invoice(&app, &owner, &coimbatore, first, json!([line(&dep, 1, 500_003)])).await;
    let (large_id, large) = invoice(&app, &owner, &mysuru, first, json!([line(&dep, 1, 15_000_037)])).await;
    invoice(
        &app,
        &owner,
        &mysuru,
        first,
        json!([line(&dep, 1, 400_019), line(&nil, 1, 70_005)]),
    )
    .await;
    let (c, _) = invoice(&app, &owner, &anchal, first, json!([line(&dep, 1, 300_005)])).await;
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
    credit(&app, &owner, &a, json!([line(&dep, 1, 100_007)])).await;
    let note_large = credit(&app, &owner, &large_id, json!([line(&dep, 1, 1_000_011)])).await;
    credit(&app, &owner, &c, json!([line(&dep, 1, 50_001)])).await;
    Current {
        period: first.format("%Y-%m").to_string(),
        app,
        owner,
        first,
        large,
        note_large,
    }
}

const AMOUNTS: [&str; 4] = ["taxable", "igst", "cgst", "sgst"];

fn amounts(v: &Value) -> [i64; 4] {
    AMOUNTS.map(|k| v[k].as_i64().unwrap_or_else(|| panic!("{k} in {v}")))
}

fn combine(parts: &[(i64, [i64; 4])]) -> [i64; 4] {
    let mut out = [0; 4];
    for (sign, a) in parts {
        for i in 0..4 {
            out[i] += sign * a[i];
        }
    }
    out
}

fn schema() -> jsonschema::Validator {
    let text = include_str!("../fixtures/gstr1.schema.json");
    jsonschema::validator_for(&serde_json::from_str(text).unwrap()).unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, json: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(json)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .take(10)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// Every number with a fraction in the text has two decimals, and every amount key one.
fn assert_two_decimals(text: &str) {
    for key in [
        "txval",
        "iamt",
        "camt",
        "samt",
        "csamt",
        "val",
        "nil_amt",
        "expt_amt",
        "ngsup_amt",
    ] {
        let needle = format!("\"{key}\":");
        for (at, _) in text.match_indices(&needle) {
            let rest = &text[at + needle.len()..];
            let number: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
                .collect();
            let decimals = number.split_once('.').map(|(_, d)| d.len());
            assert_eq!(decimals, Some(2), "{key}: {number}");
        }
    }
}

#[tokio::test]
async fn the_current_tables_tie_together_to_the_paisa() {
    let m = current().await;
    let reply = m
        .app
        .get(&format!("/api/reports/gstr1?period={}", m.period), &m.owner)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let g = &reply.body;
    assert_eq!(g["warnings"], json!([]));
    let s = &g["sections"];
    let t = |k: &str| amounts(&s[k]);
    let nil_of = |types: [&str; 2]| {
        let taxable: i64 = s["nil"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| types.contains(&r["supply_type"].as_str().unwrap()))
            .map(|r| r["nil_rated"].as_i64().unwrap())
            .sum();
        [taxable, 0, 0, 0]
    };
    let nil_b2b = nil_of(["INTRB2B", "INTRAB2B"]);
    let nil_b2c = nil_of(["INTRB2C", "INTRAB2C"]);
    assert_eq!(nil_b2b, [200_033, 0, 0, 0]);
    assert_eq!(nil_b2c, [70_005, 0, 0, 0]);
    // HSN B2B = B2B less registered credit notes (and the registered nil-rated lines, which
    // the HSN summary counts too).
    assert_eq!(
        t("hsn_b2b"),
        combine(&[(1, t("b2b")), (-1, t("cdnr")), (1, nil_b2b)])
    );
    // HSN B2C = B2C small + B2C large less unregistered notes (and the nil-rated lines).
    assert_eq!(
        t("hsn_b2c"),
        combine(&[(1, t("b2cs")), (1, t("b2cl")), (-1, t("cdnur")), (1, nil_b2c)])
    );
    assert_eq!(t("hsn"), combine(&[(1, t("hsn_b2b")), (1, t("hsn_b2c"))]));
    // B2C large: ₹1,50,000.37 with 18% IGST (₹27,000.07); CDNUR ₹10,000.11 with ₹1,800.02.
    assert_eq!(t("b2cl"), [15_000_037, 2_700_007, 0, 0]);
    assert_eq!(t("cdnur"), [1_000_011, 180_002, 0, 0]);
    assert_eq!(s["b2cl"]["rows"][0]["number"], json!(m.large));
    assert_eq!(s["cdnur"]["rows"][0]["number"], json!(m.note_large));
    assert_eq!(s["cdnur"]["rows"][0]["invoice_no"], json!(m.large));
    // Nothing of B2C large is left in B2C small: Karnataka is ₹4,000.19 alone.
    let b2cs: Vec<(String, i64)> = s["b2cs"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["pos"].as_str().unwrap().to_string(),
                r["taxable"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        b2cs,
        [("29".to_string(), 400_019), ("32".to_string(), 300_005 - 50_001)]
    );
    // The totals: the HSN summary's, and the GST summary's for the month.
    let totals = amounts(&g["totals"]);
    assert_eq!(totals, t("hsn"));
    assert_eq!(
        totals,
        combine(&[
            (1, t("b2b")),
            (1, t("b2cl")),
            (1, t("b2cs")),
            (-1, t("cdnr")),
            (-1, t("cdnur")),
            (1, t("nil")),
        ])
    );
    let last = m.first + chrono::Months::new(1) - chrono::Duration::days(1);
    let summary = m
        .app
        .get(
            &format!("/api/reports/gst-summary?from={}&to={last}", m.first),
            &m.owner,
        )
        .await;
    assert_eq!(summary.status, StatusCode::OK, "{}", summary.text);
    assert_eq!(amounts(&summary.body["rows"][0]), totals);
    // Table 13 = the number-continuity report (the month is all its series hold).
    let continuity = m.app.get("/api/reports/number-continuity", &m.owner).await;
    assert_eq!(continuity.status, StatusCode::OK);
    let series: Vec<Value> = continuity.body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["prefix"] == "INV" || r["prefix"] == "CN")
        .map(|r| json!([r["prefix"], r["first"], r["last"], r["count"]]))
        .collect();
    let docs: Vec<Value> = s["docs"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["prefix"], r["from"], r["to"], r["total"]]))
        .collect();
    let mut expected = series.clone();
    expected.sort_by_key(|r| r[0] != "INV");
    assert_eq!(docs, expected);
    assert_eq!(
        s["docs"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (
                r["doc_num"].as_i64().unwrap(),
                r["total"].as_i64().unwrap(),
                r["cancelled"].as_i64().unwrap(),
                r["net_issued"].as_i64().unwrap()
            ))
            .collect::<Vec<_>>(),
        [(1, 6, 1, 5), (5, 3, 0, 3)]
    );
    for key in [
        "b2b", "b2cl", "b2cs", "cdnr", "cdnur", "nil", "hsn", "hsn_b2b", "hsn_b2c", "docs",
    ] {
        assert!(s[key]["count"].is_u64(), "{key}");
    }
}

#[tokio::test]
async fn the_portal_json_of_the_current_month_validates_and_writes_two_decimals() {
    let m = current().await;
    let reply = m
        .app
        .get(
            &format!("/api/reports/gstr1?period={}&format=portal", m.period),
            &m.owner,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let validator = schema();
    assert_valid(&validator, &reply.body);
    assert_two_decimals(&reply.text);
    // The schema is closed and typed: the pre-2025 HSN table, a key of no section, a state
    // code of no state and a document number over 16 characters are each refused.
    for (pointer, bad) in [
        ("/hsn", json!({ "data": [] })),
        ("/b2cl/0/inv/0/etin", json!("32AABCK1234L1ZV")),
        ("/cdnur/0/pos", json!("00")),
        ("/b2cl/0/inv/0/inum", json!("INV/2026-27-000001")),
    ] {
        let mut wrong = reply.body.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        wrong.pointer_mut(parent).unwrap()[key] = bad;
        assert!(!validator.is_valid(&wrong), "{pointer}");
    }
    let j = &reply.body;
    assert_eq!(j["version"], backoffice::gst_return::rules::TOOL_VERSION);
    let d = m.first.format("%d-%m-%Y").to_string();
    assert_eq!(
        j["b2cl"],
        json!([ { "pos": "29", "inv": [ { "inum": m.large, "idt": d, "val": 177000.44,
            "itms": [ { "num": 1, "itm_det": { "rt": 18, "txval": 150000.37, "iamt": 27000.07, "csamt": 0.0 } } ] } ] } ])
    );
    assert_eq!(j["cdnur"][0]["typ"], "B2CL");
    assert_eq!(j["cdnur"][0]["nt_num"], json!(m.note_large));
    assert_eq!(
        j["cdnur"][0]["itms"][0]["itm_det"],
        json!({ "rt": 18, "txval": 10000.11, "iamt": 1800.02, "csamt": 0.0 })
    );
    assert_eq!(
        j["nil"],
        json!({ "inv": [
            { "sply_ty": "INTRAB2B", "nil_amt": 2000.33, "expt_amt": 0.0, "ngsup_amt": 0.0 },
            { "sply_ty": "INTRB2C", "nil_amt": 700.05, "expt_amt": 0.0, "ngsup_amt": 0.0 },
        ] })
    );
    assert!(j["hsn"].get("data").is_none());
    let hsn_b2c = &j["hsn"]["hsn_b2c"];
    assert_eq!(
        hsn_b2c
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (
                r["hsn_sc"].as_str().unwrap(),
                r["rt"].as_i64().unwrap(),
                r["txval"].as_f64().unwrap()
            ))
            .collect::<Vec<_>>(),
        // 150,000.37 − 10,000.11 + 4,000.19 + 3,000.05 − 500.01 at 18%; the nil-rated 700.05.
        [("998314", 18, 146_500.49), ("999293", 0, 700.05)]
    );
    let det = &j["doc_issue"]["doc_det"];
    assert_eq!(det.as_array().unwrap().len(), 2);
    assert_eq!(
        (
            &det[0]["doc_num"],
            &det[0]["docs"][0]["totnum"],
            &det[0]["docs"][0]["cancel"],
            &det[0]["docs"][0]["net_issue"]
        ),
        (&json!(1), &json!(6), &json!(1), &json!(5))
    );
    assert_eq!(det[1]["doc_num"], 5);
    // The new sheets: the tool's headers, a line per row.
    for (section, header, rows) in [
        (
            "b2cl",
            "Invoice Number,Invoice date,Invoice Value,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN",
            1,
        ),
        (
            "cdnur",
            "UR Type,Note Number,Note Date,Note Type,Place Of Supply,Note Value,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount",
            1,
        ),
        (
            "docs",
            "Nature of Document,Sr. No. From,Sr. No. To,Total Number,Cancelled",
            2,
        ),
        (
            "hsn_b2b",
            "HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount",
            2,
        ),
        (
            "hsn_b2c",
            "HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount",
            2,
        ),
    ] {
        let reply = m
            .app
            .get(
                &format!(
                    "/api/reports/gstr1?period={}&format=csv&section={section}",
                    m.period
                ),
                &m.owner,
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{section}: {}", reply.text);
        let lines: Vec<&str> = reply.text.lines().collect();
        assert_eq!(lines[0], header, "{section}");
        assert_eq!(lines.len(), rows + 1, "{section}: {}", reply.text);
    }
    let b2cl = m
        .app
        .get(
            &format!("/api/reports/gstr1?period={}&format=csv&section=b2cl", m.period),
            &m.owner,
        )
        .await;
    assert_eq!(
        b2cl.text.lines().nth(1).unwrap(),
        format!(
            "{},{},177000.44,29-Karnataka,,18.00,150000.37,0.00,",
            m.large,
            m.first.format("%d-%b-%Y")
        )
    );
}

#[tokio::test]
async fn every_month_of_the_demo_office_validates_against_the_schema() {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    app.state
        .db
        .write_blocking(|tx| {
            let owner: String =
                tx.query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))?;
            let today = office_today(tx)?;
            let options = backoffice::demo::Options {
                clients: 40,
                years: 1,
                seed: 11,
            };
            backoffice::demo::fill(tx, options, &owner, today)?;
            Ok(())
        })
        .unwrap();
    let months: Vec<String> = {
        let conn = app.sql();
        let mut stmt = conn
            .prepare(
                "SELECT DISTINCT substr(doc_date, 1, 7) FROM document
                 WHERE type IN ('INVOICE', 'CREDIT_NOTE') AND status <> 'draft' ORDER BY 1",
            )
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert!(months.len() >= 6, "{months:?}");
    let validator = schema();
    let mut tables = std::collections::BTreeSet::new();
    for period in &months {
        let reply = app
            .get(
                &format!("/api/reports/gstr1?period={period}&format=portal"),
                &owner,
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{period}: {}", reply.text);
        assert_valid(&validator, &reply.body);
        assert_two_decimals(&reply.text);
        tables.extend(reply.body.as_object().unwrap().keys().cloned());
        let summary = app
            .get(&format!("/api/reports/gstr1?period={period}"), &owner)
            .await;
        let s = &summary.body["sections"];
        let codes: Vec<&str> = summary.body["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["code"].as_str().unwrap())
            .collect();
        assert!(!codes.contains(&"series_gap"), "{period}: {codes:?}");
        let hsn = amounts(&s["hsn"]);
        assert_eq!(hsn, amounts(&summary.body["totals"]), "{period}");
        assert_eq!(
            hsn,
            combine(&[(1, amounts(&s["hsn_b2b"])), (1, amounts(&s["hsn_b2c"]))]),
            "{period}"
        );
    }
    // The demo's today carries B2C large invoices, a nil-rated line and a note against one.
    for table in ["b2b", "b2cl", "b2cs", "cdnr", "cdnur", "nil", "hsn", "doc_issue"] {
        assert!(tables.contains(table), "{table} in {tables:?}");
    }
}
