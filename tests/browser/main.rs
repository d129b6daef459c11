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

/// Where each area's screens are tested here: `grep '"tickets"' tests/browser/main.rs` finds the
/// modules that drive the tickets' pages. Areas without a screen of their own (plumbing, demo,
/// jobs' triggers) are tested in tests/api (its `AREAS`).
pub const AREAS: &[(&str, &[&str])] = &[
    ("audit", &["audit", "layout"]),
    ("auth", &["auth", "forms"]),
    ("catalog", &["projects"]),
    ("clients", &["clients", "forms"]),
    ("cloud_costs", &["cloud_costs"]),
    ("company", &["settings", "forms", "sms"]),
    ("contracts", &["contracts"]),
    ("dashboard", &["glance"]),
    ("directory", &["search"]),
    ("documents", &["documents", "forms"]),
    ("email", &["outbound", "settings"]),
    ("exports", &["tally"]),
    ("gst_return", &["gstr1"]),
    ("imports", &["imports"]),
    ("jobs", &["reminders"]),
    ("payments", &["payments", "forms"]),
    ("pipeline", &["worklists"]),
    ("projects", &["projects", "worklists"]),
    ("recurring", &["contracts"]),
    ("reminders", &["reminders"]),
    ("renewals", &["worklists"]),
    ("reports", &["payments", "glance"]),
    ("revenue", &["glance"]),
    ("search", &["search"]),
    ("sms", &["sms"]),
    ("staff", &["auth", "forms"]),
    ("statements", &["clients"]),
    ("tds", &["tds"]),
    ("tickets", &["worklists", "glance"]),
];

/// The map above names areas of src/ and modules of this crate only (no browser needed).
#[test]
fn the_map_names_areas_and_modules_that_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (area, modules) in AREAS {
        assert!(root.join("src").join(area).is_dir(), "no area {area}");
        for module in *modules {
            let file = root.join("tests/browser").join(format!("{module}.rs"));
            assert!(file.exists(), "{area}: no module {module}");
        }
    }
}
