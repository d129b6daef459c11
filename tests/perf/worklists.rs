//! The day's worklists on the large office (issue 19): the pipeline, the renewals of the next 60
//! days with their total, and the ticket list with its chips' counts and kind suggestions, each
//! read as a manager reads it (every book) at 1 and 16 clients next to its floor: the same
//! operation the handler calls, on a read-only connection, after the same session lookup.

use crate::reads::{Fixture, Kind, ReadScenario, Reader, first_page, read_as};
use backoffice::pipeline::store::{PipelineFilter, Show};
use backoffice::renewals::store::RenewalFilter;
use backoffice::tickets::store::TicketFilter;
use rusqlite::Connection;

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
        read_as(
            f,
            Reader::Manager,
            "pipeline (/api/pipeline), open conversations",
            Kind::List,
            "/api/pipeline",
            pipeline(Show::Open),
        ),
        read_as(
            f,
            Reader::Manager,
            "pipeline (/api/pipeline?filter=lost), lost ones",
            Kind::List,
            "/api/pipeline?filter=lost",
            pipeline(Show::Lost),
        ),
        read_as(
            f,
            Reader::Manager,
            "renewals (/api/renewals), the next 60 days with their total",
            Kind::Report,
            "/api/renewals",
            |c: &Connection| {
                let today = backoffice::plumbing::db::settings::office_today(c).unwrap();
                let (from, to) = backoffice::renewals::rules::range(None, None, today).unwrap();
                let filter = RenewalFilter {
                    from,
                    to,
                    kind: None,
                    q: None,
                    book: None,
                };
                let listed = backoffice::renewals::page(c, &filter, &first_page()).unwrap();
                assert!(listed.page.total > 0, "no renewals");
            },
        ),
        read_as(
            f,
            Reader::Manager,
            "tickets (/api/tickets), still open with the chips' counts",
            Kind::List,
            "/api/tickets",
            tickets(TicketFilter {
                chip: "still_open".into(),
                ..Default::default()
            }),
        ),
        read_as(
            f,
            Reader::Manager,
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
