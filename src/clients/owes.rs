//! What a client owes (decisions 12, issue 34): the client page's answer to "how much do we
//! owe?". Its invoices' outstanding, the part of it overdue, how many invoices are open, and the
//! advance its payments still hold. Overdue is `documents::rules::payment_state`'s, the same
//! rule the invoice list filters on and the dues aging buckets by, so the three agree.

use crate::documents::{rules as document_rules, store as document_store};
use crate::payments::store as payment_store;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// What a client owes, in paise.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Owes {
    /// The sum of its issued, not cancelled invoices' outstanding.
    pub outstanding: i64,
    /// The part of `outstanding` on invoices whose `payment_state` is overdue.
    pub overdue: i64,
    /// How many invoices owe something.
    pub open_invoices: i64,
    /// What its recorded payments hold unallocated (an advance), not netted off `outstanding`.
    pub unallocated: i64,
}

/// What the client `client_id` owes on the office's `today`. The caller has checked the book.
pub fn owes(conn: &Connection, client_id: &str, today: NaiveDate) -> Result<Owes, AppError> {
    let mut owes = Owes {
        unallocated: payment_store::advance_held(conn, client_id)?,
        ..Owes::default()
    };
    for invoice in document_store::owing_invoices(conn, client_id)? {
        let state = document_rules::payment_state(
            "INVOICE",
            &invoice.status,
            invoice.total,
            Some(invoice.outstanding),
            invoice.falls_due.as_deref(),
            today,
        );
        owes.outstanding += invoice.outstanding;
        owes.open_invoices += 1;
        if state == Some("overdue") {
            owes.overdue += invoice.outstanding;
        }
    }
    Ok(owes)
}
