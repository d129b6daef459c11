//! The follow-up work of a demo office, written after its history: service contracts (AMC)
//! running out around today, a few recurring plans (one parked), interactions with follow-up
//! dates, and the reminders the daily scan raised over the last weeks, in every state (most sent
//! or dismissed, some failed with their reason, the newest open). The reminders come from the
//! scan itself (`reminders::scan::due` and `reminders::store::raise_in`), run for past days, so the demo holds
//! what the real job would have written.

use crate::demo::{Rng, Summary};
use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use crate::reminders::scan;
use crate::reminders::store::raise_in;
use chrono::{Duration, NaiveDate};
use rusqlite::{Connection, params};

const NOTES: &[&str] = &[
    "Secretary asked for a demo of the mobile app before the board meeting",
    "President wants the loan module's new interest slabs explained",
    "Called about the renewal; the committee meets next week",
    "Visited the branch: the cashier needs training on day-end",
    "Asked for a revised quotation with two more counters",
    "Auditor requested the last year's trial balance export",
    "WhatsApp: SMS balance running low before the AGM notices",
];

/// Writes the follow-up work; fills `summary`'s counts of it.
pub fn write(
    conn: &Connection,
    rng: &mut Rng,
    today: NaiveDate,
    summary: &mut Summary,
) -> Result<(), AppError> {
    let clients: Vec<(String, Option<String>, String)> = conn
        .prepare("SELECT id, owner_id, status FROM client ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let owner = super::store::owner_id(conn)?;
    let at = |rng: &mut Rng, day: NaiveDate| {
        let t = rng.office_time(day);
        (rng.id(t), clock::timestamp(t))
    };
    for (client, account_owner, status) in &clients {
        let author = account_owner.clone().unwrap_or_else(|| owner.clone());
        // A third of the societies keep an annual maintenance contract; the current one ends
        // somewhere from two months ago to ten months ahead.
        if status != "lead" && rng.chance(33) {
            let to = today + Duration::days(rng.range(-60, 300));
            let from = to - Duration::days(364);
            let amount = rng.range(12, 60) * 1_000 * 100;
            let (id, stamp) = at(rng, from - Duration::days(10));
            conn.prepare_cached(
                "INSERT INTO service_contract (id, client_id, description, period_from, period_to, amount, created_by, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
            )?
            .execute(params![
                id,
                client,
                *rng.pick(&["Annual maintenance: core banking", "AMC: software and remote support", "Annual support and updates"]),
                from.to_string(),
                to.to_string(),
                amount,
                author,
                stamp
            ])?;
            summary.contracts += 1;
        }
        // A few bill a monthly hosting fee on a plan; one in twenty of those is parked.
        if status == "active" && rng.chance(3) {
            let lines = serde_json::json!([{ "description": "Cloud hosting and backup (monthly)", "qty": 1,
                                              "unit_price": rng.range(15, 40) * 100 * 100, "gst_rate": 18 }]);
            let next = today + Duration::days(rng.range(1, 28));
            let parked = rng.chance(5);
            let since = today - Duration::days(rng.range(40, 400));
            let (id, stamp) = at(rng, since);
            conn.prepare_cached(
                "INSERT INTO recurring_plan (id, client_id, lines, interval, next_run, active, parked_reason, parked_at,
                                             created_by, created_at, updated_at)
                 VALUES (?1, ?2, ?3, 'monthly', ?4, 1, ?5, ?6, ?7, ?8, ?8)",
            )?
            .execute(params![
                id,
                client,
                lines.to_string(),
                next.to_string(),
                parked.then_some("The client has no GSTIN and no state: the invoice's tax cannot be placed."),
                parked.then(|| stamp.clone()),
                owner,
                stamp
            ])?;
            summary.plans += 1;
        }
        // Calls and visits of the last year; about one in five asks for a follow-up.
        for _ in 0..rng.range(0, 4) {
            let day = today - Duration::days(rng.range(0, 365));
            let follow_up = rng
                .chance(20)
                .then(|| (day + Duration::days(rng.range(3, 30))).to_string());
            let (id, stamp) = at(rng, day);
            conn.prepare_cached(
                "INSERT INTO interaction (id, client_id, type, notes, follow_up_on, author_id, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
            )?
            .execute(params![
                id,
                client,
                *rng.pick(&["call", "call", "visit", "email", "whatsapp", "meeting"]),
                *rng.pick(NOTES),
                follow_up,
                author,
                stamp
            ])?;
            summary.interactions += 1;
        }
    }
    reminders(conn, rng, today, summary)
}

/// Daily scans over the last three weeks (a week apart, then closer), their reminders then worked (or not) as an
/// office does: the older a reminder, the likelier it was sent or dismissed.
fn reminders(
    conn: &Connection,
    rng: &mut Rng,
    today: NaiveDate,
    summary: &mut Summary,
) -> Result<(), AppError> {
    for back in [21, 14, 7, 3, 1] {
        let day = today - Duration::days(back);
        raise_in(conn, &scan::due(conn, day)?)?;
    }
    let rows: Vec<(String, String, String)> = conn
        .prepare("SELECT id, rule_kind, created_at FROM reminder ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    for (id, kind, _) in &rows {
        let sendable = crate::reminders::rules::SENDABLE.contains(&kind.as_str());
        let roll = rng.below(100);
        let worked = today - Duration::days(rng.range(0, 20));
        let when = clock::timestamp(rng.office_time(worked));
        if sendable && roll < 45 {
            conn.execute(
                "UPDATE reminder SET status = 'sent', sent_at = ?2, closed_at = ?2, updated_at = ?2 WHERE id = ?1",
                params![id, when],
            )?;
        } else if roll < 75 {
            conn.execute(
                "UPDATE reminder SET status = 'dismissed', closed_at = ?2, updated_at = ?2 WHERE id = ?1",
                params![id, when],
            )?;
        } else if sendable && roll < 80 {
            conn.execute(
                "UPDATE reminder SET status = 'failed', failure = ?2, updated_at = ?3 WHERE id = ?1",
                params![
                    id,
                    *rng.pick(&[
                        "the mail provider refused the token (401)",
                        "the mail provider refused the message: error 406: You tried to send to a recipient that has been marked as inactive."
                    ]),
                    when
                ],
            )?;
        }
    }
    summary.reminders = rows.len();
    Ok(())
}
