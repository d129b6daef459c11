//! What is read of tickets: the list with its chips, one ticket with its timeline and bill,
//! and the still-open counts of the dashboard and the cockpit.

use crate::auth::session::AuthUser;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::AppError;
use crate::tickets::settings::clock;
use crate::tickets::store::visible_ticket;
use crate::tickets::store::{self, Ticket, TicketBill, TicketEvent, TicketFilter};
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// A ticket with its timeline and the live bill raised from it, if any.
#[derive(Debug, Serialize, ToSchema)]
pub struct TicketDetail {
    #[serde(flatten)]
    pub ticket: Ticket,
    pub events: Vec<TicketEvent>,
    /// The bill raised from it that is not cancelled.
    pub bill: Option<TicketBill>,
}

/// One page of the list with the chips' counts and the kinds already used.
pub struct Listed {
    pub page: Paginated<Ticket>,
    pub counts: BTreeMap<String, i64>,
    pub kind_suggestions: Vec<String>,
    pub sla_days: i64,
}

/// The ticket list as `filter` selects it (the caller has put the user's share in it). A
/// search in the list's own order is one read of the tickets it finds (`store::searched`).
pub fn list(conn: &Connection, filter: &TicketFilter, page: &Page) -> Result<Listed, AppError> {
    let clock = clock(conn)?;
    let (page, counts) = match store::searched(conn, filter, clock, page)? {
        Some(found) => found,
        None => (
            store::list(filter, clock).page(conn, page)?,
            store::counts(conn, filter, clock)?,
        ),
    };
    Ok(Listed {
        page,
        counts,
        kind_suggestions: store::kind_suggestions(conn, filter.book.as_deref())?,
        sla_days: clock.sla_days,
    })
}

/// The ticket with its timeline, if it is in the user's share.
pub fn detail(conn: &Connection, user: &AuthUser, id: &str) -> Result<TicketDetail, AppError> {
    let ticket = visible_ticket(conn, user, id, clock(conn)?)?;
    Ok(TicketDetail {
        events: store::events(conn, id)?,
        bill: store::live_bill(conn, id)?,
        ticket,
    })
}

/// The still-open tickets of `book`'s share (None: every ticket), and those past the SLA.
pub fn still_open(conn: &Connection, book: Option<String>) -> Result<(i64, i64), AppError> {
    let clock = clock(conn)?;
    let count = |overdue: bool| -> Result<i64, AppError> {
        let filter = TicketFilter {
            chip: "still_open".into(),
            overdue,
            book: book.clone(),
            ..Default::default()
        };
        Ok(store::counts(conn, &filter, clock)?
            .get("still_open")
            .copied()
            .unwrap_or(0))
    };
    Ok((count(false)?, count(true)?))
}

/// How many tickets were still open at the end of each of `days` (in order): opened by then
/// and not resolved by then. Read from the tickets opened and closed per day that
/// migrations/V29 keeps (`ticket_day`): those open at the first day, then each day's change.
pub fn still_open_at(conn: &Connection, days: &[NaiveDate]) -> Result<Vec<i64>, AppError> {
    let (Some(first), Some(last)) = (days.iter().min(), days.iter().max()) else {
        return Ok(vec![]);
    };
    let (first, last) = (first.to_string(), last.to_string());
    let (open, changes) = store::open_by_day(conn, &first, &last)?;
    Ok(days
        .iter()
        .map(|day| {
            let day = day.to_string();
            open + changes
                .iter()
                .take_while(|(on, _)| *on <= day)
                .map(|(_, change)| change)
                .sum::<i64>()
        })
        .collect())
}
