//! The SQL of TDS certificates: the TDS booked per client and quarter (summed from the
//! allocations of recorded payments, never kept twice), the certificates, and their writes.

use crate::plumbing::clock;
use crate::plumbing::clock::{Fy, Quarter};
use crate::plumbing::db::ids::new_id;
use crate::plumbing::error::AppError;
use crate::tds::form26as::Statement;
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use utoipa::ToSchema;

/// A client as the report names it.
#[derive(Debug, Clone)]
pub struct Deductor {
    pub client_id: String,
    pub client_name: String,
    pub tan: Option<String>,
    pub tds_section: Option<String>,
    /// The account owner: the reminder's owner.
    pub owner_id: Option<String>,
}

fn deductor(r: &Row<'_>) -> rusqlite::Result<Deductor> {
    Ok(Deductor {
        client_id: r.get(0)?,
        client_name: r.get(1)?,
        tan: r.get(2)?,
        tds_section: r.get(3)?,
        owner_id: r.get(4)?,
    })
}

/// The TDS booked for a client in one quarter.
#[derive(Debug, Clone)]
pub struct Booked {
    pub deductor: Deductor,
    pub quarter: Quarter,
    pub booked: i64,
}

/// The TDS booked on the allocations of recorded payments received from `from` to `to` (within
/// one financial year), per client and quarter. A range of `payment_received`, then each
/// payment's allocations with TDS from `payment_allocation_tds` alone (migrations/V18).
pub fn booked(conn: &Connection, from: NaiveDate, to: NaiveDate) -> Result<Vec<Booked>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.name, c.tan, c.tds_section, c.owner_id, b.q, b.booked
           FROM (SELECT p.client_id, (CAST(substr(p.received_on, 6, 2) AS INTEGER) + 8) % 12 / 3 AS q,
                        SUM(a.tds) AS booked
                   FROM payment p JOIN payment_allocation a ON a.payment_id = p.id AND a.tds > 0
                  WHERE p.received_on BETWEEN ?1 AND ?2 AND p.status = 'recorded'
                  GROUP BY p.client_id, q) b
           JOIN client c ON c.id = b.client_id",
    )?;
    let rows = stmt
        .query_map(params![from.to_string(), to.to_string()], |r| {
            Ok((deductor(r)?, r.get::<_, u32>(5)?, r.get::<_, i64>(6)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows
        .into_iter()
        .filter_map(|(deductor, q, booked)| {
            Some(Booked {
                deductor,
                quarter: Quarter::from_index(q)?,
                booked,
            })
        })
        .collect())
}

/// The TDS booked for one client in `fy`'s quarter `q`.
pub fn booked_for(conn: &Connection, client_id: &str, fy: Fy, q: Quarter) -> Result<i64, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT COALESCE(SUM(a.tds), 0)
               FROM payment p JOIN payment_allocation a ON a.payment_id = p.id AND a.tds > 0
              WHERE p.client_id = ?1 AND p.received_on BETWEEN ?2 AND ?3 AND p.status = 'recorded'",
        )?
        .query_row(
            params![
                client_id,
                fy.quarter_first(q).to_string(),
                fy.quarter_last(q).to_string()
            ],
            |r| r.get(0),
        )?)
}

/// A Form 16A as stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StoredTdsCertificate {
    pub id: String,
    pub client_id: String,
    /// YYYY-YY.
    pub fy: String,
    /// Q1 to Q4.
    pub quarter: String,
    pub certificate_no: String,
    #[schema(format = Date)]
    pub issued_on: String,
    /// Paise certified.
    pub amount: i64,
    pub created_by: Option<String>,
    pub updated_by: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

const CERTIFICATE: &str = "t.id, t.client_id, t.fy, t.quarter, t.certificate_no, t.issued_on, t.amount, \
    t.created_by, t.updated_by, t.created_at, t.updated_at";

fn certificate(r: &Row<'_>, at: usize) -> rusqlite::Result<StoredTdsCertificate> {
    Ok(StoredTdsCertificate {
        id: r.get(at)?,
        client_id: r.get(at + 1)?,
        fy: r.get(at + 2)?,
        quarter: r.get(at + 3)?,
        certificate_no: r.get(at + 4)?,
        issued_on: r.get(at + 5)?,
        amount: r.get(at + 6)?,
        created_by: r.get(at + 7)?,
        updated_by: r.get(at + 8)?,
        created_at: r.get(at + 9)?,
        updated_at: r.get(at + 10)?,
    })
}

/// Every certificate of `fy` (of one quarter, when given), with its client.
pub fn certificates(
    conn: &Connection,
    fy: Fy,
    quarter: Option<Quarter>,
) -> Result<Vec<(Deductor, StoredTdsCertificate)>, AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT c.id, c.name, c.tan, c.tds_section, c.owner_id, {CERTIFICATE}
           FROM tds_certificate t JOIN client c ON c.id = t.client_id
          WHERE t.fy = ?1 AND (?2 IS NULL OR t.quarter = ?2)"
    ))?;
    let rows = stmt
        .query_map(params![fy.to_string(), quarter.map(Quarter::as_str)], |r| {
            Ok((deductor(r)?, certificate(r, 5)?))
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// The certificate of a client's quarter, if one is recorded.
pub fn certificate_of(
    conn: &Connection,
    client_id: &str,
    fy: Fy,
    q: Quarter,
) -> Result<Option<StoredTdsCertificate>, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {CERTIFICATE} FROM tds_certificate t WHERE t.client_id = ?1 AND t.fy = ?2 AND t.quarter = ?3"
        ))?
        .query_row(params![client_id, fy.to_string(), q.as_str()], |r| {
            certificate(r, 0)
        })
        .optional()?)
}

/// The client as the report names it, if it exists.
pub fn deductor_of(conn: &Connection, client_id: &str) -> Result<Option<Deductor>, AppError> {
    Ok(conn
        .prepare_cached("SELECT id, name, tan, tds_section, owner_id FROM client WHERE id = ?1")?
        .query_row([client_id], deductor)
        .optional()?)
}

/// What a certificate states.
pub struct Stated<'a> {
    pub client_id: &'a str,
    pub fy: Fy,
    pub quarter: Quarter,
    pub certificate_no: &'a str,
    pub issued_on: NaiveDate,
    pub amount: i64,
}

/// Records a client's certificate for a quarter, or replaces the one recorded (a revised Form
/// 16A keeps the row, its id and its first author); answers the certificate's id.
pub fn upsert(tx: &Connection, c: &Stated<'_>, by: &str) -> Result<String, AppError> {
    let now = clock::now_timestamp();
    Ok(tx
        .prepare_cached(
            "INSERT INTO tds_certificate (id, client_id, fy, quarter, certificate_no, issued_on, amount,
                                          created_by, updated_by, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?9)
             ON CONFLICT (client_id, fy, quarter) DO UPDATE SET
                certificate_no = excluded.certificate_no, issued_on = excluded.issued_on,
                amount = excluded.amount, updated_by = excluded.updated_by, updated_at = excluded.updated_at
             RETURNING id",
        )?
        .query_row(
            params![
                new_id(),
                c.client_id,
                c.fy.to_string(),
                c.quarter.as_str(),
                c.certificate_no,
                c.issued_on.to_string(),
                c.amount,
                by,
                now
            ],
            |r| r.get(0),
        )?)
}

/// The Form 26AS upload of a financial year.
#[derive(Debug, Clone)]
pub struct Upload {
    pub imported_on: NaiveDate,
}

/// The last Form 26AS upload of `fy`, if any.
pub fn upload_of(conn: &Connection, fy: Fy) -> Result<Option<Upload>, AppError> {
    let on: Option<String> = conn
        .prepare_cached("SELECT imported_on FROM tds_26as WHERE fy = ?1")?
        .query_row([fy.to_string()], |r| r.get(0))
        .optional()?;
    Ok(on.map(|on| Upload {
        imported_on: clock::date(&on).unwrap_or(NaiveDate::MIN),
    }))
}

/// Paise deposited per client and quarter of `fy` (of one quarter, when given), as its last
/// Form 26AS upload shows for the client's TAN.
pub fn filed(
    conn: &Connection,
    fy: Fy,
    quarter: Option<Quarter>,
) -> Result<Vec<(Deductor, Quarter, i64)>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.name, c.tan, c.tds_section, c.owner_id, f.quarter, f.filed
           FROM client c JOIN tds_filed f ON f.fy = ?1 AND f.tan = c.tan
          WHERE c.tan IS NOT NULL AND (?2 IS NULL OR f.quarter = ?2)",
    )?;
    let rows = stmt
        .query_map(params![fy.to_string(), quarter.map(Quarter::as_str)], |r| {
            Ok((deductor(r)?, r.get::<_, String>(5)?, r.get::<_, i64>(6)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows
        .into_iter()
        .filter_map(|(d, q, filed)| Some((d, Quarter::parse(&q)?, filed)))
        .collect())
}

/// The deductors' quarters of `fy`'s upload with TDS deposited whose TAN no client carries.
pub fn filed_unclaimed(conn: &Connection, fy: Fy) -> Result<i64, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(*) FROM tds_filed f
              WHERE f.fy = ?1 AND f.filed > 0 AND NOT EXISTS (SELECT 1 FROM client c WHERE c.tan = f.tan)",
        )?
        .query_row([fy.to_string()], |r| r.get(0))?)
}

/// Replaces `fy`'s Form 26AS upload with `statement`'s, made by `by` on the office's `today`.
pub fn replace_upload(
    tx: &Connection,
    statement: &Statement,
    today: NaiveDate,
    by: &str,
) -> Result<(), AppError> {
    let fy = statement.fy.to_string();
    tx.prepare_cached("DELETE FROM tds_filed WHERE fy = ?1")?
        .execute([&fy])?;
    tx.prepare_cached(
        "INSERT INTO tds_26as (fy, pan, imported_on, imported_by, imported_at, deductors, entries)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (fy) DO UPDATE SET pan = excluded.pan, imported_on = excluded.imported_on,
            imported_by = excluded.imported_by, imported_at = excluded.imported_at,
            deductors = excluded.deductors, entries = excluded.entries",
    )?
    .execute(params![
        fy,
        statement.pan,
        today.to_string(),
        by,
        clock::now_timestamp(),
        statement.tans() as i64,
        statement.entries() as i64
    ])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO tds_filed (fy, tan, quarter, deductor_name, deducted, filed, entries)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for ((tan, q), f) in statement.by_quarter() {
        insert.execute(params![
            fy,
            tan,
            q.as_str(),
            f.deductor_name,
            f.deducted,
            f.filed,
            f.entries
        ])?;
    }
    Ok(())
}
