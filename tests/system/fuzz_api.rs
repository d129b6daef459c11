//! Schemathesis against the real binary's own OpenAPI document, signed in as the owner: no
//! answer is a 5xx, every answer's status is one the operation documents, every answer matches
//! the documented schema and content type, and the server logs no panic. `tests/run.sh`
//! installs Schemathesis into `target/fuzz-venv` (PyPI); without it the test is skipped, except
//! under CI where that is a failure. The seed is fixed so a run is repeatable; `FUZZ_SEED` picks
//! another, `FUZZ_EXAMPLES` the cases per operation (60 by default).

use crate::common::browser::owner_session;
use crate::common::server::Server;
use std::process::Command;

#[test]
fn the_api_holds_under_schemathesis() {
    let Some(st) = crate::common::venv_tool("schemathesis", "SCHEMATHESIS") else {
        return;
    };
    // Its two workers load the machine, and each of its requests has a timeout.
    let _machine = crate::common::alone();
    let dir = tempfile::TempDir::new().unwrap();
    let log = dir.path().join("server.log");
    let server = Server::start(&dir.path().join("office.db"), &log, Some("fuzz-owner-initial"));
    let owner = owner_session(&server, "fuzz-owner-initial", "the fuzzing owner's passphrase");
    // Some records for the generated requests to meet (most ids will still be unknown: 404).
    let (_, _, client) = server.call(
        "POST",
        "/api/clients",
        Some(&owner),
        Some(serde_json::json!({ "name": "Fuzz SCB", "state_code": "32" })),
    );
    assert!(client["id"].is_string(), "{client}");
    let seed = std::env::var("FUZZ_SEED").unwrap_or_else(|_| "20261122".into());
    let examples = std::env::var("FUZZ_EXAMPLES").unwrap_or_else(|_| "60".into());
    let out = Command::new(st)
        .current_dir(dir.path())
        .args(["run", &server.url("/api/openapi.json")])
        .args(["--header", &format!("Cookie: {owner}")])
        .args([
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
        ])
        // Signing out, changing the password or signing in (rate-limited, a deliberate hash each)
        // would end the fuzzing session or spend its time on argon2.
        .args([
            "--exclude-path",
            "/api/auth/logout",
            "--exclude-path",
            "/api/me/password",
            "--exclude-path",
            "/api/auth/login",
        ])
        .args([
            "--phases",
            "examples,coverage,fuzzing",
            "--max-examples",
            &examples,
            "--seed",
            &seed,
        ])
        .args([
            "--generation-database",
            "none",
            // One worker: with two, Hypothesis's cache of lambda descriptions is shared between
            // threads and now and then raises a KeyError inside Schemathesis ("Runtime Error",
            // seen on GET /api/audit in CI), which fails the run without any finding.
            "--workers",
            "1",
            "--request-timeout",
            "20",
        ])
        .output()
        .unwrap();
    server.stop();
    let report = String::from_utf8_lossy(&out.stdout);
    let tail: String = report
        .lines()
        .rev()
        .take(80)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        out.status.success(),
        "Schemathesis found problems (seed {seed}):\n{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("Tested:"), "no operation was tested:\n{tail}");
    let server_log = std::fs::read_to_string(&log).unwrap();
    assert!(
        !server_log.contains("panicked"),
        "the server panicked under fuzzing"
    );
    println!("{tail}");
}
