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

/// Where each area of `src/` is tested here: `grep '"tickets"' tests/api/main.rs` finds the
/// modules that test the tickets. Every area of src/ has a row (a test below checks it), and
/// every module named is one of this crate's.
pub const AREAS: &[(&str, &[&str])] = &[
    ("admin", &["imports"]),
    ("audit", &["clients", "lists", "staff"]),
    ("auth", &["auth", "staff"]),
    ("catalog", &["documents", "projects", "directory"]),
    ("clients", &["clients", "lists", "staff"]),
    ("cloud_costs", &["cloud_costs"]),
    ("company", &["settings", "props_money", "outbound", "upi", "sms"]),
    ("contracts", &["contracts"]),
    ("dashboard", &["glance"]),
    ("demo", &["large_office"]),
    ("directory", &["directory"]),
    (
        "documents",
        &["documents", "lists", "props_money", "malayalam", "upi", "staff"],
    ),
    ("email", &["outbound", "email_log", "smtp"]),
    ("exports", &["tally"]),
    ("gst_return", &["gstr1"]),
    ("imports", &["imports"]),
    ("jobs", &["reminders", "sms", "cloud_costs", "tds"]),
    ("payments", &["payments", "lists", "tds"]),
    ("pipeline", &["worklists"]),
    (
        "plumbing",
        &["console", "backup", "outbound", "props_money", "lists"],
    ),
    ("projects", &["projects"]),
    ("recurring", &["contracts"]),
    ("reminders", &["reminders", "whatsapp"]),
    ("renewals", &["worklists"]),
    ("reports", &["payments", "glance", "gstr1"]),
    ("revenue", &["glance"]),
    ("search", &["search"]),
    ("setup", &["outbound"]),
    ("sms", &["sms"]),
    ("staff", &["staff", "auth"]),
    ("statements", &["statement", "malayalam"]),
    ("tds", &["tds", "form26as"]),
    ("tickets", &["worklists", "settings"]),
    ("whatsapp", &["whatsapp"]),
];

/// The map above names every area of src/ (each folder) and only modules of this crate.
#[test]
fn every_area_has_its_tests_named() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut areas: Vec<String> = std::fs::read_dir(root.join("src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    areas.sort();
    let mapped: Vec<&str> = AREAS.iter().map(|(area, _)| *area).collect();
    assert_eq!(mapped, areas, "the areas of src/ and the map's rows");
    for (area, modules) in AREAS {
        for module in *modules {
            let file = root.join("tests/api").join(format!("{module}.rs"));
            assert!(file.exists(), "{area}: no module {module}");
        }
    }
}
