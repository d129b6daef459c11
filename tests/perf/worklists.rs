//! The day's worklists on the large office (issue 19): the pipeline, the renewals of the next 60
//! days with their total, and the ticket list with its chips' counts and kind suggestions, each
//! read as a manager reads it (every book) at 1 and 16 clients next to its floor: the same
//! operation the handler calls, on a read-only connection, after the same session lookup.

use crate::reads::{Fixture, Floor, Kind, PathOf, ReadScenario};
use backoffice::db::page::Page;
use backoffice::pipeline::store::{PipelineFilter, Show};
use backoffice::renewals::store::RenewalFilter;
use backoffice::tickets::store::TicketFilter;
use rusqlite::Connection;
use std::sync::Arc;

fn first_page() -> Page {
    Page {
        page: 1,
        per_page: 50,
        after: None,
        sort: None,
    }
}

/// A scenario of the manager's reading `path`, whose floor is `work` after the session lookup.
fn scenario(
    f: &Fixture,
    name: &str,
    kind: Kind,
    path: &'static str,
    work: impl Fn(&Connection) + Send + Sync + 'static,
) -> ReadScenario {
    let hash = f.manager_hash.clone();
    let floor: Floor = Arc::new(move |c, _| {
        backoffice::auth::store::session_by_hash(c, &hash)
            .unwrap()
            .unwrap();
        work(c);
    });
    let path: PathOf = Arc::new(move |_| path.to_string());
    ReadScenario {
        name: name.to_string(),
        kind,
        path,
        cookie: f.manager.clone(),
        floor,
    }
}

pub fn scenarios(f: &Fixture) -> Vec<ReadScenario> {
    let pipeline = |show: Show| {
        move |c: &Connection| {
            let filter = PipelineFilter {
                show,
                q: None,
                owner_id: None,
                book: None,
            };
            let page = backoffice::pipeline::listing(c, filter)
                .unwrap()
                .page(c, &first_page())
                .unwrap();
            assert!(page.total > 0, "an empty pipeline");
        }
    };
    let tickets = |filter: TicketFilter| {
        move |c: &Connection| {
            let listed = backoffice::tickets::list(c, &filter, &first_page()).unwrap();
            assert!(listed.page.total > 0, "no tickets");
        }
    };
    vec![
        scenario(
            f,
            "pipeline (/api/pipeline), open conversations",
            Kind::List,
            "/api/pipeline",
            pipeline(Show::Open),
        ),
        scenario(
            f,
            "pipeline (/api/pipeline?filter=lost), lost ones",
            Kind::List,
            "/api/pipeline?filter=lost",
            pipeline(Show::Lost),
        ),
        scenario(
            f,
            "renewals (/api/renewals), the next 60 days with their total",
            Kind::Report,
            "/api/renewals",
            |c: &Connection| {
                let today = backoffice::db::settings::office_today(c).unwrap();
                let (from, to) = backoffice::renewals::rules::range(None, None, today).unwrap();
                let filter = RenewalFilter {
                    from,
                    to,
                    kind: None,
                    q: None,
                    book: None,
                };
                let listed = backoffice::renewals::page(c, &filter, &first_page()).unwrap();
                assert!(listed.total > 0, "no renewals");
            },
        ),
        scenario(
            f,
            "tickets (/api/tickets), still open with the chips' counts",
            Kind::List,
            "/api/tickets",
            tickets(TicketFilter {
                chip: "still_open".into(),
                ..Default::default()
            }),
        ),
        scenario(
            f,
            "tickets (/api/tickets?chip=all&search=printer), searched",
            Kind::List,
            "/api/tickets?chip=all&search=printer",
            tickets(TicketFilter {
                chip: "all".into(),
                search: Some("printer".into()),
                ..Default::default()
            }),
        ),
    ]
}
