//! The real binary as a child process on a free loopback port, and a plain HTTP/1.1 client.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const BIN: &str = env!("CARGO_BIN_EXE_backoffice");

pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`
    pub addr: String,
}

impl Server {
    /// Starts `backoffice serve` on port 0 with `data`; its log goes to `log`. `owner_password`
    /// None lets the server generate and print one.
    pub fn start(data: &Path, log: &Path, owner_password: Option<&str>) -> Server {
        Server::start_with_env(data, log, owner_password, &[])
    }

    /// As `start`, with extra environment variables (e.g. `BACKOFFICE_ALLOW_PRIVATE_TARGETS`).
    pub fn start_with_env(
        data: &Path,
        log: &Path,
        owner_password: Option<&str>,
        env: &[(&str, &str)],
    ) -> Server {
        let stderr = std::fs::File::create(log).unwrap();
        let mut command = Command::new(BIN);
        command
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(data)
            .env("RUST_LOG", "debug")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(stderr);
        match owner_password {
            Some(p) => command.env("BACKOFFICE_OWNER_PASSWORD", p),
            None => command.env_remove("BACKOFFICE_OWNER_PASSWORD"),
        };
        let mut child = command.spawn().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line.trim().rsplit("http://").next().unwrap().to_string();
        assert!(addr.starts_with("127.0.0.1:"), "the server did not start: {line}");
        Server { child, addr }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// One HTTP/1.1 request; answers (status, Set-Cookie pair if any, JSON body).
    pub fn call(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Option<String>, Value) {
        try_call(&self.addr, method, path, cookie, body.as_ref())
            .unwrap_or_else(|| panic!("{method} {path}: no whole answer from the server"))
    }

    /// Signs in; answers the session cookie.
    pub fn sign_in(&self, username: &str, password: &str) -> String {
        let (status, cookie, body) = self.call(
            "POST",
            "/api/auth/login",
            None,
            Some(serde_json::json!({ "username": username, "password": password })),
        );
        assert_eq!(status, 200, "sign-in of {username}: {body}");
        cookie.unwrap()
    }

    /// SIGTERM, then waits for a clean exit.
    pub fn stop(mut self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = self.child.wait().unwrap();
        assert!(exit.success(), "clean exit after SIGTERM: {exit:?}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request to `addr`; answers (status, Set-Cookie pair if any, JSON body), or None
/// when the connection failed or the answer was cut short (the server died): such a request was
/// not acknowledged.
pub fn try_call(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&Value>,
) -> Option<(u16, Option<String>, Value)> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if method != "GET" {
        request.push_str("Content-Type: application/json\r\n");
    }
    if let Some(c) = cookie {
        request.push_str(&format!("Cookie: {c}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).ok()?;
    let mut raw = vec![];
    stream.read_to_end(&mut raw).ok()?;
    let raw = String::from_utf8(raw).ok()?;
    let (head, body) = raw.split_once("\r\n\r\n")?;
    let status: u16 = head.split(' ').nth(1)?.parse().ok()?;
    let length = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())
            .flatten()
    });
    if length.is_some_and(|n| body.len() != n) {
        return None;
    }
    let cookie = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().split(';').next().unwrap_or_default().to_string());
    Some((status, cookie, serde_json::from_str(body).unwrap_or(Value::Null)))
}
