//! The GSTR-1 export on the large office (issue 21): the last whole month's return, summary and
//! portal JSON, at 1 client next to its floor (the operation the handler calls, on a read-only
//! connection, after the same session lookup).

use crate::reads::{Fixture, Kind, ReadScenario, Reader, read_as};
use backoffice::gst_return::portal;
use backoffice::plumbing::clock::Month;

pub fn scenarios(f: &Fixture) -> Vec<ReadScenario> {
    let month = Month::of(f.today).previous();
    vec![
        read_as(
            f,
            Reader::Manager,
            &format!("GSTR-1 (/api/reports/gstr1?period={month}), last month's summary"),
            Kind::AtOneClient(100.0),
            format!("/api/reports/gstr1?period={month}"),
            move |c| {
                let (g, _) = backoffice::gst_return::gstr1(c, month).unwrap();
                assert!(
                    g.sections.b2b.count > 100 && g.sections.b2cs.count > 0,
                    "a thin month"
                );
            },
        ),
        read_as(
            f,
            Reader::Manager,
            &format!("GSTR-1 portal JSON (/api/reports/gstr1?period={month}&format=portal)"),
            Kind::AtOneClient(100.0),
            format!("/api/reports/gstr1?period={month}&format=portal"),
            move |c| {
                let (g, gstin) = backoffice::gst_return::gstr1(c, month).unwrap();
                let json = portal::portal(&g, gstin.as_deref().unwrap_or_default(), month).to_string();
                assert!(json.len() > 10_000, "a thin file");
            },
        ),
    ]
}
