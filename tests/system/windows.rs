//! The Windows program, `backoffice.exe`, run under Wine: in a console on a `C:\` path (sign-in,
//! an invoice and its PDF, the console's page, backup while it serves, the lock on the data file,
//! check, Ctrl-C, restore, reset-password), as the service `backoffice service install` registers
//! (`net start`, `net stop`, uninstall), and as the MSI installs it (install, upgrade, uninstall).
//!
//! `tests/run.sh` builds the exe once (`cargo build --profile windows --target
//! x86_64-pc-windows-gnu`) and installs Wine, MinGW and wixl; without them these tests fail and
//! say so, since a skipped test would prove nothing. Each test has a Wine prefix of its own under
//! `target/wine/`, made afresh, and its wineserver is ended when the test ends, passed or failed
//! (the prefix of a failed test is kept).
//!
//! Two stand-ins exist for the tests only, compiled here with MinGW and put beside the exe in
//! the prefix, never shipped: `bcryptprimitives.dll` (tests/windows/processprng.c), because the
//! standard library calls ProcessPrng, which Wine 8 lacks; and `ctrlc.exe` (tests/windows/ctrlc.c),
//! which presses Ctrl-C in a console, since Wine gives a program started from Linux none.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Got, http_call};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const OWNER_PASSWORD: &str = "a Windows owner's passphrase";

/// The exe `tests/run.sh` builds; `BACKOFFICE_WINDOWS_EXE` may name another.
fn windows_exe() -> PathBuf {
    let exe = std::env::var_os("BACKOFFICE_WINDOWS_EXE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(ROOT).join("target/x86_64-pc-windows-gnu/windows/backoffice.exe"));
    assert!(
        exe.exists(),
        "{} is missing: run tests/run.sh, or build it with \
         `cargo build --locked --profile windows --target x86_64-pc-windows-gnu` \
         (needs `rustup target add x86_64-pc-windows-gnu` and Debian's gcc-mingw-w64-x86-64)",
        exe.display()
    );
    exe
}

fn output_text(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A Wine prefix of the test's own; its wineserver (and every program of the prefix, the
/// service among them) is ended on drop.
struct Wine {
    prefix: PathBuf,
}

impl Wine {
    /// A fresh prefix `target/wine/<name>`, booted, whose programs (the services among them) get
    /// `machine_env` as machine-wide variables.
    fn boot(name: &str, machine_env: &[(&str, String)]) -> Wine {
        let prefix = Path::new(ROOT).join("target/wine").join(name);
        let wine = Wine { prefix };
        // A prefix left by an earlier run may still have a wineserver (and a service) running.
        let _ = wine.command("wineserver").arg("-k").status();
        if wine.prefix.exists() {
            std::fs::remove_dir_all(&wine.prefix).unwrap();
        }
        std::fs::create_dir_all(&wine.prefix).unwrap();
        let out = wine.run("wineboot", &["-i"]);
        assert!(out.status.success(), "wineboot -i: {}", output_text(&out));
        // Machine-wide variables, as `setx /M` writes them: Wine's service manager gives a service
        // these, not its own Environment value, and reads them when the machine starts.
        for (name, value) in machine_env {
            let key = r"HKLM\System\CurrentControlSet\Control\Session Manager\Environment";
            let out = wine.run("reg", &["add", key, "/v", name, "/d", value, "/f"]);
            assert!(out.status.success(), "reg add {name}: {}", output_text(&out));
        }
        // The first start of a prefix restarts its service manager on the way, which then forgets
        // a service registered meanwhile: the machine is let stop once it is made.
        wine.wineserver("-w");
        // Then the wineserver stays until the drop: were it to end between two commands, the next
        // would start the machine again, and with it every automatic-start service.
        wine.wineserver("-p");
        wine
    }

    fn wineserver(&self, arg: &str) {
        let status = self
            .command("wineserver")
            .arg(arg)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("wineserver (Debian's wine; tests/run.sh installs it)");
        assert!(status.success(), "wineserver {arg} failed");
    }

    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command
            .env("WINEPREFIX", &self.prefix)
            .env("WINEDEBUG", "-all")
            // Console programs only: no display, and none is needed.
            .env("DISPLAY", "")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::null());
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("BACKOFFICE_") {
                command.env_remove(name);
            }
        }
        command
    }

    /// `wine <program> <args>`, run to its end (three minutes at most).
    fn run(&self, program: &str, args: &[&str]) -> Output {
        // Its output goes to files, not pipes: a program Wine starts on the way (services.exe,
        // the wineserver) keeps the handles it inherited, and a pipe would never end.
        let dir = tempfile::TempDir::new().unwrap();
        let (out, err) = (dir.path().join("stdout"), dir.path().join("stderr"));
        let mut child = self
            .command("wine")
            .arg(program)
            .args(args)
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::fs::File::create(&err).unwrap())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(180);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!(
                    "wine {program} {args:?} still ran after 3 minutes: {}",
                    std::fs::read_to_string(&err).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        Output {
            status,
            stdout: std::fs::read(&out).unwrap(),
            stderr: std::fs::read(&err).unwrap(),
        }
    }

    /// Where the Windows path `C:\...` is on Linux.
    fn c(&self, windows_path: &str) -> PathBuf {
        let rest = windows_path.strip_prefix(r"C:\").expect("a path on C:");
        rest.split('\\')
            .fold(self.prefix.join("drive_c"), |path, part| path.join(part))
    }

    /// Puts `backoffice.exe` and the ProcessPrng stand-in into `C:\<folder>`, and `ctrlc.exe`
    /// with them when asked.
    fn put_program(&self, folder: &str, with_ctrlc: bool) {
        let dir = self.c(folder);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(windows_exe(), dir.join("backoffice.exe")).unwrap();
        self.put_stand_ins(folder, with_ctrlc);
    }

    fn put_stand_ins(&self, folder: &str, with_ctrlc: bool) {
        let dir = self.c(folder);
        std::fs::create_dir_all(&dir).unwrap();
        mingw(
            &["-shared", "-O2", "-o"],
            &dir.join("bcryptprimitives.dll"),
            "processprng.c",
            &["-ladvapi32"],
        );
        if with_ctrlc {
            mingw(&["-O2", "-o"], &dir.join("ctrlc.exe"), "ctrlc.c", &[]);
        }
    }
}

impl Drop for Wine {
    fn drop(&mut self) {
        let _ = self.command("wineserver").arg("-k").status();
        // A prefix is 700 MB (Wine copies its DLLs into it); a failed test's stays to be looked at.
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.prefix);
        }
    }
}

/// Compiles `tests/windows/<source>` with MinGW into `out`.
fn mingw(flags: &[&str], out: &Path, source: &str, libs: &[&str]) {
    let status = Command::new("x86_64-w64-mingw32-gcc")
        .args(flags)
        .arg(out)
        .arg(Path::new(ROOT).join("tests/windows").join(source))
        .args(libs)
        .status()
        .expect("x86_64-w64-mingw32-gcc (Debian's gcc-mingw-w64-x86-64; tests/run.sh installs it)");
    assert!(status.success(), "compiling tests/windows/{source} failed");
}

/// One request to `http://<addr><path>`, as JSON when `body` is given.
fn call(addr: &str, method: &str, path: &str, cookie: Option<&str>, body: Option<Value>) -> Got {
    let mut headers = vec![];
    if let Some(cookie) = cookie {
        headers.push(("Cookie", cookie));
    }
    let body = body.map(|b| b.to_string());
    if body.is_some() {
        headers.push(("Content-Type", "application/json"));
    }
    http_call(
        method,
        &format!("http://{addr}{path}"),
        &headers,
        body.as_deref().map(str::as_bytes),
        60,
    )
    .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

fn json_of(got: &Got) -> Value {
    serde_json::from_slice(&got.body).unwrap_or(Value::Null)
}

fn sign_in(addr: &str, password: &str) -> (String, Value) {
    let got = call(
        addr,
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "owner@localhost", "password": password })),
    );
    assert_eq!(got.status, 200, "sign-in: {}", got.text());
    let cookie = got
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .expect("a session cookie")
        .to_string();
    (cookie, json_of(&got))
}

/// Waits until `GET /api/health` on `addr` answers 200 with ok, for up to `secs`.
fn wait_healthy(addr: &str, secs: u64, log: impl Fn() -> String) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let url = format!("http://{addr}/api/health");
        if let Ok(got) = http_call("GET", &url, &[], None, 5) {
            assert_eq!(got.status, 200, "{}", got.text());
            assert_eq!(json_of(&got)["ok"], true, "{}", got.text());
            return;
        }
        assert!(
            Instant::now() < deadline,
            "nothing answered on {addr} within {secs} s; the log:\n{}",
            log()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// Issues an invoice to a new client; its number, after checking its PDF carries it and the
/// console's page is served.
fn issue_invoice_and_read_its_pdf(addr: &str, cookie: &str) -> String {
    let client = call(
        addr,
        "POST",
        "/api/clients",
        Some(cookie),
        Some(json!({ "name": "Kuttanad Service Co-operative Bank" })),
    );
    assert_eq!(client.status, 201, "{}", client.text());
    let client = json_of(&client);
    let draft = call(
        addr,
        "POST",
        "/api/documents",
        Some(cookie),
        Some(json!({ "type": "INVOICE", "client_id": client["id"],
            "lines": [ { "description": "Annual support, Windows office", "qty": 1, "unit_price": 1_250_000 } ] })),
    );
    assert_eq!(draft.status, 201, "{}", draft.text());
    let id = json_of(&draft)["id"].as_str().unwrap().to_string();
    let issued = call(
        addr,
        "POST",
        &format!("/api/documents/{id}/issue"),
        Some(cookie),
        Some(json!({})),
    );
    assert_eq!(issued.status, 200, "{}", issued.text());
    let number = json_of(&issued)["docNo"]
        .as_str()
        .expect("an issued invoice has a number")
        .to_string();
    let pdf = call(
        addr,
        "GET",
        &format!("/api/documents/{id}/pdf"),
        Some(cookie),
        None,
    );
    assert_eq!(pdf.status, 200, "{}", pdf.text());
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert!(pdf.body.starts_with(b"%PDF-"), "not a PDF");
    let text = crate::common::pdf::pdftotext(&pdf.body);
    assert!(text.contains(&number), "the PDF does not carry {number}: {text}");
    assert!(text.contains("Kuttanad Service Co-operative Bank"), "{text}");
    let index = call(addr, "GET", "/", None, None);
    assert_eq!(index.status, 200);
    assert!(
        index
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/html")),
        "{:?}",
        index.header("content-type")
    );
    assert!(
        index.text().contains("<script type=\"module\""),
        "{}",
        index.text()
    );
    number
}

/// Rows of `table` in the SQLite file `db`, after its integrity check.
fn count(db: &Path, table: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

/// The write-ahead log was folded into the data file: no `-wal`, or an empty one.
fn assert_wal_folded_in(data: &Path) {
    let wal = PathBuf::from(format!("{}-wal", data.display()));
    assert!(
        !wal.exists() || std::fs::metadata(&wal).unwrap().len() == 0,
        "{} holds {} bytes after a clean stop",
        wal.display(),
        std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0)
    );
}

/// `backoffice.exe serve` in a console of its own, stopped by Ctrl-C.
struct Console {
    child: Child,
    stdin: Option<ChildStdin>,
    addr: String,
    log: PathBuf,
}

impl Console {
    fn serve(wine: &Wine, folder: &str, data: &str, log: PathBuf) -> Console {
        let exe = format!(r"{folder}\backoffice.exe");
        let mut command = wine.command("wine");
        command
            .arg(format!(r"{folder}\ctrlc.exe"))
            .arg(&exe)
            .args(["serve", "--listen", "127.0.0.1:0", "--data", data])
            .env("BACKOFFICE_OWNER_PASSWORD", OWNER_PASSWORD)
            .env("RUST_LOG", "info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap());
        let mut child = command.spawn().unwrap();
        let stdin = child.stdin.take();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let Some(addr) = line.trim().strip_prefix("backoffice listening on http://") else {
            let _ = child.kill();
            panic!(
                "backoffice.exe serve did not start: {line:?}\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        };
        Console {
            addr: addr.to_string(),
            child,
            stdin,
            log,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Ctrl-C, then a clean exit within a minute.
    fn ctrl_c(mut self) {
        let mut stdin = self.stdin.take().unwrap();
        stdin.write_all(b"stop\n").unwrap();
        drop(stdin);
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "still serving a minute after Ctrl-C:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(200));
        };
        let log = self.log();
        assert!(status.success(), "exit after Ctrl-C: {status:?}\n{log}");
        assert!(log.contains("shutting down"), "{log}");
        assert!(
            log.contains("stopped cleanly; the data file is complete on its own"),
            "{log}"
        );
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_windows_exe_serves_a_c_drive_path_backs_up_restores_and_stops_on_ctrl_c() {
    let _machine = crate::common::shared();
    let wine = Wine::boot("console", &[]);
    let folder = r"C:\Back office";
    wine.put_program(folder, true);
    let exe = format!(r"{folder}\backoffice.exe");
    // A drive letter, backslashes and a space: as an owner's folder is.
    let data = r"C:\Office data\office.db";
    let logs = tempfile::TempDir::new().unwrap();

    let server = Console::serve(&wine, folder, data, logs.path().join("first.log"));
    wait_healthy(&server.addr, 30, || server.log());
    let (cookie, me) = sign_in(&server.addr, OWNER_PASSWORD);
    assert_eq!(me["mustChangePassword"], true);
    let number = issue_invoice_and_read_its_pdf(&server.addr, &cookie);

    // A backup while the server writes: SQLite's locks on Windows are the file's own, and the copy
    // is made through them.
    let out = wine.run(
        &exe,
        &["backup", "--data", data, "--out", r"C:\Office data\copy.db"],
    );
    assert!(out.status.success(), "backup: {}", output_text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        r"Backup written to C:\Office data\copy.db"
    );
    let copy = wine.c(r"C:\Office data\copy.db");
    assert_eq!(count(&copy, "document"), 1);
    // The data file is locked while the server holds it: a second server and a restore are refused.
    for args in [
        vec!["serve", "--listen", "127.0.0.1:0", "--data", data],
        vec!["restore", "--data", data, "--from", r"C:\Office data\copy.db"],
    ] {
        let out = wine.run(&exe, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", output_text(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains(r"C:\Office data\office.db is in use by a running back office; stop it first"),
            "{args:?}: {}",
            output_text(&out)
        );
    }
    let out = wine.run(&exe, &["check", "--data", data]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "check: {}", output_text(&out));
    assert!(report.contains("integrity: ok"), "{report}");
    assert!(
        report.contains(&format!(
            "schema version: {}",
            backoffice::plumbing::db::latest_schema_version()
        )),
        "{report}"
    );

    // Ctrl-C stops it cleanly: the write-ahead log is folded in, the .db complete on its own.
    server.ctrl_c();
    let office = wine.c(data);
    assert_wal_folded_in(&office);
    assert_eq!(count(&office, "document"), 1);

    // A restore with the server stopped keeps the replaced file beside it.
    let out = wine.run(
        &exe,
        &["restore", "--data", data, "--from", r"C:\Office data\copy.db"],
    );
    assert!(out.status.success(), "restore: {}", output_text(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.starts_with(r"Restored C:\Office data\office.db from C:\Office data\copy.db; the replaced file is kept as C:\Office data\office.db.before-restore-"),
        "{said}"
    );
    let kept = std::fs::read_dir(wine.c(r"C:\Office data"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("office.db.before-restore-")
        })
        .count();
    assert_eq!(kept, 1);

    // A locked-out owner: reset-password, then the new password signs in.
    let out = wine.run(&exe, &["reset-password", "--data", data, "owner@localhost"]);
    assert!(out.status.success(), "reset-password: {}", output_text(&out));
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let reset = said
        .strip_prefix("New initial password for owner@localhost: ")
        .and_then(|rest| rest.lines().next())
        .unwrap_or_else(|| panic!("{said}"))
        .trim()
        .to_string();
    let server = Console::serve(&wine, folder, data, logs.path().join("second.log"));
    let (cookie, me) = sign_in(&server.addr, &reset);
    assert_eq!(me["mustChangePassword"], true);
    assert!(
        call(
            &server.addr,
            "POST",
            "/api/auth/login",
            None,
            Some(json!({ "username": "owner@localhost", "password": OWNER_PASSWORD }))
        )
        .status
            == 401
    );
    // The restored file holds the invoice issued before the backup.
    let list = call(
        &server.addr,
        "GET",
        "/api/documents?type=INVOICE",
        Some(&cookie),
        None,
    );
    assert_eq!(list.status, 200, "{}", list.text());
    assert!(list.text().contains(&number), "{}", list.text());
    server.ctrl_c();
    assert_wal_folded_in(&office);
}

/// A loopback port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn service_state(wine: &Wine) -> String {
    let out = wine.run("sc", &["query", "backoffice"]);
    output_text(&out)
}

/// `net stop backoffice`: the server stops cleanly and nothing answers any more.
fn net_stop(wine: &Wine, addr: &str, log: &Path) {
    const CLEAN: &str = "stopped cleanly; the data file is complete on its own";
    let stops = || {
        std::fs::read_to_string(log)
            .unwrap_or_default()
            .matches(CLEAN)
            .count()
    };
    let before = stops();
    let out = wine.run("net", &["stop", "backoffice"]);
    assert!(out.status.success(), "net stop: {}", output_text(&out));
    let deadline = Instant::now() + Duration::from_secs(60);
    while stops() == before {
        assert!(
            Instant::now() < deadline,
            "the service did not stop cleanly:\n{}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while http_call("GET", &format!("http://{addr}/api/health"), &[], None, 2).is_ok() {
        assert!(Instant::now() < deadline, "{addr} still answers after net stop");
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[test]
fn service_install_exits_0_under_wine_and_the_msi_installs_upgrades_and_uninstalls_the_service() {
    let _machine = crate::common::shared();
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let wine = Wine::boot(
        "service",
        &[
            ("BACKOFFICE_LISTEN", addr.clone()),
            ("BACKOFFICE_OWNER_PASSWORD", OWNER_PASSWORD.to_string()),
        ],
    );
    let folder = r"C:\Back office";
    wine.put_program(folder, false);
    let exe = format!(r"{folder}\backoffice.exe");
    let data = wine.c(r"C:\ProgramData\Backoffice\backoffice.db");
    let log = wine.c(r"C:\ProgramData\Backoffice\backoffice.log");

    // Wine implements no restart-on-failure actions: install warns, and succeeds.
    let out = wine.run(&exe, &["service", "install"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "service install: {}",
        output_text(&out)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Service \"backoffice\" installed; start it with: net start backoffice"
    );
    let warned = String::from_utf8_lossy(&out.stderr);
    assert!(
        warned.contains("warning: cannot set the restart-on-failure actions")
            && warned.contains("sc failure backoffice reset= 86400"),
        "{warned}"
    );
    // A real failure says what to do, and fails.
    let out = wine.run(&exe, &["service", "install"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "second install: {}",
        output_text(&out)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "a service named \"backoffice\" is already registered: run `backoffice service uninstall` first"
        ),
        "{}",
        output_text(&out)
    );

    let out = wine.run("net", &["start", "backoffice"]);
    assert!(
        out.status.success(),
        "net start: {}\n{}",
        output_text(&out),
        service_state(&wine)
    );
    let read_log = || std::fs::read_to_string(&log).unwrap_or_default();
    wait_healthy(&addr, 60, read_log);
    // The default data folder, as the service has no command line: C:\ProgramData\Backoffice.
    assert!(data.exists(), "no data file at {}", data.display());
    let (cookie, _) = sign_in(&addr, OWNER_PASSWORD);
    let number = issue_invoice_and_read_its_pdf(&addr, &cookie);
    assert!(read_log().contains("data file open"), "{}", read_log());
    net_stop(&wine, &addr, &log);
    assert_wal_folded_in(&data);
    assert_eq!(count(&data, "document"), 1);

    let out = wine.run(&exe, &["service", "uninstall"]);
    assert!(out.status.success(), "service uninstall: {}", output_text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Service removed"),
        "{}",
        output_text(&out)
    );
    let out = wine.run("sc", &["query", "backoffice"]);
    assert!(
        !out.status.success(),
        "the service is still registered: {}",
        output_text(&out)
    );
    assert!(data.exists(), "uninstall removed the data");

    // The MSI: the exe in Program Files, the service registered and started, the data kept.
    let msis = tempfile::TempDir::new_in(Path::new(ROOT).join("target")).unwrap();
    let first = build_msi(msis.path(), "1.0.0");
    let next = build_msi(msis.path(), "1.0.1");
    let installed = r"C:\Program Files\Backoffice";
    // The ProcessPrng stand-in must be there before the MSI starts the service (Wine only).
    wine.put_stand_ins(installed, false);
    msiexec(&wine, "/i", &first);
    assert!(wine.c(r"C:\Program Files\Backoffice\backoffice.exe").exists());
    wait_healthy(&addr, 60, read_log);
    // The data written before the MSI is the data it serves: the same folder.
    let (cookie, _) = sign_in(&addr, OWNER_PASSWORD);
    let list = call(&addr, "GET", "/api/documents?type=INVOICE", Some(&cookie), None);
    assert!(list.text().contains(&number), "{}", list.text());

    // An upgrade in place: the old version removed, the new one started, same data. Wine's
    // msiexec asks the service to stop but does not wait for it before removing the program
    // (Windows waits, as ServiceControl Wait="yes" asks), so the file in use stays behind and
    // is no longer the installer's; here the service is stopped first.
    net_stop(&wine, &addr, &log);
    msiexec(&wine, "/i", &next);
    wait_healthy(&addr, 60, read_log);
    let (cookie, _) = sign_in(&addr, OWNER_PASSWORD);
    let list = call(&addr, "GET", "/api/documents?type=INVOICE", Some(&cookie), None);
    assert!(list.text().contains(&number), "{}", list.text());
    assert_eq!(installed_products(&wine), vec!["Back office 1.0.1".to_string()]);

    // Uninstall: the service removed, the program gone, the data kept.
    // Stopped first, as for the upgrade: Wine's msiexec would not wait for the stop.
    net_stop(&wine, &addr, &log);
    msiexec(&wine, "/x", &next);
    assert_eq!(installed_products(&wine), Vec::<String>::new());
    let out = wine.run("sc", &["query", "backoffice"]);
    assert!(
        !out.status.success(),
        "the service is still registered: {}",
        output_text(&out)
    );
    assert!(!wine.c(r"C:\Program Files\Backoffice\backoffice.exe").exists());
    assert!(http_call("GET", &format!("http://{addr}/api/health"), &[], None, 2).is_err());
    assert_wal_folded_in(&data);
    assert_eq!(count(&data, "document"), 1);
}

/// "name version" of each program installed by an MSI, as Programs and Features lists them.
fn installed_products(wine: &Wine) -> Vec<String> {
    let key = r"HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall";
    let listed = wine.run("reg", &["query", key]);
    let value = |product: &str, name: &str| {
        let out = wine.run("reg", &["query", product, "/v", name]);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix(name)?
                    .trim()
                    .strip_prefix("REG_SZ")
                    .map(|v| v.trim().to_string())
            })
            .unwrap_or_default()
    };
    String::from_utf8_lossy(&listed.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| l.contains(r"\Uninstall\{"))
        .map(|product| {
            format!(
                "{} {}",
                value(product, "DisplayName"),
                value(product, "DisplayVersion")
            )
        })
        .collect()
}

/// `packaging/windows/backoffice.wxs` built by wixl around the test's exe, as `version`.
fn build_msi(dir: &Path, version: &str) -> PathBuf {
    let msi = dir.join(format!("backoffice-{version}.msi"));
    // wixl reads the exe by a path relative to where it runs.
    let exe = windows_exe();
    let exe = exe.strip_prefix(ROOT).unwrap_or(&exe);
    let out = Command::new("wixl")
        .current_dir(ROOT)
        .args(["-a", "x64", "-D", &format!("Version={version}"), "-D"])
        .arg(format!("Exe={}", exe.display()))
        .arg("-o")
        .arg(&msi)
        .arg("packaging/windows/backoffice.wxs")
        .output()
        .expect("wixl (Debian's wixl; tests/run.sh installs it)");
    assert!(
        out.status.success() && msi.exists(),
        "wixl: {}",
        output_text(&out)
    );
    msi
}

/// `msiexec <action> <msi> /qn`, which must succeed.
fn msiexec(wine: &Wine, action: &str, msi: &Path) {
    let msi = format!("Z:{}", msi.display()).replace('/', "\\");
    let out = wine.run("msiexec", &[action, &msi, "/qn"]);
    assert!(
        out.status.success(),
        "msiexec {action} {msi}: {}\n{}",
        output_text(&out),
        service_state(wine)
    );
}
