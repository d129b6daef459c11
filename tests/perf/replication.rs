//! Litestream beside the server on the large office, set up from `packaging/litestream/`: how
//! far behind the replica runs under the mixed office day, the write throughput with
//! replication on against off, and the restore of the large office from the file replica.
//!
//! Two copies of the benchmark's file are served at once: one by a plain server ("off"), one by a
//! server with `BACKOFFICE_REPLICATED=1` and Litestream beside it ("on"), the replica a folder
//! on the same disk. After a warm-up of each, the runs go off, on, on, off. The lag is measured
//! on a run of its own: a probe writes a draft every 200 ms and polls a follower (`litestream
//! restore -f`, 10 ms) until the draft is there; the follower's own polling is part of the
//! figure. Litestream comes from `target/fuzz-venv` (tests/run.sh) or `LITESTREAM`; without it
//! the section is skipped.

use crate::http::{Client, Measured, Work, drive};
use crate::office::{Server, cpu_of};
use crate::reads::{Fixture, ReadScenario};
use crate::{Row, check, mixed, ms, writes};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What the replica may lag behind under the office day: the recipe's promise.
const PROMISE: Duration = Duration::from_secs(2);
/// The least the throughput may keep with replication on.
const KEPT: f64 = 0.9;

fn litestream_bin() -> Option<PathBuf> {
    let path = std::env::var_os("LITESTREAM")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-venv/bin/litestream"));
    path.exists().then_some(path)
}

/// A Litestream process (replicate, or a following restore), stopped with SIGTERM when dropped.
struct Litestream(Child);

impl Litestream {
    fn spawn(bin: &Path, args: &[&str], log: &Path) -> Litestream {
        let log = std::fs::File::create(log).unwrap();
        Litestream(
            Command::new(bin)
                .args(args)
                .stdout(log.try_clone().unwrap())
                .stderr(log)
                .spawn()
                .unwrap(),
        )
    }

    fn running(&mut self) -> bool {
        self.0.try_wait().is_ok_and(|exited| exited.is_none())
    }

    fn pid(&self) -> String {
        self.0.id().to_string()
    }

    fn peak_rss_mb(&self) -> f64 {
        crate::office::peak_rss_mb(self.0.id())
    }
}

impl Drop for Litestream {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let _ = self.0.wait();
    }
}

/// Waits (at most `within`) until `ready` holds.
fn wait_for(what: &str, within: Duration, mut ready: impl FnMut() -> bool) -> Duration {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < within, "{what}: not within {within:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    started.elapsed()
}

/// Whether `dir` holds a whole LTX file (one being written has another name until it is whole).
fn has_ltx(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|d| {
        d.flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".ltx"))
    })
}

/// Adds the rows and facts of the section; skipped without Litestream.
pub fn section(
    data: &Path,
    fixture: &Arc<Fixture>,
    scenarios: &[ReadScenario],
    quick: bool,
    rows: &mut Vec<Row>,
    facts: &mut Vec<(String, bool, &'static str)>,
) {
    let Some(bin) = litestream_bin() else {
        facts.push((
            "replication: skipped, Litestream is missing (tests/run.sh installs it)".into(),
            true,
            "",
        ));
        return;
    };
    let dir = tempfile::TempDir::new().unwrap();
    let (off, on) = (dir.path().join("off.db"), dir.path().join("on.db"));
    crate::office::copy_data(data, &off);
    crate::office::copy_data(data, &on);
    let plain = Server::start(&off);
    let replicated = Server::start_with(&on, &[("BACKOFFICE_REPLICATED", "1")]);
    let (writes_budget, day_budget) = if quick {
        (Duration::from_secs(2), Duration::from_secs(3))
    } else {
        (Duration::from_secs(5), Duration::from_secs(10))
    };
    let day = || mixed::office_day(fixture, scenarios, Arc::new(AtomicUsize::new(0)));
    let lag_of =
        |replica: &Path| lag_under_day(&bin, dir.path(), replica, &replicated, fixture, day_budget, day());

    // Where the lag comes from: the same day under Litestream's default intervals (1 s and 1 s),
    // with a replica and a state of their own, then the recipe's.
    let recipe = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/litestream/litestream.yml"),
    )
    .unwrap();
    let defaults = recipe.replace("interval: 200ms", "interval: 1s").replace(
        "  - path: /var/lib/backoffice/backoffice.db",
        &format!(
            "  - path: /var/lib/backoffice/backoffice.db\n    meta-path: {}",
            dir.path().join("defaults-state").display()
        ),
    );
    let (replicating, replica, _) = replicate(&bin, dir.path(), "defaults", &defaults, &on);
    let (lag, _) = lag_of(&replica);
    drop(replicating);
    facts.push((lag.fact("Litestream's default intervals (1 s and 1 s)"), true, ""));

    let (replicating, replica, first_copy) = replicate(&bin, dir.path(), "recipe", &recipe, &on);

    // The same loads off and on.
    let next = Arc::new(AtomicUsize::new(1 << 20));
    let loads: [(&str, Duration, Work); 2] = [
        (
            "issue an invoice (create draft + issue), per invoice",
            writes_budget,
            writes::issue_invoice(fixture, next),
        ),
        ("mixed office day", day_budget, day()),
    ];
    let servers = [&plain, &replicated];
    for server in servers {
        drive(&server.addr, 16, Duration::from_secs(2), 16, loads[1].2.clone());
    }
    let litestream_cpu = cpu_of(&replicating.pid());
    for (name, budget, work) in &loads {
        let mut measured: [Vec<Measured>; 2] = [vec![], vec![]];
        // Off, on, on, off: a drift over the runs (the files grow) weighs on both alike.
        for side in [0, 1, 1, 0] {
            measured[side].push(drive(&servers[side].addr, 16, *budget, 16, work.clone()));
        }
        let rate = |m: &[Measured]| m.iter().map(|m| m.rate).sum::<f64>() / m.len() as f64;
        let (rate_off, rate_on) = (rate(&measured[0]), rate(&measured[1]));
        for (side, what) in [(0, "replication off"), (1, "replicated by Litestream")] {
            let last = *measured[side].last().unwrap();
            let mut row = Row {
                scenario: format!(
                    "{name}, {what} (two runs: {:.0} and {:.0} req/s)",
                    measured[side][0].rate, last.rate
                ),
                clients: 16,
                server: Measured {
                    rate: rate(&measured[side]),
                    ..last
                },
                floor: None,
                checks: vec![],
            };
            if side == 1 {
                row.checks.push(check(
                    format!(
                        "≥ {:.0} % of off ({:.0} %)",
                        KEPT * 100.0,
                        rate_on * 100.0 / rate_off
                    ),
                    rate_on >= KEPT * rate_off,
                ));
            }
            println!("{}", crate::line(&row));
            rows.push(row);
        }
    }
    let litestream_cpu = cpu_of(&replicating.pid()) - litestream_cpu;
    drop(plain);

    let (lag, follower_cpu) = lag_of(&replica);
    facts.push((
        lag.fact("the recipe's intervals (200 ms and 200 ms)"),
        lag.worst <= PROMISE,
        "≤ 2 s",
    ));

    // A clean stop, as systemd does it: the server, then Litestream, which ships what is left.
    let peak = replicating.peak_rss_mb();
    drop(replicated);
    drop(replicating);
    let restored = dir.path().join("restored.db");
    let started = Instant::now();
    let done = Command::new(&bin)
        .args(["restore", "-o"])
        .arg(&restored)
        .arg(format!("file://{}", replica.display()))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let restore = started.elapsed();
    assert!(done.success(), "litestream restore");
    let documents = |file: &Path| -> i64 {
        rusqlite::Connection::open(file)
            .unwrap()
            .query_row("SELECT COUNT(*) FROM document", [], |r| r.get(0))
            .unwrap()
    };
    let (served, back) = (documents(&on), documents(&restored));
    let size = |file: &Path| std::fs::metadata(file).map_or(0, |m| m.len()) as f64 / 1_048_576.0;
    let replica_mb: f64 = walk(&replica).iter().map(|f| size(f)).sum();
    facts.push((
        format!(
            "restore of the large office ({:.0} MB) from the file replica ({:.0} MB of LTX files, {} of them): \
             {:.1} s, {back} documents as served ({served})",
            size(&restored),
            replica_mb,
            walk(&replica).len(),
            restore.as_secs_f64()
        ),
        back == served,
        "as served",
    ));
    facts.push((
        format!(
            "Litestream beside the server: its first copy of the large office to the replica took {:.1} s; through \
             the throughput runs it used {:.1} s of CPU, at most {peak:.0} MB of memory; the follower used {:.1} s \
             of CPU through the lag run",
            first_copy.as_secs_f64(),
            litestream_cpu.as_secs_f64(),
            follower_cpu.as_secs_f64()
        ),
        true,
        "",
    ));
}

/// Starts Litestream with the settings `yml` (the recipe's, or a variant) for the data file `on`
/// and a replica of its own named `name`, and waits for its first copy of the whole file; answers
/// the process, the replica and how long the first copy took.
fn replicate(bin: &Path, dir: &Path, name: &str, yml: &str, on: &Path) -> (Litestream, PathBuf, Duration) {
    let replica = dir.join(format!("replica-{name}"));
    let config = dir.join(format!("{name}.yml"));
    let yml = yml
        .replace("/var/lib/backoffice/backoffice.db", &on.display().to_string())
        .replace(
            "file:///mnt/backoffice-replica",
            &format!("file://{}", replica.display()),
        );
    std::fs::write(&config, yml).unwrap();
    let process = Litestream::spawn(
        bin,
        &["replicate", "-config", &config.display().to_string()],
        &dir.join(format!("{name}.log")),
    );
    let first = wait_for("the first copy to the replica", Duration::from_secs(600), || {
        has_ltx(&replica.join("ltx/0"))
    });
    // The copies of the file and the first copy to the replica leave gigabytes for the kernel
    // to write back; a commit's fsync measured meanwhile would wait behind them.
    assert!(Command::new("sync").status().unwrap().success());
    (process, replica, first)
}

/// How far behind the replica ran.
struct Lag {
    p50: Duration,
    p99: Duration,
    worst: Duration,
    probes: usize,
    /// The day's requests per second, and how long the follower's first restore took.
    day: f64,
    follower_restore: Duration,
}

impl Lag {
    fn fact(&self, under: &str) -> String {
        format!(
            "replication lag under the mixed office day ({:.0} req/s at 16 clients) with {under}: a draft written \
             every 200 ms was on the replica after p50 {:.0} ms, p99 {:.0} ms, at worst {:.0} ms ({} drafts; the \
             figure includes the follower's 10 ms polling and applying; its first restore took {:.1} s)",
            self.day,
            ms(self.p50),
            ms(self.p99),
            ms(self.worst),
            self.probes,
            self.follower_restore.as_secs_f64()
        )
    }
}

/// Runs the office day on `server` while a probe measures how far `replica` runs behind, seen
/// through a follower; answers the lag and the follower's CPU.
fn lag_under_day(
    bin: &Path,
    dir: &Path,
    replica: &Path,
    server: &Server,
    fixture: &Arc<Fixture>,
    budget: Duration,
    day: Work,
) -> (Lag, Duration) {
    let follower = dir.join(format!(
        "follower-of-{}.db",
        replica.file_name().unwrap().to_string_lossy()
    ));
    let mut following = Litestream::spawn(
        bin,
        &[
            "restore",
            "-f",
            "-follow-interval",
            "10ms",
            "-o",
            &follower.display().to_string(),
            &format!("file://{}", replica.display()),
        ],
        &dir.join("follow.log"),
    );
    // It restores into a file beside and renames it when whole.
    let follower_restore = wait_for("the follower's first restore", Duration::from_secs(600), || {
        assert!(
            following.running(),
            "the follower stopped: see {}",
            dir.join("follow.log").display()
        );
        follower.exists()
    });
    std::thread::sleep(Duration::from_secs(2));
    let stop = Arc::new(AtomicBool::new(false));
    let probe = std::thread::spawn({
        let (addr, f, stop, follower) = (
            server.addr.clone(),
            fixture.clone(),
            stop.clone(),
            follower.clone(),
        );
        move || probe_lags(&addr, &f, &stop, &follower)
    });
    let measured = drive(&server.addr, 16, budget, 16, day);
    stop.store(true, Ordering::Relaxed);
    let mut lags = probe.join().unwrap();
    let cpu = cpu_of(&following.pid());
    lags.sort();
    let pct = |p: f64| lags[((lags.len() as f64 * p) as usize).min(lags.len() - 1)];
    let lag = Lag {
        p50: pct(0.5),
        p99: pct(0.99),
        worst: *lags.last().unwrap(),
        probes: lags.len(),
        day: measured.rate,
        follower_restore,
    };
    (lag, cpu)
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = vec![];
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// Writes a draft every 200 ms until `stop`, whatever the replica does (so that the drafts fall
/// anywhere between two copies), and answers for each how long after its acknowledgement it was
/// in the follower's copy, polled every 5 ms.
fn probe_lags(addr: &str, f: &Fixture, stop: &AtomicBool, follower: &Path) -> Vec<Duration> {
    let mut client = Client::connect(addr);
    let mut pending: Vec<(String, Instant)> = vec![];
    let mut lags = vec![];
    let mut next = Instant::now();
    for n in 0.. {
        let stopping = stop.load(Ordering::Relaxed);
        if stopping && pending.is_empty() {
            break;
        }
        if !stopping && Instant::now() >= next {
            next += Duration::from_millis(200);
            let client_id = &f.clients[n % f.clients.len()];
            let id = writes::create_draft(&mut client, &f.manager, client_id, &f.priced_module);
            pending.push((id, Instant::now()));
        }
        let seen: Vec<String> =
            rusqlite::Connection::open_with_flags(follower, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .and_then(|c| {
                    let ids: Vec<String> = pending.iter().map(|(id, _)| format!("'{id}'")).collect();
                    let sql = format!("SELECT id FROM document WHERE id IN ({})", ids.join(","));
                    let mut stmt = c.prepare(&sql)?;
                    stmt.query_map([], |r| r.get(0))?.collect()
                })
                .unwrap_or_default();
        pending.retain(|(id, acked)| {
            let there = seen.contains(id);
            if there {
                lags.push(acked.elapsed());
            }
            assert!(
                acked.elapsed() < Duration::from_secs(30),
                "draft {id} never reached the replica"
            );
            !there
        });
        std::thread::sleep(Duration::from_millis(5));
    }
    lags
}
