//! System tests: the real binary as a whole process (its commands, its log, crashes, many clients
//! at once, a fuzzer, Litestream beside it), started by the tests as child processes. One test
//! crate with a module per kind of trial.
//!
//! Its tests share this process and run on parallel threads, but the heaviest must not run beside
//! the others: each was a test binary of its own, and cargo runs test binaries one after another.
//! So every test here holds a guard for its whole run: `common::alone()` for the crash test, the
//! 32 clients, the fuzzer and the replication (no other test runs meanwhile), `common::shared()`
//! for the rest (they run beside one another). A new test takes one of the two.
//!
//! These test the binary as a whole, not an area; where each area is tested is in the `AREAS` maps
//! of tests/api/main.rs and tests/browser/main.rs.

#[path = "../common/mod.rs"]
mod common;

mod binary;
mod demo;
mod faults_concurrency;
mod faults_crash;
mod fuzz_api;
mod replication;
mod secrets_sweep;
mod windows;
