//! The in-process tests: each test gets a fresh data file and calls the real router (or the
//! library) directly, with no server process. One test crate with a module per area, so that the
//! library and its dependencies are linked into one test binary rather than one per file.
//!
//! The tests of all modules share this process and run on parallel threads: a test may not set
//! environment variables or the working directory, nor rely on a process-wide counter of the
//! library staying still (see `common::TestApp::send_counting`).

#[path = "../common/mod.rs"]
mod common;

mod auth;
mod backup;
mod clients;
mod cloud_costs;
mod console;
mod contracts;
mod directory;
mod documents;
mod email_log;
mod form26as;
mod glance;
mod gstr1;
mod imports;
mod large_office;
mod lists;
mod malayalam;
mod outbound;
mod payments;
mod projects;
mod props_money;
mod reminders;
mod search;
mod settings;
mod sms;
mod smtp;
mod staff;
mod statement;
mod tally;
mod tds;
mod upi;
mod whatsapp;
mod worklists;
