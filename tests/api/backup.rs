//! Backups cannot lose committed data: a backup taken while several tasks write holds every
//! write acknowledged before it started; snapshots rotate; a migration is preceded by a copy;
//! restore refuses a file a server holds and keeps what it replaces.

use backoffice::plumbing::config::Config;
use backoffice::plumbing::db::{Db, backup, settings};
use chrono::NaiveDate;
use serde_json::json;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

fn fresh(dir: &tempfile::TempDir) -> Db {
    let config = Config {
        data: dir.path().join("office.db"),
        owner_password: Some("owner-password".into()),
        ..Config::default()
    };
    backoffice::setup::first_start::bootstrap(&config).unwrap().db
}

/// Waits `at_least_ms`, then on until `done` (at most a minute): the tests of the crate run on
/// parallel threads, so a fixed time may see fewer writes than an idle machine would make.
async fn settle(at_least_ms: u64, done: impl Fn() -> bool) {
    tokio::time::sleep(std::time::Duration::from_millis(at_least_ms)).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !done() && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_mid_stream_holds_every_write_acknowledged_before_it_started() {
    let dir = tempfile::TempDir::new().unwrap();
    let db = fresh(&dir);
    let acked: Arc<Mutex<Vec<(usize, u64)>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let day = NaiveDate::from_ymd_opt(2026, 11, 22).unwrap();
    let writers: Vec<_> = (0..4)
        .map(|task| {
            let (db, acked, stop) = (db.clone(), acked.clone(), stop.clone());
            tokio::spawn(async move {
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    db.write(move |tx| {
                        settings::set(tx, &format!("test.writer{task}"), &json!(n), day, None)
                    })
                    .await
                    .unwrap();
                    acked.lock().unwrap().push((task, n));
                    n += 1;
                }
            })
        })
        .collect();
    let acked_len = || acked.lock().unwrap().len();
    settle(300, || acked_len() > 20).await;
    let before: Vec<(usize, u64)> = acked.lock().unwrap().clone();
    let copy = dir.path().join("copy.db");
    let (data, out) = (db.path().to_path_buf(), copy.clone());
    tokio::task::spawn_blocking(move || backup::backup_file(&data, &out))
        .await
        .unwrap()
        .unwrap();
    settle(200, || acked_len() > before.len()).await;
    stop.store(true, Ordering::Relaxed);
    for w in writers {
        w.await.unwrap();
    }
    let total = acked.lock().unwrap().len();
    assert!(
        before.len() > 20 && total > before.len(),
        "writes went on during the backup ({} then {total})",
        before.len()
    );

    let restored = dir.path().join("restored.db");
    assert!(backup::restore(&restored, &copy).unwrap().is_none());
    let report = backup::check(&restored).unwrap();
    assert_eq!(
        (report.integrity.as_str(), report.schema_version),
        ("ok", Some(backoffice::plumbing::db::latest_schema_version()))
    );
    let conn = rusqlite::Connection::open(&restored).unwrap();
    let mut stmt = conn
        .prepare("SELECT key, value FROM setting WHERE key LIKE 'test.writer%'")
        .unwrap();
    let present: HashSet<(usize, u64)> = stmt
        .query_map([], |r| {
            let key: String = r.get(0)?;
            let value: String = r.get(1)?;
            Ok((
                key.trim_start_matches("test.writer").parse().unwrap(),
                value.parse().unwrap(),
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let missing: Vec<_> = before.iter().filter(|w| !present.contains(w)).collect();
    assert!(
        missing.is_empty(),
        "acknowledged before the backup but missing: {missing:?}"
    );
}

#[test]
fn snapshots_rotate_keeping_the_newest() {
    let dir = tempfile::TempDir::new().unwrap();
    let db = fresh(&dir);
    let made: Vec<_> = (0..4).map(|_| backup::snapshot(&db, 2).unwrap()).collect();
    let mut kept = backup::list_snapshots(&backup::backups_dir(db.path()));
    kept.sort();
    assert_eq!(kept, made[2..].to_vec());
    assert_eq!(backup::check(&kept[1]).unwrap().integrity, "ok");
}

#[test]
fn a_file_is_copied_before_it_is_migrated_and_a_newer_file_is_refused() {
    let dir = tempfile::TempDir::new().unwrap();
    let db = fresh(&dir);
    let data = db.path().to_path_buf();
    drop(db);
    // This binary's migrations plus one more, as the next release would bring.
    let latest = backoffice::plumbing::db::latest_schema_version();
    let next = || {
        refinery::Migration::unapplied(
            &format!("V{}__later", latest + 1),
            "CREATE TABLE later_feature (x INTEGER);",
        )
        .unwrap()
    };
    let with_next = || {
        let mut all = backoffice::plumbing::db::embedded_migrations();
        all.push(next());
        all
    };
    let mut conn = rusqlite::Connection::open(&data).unwrap();
    backoffice::plumbing::db::migrate(&mut conn, &data, refinery::Runner::new(&with_next())).unwrap();
    let copies: Vec<_> = std::fs::read_dir(backup::backups_dir(&data))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(copies.len(), 1);
    let name = copies[0].file_name().unwrap().to_string_lossy().to_string();
    assert!(name.starts_with(&format!("pre-migration-v{latest}-")), "{name}");
    let copy = backup::check(&copies[0]).unwrap();
    assert_eq!(
        (copy.integrity.as_str(), copy.schema_version),
        ("ok", Some(latest)),
        "the copy is the file before the migration"
    );
    assert_eq!(backup::check(&data).unwrap().schema_version, Some(latest + 1));

    // Nothing pending: no further copy. This binary, which lacks the new migration, refuses the file.
    backoffice::plumbing::db::migrate(&mut conn, &data, refinery::Runner::new(&with_next())).unwrap();
    assert_eq!(std::fs::read_dir(backup::backups_dir(&data)).unwrap().count(), 1);
    drop(conn);
    let refused = Db::open(&data)
        .err()
        .expect("an older binary refuses a newer file");
    assert!(refused.contains("migration"), "{refused}");
}

#[test]
fn restore_refuses_a_held_file_and_keeps_what_it_replaces() {
    let dir = tempfile::TempDir::new().unwrap();
    let db = fresh(&dir);
    let copy = dir.path().join("copy.db");
    db.backup_to(&copy).unwrap();
    db.write_blocking(|tx| {
        settings::set(
            tx,
            "test.after",
            &json!(1),
            NaiveDate::from_ymd_opt(2026, 1, 1).unwrap(),
            None,
        )
    })
    .unwrap();
    let held = backup::lock_data_file(db.path()).unwrap();
    let refused = backup::restore(db.path(), &copy).unwrap_err();
    assert!(refused.contains("in use"), "{refused}");
    drop(held);
    drop(db);
    let data = dir.path().join("office.db");
    let kept = backup::restore(&data, &copy)
        .unwrap()
        .expect("the replaced file is kept");
    let count = |path: &std::path::Path| -> i64 {
        rusqlite::Connection::open(path)
            .unwrap()
            .query_row("SELECT COUNT(*) FROM setting WHERE key = 'test.after'", [], |r| {
                r.get(0)
            })
            .unwrap()
    };
    assert_eq!(count(&data), 0, "the backup's content is back");
    assert_eq!(count(&kept), 1, "the replaced file, WAL included, is kept whole");

    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"not a database at all").unwrap();
    assert!(backup::restore(&data, &junk).is_err());
    assert_eq!(count(&data), 0, "a refused restore changes nothing");
}

/// V8 rebuilds the client table (its GSTIN no longer UNIQUE) on a file that has clients and
/// rows hanging on them: every client and child is still there, foreign keys hold, the name
/// search is neither lost nor doubled, and a shared GSTIN is taken but an exact duplicate is not.
#[test]
fn the_client_rebuild_keeps_every_client_and_what_hangs_on_them() {
    let dir = tempfile::TempDir::new().unwrap();
    let data = dir.path().join("v7.db");
    let until = |version: i64| -> Vec<refinery::Migration> {
        backoffice::plumbing::db::embedded_migrations()
            .into_iter()
            .filter(|m| i64::from(m.version()) <= version)
            .collect()
    };
    let mut conn = rusqlite::Connection::open(&data).unwrap();
    conn.execute_batch("PRAGMA foreign_keys = ON").unwrap();
    backoffice::plumbing::db::migrate(&mut conn, &data, refinery::Runner::new(&until(7))).unwrap();
    conn.execute_batch(
        "INSERT INTO client (id, name, gstin, client_type, category, created_at, updated_at) VALUES
            ('C1', 'Kadakkal SCB', '32AABCK1234L1ZV', 'PACS', 'SCB', 't', 't'),
            ('C2', 'Anchal Stores', NULL, 'Store', 'Store', 't', 't');
         INSERT INTO contact (id, client_id, name, created_at, updated_at) VALUES
            ('K1', 'C1', 'Secretary', 't', 't'), ('K2', 'C2', 'Manager', 't', 't');",
    )
    .unwrap();
    let count =
        |conn: &rusqlite::Connection, sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    let search_rows = count(&conn, "SELECT COUNT(*) FROM client_name_search");
    assert!(search_rows > 0);
    backoffice::plumbing::db::migrate(&mut conn, &data, refinery::Runner::new(&until(8))).unwrap();
    assert_eq!(count(&conn, "SELECT COUNT(*) FROM client"), 2);
    assert_eq!(count(&conn, "SELECT COUNT(*) FROM contact"), 2);
    assert_eq!(
        count(&conn, "SELECT COUNT(*) FROM client_name_search"),
        search_rows
    );
    assert_eq!(count(&conn, "SELECT COUNT(*) FROM pragma_foreign_key_check"), 0);
    assert_eq!(
        conn.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
            .unwrap(),
        "ok"
    );
    conn.execute_batch(
        "INSERT INTO client (id, name, gstin, client_type, category, created_at, updated_at)
         VALUES ('C3', 'Kadakkal SCB Stores', '32AABCK1234L1ZV', 'Store', 'Store', 't', 't')",
    )
    .expect("a second client may share the GSTIN");
    assert!(
        conn.execute_batch(
            "INSERT INTO client (id, name, gstin, client_type, category, created_at, updated_at)
             VALUES ('C4', 'kadakkal scb', '32AABCK1234L1ZV', 'PACS', 'SCB', 't', 't')",
        )
        .is_err(),
        "the same GSTIN under the same name is a duplicate"
    );
    assert!(
        conn.execute_batch("INSERT INTO contact (id, client_id, name, created_at, updated_at) VALUES ('K3', 'nobody', 'x', 't', 't')")
            .is_err(),
        "foreign keys still hold"
    );
    // The triggers were made again: a new client is searchable.
    assert!(
        count(
            &conn,
            "SELECT COUNT(*) FROM client_name_search WHERE client_id = 'C3'"
        ) > 0
    );
}
