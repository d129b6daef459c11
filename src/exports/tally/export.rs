//! The export: the period asked for, and the envelope of a period's vouchers or ledgers written
//! in chunks as it goes.

use super::envelope::{Envelope, Report};
use super::settings::ledgers;
use super::{rules, store};
use crate::plumbing::clock::Fy;
use crate::plumbing::db::settings::office_today;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rules::Ledgers;
use rusqlite::Connection;

/// The export's period, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

impl Period {
    /// `tally-vouchers-<from>-to-<to>.xml` or `tally-ledgers-…`.
    pub fn file_name(&self, report: Report) -> String {
        let what = match report {
            Report::Vouchers => "vouchers",
            Report::Masters => "ledgers",
        };
        format!("tally-{what}-{}-to-{}.xml", self.from, self.to)
    }
}

/// The period asked for on the office's `today`: `to` defaults to today, `from` to 1 April of
/// the financial year of `to`; a `from` after `to` is a 422 `invalid_period` on `from`.
pub fn period(from: Option<NaiveDate>, to: Option<NaiveDate>, today: NaiveDate) -> Result<Period, AppError> {
    let to = to.unwrap_or(today);
    let from = from.unwrap_or_else(|| Fy::of(to).first_day());
    if from > to {
        return Err(AppError::invalid(
            "from",
            "invalid_period",
            format!("The period starts on {from}, after its end {to}."),
        ));
    }
    Ok(Period { from, to })
}

/// The period of a query on the office's today, and the ledger names in force: what the export
/// needs before it writes its first byte.
pub fn prepare(
    conn: &Connection,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<(Period, Ledgers), AppError> {
    let period = period(from, to, office_today(conn)?)?;
    Ok((period, ledgers(conn)?))
}

/// Writes the envelope of `report` for `period` with the ledger names `ledgers`, handing each
/// chunk of at least `chunk` bytes (and the last one) to `sink`.
pub fn export(
    conn: &Connection,
    period: Period,
    report: Report,
    ledgers: &Ledgers,
    chunk: usize,
    mut sink: impl FnMut(Vec<u8>) -> Result<(), AppError>,
) -> Result<(), AppError> {
    let io = |e: std::io::Error| AppError::internal(format!("writing the Tally XML: {e}"));
    let mut envelope =
        Envelope::begin(Vec::with_capacity(chunk * 2), report, &ledgers.company_name).map_err(io)?;
    let mut drain = |envelope: &mut Envelope<Vec<u8>>| -> Result<(), AppError> {
        let buffer = envelope.writer.get_mut();
        if buffer.len() >= chunk {
            let full = std::mem::replace(buffer, Vec::with_capacity(chunk * 2));
            sink(full)?;
        }
        Ok(())
    };
    match report {
        Report::Masters => {
            for party in store::parties(conn, period.from, period.to)? {
                envelope.ledger(&party).map_err(io)?;
                drain(&mut envelope)?;
            }
        }
        Report::Vouchers => {
            store::sale_docs(conn, period.from, period.to, |doc| {
                envelope.voucher(&rules::sale(&doc, ledgers)).map_err(io)?;
                drain(&mut envelope)
            })?;
            store::payments(conn, period.from, period.to, |p| {
                envelope.voucher(&rules::receipt(&p, ledgers)).map_err(io)?;
                drain(&mut envelope)
            })?;
        }
    }
    let rest = envelope.end().map_err(io)?;
    sink(rest)
}

/// The whole envelope in memory (tests and the benchmark).
pub fn export_bytes(conn: &Connection, period: Period, report: Report) -> Result<Vec<u8>, AppError> {
    let ledgers = ledgers(conn)?;
    let mut out = vec![];
    export(conn, period, report, &ledgers, 64 * 1024, |bytes| {
        out.extend(bytes);
        Ok(())
    })?;
    Ok(out)
}
