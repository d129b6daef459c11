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
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.addr,
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
