//! The Tally export on the large office (issue 36): a year's vouchers (every issued invoice and
//! credit note and every recorded payment of the last twelve months, with their bill
//! allocations) as the streamed XML of `GET /api/exports/tally`, next to its floor (the same
//! export written to memory on a read-only connection, after the same session lookup).

use crate::reads::{Fixture, Kind, ReadScenario, Reader, read_as};
use backoffice::exports::tally::envelope::Report;
use backoffice::exports::tally::{self, Period};
use chrono::Datelike;

pub fn scenarios(f: &Fixture) -> Vec<ReadScenario> {
    let to = f.today;
    let from = to.with_year(to.year() - 1).unwrap().succ_opt().unwrap();
    let period = Period { from, to };
    let year = read_as(
        f,
        Reader::Manager,
        "Tally XML, a year's vouchers (/api/exports/tally)",
        Kind::Render,
        format!("/api/exports/tally?from={from}&to={to}"),
        move |c| {
            let xml = tally::export_bytes(c, period, Report::Vouchers).unwrap();
            assert!(
                xml.len() > 100_000,
                "too few vouchers for a year of the large office"
            );
        },
    );
    vec![year]
}
