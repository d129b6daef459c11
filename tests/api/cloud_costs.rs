//! Cloud cost usage (issue 20): the upsert keeps one row per client and month, every bad row is
//! refused with its field named and nothing written, staff see and write their book only, the
//! ranking's figures against a hand calculation, the pull from a fake provider on loopback
//! speaking our wire format (and the monthly job), a pull with no provider, the token never in
//! a payload or an audit row, and the role gates.

use crate::common::cloud::FakeCloud;
use crate::common::{Call, Reply, TestApp};
use axum::http::{Method, StatusCode};
use backoffice::plumbing::clock::Month;
use serde_json::{Value, json};
use std::time::Duration;

const TOKEN: &str = "cloud-secret-token-9XQ";

struct Office {
    app: TestApp,
    owner: String,
    owner_id: String,
    manager: String,
    staff: String,
    /// The office's current month.
    now: Month,
}

/// An office with an owner, a manager and a staff user; `lab` lets it call loopback (the fake
/// provider) with a 1-second timeout.
async fn office(lab: bool) -> Office {
    let app = if lab {
        TestApp::with_config(|c| {
            c.allow_private_targets = true;
            c.outbound_timeout = Duration::from_secs(1);
        })
    } else {
        TestApp::new()
    };
    let owner = app.owner().await;
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let (_, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    let conn = app.sql();
    let now = backoffice::cloud_costs::current_month(&conn).unwrap();
    let owner_id: String = conn
        .query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))
        .unwrap();
    Office {
        app,
        owner,
        owner_id,
        manager,
        staff,
        now,
    }
}

impl Office {
    /// A client named `name`, kept by the staff user when `staffs` (else unowned); its id.
    async fn client(&self, name: &str, staffs: bool) -> String {
        let mut body = json!({ "name": name, "state_code": "32" });
        if staffs {
            let staff_id: String = self
                .app
                .sql()
                .query_row("SELECT id FROM staff WHERE role = 'staff'", [], |r| r.get(0))
                .unwrap();
            body["owner_id"] = json!(staff_id);
        }
        let reply = self.app.post("/api/clients", &self.owner, body).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        reply.body["id"].as_str().unwrap().to_string()
    }

    async fn put(&self, cookie: &str, rows: Value) -> Reply {
        self.app
            .send(
                Call::new(Method::PUT, "/api/cloud-costs")
                    .cookie(cookie)
                    .json(json!({ "rows": rows })),
            )
            .await
    }

    /// Writes `(client, month, amount)` rows as the owner.
    async fn costs(&self, rows: &[(&str, Month, i64)]) {
        let rows: Vec<Value> = rows
            .iter()
            .map(|(c, m, a)| json!({ "client_id": c, "month": m.to_string(), "amount": a }))
            .collect();
        let reply = self.put(&self.owner, json!(rows)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }

    async fn put_settings(&self, cookie: &str, body: Value) -> Reply {
        self.app
            .send(
                Call::new(Method::PUT, "/api/settings/cloud-costs")
                    .cookie(cookie)
                    .json(body),
            )
            .await
    }

    async fn pull(&self, body: Value) -> Reply {
        self.app.post("/api/cloud-costs/pull", &self.owner, body).await
    }

    /// The stored (amount, source) of a client's month.
    fn stored(&self, client: &str, month: Month) -> Option<(i64, String)> {
        self.app
            .sql()
            .query_row(
                "SELECT amount, source FROM cloud_cost WHERE client_id = ?1 AND month = ?2",
                [client, &month.to_string()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .ok()
    }

    fn rows(&self) -> i64 {
        self.app.count("SELECT COUNT(*) FROM cloud_cost")
    }
}

/// (client_id, month, amount) of each row of a list answer.
fn listed(reply: &Reply) -> Vec<(String, String, i64)> {
    reply.body["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", reply.text))
        .iter()
        .map(|r| {
            (
                r["client_id"].as_str().unwrap().to_string(),
                r["month"].as_str().unwrap().to_string(),
                r["amount"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// Every field a 422 names, the first and the others.
fn named(reply: &Reply) -> Vec<(String, String)> {
    match reply.body["errors"].as_array() {
        Some(all) => all
            .iter()
            .map(|e| {
                (
                    e["field"].as_str().unwrap_or("").to_string(),
                    e["code"].as_str().unwrap_or("").to_string(),
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
async fn a_second_entry_of_a_month_replaces_the_first_and_one_row_stays() {
    let o = office(false).await;
    let anchal = o.client("ANCHAL SCB", false).await;
    let month = o.now.previous();

    let first = o
        .put(
            &o.owner,
            json!([{ "client_id": anchal, "month": month.to_string(), "amount": 250_000 }]),
        )
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(
        (first.body["written"].as_i64(), first.body["unchanged"].as_i64()),
        (Some(1), Some(0))
    );
    assert_eq!(first.body["rows"][0]["client_name"], "ANCHAL SCB");
    assert_eq!(first.body["rows"][0]["amount"], 250_000);
    assert_eq!(first.body["rows"][0]["source"], "manual");
    assert_eq!(first.body["rows"][0]["updated_by"], o.owner_id.as_str());

    // The same client and month again: replaced, never a second row.
    let second = o
        .put(
            &o.manager,
            json!([{ "client_id": anchal, "month": month.to_string(), "amount": 312_550 }]),
        )
        .await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    assert_eq!(second.body["written"], 1);
    assert_eq!(o.stored(&anchal, month), Some((312_550, "manual".into())));
    assert_eq!(o.rows(), 1);
    let list = o
        .app
        .get(&format!("/api/cloud-costs?client_id={anchal}"), &o.owner)
        .await;
    assert_eq!(list.body["total"], 1);
    assert_eq!(listed(&list), [(anchal.clone(), month.to_string(), 312_550)]);

    // The same amount once more: nothing changes, nothing is audited.
    let same = o
        .put(
            &o.owner,
            json!([{ "client_id": anchal, "month": month.to_string(), "amount": 312_550 }]),
        )
        .await;
    assert_eq!(
        (same.body["written"].as_i64(), same.body["unchanged"].as_i64()),
        (Some(0), Some(1))
    );
    // One audit row per change: created, then updated with the amount before and after.
    let audits: Vec<(String, String, String)> = {
        let conn = o.app.sql();
        let mut stmt = conn
            .prepare(
                "SELECT action, json_extract(before, '$.amount'), json_extract(after, '$.amount') FROM audit
                  WHERE entity = 'cloud_cost' AND entity_id = ?1 ORDER BY id",
            )
            .unwrap();
        stmt.query_map([&anchal], |r| {
            Ok((
                r.get(0)?,
                r.get::<_, Option<i64>>(1)?.map_or("-".into(), |a| a.to_string()),
                r.get::<_, i64>(2)?.to_string(),
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    };
    assert_eq!(
        audits,
        [
            ("create".into(), "-".into(), "250000".into()),
            ("update".into(), "250000".into(), "312550".into())
        ]
    );

    // Several months and clients in one request; the list is the latest month first, the
    // costliest first within it.
    let kadakkal = o.client("KADAKKAL SCB", false).await;
    o.costs(&[
        (&kadakkal, month, 99_900),
        (&kadakkal, o.now, 100_000),
        (&anchal, o.now, 500_000),
    ])
    .await;
    let all = o.app.get("/api/cloud-costs", &o.owner).await;
    assert_eq!(
        listed(&all),
        [
            (anchal.clone(), o.now.to_string(), 500_000),
            (kadakkal.clone(), o.now.to_string(), 100_000),
            (anchal.clone(), month.to_string(), 312_550),
            (kadakkal.clone(), month.to_string(), 99_900),
        ]
    );
    let by_name = o.app.get("/api/cloud-costs?q=kadak&sort=amount", &o.owner).await;
    assert_eq!(
        listed(&by_name),
        [
            (kadakkal.clone(), month.to_string(), 99_900),
            (kadakkal.clone(), o.now.to_string(), 100_000),
        ]
    );
    let of_month = o
        .app
        .get(&format!("/api/cloud-costs?month={}", o.now), &o.owner)
        .await;
    assert_eq!(of_month.body["total"], 2);
    for (query, code) in [
        ("month=2026-13", "invalid_month"),
        ("source=imported", "invalid_choice"),
        ("sort=password", "invalid_sort"),
    ] {
        let bad = o.app.get(&format!("/api/cloud-costs?{query}"), &o.owner).await;
        assert_eq!(
            (bad.status, bad.code()),
            (StatusCode::BAD_REQUEST, code),
            "{query}"
        );
    }
    // The CSV twin: every row, rupees with two decimals.
    let csv = o.app.get("/api/cloud-costs.csv?sort=-amount", &o.owner).await;
    assert_eq!(csv.status, StatusCode::OK);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines[0], "Month,Client,Amount,Source,Updated at");
    assert_eq!(lines.len(), 5);
    assert!(
        lines[1].starts_with(&format!("{},ANCHAL SCB,5000.00,manual,", o.now)),
        "{}",
        lines[1]
    );
}

#[tokio::test]
async fn each_bad_row_is_named_and_nothing_is_written() {
    let o = office(false).await;
    let anchal = o.client("ANCHAL SCB", false).await;
    let month = o.now.previous().to_string();
    let good = json!({ "client_id": anchal, "month": month, "amount": 1000 });
    let with = |key: &str, value: Value| {
        let mut row = good.clone();
        if value.is_null() {
            row.as_object_mut().unwrap().remove(key);
        } else {
            row[key] = value;
        }
        row
    };
    let future = o.now.plus(1).to_string();
    // Each body is a good row then a bad one: the bad one is named with its index, and the
    // good one is not written either.
    let cases: Vec<(Value, &str, &str)> = vec![
        (with("month", json!("2026-13")), "rows[1].month", "invalid_month"),
        (with("month", json!("2026-1")), "rows[1].month", "invalid_month"),
        (with("month", json!("11-2026")), "rows[1].month", "invalid_month"),
        (with("month", json!(future)), "rows[1].month", "future_month"),
        (with("month", json!(202611)), "rows[1].month", "invalid_month"),
        (with("month", Value::Null), "rows[1].month", "required"),
        (with("amount", json!(-100)), "rows[1].amount", "negative_amount"),
        (with("amount", json!(1234.5)), "rows[1].amount", "invalid_amount"),
        (with("amount", json!("1200")), "rows[1].amount", "invalid_amount"),
        (
            with("amount", json!(2_000_000_000)),
            "rows[1].amount",
            "amount_too_large",
        ),
        (with("amount", Value::Null), "rows[1].amount", "required"),
        (
            with("client_id", json!("01JB0000000000000000000000")),
            "rows[1].client_id",
            "unknown_client",
        ),
        (with("client_id", json!("")), "rows[1].client_id", "required"),
        (with("client_id", json!(42)), "rows[1].client_id", "invalid_value"),
        (with("client_id", Value::Null), "rows[1].client_id", "required"),
        // The first row's client and month once more.
        (with("amount", json!(2000)), "rows[1].month", "duplicate_row"),
    ];
    for (bad, field, code) in cases {
        let reply = o.put(&o.owner, json!([good, bad])).await;
        assert_eq!(
            (reply.status, named(&reply)),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                vec![(field.to_string(), code.to_string())]
            ),
            "{bad}: {}",
            reply.text
        );
        assert!(!reply.body["error"]["message"].as_str().unwrap().is_empty());
        assert_eq!(o.rows(), 0, "{bad}: nothing written");
    }
    // Every wrong field of every row at once.
    let many = o
        .put(
            &o.owner,
            json!([
                { "client_id": anchal, "month": "2026-00", "amount": -1 },
                good,
                { "month": month, "amount": 1.5 },
            ]),
        )
        .await;
    assert_eq!(many.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        named(&many),
        [
            ("rows[0].month".to_string(), "invalid_month".to_string()),
            ("rows[0].amount".into(), "negative_amount".into()),
            ("rows[2].client_id".into(), "required".into()),
            ("rows[2].amount".into(), "invalid_amount".into()),
        ]
    );
    assert_eq!(many.body["error"]["field"], "rows[0].month");
    // The body itself: no rows, too many rows, an unknown key, not JSON.
    let too_many: Vec<Value> = (0..1001)
        .map(|i| json!({ "client_id": anchal, "month": o.now.plus(-i).to_string(), "amount": 1 }))
        .collect();
    for (body, status, field) in [
        (json!({ "rows": [] }), StatusCode::UNPROCESSABLE_ENTITY, "rows"),
        (json!({}), StatusCode::UNPROCESSABLE_ENTITY, "rows"),
        (
            json!({ "rows": too_many }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "rows",
        ),
        (
            json!({ "rows": [ { "client_id": anchal, "month": month, "amount": 1, "gst": 18 } ] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "rows[0]",
        ),
        (
            json!({ "rows": [good], "source": "pull" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "source",
        ),
    ] {
        let reply = o
            .app
            .send(
                Call::new(Method::PUT, "/api/cloud-costs")
                    .cookie(&o.owner)
                    .json(body.clone()),
            )
            .await;
        assert_eq!(reply.status, status, "{}", reply.text);
        assert!(
            reply.body["error"]["field"]
                .as_str()
                .unwrap_or("")
                .starts_with(field),
            "{}",
            reply.text
        );
    }
    let unreadable = o
        .app
        .send(
            Call::new(Method::PUT, "/api/cloud-costs")
                .cookie(&o.owner)
                .raw("{\"rows\": [", Some("application/json")),
        )
        .await;
    assert_eq!(unreadable.status, StatusCode::BAD_REQUEST);
    assert_eq!(o.rows(), 0);
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity LIKE 'cloud_cost%'"),
        0
    );
    // 1,000 rows go in one request: four clients, 250 months each.
    let mut clients = vec![anchal.clone()];
    for name in ["KADAKKAL SCB", "ADOOR SCB", "CHITHARA SCB"] {
        clients.push(o.client(name, false).await);
    }
    let thousand: Vec<Value> = (0..1000)
        .map(|i| json!({ "client_id": clients[i / 250], "month": o.now.plus(-((i % 250) as i32)).to_string(), "amount": i }))
        .collect();
    let reply = o.put(&o.owner, json!(thousand)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!((reply.body["written"].as_i64(), o.rows()), (Some(1000), 1000));
}

#[tokio::test]
async fn staff_see_rank_and_write_only_their_book() {
    let o = office(false).await;
    let theirs = o.client("ANCHAL SCB", true).await;
    let other = o.client("KADAKKAL SCB", false).await;
    let month = o.now.previous();
    o.costs(&[(&theirs, month, 100_000), (&other, month, 900_000)])
        .await;

    let list = o.app.get("/api/cloud-costs", &o.staff).await;
    assert_eq!(list.body["total"], 1);
    assert_eq!(listed(&list), [(theirs.clone(), month.to_string(), 100_000)]);
    let filtered = o
        .app
        .get(&format!("/api/cloud-costs?client_id={other}"), &o.staff)
        .await;
    assert_eq!(
        (filtered.status, filtered.body["total"].as_i64()),
        (StatusCode::OK, Some(0))
    );
    let csv = o.app.get("/api/cloud-costs.csv", &o.staff).await;
    assert_eq!(csv.text.lines().count(), 2, "{}", csv.text);
    assert!(!csv.text.contains("KADAKKAL"));

    let ranking = o.app.get("/api/cloud-costs/ranking", &o.staff).await;
    assert_eq!(ranking.status, StatusCode::OK, "{}", ranking.text);
    assert_eq!(ranking.body["total"], 1);
    assert_eq!(ranking.body["rows"][0]["client_id"], theirs.as_str());
    assert_eq!(ranking.body["grand_total"], 100_000);
    let ranking_csv = o.app.get("/api/cloud-costs/ranking.csv", &o.staff).await;
    assert!(!ranking_csv.text.contains("KADAKKAL"), "{}", ranking_csv.text);
    // The manager sees every book.
    let all = o.app.get("/api/cloud-costs/ranking", &o.manager).await;
    assert_eq!(all.body["total"], 2);

    // A client outside the book is refused as a client that does not exist: the same words.
    let outside = o
        .put(
            &o.staff,
            json!([{ "client_id": other, "month": month.to_string(), "amount": 1 }]),
        )
        .await;
    let missing = o
        .put(
            &o.staff,
            json!([{ "client_id": "01JB0000000000000000000000", "month": month.to_string(), "amount": 1 }]),
        )
        .await;
    assert_eq!(
        (
            outside.status,
            outside.code(),
            outside.body["error"]["field"].as_str()
        ),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_client",
            Some("rows[0].client_id")
        )
    );
    assert_eq!(outside.body["error"], missing.body["error"]);
    assert_eq!(o.stored(&other, month), Some((900_000, "manual".into())));
    // Their own client they may write.
    let own = o
        .put(
            &o.staff,
            json!([{ "client_id": theirs, "month": month.to_string(), "amount": 120_000 }]),
        )
        .await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text);
    assert_eq!(o.stored(&theirs, month), Some((120_000, "manual".into())));
}

#[tokio::test]
async fn the_ranking_adds_up_as_by_hand() {
    let o = office(false).await;
    let (x, y, z) = (
        o.client("ADOOR SCB", false).await,
        o.client("BALARAMAPURAM SCB", false).await,
        o.client("CHADAYAMANGALAM SCB", false).await,
    );
    let n = o.now;
    o.costs(&[
        (&x, n.plus(-2), 100_000),
        (&x, n.plus(-1), 150_050),
        (&x, n, 200_000),
        (&y, n.plus(-1), 500_000),
        (&z, n.plus(-13), 999_900),
        (&z, n, 1),
    ])
    .await;
    let figures = |reply: &Reply| -> Vec<(String, i64, i64, i64)> {
        reply.body["rows"]
            .as_array()
            .unwrap_or_else(|| panic!("{}", reply.text))
            .iter()
            .map(|r| {
                (
                    r["client_name"].as_str().unwrap().to_string(),
                    r["total"].as_i64().unwrap(),
                    r["months"].as_i64().unwrap(),
                    r["average"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    // The last 12 months by default: Z's cost of 13 months ago is outside.
    // X: 1,000.00 + 1,500.50 + 2,000.00 = 4,500.50 over 3 months, 1,500.1666… → 1,500.17.
    let year = o.app.get("/api/cloud-costs/ranking", &o.owner).await;
    assert_eq!(year.status, StatusCode::OK, "{}", year.text);
    assert_eq!(
        figures(&year),
        [
            ("BALARAMAPURAM SCB".to_string(), 500_000, 1, 500_000),
            ("ADOOR SCB".into(), 450_050, 3, 150_017),
            ("CHADAYAMANGALAM SCB".into(), 1, 1, 1),
        ]
    );
    assert_eq!(
        (
            year.body["from"].as_str(),
            year.body["to"].as_str(),
            year.body["range_months"].as_i64(),
            year.body["grand_total"].as_i64(),
            year.body["total"].as_i64()
        ),
        (
            Some(n.plus(-11).to_string().as_str()),
            Some(n.to_string().as_str()),
            Some(12),
            Some(950_051),
            Some(3)
        )
    );
    // Fourteen months: Z's 9,999.00 + 0.01 over 2 months = 4,999.505 → 4,999.51, now first.
    let longer = o
        .app
        .get(
            &format!("/api/cloud-costs/ranking?from={}&to={n}", n.plus(-13)),
            &o.owner,
        )
        .await;
    assert_eq!(
        figures(&longer),
        [
            ("CHADAYAMANGALAM SCB".to_string(), 999_901, 2, 499_951),
            ("BALARAMAPURAM SCB".into(), 500_000, 1, 500_000),
            ("ADOOR SCB".into(), 450_050, 3, 150_017),
        ]
    );
    assert_eq!(longer.body["range_months"], 14);
    // One month, sorted and paged.
    let one = o
        .app
        .get(
            &format!(
                "/api/cloud-costs/ranking?from={0}&to={0}&sort=client_name&per_page=1&page=2",
                n.plus(-1)
            ),
            &o.owner,
        )
        .await;
    assert_eq!(
        figures(&one),
        [("BALARAMAPURAM SCB".to_string(), 500_000, 1, 500_000)]
    );
    assert_eq!(
        (one.body["total"].as_i64(), one.body["grand_total"].as_i64()),
        (Some(2), Some(650_050))
    );
    let by_months = o.app.get("/api/cloud-costs/ranking?sort=-months", &o.owner).await;
    assert_eq!(figures(&by_months)[0].0, "ADOOR SCB");
    // The CSV twin, in rupees.
    let csv = o.app.get("/api/cloud-costs/ranking.csv", &o.owner).await;
    assert_eq!(csv.status, StatusCode::OK);
    let from = n.plus(-11);
    assert_eq!(
        csv.text,
        format!(
            "Client,From,To,Total,Months,Average per month\r\n\
             BALARAMAPURAM SCB,{from},{n},5000.00,1,5000.00\r\n\
             ADOOR SCB,{from},{n},4500.50,3,1500.17\r\n\
             CHADAYAMANGALAM SCB,{from},{n},0.01,1,0.01\r\n"
        )
    );
    // Bad ranges: a clear 400 naming the parameter.
    for (query, code, field) in [
        (format!("from={}&to={}", n, n.plus(-1)), "invalid_range", "to"),
        (format!("from={}&to={n}", n.plus(-120)), "invalid_range", "to"),
        ("from=2026-13".to_string(), "invalid_month", "from"),
        ("to=last-year".to_string(), "invalid_month", "to"),
        ("sort=name".to_string(), "invalid_sort", "sort"),
    ] {
        for path in ["/api/cloud-costs/ranking", "/api/cloud-costs/ranking.csv"] {
            let bad = o.app.get(&format!("{path}?{query}"), &o.owner).await;
            assert_eq!(
                (bad.status, bad.code(), bad.body["error"]["field"].as_str()),
                (StatusCode::BAD_REQUEST, code, Some(field)),
                "{path}?{query}: {}",
                bad.text
            );
        }
    }
    let widest = o
        .app
        .get(
            &format!("/api/cloud-costs/ranking?from={}&to={n}", n.plus(-119)),
            &o.owner,
        )
        .await;
    assert_eq!(
        (widest.status, widest.body["range_months"].as_i64()),
        (StatusCode::OK, Some(120))
    );
}

#[tokio::test]
async fn the_pull_writes_our_clients_skips_the_others_and_the_job_pulls_each_month_once() {
    let o = office(true).await;
    let provider = FakeCloud::start(TOKEN);
    let (x, y) = (
        o.client("ADOOR SCB", false).await,
        o.client("BALARAMAPURAM SCB", false).await,
    );
    let set = o
        .put_settings(&o.owner, json!({ "api_url": provider.url, "token": TOKEN }))
        .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text);
    assert_eq!(set.body, json!({ "api_url": provider.url, "hasToken": true }));

    // The month before the current one by default.
    let last = o.now.previous();
    provider.report(
        &last.to_string(),
        &[
            (&x, json!("1234.50")),
            (&y, json!(800)),
            ("NOT-OUR-CLIENT-7", json!("5.00")),
        ],
    );
    let pulled = o.pull(json!({})).await;
    assert_eq!(pulled.status, StatusCode::OK, "{}", pulled.text);
    assert_eq!(
        pulled.body,
        json!({ "month": last.to_string(), "written": 2, "unchanged": 0, "skipped": ["NOT-OUR-CLIENT-7"] })
    );
    assert_eq!(o.stored(&x, last), Some((123_450, "pull".into())));
    assert_eq!(o.stored(&y, last), Some((80_000, "pull".into())));
    assert_eq!(o.rows(), 2);
    assert_eq!(
        provider.requests(),
        [(format!("month={last}"), Some(format!("Bearer {TOKEN}")))]
    );
    // Audited: each changed row, and the pull itself.
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity = 'cloud_cost' AND action = 'pull'"),
        2
    );
    assert_eq!(
        o.app.count(&format!(
            "SELECT COUNT(*) FROM audit WHERE entity = 'cloud_cost_pull' AND entity_id = '{last}'"
        )),
        1
    );

    // Again: nothing changed. A manual entry in between is replaced by the provider's figure.
    o.costs(&[(&x, last, 1)]).await;
    let again = o.pull(json!({ "month": last.to_string() })).await;
    assert_eq!(
        (again.body["written"].as_i64(), again.body["unchanged"].as_i64()),
        (Some(1), Some(1)),
        "{}",
        again.text
    );
    assert_eq!(o.stored(&x, last), Some((123_450, "pull".into())));

    // A reply that is not the report: refused whole, nothing written.
    let earlier = o.now.plus(-3);
    provider.report(
        &earlier.to_string(),
        &[(&x, json!("10.00")), (&y, json!("1.005"))],
    );
    let bad = o.pull(json!({ "month": earlier.to_string() })).await;
    assert_eq!(
        (bad.status, bad.code()),
        (StatusCode::BAD_GATEWAY, "cloud_provider_bad_reply"),
        "{}",
        bad.text
    );
    assert!(bad.body["error"]["message"].as_str().unwrap().contains("row 1"));
    provider.answer(
        &earlier.to_string(),
        200,
        &json!({ "month": last.to_string(), "rows": [] }).to_string(),
    );
    let wrong_month = o.pull(json!({ "month": earlier.to_string() })).await;
    assert_eq!(wrong_month.code(), "cloud_provider_bad_reply");
    provider.answer(&earlier.to_string(), 500, "oops");
    let down = o.pull(json!({ "month": earlier.to_string() })).await;
    assert_eq!(
        (down.status, down.code()),
        (StatusCode::BAD_GATEWAY, "cloud_provider_failed")
    );
    assert_eq!(o.stored(&x, earlier), None);
    assert_eq!(o.rows(), 2);
    // A month that has not begun, or is not a month: 422 on `month`.
    for month in [o.now.plus(1).to_string(), "2026-13".into()] {
        let refused = o.pull(json!({ "month": month })).await;
        assert_eq!(
            (refused.status, refused.body["error"]["field"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("month")),
            "{month}"
        );
    }

    // The monthly job: the month before the day's month, once.
    let asked = provider.requests().len();
    let job = o
        .app
        .post("/api/jobs/cloud_cost_pull/run", &o.owner, json!({}))
        .await;
    assert_eq!(job.status, StatusCode::OK, "{}", job.text);
    assert_eq!(
        job.body,
        json!({ "month": last.to_string(), "skipped": "already pulled" })
    );
    assert_eq!(
        provider.requests().len(),
        asked,
        "no call for a month already pulled"
    );
    // On a day of a month whose previous month was not pulled yet, it pulls it (as nobody).
    let next = o.now.plus(1);
    provider.report(&o.now.to_string(), &[(&y, json!(950))]);
    let first_day = format!("{next}-01");
    let job = o
        .app
        .post(
            "/api/jobs/cloud_cost_pull/run",
            &o.owner,
            json!({ "as_of": first_day }),
        )
        .await;
    assert_eq!(
        job.body,
        json!({ "month": o.now.to_string(), "written": 1, "unchanged": 0, "skipped": [] }),
        "{}",
        job.text
    );
    assert!(
        o.app
            .sql()
            .query_row(
                "SELECT updated_by IS NULL FROM cloud_cost WHERE client_id = ?1 AND month = ?2",
                [&y, &o.now.to_string()],
                |r| r.get::<_, bool>(0)
            )
            .unwrap(),
        "the job pulls as nobody"
    );
    let job = o
        .app
        .post(
            "/api/jobs/cloud_cost_pull/run",
            &o.owner,
            json!({ "as_of": first_day }),
        )
        .await;
    assert_eq!(job.body["skipped"], "already pulled");
    assert_eq!(provider.requests().len(), asked + 1);

    // The token travels only to the provider: not in an answer, an audit row or a job's counts.
    let settings = o.app.get("/api/settings/cloud-costs", &o.owner).await;
    assert_eq!(
        settings.body,
        json!({ "api_url": provider.url, "hasToken": true })
    );
    for text in [&settings.text, &pulled.text, &bad.text, &down.text] {
        assert!(!text.contains(TOKEN));
    }
    assert_eq!(
        o.app.count(&format!(
            "SELECT COUNT(*) FROM audit WHERE before LIKE '%{TOKEN}%' OR after LIKE '%{TOKEN}%'"
        )),
        0
    );
    assert_eq!(
        o.app.count(&format!(
            "SELECT COUNT(*) FROM job_run WHERE counts LIKE '%{TOKEN}%' OR error LIKE '%{TOKEN}%'"
        )),
        0
    );
    // A wrong token: the provider's 401, in words.
    o.put_settings(&o.owner, json!({ "token": "an-old-token" })).await;
    let refused = o.pull(json!({})).await;
    assert_eq!(
        (refused.status, refused.code()),
        (StatusCode::BAD_GATEWAY, "cloud_provider_failed")
    );
    assert!(
        refused.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("HTTP 401"),
        "{}",
        refused.text
    );
    assert!(!refused.text.contains("an-old-token"));
}

#[tokio::test]
async fn a_pull_without_a_provider_says_so_and_writes_nothing() {
    let o = office(true).await;
    let x = o.client("ADOOR SCB", false).await;
    let unset = o.pull(json!({})).await;
    assert_eq!(
        (unset.status, unset.code()),
        (StatusCode::CONFLICT, "cloud_costs_not_configured"),
        "{}",
        unset.text
    );
    assert!(
        unset.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("No cloud-cost provider")
    );
    // An address without a token is not enough either.
    let provider = FakeCloud::start(TOKEN);
    provider.report(&o.now.previous().to_string(), &[(&x, json!(1))]);
    o.put_settings(&o.owner, json!({ "api_url": provider.url })).await;
    let no_token = o.pull(json!({})).await;
    assert_eq!(
        (no_token.status, no_token.code()),
        (StatusCode::CONFLICT, "cloud_costs_not_configured")
    );
    // The job says so and succeeds, writing nothing.
    let job = o
        .app
        .post("/api/jobs/cloud_cost_pull/run", &o.owner, json!({}))
        .await;
    assert_eq!(job.status, StatusCode::OK, "{}", job.text);
    assert_eq!(
        job.body,
        json!({ "month": o.now.previous().to_string(), "skipped": "no cloud-cost provider is set" })
    );
    assert_eq!(provider.requests().len(), 0);
    assert_eq!(o.rows(), 0);
    assert_eq!(
        o.app
            .count("SELECT COUNT(*) FROM audit WHERE entity LIKE 'cloud_cost%'"),
        0
    );
    // Removing the address again.
    let cleared = o
        .put_settings(&o.owner, json!({ "api_url": "", "token": "" }))
        .await;
    assert_eq!(cleared.body, json!({ "api_url": null, "hasToken": false }));
}

#[tokio::test]
async fn the_provider_settings_are_the_owners_checked_and_the_token_write_only() {
    // The address check is on here (no lab switch).
    let o = office(false).await;
    for url in [
        "http://127.0.0.1:9/usage",
        "http://169.254.169.254/latest",
        "http://10.0.0.5/usage",
        "ftp://costs.example.in/usage",
    ] {
        let refused = o.put_settings(&o.owner, json!({ "api_url": url })).await;
        assert_eq!(
            (
                refused.status,
                refused.code(),
                refused.body["error"]["field"].as_str()
            ),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "address_refused",
                Some("api_url")
            ),
            "{url}"
        );
    }
    let saved = o.put_settings(&o.owner, json!({ "token": TOKEN })).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(saved.body, json!({ "api_url": null, "hasToken": true }));
    let unknown = o
        .put_settings(&o.owner, json!({ "api_url": "", "secret": "x" }))
        .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Audited, without the token: one row per save.
    assert_eq!(
        o.app.count(
            "SELECT COUNT(*) FROM audit WHERE entity = 'setting' AND entity_id = 'cloud_costs' AND after LIKE '%\"hasToken\":true%'"
        ),
        1
    );
    assert_eq!(
        o.app.count(&format!(
            "SELECT COUNT(*) FROM audit WHERE before LIKE '%{TOKEN}%' OR after LIKE '%{TOKEN}%'"
        )),
        0
    );

    // Role gates: the settings and the pull are the owner's; the rest is for everyone.
    for cookie in [&o.manager, &o.staff] {
        for (method, path) in [
            (Method::GET, "/api/settings/cloud-costs"),
            (Method::PUT, "/api/settings/cloud-costs"),
            (Method::POST, "/api/cloud-costs/pull"),
        ] {
            let mut call = Call::new(method.clone(), path).cookie(cookie);
            if method != Method::GET {
                call = call.json(json!({}));
            }
            let reply = o.app.send(call).await;
            assert_eq!(
                (reply.status, reply.code()),
                (StatusCode::FORBIDDEN, "forbidden"),
                "{method} {path}"
            );
        }
        for path in [
            "/api/cloud-costs",
            "/api/cloud-costs.csv",
            "/api/cloud-costs/ranking",
            "/api/cloud-costs/ranking.csv",
        ] {
            assert_eq!(o.app.get(path, cookie).await.status, StatusCode::OK, "{path}");
        }
    }
    for path in ["/api/cloud-costs", "/api/cloud-costs/ranking"] {
        let anonymous = o.app.send(Call::new(Method::GET, path)).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(o.rows(), 0);

    // The routes are in the OpenAPI document, the owner's with their 403.
    let doc = o.app.send(Call::new(Method::GET, "/api/openapi.json")).await.body;
    for (path, method) in [
        ("/api/cloud-costs", "get"),
        ("/api/cloud-costs", "put"),
        ("/api/cloud-costs.csv", "get"),
        ("/api/cloud-costs/ranking", "get"),
        ("/api/cloud-costs/ranking.csv", "get"),
        ("/api/cloud-costs/pull", "post"),
        ("/api/settings/cloud-costs", "get"),
        ("/api/settings/cloud-costs", "put"),
    ] {
        assert!(doc["paths"][path][method].is_object(), "{method} {path}");
    }
    for (path, method) in [
        ("/api/cloud-costs/pull", "post"),
        ("/api/settings/cloud-costs", "get"),
    ] {
        assert!(
            doc["paths"][path][method]["responses"]["403"]["description"]
                .as_str()
                .unwrap()
                .starts_with("Signed in, but the role"),
            "{method} {path}"
        );
    }
}
