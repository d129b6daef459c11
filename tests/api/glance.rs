//! What the owner and the office see at a glance (issue 20): the module revenue, the client
//! profitability, the owner's cockpit and the home dashboard against a hand calculation on a
//! small office; the monthly figures kept by triggers against what they are derived from; the
//! number continuity; staff within their book, the role gates, and bad ranges refused.

use crate::common::TestApp;
use axum::http::StatusCode;
use backoffice::plumbing::db::settings::office_today;
use chrono::{Datelike, Duration, Months, NaiveDate};
use serde_json::{Value, json};

struct Office {
    app: TestApp,
    owner: String,
    anna: String,
    /// Anna's client.
    chavara: String,
    /// The owner's (no account owner).
    anchal: String,
    dep: String,
    sms: String,
    /// Chavara's ₹1,000 invoice of 70 days ago, due 60 days ago, unpaid. Besides it: Chavara's
    /// invoice of this month (₹10,000 of DEP), credited ₹2,000 of DEP, ₹5,000 paid; Anchal's
    /// invoice of last month (2 × ₹2,500 of SMS and ₹1,000 without a module), paid.
    overdue: String,
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

fn today(app: &TestApp) -> NaiveDate {
    app.state.db.read_blocking(office_today).unwrap()
}

fn month(day: NaiveDate) -> String {
    day.format("%Y-%m").to_string()
}

async fn ok(app: &TestApp, path: &str, cookie: &str) -> Value {
    let reply = app.get(path, cookie).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
    reply.body
}

async fn created(app: &TestApp, path: &str, cookie: &str, body: Value) -> Value {
    let reply = app.post(path, cookie, body).await;
    assert!(reply.status.is_success(), "{path}: {}", reply.text);
    reply.body
}

async fn invoice(app: &TestApp, owner: &str, body: Value) -> String {
    let draft = created(app, "/api/documents", owner, body).await;
    let doc = id(&draft);
    created(app, &format!("/api/documents/{doc}/issue"), owner, json!({})).await;
    doc
}

async fn office() -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let (anna_id, pw) = app.invite(&owner, "anna@coop.in", "staff").await;
    let anna = app.login("anna@coop.in", &pw).await;
    let chavara = id(&created(
        &app,
        "/api/clients",
        &owner,
        json!({ "name": "Chavara SCB", "state_code": "32", "owner_id": anna_id }),
    )
    .await);
    let anchal = id(&created(
        &app,
        "/api/clients",
        &owner,
        json!({ "name": "Anchal SCB", "state_code": "32" }),
    )
    .await);
    let dep = id(&created(
        &app,
        "/api/modules",
        &owner,
        json!({ "code": "DEP", "name": "Deposits", "gst_rate": 18 }),
    )
    .await);
    let sms = id(&created(
        &app,
        "/api/modules",
        &owner,
        json!({ "code": "SMS", "name": "Bulk SMS", "gst_rate": 18 }),
    )
    .await);
    let today = today(&app);
    let first = today.with_day(1).unwrap();
    let last_month_day = first - Months::new(1) + Duration::days(9);
    let this_month = invoice(
        &app,
        &owner,
        json!({ "type": "INVOICE", "client_id": chavara, "doc_date": first.to_string(),
                "dueDate": (today + Duration::days(30)).to_string(),
                "lines": [ { "module_id": dep, "qty": 1, "unit_price": 1_000_000 } ] }),
    )
    .await;
    let last_month = invoice(
        &app,
        &owner,
        json!({ "type": "INVOICE", "client_id": anchal, "doc_date": last_month_day.to_string(),
                "lines": [ { "module_id": sms, "qty": 2, "unit_price": 250_000 },
                           { "description": "Training visit", "qty": 1, "unit_price": 100_000 } ] }),
    )
    .await;
    let overdue = invoice(
        &app,
        &owner,
        json!({ "type": "INVOICE", "client_id": chavara, "doc_date": (today - Duration::days(70)).to_string(),
                "dueDate": (today - Duration::days(60)).to_string(),
                "lines": [ { "description": "Data correction", "qty": 1, "unit_price": 100_000 } ] }),
    )
    .await;
    created(
        &app,
        &format!("/api/documents/{this_month}/credit-note"),
        &owner,
        json!({ "reason": "Discount agreed", "lines": [ { "module_id": dep, "description": "Discount", "qty": 1, "unit_price": 200_000 } ] }),
    )
    .await;
    created(
        &app,
        "/api/payments",
        &owner,
        json!({ "client_id": chavara, "received_on": today.to_string(), "amount": 500_000, "mode": "upi",
                "allocations": [ { "document_id": this_month, "amount": 500_000 } ] }),
    )
    .await;
    created(
        &app,
        "/api/payments",
        &owner,
        json!({ "client_id": anchal, "received_on": (last_month_day + Duration::days(5)).to_string(), "amount": 708_000,
                "mode": "neft_rtgs", "allocations": [ { "document_id": last_month, "amount": 708_000 } ] }),
    )
    .await;
    // Neither a draft nor a cancelled invoice counts.
    created(
        &app,
        "/api/documents",
        &owner,
        json!({ "type": "INVOICE", "client_id": anchal, "lines": [ { "module_id": sms, "qty": 9, "unit_price": 900_000 } ] }),
    )
    .await;
    let cancelled = invoice(
        &app,
        &owner,
        json!({ "type": "INVOICE", "client_id": chavara, "lines": [ { "module_id": dep, "qty": 1, "unit_price": 700_000 } ] }),
    )
    .await;
    created(
        &app,
        &format!("/api/documents/{cancelled}/cancel"),
        &owner,
        json!({ "reason": "Raised twice" }),
    )
    .await;
    let sql = app.sql();
    for (client, on, amount) in [(&chavara, first, 150_000), (&anchal, last_month_day, 1_000_000)] {
        sql.execute(
            "INSERT INTO cloud_cost (client_id, month, amount, source, updated_at) VALUES (?1, ?2, ?3, 'manual', '2026-01-01T00:00:00Z')",
            rusqlite::params![client, month(on), amount],
        )
        .unwrap();
    }
    Office {
        app,
        owner,
        anna,
        chavara,
        anchal,
        dep,
        sms,
        overdue,
    }
}

/// The last month and this one, as a query.
fn two_months(o: &Office) -> String {
    let first = today(&o.app).with_day(1).unwrap();
    format!("from={}&to={}", month(first - Months::new(1)), month(first))
}

#[tokio::test]
async fn module_revenue_is_the_taxable_value_of_module_lines_less_credit_notes_within_the_book() {
    let o = office().await;
    let range = two_months(&o);
    let report = ok(&o.app, &format!("/api/reports/module-revenue?{range}"), &o.owner).await;
    let rows: Vec<(String, Vec<i64>, i64)> = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["code"].as_str().unwrap().to_string(),
                serde_json::from_value(r["months"].clone()).unwrap(),
                r["total"].as_i64().unwrap(),
            )
        })
        .collect();
    // DEP: ₹10,000 less the ₹2,000 credit this month; SMS: 2 × ₹2,500 last month.
    assert_eq!(
        rows,
        vec![
            ("DEP".to_string(), vec![0, 800_000], 800_000),
            ("SMS".to_string(), vec![500_000, 0], 500_000)
        ]
    );
    assert_eq!(report["totals"], json!([500_000, 800_000]));
    assert_eq!(report["total"], 1_300_000);
    assert_eq!(report["rows"][0]["module_id"], o.dep.as_str());
    assert_eq!(report["rows"][1]["module_id"], o.sms.as_str());
    // Anna's book is Chavara: DEP only.
    let hers = ok(&o.app, &format!("/api/reports/module-revenue?{range}"), &o.anna).await;
    assert_eq!(hers["rows"].as_array().unwrap().len(), 1);
    assert_eq!(
        (hers["rows"][0]["code"].as_str(), hers["total"].as_i64()),
        (Some("DEP"), Some(800_000))
    );
    // The CSV in rupees, the total last.
    let csv = o
        .app
        .get(&format!("/api/reports/module-revenue.csv?{range}"), &o.owner)
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines[1], "DEP,Deposits,0.00,8000.00,8000.00");
    assert_eq!(lines[3], ",TOTAL,5000.00,8000.00,13000.00");
}

#[tokio::test]
async fn client_profitability_is_billed_before_gst_less_cloud_cost_within_the_book() {
    let o = office().await;
    let range = two_months(&o);
    let report = ok(
        &o.app,
        &format!("/api/reports/client-profitability?{range}"),
        &o.owner,
    )
    .await;
    let row = |r: &Value| {
        (
            r["client_id"].as_str().unwrap().to_string(),
            [&r["billed"], &r["collected"], &r["cost"], &r["margin"]].map(|v| v.as_i64().unwrap()),
            r["margin_pct"].as_f64(),
        )
    };
    let rows: Vec<_> = report["rows"].as_array().unwrap().iter().map(row).collect();
    // Largest margin first. Chavara: ₹8,000 billed (the credit out, the 70-day-old invoice
    // before the range), ₹5,000 received, ₹1,500 of cloud. Anchal: ₹6,000 billed before GST,
    // ₹7,080 received, ₹10,000 of cloud.
    assert_eq!(
        rows,
        vec![
            (
                o.chavara.clone(),
                [800_000, 500_000, 150_000, 650_000],
                Some(81.3)
            ),
            (
                o.anchal.clone(),
                [600_000, 708_000, 1_000_000, -400_000],
                Some(-66.7)
            ),
        ]
    );
    assert_eq!(report["total"], 2);
    let totals = row(&report["totals"]);
    assert_eq!(
        (totals.1, totals.2),
        ([1_400_000, 1_208_000, 1_150_000, 250_000], Some(17.9))
    );
    // Sorted by cost, and paged.
    let by_cost = ok(
        &o.app,
        &format!("/api/reports/client-profitability?{range}&sort=cost&per_page=1"),
        &o.owner,
    )
    .await;
    assert_eq!(
        (
            by_cost["rows"][0]["client_id"].as_str(),
            by_cost["total"].as_i64()
        ),
        (Some(o.chavara.as_str()), Some(2))
    );
    assert_eq!(by_cost["rows"].as_array().unwrap().len(), 1);
    // A part of a name, any case: that client, and the totals are the list's.
    let named = ok(
        &o.app,
        &format!("/api/reports/client-profitability?{range}&q=CHAV"),
        &o.owner,
    )
    .await;
    assert_eq!(named["total"], 1);
    assert_eq!(named["rows"][0]["client_id"], o.chavara.as_str());
    assert_eq!(named["totals"]["margin"], 650_000);
    // Anna sees Chavara only.
    let hers = ok(
        &o.app,
        &format!("/api/reports/client-profitability?{range}"),
        &o.anna,
    )
    .await;
    let ids: Vec<&str> = hers["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["client_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![o.chavara.as_str()]);
    let csv = o
        .app
        .get(&format!("/api/reports/client-profitability.csv?{range}"), &o.anna)
        .await;
    assert_eq!(
        csv.text.lines().nth(1),
        Some(format!("{},Chavara SCB,8000.00,5000.00,1500.00,6500.00,81.3", o.chavara).as_str())
    );
    assert!(!csv.text.contains("Anchal"));
}

#[tokio::test]
async fn bad_months_and_ranges_are_refused_with_the_field_named() {
    let o = office().await;
    for (query, code, field) in [
        ("from=2026-13", "invalid_month", "from"),
        ("to=2026-1", "invalid_month", "to"),
        ("from=2026-05&to=2026-04", "invalid_range", "to"),
        ("from=2000-01&to=2020-01", "invalid_range", "to"),
        ("fy=2025-27", "invalid_fy", "fy"),
        ("fy=2025-26&from=2025-04", "invalid_range", "fy"),
    ] {
        for report in [
            "module-revenue",
            "client-profitability",
            "module-revenue.csv",
            "client-profitability.csv",
        ] {
            let reply = o
                .app
                .get(&format!("/api/reports/{report}?{query}"), &o.owner)
                .await;
            assert_eq!(
                (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
                (StatusCode::BAD_REQUEST, code, Some(field)),
                "{report}?{query}"
            );
        }
    }
    let reply = o
        .app
        .get("/api/reports/client-profitability?sort=profit", &o.owner)
        .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::BAD_REQUEST, "invalid_sort")
    );
    let reply = o
        .app
        .get("/api/reports/number-continuity?fy=26-27", &o.owner)
        .await;
    assert_eq!(
        (reply.status, reply.code()),
        (StatusCode::BAD_REQUEST, "invalid_fy")
    );
}

#[tokio::test]
async fn the_cockpit_compares_this_month_with_last_and_draws_twelve_months() {
    let o = office().await;
    // Staff may not read it.
    assert_eq!(
        o.app.get("/api/reports/mis", &o.anna).await.status,
        StatusCode::FORBIDDEN
    );
    let mis = ok(&o.app, "/api/reports/mis", &o.owner).await;
    let today = today(&o.app);
    let first = today.with_day(1).unwrap();
    assert_eq!(mis["month"], month(first));
    assert_eq!(mis["last_month"], month(first - Months::new(1)));
    let months = mis["months"].as_array().unwrap();
    assert_eq!(
        (months.len(), months[0].as_str()),
        (12, Some(month(first - Months::new(11))).as_deref())
    );
    // Billed with GST: ₹11,800 less the ₹2,360 credit this month; ₹7,080 last month.
    assert_eq!(
        (
            mis["billed"]["this_month"].as_i64(),
            mis["billed"]["last_month"].as_i64()
        ),
        (Some(944_000), Some(708_000))
    );
    assert_eq!(
        (
            mis["collections"]["this_month"].as_i64(),
            mis["collections"]["last_month"].as_i64()
        ),
        (Some(500_000), Some(708_000))
    );
    let billed: Vec<i64> = serde_json::from_value(mis["billed"]["series"].clone()).unwrap();
    assert_eq!(billed.len(), 12);
    assert_eq!(&billed[10..], &[708_000, 944_000]);
    // Owed now: this month's invoice less its credit and payment, and the overdue one.
    let owed_now = 1_180_000 - 236_000 - 500_000 + 118_000;
    assert_eq!(mis["outstanding"]["total"], owed_now);
    let owed: Vec<i64> = serde_json::from_value(mis["outstanding"]["series"].clone()).unwrap();
    // At the end of last month only the overdue invoice was owed (last month's was paid).
    assert_eq!(&owed[10..], &[118_000, owed_now]);
    assert_eq!(owed[0], 0);
    assert_eq!(
        mis["tickets"],
        json!({ "open": 0, "past_sla": 0, "series": vec![0; 12] })
    );
    assert_eq!(
        mis["pipeline"],
        json!({ "open_value": 0, "open_count": 0, "enquiries": 0,
                "bands": { "green": 0, "amber": 0, "red": 0, "grey": 0 } })
    );
    assert_eq!(mis["reminders"], json!({ "open": 0, "failed": 0 }));
    assert_eq!(mis["renewals"], json!({ "count": 0, "amount": 0, "days": 30 }));
}

#[tokio::test]
async fn the_dashboard_counts_what_needs_each_user_within_their_book() {
    let o = office().await;
    let app = &o.app;
    // A quotation for Anchal (the owner's), a ticket for Chavara (Anna's) opened 30 days ago.
    let quote = id(&created(
        app,
        "/api/documents",
        &o.owner,
        json!({ "type": "QUOTATION", "client_id": o.anchal, "lines": [ { "module_id": o.sms, "qty": 1, "unit_price": 1_000_000 } ] }),
    )
    .await);
    created(app, &format!("/api/documents/{quote}/issue"), &o.owner, json!({})).await;
    created(
        app,
        "/api/clients",
        &o.owner,
        json!({ "name": "Beypore Women's Society", "state_code": "32", "status": "lead" }),
    )
    .await;
    let opened = (today(app) - Duration::days(30)).to_string();
    created(
        app,
        "/api/tickets",
        &o.anna,
        json!({ "client_id": o.chavara, "subject": "Printer not found", "opened_on": opened }),
    )
    .await;
    let all = ok(app, "/api/dashboard", &o.owner).await;
    assert_eq!(all["mine"], false);
    assert_eq!(all["overdue_invoices"], json!({ "count": 1, "amount": 118_000 }));
    assert_eq!(
        (all["quotes"]["count"].as_i64(), all["quotes"]["value"].as_i64()),
        (Some(1), Some(1_180_000))
    );
    let bands = &all["quotes"]["bands"];
    let banded: i64 = ["green", "amber", "red", "grey"]
        .iter()
        .map(|b| bands[b].as_i64().unwrap())
        .sum();
    assert_eq!(banded, 1);
    // The lead is an enquiry: in the pipeline, not a quotation.
    assert_eq!(all["quotes"]["enquiries"], 1);
    assert_eq!(all["tickets"], json!({ "still_open": 1, "past_sla": 1 }));
    assert_eq!(all["reminders"], json!({ "due_today": 0, "overdue": 0 }));
    assert_eq!(all["renewals"], json!({ "count": 0, "amount": 0, "days": 30 }));
    assert_eq!(all["low_sms"]["count"], 0);
    assert_eq!(all["stalled_projects"]["count"], 0);
    // Anna: her client's overdue invoice and ticket, not the owner's quotation.
    let hers = ok(app, "/api/dashboard", &o.anna).await;
    assert_eq!(hers["mine"], true);
    assert_eq!(hers["overdue_invoices"], json!({ "count": 1, "amount": 118_000 }));
    assert_eq!(hers["quotes"]["count"], 0);
    assert_eq!(hers["tickets"], json!({ "still_open": 1, "past_sla": 1 }));
    // The owner's own book holds no client (Anchal has no account owner).
    let mine = ok(app, "/api/dashboard?mine=1", &o.owner).await;
    assert_eq!(mine["mine"], true);
    assert_eq!(
        (
            mine["overdue_invoices"]["count"].as_i64(),
            mine["quotes"]["count"].as_i64()
        ),
        (Some(0), Some(0))
    );
    assert_eq!(
        app.get("/api/dashboard?mine=yes", &o.owner).await.status,
        StatusCode::BAD_REQUEST
    );
}

/// (month, client, billed, taxable, collected, settled) rows of client_month.
type ClientMonths = Vec<(String, String, i64, i64, i64, i64)>;
/// (month, module, client, taxable) rows of module_month.
type ModuleMonths = Vec<(String, String, String, i64)>;

/// client_month and module_month as kept, and as derived from the documents and payments now.
fn kept_and_derived(app: &TestApp) -> [(ClientMonths, ModuleMonths); 2] {
    let sql = app.sql();
    let rows = |q: &str| -> ClientMonths {
        let mut stmt = sql.prepare(q).unwrap();
        stmt.query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    };
    let modules = |q: &str| -> ModuleMonths {
        let mut stmt = sql.prepare(q).unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let kept = rows(
        "SELECT month, client_id, billed, taxable, collected, settled FROM client_month
          WHERE billed <> 0 OR taxable <> 0 OR collected <> 0 OR settled <> 0 ORDER BY 1, 2",
    );
    let derived = rows(
        "SELECT month, client_id, SUM(billed), SUM(taxable), SUM(collected), SUM(settled) FROM (
            SELECT substr(doc_date, 1, 7) AS month, client_id,
                   CASE type WHEN 'INVOICE' THEN total ELSE -total END AS billed,
                   CASE type WHEN 'INVOICE' THEN subtotal ELSE -subtotal END AS taxable, 0 AS collected,
                   CASE type WHEN 'INVOICE' THEN legacy_paid ELSE 0 END AS settled
              FROM document WHERE type IN ('INVOICE', 'CREDIT_NOTE') AND status NOT IN ('draft', 'cancelled')
            UNION ALL
            SELECT substr(received_on, 1, 7), client_id, 0, 0, amount, 0 FROM payment WHERE status = 'recorded'
            UNION ALL
            SELECT substr(MAX(p.received_on, d.doc_date), 1, 7), d.client_id, 0, 0, 0, a.amount + a.tds
              FROM payment_allocation a JOIN payment p ON p.id = a.payment_id JOIN document d ON d.id = a.document_id)
         GROUP BY 1, 2 HAVING SUM(billed) <> 0 OR SUM(taxable) <> 0 OR SUM(collected) <> 0 OR SUM(settled) <> 0 ORDER BY 1, 2",
    );
    let kept_modules = modules(
        "SELECT month, module_id, client_id, taxable FROM module_month WHERE taxable <> 0 ORDER BY 1, 2, 3",
    );
    let derived_modules = modules(
        "SELECT substr(d.doc_date, 1, 7), l.module_id, d.client_id, SUM(CASE d.type WHEN 'INVOICE' THEN l.taxable ELSE -l.taxable END)
           FROM document d JOIN document_line l ON l.document_id = d.id
          WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.status NOT IN ('draft', 'cancelled') AND l.module_id IS NOT NULL
          GROUP BY 1, 2, 3 HAVING SUM(CASE d.type WHEN 'INVOICE' THEN l.taxable ELSE -l.taxable END) <> 0 ORDER BY 1, 2, 3",
    );
    [(kept, kept_modules), (derived, derived_modules)]
}

#[tokio::test]
async fn the_kept_monthly_figures_equal_what_they_are_derived_from_after_every_kind_of_write() {
    let o = office().await;
    let app = &o.app;
    let [kept, derived] = kept_and_derived(app);
    assert_eq!(kept, derived);
    assert_eq!((kept.0.len(), kept.1.len()), (3, 2), "{kept:?}");
    // A payment cancelled, an invoice's date corrected, a payment's day moved: still equal, and
    // the owed figure of the cockpit is still the invoices' kept outstanding.
    let payments = ok(app, "/api/payments", &o.owner).await;
    let first_payment = payments["rows"][0]["id"].as_str().unwrap().to_string();
    let cancel = app
        .post(
            &format!("/api/payments/{first_payment}/cancel"),
            &o.owner,
            json!({ "reason": "Cheque bounced" }),
        )
        .await;
    assert_eq!(cancel.status, StatusCode::OK, "{}", cancel.text);
    let sql = app.sql();
    sql.execute(
        "UPDATE document SET doc_date = date(doc_date, '-40 days') WHERE id = ?1",
        [&o.overdue],
    )
    .unwrap();
    sql.execute(
        "UPDATE payment SET received_on = date(received_on, '+1 day') WHERE status = 'recorded'",
        [],
    )
    .unwrap();
    let [kept, derived] = kept_and_derived(app);
    assert_eq!(kept, derived);
    let owed_kept: i64 = sql
        .query_row("SELECT SUM(billed - settled) FROM client_month", [], |r| r.get(0))
        .unwrap();
    let outstanding: i64 = sql
        .query_row(
            "SELECT SUM(outstanding) FROM document WHERE type = 'INVOICE' AND status NOT IN ('draft', 'cancelled')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(owed_kept, outstanding);
    let mis = ok(app, "/api/reports/mis", &o.owner).await;
    assert_eq!(mis["outstanding"]["total"], outstanding);
    assert_eq!(mis["outstanding"]["series"][11], outstanding);
}

#[tokio::test]
async fn number_continuity_shows_each_series_unbroken_and_finds_a_gap() {
    let o = office().await;
    let app = &o.app;
    assert_eq!(
        app.get("/api/reports/number-continuity", &o.anna).await.status,
        StatusCode::FORBIDDEN
    );
    let fy_of = |day: NaiveDate| {
        let start = if day.month() >= 4 {
            day.year()
        } else {
            day.year() - 1
        };
        (
            format!("{start}-{:02}", (start + 1) % 100),
            format!("{:02}-{:02}", start % 100, (start + 1) % 100),
        )
    };
    let (fy, short) = fy_of(today(app));
    let report = ok(app, &format!("/api/reports/number-continuity?fy={fy}"), &o.owner).await;
    let rows = report["rows"].as_array().unwrap();
    let invoices = rows
        .iter()
        .find(|r| r["prefix"] == "INV")
        .expect("the invoice series");
    assert_eq!(invoices["fy"], short.as_str());
    assert_eq!(invoices["unbroken"], true);
    assert_eq!(invoices["gaps"], json!([]));
    assert_eq!(invoices["first"], format!("INV/{short}-0001"));
    assert!(rows.iter().all(|r| r["fy"] == short.as_str()));
    // A number rewritten by hand leaves a gap and a duplicate the report names.
    let count = invoices["count"].as_i64().unwrap();
    assert!(count >= 2, "{invoices}");
    let sql = app.sql();
    sql.execute(
        "UPDATE document SET doc_no = ?1 WHERE doc_no = ?2",
        rusqlite::params![
            format!("INV/{short}-{:04}", count + 2),
            format!("INV/{short}-0002")
        ],
    )
    .unwrap();
    let report = ok(app, &format!("/api/reports/number-continuity?fy={fy}"), &o.owner).await;
    let invoices = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["prefix"] == "INV")
        .unwrap()
        .clone();
    assert_eq!(invoices["unbroken"], false);
    let gap = |seq: i64| {
        let number = format!("INV/{short}-{seq:04}");
        json!({ "from": number, "to": number, "count": 1, "explained_by_import": null })
    };
    assert_eq!(invoices["gaps"], json!([gap(2), gap(count + 1)]));
    assert_eq!(invoices["gap_count"], 2);
    let csv = app
        .get(&format!("/api/reports/number-continuity.csv?fy={fy}"), &o.owner)
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    let lines: Vec<&str> = csv.text.lines().filter(|l| l.starts_with("INV,")).collect();
    let series = format!(
        "INV,{short},INV/{short}-0001,INV/{short}-{last:04},{count},2",
        last = count + 2
    );
    assert_eq!(
        lines,
        [
            format!("{series},INV/{short}-0002,INV/{short}-0002,1,,,no"),
            format!(
                "{series},INV/{short}-{gap:04},INV/{short}-{gap:04},1,,,no",
                gap = count + 1
            ),
        ]
    );
    assert_eq!(
        app.get("/api/reports/number-continuity.csv", &o.anna)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(invoices["last"], format!("INV/{short}-{:04}", count + 2));
}
