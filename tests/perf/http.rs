//! The load side of the benchmark: keep-alive HTTP/1.1 clients on plain sockets, and the timed
//! loops that drive them (the server) or a closure (the floor).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One keep-alive HTTP/1.1 connection.
pub struct Client {
    reader: BufReader<TcpStream>,
    addr: String,
}

/// A whole answer.
pub struct Reply {
    pub status: u16,
    /// The `name=value` of a Set-Cookie header, if any.
    pub cookie: Option<String>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "status {}: not JSON ({e}): {}",
                self.status,
                String::from_utf8_lossy(&self.body[..self.body.len().min(300)])
            )
        })
    }
}

impl Client {
    pub fn connect(addr: &str) -> Client {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_nodelay(true).unwrap();
        Client {
            reader: BufReader::new(stream),
            addr: addr.to_string(),
        }
    }

    /// Sends one request and reads the whole answer (Content-Length or chunked).
    pub fn call(&mut self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if method != "GET" {
            req.push_str("Content-Type: application/json\r\n");
        }
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        self.reader.get_mut().write_all(req.as_bytes()).unwrap();
        let mut status_line = String::new();
        if self.reader.read_line(&mut status_line).unwrap() == 0 && method == "GET" {
            // The server closed the kept-alive connection (as HTTP/1.1 lets it) before
            // answering: a GET is sent once more on a new one (nothing else is, it may have
            // been done).
            *self = Client::connect(&self.addr);
            self.reader.get_mut().write_all(req.as_bytes()).unwrap();
            self.reader.read_line(&mut status_line).unwrap();
        }
        let status: u16 = status_line
            .split(' ')
            .nth(1)
            .unwrap_or_else(|| panic!("no status line for {method} {path}: {status_line:?}"))
            .parse()
            .unwrap();
        let (mut length, mut cookie, mut chunked) = (0usize, None, false);
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').unwrap();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap(),
                "set-cookie" => cookie = value.trim().split(';').next().map(str::to_string),
                "transfer-encoding" => chunked = value.trim().eq_ignore_ascii_case("chunked"),
                _ => {}
            }
        }
        let body = if chunked {
            self.read_chunked()
        } else {
            self.read_exact(length)
        };
        Reply { status, cookie, body }
    }

    fn read_exact(&mut self, length: usize) -> Vec<u8> {
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).unwrap();
        body
    }

    fn read_chunked(&mut self) -> Vec<u8> {
        let mut body = vec![];
        loop {
            let mut size = String::new();
            self.reader.read_line(&mut size).unwrap();
            let size = usize::from_str_radix(size.trim().split(';').next().unwrap(), 16).unwrap();
            body.extend(self.read_exact(size));
            let mut end = String::new();
            self.reader.read_line(&mut end).unwrap();
            if size == 0 {
                return body;
            }
        }
    }

    /// GET as the holder of `cookie`; panics unless the answer is 200.
    pub fn get(&mut self, path: &str, cookie: &str) -> Reply {
        let reply = self.call("GET", path, &[("Cookie", cookie)], "");
        assert_eq!(
            reply.status,
            200,
            "GET {path}: {}",
            String::from_utf8_lossy(&reply.body)
        );
        reply
    }

    /// POST a JSON body as the holder of `cookie`; panics unless the answer is `expect`.
    pub fn post(&mut self, path: &str, cookie: &str, body: &str, expect: u16) -> Reply {
        let reply = self.call("POST", path, &[("Cookie", cookie)], body);
        assert_eq!(
            reply.status,
            expect,
            "POST {path}: {}",
            String::from_utf8_lossy(&reply.body)
        );
        reply
    }
}

/// Requests per second and latency percentiles of one timed run.
#[derive(Clone, Copy)]
pub struct Measured {
    pub rate: f64,
    pub p50: Duration,
    pub p99: Duration,
    pub calls: usize,
}

/// Rate, p50 and p99 of `times`, taken over `elapsed`.
pub fn summarize(mut times: Vec<Duration>, elapsed: Duration) -> Measured {
    times.sort();
    let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    Measured {
        rate: times.len() as f64 / elapsed.as_secs_f64(),
        p50: pct(0.50),
        p99: pct(0.99),
        calls: times.len(),
    }
}

/// One timed call of a load: (client connection, client number, call number).
pub type Work = Arc<dyn Fn(&mut Client, usize, usize) + Send + Sync>;

/// Runs `work` on `clients` threads, each on its own keep-alive connection, for `budget` and at
/// least `min_calls` calls in all; every call is timed.
pub fn drive(addr: &str, clients: usize, budget: Duration, min_calls: usize, work: Work) -> Measured {
    let per_client = min_calls.div_ceil(clients);
    let started = Instant::now();
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            let (work, addr) = (work.clone(), addr.to_string());
            std::thread::spawn(move || {
                let mut client = Client::connect(&addr);
                let mut times = vec![];
                while times.len() < per_client || started.elapsed() < budget {
                    let t = Instant::now();
                    work(&mut client, c, times.len());
                    times.push(t.elapsed());
                }
                times
            })
        })
        .collect();
    let times: Vec<Duration> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
    summarize(times, started.elapsed())
}

/// The floor: `work` run directly on `threads` threads (each with its own state from `setup`)
/// for `budget` and at least `min_calls` calls in all.
pub fn floor<S, W>(threads: usize, budget: Duration, min_calls: usize, setup: S, work: W) -> Measured
where
    S: Fn() -> rusqlite::Connection + Send + Sync + 'static,
    W: Fn(&rusqlite::Connection, usize) + Send + Sync + 'static,
{
    let (setup, work) = (Arc::new(setup), Arc::new(work));
    let per_thread = min_calls.div_ceil(threads);
    let barrier = Arc::new(std::sync::Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let (setup, work, barrier) = (setup.clone(), work.clone(), barrier.clone());
            std::thread::spawn(move || {
                let conn = setup();
                work(&conn, t); // warm the statement cache and the pages
                barrier.wait();
                let started = Instant::now();
                let mut times = vec![];
                while times.len() < per_thread || started.elapsed() < budget {
                    let i = times.len() * threads + t;
                    let call = Instant::now();
                    work(&conn, i);
                    times.push(call.elapsed());
                }
                (times, started.elapsed())
            })
        })
        .collect();
    let mut all = vec![];
    let mut elapsed = Duration::ZERO;
    for h in handles {
        let (times, e) = h.join().unwrap();
        all.extend(times);
        elapsed = elapsed.max(e);
    }
    summarize(all, elapsed)
}
