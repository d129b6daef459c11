//! Crash safety of the real binary. Round after round the server is started on the same data
//! file, four writers create, issue and pay invoices at once, and after a random (seeded) delay
//! the process is killed with SIGKILL. The data file is then opened directly and must be intact:
//! everything the server acknowledged is there, and no transaction is half done (no issued
//! document without its number, lines, event or audit row; no gap in any number series; no
//! payment without its receipt, allocation or audit row; no allocation without its payment).
//! The next round must start on that file (the lock of the killed process must not block it).
//!
//! `CRASH_SEED=<n>` replays another sequence of kill delays.

#![cfg(unix)]

use crate::common::server::try_call;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_backoffice");
const OWNER: &str = "owner@localhost";
const OWNER_PASSWORD: &str = "crash-owner-password";
const ROUNDS: usize = 24;
const WRITERS: usize = 4;
const UNIT_PRICE: i64 = 100_000;

/// splitmix64: a seeded, dependency-free source of kill delays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn between(&mut self, low: u64, high: u64) -> u64 {
        low + self.next() % (high - low + 1)
    }
}

/// The server as a child process we can kill with SIGKILL.
struct Running {
    child: Child,
    addr: String,
    _stdout: BufReader<ChildStdout>,
}

fn start(data: &Path, log: &Path) -> Running {
    let stderr = std::fs::File::create(log).unwrap();
    let mut child = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .env("BACKOFFICE_OWNER_PASSWORD", OWNER_PASSWORD)
        .env("BACKOFFICE_BACKUP_EVERY_HOURS", "0")
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let Some(addr) = line.trim().split("http://").nth(1).map(str::to_string) else {
        let status = child.wait().unwrap();
        panic!(
            "the server did not start on {} ({status}); its log:\n{}",
            data.display(),
            std::fs::read_to_string(log).unwrap_or_default()
        );
    };
    Running {
        child,
        addr,
        _stdout: stdout,
    }
}

/// One request; `None` when the server died before answering it whole.
fn call(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&Value>,
) -> Option<(u16, Value)> {
    try_call(addr, method, path, cookie, body).map(|(status, _, body)| (status, body))
}

#[derive(Default)]
struct Acked {
    drafts: Vec<String>,
    /// (document id, docNo, total)
    issued: Vec<(String, String, i64)>,
    /// (payment id, receipt_no, invoice id, amount)
    payments: Vec<(String, String, String, i64)>,
}

/// What the writers saw go wrong while the server was meant to be alive.
type Problems = Mutex<Vec<String>>;

fn text(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_string()
}

/// What the writers of one round share.
struct Round<'a> {
    addr: &'a str,
    cookie: &'a str,
    client: &'a str,
    received_on: &'a str,
    /// Set just before the SIGKILL: from then on a request without an answer is expected.
    killed: &'a AtomicBool,
    acked: &'a Mutex<Acked>,
    problems: &'a Problems,
}

/// Creates, issues and pays invoices until the server is killed; records what was acknowledged.
fn writer(round: &Round<'_>, who: usize) {
    let Round {
        addr,
        cookie,
        client,
        received_on,
        killed,
        acked,
        problems,
    } = *round;
    // A request that comes back with an answer must be a success; one without an answer is
    // acceptable only once the kill has been decided.
    let expect = |what: &str, reply: Option<(u16, Value)>, want: u16| -> Option<Value> {
        match reply {
            Some((status, body)) if status == want => Some(body),
            Some((status, body)) => {
                problems
                    .lock()
                    .unwrap()
                    .push(format!("writer {who}: {what} answered {status}: {body}"));
                None
            }
            None => {
                if !killed.load(Ordering::SeqCst) {
                    problems
                        .lock()
                        .unwrap()
                        .push(format!("writer {who}: {what} got no answer before the kill"));
                }
                None
            }
        }
    };
    for n in 0.. {
        let body = json!({ "type": "INVOICE", "client_id": client,
            "lines": [ { "description": format!("Support visit {who}-{n}"), "qty": 1, "unit_price": UNIT_PRICE } ] });
        let Some(draft) = expect(
            "create",
            call(addr, "POST", "/api/documents", Some(cookie), Some(&body)),
            201,
        ) else {
            return;
        };
        let id = text(&draft, "id");
        acked.lock().unwrap().drafts.push(id.clone());
        let Some(issued) = expect(
            "issue",
            call(
                addr,
                "POST",
                &format!("/api/documents/{id}/issue"),
                Some(cookie),
                Some(&json!({})),
            ),
            200,
        ) else {
            return;
        };
        let total = issued["total"].as_i64().unwrap_or_default();
        acked
            .lock()
            .unwrap()
            .issued
            .push((id.clone(), text(&issued, "docNo"), total));
        // Two payments settle it, half each.
        for part in [total / 2, total - total / 2] {
            let body = json!({ "client_id": client, "received_on": received_on, "amount": part, "mode": "upi",
                "reference": format!("UPI-{who}-{n}"),
                "allocations": [ { "document_id": id, "amount": part, "tds": 0 } ] });
            let Some(paid) = expect(
                "payment",
                call(addr, "POST", "/api/payments", Some(cookie), Some(&body)),
                201,
            ) else {
                return;
            };
            acked.lock().unwrap().payments.push((
                text(&paid, "id"),
                text(&paid, "receipt_no"),
                id.clone(),
                part,
            ));
        }
    }
}

/// `INV/26-27-0012` → ("INV", "26-27", 12).
fn parse_number(number: &str) -> (String, String, i64) {
    let (prefix, rest) = number
        .split_once('/')
        .unwrap_or_else(|| panic!("bad number {number}"));
    let (fy, seq) = rest
        .rsplit_once('-')
        .unwrap_or_else(|| panic!("bad number {number}"));
    (
        prefix.into(),
        fy.into(),
        seq.parse().unwrap_or_else(|_| panic!("bad number {number}")),
    )
}

fn count(conn: &Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Everything the data file must show after a kill.
fn check_file(data: &Path, acked: &Acked, round: usize) {
    let conn = Connection::open(data).unwrap();
    let integrity: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(integrity, ["ok"], "round {round}: integrity check");
    let broken_keys: i64 = conn
        .prepare("PRAGMA foreign_key_check")
        .unwrap()
        .query_map([], |_| Ok(()))
        .unwrap()
        .count() as i64;
    assert_eq!(broken_keys, 0, "round {round}: foreign key check");

    // Every acknowledged request is there.
    for id in &acked.drafts {
        let found: Option<String> = conn
            .query_row("SELECT id FROM document WHERE id = ?1", [id], |r| r.get(0))
            .optional()
            .unwrap();
        assert!(
            found.is_some(),
            "round {round}: acknowledged draft {id} is missing"
        );
    }
    for (id, doc_no, total) in &acked.issued {
        let row: Option<(String, Option<String>, i64)> = conn
            .query_row(
                "SELECT status, doc_no, total FROM document WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .unwrap();
        assert_eq!(
            row,
            Some(("issued".to_string(), Some(doc_no.clone()), *total)),
            "round {round}: acknowledged issue of {id}"
        );
        let lines: (i64, i64, i64) = conn
            .query_row(
                "SELECT COUNT(*), COALESCE(SUM(unit_price), 0), COALESCE(SUM(total), 0) FROM document_line WHERE document_id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(lines, (1, UNIT_PRICE, *total), "round {round}: lines of {doc_no}");
    }
    for (id, receipt_no, invoice, amount) in &acked.payments {
        let row: Option<(String, i64)> = conn
            .query_row(
                "SELECT receipt_no, amount FROM payment WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .unwrap();
        assert_eq!(
            row,
            Some((receipt_no.clone(), *amount)),
            "round {round}: acknowledged payment {id}"
        );
        let allocations: Vec<(String, i64, i64)> = conn
            .prepare("SELECT document_id, amount, tds FROM payment_allocation WHERE payment_id = ?1")
            .unwrap()
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            allocations,
            [(invoice.clone(), *amount, 0)],
            "round {round}: allocation of {receipt_no}"
        );
    }

    // No half-done transaction, acknowledged or not.
    for (what, sql) in [
        ("an issued document without a number", "SELECT COUNT(*) FROM document WHERE status <> 'draft' AND doc_no IS NULL"),
        ("a draft with a number", "SELECT COUNT(*) FROM document WHERE status = 'draft' AND doc_no IS NOT NULL"),
        ("a document without lines", "SELECT COUNT(*) FROM document d WHERE NOT EXISTS (SELECT 1 FROM document_line l WHERE l.document_id = d.id)"),
        (
            "a document whose total is not the sum of its lines",
            "SELECT COUNT(*) FROM document d WHERE d.total <> (SELECT SUM(l.total) FROM document_line l WHERE l.document_id = d.id) + d.round_off",
        ),
        (
            "a numbered document without its issued event",
            "SELECT COUNT(*) FROM document d WHERE d.doc_no IS NOT NULL AND NOT EXISTS
               (SELECT 1 FROM document_event e WHERE e.document_id = d.id AND e.kind = 'issued')",
        ),
        (
            "a numbered document without its audit row",
            "SELECT COUNT(*) FROM document d WHERE d.doc_no IS NOT NULL AND NOT EXISTS
               (SELECT 1 FROM audit a WHERE a.entity = 'document' AND a.entity_id = d.id AND a.action = 'issued')",
        ),
        ("a payment without its receipt number", "SELECT COUNT(*) FROM payment WHERE receipt_no IS NULL OR receipt_no = ''"),
        (
            "a payment without its allocation (every payment here was recorded with one)",
            "SELECT COUNT(*) FROM payment p WHERE NOT EXISTS (SELECT 1 FROM payment_allocation a WHERE a.payment_id = p.id)",
        ),
        (
            "a payment without its audit row",
            "SELECT COUNT(*) FROM payment p WHERE NOT EXISTS
               (SELECT 1 FROM audit a WHERE a.entity = 'payment' AND a.entity_id = p.id AND a.action = 'recorded')",
        ),
        (
            "an allocation whose payment is missing",
            "SELECT COUNT(*) FROM payment_allocation a WHERE NOT EXISTS (SELECT 1 FROM payment p WHERE p.id = a.payment_id)",
        ),
        (
            "an allocation to something other than an issued invoice",
            "SELECT COUNT(*) FROM payment_allocation a LEFT JOIN document d ON d.id = a.document_id
               WHERE d.id IS NULL OR d.type <> 'INVOICE' OR d.status = 'draft'",
        ),
        (
            "an invoice allocated past its total",
            "SELECT COUNT(*) FROM document d WHERE d.type = 'INVOICE' AND d.total <
               (SELECT COALESCE(SUM(a.amount + a.tds), 0) FROM payment_allocation a WHERE a.document_id = d.id)",
        ),
    ] {
        assert_eq!(count(&conn, sql), 0, "round {round}: found {what}");
    }

    // Every series is 1..=last_seq, each number exactly once, and nothing is numbered outside one.
    let series: BTreeMap<(String, String), i64> = conn
        .prepare("SELECT prefix, fy, last_seq FROM number_series")
        .unwrap()
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut numbers: BTreeMap<(String, String), Vec<i64>> = BTreeMap::new();
    let all: Vec<String> = conn
        .prepare(
            "SELECT doc_no FROM document WHERE doc_no IS NOT NULL UNION ALL SELECT receipt_no FROM payment",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for number in &all {
        let (prefix, fy, seq) = parse_number(number);
        numbers.entry((prefix, fy)).or_default().push(seq);
    }
    assert_eq!(
        numbers.keys().collect::<Vec<_>>(),
        series.keys().collect::<Vec<_>>(),
        "round {round}: numbered series and number_series rows"
    );
    for (key, seqs) in &mut numbers {
        seqs.sort_unstable();
        let expected: Vec<i64> = (1..=series[key]).collect();
        assert_eq!(
            *seqs, expected,
            "round {round}: series {key:?} has a gap or a repeat"
        );
    }
    let receipts = series
        .iter()
        .filter(|((prefix, _), _)| prefix == "RCT")
        .map(|(_, n)| n)
        .sum::<i64>();
    assert_eq!(
        receipts,
        count(&conn, "SELECT COUNT(*) FROM payment"),
        "round {round}: receipts"
    );
}

#[test]
fn sigkill_mid_write_leaves_a_whole_data_file_every_time() {
    // Each kill comes after a random delay and must find the writers at work: no other test
    // competes with them for the machine.
    let _machine = crate::common::alone();
    let seed = std::env::var("CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_CAFE_u64);
    eprintln!("crash test seed: {seed} (CRASH_SEED to replay)");
    let mut rng = Rng(seed);
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("office.db");
    let log = dir.path().join("server.log");
    // Received today (UTC): never after the office's today, which is ahead of UTC.
    let today = chrono::Utc::now().date_naive().to_string();
    let acked = Mutex::new(Acked::default());
    let problems: Problems = Mutex::new(vec![]);
    let mut cookie = String::new();
    let mut client = String::new();
    let started = Instant::now();

    for round in 0..ROUNDS {
        let mut server = start(&data, &log);
        let addr = server.addr.clone();
        if round == 0 {
            let (status, signed_in, body) = try_call(
                &addr,
                "POST",
                "/api/auth/login",
                None,
                Some(&json!({ "username": OWNER, "password": OWNER_PASSWORD })),
            )
            .unwrap();
            assert_eq!(status, 200, "{body}");
            cookie = signed_in.unwrap();
            let (status, body) = call(
                &addr,
                "POST",
                "/api/clients",
                Some(&cookie),
                Some(&json!({ "name": "Kadakkal Service Co-operative Bank", "state_code": "32" })),
            )
            .unwrap();
            assert_eq!(status, 201, "{body}");
            client = text(&body, "id");
        } else {
            // The session lives in the data file: it survives the kill.
            let (status, me) = call(&addr, "GET", "/api/me", Some(&cookie), None).unwrap();
            assert_eq!(status, 200, "round {round}: the session after a kill: {me}");
            // What was acknowledged before the kill is served after the restart.
            let last = acked.lock().unwrap().issued.last().cloned();
            if let Some((id, doc_no, _)) = last {
                let (status, doc) =
                    call(&addr, "GET", &format!("/api/documents/{id}"), Some(&cookie), None).unwrap();
                assert_eq!(
                    (status, doc["docNo"].as_str()),
                    (200, Some(doc_no.as_str())),
                    "round {round}: {doc}"
                );
            }
        }

        let killed = AtomicBool::new(false);
        let delay = Duration::from_millis(rng.between(50, 400));
        let shared = Round {
            addr: &addr,
            cookie: &cookie,
            client: &client,
            received_on: &today,
            killed: &killed,
            acked: &acked,
            problems: &problems,
        };
        std::thread::scope(|scope| {
            for who in 0..WRITERS {
                let shared = &shared;
                scope.spawn(move || writer(shared, who));
            }
            std::thread::sleep(delay);
            killed.store(true, Ordering::SeqCst);
            server.child.kill().unwrap();
        });
        let status = server.child.wait().unwrap();
        assert_eq!(
            status.signal(),
            Some(9),
            "round {round}: the server was still running when killed ({status}); its log:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        let problems_now = problems.lock().unwrap().clone();
        assert!(problems_now.is_empty(), "round {round}: {problems_now:#?}");
        check_file(&data, &acked.lock().unwrap(), round);
    }

    let acked = acked.into_inner().unwrap();
    let conn = Connection::open(&data).unwrap();
    eprintln!(
        "{ROUNDS} kills in {:?}: {} drafts, {} issues, {} payments acknowledged; \
         the file holds {} documents, {} issued, {} payments",
        started.elapsed(),
        acked.drafts.len(),
        acked.issued.len(),
        acked.payments.len(),
        count(&conn, "SELECT COUNT(*) FROM document"),
        count(&conn, "SELECT COUNT(*) FROM document WHERE status = 'issued'"),
        count(&conn, "SELECT COUNT(*) FROM payment"),
    );
    drop(conn);
    // The writers did real work between the kills (else the checks above prove little).
    assert!(
        acked.issued.len() >= ROUNDS,
        "only {} issues acknowledged",
        acked.issued.len()
    );
    assert!(
        acked.payments.len() >= ROUNDS,
        "only {} payments acknowledged",
        acked.payments.len()
    );

    // A last start on the file: still fine, and signs in with the owner's password.
    let server = start(&data, &log);
    let (status, _) = call(
        &server.addr,
        "POST",
        "/api/auth/login",
        None,
        Some(&json!({ "username": OWNER, "password": OWNER_PASSWORD })),
    )
    .unwrap();
    assert_eq!(status, 200);
    let status = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let mut server = server;
    assert!(
        server.child.wait().unwrap().success(),
        "a clean stop after the crashes"
    );
}
