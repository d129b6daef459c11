//! What the office sees at a glance on the large office (issue 20): the home dashboard of every
//! book, the owner's cockpit, and the module revenue and client profitability of the last whole
//! financial year, each at 1 and 16 clients next to its floor (the operation the handler calls,
//! on a read-only connection, after the same session lookup).

use crate::reads::{Fixture, Kind, ReadScenario, Reader, read_as};
use backoffice::revenue::rules::{Months, Start};
use chrono::Datelike;

pub fn scenarios(f: &Fixture) -> Vec<ReadScenario> {
    // The last whole financial year: April to March before the current one.
    let start = if f.today.month() >= 4 {
        f.today.year() - 1
    } else {
        f.today.year() - 2
    };
    let fy = format!("{start}-{:02}", (start + 1) % 100);
    let months = Months::asked(None, None, Some(&fy), f.today, Start::FinancialYear).unwrap();
    vec![
        read_as(
            f,
            Reader::Manager,
            "dashboard (/api/dashboard), every book",
            Kind::AtOneClient(30.0),
            "/api/dashboard",
            |c| {
                let d = backoffice::dashboard::dashboard(c, None).unwrap();
                assert!(d.quotes.count > 0, "no open quotations");
            },
        ),
        read_as(
            f,
            Reader::Owner,
            "cockpit (/api/reports/mis), the owner's",
            Kind::Report,
            "/api/reports/mis",
            |c| {
                let mis = backoffice::cockpit::mis(c).unwrap();
                assert!(
                    mis.billed.series.iter().any(|v| *v > 0),
                    "nothing billed in a year"
                );
            },
        ),
        read_as(
            f,
            Reader::Manager,
            &format!("module revenue (/api/reports/module-revenue?fy={fy}), a financial year"),
            Kind::Report,
            format!("/api/reports/module-revenue?fy={fy}"),
            move |c| {
                let report = backoffice::revenue::module_revenue(c, months, None).unwrap();
                assert!(report.total > 0, "no module revenue");
            },
        ),
        read_as(
            f,
            Reader::Manager,
            &format!(
                "client profitability (/api/reports/client-profitability?fy={fy}), a financial year, page 1"
            ),
            Kind::Report,
            format!("/api/reports/client-profitability?fy={fy}"),
            move |c| {
                let (rows, _) = backoffice::revenue::profitability(c, months, None, None).unwrap();
                assert!(rows.len() > 1000, "too few clients billed in a year");
            },
        ),
    ]
}
