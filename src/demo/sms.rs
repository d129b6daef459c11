//! The SMS side of a demo office (spec 4.9, issue 18). About two societies in five subscribe to
//! the SMS module, each with the gateway login the office keeps for it: the provider, a
//! username made from the society's name, a password (one in forty left encrypted by the old
//! system, as `legacy` leaves other portal passwords). Behind them is the last month of the
//! daily balance pass, written as `sms::pull` records it: one check a day per active
//! subscription, the balance stored and the audit row `sms_balance` written only when a read
//! balance changed, the flag set (and the stored balance kept) when none was read.
//!
//! Today's balances are drawn first (most in the thousands to lakhs, about one in eight below
//! the default threshold of 500, a few at 0) and the month is made backwards from them: what a
//! society sent on each working day, and the packs it bought. The texts of failed checks come
//! from the server's own code (`sms::rules::read_reply`, `outbound::CallError`), so they read
//! as a real pass writes them. The gateways and their failures are in `sms_gateways`, the
//! balances in `sms_balances`; here the month of checks made and written.

use crate::demo::history::{checklist, project_status};
pub use crate::demo::sms_balances::DAYS;
use crate::demo::sms_balances::{LOW, series, todays_balance};
use crate::demo::sms_gateways::{Failure, PROVIDERS, password, username};
use crate::demo::{Rng, Summary, legacy};
use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use crate::sms::pull::PARALLEL;
use crate::sms::rules::Outcome;
use crate::sms::store::SMS_CODE;
use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use rusqlite::{Connection, params};
use serde_json::json;
use std::collections::HashSet;

/// Societies with an SMS subscription, in 100.
const SHARE: u64 = 42;
/// The daily pass starts at 06:00 IST (00:30 UTC).
const PASS_AT_SECONDS: i64 = 30 * 60;

/// One poll as `sms_balance_check` holds it.
struct Check {
    at: DateTime<Utc>,
    outcome: Outcome,
    balance: Option<i64>,
    error: Option<String>,
    latency_ms: i64,
}

struct Sub {
    id: String,
    client_id: String,
    /// Who ticked its milestones: the society's account owner.
    author: String,
    created: DateTime<Utc>,
    start: NaiveDate,
    active: bool,
    provider: usize,
    username: String,
    password: String,
    /// The password is the old system's ciphertext: it reads as none and the pass flags it.
    legacy: bool,
    /// The balance read at each pass (index 0: before the first), made backwards from today's.
    series: Vec<i64>,
    /// The first pass it had (it started after the month began).
    first_pass: usize,
    /// The last passes failed with this (the subscription is flagged now).
    failing: Option<(usize, Failure)>,
    checks: Vec<Check>,
}

/// Writes the SMS subscriptions and their month of checks; fills `summary`'s counts of them.
pub fn write(
    conn: &Connection,
    rng: &mut Rng,
    today: NaiveDate,
    summary: &mut Summary,
) -> Result<(), AppError> {
    let module: String = conn.query_row("SELECT id FROM module WHERE code = ?1", [SMS_CODE], |r| r.get(0))?;
    let owner = super::store::owner_id(conn)?;
    // Each society, and the day it first bought SMS credits (its subscription began a little before).
    type ClientRow = (String, String, Option<String>, String, String, Option<String>);
    let clients: Vec<ClientRow> = conn
        .prepare(
            "SELECT c.id, c.name, c.owner_id, c.status, substr(c.created_at, 1, 10),
                    (SELECT MIN(d.doc_date) FROM document d WHERE d.client_id = c.id AND d.source = 'bulk_sms_topup')
             FROM client c WHERE c.status <> 'lead' ORDER BY c.id",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))?
        .collect::<Result<_, _>>()?;
    let first_day = today - Duration::days(DAYS as i64);
    let day = |text: &str| clock::date(text).unwrap_or(first_day);
    let weight: u64 = PROVIDERS.iter().map(|p| p.1).sum();
    let mut taken = HashSet::new();
    let mut subs = vec![];
    for (client_id, name, account_owner, status, since, first_topup) in clients {
        if !rng.chance(SHARE) {
            continue;
        }
        let since = day(&since);
        let start = match first_topup {
            Some(d) => day(&d) - Duration::days(rng.range(3, 20)),
            // No credits bought yet: it subscribed within weeks of joining.
            None => since + Duration::days(rng.range(7, 60)),
        }
        .max(since)
        .min(today - Duration::days(1));
        let created = rng.office_time(start);
        let mut roll = rng.below(weight);
        let provider = PROVIDERS
            .iter()
            .position(|p| {
                let hit = roll < p.1;
                roll = roll.saturating_sub(p.1);
                hit
            })
            .unwrap_or(0);
        let place = name.split_whitespace().next().unwrap_or("Society").to_string();
        let legacy = rng.range(1, 40) == 1;
        let password = if legacy {
            legacy::ciphertext(rng)
        } else {
            password(rng, &place)
        };
        // Banks send an SMS for every deposit and withdrawal; a store or a housing society a few.
        let rate = if name.contains("BANK") || name.contains("CREDIT") {
            rng.range(60, 1_200)
        } else {
            rng.range(5, 200)
        };
        let balance = todays_balance(rng);
        let series = series(rng, balance, rate, first_day);
        subs.push(Sub {
            id: rng.id(created),
            client_id,
            author: account_owner.unwrap_or_else(|| owner.clone()),
            created,
            start,
            active: status == "active" && !rng.chance(3),
            provider,
            username: username(&name, &mut taken),
            password,
            legacy,
            series,
            first_pass: ((start - first_day).num_days() + 1).clamp(0, DAYS as i64) as usize,
            failing: None,
            checks: vec![],
        });
        if legacy {
            summary.legacy_credentials += 1;
        }
    }
    // The pass polls in id order.
    subs.sort_by(|a, b| a.id.cmp(&b.id));
    for s in subs.iter_mut().filter(|s| s.active && !s.legacy) {
        if rng.chance(2) {
            let kind = match rng.below(100) {
                0..45 => Failure::InvalidLogin,
                45..60 => Failure::Expired,
                60..70 => Failure::Suspended,
                70..90 => Failure::Timeout,
                _ => Failure::Html,
            };
            s.failing = Some((rng.range(1, 6) as usize, kind));
        }
    }
    // Days a provider was down for everyone: its proxy's error page, or no answer at all.
    let outages: Vec<Vec<Option<Failure>>> = PROVIDERS
        .iter()
        .map(|_| {
            (0..DAYS)
                .map(|_| {
                    rng.chance(1).then(|| {
                        if rng.chance(60) {
                            Failure::Timeout
                        } else {
                            Failure::Html
                        }
                    })
                })
                .collect()
        })
        .collect();
    // By day, each provider's state that day.
    let down: Vec<Vec<Option<Failure>>> = (0..DAYS)
        .map(|pass| outages.iter().map(|o| o[pass]).collect())
        .collect();
    for (pass, down) in down.iter().enumerate() {
        let pass_day = first_day + Duration::days(pass as i64);
        let started = Utc.from_utc_datetime(&pass_day.and_hms_opt(0, 0, 0).expect("midnight"))
            + Duration::seconds(PASS_AT_SECONDS + rng.range(0, 20));
        let mut elapsed_ms = 0;
        for s in subs.iter_mut().filter(|s| s.active && pass >= s.first_pass) {
            let at = started + Duration::milliseconds(elapsed_ms / PARALLEL as i64);
            let typical = PROVIDERS[s.provider].2;
            let failure = match s.failing {
                Some((last, kind)) if pass >= DAYS - last => Some(kind),
                _ => down[s.provider].or_else(|| {
                    (rng.below(1000) < 4).then(|| {
                        *rng.pick(&[
                            Failure::Timeout,
                            Failure::Timeout,
                            Failure::Reset,
                            Failure::ServerError,
                            Failure::ServerError,
                            Failure::Html,
                            Failure::Empty,
                        ])
                    })
                }),
            };
            let check = if s.legacy {
                Check {
                    at,
                    outcome: Outcome::Error,
                    balance: None,
                    error: Some("No gateway login is stored for this subscription.".into()),
                    latency_ms: 0,
                }
            } else if let Some(failure) = failure {
                let (outcome, text, latency_ms) = failure.check(rng, typical, &s.password);
                Check {
                    at,
                    outcome,
                    balance: None,
                    error: Some(text),
                    latency_ms,
                }
            } else {
                // Most answers come in around the gateway's usual time; now and then one takes seconds.
                let latency_ms = if rng.chance(1) {
                    rng.range(1_000, 4_000)
                } else {
                    typical * rng.range(70, 160) / 100
                };
                Check {
                    at,
                    outcome: Outcome::Ok,
                    balance: Some(s.series[pass + 1]),
                    error: None,
                    latency_ms,
                }
            };
            elapsed_ms += check.latency_ms;
            s.checks.push(check);
        }
    }
    record(conn, rng, &module, today, &subs, summary)
}

/// Writes each subscription (its row, its checklist all but done, the checks and the audit rows of
/// its balance changes) as the pass left it.
fn record(
    conn: &Connection,
    rng: &mut Rng,
    module: &str,
    today: NaiveDate,
    subs: &[Sub],
    summary: &mut Summary,
) -> Result<(), AppError> {
    let steps = checklist();
    let mut insert_sub = conn.prepare(
        "INSERT INTO client_module (id, client_id, module_id, active, status, installed_on, trained_on, provider, username,
                                    password, sms_balance, sms_checked_at, sms_flag, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?;
    let mut insert_step = conn.prepare(
        "INSERT INTO project_milestone (id, client_module_id, key, label, position, done_on, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
    )?;
    let mut insert_check = conn.prepare(
        "INSERT INTO sms_balance_check (id, client_module_id, at, outcome, balance, error, latency_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    let mut insert_audit = conn.prepare(
        "INSERT INTO audit (id, at, user_id, entity, entity_id, action, before, after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for s in subs {
        // Switched on within days of the order: every step ticked by the account owner.
        let mut done = vec![];
        let mut on = s.start;
        for _ in &steps {
            on += Duration::days(rng.range(0, 3));
            done.push((on <= today).then_some(on));
        }
        let (installed, trained, status) = project_status(&steps, &done);
        // The stored balance is the last one read; before the month, the one read before it
        // (none for a subscription that began within it). An inactive one keeps what was typed
        // in long ago, never checked.
        let mut stored = if !s.active {
            Some(s.series[DAYS])
        } else if s.first_pass == 0 {
            Some(s.series[0])
        } else {
            None
        };
        let mut changed_at = s.created;
        let mut changes = vec![];
        for c in &s.checks {
            if let Some(balance) = c.balance
                && stored != Some(balance)
            {
                changes.push((c.at, stored, balance));
                stored = Some(balance);
                changed_at = c.at;
            }
        }
        if s.legacy {
            stored = Some(s.series[DAYS]); // the old system's figure, which no pass could read
        }
        let last = s.checks.last();
        let created = clock::timestamp(s.created);
        insert_sub.execute(params![
            s.id,
            s.client_id,
            module,
            s.active,
            status,
            installed,
            trained,
            PROVIDERS[s.provider].0,
            s.username,
            s.password,
            stored,
            last.map(|c| clock::timestamp(c.at)),
            last.and_then(|c| c.error.clone()),
            created,
            clock::timestamp(changed_at)
        ])?;
        summary.subscriptions += 1;
        for (position, (step, day)) in steps.iter().zip(&done).enumerate() {
            insert_step.execute(params![
                rng.id(s.created),
                s.id,
                step.key,
                step.label,
                position as i64,
                day.map(|d| d.to_string()),
                created
            ])?;
            summary.milestones += 1;
            if let Some(day) = day {
                let tick = rng.office_time(*day);
                insert_audit.execute(params![
                    rng.id(tick),
                    clock::timestamp(tick),
                    s.author,
                    "client_module",
                    s.id,
                    "milestone_tick",
                    json!({ "key": step.key, "done_on": null }).to_string(),
                    json!({ "key": step.key, "done_on": day.to_string() }).to_string()
                ])?;
                summary.audit += 1;
            }
        }
        for c in &s.checks {
            insert_check.execute(params![
                rng.id(c.at),
                s.id,
                clock::timestamp(c.at),
                c.outcome.as_str(),
                c.balance,
                c.error,
                c.latency_ms
            ])?;
            summary.sms_checks += 1;
        }
        // The scheduled pass writes the audit row of each change, as no one.
        for (at, before, after) in changes {
            insert_audit.execute(params![
                rng.id(at),
                clock::timestamp(at),
                None::<String>,
                "client_module",
                s.id,
                "sms_balance",
                json!({ "sms_balance": before }).to_string(),
                json!({ "sms_balance": after }).to_string()
            ])?;
            summary.audit += 1;
            summary.sms_balance_changes += 1;
        }
        if s.active {
            summary.sms_subscriptions += 1;
            summary.sms_low += usize::from(stored.is_some_and(|b| b < LOW));
            summary.sms_flagged += usize::from(last.is_some_and(|c| c.error.is_some()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::sms::store::{BalanceFilter, Show, balances};

    /// A small office: the subscriptions, their checks, their flags and the audit of their
    /// balances agree with one another as `sms::pull::record_in` would have left them.
    #[test]
    fn the_month_of_checks_agrees_with_what_is_stored_and_audited() {
        let (_dir, conn, summary, _) = crate::demo::small_office(crate::demo::Options {
            clients: 300,
            years: 2,
            seed: 5,
        });
        let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        let sms = "FROM client_module cm JOIN module m ON m.id = cm.module_id WHERE m.code = 'SMS' AND cm.active = 1";
        let active = one(&format!("SELECT COUNT(*) {sms}"));
        assert_eq!(active as usize, summary.sms_subscriptions);
        assert!(
            (90..=160).contains(&active),
            "{active} active SMS subscriptions of 300 societies"
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM sms_balance_check") as usize,
            summary.sms_checks
        );
        assert!(summary.sms_checks as i64 > active * 25);
        let low = one(&format!("SELECT COUNT(*) {sms} AND cm.sms_balance < 500"));
        assert!(
            low * 100 > active * 5 && low * 100 < active * 25,
            "{low} low of {active}"
        );
        assert!(summary.sms_flagged > 0);
        // What is stored is what the last check left: its time, its flag, the last balance read.
        assert_eq!(
            one(&format!(
                "SELECT COUNT(*) {sms} AND (
                   cm.sms_checked_at IS NOT (SELECT MAX(k.at) FROM sms_balance_check k WHERE k.client_module_id = cm.id)
                   OR cm.sms_flag IS NOT (SELECT k.error FROM sms_balance_check k WHERE k.client_module_id = cm.id ORDER BY k.at DESC, k.id DESC LIMIT 1)
                   OR (substr(cm.password, 1, 4) <> 'enc:' AND EXISTS (SELECT 1 FROM sms_balance_check k WHERE k.client_module_id = cm.id AND k.outcome = 'ok')
                       AND cm.sms_balance IS NOT (SELECT k.balance FROM sms_balance_check k WHERE k.client_module_id = cm.id AND k.outcome = 'ok'
                                                  ORDER BY k.at DESC, k.id DESC LIMIT 1)))"
            )),
            0
        );
        // A check reads a balance exactly when it is ok; an encrypted password is never sent.
        assert_eq!(
            one(
                "SELECT COUNT(*) FROM sms_balance_check WHERE (outcome = 'ok') <> (balance IS NOT NULL) OR (outcome = 'ok') = (error IS NOT NULL)"
            ),
            0
        );
        assert_eq!(
            one(&format!(
                "SELECT COUNT(*) {sms} AND substr(cm.password, 1, 4) = 'enc:' AND cm.sms_flag IS NOT 'No gateway login is stored for this subscription.'"
            )),
            0
        );
        // One audit row per change of a read balance, each after the one before it.
        assert_eq!(
            one("SELECT COUNT(*) FROM audit WHERE action = 'sms_balance'") as usize,
            summary.sms_balance_changes
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM audit WHERE action = 'sms_balance' AND (user_id IS NOT NULL OR entity <> 'client_module'
                    OR json_extract(before, '$.sms_balance') IS json_extract(after, '$.sms_balance'))"),
            0
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM client_module cm WHERE cm.sms_balance IS NOT
                   (SELECT json_extract(a.after, '$.sms_balance') FROM audit a WHERE a.entity_id = cm.id AND a.action = 'sms_balance' ORDER BY a.at DESC, a.id DESC LIMIT 1)
                 AND EXISTS (SELECT 1 FROM audit a WHERE a.entity_id = cm.id AND a.action = 'sms_balance')"),
            0
        );
        // The report reads them: the low ones first, lowest first.
        let page = crate::plumbing::db::page::Page {
            page: 1,
            per_page: 50,
            after: None,
            sort: None,
        };
        let listed = balances(
            BalanceFilter {
                show: Show::Low,
                q: None,
                book: None,
                threshold: 500,
            },
            true,
        )
        .page(&conn, &page)
        .unwrap();
        assert_eq!(listed.total, low);
        assert!(listed.rows.windows(2).all(|w| w[0].balance <= w[1].balance));
        assert!(listed.rows.iter().all(|r| r.low));
    }
}
