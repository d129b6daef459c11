//! TDS certificates on the large office (issue 21): the TDS receivable of the quarter that ended
//! last (its Form 16A mostly due or just past due), page 1, at one client next to its floor (the
//! operation the handler calls, on a read-only connection, after the same session lookup).

use crate::reads::{Fixture, Kind, ReadScenario, Reader, first_page, read_as};
use backoffice::tds::Asked;
use backoffice::tds::rules::quarter_of;

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
