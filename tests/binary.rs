//! The real binary over real HTTP: first start prints the owner's password once, sign-in works
//! over a socket, `backup` copies a running server's file, SIGTERM leaves the `.db` complete on its
//! own, `reset-password` works, and the log holds no password, hash or session token.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_backoffice");

struct Server {
    child: Child,
    addr: String,
}

fn start(data: &Path, stderr_file: &Path) -> Server {
    let stderr = std::fs::File::create(stderr_file).unwrap();
    let mut child = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .env_remove("BACKOFFICE_OWNER_PASSWORD")
        .env("RUST_LOG", "debug")
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line.trim().rsplit("http://").next().unwrap().to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    Server { child, addr }
}

impl Server {
    /// One HTTP/1.1 request; answers (status, Set-Cookie pair if any, JSON body).
    fn call(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Option<String>, Value) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if !body.is_empty() || method != "GET" {
            request.push_str("Content-Type: application/json\r\n");
        }
        if let Some(c) = cookie {
            request.push_str(&format!("Cookie: {c}\r\n"));
        }
        request.push_str("\r\n");
        request.push_str(&body);
        stream.write_all(request.as_bytes()).unwrap();
        let mut raw = String::new();
        stream.read_to_string(&mut raw).unwrap();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap();
        let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
        let cookie = head
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
            .map(|l| {
                l.split_once(':')
                    .unwrap()
                    .1
                    .trim()
                    .split(';')
                    .next()
                    .unwrap()
                    .to_string()
            });
        (status, cookie, serde_json::from_str(body).unwrap_or(Value::Null))
    }

    fn stop(mut self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = self.child.wait().unwrap();
        assert!(exit.success(), "clean exit after SIGTERM: {exit:?}");
    }
}

fn staff_count(db: &Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    conn.query_row("SELECT COUNT(*) FROM staff", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn the_real_binary_serves_signs_in_backs_up_and_stops_cleanly() {
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("office.db");
    let log1 = dir.path().join("first.log");
    let server = start(&data, &log1);

    let (status, _, health) = server.call("GET", "/api/health", None, None);
    assert_eq!((status, health["ok"].as_bool()), (200, Some(true)));

    // The generated owner password is printed once on first start.
    let first_log = std::fs::read_to_string(&log1).unwrap();
    let printed = first_log
        .lines()
        .skip_while(|l| !l.contains("initial password"))
        .nth(2)
        .unwrap()
        .trim()
        .to_string();
    let (status, cookie, body) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "owner@localhost", "password": printed })),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["mustChangePassword"], true);
    let owner = cookie.unwrap();
    let token = owner.trim_start_matches("bo_session=").to_string();

    let new_password = "the owner's own passphrase";
    let (status, _, _) = server.call(
        "POST",
        "/api/me/password",
        Some(&owner),
        Some(json!({ "current_password": printed, "new_password": new_password })),
    );
    assert_eq!(status, 204);
    let (status, _, invited) = server.call(
        "POST",
        "/api/employees",
        Some(&owner),
        Some(json!({ "email": "clerk@coop.in", "name": "Clerk", "role": "staff" })),
    );
    assert_eq!(status, 201);
    let clerk_password = invited["initial_password"].as_str().unwrap().to_string();
    let (status, clerk, _) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "clerk@coop.in", "password": clerk_password })),
    );
    assert_eq!(status, 200);
    let (status, _, _) = server.call("GET", "/api/login-events", Some(&clerk.unwrap()), None);
    assert_eq!(status, 403);

    // A backup of the running server's file holds everything committed so far.
    let backup = dir.path().join("copy.db");
    let out = Command::new(BIN)
        .args(["backup", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(&backup)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(staff_count(&backup), 2);
    let again = Command::new(BIN)
        .args(["backup", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(&backup)
        .output()
        .unwrap();
    assert!(!again.status.success(), "an existing backup is never overwritten");

    // One server per data file; a restore waits for it to stop; check reads it while it runs.
    let second = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(!second.status.success());
    assert!(String::from_utf8_lossy(&second.stderr).contains("in use"));
    let restore = Command::new(BIN)
        .args(["restore", "--data"])
        .arg(&data)
        .arg("--from")
        .arg(&backup)
        .output()
        .unwrap();
    assert!(
        !restore.status.success(),
        "restore is refused while the server runs"
    );
    let check = Command::new(BIN)
        .args(["check", "--data"])
        .arg(&data)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success() && report.contains("integrity: ok") && report.contains("schema version: 1"),
        "{report}"
    );

    server.stop();
    // After a clean stop the WAL is folded in: the .db file alone is complete.
    let wal = dir.path().join("office.db-wal");
    assert!(!wal.exists() || std::fs::metadata(&wal).unwrap().len() == 0);
    let alone = dir.path().join("alone.db");
    std::fs::copy(&data, &alone).unwrap();
    assert_eq!(staff_count(&alone), 2);

    // The log never holds a password, a hash or a session token.
    let log = std::fs::read_to_string(&log1).unwrap();
    for secret in [new_password, clerk_password.as_str(), token.as_str(), "$argon2"] {
        assert!(!log.contains(secret), "the log leaks {secret}");
    }
    assert!(
        log.contains("path=\"/api/auth/login\""),
        "one line per request is logged"
    );

    // reset-password on the machine itself, then a restart that prints no password.
    let out = Command::new(BIN)
        .args(["reset-password", "--data"])
        .arg(&data)
        .arg("owner@localhost")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let reset = stdout
        .split(": ")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .trim()
        .to_string();
    let log2 = dir.path().join("second.log");
    let server = start(&data, &log2);
    let (status, _, body) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "owner@localhost", "password": reset })),
    );
    assert_eq!((status, body["mustChangePassword"].as_bool()), (200, Some(true)));
    server.stop();
    assert!(
        !std::fs::read_to_string(&log2)
            .unwrap()
            .contains("initial password")
    );
}

#[test]
fn help_is_readable_and_bad_arguments_fail() {
    let out = Command::new(BIN).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for word in ["serve", "backup", "reset-password"] {
        assert!(help.contains(word), "{help}");
    }
    let out = Command::new(BIN)
        .args(["serve", "--listen", "not-an-address"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = Command::new(BIN)
        .args(["backup", "--data", "/nonexistent/x.db", "--out", "/tmp/never.db"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
}
