//! The owner's cockpit (spec 4.7 `GET /reports/mis`; issue 20): this month against last month
//! for what was billed and collected, what the office is owed, the open pipeline, the renewals
//! of the next 30 days, open tickets and those past the SLA, the reminder queue and the low SMS
//! balances, each read through the area behind it for the whole office. Where the past can be
//! read, a tile has a 12-month series for its sparkline: billed and collected from the monthly
//! figures kept by migrations/V17, what was owed at each month's end from today's kept total
//! less what each later month added, and the tickets still open at each month's end from their
//! opened and resolved days. The renewals, the reminder queue and the SMS balances keep no past,
//! so those tiles have today's figure only.

use super::cockpit_store as store;
use super::home::{RENEWAL_DAYS, RenewalsTile};
use crate::pipeline::{self, Bands};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::renewals;
use crate::revenue::rules::Months;
use crate::revenue::store as revenue_store;
use crate::sms::report as sms_report;
use crate::tickets;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// How many months the sparklines cover, this one included.
pub const SERIES_MONTHS: i32 = 12;

/// This month against last month, with the months of the series.
#[derive(Debug, Serialize, ToSchema)]
pub struct Trend {
    pub this_month: i64,
    pub last_month: i64,
    /// One per month of `Mis::months`, paise.
    pub series: Vec<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OutstandingTile {
    /// What issued invoices still owe now, paise.
    pub total: i64,
    /// Owed at the end of each month of `Mis::months` (this month: now).
    pub series: Vec<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PipelineTile {
    /// Open quotations' totals, paise.
    pub open_value: i64,
    pub open_count: i64,
    /// The open pipeline by stage: leads without a quotation yet (Enquiry), and the quotations
    /// waiting (Quoted/Waiting) by follow-up band.
    pub enquiries: i64,
    pub bands: Bands,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TicketTile {
    pub open: i64,
    pub past_sla: i64,
    /// Still open at the end of each month of `Mis::months` (this month: today).
    pub series: Vec<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReminderQueue {
    pub open: i64,
    pub failed: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SmsTile {
    pub low: i64,
    pub threshold: i64,
}

/// The cockpit.
#[derive(Debug, Serialize, ToSchema)]
pub struct Mis {
    #[schema(format = Date)]
    pub as_of: String,
    /// YYYY-MM.
    pub month: String,
    pub last_month: String,
    /// The series' months, oldest first, ending with this one.
    pub months: Vec<String>,
    /// Issued invoices less credit notes, GST included, by document date.
    pub billed: Trend,
    /// Payments received, by the day received.
    pub collections: Trend,
    pub outstanding: OutstandingTile,
    pub pipeline: PipelineTile,
    pub renewals: RenewalsTile,
    pub tickets: TicketTile,
    pub reminders: ReminderQueue,
    pub sms: SmsTile,
}

/// The cockpit of the whole office on its today.
pub fn mis(conn: &Connection) -> Result<Mis, AppError> {
    let today = settings::office_today(conn)?;
    let range = Months::ending(today, SERIES_MONTHS);
    let months = revenue_store::office_months(conn, range)?;
    let trend = |pick: fn(&revenue_store::OfficeMonth) -> i64| {
        let series: Vec<i64> = months.iter().map(|(_, m)| pick(m)).collect();
        Trend {
            this_month: series[series.len() - 1],
            last_month: series[series.len() - 2],
            series,
        }
    };
    let total = revenue_store::outstanding_now(conn)?;
    // Owed at the end of a month: today's total less what every later month added.
    let mut end = total - revenue_store::owed_since(conn, &range.to_text())?;
    let mut owed = vec![0; months.len()];
    for (i, (_, m)) in months.iter().enumerate().rev() {
        owed[i] = end;
        end -= m.owed;
    }
    let month_ends: Vec<NaiveDate> = range.each().map(|m| m.last_day().min(today)).collect();
    let quotes = pipeline::open_quotes(conn, None)?;
    let (renewals, renewal_amount) = renewals::due_within_on(conn, RENEWAL_DAYS, None, today)?;
    let (open, past_sla) = tickets::still_open(conn, None)?;
    let (queued, failed) = store::reminder_queue(conn)?;
    let (low, threshold) = sms_report::low_count(conn, None)?;
    Ok(Mis {
        as_of: today.to_string(),
        month: range.to_text(),
        last_month: months[months.len() - 2].0.clone(),
        billed: trend(|m| m.billed),
        collections: trend(|m| m.collected),
        outstanding: OutstandingTile { total, series: owed },
        pipeline: PipelineTile {
            open_value: quotes.value,
            open_count: quotes.count,
            enquiries: quotes.enquiries,
            bands: quotes.bands,
        },
        renewals: RenewalsTile {
            count: renewals,
            amount: renewal_amount,
            days: RENEWAL_DAYS,
        },
        tickets: TicketTile {
            open,
            past_sla,
            series: tickets::still_open_at(conn, &month_ends)?,
        },
        reminders: ReminderQueue { open: queued, failed },
        sms: SmsTile { low, threshold },
        months: months.into_iter().map(|(m, _)| m).collect(),
    })
}
