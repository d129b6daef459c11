//! TDS certificates tracked to the receipt (issue 21): the TDS booked on partial payments of one
//! invoice across a quarter boundary lands in two quarters; a Form 16A of another amount is a
//! mismatch, a matching one received, a revision replaces it (200, the audit before and after);
//! a certificate without TDS booked is a row of its own; bad years, quarters and states are
//! refused with the error body; staff are refused; a refused certificate writes nothing; the
//! daily scan raises one reminder per client and quarter once the statutory date has passed,
//! its letter names the quarter and the amounts; the CSV; the TAN and section of a client; the
//! default section setting.

use crate::common::{Call, Reply, TestApp};
use axum::http::{Method, StatusCode};
use backoffice::plumbing::db::settings::office_today;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::{Value, json};

/// A quarter as the test names it, worked out here independently of the library.
#[derive(Clone, Copy, Debug)]
struct Qtr {
    /// The year the financial year starts in.
    fy: i32,
    /// 1 to 4.
    n: u32,
}

impl Qtr {
    fn of(day: NaiveDate) -> Qtr {
        let (fy, n) = match day.month() {
            4..=6 => (day.year(), 1),
            7..=9 => (day.year(), 2),
            10..=12 => (day.year(), 3),
            _ => (day.year() - 1, 4),
        };
        Qtr { fy, n }
    }
    fn fy(self) -> String {
        format!("{}-{:02}", self.fy, (self.fy + 1) % 100)
    }
    fn name(self) -> String {
        format!("Q{}", self.n)
    }
    fn first(self) -> NaiveDate {
        let (y, m) = match self.n {
            1 => (self.fy, 4),
            2 => (self.fy, 7),
            3 => (self.fy, 10),
            _ => (self.fy + 1, 1),
        };
        NaiveDate::from_ymd_opt(y, m, 1).unwrap()
    }
    fn last(self) -> NaiveDate {
        let next_first = match self.n {
            4 => NaiveDate::from_ymd_opt(self.fy + 1, 4, 1).unwrap(),
            _ => Qtr {
                fy: self.fy,
                n: self.n + 1,
            }
            .first(),
        };
        next_first - Duration::days(1)
    }
    /// Rule 31(3): 15 Aug, 15 Nov, 15 Feb, 15 Jun.
    fn certificate_due(self) -> NaiveDate {
        match self.n {
            1 => NaiveDate::from_ymd_opt(self.fy, 8, 15),
            2 => NaiveDate::from_ymd_opt(self.fy, 11, 15),
            3 => NaiveDate::from_ymd_opt(self.fy + 1, 2, 15),
            _ => NaiveDate::from_ymd_opt(self.fy + 1, 6, 15),
        }
        .unwrap()
    }
    fn query(self) -> String {
        format!("fy={}&quarter={}", self.fy(), self.name())
    }
}

struct Office {
    app: TestApp,
    owner: String,
    manager: String,
    staff: String,
    staff_id: String,
    /// Chavara: TDS ₹600 booked in `before`, ₹400 in `after` on one invoice paid in two parts
    /// (and ₹70 on a payment cancelled since, which counts nowhere); TAN TVDC01234F, 194C.
    chavara: String,
    /// Anchal: nothing booked.
    anchal: String,
    /// The quarter that ended just before this one began, and this one.
    before: Qtr,
    after: Qtr,
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

async fn created(app: &TestApp, path: &str, cookie: &str, body: Value) -> Value {
    let reply = app.post(path, cookie, body).await;
    assert!(reply.status.is_success(), "{path}: {}", reply.text);
    reply.body
}

async fn ok(app: &TestApp, path: &str, cookie: &str) -> Value {
    let reply = app.get(path, cookie).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
    reply.body
}

async fn invoice(app: &TestApp, owner: &str, client: &str, on: NaiveDate, price: i64) -> String {
    let draft = created(
        app,
        "/api/documents",
        owner,
        json!({ "type": "INVOICE", "client_id": client, "doc_date": on.to_string(),
                "lines": [ { "description": "Annual maintenance", "qty": 1, "unit_price": price } ] }),
    )
    .await;
    let doc = id(&draft);
    created(app, &format!("/api/documents/{doc}/issue"), owner, json!({})).await;
    doc
}

async fn pay(
    app: &TestApp,
    owner: &str,
    client: &str,
    on: NaiveDate,
    doc: &str,
    amount: i64,
    tds: i64,
) -> String {
    id(&created(
        app,
        "/api/payments",
        owner,
        json!({ "client_id": client, "received_on": on.to_string(), "amount": amount, "mode": "neft_rtgs",
                "allocations": [ { "document_id": doc, "amount": amount, "tds": tds } ] }),
    )
    .await)
}

async fn office() -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let (staff_id, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    let chavara = id(&created(
        &app,
        "/api/clients",
        &owner,
        json!({ "name": "Chavara SCB", "state_code": "32", "owner_id": staff_id, "email": "secretary@chavara.coop",
                "tan": " tvdc01234f ", "tds_section": "194C" }),
    )
    .await);
    let anchal = id(&created(
        &app,
        "/api/clients",
        &owner,
        json!({ "name": "Anchal SCB", "state_code": "32" }),
    )
    .await);
    let today = app.state.db.read_blocking(office_today).unwrap();
    let after = Qtr::of(today);
    let before = Qtr::of(after.first() - Duration::days(1));
    // ₹10,000 + 18% GST = ₹11,800, TDS at 10% of ₹10,000: ₹600 with the first part (the last day
    // of the quarter before), ₹400 with the rest (the first day of this one).
    let doc = invoice(
        &app,
        &owner,
        &chavara,
        before.last() - Duration::days(10),
        1_000_000,
    )
    .await;
    pay(&app, &owner, &chavara, before.last(), &doc, 500_000, 60_000).await;
    pay(&app, &owner, &chavara, after.first(), &doc, 580_000, 40_000).await;
    // A payment cancelled since books nothing.
    let other = invoice(&app, &owner, &chavara, before.last() - Duration::days(5), 100_000).await;
    let cancelled = pay(&app, &owner, &chavara, after.first(), &other, 50_000, 7_000).await;
    created(
        &app,
        &format!("/api/payments/{cancelled}/cancel"),
        &owner,
        json!({ "reason": "Entered twice" }),
    )
    .await;
    Office {
        app,
        owner,
        manager,
        staff,
        staff_id,
        chavara,
        anchal,
        before,
        after,
    }
}

impl Office {
    async fn certify(&self, cookie: &str, body: Value) -> Reply {
        self.app.post("/api/tds-certificates", cookie, body).await
    }

    async fn report(&self, query: &str) -> Value {
        ok(
            &self.app,
            &format!("/api/reports/tds-receivable?{query}"),
            &self.manager,
        )
        .await
    }

    fn certificates(&self) -> i64 {
        self.app.count("SELECT COUNT(*) FROM tds_certificate")
    }

    fn audits(&self) -> i64 {
        self.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'tds_certificate'")
    }
}

/// (client_name, quarter, booked, certified, state) of each row.
fn rows(report: &Value) -> Vec<(String, String, i64, Option<i64>, String)> {
    report["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("{report}"))
        .iter()
        .map(|r| {
            (
                r["client_name"].as_str().unwrap().to_string(),
                r["quarter"].as_str().unwrap().to_string(),
                r["booked"].as_i64().unwrap(),
                r["certified"].as_i64(),
                r["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn row(
    name: &str,
    q: Qtr,
    booked: i64,
    certified: Option<i64>,
    state: &str,
) -> (String, String, i64, Option<i64>, String) {
    (name.into(), q.name(), booked, certified, state.into())
}

#[tokio::test]
async fn tds_on_partial_payments_lands_in_the_quarter_each_part_was_received() {
    let o = office().await;
    let before = o.report(&o.before.query()).await;
    assert_eq!(
        rows(&before),
        [row("Chavara SCB", o.before, 60_000, None, "awaited")]
    );
    let r = &before["rows"][0];
    assert_eq!(
        r,
        &json!({
            "client_id": o.chavara, "client_name": "Chavara SCB", "tan": "TVDC01234F", "section": "194C",
            "fy": o.before.fy(), "quarter": o.before.name(), "booked": 60_000, "certified": null, "filed": null,
            "state": "awaited", "certificate_id": null, "certificate_no": null, "issued_on": null,
            "due_on": o.before.certificate_due().to_string()
        })
    );
    assert_eq!(
        (&before["fy"], &before["quarter"], &before["total"]),
        (&json!(o.before.fy()), &json!(o.before.name()), &json!(1))
    );
    assert_eq!(
        (&before["counts"], &before["totals"]),
        (
            &json!({ "awaited": 1, "received": 0, "mismatch": 0, "short_filed": 0, "not_filed": 0 }),
            &json!({ "booked": 60_000, "certified": 0, "filed": 0 })
        )
    );
    let after = o.report(&o.after.query()).await;
    assert_eq!(
        rows(&after),
        [row("Chavara SCB", o.after, 40_000, None, "awaited")]
    );
    assert_eq!(after["rows"][0]["due_on"], o.after.certificate_due().to_string());
    // The whole year: both quarters when they are of one year (not when this one is Q1).
    if o.before.fy == o.after.fy {
        let year = o.report(&format!("fy={}", o.after.fy())).await;
        assert_eq!(
            rows(&year),
            [
                row("Chavara SCB", o.before, 60_000, None, "awaited"),
                row("Chavara SCB", o.after, 40_000, None, "awaited")
            ]
        );
        assert_eq!(year["quarter"], Value::Null);
        assert_eq!(
            year["totals"],
            json!({ "booked": 100_000, "certified": 0, "filed": 0 })
        );
    }
    // Without fy: the office's current year.
    let current = o.report("").await;
    assert_eq!(current["fy"], o.after.fy());
    // Anchal's book is empty: no row.
    assert!(!current.to_string().contains("Anchal"));
}

#[tokio::test]
async fn a_certificate_is_a_mismatch_until_it_matches_and_a_revision_replaces_it() {
    let o = office().await;
    let q = o.before;
    let body = |no: &str, amount: i64| {
        json!({ "client_id": o.chavara, "fy": q.fy(), "quarter": q.name(), "certificate_no": no,
                "issued_on": q.last().to_string(), "amount": amount })
    };
    let first = o.certify(&o.manager, body("QWERTYU", 59_000)).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    let cert_id = first.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        (
            &first.body["client_name"],
            &first.body["fy"],
            &first.body["quarter"],
            &first.body["certificate_no"],
            &first.body["amount"],
            &first.body["booked"],
            &first.body["state"],
            &first.body["due_on"]
        ),
        (
            &json!("Chavara SCB"),
            &json!(q.fy()),
            &json!(q.name()),
            &json!("QWERTYU"),
            &json!(59_000),
            &json!(60_000),
            &json!("mismatch"),
            &json!(q.certificate_due().to_string())
        )
    );
    let report = o.report(&q.query()).await;
    assert_eq!(
        rows(&report),
        [row("Chavara SCB", q, 60_000, Some(59_000), "mismatch")]
    );
    assert_eq!(report["rows"][0]["certificate_no"], "QWERTYU");
    assert_eq!(report["rows"][0]["issued_on"], q.last().to_string());
    assert_eq!(
        report["counts"],
        json!({ "awaited": 0, "received": 0, "mismatch": 1, "short_filed": 0, "not_filed": 0 })
    );

    // The revised Form 16A: the same row, 200, the audit holds before and after.
    let revised = o.certify(&o.manager, body("QWERTYV", 60_000)).await;
    assert_eq!(revised.status, StatusCode::OK, "{}", revised.text);
    assert_eq!(
        (
            &revised.body["id"],
            &revised.body["state"],
            &revised.body["certificate_no"]
        ),
        (&json!(cert_id), &json!("received"), &json!("QWERTYV"))
    );
    assert_eq!(o.certificates(), 1);
    let (action, before, after): (String, String, String) = o
        .app
        .sql()
        .query_row(
            "SELECT action, before, after FROM audit WHERE entity = 'tds_certificate' AND entity_id = ?1 ORDER BY id DESC LIMIT 1",
            [&cert_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    let (before, after): (Value, Value) = (
        serde_json::from_str(&before).unwrap(),
        serde_json::from_str(&after).unwrap(),
    );
    assert_eq!(action, "update");
    assert_eq!(
        (
            &before["amount"],
            &before["certificate_no"],
            &after["amount"],
            &after["certificate_no"]
        ),
        (
            &json!(59_000),
            &json!("QWERTYU"),
            &json!(60_000),
            &json!("QWERTYV")
        )
    );
    assert_eq!(after["client_name"], "Chavara SCB");
    assert_eq!(o.audits(), 2);
    let report = o.report(&q.query()).await;
    assert_eq!(
        rows(&report),
        [row("Chavara SCB", q, 60_000, Some(60_000), "received")]
    );

    // A certificate of a quarter with nothing booked is a row too: a mismatch.
    let anchal = o
        .certify(
            &o.owner,
            json!({ "client_id": o.anchal, "fy": q.fy(), "quarter": q.name(), "certificate_no": "ANC0001",
                    "issued_on": q.last().to_string(), "amount": 10_000 }),
        )
        .await;
    assert_eq!(
        (
            anchal.status,
            anchal.body["state"].as_str(),
            anchal.body["booked"].as_i64()
        ),
        (StatusCode::CREATED, Some("mismatch"), Some(0))
    );
    let report = o.report(&q.query()).await;
    assert_eq!(
        rows(&report),
        [
            row("Anchal SCB", q, 0, Some(10_000), "mismatch"),
            row("Chavara SCB", q, 60_000, Some(60_000), "received")
        ]
    );
    assert_eq!(report["rows"][0]["section"], "194J", "the office's default");
    assert_eq!(
        report["counts"],
        json!({ "awaited": 0, "received": 1, "mismatch": 1, "short_filed": 0, "not_filed": 0 })
    );
    assert_eq!(
        report["totals"],
        json!({ "booked": 60_000, "certified": 70_000, "filed": 0 })
    );

    // Filters: the state chip (counts stay those of the other filters), the client's name; sorts.
    let mismatched = o.report(&format!("{}&state=mismatch", q.query())).await;
    assert_eq!(
        rows(&mismatched),
        [row("Anchal SCB", q, 0, Some(10_000), "mismatch")]
    );
    assert_eq!(
        (&mismatched["total"], &mismatched["counts"], &mismatched["totals"]),
        (
            &json!(1),
            &json!({ "awaited": 0, "received": 1, "mismatch": 1, "short_filed": 0, "not_filed": 0 }),
            &json!({ "booked": 0, "certified": 10_000, "filed": 0 })
        )
    );
    let named = o.report(&format!("{}&q=CHAV", q.query())).await;
    assert_eq!(
        rows(&named),
        [row("Chavara SCB", q, 60_000, Some(60_000), "received")]
    );
    assert_eq!(
        named["counts"],
        json!({ "awaited": 0, "received": 1, "mismatch": 0, "short_filed": 0, "not_filed": 0 })
    );
    let by_booked = o.report(&format!("{}&sort=-booked", q.query())).await;
    assert_eq!(by_booked["rows"][0]["client_name"], "Chavara SCB");
    let paged = o.report(&format!("{}&per_page=1&page=2", q.query())).await;
    assert_eq!(
        (rows(&paged), &paged["total"], &paged["page"]),
        (
            vec![row("Chavara SCB", q, 60_000, Some(60_000), "received")],
            &json!(2),
            &json!(2)
        )
    );

    // The CSV twin: rupees with two decimals, the totals last.
    let csv = o
        .app
        .get(
            &format!("/api/reports/tds-receivable.csv?{}", q.query()),
            &o.manager,
        )
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    let due = q.certificate_due();
    let last = q.last();
    let (fy, name) = (q.fy(), q.name());
    assert_eq!(
        csv.text,
        format!(
            "Client,TAN,Section,Financial year,Quarter,Booked,Certified,Filed,State,Certificate no,Issued on,Due on\r\n\
             Anchal SCB,,194J,{fy},{name},0.00,100.00,,mismatch,ANC0001,{last},{due}\r\n\
             Chavara SCB,TVDC01234F,194C,{fy},{name},600.00,600.00,,received,QWERTYV,{last},{due}\r\n\
             TOTAL,,,{fy},{name},600.00,700.00,0.00,,,,\r\n"
        )
    );
    assert_eq!(
        csv.headers["content-disposition"].to_str().unwrap(),
        format!("attachment; filename=\"tds-receivable-{fy}-{name}.csv\"")
    );
    let filtered = o
        .app
        .get(
            &format!("/api/reports/tds-receivable.csv?{}&state=received", q.query()),
            &o.manager,
        )
        .await;
    assert_eq!(filtered.text.lines().count(), 3, "{}", filtered.text);
}

#[tokio::test]
async fn bad_years_quarters_states_and_sorts_are_refused_and_staff_are_not_let_in() {
    let o = office().await;
    let cases = [
        ("fy=2025-27", "invalid_fy", "fy"),
        ("fy=2025", "invalid_fy", "fy"),
        ("fy=x", "invalid_fy", "fy"),
        ("quarter=Q5", "invalid_quarter", "quarter"),
        ("fy=2025-26&quarter=first", "invalid_quarter", "quarter"),
        ("state=lost", "invalid_state", "state"),
        ("sort=tan", "invalid_sort", "sort"),
    ];
    for path in ["/api/reports/tds-receivable", "/api/reports/tds-receivable.csv"] {
        for (query, code, field) in cases {
            let reply = o.app.get(&format!("{path}?{query}"), &o.manager).await;
            assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{path}?{query}");
            assert_eq!(
                (
                    reply.body["error"]["code"].as_str(),
                    reply.body["error"]["field"].as_str()
                ),
                (Some(code), Some(field)),
                "{path}?{query}: {}",
                reply.text
            );
            assert!(
                reply.body["error"]["message"]
                    .as_str()
                    .is_some_and(|m| !m.is_empty())
            );
        }
    }
    let fy = o.app.get("/api/reports/tds-receivable?fy=2025", &o.owner).await;
    assert_eq!(
        fy.body,
        json!({ "error": { "code": "invalid_fy", "message": "fy is a financial year as YYYY-YY, e.g. 2025-26.", "field": "fy" } })
    );
    let quarter = o
        .app
        .get("/api/reports/tds-receivable?quarter=Q0", &o.owner)
        .await;
    assert_eq!(
        quarter.body,
        json!({ "error": { "code": "invalid_quarter", "message": "quarter is Q1, Q2, Q3 or Q4.", "field": "quarter" } })
    );

    // Staff: 403 on the report, its CSV and the certificate; nothing written.
    for path in ["/api/reports/tds-receivable", "/api/reports/tds-receivable.csv"] {
        let reply = o.app.get(path, &o.staff).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::FORBIDDEN, "forbidden"),
            "{path}"
        );
    }
    let q = o.before;
    let refused = o
        .certify(
            &o.staff,
            json!({ "client_id": o.chavara, "fy": q.fy(), "quarter": q.name(), "certificate_no": "QWERTYU",
                    "issued_on": q.last().to_string(), "amount": 60_000 }),
        )
        .await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::FORBIDDEN, "forbidden")
    );
    assert_eq!((o.certificates(), o.audits()), (0, 0));
    // Anonymous: 401.
    let anonymous = o
        .app
        .send(Call::new(Method::GET, "/api/reports/tds-receivable"))
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

/// Every field a 422 names, with its code.
fn named(reply: &Reply) -> Vec<(String, String)> {
    match reply.body["errors"].as_array() {
        Some(all) => all
            .iter()
            .map(|e| {
                (
                    e["field"].as_str().unwrap().to_string(),
                    e["code"].as_str().unwrap().to_string(),
                )
            })
            .collect(),
        None => vec![(
            reply.body["error"]["field"].as_str().unwrap_or("").to_string(),
            reply.code().to_string(),
        )],
    }
}

#[tokio::test]
async fn a_refused_certificate_names_every_wrong_field_and_writes_nothing() {
    let o = office().await;
    let q = o.before;
    let today = o.app.state.db.read_blocking(office_today).unwrap();
    let all_wrong = o
        .certify(
            &o.manager,
            json!({ "client_id": "01JB0000000000000000000000", "fy": "2025", "quarter": "Q9", "certificate_no": "  ",
                    "issued_on": (today + Duration::days(1)).to_string(), "amount": 12.5 }),
        )
        .await;
    assert_eq!(
        all_wrong.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        all_wrong.text
    );
    assert_eq!(
        named(&all_wrong),
        [
            ("client_id", "unknown_client"),
            ("fy", "invalid_fy"),
            ("quarter", "invalid_quarter"),
            ("certificate_no", "required"),
            ("issued_on", "in_the_future"),
            ("amount", "invalid_amount"),
        ]
        .map(|(f, c)| (f.to_string(), c.to_string()))
    );
    assert_eq!(all_wrong.body["error"]["field"], "client_id");
    let good = json!({ "client_id": o.chavara, "fy": q.fy(), "quarter": q.name(), "certificate_no": "QWERTYU",
                       "issued_on": q.last().to_string(), "amount": 60_000 });
    let with = |key: &str, value: Value| {
        let mut body = good.clone();
        body[key] = value;
        body
    };
    let cases = [
        (
            with("issued_on", json!((q.last() - Duration::days(1)).to_string())),
            "issued_on",
            "before_quarter_end",
        ),
        (
            with("issued_on", json!("31-12-2026")),
            "issued_on",
            "invalid_date",
        ),
        (
            with("certificate_no", json!("X".repeat(21))),
            "certificate_no",
            "too_long",
        ),
        (with("amount", json!(0)), "amount", "invalid_amount"),
        (with("amount", json!(-100)), "amount", "invalid_amount"),
        (with("amount", json!("60000")), "amount", "invalid_amount"),
        (with("client_id", json!(7)), "client_id", "invalid_value"),
        (with("fy", Value::Null), "fy", "required"),
    ];
    for (body, field, code) in cases {
        let reply = o.certify(&o.manager, body.clone()).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(named(&reply), [(field.to_string(), code.to_string())], "{body}");
    }
    let unknown_key = o.certify(&o.manager, with("note", json!("x"))).await;
    assert_eq!(unknown_key.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        (o.certificates(), o.audits()),
        (0, 0),
        "a refused request writes nothing"
    );
    // The same body, right: recorded.
    assert_eq!(o.certify(&o.manager, good).await.status, StatusCode::CREATED);
    assert_eq!((o.certificates(), o.audits()), (1, 1));
}

async fn scan(o: &Office, as_of: NaiveDate) -> Value {
    let reply = o
        .app
        .post(
            "/api/jobs/daily-scan",
            &o.owner,
            json!({ "as_of": as_of.to_string() }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

#[tokio::test]
async fn the_daily_scan_asks_for_a_certificate_once_its_day_has_passed() {
    let o = office().await;
    // The quarter before has its certificate; this quarter's is awaited.
    let q = o.before;
    let recorded = o
        .certify(
            &o.manager,
            json!({ "client_id": o.chavara, "fy": q.fy(), "quarter": q.name(), "certificate_no": "QWERTYU",
                    "issued_on": q.last().to_string(), "amount": 60_000 }),
        )
        .await;
    assert_eq!(recorded.status, StatusCode::CREATED);
    let due = o.after.certificate_due();
    let tds_raised = |v: &Value| v["created"]["tds_certificate_due"].as_i64().unwrap();
    assert_eq!(tds_raised(&scan(&o, due - Duration::days(1)).await), 0);
    assert_eq!(tds_raised(&scan(&o, due).await), 0, "not on the day itself");
    assert_eq!(tds_raised(&scan(&o, due + Duration::days(1)).await), 1);
    assert_eq!(
        tds_raised(&scan(&o, due + Duration::days(1)).await),
        0,
        "not twice"
    );
    assert_eq!(
        tds_raised(&scan(&o, due + Duration::days(40)).await),
        0,
        "not again later"
    );
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM reminder WHERE rule_kind = 'tds_certificate_due'"),
        1
    );

    // In the queue, filtered by its kind, owned by the client's account owner.
    let listed = ok(&o.app, "/api/reminders?rule_kind=tds_certificate_due", &o.manager).await;
    assert_eq!(listed["total"], 1, "{listed}");
    let r = &listed["rows"][0];
    let due_text = due.format("%-d %b %Y").to_string();
    assert_eq!(
        (
            &r["client_id"],
            &r["owner_id"],
            &r["due_on"],
            &r["status"],
            &r["reason"]
        ),
        (
            &json!(o.chavara),
            &json!(o.staff_id),
            &json!(due.to_string()),
            &json!("open"),
            &json!(format!(
                "Form 16A for {} {} (₹400.00 TDS booked) was due from the society on {due_text}.",
                o.after.name(),
                o.after.fy()
            ))
        )
    );
    let key: String = o
        .app
        .sql()
        .query_row(
            "SELECT idempotency_key FROM reminder WHERE rule_kind = 'tds_certificate_due'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        key,
        format!(
            "tds_certificate_due:{}:{}:{}",
            o.chavara,
            o.after.fy(),
            o.after.name()
        )
    );
    // The account owner (staff) sees it in their share.
    let mine = ok(&o.app, "/api/reminders?rule_kind=tds_certificate_due", &o.staff).await;
    assert_eq!(mine["total"], 1);

    // The preview: a polite letter to the society asking for the Form 16A.
    let rid = r["id"].as_str().unwrap();
    let preview = ok(&o.app, &format!("/api/reminders/{rid}/preview"), &o.manager).await;
    assert_eq!(preview["to"], "secretary@chavara.coop");
    assert_eq!(
        preview["subject"],
        format!(
            "Form 16A for {} {}: TDS certificate awaited",
            o.after.name(),
            o.after.fy()
        )
    );
    let text = preview["text"].as_str().unwrap();
    for part in [
        "Dear Sir/Madam,".to_string(),
        format!("In {} of the financial year {}", o.after.name(), o.after.fy()),
        "your society (deductor TAN TVDC01234F) deducted ₹400.00 as TDS under section 194C".into(),
        format!("was due from you on {due_text}"),
    ] {
        assert!(text.contains(&part), "{part} in {text}");
    }
    assert!(preview["html"].as_str().unwrap().contains("₹400.00"));
    assert_eq!(preview["attachments"], json!([]));

    // Dismissed or not, the quarter is not raised again.
    let dismissed = o
        .app
        .post(&format!("/api/reminders/{rid}/dismiss"), &o.manager, json!({}))
        .await;
    assert_eq!(dismissed.status, StatusCode::OK, "{}", dismissed.text);
    assert_eq!(tds_raised(&scan(&o, due + Duration::days(2)).await), 0);
}

#[tokio::test]
async fn a_first_scan_on_an_old_office_raises_only_the_last_year() {
    let o = office().await;
    // Scanned two years later: both quarters' days are more than 365 days back.
    let far = o.after.certificate_due() + Duration::days(400);
    assert_eq!(scan(&o, far).await["created"]["tds_certificate_due"], 0);
    // A year after the quarter before's day: only this quarter's (the later day) is raised.
    let one_year = o.before.certificate_due() + Duration::days(366);
    let expected = if o.after.certificate_due() + Duration::days(365) >= one_year {
        1
    } else {
        0
    };
    assert_eq!(
        scan(&o, one_year).await["created"]["tds_certificate_due"],
        expected
    );
}

#[tokio::test]
async fn a_clients_tan_and_section_are_checked_on_create_and_update() {
    let o = office().await;
    let chavara = ok(&o.app, &format!("/api/clients/{}", o.chavara), &o.manager).await;
    assert_eq!(
        (&chavara["tan"], &chavara["tds_section"]),
        (&json!("TVDC01234F"), &json!("194C"))
    );
    let clients_before = o.app.count("SELECT COUNT(*) FROM client");
    for (tan, code) in [
        ("TVD01234F", "invalid_tan"),
        ("TVDC0123F4", "invalid_tan"),
        ("12345ABCDE", "invalid_tan"),
    ] {
        let reply = o
            .app
            .post(
                "/api/clients",
                &o.owner,
                json!({ "name": "Kadakkal SCB", "tan": tan }),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{tan}");
        assert_eq!(
            (reply.code(), reply.body["error"]["field"].as_str()),
            (code, Some("tan")),
            "{tan}"
        );
    }
    let reply = o
        .app
        .post(
            "/api/clients",
            &o.owner,
            json!({ "name": "Kadakkal SCB", "tds_section": "194I" }),
        )
        .await;
    assert_eq!(
        (reply.status, reply.code(), reply.body["error"]["field"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_tds_section",
            Some("tds_section")
        )
    );
    assert_eq!(o.app.count("SELECT COUNT(*) FROM client"), clients_before);

    let path = format!("/api/clients/{}", o.anchal);
    let both = o
        .app
        .patch(
            &path,
            &o.manager,
            json!({ "tan": "ABCD1234", "tds_section": "195" }),
        )
        .await;
    assert_eq!(both.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        named(&both),
        [("tan", "invalid_tan"), ("tds_section", "invalid_tds_section")]
            .map(|(f, c)| (f.to_string(), c.to_string()))
    );
    let set = o
        .app
        .patch(
            &path,
            &o.manager,
            json!({ "tan": "klmA00012b", "tds_section": "194c" }),
        )
        .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text);
    assert_eq!(
        (&set.body["tan"], &set.body["tds_section"]),
        (&json!("KLMA00012B"), &json!("194C"))
    );
    let cleared = o
        .app
        .patch(&path, &o.manager, json!({ "tan": "", "tds_section": " " }))
        .await;
    assert_eq!(
        (&cleared.body["tan"], &cleared.body["tds_section"]),
        (&Value::Null, &Value::Null)
    );
}

#[tokio::test]
async fn the_default_section_is_the_owners_setting_audited() {
    let o = office().await;
    let path = "/api/settings/tds";
    assert_eq!(
        ok(&o.app, path, &o.owner).await,
        json!({ "default_section": "194J", "effective_from": null })
    );
    for cookie in [&o.manager, &o.staff] {
        assert_eq!(o.app.get(path, cookie).await.status, StatusCode::FORBIDDEN);
        let put = o
            .app
            .send(
                Call::new(Method::PUT, path)
                    .cookie(cookie)
                    .json(json!({ "default_section": "194C" })),
            )
            .await;
        assert_eq!(put.status, StatusCode::FORBIDDEN);
    }
    let bad = o
        .app
        .send(
            Call::new(Method::PUT, path)
                .cookie(&o.owner)
                .json(json!({ "default_section": "194X" })),
        )
        .await;
    assert_eq!(
        (bad.status, bad.code(), bad.body["error"]["field"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_tds_section",
            Some("default_section")
        )
    );
    let saved = o
        .app
        .send(
            Call::new(Method::PUT, path)
                .cookie(&o.owner)
                .json(json!({ "default_section": "194c" })),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let today = o.app.state.db.read_blocking(office_today).unwrap();
    assert_eq!(
        saved.body,
        json!({ "default_section": "194C", "effective_from": today.to_string() })
    );
    assert_eq!(
        o.app.count(
            "SELECT COUNT(*) FROM audit WHERE entity = 'setting' AND entity_id = 'tds.default_section'
                AND json_extract(before, '$') = '194J' AND json_extract(after, '$') = '194C'"
        ),
        1
    );
    // A client without a section of its own now reads 194C.
    let q = o.before;
    o.certify(
        &o.manager,
        json!({ "client_id": o.anchal, "fy": q.fy(), "quarter": q.name(), "certificate_no": "ANC0001",
                "issued_on": q.last().to_string(), "amount": 10_000 }),
    )
    .await;
    let report = o.report(&q.query()).await;
    assert_eq!(report["rows"][0]["client_name"], "Anchal SCB");
    assert_eq!(report["rows"][0]["section"], "194C");
}
