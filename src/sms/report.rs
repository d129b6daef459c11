//! The SMS balances report (spec 4.9): lowest first, Low by default, the login columns for
//! managerial users only; and the CSV of logins (managerial), whose download is audited since
//! it holds every password in clear.

use crate::auth::session::AuthUser;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::sms::pull::{self, Scope};
use crate::sms::pulls::PullCounts;
use crate::sms::store::{self, BalanceFilter, BalanceRow, Show};
use crate::state::AppState;
use rusqlite::Connection;

/// The threshold in force today.
pub fn threshold(conn: &Connection) -> Result<i64, AppError> {
    let today = settings::office_today(conn)?;
    settings::int(conn, &settings::SMS_LOW_BALANCE_THRESHOLD, today)
}

/// One page of the report for `user` (staff: their book, no login columns).
pub fn page(
    conn: &Connection,
    user: &AuthUser,
    show: Show,
    q: Option<String>,
    page: &Page,
) -> Result<(Paginated<BalanceRow>, i64), AppError> {
    let threshold = threshold(conn)?;
    let filter = BalanceFilter {
        show,
        q,
        book: user.book(),
        threshold,
    };
    Ok((
        store::balances(filter, user.is_managerial()).page(conn, page)?,
        threshold,
    ))
}

/// Audits a download of the CSV of logins: who, with which filter (never a password).
pub fn logins_exported_in(
    tx: &Connection,
    user: &AuthUser,
    show: Show,
    q: Option<&str>,
) -> Result<(), AppError> {
    audit(
        tx,
        Audit {
            entity: "client_module",
            entity_id: None,
            action: "sms_logins_exported",
            user_id: Some(&user.id),
            before: None,
            after: Some(serde_json::json!({ "filter": format!("{show:?}").to_lowercase(), "q": q })),
        },
    )
}

/// A manual refresh by a managerial user: the pull, then its answer. A client without an SMS
/// subscription is a 409; a pull whose every poll went unanswered is a 502 (decisions 3: the
/// upstream failed during a call about it), its checks and flags recorded all the same.
pub fn refresh(state: &AppState, user: &AuthUser, scope: Scope<'_>) -> Result<PullCounts, AppError> {
    if let Scope::Client(id) = scope {
        let found = state.db.read_blocking(|c| {
            crate::clients::store::visible_client(c, user, id)?;
            Ok(store::to_poll(c, Some(id))?.len())
        })?;
        if found == 0 {
            return Err(AppError::conflict(
                "no_sms_subscription",
                "This client has no active SMS subscription to refresh.",
            ));
        }
    }
    let counts = pull::run(state, Some(&user.id), scope, false)?;
    if counts.total > 0 && counts.unreachable == counts.total {
        return Err(AppError::upstream(
            "sms_gateway_failed",
            format!(
                "The SMS gateway did not answer for any of the {} subscriptions; each is flagged with the reason and its last balance kept.",
                counts.total
            ),
        ));
    }
    Ok(counts)
}

/// How many active SMS subscriptions of `book` are below the threshold, and the threshold.
pub fn low_count(conn: &Connection, book: Option<String>) -> Result<(i64, i64), AppError> {
    let threshold = threshold(conn)?;
    let filter = BalanceFilter {
        show: Show::Low,
        q: None,
        book,
        threshold,
    };
    let one = Page {
        page: 1,
        per_page: 1,
        after: None,
        sort: None,
    };
    Ok((store::balances(filter, false).page(conn, &one)?.total, threshold))
}
