//! `backoffice demo-data`: deterministic for a seed, and everything it writes obeys the rules the
//! API enforces (GSTINs pass the check, numbers gapless per series, nothing owes below zero).

use crate::common::http_call;
use crate::common::server::BIN;
use rusqlite::Connection;
use std::path::Path;
use std::process::Command;

fn generate(path: &Path, seed: &str) {
    let out = Command::new(BIN)
        .args([
            "demo-data",
            "--clients",
            "40",
            "--years",
            "4",
            "--seed",
            seed,
            "--data",
        ])
        .arg(path)
        .env("BACKOFFICE_OWNER_PASSWORD", "owner-demo-pw")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Demo office written"));
}

fn fingerprint(conn: &Connection) -> Vec<String> {
    let mut stmt = conn
        .prepare(
            "SELECT name || '|' || COALESCE(gstin, '') FROM client UNION ALL
             SELECT COALESCE(doc_no, 'draft') || '|' || total || '|' || status FROM document UNION ALL
             SELECT receipt_no || '|' || amount FROM payment ORDER BY 1",
        )
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_office_and_it_keeps_the_rules() {
    let _machine = crate::common::shared();
    let dir = tempfile::TempDir::new().unwrap();
    let (a, b, c) = (
        dir.path().join("a.db"),
        dir.path().join("b.db"),
        dir.path().join("c.db"),
    );
    generate(&a, "7");
    generate(&b, "7");
    generate(&c, "8");
    let (a, b, c) = (
        Connection::open(&a).unwrap(),
        Connection::open(&b).unwrap(),
        Connection::open(&c).unwrap(),
    );
    assert_eq!(fingerprint(&a), fingerprint(&b));
    assert_ne!(fingerprint(&a), fingerprint(&c));

    let one = |sql: &str| -> i64 { a.query_row(sql, [], |r| r.get(0)).unwrap() };
    let ok: String = a.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
    assert_eq!(one("SELECT COUNT(*) FROM pragma_foreign_key_check"), 0);
    assert_eq!(one("SELECT COUNT(*) FROM client"), 40);
    for kind in ["QUOTATION", "PROFORMA", "INVOICE", "CREDIT_NOTE"] {
        assert!(
            one(&format!("SELECT COUNT(*) FROM document WHERE type = '{kind}'")) > 0,
            "no {kind}"
        );
    }
    for status in ["draft", "issued", "sent", "lost", "invoiced", "cancelled"] {
        assert!(
            one(&format!(
                "SELECT COUNT(*) FROM document WHERE status = '{status}'"
            )) > 0,
            "no {status} document"
        );
    }
    assert!(
        one("SELECT COUNT(*) FROM payment_allocation WHERE tds > 0") > 0,
        "no TDS"
    );
    assert!(
        one("SELECT COUNT(*) FROM client_module WHERE status = 'new'") > 0,
        "no project in its first steps"
    );
    assert!(
        one("SELECT COUNT(*) FROM client_module WHERE status = 'trained'") > 0,
        "no trained project"
    );
    assert!(one("SELECT COUNT(*) FROM audit") > one("SELECT COUNT(*) FROM document"));

    // Every GSTIN passes the check the API applies.
    let mut stmt = a
        .prepare("SELECT gstin FROM client WHERE gstin IS NOT NULL")
        .unwrap();
    let gstins: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!gstins.is_empty());
    for g in gstins {
        backoffice::plumbing::gstin::Gstin::parse(&g).unwrap_or_else(|e| panic!("{g}: {}", e.message));
    }
    // Numbers are gapless per series and financial year, receipts included.
    let gaps = one("SELECT COUNT(*) FROM number_series s WHERE s.last_seq <>
           (SELECT COUNT(*) FROM (SELECT doc_no AS no FROM document UNION ALL SELECT receipt_no FROM payment)
            WHERE no LIKE s.prefix || '/' || s.fy || '-%')");
    assert_eq!(gaps, 0);
    // Nothing owes below zero, and no payment allocates more than it brought.
    assert_eq!(
        one("SELECT COUNT(*) FROM document d WHERE d.type = 'INVOICE' AND d.outstanding < 0"),
        0
    );
    assert_eq!(
        one(
            "SELECT COUNT(*) FROM payment p WHERE p.amount < (SELECT COALESCE(SUM(amount), 0) FROM payment_allocation a WHERE a.payment_id = p.id)"
        ),
        0
    );
    // Corrections are in the office too: payments entered twice and cancelled (settling
    // nothing, their receipt number kept), and advances given back, never more than was held.
    assert!(one("SELECT COUNT(*) FROM payment WHERE status = 'cancelled' AND cancel_reason <> ''") > 0);
    assert!(one("SELECT COUNT(*) FROM payment_refund") > 0);
    assert_eq!(
        one("SELECT COUNT(*) FROM payment p WHERE p.status = 'cancelled' AND
               (EXISTS (SELECT 1 FROM payment_allocation a WHERE a.payment_id = p.id) OR EXISTS (SELECT 1 FROM payment_refund r WHERE r.payment_id = p.id))"),
        0
    );
    assert_eq!(
        one(
            "SELECT COUNT(*) FROM payment p WHERE p.amount < (SELECT COALESCE(SUM(amount), 0) FROM payment_allocation a WHERE a.payment_id = p.id)
                                                          + (SELECT COALESCE(SUM(amount), 0) FROM payment_refund r WHERE r.payment_id = p.id)"
        ),
        0
    );
    assert_eq!(
        one("SELECT COUNT(*) FROM audit WHERE entity = 'payment' AND action IN ('cancelled', 'refunded')"),
        one("SELECT COUNT(*) FROM payment WHERE status = 'cancelled'")
            + one("SELECT COUNT(*) FROM payment_refund")
    );
    // A second run on a filled office is refused.
    let again = Command::new(BIN)
        .args(["demo-data", "--clients", "5", "--data"])
        .arg(dir.path().join("a.db"))
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already has clients"));
}

#[test]
fn serve_demo_fills_a_new_office_once_and_its_employees_can_sign_in() {
    let _machine = crate::common::shared();
    use std::io::{BufRead, BufReader};
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("office.db");
    let start = || {
        let mut child = Command::new(BIN)
            .args(["serve", "--demo", "--listen", "127.0.0.1:0", "--data"])
            .arg(&data)
            .env("BACKOFFICE_OWNER_PASSWORD", "owner-demo-pw")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line.trim().rsplit("http://").next().unwrap().to_string();
        (child, addr)
    };
    for _ in 0..2 {
        let (mut child, addr) = start();
        let login = http_call(
            "POST",
            &format!("http://{addr}/api/auth/login"),
            &[("Content-Type", "application/json")],
            Some(br#"{"username":"manager@demo.office","password":"demo-office-2026"}"#),
            30,
        )
        .unwrap();
        assert_eq!(login.status, 200, "{}", login.text());
        let cookie = login
            .header("set-cookie")
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string();
        let clients = http_call(
            "GET",
            &format!("http://{addr}/api/clients?per_page=1"),
            &[("Cookie", &cookie)],
            None,
            30,
        )
        .unwrap();
        let body: serde_json::Value = serde_json::from_slice(&clients.body).unwrap();
        assert_eq!(body["total"], 100, "filled once, not again on the second start");
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
