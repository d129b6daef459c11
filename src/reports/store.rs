//! The SQL of the reports: invoices with what they still owed on a date, and GST by month.

use crate::book;
use crate::plumbing::db::query::bytes;
use crate::plumbing::error::AppError;
use crate::reports::rules::{Buckets, ClientDues, DueInvoice, GstFigures};
use chrono::NaiveDate;
use rusqlite::{Connection, params};

/// Issued invoices owing something on `as_of` (in `book`, of `client_id` when given), by client
/// name then date.
///
/// Only invoices not settled by `as_of` are read (`document.settled_on`, kept by the triggers of
/// migrations/V7, with every column read here in the `document_receivable` index), and what
/// one owes is the stored `outstanding` when nothing was settled on it after `as_of`; otherwise
/// it is summed from its payments and credit notes dated by then.
pub fn due_invoices(
    conn: &Connection,
    as_of: NaiveDate,
    book: Option<&str>,
    client_id: Option<&str>,
) -> Result<Vec<DueInvoice>, AppError> {
    // The candidates: two ranges of the index (an OR of them would walk all of it).
    const COLUMNS: &str =
        "id, doc_no, client_id, doc_date, due_date, total, subtotal, outstanding, last_settlement_on";
    // (`type = 'INVOICE' AND status NOT IN ('draft', 'cancelled')` is the index's own condition.)
    let live = format!(
        "status NOT IN ('draft', 'cancelled') AND doc_date <= ?1 AND {}",
        book::client_is_in("client_id", "?2")
    );
    let candidates = match client_id {
        // One client's invoices are a few dozen entries of the client index.
        Some(_) => format!(
            "SELECT {COLUMNS} FROM document INDEXED BY document_client WHERE client_id = ?3 AND type = 'INVOICE'
               AND (settled_on IS NULL OR settled_on > ?1) AND {live}"
        ),
        None => format!(
            "SELECT {COLUMNS} FROM document INDEXED BY document_receivable WHERE type = 'INVOICE' AND settled_on IS NULL AND {live}
             UNION ALL
             SELECT {COLUMNS} FROM document INDEXED BY document_receivable WHERE type = 'INVOICE' AND settled_on > ?1 AND {live}"
        ),
    };
    let due = crate::documents::rules::FALLS_DUE;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT d.id, d.doc_no, d.client_id, c.name, d.doc_date, d.due_date, d.total, d.subtotal,
            CASE WHEN d.last_settlement_on <= ?1 THEN d.outstanding ELSE d.total
                - (SELECT COALESCE(SUM(n.total), 0) FROM document n WHERE n.parent_id = d.id AND +n.type = 'CREDIT_NOTE'
                     AND n.status NOT IN ('cancelled', 'draft') AND n.doc_date <= ?1)
                - (SELECT COALESCE(SUM(a.amount + a.tds), 0) FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                     WHERE a.document_id = d.id AND p.received_on <= ?1) END,
            CAST(julianday(?1) - julianday({due}) AS INTEGER)
         FROM ({candidates}) AS d CROSS JOIN client c INDEXED BY client_id_name ON c.id = d.client_id
         WHERE ?3 IS NULL OR d.client_id = ?3 -- (already so; it keeps ?3 in both statements)"
    ))?;
    let mut rows = vec![];
    let mut found = stmt.query(params![as_of.to_string(), book, client_id])?;
    while let Some(r) = found.next()? {
        let outstanding: i64 = r.get(8)?;
        if outstanding <= 0 {
            continue;
        }
        let days: i64 = r.get(9)?;
        rows.push(DueInvoice {
            document_id: r.get(0)?,
            doc_no: r.get(1)?,
            client_id: r.get(2)?,
            client_name: r.get(3)?,
            doc_date: r.get(4)?,
            due_date: r.get(5)?,
            total: r.get(6)?,
            taxable: r.get(7)?,
            outstanding,
            days_past_due: days,
            bucket: crate::reports::rules::BUCKETS[crate::reports::rules::bucket(days)],
        });
    }
    // By client name (as COLLATE NOCASE: ASCII letters folded), client, date and id. Sorted
    // here: SQLite's sorter took 8 of the 13 ms on the large office's 9,500 rows.
    rows.sort_by(|a, b| {
        crate::plumbing::db::query::nocase_cmp(&a.client_name, &b.client_name)
            .then_with(|| a.client_id.cmp(&b.client_id))
            .then_with(|| a.doc_date.cmp(&b.doc_date))
            .then_with(|| a.document_id.cmp(&b.document_id))
    });
    Ok(rows)
}

/// The latest of the dates that decide an open invoice's bucket and amount on a date: the
/// expression `document_open_latest` is ordered by (migrations/V33), repeated word for word.
const OPEN_LATEST: &str =
    "max(COALESCE(due_date, doc_date, '~'), COALESCE(doc_date, '~'), COALESCE(last_settlement_on, '~'))";

/// What each client of `book` owed on `as_of`, in buckets by days past due: the dues aging's
/// rows (unsorted, see `rules::rank_clients`), summed from the same invoices as
/// [`due_invoices`] without reading most of them.
///
/// The bucket of an invoice is found from its falls-due date against the bucket edges as
/// dates (ISO dates compare as text): not due from `as_of` on, 1-30 days from `as_of` - 30,
/// and so on; so nothing about a date is kept and a new day needs no write. Each client's open
/// invoices start as what `client_open` keeps of them, all of it over 90 days; the open
/// invoices due, dated or settled 90 days before `as_of` or later (`document_open_latest`)
/// then take their stored amounts out of it and put what they owe on `as_of` in their buckets
/// (migrations/V33); the invoices settled after `as_of` (none when it is today) are added
/// from `document_receivable`. The clients are named by one walk of `client_id_name`.
pub fn dues_by_client(
    conn: &Connection,
    as_of: NaiveDate,
    book: Option<&str>,
) -> Result<Vec<ClientDues>, AppError> {
    // The first day of each bucket but the last: not due, 1-30 days, 31-60, 61-90 (ISO dates
    // compare as text, in SQLite as here).
    let edges = [0, 30, 60, 90].map(|n| (as_of - chrono::Days::new(n)).to_string());
    let over_90 = edges.len();
    let bucket_of = |falls_due: &[u8]| {
        edges
            .iter()
            .position(|e| falls_due >= e.as_bytes())
            .unwrap_or(over_90)
    };
    // Each client's sums, in client order (ids are compared as SQLite's bytes).
    let mut sums: Vec<(String, Buckets)> = vec![];
    let mut kept = conn.prepare_cached(&format!(
        "SELECT client_id, outstanding FROM client_open WHERE {} ORDER BY client_id",
        book::client_is_in("client_id", "?1")
    ))?;
    let mut rows = kept.query(params![book])?;
    while let Some(r) = rows.next()? {
        let mut buckets = Buckets::default();
        buckets.add_to(over_90, r.get(1)?);
        sums.push((r.get(0)?, buckets));
    }

    // An invoice's row: client, falls-due date, what it owed on ?1, whether it was dated by
    // then, and the stored amount `client_open` holds of it.
    let owed = "CASE WHEN last_settlement_on <= ?1 THEN outstanding ELSE total
                - (SELECT COALESCE(SUM(n.total), 0) FROM document n WHERE n.parent_id = d.id AND +n.type = 'CREDIT_NOTE'
                     AND n.status NOT IN ('cancelled', 'draft') AND n.doc_date <= ?1)
                - (SELECT COALESCE(SUM(a.amount + a.tds), 0) FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                     WHERE a.document_id = d.id AND p.received_on <= ?1) END";
    let invoice = |kept: &str| {
        format!(
            "client_id, {}, {owed}, IFNULL(doc_date <= ?1, 0), {kept}",
            crate::documents::rules::FALLS_DUE.replace("d.", "")
        )
    };
    let in_book = book::client_is_in("client_id", "?2");
    let mut recent = conn.prepare_cached(&format!(
        "SELECT {} FROM document d INDEXED BY document_open_latest
          WHERE type = 'INVOICE' AND status NOT IN ('draft', 'cancelled') AND settled_on IS NULL
            AND {OPEN_LATEST} >= ?3 AND {in_book}",
        invoice("outstanding")
    ))?;
    let mut later = conn.prepare_cached(&format!(
        "SELECT {} FROM document d INDEXED BY document_receivable
          WHERE type = 'INVOICE' AND settled_on > ?1 AND status NOT IN ('draft', 'cancelled') AND doc_date <= ?1
            AND {in_book}",
        invoice("0")
    ))?;
    let (as_of, ninety_days) = (as_of.to_string(), &edges[3]);
    let mut others: Vec<(String, Buckets)> = vec![];
    for mut found in [
        recent.query(params![as_of, book, ninety_days])?,
        later.query(params![as_of, book])?,
    ] {
        while let Some(r) = found.next()? {
            let client = bytes(r, 0)?;
            let buckets = match sums.binary_search_by(|(id, _)| id.as_bytes().cmp(client)) {
                Ok(i) => &mut sums[i].1,
                // A client without open invoices (one whose invoices were all settled after
                // `as_of`): its sums are put among the others below.
                Err(_) => {
                    others.push((r.get(0)?, Buckets::default()));
                    &mut others.last_mut().expect("pushed").1
                }
            };
            buckets.add_to(over_90, -r.get::<_, i64>(4)?);
            let owed: i64 = r.get(2)?;
            if r.get(3)? && owed > 0 {
                buckets.add_to(bucket_of(bytes(r, 1)?), owed);
            }
        }
    }
    if !others.is_empty() {
        sums.append(&mut others);
        sums.sort_by(|a, b| a.0.cmp(&b.0));
        sums.dedup_by(|next, kept| {
            let same = next.0 == kept.0;
            if same {
                kept.1.merge(&next.1);
            }
            same
        });
    }
    // A client whose open invoices were all dated after `as_of` owed nothing on it.
    sums.retain(|(_, buckets)| buckets.total > 0);

    // The names, in the same (byte) order.
    let mut names =
        conn.prepare_cached("SELECT id, name FROM client INDEXED BY client_id_name ORDER BY id")?;
    let mut clients = names.query([])?;
    let mut rows = Vec::with_capacity(sums.len());
    let mut sums = sums.into_iter().peekable();
    while let Some(r) = clients.next()? {
        let id = bytes(r, 0)?;
        // (A client without its row, which the foreign key rules out, would be left out.)
        while sums.next_if(|(client, _)| client.as_bytes() < id).is_some() {}
        match sums.next_if(|(client, _)| client.as_bytes() == id) {
            Some((client_id, buckets)) => rows.push(ClientDues {
                client_id,
                client_name: r.get(1)?,
                buckets,
            }),
            None if sums.peek().is_none() => break,
            None => {}
        }
    }
    Ok(rows)
}

/// Issued invoices added and issued credit notes subtracted, by month of doc_date, from stored paise.
pub fn gst_by_month(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    book: Option<&str>,
) -> Result<Vec<(String, GstFigures)>, AppError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT substr(doc_date, 1, 7), type, SUM(subtotal), SUM(cgst), SUM(sgst), SUM(igst), SUM(total)
         FROM document WHERE type IN ('INVOICE', 'CREDIT_NOTE') AND status NOT IN ('draft', 'cancelled')
           AND doc_date >= ?1 AND doc_date <= ?2 AND {}
         GROUP BY 1, 2 ORDER BY 1",
        book::client_is_in("client_id", "?3")
    ))?;
    let mut months: Vec<(String, GstFigures)> = vec![];
    let mut rows = stmt.query(params![from.to_string(), to.to_string(), book])?;
    while let Some(r) = rows.next()? {
        let month: String = r.get(0)?;
        let sign = if r.get::<_, String>(1)? == "CREDIT_NOTE" {
            -1
        } else {
            1
        };
        if months.last().is_none_or(|(m, _)| *m != month) {
            months.push((month, GstFigures::default()));
        }
        let figures = &mut months.last_mut().expect("pushed above").1;
        figures.add(sign, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?);
    }
    Ok(months)
}

/// Calls `each` with every number given, the documents' and the receipts', and the document's
/// id when it is an invoice the legacy import recorded.
pub fn each_number(conn: &Connection, mut each: impl FnMut(&str, Option<&str>)) -> Result<(), AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT doc_no, CASE WHEN source = 'legacy' THEN id END FROM document WHERE doc_no IS NOT NULL
         UNION ALL SELECT receipt_no, NULL FROM payment",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let number: String = r.get(0)?;
        let imported: Option<String> = r.get(1)?;
        each(&number, imported.as_deref());
    }
    Ok(())
}

/// The last sequence each series (prefix, fy) gave.
pub fn series_given(conn: &Connection) -> Result<std::collections::HashMap<(String, String), i64>, AppError> {
    let mut stmt = conn.prepare_cached("SELECT prefix, fy, last_seq FROM number_series")?;
    let given = stmt
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    Ok(given)
}
