//! The daily scan on the large office (spec 6.3): a new day's scan through the API (it must end
//! in under 5 s), the same day again (under 1 s, raising nothing), a month missed at once, and
//! the scan running beside a mixed office day (its p99 is the row; `bench.rs` drives it).

use crate::http::Client;
use chrono::{Days, NaiveDate};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One scan for `as_of` through `POST /api/jobs/daily-scan`: how long it took and how many
/// reminders it raised.
pub fn scan(c: &mut Client, owner: &str, as_of: NaiveDate) -> (Duration, i64) {
    let started = Instant::now();
    let reply = c.post(
        "/api/jobs/daily-scan",
        owner,
        &format!(r#"{{"as_of":"{as_of}"}}"#),
        200,
    );
    let took = started.elapsed();
    let created = reply.json()["created"]
        .as_object()
        .map(|m| m.values().filter_map(|v| v.as_i64()).sum())
        .unwrap_or(0);
    (took, created)
}

/// The scan's facts: (text, met, target).
pub fn facts(addr: &str, owner: &str, today: NaiveDate) -> Vec<(String, bool, &'static str)> {
    let mut c = Client::connect(addr);
    let day = |n: u64| today.checked_add_days(Days::new(n)).unwrap();
    let (first, raised) = scan(&mut c, owner, day(1));
    let (again, none) = scan(&mut c, owner, day(1));
    let (month, caught_up) = scan(&mut c, owner, day(31));
    let s = |d: Duration| d.as_secs_f64();
    vec![
        (
            format!(
                "daily scan of a new day on the large office: {:.2} s, {raised} reminders raised",
                s(first)
            ),
            s(first) < 5.0,
            "< 5 s",
        ),
        (
            format!("the same day scanned again: {:.2} s, {none} raised", s(again)),
            s(again) < 1.0 && none == 0,
            "< 1 s, 0 raised",
        ),
        (
            format!(
                "a month missed, scanned at once: {:.2} s, {caught_up} raised (the highest rung of each ladder only)",
                s(month)
            ),
            s(month) < 5.0,
            "< 5 s",
        ),
    ]
}

/// Runs daily scans one after another (each a further day, so each raises rows) until `stop`;
/// counts them in `runs`.
pub fn keep_scanning(
    addr: String,
    owner: String,
    today: NaiveDate,
    stop: Arc<AtomicBool>,
    runs: Arc<AtomicUsize>,
) {
    let mut c = Client::connect(&addr);
    let mut n = 40;
    while !stop.load(Ordering::Relaxed) {
        scan(&mut c, &owner, today.checked_add_days(Days::new(n)).unwrap());
        runs.fetch_add(1, Ordering::Relaxed);
        n += 1;
    }
}
