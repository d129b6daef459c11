//! The daily scan's TDS reminders: `tds_certificate_due` (a Form 16A past its statutory day)
//! and `tds_not_filed` (TDS booked but not deposited, once the quarter's return was due).

use crate::plumbing::error::AppError;
use crate::reminders::store::{Due, blank};
use crate::tds::receivable::quarter_rows;
use crate::tds::rules;
use crate::tds::store;
use chrono::NaiveDate;
use rusqlite::Connection;
use std::collections::HashSet;

/// The reminder kinds this area raises: a Form 16A past its date, and TDS booked but not
/// deposited as Form 26AS shows.
pub const REMINDER_KIND: &str = "tds_certificate_due";
pub const NOT_FILED_KIND: &str = "tds_not_filed";

/// The `tds_not_filed` reminders of the daily scan on `as_of`: every client and quarter whose
/// TDS return fell due in the year before `as_of` (at most [`rules::LOOKBACK_DAYS`] back) and
/// whose TDS booked is not all deposited, as an upload of Form 26AS made after that day shows
/// (an earlier upload cannot show the quarter yet). One per client and quarter; the client's
/// account owner owns it.
fn not_filed_due(conn: &Connection, as_of: NaiveDate) -> Result<Vec<Due>, AppError> {
    let mut out = vec![];
    for (fy, q) in rules::quarters_overdue(as_of, rules::return_due) {
        let due_on = rules::return_due(fy, q);
        if store::upload_of(conn, fy)?.is_none_or(|u| u.imported_on <= due_on) {
            continue;
        }
        for row in quarter_rows(conn, fy, Some(q))? {
            let Some(filed) = row.filed else { continue };
            if filed >= row.booked {
                continue;
            }
            out.push(Due {
                key: format!("{NOT_FILED_KIND}:{}:{fy}:{}", row.client_id, q.as_str()),
                owner_id: store::deductor_of(conn, &row.client_id)?.and_then(|d| d.owner_id),
                reason: rules::not_filed_reason(fy, q, row.booked, filed, row.tan.as_deref()),
                ..blank(NOT_FILED_KIND, row.client_id, due_on)
            });
        }
    }
    Ok(out)
}

/// The reminders of the daily scan on `as_of`: `tds_not_filed` ([`not_filed_due`]), and
/// `tds_certificate_due`: every client and quarter
/// whose Form 16A fell due in the year before `as_of` (`due_on < as_of`, at most
/// [`rules::LOOKBACK_DAYS`] back), with TDS booked and no certificate. One per client and
/// quarter (the key holds the client, the financial year and the quarter); the client's
/// account owner owns it.
pub fn reminders_due(conn: &Connection, as_of: NaiveDate) -> Result<Vec<Due>, AppError> {
    let mut out = vec![];
    for (fy, q) in rules::quarters_overdue(as_of, rules::certificate_due) {
        let certified: HashSet<String> = store::certificates(conn, fy, Some(q))?
            .into_iter()
            .map(|(d, _)| d.client_id)
            .collect();
        let due_on = rules::certificate_due(fy, q);
        for b in store::booked(conn, fy.quarter_first(q), fy.quarter_last(q))? {
            if b.booked <= 0 || certified.contains(&b.deductor.client_id) {
                continue;
            }
            let client_id = b.deductor.client_id;
            out.push(Due {
                key: format!("{REMINDER_KIND}:{client_id}:{fy}:{}", q.as_str()),
                owner_id: b.deductor.owner_id,
                reason: rules::reason(fy, q, b.booked, due_on),
                ..blank(REMINDER_KIND, client_id, due_on)
            });
        }
    }
    out.extend(not_filed_due(conn, as_of)?);
    Ok(out)
}
