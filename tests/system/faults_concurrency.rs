//! 32 clients at once against the real binary: each creates, issues and pays its own invoices,
//! and all of them race to over-pay the same shared invoices. No answer may be a 5xx; each shared
//! invoice takes exactly one of the racing payments (the rest are 422 `exceeds_outstanding` and
//! consume no receipt number); afterwards the INV and RCT series are gapless and unique and the
//! file holds exactly what was acknowledged.

use crate::common::server::Server;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::{Barrier, Mutex};
use std::time::Instant;

const CLIENTS: usize = 32;
const ROUNDS: usize = 10;
const OWNER_PASSWORD: &str = "concurrency-owner-pw";

fn text(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("no {key} in {v}"))
        .to_string()
}

/// (route, status) → how many answers.
type Statuses = Mutex<BTreeMap<(&'static str, u16), usize>>;

#[derive(Default)]
struct Acked {
    /// (id, docNo)
    issued: Vec<(String, String)>,
    /// (id, receipt_no, invoice, amount)
    payments: Vec<(String, String, String, i64)>,
    /// Shared invoice id → the payments that won it.
    shared_wins: BTreeMap<String, usize>,
    problems: Vec<String>,
}

fn parse_number(number: &str) -> (String, String, i64) {
    let (prefix, rest) = number.split_once('/').unwrap();
    let (fy, seq) = rest.rsplit_once('-').unwrap();
    (prefix.into(), fy.into(), seq.parse().unwrap())
}

#[test]
fn thirty_two_clients_at_once_keep_the_books_whole() {
    // 32 clients and the server load the machine.
    let _machine = crate::common::alone();
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("office.db");
    let log = dir.path().join("server.log");
    let server = Server::start(&data, &log, Some(OWNER_PASSWORD));
    let started = Instant::now();
    let (status, cookie, body) = server.call(
        "POST",
        "/api/auth/login",
        None,
        Some(json!({ "username": "owner@localhost", "password": OWNER_PASSWORD })),
    );
    assert_eq!(status, 200, "{body}");
    let owner = cookie.unwrap();
    // Four sessions (the owner and three managers), eight clients on each.
    let mut sessions = vec![owner.clone()];
    for n in 0..3 {
        let email = format!("manager{n}@coop.in");
        let (status, _, invited) = server.call(
            "POST",
            "/api/employees",
            Some(&owner),
            Some(json!({ "email": email, "name": format!("Manager {n}"), "role": "manager" })),
        );
        assert_eq!(status, 201, "{invited}");
        let (status, cookie, body) = server.call(
            "POST",
            "/api/auth/login",
            None,
            Some(json!({ "username": email, "password": text(&invited, "initial_password") })),
        );
        assert_eq!(status, 200, "{body}");
        sessions.push(cookie.unwrap());
    }
    let mut societies = vec![];
    for n in 0..4 {
        let (status, _, client) = server.call(
            "POST",
            "/api/clients",
            Some(&owner),
            Some(json!({ "name": format!("Society {n} Service Co-operative Bank"), "state_code": "32" })),
        );
        assert_eq!(status, 201, "{client}");
        societies.push(text(&client, "id"));
    }
    let today = chrono::Utc::now().date_naive().to_string();
    let line = |what: &str| json!([ { "description": what, "qty": 1, "unit_price": 100_000 } ]);

    // The invoices everybody will race to over-pay, one per round.
    let mut shared = vec![];
    for round in 0..ROUNDS {
        let (status, _, draft) = server.call(
            "POST",
            "/api/documents",
            Some(&owner),
            Some(json!({ "type": "INVOICE", "client_id": societies[0], "lines": line(&format!("Shared {round}")) })),
        );
        assert_eq!(status, 201, "{draft}");
        let (status, _, issued) = server.call(
            "POST",
            &format!("/api/documents/{}/issue", text(&draft, "id")),
            Some(&owner),
            Some(json!({})),
        );
        assert_eq!(status, 200, "{issued}");
        shared.push((text(&issued, "id"), issued["total"].as_i64().unwrap()));
    }
    let shared_issues = shared.len();

    let statuses: Statuses = Mutex::new(BTreeMap::new());
    let acked = Mutex::new(Acked::default());
    let barrier = Barrier::new(CLIENTS);
    std::thread::scope(|scope| {
        for who in 0..CLIENTS {
            let (server, statuses, acked, barrier) = (&server, &statuses, &acked, &barrier);
            let (cookie, client) = (&sessions[who % sessions.len()], &societies[who % societies.len()]);
            let (shared, shared_client, today) = (&shared, &societies[0], &today);
            scope.spawn(move || {
                let call = |route: &'static str, method: &str, path: &str, body: Option<Value>| {
                    let (status, _, reply) = server.call(method, path, Some(cookie), body);
                    *statuses.lock().unwrap().entry((route, status)).or_default() += 1;
                    (status, reply)
                };
                let problem = |what: String| acked.lock().unwrap().problems.push(what);
                for (round, (invoice, total)) in shared.iter().enumerate() {
                    // Everybody at once: 70% of the shared invoice; only one can fit.
                    barrier.wait();
                    let part = total * 7 / 10;
                    let (status, paid) = call(
                        "race payment",
                        "POST",
                        "/api/payments",
                        Some(json!({ "client_id": shared_client, "received_on": today, "amount": part, "mode": "neft_rtgs",
                                     "allocations": [ { "document_id": invoice, "amount": part } ] })),
                    );
                    match status {
                        201 => {
                            let mut a = acked.lock().unwrap();
                            *a.shared_wins.entry(invoice.clone()).or_default() += 1;
                            a.payments
                                .push((text(&paid, "id"), text(&paid, "receipt_no"), invoice.clone(), part));
                        }
                        422 if paid["error"]["code"] == "exceeds_outstanding" => {}
                        _ => problem(format!("client {who}: race payment answered {status}: {paid}")),
                    }

                    // Its own invoice: create, issue, read, pay in two halves, read again.
                    let (status, draft) = call(
                        "create",
                        "POST",
                        "/api/documents",
                        Some(json!({ "type": "INVOICE", "client_id": client, "lines": line(&format!("Visit {who}-{round}")) })),
                    );
                    if status != 201 {
                        problem(format!("client {who}: create answered {status}: {draft}"));
                        continue;
                    }
                    let id = text(&draft, "id");
                    let (status, issued) =
                        call("issue", "POST", &format!("/api/documents/{id}/issue"), Some(json!({})));
                    if status != 200 {
                        problem(format!("client {who}: issue answered {status}: {issued}"));
                        continue;
                    }
                    acked.lock().unwrap().issued.push((id.clone(), text(&issued, "docNo")));
                    let total = issued["total"].as_i64().unwrap();
                    for part in [total / 2, total - total / 2] {
                        let (status, paid) = call(
                            "payment",
                            "POST",
                            "/api/payments",
                            Some(json!({ "client_id": client, "received_on": today, "amount": part, "mode": "upi",
                                         "allocations": [ { "document_id": id, "amount": part } ] })),
                        );
                        if status != 201 {
                            problem(format!("client {who}: payment answered {status}: {paid}"));
                            continue;
                        }
                        acked
                            .lock()
                            .unwrap()
                            .payments
                            .push((text(&paid, "id"), text(&paid, "receipt_no"), id.clone(), part));
                    }
                    let (status, settled) = call("read", "GET", &format!("/api/documents/{id}"), None);
                    if (status, settled["outstanding"].as_i64(), settled["paid"].as_i64().map(|f| f == 1))
                        != (200, Some(0), Some(true))
                    {
                        problem(format!("client {who}: after paying, {status}: {settled}"));
                    }
                }
            });
        }
    });
    let elapsed = started.elapsed();
    let statuses = statuses.into_inner().unwrap();
    let acked = acked.into_inner().unwrap();
    eprintln!("{CLIENTS} clients × {ROUNDS} rounds in {elapsed:?}: {statuses:?}");
    assert!(acked.problems.is_empty(), "{:#?}", acked.problems);
    let server_errors: Vec<_> = statuses.iter().filter(|((_, s), _)| *s >= 500).collect();
    assert!(server_errors.is_empty(), "5xx answers: {server_errors:?}");
    let n = CLIENTS * ROUNDS;
    let expected: BTreeMap<(&str, u16), usize> = [
        (("create", 201), n),
        (("issue", 200), n),
        (("payment", 201), 2 * n),
        (("read", 200), n),
        (("race payment", 201), ROUNDS),
        (("race payment", 422), n - ROUNDS),
    ]
    .into_iter()
    .collect();
    assert_eq!(statuses, expected);
    assert_eq!(
        acked.shared_wins.values().copied().collect::<Vec<_>>(),
        vec![1; ROUNDS],
        "each shared invoice takes exactly one racing payment"
    );

    // The API shows what was acknowledged.
    let (status, _, list) = server.call("GET", "/api/payments?per_page=1", Some(&owner), None);
    assert_eq!(
        (status, list["total"].as_u64()),
        (200, Some(acked.payments.len() as u64))
    );
    server.stop();

    let conn = rusqlite::Connection::open(&data).unwrap();
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        conn.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
            .unwrap(),
        "ok"
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM document WHERE type = 'INVOICE' AND status = 'issued'"),
        (acked.issued.len() + shared_issues) as i64,
        "issued invoices = acknowledged issues"
    );
    assert_eq!(count("SELECT COUNT(*) FROM document WHERE status = 'draft'"), 0);
    assert_eq!(count("SELECT COUNT(*) FROM payment"), acked.payments.len() as i64);
    for (id, doc_no) in &acked.issued {
        let stored: Option<String> = conn
            .query_row(
                "SELECT doc_no FROM document WHERE id = ?1 AND status = 'issued'",
                [id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(stored.as_deref(), Some(doc_no.as_str()));
    }
    for (id, receipt_no, invoice, amount) in &acked.payments {
        let stored: (String, String, i64) = conn
            .query_row(
                "SELECT p.receipt_no, a.document_id, a.amount FROM payment p
                 JOIN payment_allocation a ON a.payment_id = p.id WHERE p.id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(stored, (receipt_no.clone(), invoice.clone(), *amount));
    }
    assert_eq!(
        count(
            "SELECT COUNT(*) FROM document d WHERE d.type = 'INVOICE' AND d.total <
               (SELECT COALESCE(SUM(a.amount + a.tds), 0) FROM payment_allocation a WHERE a.document_id = d.id)"
        ),
        0,
        "no invoice is allocated past its total"
    );

    // Gapless and unique per series, and the series rows agree.
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
    let series: BTreeMap<(String, String), i64> = conn
        .prepare("SELECT prefix, fy, last_seq FROM number_series")
        .unwrap()
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let prefixes: std::collections::BTreeSet<&str> = numbers.keys().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        prefixes.into_iter().collect::<Vec<_>>(),
        ["INV", "RCT"],
        "{numbers:?}"
    );
    assert_eq!(
        numbers.keys().collect::<Vec<_>>(),
        series.keys().collect::<Vec<_>>()
    );
    for (key, seqs) in &mut numbers {
        seqs.sort_unstable();
        assert_eq!(
            *seqs,
            (1..=series[key]).collect::<Vec<_>>(),
            "{key:?}: a gap or a repeat"
        );
    }
    let numbered = |prefix: &str| -> usize {
        numbers
            .iter()
            .filter(|((p, _), _)| p == prefix)
            .map(|(_, seqs)| seqs.len())
            .sum()
    };
    let (inv, rct) = (numbered("INV"), numbered("RCT"));
    assert_eq!((inv, rct), (n + ROUNDS, 2 * n + ROUNDS));
}
