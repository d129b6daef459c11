//! System tests: the real binary as a whole process (its commands, its log, crashes, many clients
//! at once, a fuzzer), started by the tests as child processes. One test crate with a module per
//! area.

#[path = "../common/mod.rs"]
mod common;

mod binary;
mod demo;
mod faults_concurrency;
mod faults_crash;
mod fuzz_api;
mod secrets_sweep;
