//! `cargo bench`: starts the release server on a temporary data file, drives it over loopback
//! with concurrent keep-alive clients and prints, per scenario, requests per second and p50/p99
//! latency, next to the floor: the same work done directly (SQL on the same file, argon2 in-process).
//! The table is also written to docs/benchmark.md. It is a benchmark, not a test: CI does not run it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_backoffice");
const OWNER_PASSWORD: &str = "bench-owner-password";

/// One keep-alive HTTP/1.1 connection.
struct Client {
    reader: BufReader<TcpStream>,
    addr: String,
}

impl Client {
    fn connect(addr: &str) -> Client {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_nodelay(true).unwrap();
        Client {
            reader: BufReader::new(stream),
            addr: addr.to_string(),
        }
    }

    /// Sends one request and reads the whole answer; returns (status, Set-Cookie pair).
    fn call(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, String)],
        body: &str,
    ) -> (u16, Option<String>) {
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
        self.reader.read_line(&mut status_line).unwrap();
        let status: u16 = status_line.split(' ').nth(1).unwrap().parse().unwrap();
        let (mut length, mut cookie) = (0usize, None);
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
                _ => {}
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).unwrap();
        (status, cookie)
    }
}

struct Row {
    scenario: String,
    clients: usize,
    rps: f64,
    p50: Duration,
    p99: Duration,
    floor: Option<(f64, Duration)>,
}

/// One timed call: (client, client number, call number).
type Work = Arc<dyn Fn(&mut Client, usize, usize) + Send + Sync>;

/// Runs `per_client` calls of `work` on each of `clients` threads; every call is timed.
fn drive(clients: usize, per_client: usize, work: Work, addr: &str) -> (f64, Duration, Duration) {
    let started = Instant::now();
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            let (work, addr) = (work.clone(), addr.to_string());
            std::thread::spawn(move || {
                let mut client = Client::connect(&addr);
                (0..per_client)
                    .map(|i| {
                        let t = Instant::now();
                        work(&mut client, c, i);
                        t.elapsed()
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut times: Vec<Duration> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
    let elapsed = started.elapsed();
    times.sort();
    let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    (times.len() as f64 / elapsed.as_secs_f64(), pct(0.50), pct(0.99))
}

/// The floor: `work` run directly `n` times on one thread; returns (per second, p50).
fn floor(n: usize, mut work: impl FnMut(usize)) -> (f64, Duration) {
    let mut times = Vec::with_capacity(n);
    let started = Instant::now();
    for i in 0..n {
        let t = Instant::now();
        work(i);
        times.push(t.elapsed());
    }
    times.sort();
    (n as f64 / started.elapsed().as_secs_f64(), times[n / 2])
}

fn start_server(data: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(BIN)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--trusted-proxy",
            "127.0.0.1",
            "--data",
        ])
        .arg(data)
        .env("BACKOFFICE_OWNER_PASSWORD", OWNER_PASSWORD)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line.trim().rsplit("http://").next().unwrap().to_string())
}

fn login_body(user: &str, password: &str) -> String {
    format!(r#"{{"username":"{user}","password":"{password}"}}"#)
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --all-targets` runs this target without it.
    if !std::env::args().any(|a| a == "--bench") {
        println!("benchmark skipped: run it with `cargo bench`");
        return;
    }
    let pdf_table = pdf_section();
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("bench.db");
    let (mut server, addr) = start_server(&data);
    let mut rows = Vec::new();

    let mut admin = Client::connect(&addr);
    let (status, cookie) = admin.call(
        "POST",
        "/api/auth/login",
        &[],
        &login_body("owner@localhost", OWNER_PASSWORD),
    );
    assert_eq!(status, 200);
    let cookie = cookie.unwrap();
    let token = cookie.trim_start_matches("bo_session=").to_string();
    // Users to sign in as: each name may try 8 times per 15 minutes.
    const USERS: usize = 40;
    for u in 0..USERS {
        let body = format!(
            r#"{{"email":"bench{u}@coop.in","name":"Bench {u}","role":"staff","password":"bench-password-{u}"}}"#
        );
        assert_eq!(
            admin
                .call("POST", "/api/employees", &[("Cookie", cookie.clone())], &body)
                .0,
            201
        );
    }

    let sql = rusqlite::Connection::open(&data).unwrap();
    let health_floor = floor(20_000, |_| {
        let _: i64 = sql.query_row("SELECT 1", [], |r| r.get(0)).unwrap();
    });
    for clients in [1, 16] {
        let (rps, p50, p99) = drive(
            clients,
            2000,
            Arc::new(|c: &mut Client, _, _| assert_eq!(c.call("GET", "/api/health", &[], "").0, 200)),
            &addr,
        );
        rows.push(Row {
            scenario: "GET /api/health".into(),
            clients,
            rps,
            p50,
            p99,
            floor: Some(health_floor),
        });
    }

    let hash = backoffice::auth::rules::hash_token(&token);
    let me_floor = floor(20_000, |_| {
        let _: (String, String) = sql
            .query_row(
                "SELECT s.id, u.role FROM session s JOIN staff u ON u.id = s.staff_id WHERE s.token_hash = ?1 AND u.active = 1",
                [&hash],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let _: String = sql
            .query_row(
                "SELECT username FROM staff WHERE id = (SELECT staff_id FROM session WHERE token_hash = ?1)",
                [&hash],
                |r| r.get(0),
            )
            .unwrap();
    });
    for clients in [1, 16] {
        let cookie = cookie.clone();
        let work = Arc::new(move |c: &mut Client, _: usize, _: usize| {
            assert_eq!(c.call("GET", "/api/me", &[("Cookie", cookie.clone())], "").0, 200)
        });
        let (rps, p50, p99) = drive(clients, 2000, work, &addr);
        rows.push(Row {
            scenario: "GET /api/me (session)".into(),
            clients,
            rps,
            p50,
            p99,
            floor: Some(me_floor),
        });
    }

    // Login is bounded by argon2 on purpose; the floor is argon2 itself on both cores.
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
    let phc = backoffice::auth::rules::hash_password("bench-password-0");
    let hashes = 40;
    let started = Instant::now();
    let threads: Vec<_> = (0..cores)
        .map(|_| {
            let phc = phc.clone();
            std::thread::spawn(move || {
                (0..hashes / cores)
                    .for_each(|_| assert!(backoffice::auth::rules::verify_password("bench-password-0", &phc)))
            })
        })
        .collect();
    threads.into_iter().for_each(|t| t.join().unwrap());
    let hash_rate = (hashes / cores * cores) as f64 / started.elapsed().as_secs_f64();
    let one_hash = floor(10, |_| {
        assert!(backoffice::auth::rules::verify_password("bench-password-0", &phc))
    });
    // Each name signs in at most 6 times (the limit is 8 per 15 minutes); each call has its own address.
    let next_user = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for clients in [1, 2, 4] {
        let per_client = 80 / clients;
        let next_user = next_user.clone();
        let work = Arc::new(move |c: &mut Client, thread: usize, i: usize| {
            let user = next_user.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % USERS;
            let ip = format!("10.{}.{}.{}", thread, i / 250, i % 250);
            let body = login_body(&format!("bench{user}@coop.in"), &format!("bench-password-{user}"));
            assert_eq!(
                c.call("POST", "/api/auth/login", &[("X-Forwarded-For", ip)], &body)
                    .0,
                200
            );
        });
        let (rps, p50, p99) = drive(clients, per_client, work, &addr);
        rows.push(Row {
            scenario: "POST /api/auth/login".into(),
            clients,
            rps,
            p50,
            p99,
            floor: Some((hash_rate, one_hash.1)),
        });
    }

    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let _ = server.wait();
    report(&rows, hash_rate, &pdf_table);
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

fn report(rows: &[Row], hash_rate: f64, pdf_table: &str) {
    let mut out = String::from(
        "| scenario | clients | req/s | p50 ms | p99 ms | floor /s | floor p50 ms | floor ÷ server |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let (floor_rate, floor_p50, ratio) = match r.floor {
            Some((rate, p50)) => (format!("{rate:.0}"), ms(p50), format!("{:.1}x", rate / r.rps)),
            None => ("".into(), "".into(), "".into()),
        };
        out.push_str(&format!(
            "| {} | {} | {:.0} | {} | {} | {} | {} | {} |\n",
            r.scenario,
            r.clients,
            r.rps,
            ms(r.p50),
            ms(r.p99),
            floor_rate,
            floor_p50,
            ratio
        ));
    }
    println!("{out}");
    println!("argon2id (m=19 MiB, t=2, p=1) verifications per second on all cores: {hash_rate:.1}");
    println!("\n{pdf_table}");
    let doc = format!(
        "# Benchmark\n\nMade by `cargo bench` on {} ({} cores): the release server on a fresh data file, \
         driven over loopback by keep-alive clients. The floor is the same work done directly: the same SQL on \
         the same file on one thread, or for login argon2id verification on all cores (hashes per second).\n\
         Latencies are per request as the client saw them.\n\n{out}\nargon2id (m=19 MiB, t=2, p=1) verifications \
         per second on all cores: {hash_rate:.1}\n\n{pdf_table}",
        chrono::Utc::now().format("%Y-%m-%d"),
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0),
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/benchmark.md");
    std::fs::write(&path, doc).unwrap();
    println!("written to {}", path.display());
}

/// A GST tax invoice with a logo and `lines` lines (descriptions of one to four printed lines).
fn pdf_view(lines: usize) -> backoffice::documents::view::DocumentView {
    use backoffice::company::template::{Letterhead, Logo};
    use backoffice::documents::view::{DocumentView, LineView, Party};
    let descriptions = [
        "Annual maintenance of the society accounting software, April 2026 to March 2027",
        "Data migration from the old system",
        "Training for staff (two days, on site)",
    ];
    let text = |s: &str| Some(s.to_string());
    DocumentView {
        title: "TAX INVOICE",
        doc_no: text("INV/26-27-0001"),
        doc_date: text("22 Nov 2026"),
        due_date: text("07 Dec 2026"),
        letterhead: Letterhead {
            trade_name: "Malabar Cooperative Software Pvt Ltd".into(),
            address_lines: vec![
                "2nd Floor, Civil Station Road".into(),
                "Kozhikode, Kerala 673020".into(),
            ],
            gstin: text("32AABCM1234F1Z5"),
            state: text("Kerala (32)"),
            phone: text("+91 495 276 5432"),
            email: text("accounts@malabarsoft.in"),
            bank_name: text("State Bank of India"),
            bank_account: text("38291047561"),
            bank_ifsc: text("SBIN0000857"),
            upi_id: text("malabarsoft@sbi"),
            terms: None,
            footer: text("This is a computer-generated document."),
            accent_color: "#1f4e79".into(),
            logo: Some(Logo {
                mime: "image/png",
                bytes: include_bytes!("../../src/pdf/test_logo.png").to_vec(),
            }),
        },
        recipient: Party {
            name: "Vadakara Service Co-operative Bank Ltd".into(),
            address_lines: vec!["Main Road, Vadakara".into(), "Kozhikode District".into()],
            gstin: text("32AAAAV1234B1Z9"),
            state: text("Kerala (32)"),
            ..Default::default()
        },
        place_of_supply: "Kerala (32)".into(),
        intra_state: true,
        lines: (0..lines)
            .map(|i| LineView {
                sno: i + 1,
                description: descriptions[i % 3].into(),
                sac: "998314".into(),
                qty: "1".into(),
                rate: "33,333.33".into(),
                taxable: "33,333.33".into(),
                gst_rate: "18%".into(),
                cgst: "3,000.00".into(),
                sgst: "3,000.00".into(),
                igst: "0.00".into(),
                total: "39,333.33".into(),
            })
            .collect(),
        subtotal: "1,00,000.00".into(),
        cgst: "9,000.00".into(),
        sgst: "9,000.00".into(),
        total: "₹1,18,000.00".into(),
        total_in_words: "Rupees One Lakh Eighteen Thousand Only".into(),
        notes: text("Thank you for your business."),
        terms: text("Payment within 15 days. Interest at 18% a year on payments made late."),
        ..Default::default()
    }
}

/// PDF rendering in-process: `backoffice::pdf::document_pdf` 200 times on a one-page and on a
/// five-page invoice; returns the markdown table.
fn pdf_section() -> String {
    let mut out = String::from(
        "## PDF rendering\n\n`backoffice::pdf::document_pdf` on one thread, 200 renders each after a first one, timed \
         apart (first ms; in the first row it is also the process's first render, which parses the \
         embedded fonts and decodes the logo).\n\n\
         | document | lines | pages | size KB | first ms | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (name, lines, pages) in [
        ("tax invoice, one page", 3, 1),
        ("tax invoice, five pages", 80, 5),
    ] {
        let view = pdf_view(lines);
        let t = Instant::now();
        let pdf = backoffice::pdf::document_pdf(&view).unwrap();
        let first = t.elapsed();
        let found = pdf
            .windows(12)
            .filter(|w| w.starts_with(b"/Type /Page") && w[11] != b's')
            .count();
        assert_eq!(found, pages, "{name}: {lines} lines gave {found} pages");
        let mut times: Vec<Duration> = (0..200)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(backoffice::pdf::document_pdf(&view).unwrap());
                t.elapsed()
            })
            .collect();
        times.sort();
        out.push_str(&format!(
            "| {name} | {lines} | {pages} | {:.1} | {} | {} | {} |\n",
            pdf.len() as f64 / 1024.0,
            ms(first),
            ms(times[times.len() / 2]),
            ms(times[times.len() * 99 / 100]),
        ));
    }
    out
}
