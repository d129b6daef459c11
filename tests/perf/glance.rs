//! What the office sees at a glance on the large office (issue 20): the home dashboard of every
//! book, the owner's cockpit, the module revenue and client profitability of the last whole
//! financial year, the global search, the portals list, the module data directory and the cloud
//! costs, each at 1 and 16 clients next to its floor (the operation the handler calls, on a
//! read-only connection, after the same session lookup).

use crate::reads::{Fixture, Kind, ReadScenario, Reader, first_page, read_as};
use backoffice::cloud_costs::store::CostFilter;
use backoffice::directory::store::{ModuleDataFilter, PortalFilter};
use backoffice::revenue::rules::{Months, Start};
use backoffice::search::rules::Groups;
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
                let mis = backoffice::dashboard::mis(c).unwrap();
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
                let (rows, _) = backoffice::revenue::profitability(c, months, None, None, None).unwrap();
                assert!(rows.len() > 1000, "too few clients billed in a year");
            },
        ),
        search(f, "a part of a client's name", f.name_q.clone()),
        search(
            f,
            "text nothing holds (every group read to its end)",
            "zzqx".into(),
        ),
        // Issue 34: a phone number is one pass over the client and contact phones (no suffix
        // table; docs/api/search.md); a part of a receipt number walks the receipt index.
        search(
            f,
            "a phone number (every client and contact phone read)",
            "9447099999".into(),
        ),
        search(f, "a part of a receipt number", "27-0004".into()),
        read_as(
            f,
            Reader::Manager,
            "portals (/api/portals), every book, page 1",
            Kind::List,
            "/api/portals",
            |c| {
                let filter = PortalFilter {
                    module_id: None,
                    provider: None,
                    q: None,
                    active: None,
                    book: None,
                };
                let page = backoffice::directory::portals_page(c, filter, &first_page()).unwrap();
                assert!(page.total > 100, "too few portal logins");
            },
        ),
        {
            let module = f.roster_module.clone();
            read_as(
                f,
                Reader::Manager,
                "module data (/api/module-data), the module with the most subscribers, page 1",
                Kind::List,
                format!("/api/module-data?module_id={module}"),
                move |c| {
                    let filter = ModuleDataFilter {
                        module_id: module.clone(),
                        q: None,
                        active: None,
                        book: None,
                    };
                    let page = backoffice::directory::module_data_page(c, filter, &first_page()).unwrap();
                    assert!(page.page.total > 1000, "too few subscribers");
                },
            )
        },
        read_as(
            f,
            Reader::Manager,
            "cloud costs (/api/cloud-costs), newest month first, page 1",
            Kind::List,
            "/api/cloud-costs",
            |c| {
                let filter = CostFilter {
                    month: None,
                    client_id: None,
                    q: None,
                    source: None,
                    book: None,
                };
                let page = backoffice::cloud_costs::list(c, filter, &first_page()).unwrap();
                assert!(page.total > 10_000, "too few cloud costs");
            },
        ),
        read_as(
            f,
            Reader::Manager,
            "cloud-cost ranking (/api/cloud-costs/ranking), the last 12 months",
            Kind::Report,
            "/api/cloud-costs/ranking",
            |c| {
                let ranking = backoffice::cloud_costs::ranking(c, None, None, None, &first_page()).unwrap();
                assert!(ranking.page.total > 1000, "too few clients on the cloud");
            },
        ),
    ]
}

/// The manager's global search for `q` (target: p99 ≤ 10 ms at one client).
fn search(f: &Fixture, what: &str, q: String) -> ReadScenario {
    let path = format!("/api/search?q={q}");
    read_as(
        f,
        Reader::Manager,
        &format!("global search (/api/search), {what}: `{q}`"),
        Kind::AtOneClient(10.0),
        path,
        move |c| {
            let groups = Groups {
                clients: true,
                documents: true,
                tickets: true,
                payments: true,
            };
            backoffice::search::search(c, Some(&q), groups, None).unwrap();
        },
    )
}
