//! Sending a reminder (spec 6.4): the email a reminder would send, shown by the preview, and
//! the send itself, by a person from the queue or by the auto-send drain after the daily scan.
//!
//! A send is resolved, claimed, sent, then logged:
//! - resolved: the mail provider set up and the recipient found before anything is written; a
//!   quote follow-up also needs share.base_url, and only then is its link minted (a live link
//!   with 30 days left is reused, else one is made for 60 days);
//! - claimed: in the same transaction the reminder becomes `sent`, so a second send, or two at
//!   once, never sends again (at most once: a crash mid-send leaves it `sent` and the email_log
//!   without its row, rather than a second email);
//! - sent after the commit and logged in the email_log; a failure marks the reminder `failed`
//!   with its reason, and the link stays usable for the next try.
//!
//! The preview composes the same email on a read connection: it shows a live link but never
//! mints one. The kinds that are the office's own tasks (follow_up, email_bounced) send nothing.
//! A society's Form 16A past its date (tds_certificate_due) is a letter asking for it, with the
//! quarter and the amounts booked and certified as they stand when it is composed.

use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::company::letterhead;
use crate::documents::delivery::EmailOutcome;
use crate::documents::{html, shares, store as documents, view};
use crate::email::{self, store::Attempt};
use crate::plumbing::clock;
use crate::plumbing::config::Config;
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Warning};
use crate::plumbing::mail::{self, Attachment, Email, MailError};
use crate::reminders::rules;
use crate::reminders::sentences::{self, About};
use crate::reminders::store::{self, Reminder};
use crate::state::AppState;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// The exact email a reminder would send (decisions 11), with what stands in its way.
#[derive(Debug, Serialize, ToSchema)]
pub struct Preview {
    /// The recipient the send would use; null when the client has no address.
    pub to: Option<String>,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The files attached (a document's PDF).
    pub attachments: Vec<String>,
    /// no_recipient, email_bouncing, share_base_url_unset, mail_not_configured, link_on_send.
    pub warnings: Vec<Warning>,
}

fn not_sendable(kind: &str) -> AppError {
    AppError::conflict(
        "not_sendable",
        format!(
            "A {} reminder is a task for the office: it sends no email.",
            kind.replace('_', " ")
        ),
    )
}

fn base_url_unset() -> AppError {
    AppError::conflict(
        "share_base_url_unset",
        "A quote follow-up links to the quotation, and share.base_url (the address of public links) \
         is not set: the owner sets it under Settings → Letterhead → Public links, or the server is started with --base-url.",
    )
}

fn no_recipient() -> AppError {
    AppError::conflict(
        "no_recipient",
        "The client has no email address and no contact with one: add one to send this reminder.",
    )
}

fn date(text: &str) -> Result<NaiveDate, AppError> {
    text.get(..10)
        .and_then(clock::date)
        .ok_or_else(|| AppError::internal(format!("not a date: {text}")))
}

/// A reminder's email with `link` in it: subject, text, HTML and, for a document, its PDF.
struct Letter {
    subject: String,
    text: String,
    html: String,
    attachments: Vec<Attachment>,
}

/// The letter a reminder sends, as plain text for a chat (decisions 12, WhatsApp): the same words
/// as its email, with the document's live public link when there is one (none is minted).
pub fn chat_text(conn: &Connection, r: &Reminder, config: &Config) -> Result<String, AppError> {
    let link = standing_link(conn, r, config, false)?;
    Ok(compose(conn, r, link.as_deref(), false)?.text)
}

/// The reminder's email; `attach`: with the document's PDF.
fn compose(conn: &Connection, r: &Reminder, link: Option<&str>, attach: bool) -> Result<Letter, AppError> {
    if !rules::SENDABLE.contains(&r.rule_kind.as_str()) {
        return Err(not_sendable(&r.rule_kind));
    }
    let today = settings::office_today(conn)?;
    let doc = match &r.doc_id {
        Some(id) => Some(documents::get(conn, id, None)?.ok_or_else(|| AppError::not_found("document"))?),
        None => None,
    };
    let view = doc.as_ref().map(|d| view::build(conn, d)).transpose()?;
    let letterhead = match &view {
        Some(v) => v.letterhead.clone(),
        None => letterhead::letterhead(conn, &[])?,
    };
    let doc_no = doc.as_ref().and_then(|d| d.doc_no.clone()).unwrap_or_default();
    let module;
    let terms;
    if r.rule_kind == crate::tds::REMINDER_KIND {
        let (subject, message) = crate::tds::certificate_letter(conn, &r.client_id, date(&r.due_on)?)?;
        let (html, text) = html::email(&message, None, None, &letterhead)?;
        return Ok(Letter {
            subject,
            text,
            html,
            attachments: vec![],
        });
    }
    let about = match (r.rule_kind.as_str(), &doc) {
        ("quote_followup", Some(_)) => About::Quote {
            doc_no: &doc_no,
            sent_on: date(&r.due_on)?,
        },
        ("invoice_overdue", Some(d)) => About::Overdue {
            doc_no: &doc_no,
            doc_date: date(d.doc_date.as_deref().unwrap_or(&r.due_on))?,
            due_date: d.due_date.as_deref().map(date).transpose()?,
            outstanding: d.outstanding.unwrap_or(0),
        },
        ("renewal_due", _) => {
            let cm = r.client_module_id.as_deref().unwrap_or_default();
            module = store::renewal_module(conn, cm)?.ok_or_else(|| AppError::not_found("subscription"))?;
            let on = date(&r.due_on)?;
            let prices = crate::catalog::store::prices(conn, &module.1)?;
            About::Renewal {
                module: &module.0,
                on,
                price: crate::catalog::rules::price_on(&prices, on).map(|p| p.price),
            }
        }
        ("amc_expiring", _) => {
            let id = r.contract_id.as_deref().unwrap_or_default();
            terms =
                store::contract_terms(conn, id)?.ok_or_else(|| AppError::not_found("service contract"))?;
            About::Contract {
                description: &terms.0,
                ends: date(&r.due_on)?,
                amount: terms.1,
            }
        }
        _ => return Err(AppError::internal(format!("reminder {} lost its document", r.id))),
    };
    let (subject, message) = sentences::letter(&about, today);
    let (html, text) = html::email(&message, view.as_ref(), link, &letterhead)?;
    let attachments = match (&view, &doc) {
        (Some(v), Some(d)) if attach => vec![Attachment {
            name: view::pdf_file_name(d.doc_no.as_deref()),
            content_type: "application/pdf",
            content: crate::documents::pdf::document_pdf(v)?,
        }],
        _ => vec![],
    };
    Ok(Letter {
        subject,
        text,
        html,
        attachments,
    })
}

/// The link a reminder's email carries without minting one: a quote follow-up's reusable live
/// link (else, with `placeholder`, where one will be), another document's live link; None
/// without share.base_url.
fn standing_link(
    conn: &Connection,
    r: &Reminder,
    config: &Config,
    placeholder: bool,
) -> Result<Option<String>, AppError> {
    let (Some(doc), Some(base)) = (&r.doc_id, shares::base_url(conn, config)?) else {
        return Ok(None);
    };
    let min_days = if r.rule_kind == "quote_followup" {
        shares::FOLLOW_UP_LINK_REUSE_DAYS
    } else {
        1
    };
    Ok(match shares::live_share(conn, doc, min_days)? {
        Some(share) => Some(shares::url_under(&base, &share.token)),
        None if placeholder && r.rule_kind == "quote_followup" => Some(shares::url_under(&base, "…")),
        None => None,
    })
}

/// The email a reminder of the user's share would send now, composed but not sent; nothing
/// is written and no link is minted.
pub fn preview(conn: &Connection, user: &AuthUser, id: &str, config: &Config) -> Result<Preview, AppError> {
    let r = super::visible(conn, user, id)?;
    let link = standing_link(conn, &r, config, true)?;
    let letter = compose(conn, &r, link.as_deref(), true)?;
    let to = client_store::email_recipient(conn, &r.client_id)?;
    let mut warnings = vec![];
    let mut warn = |e: AppError| {
        warnings.push(Warning {
            code: e.code,
            message: e.message.clone(),
        })
    };
    match &to {
        None => warn(no_recipient()),
        Some(address) if client_store::address_bouncing(conn, address)? => warn(AppError::conflict(
            "email_bouncing",
            format!("Mail to {address} has bounced: check the address before sending."),
        )),
        Some(_) => {}
    }
    if let Err(e) = email::config(conn) {
        warn(e);
    }
    if r.rule_kind == "quote_followup" {
        if shares::base_url(conn, config)?.is_none() {
            warn(base_url_unset());
        } else if link.as_deref().is_some_and(|l| l.ends_with('…')) {
            warn(AppError::conflict(
                "link_on_send",
                "The link to the quotation is made when the email is sent (it lasts 60 days).",
            ));
        }
    }
    Ok(Preview {
        to,
        subject: letter.subject,
        text: letter.text,
        html: letter.html,
        attachments: letter.attachments.into_iter().map(|a| a.name).collect(),
        warnings,
    })
}

/// A claimed send: the reminder, its recipient and its link.
pub struct Claimed {
    id: String,
    to: String,
    link: Option<String>,
}

/// Resolves and claims the send of `r` (see the module header): None when it was sent already.
/// Refused (409) with nothing written when the reminder is dismissed, sends no email, the mail
/// provider is not set up, there is no recipient, or a quote follow-up has no share.base_url.
pub fn claim_in(
    tx: &Connection,
    r: &Reminder,
    by: Option<&str>,
    config: &Config,
) -> Result<Option<Claimed>, AppError> {
    match r.status.as_str() {
        "sent" => return Ok(None),
        "dismissed" => {
            return Err(AppError::conflict(
                "reminder_closed",
                "This reminder is dismissed: it is not sent.",
            ));
        }
        _ => {}
    }
    if !rules::SENDABLE.contains(&r.rule_kind.as_str()) {
        return Err(not_sendable(&r.rule_kind));
    }
    email::config(tx)?;
    let to = client_store::email_recipient(tx, &r.client_id)?.ok_or_else(no_recipient)?;
    let link = match (r.rule_kind.as_str(), &r.doc_id) {
        ("quote_followup", Some(doc)) => {
            let base = shares::base_url(tx, config)?.ok_or_else(base_url_unset)?;
            let share = shares::live_for(
                tx,
                doc,
                by,
                shares::FOLLOW_UP_LINK_REUSE_DAYS,
                shares::FOLLOW_UP_LINK_DAYS,
            )?;
            Some(shares::url_under(&base, &share.token))
        }
        _ => standing_link(tx, r, config, false)?,
    };
    if !store::claim_send(tx, &r.id, by)? {
        return Ok(None);
    }
    Ok(Some(Claimed {
        id: r.id.clone(),
        to,
        link,
    }))
}

/// Composes, sends and logs a claimed reminder; a failure marks it `failed` with the reason.
fn deliver(state: &AppState, claimed: Claimed, by: Option<&str>) -> Result<EmailOutcome, AppError> {
    let db = &state.db;
    let Claimed { id, to, link } = claimed;
    let composed = db.read_blocking(|c| {
        let r = store::get(c, &id, None)?.ok_or_else(|| AppError::not_found("reminder"))?;
        Ok((email::config(c)?, compose(c, &r, link.as_deref(), true)?, r))
    });
    let (config, letter, r) = match composed {
        Ok(parts) => parts,
        Err(e) => {
            db.write_blocking(|tx| store::mark_failed(tx, &id, &e.message))?;
            return Err(e);
        }
    };
    let email = Email {
        to,
        cc: None,
        subject: letter.subject,
        html: letter.html,
        text: letter.text,
        attachments: letter.attachments,
    };
    let result = mail::send_now(&config, &email, state.config.guard());
    if let Err(e) = &result {
        tracing::warn!(reminder = %id, error = %e, "reminder email failed");
    }
    let log_id = db.write_blocking(|tx| {
        let log_id = email::store::log(
            tx,
            Attempt {
                purpose: "reminder",
                document_id: r.doc_id.as_deref(),
                client_id: Some(&r.client_id),
                module_id: None,
                to: &email.to,
                cc: None,
                subject: &email.subject,
                sent_by: by,
                result: &result,
            },
        )?;
        if let Err(e) = &result {
            store::mark_failed(tx, &id, &e.to_string())?;
        }
        Ok(log_id)
    })?;
    Ok(EmailOutcome {
        log_id,
        to: email.to,
        status: if result.is_ok() { "sent" } else { "failed" },
        error: result.as_ref().err().map(MailError::to_string),
    })
}

/// Sends a reminder now, by `user` (from their share of the queue) or by the job thread (None):
/// answers the reminder after it, and the email, or None when it had been sent already.
pub fn send(
    state: &AppState,
    user: Option<&AuthUser>,
    id: &str,
) -> Result<(Reminder, Option<EmailOutcome>), AppError> {
    let by = user.map(|u| u.id.as_str());
    let claimed = state.db.write_blocking(|tx| {
        let r = match user {
            Some(u) => super::visible(tx, u, id)?,
            None => store::get(tx, id, None)?.ok_or_else(|| AppError::not_found("reminder"))?,
        };
        claim_in(tx, &r, by, &state.config)
    })?;
    let outcome = claimed.map(|c| deliver(state, c, by)).transpose()?;
    let after = state
        .db
        .read_blocking(|c| store::get(c, id, None))?
        .ok_or_else(|| AppError::not_found("reminder"))?;
    Ok((after, outcome))
}

/// What a drain did: the `auto_send_drain` job's counts.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct Drained {
    pub as_of: Option<NaiveDate>,
    /// Reminders sent.
    pub sent: i64,
    /// Reminders whose send failed (now `failed`, with the reason).
    pub failed: i64,
}

/// The auto-send drain job (spec 3.2, 6.3), run after the scan and the recurring generation
/// have committed their writes: [`drain`], with the day it ran for.
pub fn drain_job(state: &AppState, as_of: NaiveDate) -> Result<Drained, AppError> {
    let (sent, failed) = drain(state)?;
    Ok(Drained {
        as_of: Some(as_of),
        sent,
        failed,
    })
}

/// The auto-send drain: sends each open reminder raised under the auto policy. A hard failure
/// marks the row `failed` with its reason and the drain goes on. Answers how many were sent and
/// how many failed.
pub fn drain(state: &AppState) -> Result<(i64, i64), AppError> {
    let (mut sent, mut failed) = (0, 0);
    for id in state.db.read_blocking(store::auto_open)? {
        match send(state, None, &id) {
            Ok((_, Some(email))) if email.status == "sent" => sent += 1,
            Ok((_, Some(_))) => failed += 1,
            Ok((_, None)) => {}
            Err(e) => {
                state
                    .db
                    .write_blocking(|tx| store::mark_failed(tx, &id, &e.message))?;
                failed += 1;
            }
        }
    }
    Ok((sent, failed))
}
