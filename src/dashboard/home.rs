//! The home dashboard (spec 1 function 10, 4.9; issue 20): what needs the user today, each tile
//! read through the area behind it, so a tile's count is the count of the list it links to:
//! open quotations by follow-up band (the pipeline), overdue invoices, today's and overdue
//! reminders, tickets past the SLA, stalled projects, low SMS balances and the renewals of the
//! next 30 days. A staff user sees their book; owner and manager everything, or their own
//! book with `mine=1`.

use super::store;
use crate::pipeline::{self, OpenQuotes};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::projects::milestones;
use crate::renewals;
use crate::sms::report as sms_report;
use crate::tickets;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// How far ahead the renewals tile looks.
pub const RENEWAL_DAYS: u64 = 30;

#[derive(Debug, Serialize, ToSchema)]
pub struct CountAmount {
    pub count: i64,
    /// Paise.
    pub amount: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RemindersTile {
    pub due_today: i64,
    pub overdue: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TicketsTile {
    pub still_open: i64,
    pub past_sla: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StalledTile {
    pub count: i64,
    pub stall_days: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LowSmsTile {
    pub count: i64,
    pub threshold: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RenewalsTile {
    pub count: i64,
    /// Paise before GST (renewals without a price count as nothing).
    pub amount: i64,
    pub days: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Dashboard {
    #[schema(format = Date)]
    pub as_of: String,
    /// Whether the figures are one book's (a staff user's, or `mine=1`).
    pub mine: bool,
    pub quotes: OpenQuotes,
    pub overdue_invoices: CountAmount,
    pub reminders: RemindersTile,
    pub tickets: TicketsTile,
    pub stalled_projects: StalledTile,
    pub low_sms: LowSmsTile,
    pub renewals: RenewalsTile,
}

/// The dashboard of `book` (`crate::book`; None: every book).
pub fn dashboard(conn: &Connection, book: Option<String>) -> Result<Dashboard, AppError> {
    let today = settings::office_today(conn)?;
    let (overdue_count, overdue_amount) = store::overdue_invoices(conn, today, book.as_deref())?;
    let (due_today, overdue) = store::reminders_due(conn, today, book.as_deref())?;
    let (still_open, past_sla) = tickets::still_open(conn, book.clone())?;
    let (stalled, stall_days) = milestones::stalled_count(conn, book.as_deref(), today)?;
    let (low, threshold) = sms_report::low_count(conn, book.clone())?;
    let (renewals, renewal_amount) = renewals::due_within_on(conn, RENEWAL_DAYS, book.clone(), today)?;
    Ok(Dashboard {
        as_of: today.to_string(),
        mine: book.is_some(),
        quotes: pipeline::open_quotes(conn, book)?,
        overdue_invoices: CountAmount {
            count: overdue_count,
            amount: overdue_amount,
        },
        reminders: RemindersTile { due_today, overdue },
        tickets: TicketsTile { still_open, past_sla },
        stalled_projects: StalledTile {
            count: stalled,
            stall_days,
        },
        low_sms: LowSmsTile {
            count: low,
            threshold,
        },
        renewals: RenewalsTile {
            count: renewals,
            amount: renewal_amount,
            days: RENEWAL_DAYS,
        },
    })
}
