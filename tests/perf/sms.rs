//! SMS balances on the large office (issue 18): the report read at 1 and 16 clients next to its
//! floor, and a refresh of every subscription against a fake gateway on loopback answering
//! each poll in 100 ms, timed end to end as the manager asks for it, while other clients keep
//! reading.
//!
//! The refresh runs on the served copy with a server of its own, started with
//! `BACKOFFICE_ALLOW_PRIVATE_TARGETS=1` so it may call the loopback gateway. The gateway holds
//! the demo's logins, read from the file: each answers its balance less what the society sent
//! since the last pass (one in ten the same balance), the societies flagged `401 Invalid login`
//! have another password there (they stay flagged), and the passwords the old system left
//! encrypted are never sent (the server flags them without a call).

#[path = "../common/gateway.rs"]
mod gateway;
#[path = "../common/loopback.rs"]
mod loopback;

use crate::http::{Client, Measured};
use crate::import::{READ_EVERY, keep_reading, within};
use crate::office::{self, Server};
use crate::reads::{Fixture, Floor, Kind, PathOf, ReadScenario};
use backoffice::demo::Rng;
use backoffice::plumbing::db::page::Page;
use backoffice::sms::store::{BalanceFilter, Show};
use gateway::FakeGateway;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long the fake gateway takes over each poll.
pub const GATEWAY_DELAY: Duration = Duration::from_millis(100);
/// Clients reading beside the refresh, each one read every [`READ_EVERY`].
pub const READERS: usize = 4;

/// The report's reads, each with its floor: the session lookup, the threshold in force and the
/// store's listing, as `sms::report::page` runs them for a manager (every book, login columns).
pub fn scenarios(f: &Fixture) -> Vec<ReadScenario> {
    [
        ("low (the default)", "/api/reports/sms-balances", Show::Low, 1u32),
        (
            "all, page 3",
            "/api/reports/sms-balances?filter=all&page=3",
            Show::All,
            3,
        ),
    ]
    .into_iter()
    .map(|(what, path, show, n)| {
        let mh = f.manager_hash.clone();
        let floor: Floor = Arc::new(move |c, _| {
            backoffice::auth::store::session_by_hash(c, &mh).unwrap().unwrap();
            let threshold = backoffice::sms::report::threshold(c).unwrap();
            let filter = BalanceFilter {
                show,
                q: None,
                book: None,
                threshold,
            };
            let page = Page {
                page: n,
                per_page: 50,
                after: None,
                sort: None,
            };
            let listed = backoffice::sms::store::balances(filter, true)
                .page(c, &page)
                .unwrap();
            assert!(!listed.rows.is_empty(), "no rows on page {n} of the SMS balances");
        });
        let path: PathOf = Arc::new(move |_| path.to_string());
        ReadScenario {
            name: format!("SMS balances report (/api/reports/sms-balances), {what}"),
            kind: Kind::Report,
            path,
            cookie: f.manager.clone(),
            floor,
        }
    })
    .collect()
}

/// The counts a refresh answers (`sms::pulls::PullCounts`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub total: i64,
    pub updated: i64,
    pub unchanged: i64,
    pub flagged: i64,
    pub unreachable: i64,
}

impl Counts {
    fn of(v: &serde_json::Value) -> Counts {
        let n = |key: &str| v[key].as_i64().unwrap_or(-1);
        Counts {
            total: n("total"),
            updated: n("updated"),
            unchanged: n("unchanged"),
            flagged: n("flagged"),
            unreachable: n("unreachable"),
        }
    }
}

/// What the refresh run measured.
pub struct RefreshRun {
    pub took: Duration,
    pub server_cpu: Duration,
    /// The server's CPU per second while only the reads ran (before it), to tell the
    /// refresh's own share.
    pub reads_cpu_per_s: f64,
    pub counts: Counts,
    pub expected: Counts,
    /// Polls the gateway should see: every subscription with a login that can be sent.
    pub expected_calls: usize,
    pub gateway_calls: usize,
    pub gateway_peak: usize,
    /// Flagged subscriptions the report lists after it.
    pub flagged_listed: i64,
    /// The progress the console polls, read back when it was done.
    pub progress_done: i64,
    pub readers: usize,
    /// Reads on the idle server before it, and while it ran: (measured, slowest).
    pub before: (Measured, Duration),
    pub during: (Measured, Duration),
}

/// Registers the file's logins at `gateway` as the module's subscriptions stand in `data`;
/// answers the counts a refresh of all must give, and the polls the gateway must see.
fn register_logins(data: &Path, gateway: &FakeGateway) -> (Counts, usize) {
    let conn = crate::reads::reader(data);
    let mut stmt = conn
        .prepare(
            "SELECT cm.username, cm.password, cm.sms_balance, cm.sms_flag
             FROM client_module cm JOIN module m ON m.id = cm.module_id
             WHERE m.code = 'SMS' AND cm.active = 1 ORDER BY cm.id",
        )
        .unwrap();
    // (username, password, stored balance, flag).
    type Login = (Option<String>, Option<String>, Option<i64>, Option<String>);
    let subs: Vec<Login> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut rng = Rng::new(18);
    let mut expected = Counts::default();
    let mut calls = 0;
    for (username, password, stored, flag) in subs {
        expected.total += 1;
        let (Some(username), Some(password)) = (username, password) else {
            expected.flagged += 1;
            continue;
        };
        if password.is_empty() || password.starts_with("enc:") {
            expected.flagged += 1; // read as none: flagged without a call
            continue;
        }
        calls += 1;
        // What the society sent since the last pass; one in ten sent nothing.
        let balance = match stored {
            Some(b) if b > 0 && !rng.chance(10) => b - rng.range(1, b.min(2_000)),
            Some(b) => b,
            None => rng.range(0, 50_000),
        };
        if flag.as_deref() == Some("401 Invalid login") {
            // The password was changed at the gateway and not here.
            gateway.account(&username, &format!("{password}-changed"), balance);
            expected.flagged += 1;
        } else {
            gateway.account(&username, &password, balance);
            if Some(balance) == stored {
                expected.unchanged += 1;
            } else {
                expected.updated += 1;
            }
        }
    }
    (expected, calls)
}

/// Serves `data` with outbound calls to loopback allowed, points the SMS gateway address at a
/// fake gateway holding the file's logins, reads `paths` as the manager for `before` on the
/// idle server, then refreshes every subscription as the manager while the same reads go on.
pub fn refresh(data: &Path, paths: &[PathOf], before: Duration) -> RefreshRun {
    let gateway = FakeGateway::start();
    gateway.delay(GATEWAY_DELAY);
    let (expected, expected_calls) = register_logins(data, &gateway);
    let server = Server::start_with(data, &[("BACKOFFICE_ALLOW_PRIVATE_TARGETS", "1")]);
    let addr = server.addr.clone();
    let owner = office::sign_in(&addr, "owner@localhost", office::OWNER_PASSWORD);
    let manager = office::sign_in(&addr, "manager@demo.office", backoffice::demo::STAFF_PASSWORD);
    let mut c = Client::connect(&addr);
    let body = serde_json::json!({ "sms.balance_api_url": gateway.url }).to_string();
    let set = c.call("PUT", "/api/settings/operations", &[("Cookie", &owner)], &body);
    assert_eq!(
        set.status,
        200,
        "setting the gateway address: {}",
        String::from_utf8_lossy(&set.body)
    );
    assert_eq!(set.json()["sms.balance_api_url"], gateway.url.as_str());

    let stop = Arc::new(AtomicBool::new(false));
    let readers = keep_reading(&addr, &manager, paths, READERS, &stop);
    let read_from = Instant::now();
    let cpu = server.cpu();
    std::thread::sleep(before);
    let reads_cpu_per_s = (server.cpu() - cpu).as_secs_f64() / read_from.elapsed().as_secs_f64();
    let cpu = server.cpu();
    let from = Instant::now();
    let counts = Counts::of(
        &c.post("/api/reports/sms-balances/refresh", &manager, "", 200)
            .json(),
    );
    let to = Instant::now();
    let server_cpu = server.cpu() - cpu;
    stop.store(true, Ordering::Relaxed);
    let timed: Vec<_> = readers.into_iter().flat_map(|h| h.join().unwrap()).collect();
    let flagged_listed = c
        .get("/api/reports/sms-balances?filter=flagged&per_page=1", &manager)
        .json()["total"]
        .as_i64()
        .unwrap_or(-1);
    let progress = c.get("/api/reports/sms-balances/refresh", &manager).json();
    server.stop();
    RefreshRun {
        took: to - from,
        server_cpu,
        reads_cpu_per_s,
        counts,
        expected,
        expected_calls,
        gateway_calls: gateway.calls(),
        gateway_peak: gateway.peak_in_flight(),
        flagged_listed,
        progress_done: progress["done"].as_i64().unwrap_or(-1),
        readers: READERS,
        before: within(&timed, read_from, from),
        during: within(&timed, from, to),
    }
}

/// The reads beside the refresh, for the rows' names.
pub fn reads_named() -> String {
    format!(
        "client list, documents page 1, one document, the SMS report (low; all, page 3), the refresh's progress; \
         each client one read every {} ms",
        READ_EVERY.as_millis()
    )
}
