//! The cloud costs of a demo office: about 60% of the active societies run on the cloud, each
//! with a cost for every month of the last two years since it joined (the months before the
//! current one), ₹800 to ₹6,000 a month and drifting a few percent from month to month. Most
//! came in by the monthly pull on the 1st of the next month, written as `cloud_cost::pull`
//! records them (a row's audit as nobody, and the pull's own row per month, which the job
//! reads); one in ten was typed in by the account owner in the first week instead.

use crate::cloud_costs::store::{MANUAL, PULL, PULL_ENTITY};
use crate::demo::{Rng, Summary};
use crate::plumbing::clock;
use crate::plumbing::clock::Month;
use crate::plumbing::error::AppError;
use chrono::{DateTime, Duration, Utc};
use rusqlite::{Connection, params};
use serde_json::json;
use std::collections::BTreeMap;

/// Societies on the cloud, in 100.
const SHARE: u64 = 60;
/// Months of costs, ending with the month before the current one.
pub const MONTHS: i32 = 24;
/// A month's cost, in paise: ₹800 to ₹6,000.
const LOWEST: i64 = 80_000;
const HIGHEST: i64 = 600_000;
/// Rows typed in rather than pulled, in 100.
const MANUAL_SHARE: u64 = 10;

/// One society's month.
struct Cost {
    client_id: String,
    month: Month,
    amount: i64,
    manual: bool,
}

/// The costs of one society from `first` to `last`: a starting cost, then a drift of -3% to
/// +4% a month (servers grow with the society's data), within the bounds.
fn series(rng: &mut Rng, first: Month, last: Month) -> Vec<(Month, i64)> {
    let mut amount = rng.range(LOWEST, HIGHEST * 2 / 3);
    let mut out = vec![];
    let mut month = first;
    while month <= last {
        out.push((month, amount));
        amount = (amount * (1000 + rng.range(-30, 40)) / 1000).clamp(LOWEST, HIGHEST);
        month = month.plus(1);
    }
    out
}

/// When a month's row was written: the pull at the scheduler's first tick of the next month's
/// 1st (00:15 IST), or a typist in its first week; never after `now`.
fn written_at(rng: &mut Rng, month: Month, manual: bool, now: DateTime<Utc>) -> DateTime<Utc> {
    let first = month.plus(1).first_day();
    let at = if manual {
        {
            let day = first + Duration::days(rng.range(1, 6));
            rng.office_time(day)
        }
    } else {
        first.and_hms_opt(0, 15, 0).expect("a valid time").and_utc() - Duration::minutes(330)
            + Duration::seconds(rng.range(1, 40))
    };
    at.min(now)
}

pub fn write(
    conn: &Connection,
    rng: &mut Rng,
    today: chrono::NaiveDate,
    summary: &mut Summary,
) -> Result<(), AppError> {
    let owner = super::store::owner_id(conn)?;
    let clients: Vec<(String, Option<String>, String)> = conn
        .prepare(
            "SELECT id, owner_id, substr(created_at, 1, 7) FROM client WHERE status = 'active' ORDER BY id",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let last = Month::of(today).previous();
    let earliest = last.plus(1 - MONTHS);
    let now = clock::now();
    let mut costs = vec![];
    let mut authors = BTreeMap::new();
    for (client_id, account_owner, joined) in clients {
        if !rng.chance(SHARE) {
            continue;
        }
        let first = Month::parse(&joined).map_or(earliest, |j| j.max(earliest));
        if first > last {
            continue;
        }
        summary.cloud_clients += 1;
        authors.insert(client_id.clone(), account_owner.unwrap_or_else(|| owner.clone()));
        for (month, amount) in series(rng, first, last) {
            costs.push(Cost {
                client_id: client_id.clone(),
                month,
                amount,
                manual: rng.chance(MANUAL_SHARE),
            });
        }
    }
    let mut insert = conn.prepare(
        "INSERT INTO cloud_cost (client_id, month, amount, source, updated_by, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let mut insert_audit = conn.prepare(
        "INSERT INTO audit (id, at, user_id, entity, entity_id, action, before, after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    // month → rows the pull wrote.
    let mut pulled: BTreeMap<Month, usize> = BTreeMap::new();
    for c in &costs {
        let at = written_at(rng, c.month, c.manual, now);
        let (source, author, action) = if c.manual {
            (MANUAL, Some(authors[&c.client_id].as_str()), "create")
        } else {
            *pulled.entry(c.month).or_default() += 1;
            (PULL, None, "pull")
        };
        let stamp = clock::timestamp(at);
        insert.execute(params![
            c.client_id,
            c.month.to_string(),
            c.amount,
            source,
            author,
            stamp
        ])?;
        insert_audit.execute(params![
            rng.id(at),
            stamp,
            author,
            "cloud_cost",
            c.client_id,
            action,
            None::<String>,
            json!({ "client_id": c.client_id, "month": c.month.to_string(), "amount": c.amount, "source": source })
                .to_string()
        ])?;
        summary.cloud_costs += 1;
        summary.audit += 1;
    }
    // Each month's pull, as the job records it.
    for (month, written) in pulled {
        let at = written_at(rng, month, false, now) + Duration::seconds(45);
        insert_audit.execute(params![
            rng.id(at),
            clock::timestamp(at.min(now)),
            None::<String>,
            PULL_ENTITY,
            month.to_string(),
            "pull",
            None::<String>,
            json!({ "month": month.to_string(), "written": written, "unchanged": 0, "skipped": [] })
                .to_string()
        ])?;
        summary.audit += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_drifts_within_its_bounds() {
        let mut rng = Rng::new(11);
        let (first, last) = (Month::parse("2024-11").unwrap(), Month::parse("2026-10").unwrap());
        for _ in 0..500 {
            let s = series(&mut rng, first, last);
            assert_eq!(s.len(), 24);
            assert_eq!((s[0].0, s[23].0), (first, last));
            assert!(s.iter().all(|(_, a)| (LOWEST..=HIGHEST).contains(a)));
            assert!(
                s.windows(2)
                    .all(|w| (w[1].1 - w[0].1).abs() <= w[0].1 * 4 / 100 + 1)
            );
        }
    }

    /// A small office: the costs are of active societies, about 60% of them, within the last 24
    /// months before the current one and not before the society joined, and each month's pull is
    /// recorded as the job would have left it.
    #[test]
    fn the_costs_are_the_active_societies_last_two_years() {
        let (_dir, conn, summary, today) = crate::demo::small_office(crate::demo::Options {
            clients: 200,
            years: 3,
            seed: 7,
        });
        let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        let last = Month::of(today).previous();
        let earliest = last.plus(1 - MONTHS);
        assert_eq!(
            one("SELECT COUNT(*) FROM cloud_cost") as usize,
            summary.cloud_costs
        );
        assert_eq!(
            one("SELECT COUNT(DISTINCT client_id) FROM cloud_cost") as usize,
            summary.cloud_clients
        );
        let active = one("SELECT COUNT(*) FROM client WHERE status = 'active'");
        let on_cloud = summary.cloud_clients as i64;
        assert!(
            on_cloud * 100 > active * 45 && on_cloud * 100 < active * 75,
            "{on_cloud} of {active} active societies on the cloud"
        );
        assert_eq!(
            one(
                "SELECT COUNT(*) FROM cloud_cost cc JOIN client c ON c.id = cc.client_id WHERE c.status <> 'active'"
            ),
            0
        );
        assert_eq!(
            one(&format!(
                "SELECT COUNT(*) FROM cloud_cost WHERE month > '{last}' OR month < '{earliest}'
                    OR amount < {LOWEST} OR amount > {HIGHEST}"
            )),
            0
        );
        assert_eq!(
            one(
                "SELECT COUNT(*) FROM cloud_cost cc JOIN client c ON c.id = cc.client_id
                  WHERE cc.month < substr(c.created_at, 1, 7)"
            ),
            0
        );
        // A society on the cloud since before the range has all 24 months.
        assert_eq!(
            one("SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM cloud_cost GROUP BY client_id)"),
            24
        );
        let manual = one("SELECT COUNT(*) FROM cloud_cost WHERE source = 'manual'");
        let all = summary.cloud_costs as i64;
        assert!(
            manual * 100 > all * 5 && manual * 100 < all * 16,
            "{manual} manual of {all}"
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM cloud_cost WHERE (source = 'manual') <> (updated_by IS NOT NULL)"),
            0
        );
        assert_eq!(
            one(&format!(
                "SELECT COUNT(*) FROM cloud_cost WHERE updated_at > '{}'",
                clock::now_timestamp()
            )),
            0
        );
        // The audit: a row per cost, and each month's pull with what it wrote.
        assert_eq!(one("SELECT COUNT(*) FROM audit WHERE entity = 'cloud_cost'"), all);
        assert_eq!(
            one(&format!(
                "SELECT COUNT(*) FROM audit WHERE entity = '{PULL_ENTITY}'"
            )),
            24
        );
        assert_eq!(
            one(&format!(
                "SELECT SUM(json_extract(after, '$.written')) FROM audit WHERE entity = '{PULL_ENTITY}'"
            )),
            all - manual
        );
        assert!(crate::cloud_costs::store::pulled(&conn, last).unwrap());
    }
}
