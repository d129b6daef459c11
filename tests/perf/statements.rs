//! Statements of account on the large office (issue 35): the society with the most invoices,
//! over the last ten years, as JSON and as its PDF, and the year-end list of every society
//! owing (a statement each), next to their floors (the operations the
//! handlers call, on a read-only connection, after the same session lookup).

use crate::reads::{Fixture, Kind, ReadScenario, Reader, read_as};
use backoffice::statements::rules::Period;
use chrono::Datelike;

pub fn scenarios(f: &Fixture) -> Vec<ReadScenario> {
    let to = f.today;
    let from = to.with_year(to.year() - 10).unwrap().succ_opt().unwrap();
    let period = Period { from, to };
    let path = format!("/api/clients/{}/statement?from={from}&to={to}", f.biggest_client);
    let client = f.biggest_client.clone();
    let json = read_as(
        f,
        Reader::Manager,
        "statement of account, the biggest society, ten years (JSON)",
        Kind::AtOneClient(100.0),
        path.clone(),
        move |c| {
            let client = backoffice::clients::store::get(c, &client, None)
                .unwrap()
                .unwrap();
            let s = backoffice::statements::statement(c, &client, period).unwrap();
            assert!(s.rows.len() > 20, "too few rows for a ten-year statement");
        },
    );
    let client = f.biggest_client.clone();
    let pdf = read_as(
        f,
        Reader::Manager,
        "statement of account, the biggest society, ten years (PDF)",
        Kind::AtOneClient(200.0),
        path.replacen("/statement?", "/statement.pdf?", 1),
        move |c| {
            let client = backoffice::clients::store::get(c, &client, None)
                .unwrap()
                .unwrap();
            let s = backoffice::statements::statement(c, &client, period).unwrap();
            let lh = backoffice::company::letterhead::letterhead(c, &[]).unwrap();
            std::hint::black_box(backoffice::statements::pdf::statement_pdf(&s, &lh).unwrap());
        },
    );
    let year_end = read_as(
        f,
        Reader::Manager,
        "year-end statements, every society owing this financial year (/api/statements/year-end)",
        Kind::Report,
        "/api/statements/year-end",
        move |c| {
            let run = backoffice::statements::year_end::year_end(c, None).unwrap();
            assert!(run.rows.len() > 100, "too few societies owing at the year's end");
        },
    );
    vec![json, pdf, year_end]
}
