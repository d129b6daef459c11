//! The large office the benchmark runs on, and the release server serving it.
//!
//! `backoffice demo-data --clients 5000 --years 10` is generated once into
//! `target/bench-large.db` and reused while its key (package version, schema version, the
//! migrations' checksums and the demo options) matches `target/bench-large.key`;
//! `cargo bench -- --regen` makes it again. Each run serves a copy, so the writes of one run
//! never reach the cache.

use crate::http::Client;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_backoffice");

/// The binary served: the release build, or `BENCH_SERVER_BIN` (a build with symbols, to profile
/// the server under the benchmark's load with `perf record -p`).
fn server_bin() -> String {
    std::env::var("BENCH_SERVER_BIN").unwrap_or_else(|_| BIN.to_string())
}
pub const OWNER_PASSWORD: &str = "bench-owner-password";
pub const CLIENTS: usize = 5000;
pub const YEARS: u32 = 10;

pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// What the cached file was made with; a different key makes it again. The migrations'
/// checksums are in it: a migration not yet shipped may still change under the same version,
/// and the server refuses a file whose applied migration differs from its own.
fn cache_key() -> String {
    let migrations = backoffice::plumbing::db::embedded_migrations()
        .iter()
        .fold(0u64, |sum, m| sum.rotate_left(7) ^ m.checksum());
    format!(
        "backoffice {} schema V{} (migrations {migrations:016x}) demo-data --clients {CLIENTS} --years {YEARS} --seed 1",
        env!("CARGO_PKG_VERSION"),
        backoffice::plumbing::db::latest_schema_version()
    )
}

/// The cached large office, made when missing, stale or asked for (`--regen`); answers its
/// path and how long making it took, if it was made now.
pub fn large_office(regen: bool) -> (PathBuf, Option<Duration>) {
    let dir = target_dir();
    let (db, key_file) = (dir.join("bench-large.db"), dir.join("bench-large.key"));
    let fresh =
        !regen && db.exists() && std::fs::read_to_string(&key_file).ok().as_deref() == Some(&cache_key());
    if fresh {
        return (db, None);
    }
    std::fs::create_dir_all(&dir).unwrap();
    let making = dir.join("bench-large.db.making");
    for stale in [&db, &making] {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", stale.display()));
        }
    }
    let _ = std::fs::remove_file(&key_file);
    println!("generating the large office into {} ...", db.display());
    let started = Instant::now();
    let status = Command::new(BIN)
        .args([
            "demo-data",
            "--clients",
            &CLIENTS.to_string(),
            "--years",
            &YEARS.to_string(),
            "--data",
        ])
        .arg(&making)
        .env("BACKOFFICE_OWNER_PASSWORD", OWNER_PASSWORD)
        .env("RUST_LOG", "warn")
        .status()
        .unwrap();
    assert!(status.success(), "demo-data failed");
    let took = started.elapsed();
    assert!(
        !Path::new(&format!("{}-wal", making.display())).exists(),
        "demo-data left a WAL"
    );
    std::fs::rename(&making, &db).unwrap();
    std::fs::write(&key_file, cache_key()).unwrap();
    (db, Some(took))
}

/// A running release server.
pub struct Server {
    child: Child,
    pub addr: String,
    /// From spawning the process to the first 200 of /api/health.
    pub start_to_healthy: Duration,
}

impl Server {
    /// Starts `serve` on `data` (no scheduled snapshots: a 1 GB VACUUM INTO a minute into the
    /// run would be measured with everything else) and waits for /api/health.
    pub fn start(data: &Path) -> Server {
        Server::start_with(data, &[])
    }

    /// [`Server::start`] with more environment (e.g. `BACKOFFICE_ALLOW_PRIVATE_TARGETS=1`, so
    /// outbound calls may reach a fake service on loopback).
    pub fn start_with(data: &Path, env: &[(&str, &str)]) -> Server {
        let started = Instant::now();
        let mut child = Command::new(server_bin())
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--trusted-proxy",
                "127.0.0.1",
                "--backup-every-hours",
                "0",
                "--data",
            ])
            .arg(data)
            .env("BACKOFFICE_OWNER_PASSWORD", OWNER_PASSWORD)
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .rsplit("http://")
            .next()
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        let mut client = Client::connect(&addr);
        while client.call("GET", "/api/health", &[], "").status != 200 {
            std::thread::sleep(Duration::from_millis(1));
        }
        let start_to_healthy = started.elapsed();
        // The job thread runs the day's jobs at start (the first start on a file raises its
        // reminders); the scenarios are measured after every job has run, not beside them.
        let file =
            rusqlite::Connection::open_with_flags(data, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        let deadline = Instant::now() + Duration::from_secs(120);
        while file
            .query_row(
                "SELECT (SELECT COUNT(DISTINCT job) FROM job_run WHERE outcome <> 'running') < ?1
                     OR EXISTS (SELECT 1 FROM job_run WHERE outcome = 'running')",
                [backoffice::jobs::JOBS.len() as i64],
                |r| r.get::<_, bool>(0),
            )
            .unwrap_or(true)
        {
            assert!(
                Instant::now() < deadline,
                "the start-up scan did not end within 2 minutes"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Server {
            child,
            addr,
            start_to_healthy,
        }
    }

    /// A line of /proc/PID/status in bytes, e.g. `VmRSS` or `VmHWM` (Linux).
    pub fn memory(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status
            .lines()
            .find(|l| l.starts_with(&format!("{field}:")))
            .unwrap_or_else(|| panic!("no {field} in /proc/PID/status"));
        let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kb * 1024
    }

    /// CPU time the server has used so far (user + system).
    pub fn cpu(&self) -> Duration {
        cpu_of(&self.child.id().to_string())
    }

    /// SIGTERM and wait: the server checkpoints the WAL into the file on a clean stop.
    pub fn stop(self) {
        drop(self);
    }
}

impl Drop for Server {
    /// Also when the benchmark panics, so no server outlives it.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// Copies the data file (and a WAL, should one be left) to `to`.
pub fn copy_data(from: &Path, to: &Path) {
    std::fs::copy(from, to).unwrap();
    let wal = PathBuf::from(format!("{}-wal", from.display()));
    if wal.exists() {
        std::fs::copy(&wal, format!("{}-wal", to.display())).unwrap();
    }
}

/// Signs in; answers the cookie pair.
pub fn sign_in(addr: &str, user: &str, password: &str) -> String {
    let body = format!(r#"{{"username":"{user}","password":"{password}"}}"#);
    let reply = Client::connect(addr).call("POST", "/api/auth/login", &[], &body);
    assert_eq!(
        reply.status,
        200,
        "sign-in of {user}: {}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.cookie.unwrap()
}

/// CPU time (user + system) of process `pid` ("self" for this one), from /proc/PID/stat.
/// The peak resident memory (VmHWM) of process `pid` so far, in MB (0 once it is gone).
pub fn peak_rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
}

pub fn cpu_of(pid: &str) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10) // USER_HZ is 100 on Linux
}
