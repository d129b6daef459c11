//! The legacy import on the large office (issue 17): a CSV file of 5,000 societies new to the
//! registry with ten legacy invoices each (50,000 rows, the society's cells repeated on each of
//! its rows), made here, staged and committed through the API as the owner, each request timed
//! end to end, while two other clients keep reading. It runs on a fresh copy of the large
//! office with a server of its own, so the 5,000 clients and 50,000 invoices it adds reach no
//! other row of the table.

use crate::http::{Client, Measured, summarize};
use crate::office::{self, Server};
use crate::reads::PathOf;
use backoffice::demo::Rng;
use backoffice::plumbing::clock::Fy;
use chrono::{Datelike, Days, NaiveDate};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub const SOCIETIES: usize = 5000;
pub const INVOICES_EACH: usize = 10;

/// Places of Kerala that the large office's names do not use (`demo::names::PLACES`), so every
/// society of the file is new to the registry: (place, district).
const PLACES: &[(&str, &str)] = &[
    ("Kallada", "Kollam"),
    ("Kundara", "Kollam"),
    ("Sasthamcotta", "Kollam"),
    ("Chavara", "Kollam"),
    ("Paravur", "Kollam"),
    ("Pathanapuram", "Kollam"),
    ("Kilimanoor", "Thiruvananthapuram"),
    ("Vamanapuram", "Thiruvananthapuram"),
    ("Pothencode", "Thiruvananthapuram"),
    ("Balaramapuram", "Thiruvananthapuram"),
    ("Vizhinjam", "Thiruvananthapuram"),
    ("Thiruvalla", "Pathanamthitta"),
    ("Konni", "Pathanamthitta"),
    ("Mallappally", "Pathanamthitta"),
    ("Kulanada", "Pathanamthitta"),
    ("Ambalappuzha", "Alappuzha"),
    ("Edathua", "Alappuzha"),
    ("Muhamma", "Alappuzha"),
    ("Aroor", "Alappuzha"),
    ("Erattupetta", "Kottayam"),
    ("Kuravilangad", "Kottayam"),
    ("Uzhavoor", "Kottayam"),
    ("Pampady", "Kottayam"),
    ("Nedumkandam", "Idukki"),
    ("Peermade", "Idukki"),
    ("Kumily", "Idukki"),
    ("Kolenchery", "Ernakulam"),
    ("Kalady", "Ernakulam"),
    ("Mala", "Thrissur"),
    ("Ollur", "Thrissur"),
    ("Guruvayur", "Thrissur"),
    ("Chavakkad", "Thrissur"),
    ("Kollengode", "Palakkad"),
    ("Nemmara", "Palakkad"),
    ("Cherpulassery", "Palakkad"),
    ("Valanchery", "Malappuram"),
    ("Kondotty", "Malappuram"),
    ("Areekode", "Malappuram"),
    ("Thamarassery", "Kozhikode"),
    ("Perambra", "Kozhikode"),
    ("Nadapuram", "Kozhikode"),
    ("Panamaram", "Wayanad"),
    ("Meenangadi", "Wayanad"),
    ("Pinarayi", "Kannur"),
    ("Kuthuparamba", "Kannur"),
    ("Sreekandapuram", "Kannur"),
    ("Cheruvathur", "Kasaragod"),
    ("Uppala", "Kasaragod"),
];

/// Places written in Malayalam, as an old register in Malayalam gives them: (place, district).
const PLACES_ML: &[(&str, &str)] = &[
    ("കല്ലട", "Kollam"),
    ("കുണ്ടറ", "Kollam"),
    ("ചവറ", "Kollam"),
    ("കിളിമാനൂർ", "Thiruvananthapuram"),
    ("തിരുവല്ല", "Pathanamthitta"),
    ("കോന്നി", "Pathanamthitta"),
    ("അമ്പലപ്പുഴ", "Alappuzha"),
    ("ഈരാറ്റുപേട്ട", "Kottayam"),
    ("കാലടി", "Ernakulam"),
    ("ഗുരുവായൂർ", "Thrissur"),
    ("നെന്മാറ", "Palakkad"),
    ("കൊണ്ടോട്ടി", "Malappuram"),
    ("താമരശ്ശേരി", "Kozhikode"),
    ("പിണറായി", "Kannur"),
];

/// (name pattern with {place} and {no}, sector). Most carry a comma, so the file quotes them.
const KINDS: &[(&str, &str)] = &[
    ("{place} Service Co-operative Bank Ltd, No {no}", "Banking"),
    ("{place} Service Co-operative Bank Ltd, No {no}", "Banking"),
    ("{place} Vanitha Co-operative Society Ltd, No {no}", "Women"),
    (
        "{place} Rubber Producers' Co-operative Society Ltd, No {no}",
        "Agriculture",
    ),
    (
        "{place} Fishermen Development Welfare Co-operative Society, No {no}",
        "Fisheries",
    ),
    (
        "{place} Handloom Weavers' Co-operative Society Ltd, No {no}",
        "Handloom",
    ),
    ("{place} Coir Vyavasaya Co-operative Society Ltd No. {no}", "Coir"),
    (
        "{place} Employees Co-operative Credit Society Ltd No. {no}",
        "Credit",
    ),
    (
        "{place} Primary Agricultural Credit Society, No {no}",
        "Agriculture",
    ),
];

/// The same kinds as a Malayalam register writes them (service co-operative bank ltd, women's
/// co-operative society, milk producers' co-operative society).
const KINDS_ML: &[(&str, &str)] = &[
    ("{place} സർവീസ് സഹകരണ ബാങ്ക് ക്ലിപ്തം നമ്പർ {no}", "Banking"),
    ("{place} വനിതാ സഹകരണ സംഘം നമ്പർ {no}", "Women"),
    ("{place} ക്ഷീരോൽപാദക സഹകരണ സംഘം നമ്പർ {no}", "Dairy"),
];

/// What the old system billed, in rupees before GST (18 % is added): an AMC renewal each
/// spring, and something else each autumn.
const SPRING: &[i64] = &[18_000, 20_000, 24_000, 36_000];
const AUTUMN: &[i64] = &[6_000, 12_000, 38_000, 40_000, 45_000, 150_000];

/// The file and what the import must make of it.
pub struct LegacyFile {
    pub csv: String,
    /// Paise: the sum of the invoice totals, and per financial year their count and sum (the
    /// status's `verification`).
    pub invoice_total: i64,
    pub invoices_by_fy: BTreeMap<String, i64>,
    pub totals_by_fy: BTreeMap<String, i64>,
}

/// A GSTIN of Kerala (state 32) for a society: a PAN of an association of persons (three
/// letters, A, a letter, four digits from `n`, a letter), entity 1, Z and its check character.
fn gstin(rng: &mut Rng, n: usize) -> String {
    let letter = |rng: &mut Rng| (b'A' + rng.below(26) as u8) as char;
    let first14 = format!(
        "32{}{}{}A{}{:04}{}1Z",
        letter(rng),
        letter(rng),
        letter(rng),
        letter(rng),
        n % 10_000,
        letter(rng)
    );
    let check = backoffice::plumbing::gstin::check_char(&first14).expect("base-36 characters");
    format!("{first14}{check}")
}

/// The systems the old records give.
const OS: [&str; 4] = ["Windows 10", "Windows 11", "Windows 7", "Ubuntu 22.04"];

/// The old system's register: [`SOCIETIES`] societies (one in seven named in Malayalam, most
/// names with a comma), each with [`INVOICES_EACH`] invoices over the five financial years
/// before `today`'s (two a year, numbered `OLD/yy-yy-NNNNN` in date order within each year),
/// one in twenty with something still owed on its last invoice. Deterministic.
pub fn legacy_file(today: NaiveDate) -> LegacyFile {
    let mut rng = Rng::new(17);
    let fy_start = |years_back: i32| {
        let year = if today.month() >= 4 {
            today.year()
        } else {
            today.year() - 1
        };
        NaiveDate::from_ymd_opt(year - years_back, 4, 1).expect("1 April")
    };
    struct Society {
        name: String,
        gstin: String,
        district: &'static str,
        sector: &'static str,
        remote: String,
        os: &'static str,
    }
    struct Invoice {
        society: usize,
        date: NaiveDate,
        total: i64,
        balance: Option<i64>,
    }
    let mut societies = Vec::with_capacity(SOCIETIES);
    let mut invoices = Vec::with_capacity(SOCIETIES * INVOICES_EACH);
    for i in 0..SOCIETIES {
        let ((place, district), (pattern, sector)) = if i % 7 == 3 {
            (*rng.pick(PLACES_ML), *rng.pick(KINDS_ML))
        } else {
            (*rng.pick(PLACES), *rng.pick(KINDS))
        };
        // Registration numbers are unique here, so every name (and its key) is.
        let name = pattern
            .replace("{place}", place)
            .replace("{no}", &(1001 + i).to_string());
        societies.push(Society {
            name,
            gstin: if rng.chance(60) {
                gstin(&mut rng, i)
            } else {
                String::new()
            },
            district,
            sector,
            remote: if rng.chance(70) {
                format!(
                    "{} {} {}",
                    rng.range(100, 999),
                    rng.range(100, 999),
                    rng.range(100, 999)
                )
            } else {
                String::new()
            },
            os: OS[rng.range(0, OS.len() as i64 - 1) as usize],
        });
        for k in 0..INVOICES_EACH {
            let start = fy_start(5 - (k / 2) as i32);
            let (date, base) = if k % 2 == 0 {
                (start + Days::new(rng.below(90)), *rng.pick(SPRING))
            } else {
                (start + Days::new(183 + rng.below(150)), *rng.pick(AUTUMN))
            };
            let total = base * 118;
            let balance = (k == INVOICES_EACH - 1 && i % 20 == 0).then_some(if i % 40 == 0 {
                total
            } else {
                total / 2
            });
            invoices.push(Invoice {
                society: i,
                date,
                total,
                balance,
            });
        }
    }
    // Numbers in date order within each financial year, as the old system gave them.
    let mut order: Vec<usize> = (0..invoices.len()).collect();
    order.sort_by_key(|&j| (invoices[j].date, invoices[j].society));
    let mut numbers = vec![String::new(); invoices.len()];
    let mut seq: BTreeMap<String, u32> = BTreeMap::new();
    let mut file = LegacyFile {
        csv: String::new(),
        invoice_total: 0,
        invoices_by_fy: BTreeMap::new(),
        totals_by_fy: BTreeMap::new(),
    };
    for j in order {
        let fy = Fy::of(invoices[j].date).short();
        let n = seq.entry(fy.clone()).or_default();
        *n += 1;
        numbers[j] = format!("OLD/{fy}-{n:05}");
        file.invoice_total += invoices[j].total;
        *file.invoices_by_fy.entry(fy.clone()).or_default() += 1;
        *file.totals_by_fy.entry(fy).or_default() += invoices[j].total;
    }
    let mut out = csv::Writer::from_writer(vec![]);
    out.write_record([
        "Name",
        "GSTIN",
        "District",
        "Sector",
        "Remote Access ID",
        "OS",
        "Invoice No",
        "Invoice Date",
        "Invoice Total",
        "Invoice Balance",
    ])
    .unwrap();
    for (j, inv) in invoices.iter().enumerate() {
        let s = &societies[inv.society];
        // Dates and amounts as spreadsheets write them: mostly one way, some another.
        let date = if rng.chance(50) {
            inv.date.format("%Y-%m-%d").to_string()
        } else {
            inv.date.format("%d-%m-%Y").to_string()
        };
        let amount = |rng: &mut Rng, paise: i64| match rng.below(10) {
            0 => backoffice::plumbing::money::rupees(paise),
            1 => backoffice::plumbing::money::decimal(paise),
            _ => backoffice::plumbing::money::amount(paise),
        };
        let total = amount(&mut rng, inv.total);
        let balance = match inv.balance {
            Some(b) => amount(&mut rng, b),
            None if rng.chance(20) => "0".into(),
            None => String::new(),
        };
        out.write_record([
            s.name.as_str(),
            &s.gstin,
            s.district,
            s.sector,
            &s.remote,
            s.os,
            &numbers[j],
            &date,
            &total,
            &balance,
        ])
        .unwrap();
    }
    file.csv = String::from_utf8(out.into_inner().unwrap()).unwrap();
    file
}

/// Reads timed while the import runs: (when each began, how long it took).
pub type Timed = Vec<(Instant, Duration)>;

/// Runs `paths` round by round on `clients` keep-alive connections as the holder of `cookie`,
/// each client one read every [`READ_EVERY`], until `stop`; every read is timed.
pub fn keep_reading(
    addr: &str,
    cookie: &str,
    paths: &[PathOf],
    clients: usize,
    stop: &Arc<AtomicBool>,
) -> Vec<std::thread::JoinHandle<Timed>> {
    (0..clients)
        .map(|t| {
            let (addr, cookie, paths, stop) =
                (addr.to_string(), cookie.to_string(), paths.to_vec(), stop.clone());
            std::thread::spawn(move || {
                let mut c = Client::connect(&addr);
                let mut timed = vec![];
                let mut i = t;
                let mut next = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(next.saturating_duration_since(Instant::now()));
                    next += READ_EVERY;
                    let path = paths[i % paths.len()](i);
                    let began = Instant::now();
                    c.get(&path, &cookie);
                    timed.push((began, began.elapsed()));
                    i += 1;
                }
                timed
            })
        })
        .collect()
}

/// The reads begun within `from..to`, summarized over that span, and the slowest of them.
pub fn within(timed: &[(Instant, Duration)], from: Instant, to: Instant) -> (Measured, Duration) {
    let times: Vec<Duration> = timed
        .iter()
        .filter(|(began, _)| (from..to).contains(began))
        .map(|(_, took)| *took)
        .collect();
    let slowest = times.iter().copied().max().unwrap_or_default();
    (summarize(times, to - from), slowest)
}

/// The reads beside the import, in each of its phases: (measured, slowest).
pub struct ReadsBeside {
    pub clients: usize,
    pub before: (Measured, Duration),
    pub staging: (Measured, Duration),
    pub committing: (Measured, Duration),
}

/// What the import run measured: its facts (text, met, target) and the reads beside it.
pub struct ImportRun {
    pub facts: Vec<(String, bool, &'static str)>,
    pub reads: ReadsBeside,
}

/// The clients that read beside the import, and how often each asks: 100 reads a second in
/// all, an office of people at work (the mixed office day's 16 clients flat out are some 700
/// a second). Flat out, two clients would take one of the two cores from the commit as well
/// as answering: the commit then takes twice as long (docs/benchmark.md).
const READERS: usize = 2;
pub const READ_EVERY: Duration = Duration::from_millis(20);

/// How far into the commit the returning user asks.
const RETURNING_AFTER: Duration = Duration::from_millis(500);

/// Ages the session of `cookie` as five idle minutes would, written into the served file (the
/// server is idle): its next request first records that it was seen (a write), as the first
/// request of anyone who comes back to the console after a minute or more does.
fn age_session(data: &Path, cookie: &str) {
    let conn = rusqlite::Connection::open(data).unwrap();
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    let hash = backoffice::auth::rules::hash_token(cookie.trim_start_matches("bo_session="));
    let earlier = backoffice::plumbing::clock::timestamp(chrono::Utc::now() - chrono::Duration::minutes(5));
    let aged = conn
        .execute(
            "UPDATE session SET last_seen_at = ?2 WHERE token_hash = ?1",
            rusqlite::params![hash, earlier],
        )
        .unwrap();
    assert_eq!(aged, 1, "no session to age");
}

/// Copies the large office at `cached` to `data` (synced, so its writeback does not land on
/// the commit's fsync), serves it, reads `paths` as the manager for `before` on the idle server,
/// then stages and commits the legacy file as the owner while the same reads go on.
pub fn run(cached: &Path, data: &Path, paths: &[PathOf], before: Duration) -> ImportRun {
    office::copy_data(cached, data);
    std::fs::File::open(data).unwrap().sync_all().unwrap();
    let server = Server::start(data);
    let addr = server.addr.clone();
    let owner = office::sign_in(&addr, "owner@localhost", office::OWNER_PASSWORD);
    let manager = office::sign_in(&addr, "manager@demo.office", backoffice::demo::STAFF_PASSWORD);
    let today = {
        let conn = crate::reads::reader(data);
        backoffice::plumbing::db::settings::office_today(&conn).unwrap()
    };
    let made = Instant::now();
    let file = legacy_file(today);
    let body = serde_json::json!({ "csv": file.csv, "file_name": "old-register.csv" }).to_string();
    println!(
        "legacy import: made the file in {:.2} s ({:.1} MB of CSV, {:.1} MB as JSON)",
        made.elapsed().as_secs_f64(),
        file.csv.len() as f64 / 1_048_576.0,
        body.len() as f64 / 1_048_576.0
    );

    let returning = office::sign_in(&addr, "manager@demo.office", backoffice::demo::STAFF_PASSWORD);
    age_session(data, &returning);

    let stop = Arc::new(AtomicBool::new(false));
    let readers = keep_reading(&addr, &manager, paths, READERS, &stop);
    let read_from = Instant::now();
    std::thread::sleep(before);
    let mut c = Client::connect(&addr);
    let cpu = server.cpu();
    let stage_from = Instant::now();
    let staged = c.post("/api/import/stage", &owner, &body, 200).json();
    let stage_to = Instant::now();
    let stage_cpu = server.cpu() - cpu;
    let status_from = Instant::now();
    let status = c.get("/api/import/status", &owner).json();
    let status_took = status_from.elapsed();
    let count = |v: &serde_json::Value, key: &str| v[key].as_i64().unwrap_or(-1);
    assert_eq!(
        (
            count(&staged, "problems"),
            count(&staged, "to_create"),
            count(&staged, "to_update"),
            count(&staged, "invoices")
        ),
        (0, SOCIETIES as i64, 0, (SOCIETIES * INVOICES_EACH) as i64),
        "the staged legacy file: {}",
        serde_json::to_string(&staged["problems_by_kind"]).unwrap()
    );
    assert_eq!(status["verification"], staged["verification"]);
    let expected = serde_json::json!({
        "invoice_total": file.invoice_total,
        "invoices_by_fy": file.invoices_by_fy,
        "totals_by_fy": file.totals_by_fy,
    });
    let staged_right = staged["verification"] == expected;
    let returns = std::thread::spawn({
        let (addr, returning, path) = (addr.clone(), returning.clone(), paths[0](0));
        move || {
            std::thread::sleep(RETURNING_AFTER);
            let mut c = Client::connect(&addr);
            let asked = Instant::now();
            c.get(&path, &returning);
            (asked, asked.elapsed())
        }
    });
    let cpu = server.cpu();
    let commit_from = Instant::now();
    let committed = c.post("/api/import/commit", &owner, "{}", 200).json();
    let commit_to = Instant::now();
    let commit_cpu = server.cpu() - cpu;
    let (returned_at, returned_in) = returns.join().unwrap();
    stop.store(true, Ordering::Relaxed);
    let timed: Timed = readers.into_iter().flat_map(|h| h.join().unwrap()).collect();
    let after = c.get("/api/import/status", &owner).json();
    let peak = server.memory("VmHWM");
    server.stop();

    assert_eq!(
        (
            count(&committed, "clients_created"),
            count(&committed, "clients_updated"),
            count(&committed, "invoices_created"),
            count(&committed, "invoices_known")
        ),
        (SOCIETIES as i64, 0, (SOCIETIES * INVOICES_EACH) as i64, 0),
        "the commit: {committed}"
    );
    let series = committed["series"].as_array().map_or(0, Vec::len);
    let read_back = after["committed"]["verification"] == staged["verification"];
    let s = |d: Duration| d.as_secs_f64();
    let rupees = backoffice::plumbing::money::rupees(file.invoice_total);
    let facts = vec![
        (
            format!(
                "legacy import, stage {} rows ({SOCIETIES} new societies with {INVOICES_EACH} invoices each, \
                 {:.1} MB of CSV) in one request: {:.2} s (server CPU {:.2} s); 0 problems; the status read \
                 after it: {:.0} ms",
                SOCIETIES * INVOICES_EACH,
                file.csv.len() as f64 / 1_048_576.0,
                s(stage_to - stage_from),
                s(stage_cpu),
                s(status_took) * 1000.0
            ),
            s(stage_to - stage_from) < 5.0,
            "< 5 s",
        ),
        (
            format!(
                "legacy import, commit it: {:.2} s (server CPU {:.2} s); {SOCIETIES} clients and {} invoices \
                 created, {series} number series moved",
                s(commit_to - commit_from),
                s(commit_cpu),
                SOCIETIES * INVOICES_EACH
            ),
            s(commit_to - commit_from) < 10.0,
            "< 10 s",
        ),
        (
            format!(
                "legacy import, the cross-check: staged as the file adds up ({rupees} over {} financial years), \
                 and read back after the commit from the invoices it recorded",
                file.invoices_by_fy.len()
            ),
            staged_right && read_back,
            "equal",
        ),
        (
            format!(
                "legacy import: a client list asked {:.1} s into the commit on a session idle for five minutes \
                 (the server first records that the session was seen, a write): answered in {:.2} s, with \
                 {:.2} s of the commit still to go when it was asked",
                s(returned_at - commit_from),
                s(returned_in),
                s(commit_to.saturating_duration_since(returned_at))
            ),
            s(returned_in) < 1.0,
            "< 1 s",
        ),
        (
            format!(
                "legacy import: peak RSS (VmHWM) of its server: {:.1} MB",
                peak as f64 / 1_048_576.0
            ),
            true,
            "",
        ),
    ];
    ImportRun {
        facts,
        reads: ReadsBeside {
            clients: READERS,
            before: within(&timed, read_from, stage_from),
            staging: within(&timed, stage_from, stage_to),
            committing: within(&timed, commit_from, commit_to),
        },
    }
}
