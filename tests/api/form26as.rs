//! Form 26AS matched (issue 36, decisions 12): the realistic download in
//! `tests/fixtures/form26as-2025-26.txt`, moved to last financial year, uploaded against a
//! hand-built office of last year's receipts: one society deposited what was booked, one less
//! (an entry unmatched), one nothing, one deposited with nothing booked, a deductor no client
//! carries the TAN of, and a society without a TAN. The upload's counts, the TDS receivable
//! rows' `filed` and states, the CSV, the audit row with counts only, a second upload replacing
//! the first, the daily scan's `tds_not_filed` reminders after the return dates, and bad files,
//! another year, another PAN and staff refused with nothing written.

use crate::common::TestApp;
use axum::http::StatusCode;
use backoffice::plumbing::db::settings::office_today;
use chrono::{Datelike, NaiveDate};
use serde_json::{Value, json};

const FIXTURE: &str = include_str!("../fixtures/form26as-2025-26.txt");

/// The fixture as the download of the financial year starting in `year` (its dates moved).
fn download(year: i32) -> String {
    FIXTURE
        .replace("2026", "\u{0}")
        .replace("2025", &year.to_string())
        .replace('\u{0}', &(year + 1).to_string())
}

struct Office {
    app: TestApp,
    owner: String,
    manager: String,
    staff: String,
    /// The year the last financial year starts in.
    year: i32,
    /// Piravom deposited less than was booked in Q2, Chathannoor nothing in Q3 (Kadakkal deposited
    /// what was booked in Q1, Anchal deposited with nothing booked, Eravipuram has no TAN).
    piravom: String,
    chathannoor: String,
}

impl Office {
    fn fy(&self) -> String {
        format!("{}-{:02}", self.year, (self.year + 1) % 100)
    }

    fn day(&self, month: u32, day: u32) -> NaiveDate {
        let year = if month >= 4 { self.year } else { self.year + 1 };
        NaiveDate::from_ymd_opt(year, month, day).unwrap()
    }

    async fn upload(&self, cookie: &str, body: Value) -> crate::common::Reply {
        self.app.post("/api/tds/26as", cookie, body).await
    }

    fn written(&self) -> (i64, i64, i64) {
        (
            self.app.count("SELECT COUNT(*) FROM tds_26as"),
            self.app.count("SELECT COUNT(*) FROM tds_filed"),
            self.app
                .count("SELECT COUNT(*) FROM audit WHERE entity = 'tds_26as'"),
        )
    }

    async fn report(&self, query: &str) -> Value {
        let reply = self
            .app
            .get(
                &format!("/api/reports/tds-receivable?fy={}&{query}", self.fy()),
                &self.manager,
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        reply.body
    }
}

async fn client(app: &TestApp, owner: &str, name: &str, tan: Option<&str>) -> String {
    let reply = app
        .post(
            "/api/clients",
            owner,
            json!({ "name": name, "state_code": "32", "tan": tan, "email": "secretary@society.coop" }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body["id"].as_str().unwrap().to_string()
}

/// An invoice of `price` paise (+18 % GST) on `on`, paid in full that day with 10 % of `price`
/// deducted as TDS.
async fn paid_with_tds(app: &TestApp, owner: &str, client: &str, on: NaiveDate, price: i64) {
    let doc = app
        .issue(
            owner,
            json!({ "type": "INVOICE", "client_id": client, "doc_date": on.to_string(),
                    "lines": [ { "description": "Annual maintenance", "qty": 1, "unit_price": price } ] }),
        )
        .await;
    let tds = price / 10;
    let amount = price * 118 / 100 - tds;
    app.record_payment(
        owner,
        json!({ "client_id": client, "received_on": on.to_string(), "amount": amount, "mode": "neft_rtgs",
                "allocations": [ { "document_id": doc["id"], "amount": amount, "tds": tds } ] }),
    )
    .await;
}

async fn office() -> Office {
    let app = TestApp::new();
    let owner = app.owner().await;
    app.set_company(&owner, json!({})).await;
    let (_, pw) = app.invite(&owner, "manager@coop.in", "manager").await;
    let manager = app.login("manager@coop.in", &pw).await;
    let (_, pw) = app.invite(&owner, "staff@coop.in", "staff").await;
    let staff = app.login("staff@coop.in", &pw).await;
    let today = app.state.db.read_blocking(office_today).unwrap();
    let this_year = if today.month() >= 4 {
        today.year()
    } else {
        today.year() - 1
    };
    let kadakkal = client(&app, &owner, "Kadakkal SCB", Some("TVDK01234A")).await;
    client(&app, &owner, "Anchal Farmers SCB", Some("TVDA00789D")).await;
    let eravipuram = client(&app, &owner, "Eravipuram SCB", None).await;
    let o = Office {
        piravom: client(&app, &owner, "Piravom Women's Society", Some("CHNP00456B")).await,
        chathannoor: client(&app, &owner, "Chathannoor SCB", Some("CLTC00321C")).await,
        app,
        owner,
        manager,
        staff,
        year: this_year - 1,
    };
    // TDS booked: Kadakkal ₹1,000 in Q1, Piravom ₹2,000 in Q2, Chathannoor ₹500 in Q3,
    // Eravipuram ₹100 in Q1; Anchal nothing.
    for (client, on, price) in [
        (kadakkal, o.day(6, 15), 1_000_000),
        (o.piravom.clone(), o.day(8, 12), 2_000_000),
        (o.chathannoor.clone(), o.day(11, 20), 500_000),
        (eravipuram, o.day(6, 1), 100_000),
    ] {
        paid_with_tds(&o.app, &o.owner, &client, on, price).await;
    }
    o
}

/// (client, quarter, booked, filed, state) of each row, in the report's order.
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
                r["filed"].as_i64(),
                r["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn row(
    name: &str,
    q: &str,
    booked: i64,
    filed: Option<i64>,
    state: &str,
) -> (String, String, i64, Option<i64>, String) {
    (name.into(), q.into(), booked, filed, state.into())
}

#[tokio::test]
async fn an_upload_matches_each_societys_quarters_against_what_was_booked() {
    let o = office().await;
    // Before an upload: no filed amounts, the certificate states only.
    let before = o.report("").await;
    assert!(
        before["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["filed"].is_null()),
        "{before}"
    );

    let reply = o
        .upload(&o.manager, json!({ "fy": o.fy(), "text": download(o.year) }))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.body,
        json!({ "deductors": 4, "entries": 5, "matched": 1, "short": 1, "not_filed": 1, "not_booked": 2 })
    );
    assert_eq!(o.written(), (1, 4, 1));

    let report = o.report("").await;
    assert_eq!(
        rows(&report),
        [
            row("Anchal Farmers SCB", "Q1", 0, Some(30_000), "mismatch"),
            row("Eravipuram SCB", "Q1", 10_000, None, "awaited"),
            row("Kadakkal SCB", "Q1", 100_000, Some(100_000), "awaited"),
            row(
                "Piravom Women's Society",
                "Q2",
                200_000,
                Some(150_000),
                "short_filed"
            ),
            row("Chathannoor SCB", "Q3", 50_000, Some(0), "not_filed"),
        ]
    );
    assert_eq!(
        (&report["counts"], &report["totals"]),
        (
            &json!({ "awaited": 2, "received": 0, "mismatch": 1, "short_filed": 1, "not_filed": 1 }),
            &json!({ "booked": 360_000, "certified": 0, "filed": 280_000 })
        )
    );
    // The state filter and the sort by what was filed.
    assert_eq!(
        rows(&o.report("state=short_filed").await),
        [row(
            "Piravom Women's Society",
            "Q2",
            200_000,
            Some(150_000),
            "short_filed"
        )]
    );
    let by_filed = o.report("sort=-filed").await;
    assert_eq!(by_filed["rows"][0]["client_name"], "Piravom Women's Society");

    // The CSV carries the filed column, the totals last.
    let csv = o
        .app
        .get(
            &format!("/api/reports/tds-receivable.csv?fy={}&sort=client_name", o.fy()),
            &o.manager,
        )
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(
        lines[0],
        "Client,TAN,Section,Financial year,Quarter,Booked,Certified,Filed,State,Certificate no,Issued on,Due on"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Chathannoor SCB,CLTC00321C,194J,")
                && l.contains(",500.00,,0.00,not_filed,")),
        "{}",
        csv.text
    );
    assert_eq!(
        lines.last().unwrap(),
        &format!("TOTAL,,,{},,3600.00,0.00,2800.00,,,,", o.fy())
    );

    // Audited with the counts only: no line of the file, no name, no amount.
    let (action, after): (String, String) = o
        .app
        .sql()
        .query_row(
            "SELECT action, after FROM audit WHERE entity = 'tds_26as' AND entity_id = ?1",
            [o.fy()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(action, "import");
    let after: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(
        after,
        json!({ "fy": o.fy(), "deductors": 4, "entries": 5, "matched": 1, "short": 1, "not_filed": 1, "not_booked": 2 })
    );

    // A corrected return later: Chathannoor deposited, the upload replaces the last one whole.
    let corrected = download(o.year).replace(
        "4^THE KERALA STATE CO-OPERATIVE BANK LTD^CHEK00999X^^^^^7000.00^700.00^700.00",
        &format!(
            "4^CHATHANNOOR SERVICE CO-OP BANK^CLTC00321C^^^^^5000.00^500.00^500.00\n\
             ^Sr. No.^Section^Transaction Date^Status of Booking^Date of Booking^Remarks^Amount Paid / Credited(Rs.)^Tax Deducted(Rs.)^TDS Deposited(Rs.)\n\
             ^1^194J^20-Nov-{}^F^08-Feb-{}^^5000.00^500.00^500.00\n\
             5^THE KERALA STATE CO-OPERATIVE BANK LTD^CHEK00999X^^^^^7000.00^700.00^700.00",
            o.year,
            o.year + 1
        ),
    );
    let again = o
        .upload(&o.owner, json!({ "fy": o.fy(), "text": corrected }))
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(
        again.body,
        json!({ "deductors": 5, "entries": 6, "matched": 2, "short": 1, "not_filed": 0, "not_booked": 2 })
    );
    assert_eq!(o.written(), (1, 5, 2));
    let chathannoor = o.report("q=chathannoor").await;
    assert_eq!(
        rows(&chathannoor),
        [row("Chathannoor SCB", "Q3", 50_000, Some(50_000), "awaited")]
    );
    // Another year has no upload: nothing filed there.
    let other = o
        .app
        .get(
            &format!(
                "/api/reports/tds-receivable?fy={}-{:02}",
                o.year + 1,
                (o.year + 2) % 100
            ),
            &o.manager,
        )
        .await;
    assert!(
        other.body["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["filed"].is_null())
    );
}

#[tokio::test]
async fn the_daily_scan_chases_a_deposit_once_the_return_date_has_passed() {
    let o = office().await;
    let reply = o
        .upload(&o.manager, json!({ "fy": o.fy(), "text": download(o.year) }))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let scan = |as_of: NaiveDate| {
        let app = &o.app;
        let owner = o.owner.clone();
        async move {
            let reply = app
                .post(
                    "/api/jobs/daily-scan",
                    &owner,
                    json!({ "as_of": as_of.to_string() }),
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
            reply.body["created"]["tds_not_filed"].as_i64().unwrap()
        }
    };
    // 31 Oct: Q2's return is due that day, not yet past; Q3's is not due either.
    assert_eq!(scan(o.day(10, 31)).await, 0);
    // 1 Nov: Piravom's Q2 is short; Chathannoor's Q3 return is due on 31 Jan.
    assert_eq!(scan(o.day(11, 1)).await, 1);
    assert_eq!(scan(o.day(2, 1)).await, 1);
    assert_eq!(scan(o.day(2, 2)).await, 0, "not twice");
    let keys: Vec<(String, String, String)> = o
        .app
        .sql()
        .prepare("SELECT idempotency_key, due_on, reason FROM reminder WHERE rule_kind = 'tds_not_filed' ORDER BY due_on")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let fy = o.fy();
    assert_eq!(
        keys,
        [
            (
                format!("tds_not_filed:{}:{fy}:Q2", o.piravom),
                o.day(10, 31).to_string(),
                format!(
                    "TDS of ₹2,000.00 booked for Q2 {fy} (July to September); Form 26AS shows ₹1,500.00 \
                     deposited by TAN CHNP00456B. The return was due on 31 Oct {}.",
                    o.year
                )
            ),
            (
                format!("tds_not_filed:{}:{fy}:Q3", o.chathannoor),
                o.day(1, 31).to_string(),
                format!(
                    "TDS of ₹500.00 booked for Q3 {fy} (October to December); Form 26AS shows ₹0.00 \
                     deposited by TAN CLTC00321C. The return was due on 31 Jan {}.",
                    o.year + 1
                )
            ),
        ]
    );
    // In the queue under its kind.
    let listed = o
        .app
        .get("/api/reminders?rule_kind=tds_not_filed", &o.manager)
        .await;
    assert_eq!(listed.body["total"], 2, "{}", listed.text);
}

#[tokio::test]
async fn a_quarter_whose_return_is_not_due_yet_is_not_called_unfiled() {
    let o = office().await;
    // This year: Kadakkal paid today with TDS; its quarter's return is due after today.
    let today = o.app.state.db.read_blocking(office_today).unwrap();
    let kadakkal: String = o
        .app
        .sql()
        .query_row("SELECT id FROM client WHERE tan = 'TVDK01234A'", [], |r| r.get(0))
        .unwrap();
    paid_with_tds(&o.app, &o.owner, &kadakkal, today, 300_000).await;
    // This year's statement so far shows another deductor only.
    let year = o.year + 1;
    let text = download(o.year)
        .replace(
            &format!("^{}-{}^", o.year, o.year + 1),
            &format!("^{year}-{}^", year + 1),
        )
        .split("1^KADAKKAL")
        .next()
        .unwrap()
        .to_string()
        + &format!(
            "1^THE KERALA STATE CO-OPERATIVE BANK LTD^CHEK00999X^^^^^7000.00^700.00^700.00\n\
             ^Sr. No.^Section^Transaction Date^Status of Booking^Date of Booking^Remarks^Amount Paid / Credited(Rs.)^Tax Deducted(Rs.)^TDS Deposited(Rs.)\n\
             ^1^194A^01-Apr-{year}^F^31-Jul-{year}^^7000.00^700.00^700.00\n"
        );
    let fy = format!("{year}-{:02}", (year + 1) % 100);
    let reply = o.upload(&o.manager, json!({ "fy": fy, "text": text })).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["not_filed"], 0, "{}", reply.text);
    let report = o
        .app
        .get(&format!("/api/reports/tds-receivable?fy={fy}"), &o.manager)
        .await;
    assert_eq!(
        rows(&report.body),
        [row(
            "Kadakkal SCB",
            report.body["rows"][0]["quarter"].as_str().unwrap(),
            30_000,
            None,
            "awaited"
        )]
    );
}

#[tokio::test]
async fn an_upload_made_before_the_return_date_does_not_chase() {
    let o = office().await;
    let reply = o
        .upload(&o.manager, json!({ "fy": o.fy(), "text": download(o.year) }))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // As if uploaded on 30 Oct: Q2's return was not yet due, so 26AS could not show its deposit.
    o.app
        .sql()
        .execute(
            "UPDATE tds_26as SET imported_on = ?1",
            [o.day(10, 30).to_string()],
        )
        .unwrap();
    let reply = o
        .app
        .post(
            "/api/jobs/daily-scan",
            &o.owner,
            json!({ "as_of": o.day(11, 5).to_string() }),
        )
        .await;
    assert_eq!(reply.body["created"]["tds_not_filed"], 0, "{}", reply.text);
}

#[tokio::test]
async fn bad_files_other_years_other_pans_and_staff_are_refused_and_nothing_is_written() {
    let o = office().await;
    let good = download(o.year);
    let refused = |reply: &crate::common::Reply, status: StatusCode, code: &str, field: &str| {
        assert_eq!(reply.status, status, "{}", reply.text);
        assert_eq!(reply.body["error"]["code"], code, "{}", reply.text);
        assert_eq!(reply.body["error"]["field"], field, "{}", reply.text);
    };
    // Staff may not upload.
    let staff = o.upload(&o.staff, json!({ "fy": o.fy(), "text": good })).await;
    assert_eq!(staff.status, StatusCode::FORBIDDEN);
    // Missing and wrong fields.
    refused(
        &o.upload(&o.manager, json!({ "text": good })).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "required",
        "fy",
    );
    refused(
        &o.upload(&o.manager, json!({ "fy": "2025", "text": good })).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_fy",
        "fy",
    );
    refused(
        &o.upload(&o.manager, json!({ "fy": o.fy() })).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "required",
        "text",
    );
    refused(
        &o.upload(&o.manager, json!({ "fy": o.fy(), "text": 26 })).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_value",
        "text",
    );
    let unknown = o
        .upload(&o.manager, json!({ "fy": o.fy(), "text": good, "pan": "X" }))
        .await;
    assert_eq!(
        unknown.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        unknown.text
    );
    // Another year's statement.
    let other_year = o
        .upload(
            &o.manager,
            json!({ "fy": format!("{}-{:02}", o.year - 1, o.year % 100), "text": good }),
        )
        .await;
    refused(&other_year, StatusCode::UNPROCESSABLE_ENTITY, "fy_mismatch", "fy");
    assert!(
        other_year.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&format!("of {}", o.fy()))
    );
    // Another PAN's statement.
    let other_pan = o
        .upload(
            &o.manager,
            json!({ "fy": o.fy(), "text": good.replace("AABCK1234L", "AAACZ9999Q") }),
        )
        .await;
    refused(
        &other_pan,
        StatusCode::UNPROCESSABLE_ENTITY,
        "pan_mismatch",
        "text",
    );
    // Not a 26AS, a cut file, an edited amount: the line is named.
    for (text, says) in [
        ("Name,Amount\nKadakkal,1000\n".to_string(), "This is not the text download of Form 26AS".to_string()),
        (
            good.lines().take(13).collect::<Vec<_>>().join("\n"),
            "Line 11: the totals of PIRAVOM WOMEN'S CO-OP SOCIETY & STORES (CHNP00456B) are not the sum of its entries"
                .to_string(),
        ),
        (good.replace("^15000.00^1500.00^1500.00", "^15000.00^1500.00^15OO.00"), "Line 13: the TDS deposited '15OO.00'".into()),
    ] {
        let reply = o.upload(&o.manager, json!({ "fy": o.fy(), "text": text })).await;
        refused(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid_26as", "text");
        let message = reply.body["error"]["message"].as_str().unwrap();
        assert!(message.contains(&says), "{message}");
    }
    // Not JSON at all, and a body past the limit.
    let not_json = o
        .app
        .send(
            crate::common::Call::new(axum::http::Method::POST, "/api/tds/26as")
                .cookie(&o.manager)
                .raw(FIXTURE, Some("text/plain")),
        )
        .await;
    assert!(not_json.status.is_client_error(), "{}", not_json.text);
    assert_eq!(o.written(), (0, 0, 0));
    // An earlier good upload is kept whole when a later one is refused.
    assert_eq!(
        o.upload(&o.manager, json!({ "fy": o.fy(), "text": good }))
            .await
            .status,
        StatusCode::OK
    );
    let cut = good.lines().take(16).collect::<Vec<_>>().join("\n");
    let cut = o.upload(&o.manager, json!({ "fy": o.fy(), "text": cut })).await;
    assert_eq!(cut.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", cut.text);
    assert_eq!(o.written(), (1, 4, 1));
}
