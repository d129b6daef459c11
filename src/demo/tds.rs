//! The TDS certificates of a demo office (issue 21). Every society whose payments carry TDS is
//! a deductor: nine in ten have their TAN on record (its jurisdiction from the district, its
//! fourth letter the society's initial, as real TANs are made), one in five of those deducts
//! under 194C rather than the office's default 194J. For each quarter whose Form 16A fell due
//! before today, most societies sent a certificate matching the TDS booked, a few one of
//! another amount (a payment left out of their return, a figure mistyped), and the rest none
//! yet; the last year's quarters have more still awaited, as in a real office. Each certificate
//! was entered by the account owner a few days after it came, with its audit row, as
//! `tds::record_certificate` records it.

use crate::demo::{Rng, Summary};
use crate::plumbing::clock;
use crate::plumbing::clock::{Fy, Quarter};
use crate::plumbing::error::AppError;
use crate::tds::rules::certificate_due;
use crate::tds::store;
use chrono::{Duration, NaiveDate};
use rusqlite::{Connection, params};
use serde_json::json;
use std::collections::BTreeMap;

/// Deductors with their TAN on record, in 100.
const WITH_TAN: u64 = 90;
/// Deductors under 194C, in 100 (of those with a TAN).
const UNDER_194C: u64 = 20;
/// A past quarter's certificate: matching and not matching, in 100 (the rest awaited); the
/// last year's quarters have fewer of both.
const MATCHING: u64 = 80;
const MATCHING_LAST_YEAR: u64 = 62;
const NOT_MATCHING: u64 = 8;

/// The income-tax jurisdiction a society's TAN starts with, by its district.
fn jurisdiction(district: Option<&str>) -> &'static str {
    match district.unwrap_or_default() {
        "Thiruvananthapuram" | "Kollam" | "Pathanamthitta" | "Alappuzha" => "TVD",
        "Kottayam" | "Idukki" | "Ernakulam" | "Thrissur" => "CHN",
        "Palakkad" | "Malappuram" | "Kozhikode" | "Wayanad" | "Kannur" | "Kasaragod" => "CLT",
        _ => "CHE",
    }
}

fn letter(rng: &mut Rng) -> char {
    char::from(b'A' + rng.below(26) as u8)
}

/// A TAN of the society `name` in `district`: AAAA99999A.
fn tan(rng: &mut Rng, name: &str, district: Option<&str>) -> String {
    let initial = name
        .chars()
        .find(char::is_ascii_alphabetic)
        .map_or('X', |c| c.to_ascii_uppercase());
    format!(
        "{}{initial}{:05}{}",
        jurisdiction(district),
        rng.range(1, 99_999),
        letter(rng)
    )
}

/// A TRACES certificate number: seven letters.
fn certificate_no(rng: &mut Rng) -> String {
    (0..7).map(|_| letter(rng)).collect()
}

/// A certificate that does not match: a few hundred rupees short (a payment left out) or a
/// figure mistyped; never what was booked, never nothing.
fn other_amount(rng: &mut Rng, booked: i64) -> i64 {
    let off = if rng.chance(70) {
        -(rng.range(1, 20) * 5_000).min(booked / 2)
    } else {
        rng.range(1, 9) * 1_000
    };
    if off == 0 { booked + 1_000 } else { booked + off }
}

pub fn write(
    conn: &Connection,
    rng: &mut Rng,
    today: NaiveDate,
    summary: &mut Summary,
) -> Result<(), AppError> {
    let owner = super::store::owner_id(conn)?;
    // (client, financial year, quarter) → TDS booked, in key order (deterministic): what the
    // report reads, a financial year at a time from the first payment's.
    let mut booked: BTreeMap<(String, Fy, Quarter), i64> = BTreeMap::new();
    let first: Option<String> = conn.query_row("SELECT MIN(received_on) FROM payment", [], |r| r.get(0))?;
    if let Some(first) = first.and_then(|d| clock::date(&d)) {
        let mut fy = Fy::of(first);
        while fy <= Fy::of(today) {
            for b in store::booked(conn, fy.first_day(), fy.last_day())? {
                booked.insert((b.deductor.client_id, fy, b.quarter), b.booked);
            }
            fy = Fy { start: fy.start + 1 };
        }
    }
    let mut clients: BTreeMap<String, (String, Option<String>, String)> = BTreeMap::new();
    let mut find =
        conn.prepare_cached("SELECT name, district, COALESCE(owner_id, ?2) FROM client WHERE id = ?1")?;
    for (client_id, _, _) in booked.keys() {
        if !clients.contains_key(client_id) {
            let found = find.query_row(params![client_id, owner], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?;
            clients.insert(client_id.clone(), found);
        }
    }
    let mut set_tan = conn.prepare("UPDATE client SET tan = ?2, tds_section = ?3 WHERE id = ?1")?;
    for (client_id, (name, district, _)) in &clients {
        if !rng.chance(WITH_TAN) {
            continue;
        }
        let section = rng.chance(UNDER_194C).then_some("194C");
        set_tan.execute(params![client_id, tan(rng, name, district.as_deref()), section])?;
        summary.tds_tans += 1;
    }
    summary.tds_clients = clients.len();

    let mut insert = conn.prepare(
        "INSERT INTO tds_certificate (id, client_id, fy, quarter, certificate_no, issued_on, amount,
                                      created_by, updated_by, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?9)",
    )?;
    let mut insert_audit = conn.prepare(
        "INSERT INTO audit (id, at, user_id, entity, entity_id, action, before, after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    let now = clock::now();
    let last_year = today - Duration::days(365);
    for ((client_id, fy, q), amount) in booked {
        let due = certificate_due(fy, q);
        if due >= today {
            continue;
        }
        let matching = if due >= last_year {
            MATCHING_LAST_YEAR
        } else {
            MATCHING
        };
        let roll = rng.below(100);
        let certified = if roll < matching {
            amount
        } else if roll < matching + NOT_MATCHING {
            other_amount(rng, amount)
        } else {
            continue;
        };
        // Sent around the statutory day, never before the quarter ended nor after today.
        let issued_on = (due + Duration::days(rng.range(-12, 40)))
            .max(fy.quarter_last(q))
            .min(today);
        let entered = (issued_on + Duration::days(rng.range(1, 20))).min(today);
        let at = rng.office_time(entered).min(now);
        let stamp = clock::timestamp(at);
        let id = rng.id(at);
        let no = certificate_no(rng);
        let (name, _, author) = &clients[&client_id];
        insert.execute(params![
            id,
            client_id,
            fy.to_string(),
            q.as_str(),
            no,
            issued_on.to_string(),
            certified,
            author,
            stamp
        ])?;
        insert_audit.execute(params![
            rng.id(at),
            stamp,
            author,
            "tds_certificate",
            id,
            "create",
            None::<String>,
            json!({ "client_id": client_id, "client_name": name, "fy": fy.to_string(), "quarter": q.as_str(),
                    "certificate_no": no, "issued_on": issued_on.to_string(), "amount": certified })
            .to_string()
        ])?;
        summary.tds_certificates += 1;
        summary.audit += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::rules::check_tan;

    #[test]
    fn a_tan_is_well_formed_and_a_mismatch_is_never_the_booked_amount() {
        let mut rng = Rng::new(5);
        for (name, district) in [
            ("KADAKKAL SCB", Some("Kollam")),
            ("123 STORE", None),
            ("aluva pacs", Some("Ernakulam")),
        ] {
            let t = tan(&mut rng, name, district);
            assert_eq!(check_tan("tan", &t).unwrap().as_deref(), Some(t.as_str()), "{t}");
        }
        assert!(tan(&mut rng, "KADAKKAL", Some("Kollam")).starts_with("TVDK"));
        for booked in [100, 1_000, 60_000, 1_000_000] {
            for _ in 0..200 {
                let other = other_amount(&mut rng, booked);
                assert!(other != booked && other > 0, "{booked} → {other}");
            }
        }
    }

    /// A small office: TANs on most deductors, certificates in every state for quarters past
    /// their day and none for the others, each with its audit row.
    #[test]
    fn the_deductors_have_tans_and_their_past_quarters_certificates_in_every_state() {
        let (_dir, conn, summary, today) = crate::demo::small_office(crate::demo::Options {
            clients: 150,
            years: 3,
            seed: 11,
        });
        let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        assert!(summary.tds_clients > 20, "{} deductors", summary.tds_clients);
        assert_eq!(
            one("SELECT COUNT(*) FROM client WHERE tan IS NOT NULL") as usize,
            summary.tds_tans
        );
        assert!(summary.tds_tans * 100 > summary.tds_clients * 75);
        assert!(one("SELECT COUNT(*) FROM client WHERE tds_section = '194C'") > 0);
        let tans: Vec<String> = conn
            .prepare("SELECT tan FROM client WHERE tan IS NOT NULL")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(
            tans.iter()
                .all(|t| check_tan("tan", t).unwrap().as_deref() == Some(t.as_str()))
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM tds_certificate") as usize,
            summary.tds_certificates
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM audit WHERE entity = 'tds_certificate'") as usize,
            summary.tds_certificates
        );
        // Read back through the report: every state is there over the last two years.
        let mut states = std::collections::BTreeMap::new();
        let fy = Fy::of(today);
        for year in [fy.previous(), fy] {
            for row in crate::tds::quarter_rows(&conn, year, None).unwrap() {
                let past = row.due_on < today.to_string();
                *states.entry((row.state.clone(), past)).or_insert(0) += 1;
                if let Some(issued_on) = row.issued_on.as_deref() {
                    assert!(past, "a certificate before its quarter's day: {row:?}");
                    assert!(issued_on <= today.to_string().as_str());
                }
            }
        }
        for state in ["awaited", "received", "mismatch"] {
            assert!(
                states.get(&(state.to_string(), true)).is_some_and(|n| *n > 0),
                "{states:?}"
            );
        }
        assert_eq!(
            one(&format!(
                "SELECT COUNT(*) FROM tds_certificate WHERE issued_on > '{today}' OR amount <= 0"
            )),
            0
        );
    }
}
