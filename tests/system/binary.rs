//! The real binary over real HTTP: first start prints the owner's password once, sign-in works
//! over a socket, `backup` copies a running server's file, SIGTERM leaves the `.db` complete on its
//! own, `reset-password` works, and the log holds no password, hash or session token.

use serde_json::json;
use std::path::Path;
use std::process::Command;

use crate::common::server::{BIN, Server};

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
    let _machine = crate::common::shared();
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("office.db");
    let log1 = dir.path().join("first.log");
    let server = Server::start(&data, &log1, None);

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
        check.status.success()
            && report.contains("integrity: ok")
            && report.contains(&format!(
                "schema version: {}",
                backoffice::plumbing::db::latest_schema_version()
            )),
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
    let server = Server::start(&data, &log2, None);
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
    let _machine = crate::common::shared();
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

#[test]
fn share_tokens_never_reach_the_log() {
    let _machine = crate::common::shared();
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("office.db");
    let log = dir.path().join("server.log");
    let server = Server::start(&data, &log, Some("owner-initial-pw"));
    let (_, cookie, _) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "owner@localhost", "password": "owner-initial-pw" })),
    );
    let owner = cookie.unwrap();
    let (_, _, client) = server.call(
        "POST",
        "/api/clients",
        Some(&owner),
        Some(json!({ "name": "Anchal Vanitha Co-operative Society" })),
    );
    let (status, _, draft) = server.call(
        "POST",
        "/api/documents",
        Some(&owner),
        Some(json!({ "type": "QUOTATION", "client_id": client["id"], "lines": [ { "description": "Training", "qty": 1, "unit_price": 500_000 } ] })),
    );
    assert_eq!(status, 201, "{draft}");
    let doc = draft["id"].as_str().unwrap();
    server.call(
        "POST",
        &format!("/api/documents/{doc}/issue"),
        Some(&owner),
        Some(json!({})),
    );
    let (status, _, share) = server.call(
        "POST",
        &format!("/api/documents/{doc}/share"),
        Some(&owner),
        Some(json!({})),
    );
    assert_eq!(status, 201, "{share}");
    let token = share["token"].as_str().unwrap().to_string();
    assert_eq!(share["url"], format!("http://{}/share/{token}", server.addr));
    let (status, _, _) = server.call("GET", &format!("/share/{token}"), None, None);
    assert_eq!(status, 200);
    server.call(
        "POST",
        &format!(
            "/api/documents/{doc}/share/{}/revoke",
            share["id"].as_str().unwrap()
        ),
        Some(&owner),
        Some(json!({})),
    );
    let (status, _, _) = server.call("GET", &format!("/share/{token}/pdf"), None, None);
    assert_eq!(status, 404);
    server.stop();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("/share/<redacted>"),
        "share requests are logged, redacted"
    );
    assert!(!text.contains(&token), "the log holds a share token");
}

/// One answer read off a raw connection: its status, its headers (names lower-cased) and body.
struct RawAnswer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl RawAnswer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one HTTP/1.1 answer with a Content-Length off `stream`.
fn read_answer(stream: &mut std::net::TcpStream) -> RawAnswer {
    use std::io::Read;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let n = stream.read(&mut byte).expect("the answer's head");
        assert_eq!(
            n,
            1,
            "the connection closed before a whole head: {:?}",
            String::from_utf8_lossy(&head)
        );
        head.push(byte[0]);
    }
    let head = String::from_utf8(head).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map(|(_, v)| v.parse().unwrap())
        .expect("a Content-Length");
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).unwrap();
    RawAnswer {
        status,
        headers,
        body,
    }
}

/// A request answered without reading its body says `Connection: close` and the server closes
/// the connection cleanly, so a client opens a new one for its next request; a request whose body
/// was read, and one without a body, keep the connection for the next request (issue 33).
#[test]
fn a_body_left_unread_closes_the_connection_and_says_so() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::time::Duration;

    let _machine = crate::common::shared();
    let dir = tempfile::TempDir::new().unwrap();
    let server = Server::start(
        &dir.path().join("office.db"),
        &dir.path().join("server.log"),
        Some("owner-initial-pw"),
    );
    let connect = || {
        let stream = TcpStream::connect(&server.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream
    };
    let get_health = "GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n";

    // No body: the connection stays for a second request.
    let mut stream = connect();
    stream.write_all(get_health.as_bytes()).unwrap();
    let first = read_answer(&mut stream);
    assert_eq!((first.status, first.header("connection")), (200, None));
    stream.write_all(get_health.as_bytes()).unwrap();
    let second = read_answer(&mut stream);
    assert_eq!(second.status, 200, "{}", String::from_utf8_lossy(&second.body));

    // A body that was read (a refused sign-in): the connection stays too.
    let login = r#"{"username":"nobody","password":"not the password"}"#;
    let request = format!(
        "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{login}",
        login.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let refused = read_answer(&mut stream);
    assert_eq!((refused.status, refused.header("connection")), (401, None));
    stream.write_all(get_health.as_bytes()).unwrap();
    assert_eq!(read_answer(&mut stream).status, 200);

    // A wrong content type with a large body: 415 before the body is read, and it says so.
    let body = vec![b'x'; 64 * 1024];
    let mut stream = connect();
    let head = format!(
        "POST /api/employees HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // The server may answer and close before it has all of the body: a failed write is fine.
    let _ = stream.write_all(&body);
    let refused = read_answer(&mut stream);
    assert_eq!(
        (refused.status, refused.header("connection")),
        (415, Some("close")),
        "{}",
        String::from_utf8_lossy(&refused.body)
    );
    // ...and the server closes the connection (end of stream or a reset, never a wait).
    let mut rest = [0u8; 16];
    match stream.read(&mut rest) {
        Ok(n) => assert_eq!(n, 0, "nothing follows the answer"),
        Err(e) => assert!(
            !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
            "the connection was left open: {e}"
        ),
    }
    // A new connection answers as usual.
    let mut stream = connect();
    stream.write_all(get_health.as_bytes()).unwrap();
    assert_eq!(read_answer(&mut stream).status, 200);
}
