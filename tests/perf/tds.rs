//! TDS certificates on the large office (issue 21): the TDS receivable of the quarter that ended
//! last (its Form 16A mostly due or just past due), page 1, at one client next to its floor (the
//! operation the handler calls, on a read-only connection, after the same session lookup).

use crate::reads::{Fixture, Kind, ReadScenario, Reader, first_page, read_as};
use backoffice::plumbing::clock::quarter_of;
use backoffice::tds::Asked;

pub fn scenarios(f: &Fixture) -> Vec<ReadScenario> {
    let (fy, this) = quarter_of(f.today);
    let (fy, quarter) = quarter_of(fy.quarter_first(this).pred_opt().unwrap());
    let asked = Asked {
        fy: Some(fy.to_string()),
        quarter: Some(quarter.as_str().to_string()),
        state: None,
        q: None,
    };
    vec![read_as(
        f,
        Reader::Manager,
        &format!(
            "TDS receivable, one quarter (/api/reports/tds-receivable?fy={fy}&quarter={}), page 1",
            quarter.as_str()
        ),
        Kind::AtOneClient(100.0),
        format!("/api/reports/tds-receivable?fy={fy}&quarter={}", quarter.as_str()),
        move |c| {
            let report = backoffice::tds::receivable(c, &asked, &first_page()).unwrap();
            assert!(
                report.page.total > 100,
                "too few societies deducted TDS in a quarter"
            );
        },
    )]
}

/// The body of a Form 26AS upload of last financial year on the large office: the demo's
/// statement made from its receipts (tens of thousands of entries).
pub fn form26as_body(db: &backoffice::plumbing::db::Db, f: &Fixture) -> (String, String) {
    let fy = backoffice::plumbing::clock::Fy::of(f.today).previous();
    let text = db
        .read_blocking(move |c| backoffice::demo::form26as::text(c, fy, f.today, 26))
        .unwrap();
    let body = serde_json::json!({ "fy": fy.to_string(), "text": text }).to_string();
    (fy.to_string(), body)
}

/// Uploads last year's Form 26AS (`POST /api/tds/26as`, a new upload replacing the last).
pub fn upload_26as(f: &Fixture, body: String) -> crate::http::Work {
    let (cookie, body) = (f.manager.clone(), std::sync::Arc::new(body));
    std::sync::Arc::new(move |c: &mut crate::http::Client, _, _| {
        let reply = c.post("/api/tds/26as", &cookie, &body, 200);
        assert!(
            reply.json()["entries"].as_i64().unwrap() > 1_000,
            "too few entries"
        );
    })
}

/// The floor of [`upload_26as`]: the handler's transaction on the same statement.
pub fn upload_26as_directly(db: &backoffice::plumbing::db::Db, f: &Fixture, fy: &str, text: &str) {
    let user = crate::writes::manager(f);
    let input = backoffice::tds::Form26asInput {
        fy: Some(serde_json::json!(fy)),
        text: Some(serde_json::json!(text)),
    };
    db.write_blocking(move |tx| backoffice::tds::import_26as(tx, &user, input))
        .unwrap();
}
