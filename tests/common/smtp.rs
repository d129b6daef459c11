//! A real SMTP server on loopback: `tests/smtp/server.py` (aiosmtpd, installed by `tests/run.sh`
//! into `target/fuzz-venv`), started on a port the OS chooses and stopped when dropped. Every
//! message it takes is written to its folder as JSON: the envelope, who signed in, whether the
//! connection was encrypted, and the message as a mail reader sees it.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// The user and password the server takes when it asks for a sign-in.
pub const USER: &str = "billing@softland.in";
pub const PASSWORD: &str = "abcd efgh ijkl mnop";

/// The test CA that signed the server's certificate (for `localhost` and 127.0.0.1).
pub const CA: &[u8] = include_bytes!("../smtp/ca.pem");

pub struct SmtpServer {
    pub port: u16,
    child: Child,
    dir: TempDir,
}

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/smtp")
}

impl SmtpServer {
    /// Starts a server with `security` (none, starttls or tls) that asks for a sign-in with
    /// [`USER`] and [`PASSWORD`]. None when aiosmtpd is not installed (then the test is skipped,
    /// or fails under CI).
    pub fn start(security: &str) -> Option<SmtpServer> {
        let python = super::venv_tool("python3", "BACKOFFICE_TEST_PYTHON")?;
        let has_aiosmtpd = Command::new(&python)
            .args(["-c", "import aiosmtpd"])
            .status()
            .is_ok_and(|s| s.success());
        if !has_aiosmtpd {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but aiosmtpd is missing: run tests/run.sh"
            );
            eprintln!("test skipped: tests/run.sh installs aiosmtpd");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(python)
            .arg(here().join("server.py"))
            .args(["--security", security, "--user", USER, "--password", PASSWORD])
            .arg("--dir")
            .arg(dir.path())
            .arg("--cert")
            .arg(here().join("server.pem"))
            .arg("--key")
            .arg(here().join("server.key"))
            .stdout(Stdio::piped())
            .spawn()
            .expect("start tests/smtp/server.py");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("tests/smtp/server.py said {line:?}"));
        Some(SmtpServer { port, child, dir })
    }

    /// The messages taken so far, oldest first.
    pub fn received(&self) -> Vec<Value> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        files
            .iter()
            .map(|p| serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap())
            .collect()
    }

    /// Waits (up to 10 seconds) until `count` messages were taken; answers them.
    pub fn wait_for(&self, count: usize) -> Vec<Value> {
        let started = Instant::now();
        loop {
            let got = self.received();
            if got.len() >= count || started.elapsed() > Duration::from_secs(10) {
                return got;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
