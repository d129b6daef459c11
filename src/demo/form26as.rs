//! The Form 26AS of a demo office (issue 36): for last financial year and this one, the text
//! download TRACES would give the vendor, made from the TDS booked on the office's receipts and
//! uploaded as `tds::keep_statement` keeps an upload. Only quarters whose TDS return was due
//! before today are in it (TRACES shows a quarter once its return is processed). Most societies
//! deposited what they deducted; a few deliberate mismatches, as a real statement has them:
//! a quarter short (one entry unmatched, status U), a quarter not filed at all, and deductors
//! that are no client of the office (a bank's TDS on interest). A generator of its own, so that
//! the rest of the office does not move.

use crate::company;
use crate::demo::{Rng, Summary};
use crate::plumbing::clock;
use crate::plumbing::clock::{Fy, quarter_of};
use crate::plumbing::error::AppError;
use crate::plumbing::money;
use crate::tds::rules::return_due;
use crate::tds::{self, form26as};
use chrono::NaiveDate;
use rusqlite::{Connection, params};
use std::fmt::Write;

/// A deductor's quarter, in 100: short (an entry unmatched), not filed at all; the rest
/// deposited in full.
const SHORT: u64 = 4;
const NOT_FILED: u64 = 3;
/// Deductors in the statement that are no client of the office.
const STRANGERS: u32 = 3;

/// The vendor's PAN from the company's GSTIN.
fn pan(conn: &Connection) -> Result<String, AppError> {
    Ok(company::profile(conn)?
        .gstin
        .and_then(|g| g.get(2..12).map(str::to_string))
        .unwrap_or_else(|| "AABCM1234F".into()))
}

const DEDUCTORS: &str = "Sr. No.^Name of Deductor^TAN of Deductor^^^^^Total Amount Paid / Credited(Rs.)^Total Tax Deducted(Rs.)^Total TDS Deposited(Rs.)";
const ENTRIES: &str = "^Sr. No.^Section^Transaction Date^Status of Booking^Date of Booking^Remarks^Amount Paid / Credited(Rs.)^Tax Deducted(Rs.)^TDS Deposited(Rs.)";

/// One entry as the statement writes it.
struct Line {
    section: String,
    on: NaiveDate,
    status: &'static str,
    deducted: i64,
    deposited: i64,
}

/// The text download of `fy`'s Form 26AS as of `today`, made with `seed`'s generator.
pub fn text(conn: &Connection, fy: Fy, today: NaiveDate, seed: u64) -> Result<String, AppError> {
    let mut rng = Rng::new(seed ^ 0x26a5_26a5 ^ fy.start as u64);
    let mut stmt = conn.prepare(
        "SELECT c.tan, c.name, COALESCE(c.tds_section, '194J'), p.received_on, SUM(a.tds)
           FROM payment p JOIN payment_allocation a ON a.payment_id = p.id AND a.tds > 0
           JOIN client c ON c.id = p.client_id
          WHERE p.received_on BETWEEN ?1 AND ?2 AND p.status = 'recorded' AND c.tan IS NOT NULL
          GROUP BY p.id ORDER BY c.tan, p.received_on, p.id",
    )?;
    let rows = stmt
        .query_map(
            params![fy.first_day().to_string(), fy.last_day().to_string()],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            },
        )?
        .collect::<Result<Vec<_>, _>>()?;
    // (TAN, name) → its entries, quarter by quarter as the rolls fall.
    let mut deductors: Vec<(String, String, Vec<Line>)> = vec![];
    let mut fate: Option<(String, u32, u64)> = None;
    for (tan, name, section, on, tds) in rows {
        let Some(on) = clock::date(&on) else {
            continue;
        };
        let (_, q) = quarter_of(on);
        if return_due(fy, q) >= today {
            continue;
        }
        let roll = match &fate {
            Some((t, i, roll)) if *t == tan && *i == q.index() => *roll,
            _ => {
                let roll = rng.below(100);
                fate = Some((tan.clone(), q.index(), roll));
                roll
            }
        };
        if roll < NOT_FILED {
            continue;
        }
        let short = roll < NOT_FILED + SHORT;
        if deductors.last().is_none_or(|(t, _, _)| *t != tan) {
            deductors.push((tan.clone(), name.to_uppercase(), vec![]));
        }
        let lines = &mut deductors.last_mut().expect("pushed").2;
        // The quarter's first entry of a short deductor is unmatched: deducted, no credit.
        let unmatched = short && lines.last().is_none_or(|l| quarter_of(l.on).1 != q);
        lines.push(Line {
            section,
            on,
            status: if unmatched { "U" } else { "F" },
            deducted: tds,
            deposited: if unmatched { 0 } else { tds },
        });
    }
    for n in 1..=STRANGERS {
        let on = fy.first_day() + chrono::Duration::days(40 + 90 * i64::from(n));
        if return_due(fy, quarter_of(on).1) >= today {
            continue;
        }
        let tds = rng.range(2, 40) * 1_000;
        deductors.push((
            format!("CHEK{:05}X", 900 + n),
            format!("KERALA STATE CO-OPERATIVE BANK BRANCH {n}"),
            vec![Line {
                section: "194A".into(),
                on,
                status: "F",
                deducted: tds,
                deposited: tds,
            }],
        ));
    }
    let (start, end) = (fy.start, fy.start + 1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Annual Tax Statement under Section 203AA of the Income Tax Act, 1961^"
    );
    let _ = writeln!(out, "Data updated till {}^", today.format("%d-%b-%Y"));
    let _ = writeln!(
        out,
        "File Creation Date^Permanent Account Number (PAN)^Current Status of PAN^Financial Year^Assessment Year^Name of Assessee"
    );
    let _ = writeln!(
        out,
        "{}^{}^Active^{start}-{end}^{end}-{}^{}",
        today.format("%d-%m-%Y"),
        pan(conn)?,
        end + 1,
        company::profile(conn)?.name.to_uppercase()
    );
    let _ = writeln!(out, "^PART-I - Details of Tax Deducted at Source^");
    let _ = writeln!(out, "{DEDUCTORS}");
    for (i, (tan, name, lines)) in deductors.iter().enumerate() {
        let rate = |section: &str| if section == "194C" { 50 } else { 10 };
        let paid: i64 = lines.iter().map(|l| l.deducted * rate(&l.section)).sum();
        let deducted: i64 = lines.iter().map(|l| l.deducted).sum();
        let deposited: i64 = lines.iter().map(|l| l.deposited).sum();
        let _ = writeln!(
            out,
            "{}^{name}^{tan}^^^^^{}^{}^{}",
            i + 1,
            money::decimal(paid),
            money::decimal(deducted),
            money::decimal(deposited)
        );
        let _ = writeln!(out, "{ENTRIES}");
        for (j, l) in lines.iter().enumerate() {
            let (fy_of, q) = quarter_of(l.on);
            let booked_on = return_due(fy_of, q).format("%d-%b-%Y");
            let _ = writeln!(
                out,
                "^{}^{}^{}^{}^{booked_on}^^{}^{}^{}",
                j + 1,
                l.section,
                l.on.format("%d-%b-%Y"),
                l.status,
                money::decimal(l.deducted * rate(&l.section)),
                money::decimal(l.deducted),
                money::decimal(l.deposited)
            );
        }
    }
    let _ = writeln!(out, "^PART-II - Details of Tax Deducted at Source for 15G / 15H^");
    let _ = writeln!(out, "^No Transactions Present^");
    Ok(out)
}

/// Uploads last year's and this year's Form 26AS, as the owner would have on `today`.
pub fn write(
    conn: &Connection,
    seed: u64,
    owner: &str,
    today: NaiveDate,
    summary: &mut Summary,
) -> Result<(), AppError> {
    let this = Fy::of(today);
    for fy in [this.previous(), this] {
        let text = text(conn, fy, today, seed)?;
        let statement =
            form26as::read(&text).map_err(|e| AppError::internal(format!("the demo's Form 26AS: {e}")))?;
        if statement.entries() == 0 {
            continue;
        }
        let kept = tds::keep_statement(conn, owner, &statement, today)?;
        summary.tds_26as_entries += statement.entries();
        summary.tds_26as_short += (kept.short + kept.not_filed) as usize;
        summary.audit += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::demo::{Options, small_office};
    use crate::plumbing::clock::Fy;

    #[test]
    fn the_demo_uploads_a_form_26as_consistent_with_its_receipts_but_for_a_few() {
        let (_dir, conn, summary, today) = small_office(Options {
            clients: 150,
            years: 3,
            seed: 11,
        });
        assert!(summary.tds_26as_entries > 0, "{summary:?}");
        let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        assert!(one("SELECT COUNT(*) FROM tds_26as") >= 1);
        // Strangers: deductors no client carries the TAN of.
        assert!(
            one(
                "SELECT COUNT(*) FROM tds_filed f WHERE NOT EXISTS (SELECT 1 FROM client c WHERE c.tan = f.tan)"
            ) >= 1
        );
        // What is filed equals what is booked for most deductors' quarters, not all.
        let asked = crate::tds::Asked {
            fy: Some(Fy::of(today).previous().to_string()),
            ..Default::default()
        };
        let report = crate::tds::receivable_rows(&conn, &asked, None).unwrap();
        let compared: Vec<_> = report.rows.iter().filter(|r| r.filed.is_some()).collect();
        let equal = compared.iter().filter(|r| r.filed == Some(r.booked)).count();
        assert!(compared.len() >= 10, "{}", compared.len());
        assert!(
            equal * 100 >= compared.len() * 80,
            "{equal} of {}",
            compared.len()
        );
        assert!(equal < compared.len(), "a few deliberate mismatches");
    }
}
