//! Browser tests: real headless Chromium, driven over WebDriver, against the real binary on a
//! free loopback port with a fresh data file. Screenshots of each main screen are saved under
//! target/screenshots/ for a reviewer to look at.
//!
//! One test crate with a module per area. Without Chromium and chromedriver each test is skipped,
//! except under CI (`CI` set) where that is a failure; `tests/run.sh` installs them.
//!
//! The tests share this process and run on parallel threads (one per core by default), as the two
//! tests of the former browser.rs did: each starts its own chromedriver, Chromium profile, server
//! and data file, on ports the OS chooses, and screenshot names are unique across the modules.

#[path = "../common/mod.rs"]
mod common;

mod audit;
mod auth;
mod clients;
mod cloud_costs;
mod contracts;
mod documents;
mod forms;
mod glance;
mod gstr1;
mod imports;
mod layout;
mod outbound;
mod payments;
mod projects;
mod reminders;
mod search;
mod settings;
mod sms;
mod tally;
mod tds;
mod worklists;
