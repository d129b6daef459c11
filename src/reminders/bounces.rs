//! Bounced email (spec 2.9, 6.3): the daily scan polls the mail provider's bounces
//! (`GET {api_url}/bounces?count=100&offset=0`, decisions 7). A bounce is read once: the
//! contacts with that address are flagged as bouncing (shown wherever an address is picked)
//! and an `email_bounced` reminder is raised for the account owner of each client behind it.
//! A soft bounce (a full or busy mailbox) is passed over.

use crate::clients::store as client_store;
use crate::email;
use crate::plumbing::clock;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::plumbing::mail::{self, Bounce};
use crate::reminders::store;
use crate::reminders::store::{Due, blank, raise_in};
use crate::reminders::{rules, sentences};
use crate::state::AppState;
use chrono::NaiveDate;
use rusqlite::Connection;

/// Polls the provider and raises a reminder per client behind each new hard bounce; answers
/// how many were raised (0 when email is not set up). A provider that cannot be read is an
/// error the daily scan reports and goes on from.
pub fn poll(state: &AppState, as_of: NaiveDate) -> Result<i64, AppError> {
    let Ok(config) = state.db.read_blocking(email::config) else {
        return Ok(0);
    };
    let bounces = mail::bounces(&config, state.config.guard())
        .map_err(|e| AppError::conflict("bounces_unread", format!("The bounces could not be read: {e}.")))?;
    state.db.write_blocking(|tx| record_in(tx, &bounces, as_of))
}

/// Records each bounce not read before; answers how many reminders it raised.
pub fn record_in(tx: &Connection, bounces: &[Bounce], as_of: NaiveDate) -> Result<i64, AppError> {
    let offset = settings::office_offset(tx)?;
    let mut due = vec![];
    for b in bounces.iter().filter(|b| rules::bounce_counts(&b.kind)) {
        let prefix = format!("email_bounced:{}:", b.id);
        if store::key_prefix_exists(tx, &prefix)? {
            continue;
        }
        let on = clock::office_date(&b.bounced_at, offset).unwrap_or(as_of);
        let at = clock::parse_timestamp(&b.bounced_at).map_or_else(clock::now_timestamp, clock::timestamp);
        for who in client_store::flag_bouncing(tx, &b.email, &at)? {
            let contact = who.contact_id.as_deref().unwrap_or("client");
            due.push(Due {
                key: format!("{prefix}{}:{contact}", who.client_id),
                contact_id: who.contact_id,
                owner_id: who.owner_id,
                reason: sentences::bounce_reason(&b.email, &b.kind, &b.description),
                ..blank("email_bounced", who.client_id, on)
            });
        }
    }
    Ok(raise_in(tx, &due)?.values().sum())
}
