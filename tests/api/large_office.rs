//! What migrations/V7 keeps beside the data for a large office (tallies, suffix tables for
//! substring search, what each invoice still owes, the projects board's pending counts) equals
//! what it is derived from, on a demo office and again after writes through the API; and the
//! lists, searches and reports that read it answer exactly as the plain queries over the base
//! tables do (the queries the stores ran before V7, kept here as the reference).

use crate::common::{Call, TestApp};
use axum::http::Method;
use backoffice::documents::store::DocumentFilter;
use backoffice::plumbing::db::page::Page;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde_json::json;
use std::collections::BTreeMap;

fn strings(conn: &Connection, sql: &str) -> Vec<String> {
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn page(n: u32) -> Page {
    Page {
        page: n,
        per_page: 50,
        after: None,
        sort: None,
    }
}

/// A demo office (40 societies, three years) written into the test's data file.
fn fill_demo(app: &TestApp) {
    app.state
        .db
        .write_blocking(|tx| {
            let owner: String =
                tx.query_row("SELECT id FROM staff WHERE role = 'owner'", [], |r| r.get(0))?;
            let today = backoffice::plumbing::db::settings::office_today(tx)?;
            let options = backoffice::demo::Options {
                clients: 40,
                years: 3,
                seed: 11,
            };
            backoffice::demo::fill(tx, options, &owner, today)?;
            Ok(())
        })
        .unwrap();
}

fn rows(conn: &Connection, sql: &str) -> Vec<String> {
    let mut stmt = conn.prepare(sql).unwrap();
    let n = stmt.column_count();
    stmt.query_map([], |r| {
        Ok((0..n)
            .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
            .collect::<Vec<_>>()
            .join("|"))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// Tallies and suffix tables equal what they count and index.
fn check_kept_tables(conn: &Connection) {
    let pairs = [
        (
            "SELECT type, status, COALESCE(created_by, ''), COUNT(*) FROM document GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            "SELECT type, status, created_by, n FROM document_tally WHERE n <> 0 ORDER BY 1, 2, 3",
        ),
        (
            "SELECT entity, action, COALESCE(user_id, ''), COUNT(*) FROM audit GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            "SELECT entity, action, user_id, n FROM audit_tally WHERE n <> 0 ORDER BY 1, 2, 3",
        ),
        (
            "SELECT pm.key, SUM(pm.done_on IS NULL AND cm.active = 1) FROM project_milestone pm
               JOIN client_module cm ON cm.id = pm.client_module_id GROUP BY 1 HAVING SUM(pm.done_on IS NULL AND cm.active = 1) > 0 ORDER BY 1",
            "SELECT key, pending FROM project_step_tally WHERE pending <> 0 ORDER BY 1",
        ),
        (
            "SELECT lower(substr(d.doc_no, p.n)), d.id FROM document d JOIN search_position p ON p.n <= length(d.doc_no)
              WHERE d.doc_no IS NOT NULL ORDER BY 1, 2",
            "SELECT suffix, document_id FROM document_no_search ORDER BY 1, 2",
        ),
        (
            "SELECT lower(substr(c.name, p.n)), c.id FROM client c JOIN search_position p ON p.n <= length(c.name) ORDER BY 1, 2",
            "SELECT suffix, client_id FROM client_name_search ORDER BY 1, 2",
        ),
        (
            "SELECT client_id, SUM(outstanding) FROM document
              WHERE type = 'INVOICE' AND status NOT IN ('draft', 'cancelled') AND settled_on IS NULL
              GROUP BY 1 ORDER BY 1",
            "SELECT client_id, outstanding FROM client_open ORDER BY 1",
        ),
    ];
    for (truth, kept) in pairs {
        assert_eq!(rows(conn, kept), rows(conn, truth), "{kept}");
    }
}

/// `document.outstanding`, `settled_on` and `last_settlement_on` of every invoice, recomputed
/// here from its allocations and credit notes.
fn check_settlements(conn: &Connection) {
    let mut events: BTreeMap<String, Vec<(String, i64)>> = BTreeMap::new();
    let mut stmt = conn
        .prepare(
            "SELECT a.document_id, p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
             UNION ALL
             SELECT parent_id, COALESCE(doc_date, '~'), total FROM document
              WHERE type = 'CREDIT_NOTE' AND status NOT IN ('cancelled', 'draft') AND parent_id IS NOT NULL",
        )
        .unwrap();
    for row in stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })
        .unwrap()
    {
        let (id, on, amount) = row.unwrap();
        events.entry(id).or_default().push((on, amount));
    }
    let mut stmt = conn
        .prepare("SELECT id, total, outstanding, settled_on, last_settlement_on FROM document WHERE type = 'INVOICE'")
        .unwrap();
    let invoices = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, Option<i64>>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect::<Vec<_>>();
    assert!(invoices.len() > 100, "a demo office has invoices");
    for (id, total, outstanding, settled_on, last) in invoices {
        let mut mine = events.remove(&id).unwrap_or_default();
        mine.sort();
        let paid: i64 = mine.iter().map(|e| e.1).sum();
        let mut settled = (total <= 0).then(|| "0000-00-00".to_string());
        let mut running = 0;
        for (i, (on, amount)) in mine.iter().enumerate() {
            running += amount;
            let last_of_day = mine.get(i + 1).is_none_or(|next| next.0 != *on);
            if settled.is_none() && last_of_day && running >= total {
                settled = Some(on.clone());
            }
        }
        let latest = mine.last().map_or("0000-00-00".to_string(), |e| e.0.clone());
        assert_eq!(
            (outstanding, settled_on, last),
            (Some(total - paid), settled, Some(latest)),
            "invoice {id}"
        );
    }
}

/// A due invoice as a comparable row.
type Due = (
    String,
    Option<String>,
    String,
    String,
    String,
    Option<String>,
    i64,
    i64,
    i64,
    i64,
);

/// The dues aging as it was computed before V7, over every invoice.
fn dues_before(conn: &Connection, as_of: &str) -> Vec<Due> {
    let mut stmt = conn
        .prepare(
            "SELECT id, doc_no, client_id, name, doc_date, due_date, total, subtotal, outstanding, days FROM (
                SELECT d.id, d.doc_no, d.client_id, c.name, d.doc_date, d.due_date, d.total, d.subtotal,
                    d.total
                    - (SELECT COALESCE(SUM(n.total), 0) FROM document n WHERE n.parent_id = d.id AND +n.type = 'CREDIT_NOTE'
                         AND n.status NOT IN ('cancelled', 'draft') AND n.doc_date <= ?1)
                    - (SELECT COALESCE(SUM(a.amount + a.tds), 0) FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                         WHERE a.document_id = d.id AND p.received_on <= ?1) AS outstanding,
                    CAST(julianday(?1) - julianday(COALESCE(d.due_date, d.doc_date)) AS INTEGER) AS days
                FROM document d JOIN client c ON c.id = d.client_id
                WHERE d.type = 'INVOICE' AND d.status NOT IN ('draft', 'cancelled') AND d.doc_date <= ?1
             ) WHERE outstanding > 0 ORDER BY name COLLATE NOCASE, client_id, doc_date, id",
        )
        .unwrap();
    stmt.query_map([as_of], |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
            r.get(7)?,
            r.get(8)?,
            r.get(9)?,
        ))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

fn check_reads(conn: &Connection) {
    use backoffice::{documents, projects, reports};
    // The dues aging on several dates, and for one client.
    let dates = strings(
        conn,
        "SELECT DISTINCT doc_date FROM document WHERE type = 'INVOICE' AND doc_date IS NOT NULL ORDER BY 1",
    );
    let today = backoffice::plumbing::db::settings::office_today(conn).unwrap();
    let mut as_ofs: Vec<String> = (0..6).map(|i| dates[i * (dates.len() - 1) / 5].clone()).collect();
    as_ofs.push(today.to_string());
    for as_of in &as_ofs {
        let date = chrono::NaiveDate::parse_from_str(as_of, "%Y-%m-%d").unwrap();
        let now: Vec<Due> = reports::store::due_invoices(conn, date, None, None)
            .unwrap()
            .into_iter()
            .map(|d| {
                (
                    d.document_id,
                    d.doc_no,
                    d.client_id,
                    d.client_name,
                    d.doc_date,
                    d.due_date,
                    d.total,
                    d.taxable,
                    d.outstanding,
                    d.days_past_due,
                )
            })
            .collect();
        let before = dues_before(conn, as_of);
        assert_eq!(now, before, "dues aging as of {as_of}");
        assert!(
            as_of < &today.to_string() || !now.is_empty(),
            "something is owed today"
        );
    }
    let client = strings(
        conn,
        "SELECT client_id FROM document WHERE type = 'INVOICE' AND settled_on IS NULL LIMIT 1",
    );
    let one = reports::store::due_invoices(conn, today, None, Some(&client[0])).unwrap();
    let all = reports::store::due_invoices(conn, today, None, None).unwrap();
    let of_client: Vec<&String> = all
        .iter()
        .filter(|d| d.client_id == client[0])
        .map(|d| &d.document_id)
        .collect();
    assert_eq!(one.iter().map(|d| &d.document_id).collect::<Vec<_>>(), of_client);

    // Substring search of the documents: the same rows and total as LIKE over number and name.
    let mut queries: Vec<String> = strings(
        conn,
        "SELECT doc_no FROM document WHERE doc_no IS NOT NULL ORDER BY id LIMIT 3",
    )
    .iter()
    .flat_map(|n| {
        vec![
            n[..4].to_string(),
            n[3..9].to_lowercase(),
            n[n.len() - 3..].to_string(),
        ]
    })
    .collect();
    let name = strings(conn, "SELECT name FROM client ORDER BY id LIMIT 1").remove(0);
    queries.extend([
        name[2..8].to_lowercase(),
        name.to_uppercase(),
        "1".into(),
        "co-op".into(),
        "%".into(),
        "_".into(),
        "zzzz-none".into(),
    ]);
    for q in &queries {
        for n in [1, 2] {
            let got = documents::store::list(
                conn,
                DocumentFilter {
                    q: Some(q.clone()),
                    ..Default::default()
                },
            )
            .unwrap()
            .page(conn, &page(n))
            .unwrap();
            let pattern = backoffice::plumbing::db::query::like_contains(q);
            let mut stmt = conn
                .prepare(
                    "SELECT d.id FROM document d JOIN client c ON c.id = d.client_id
                      WHERE d.doc_no LIKE ?1 ESCAPE '\\' OR c.name LIKE ?1 ESCAPE '\\' ORDER BY d.id DESC",
                )
                .unwrap();
            let want: Vec<String> = stmt
                .query_map([pattern], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            assert_eq!(got.total, want.len() as i64, "total for {q:?}");
            let start = (n as usize - 1) * 50;
            let slice = &want[start.min(want.len())..(start + 50).min(want.len())];
            assert_eq!(
                got.rows.iter().map(|r| &r.id).collect::<Vec<_>>(),
                slice.iter().collect::<Vec<_>>(),
                "{q:?}"
            );
        }
    }
    // With another filter, and deep pages: the same rows as OFFSET over the whole list.
    let invoices = documents::store::list(
        conn,
        DocumentFilter {
            doc_type: Some("INVOICE".into()),
            q: Some("inv".into()),
            ..Default::default()
        },
    )
    .unwrap()
    .page(conn, &page(3))
    .unwrap();
    let want = strings(
        conn,
        "SELECT id FROM document WHERE type = 'INVOICE' AND doc_no LIKE '%inv%' ORDER BY id DESC LIMIT 50 OFFSET 100",
    );
    assert_eq!(
        invoices.rows.iter().map(|r| r.id.clone()).collect::<Vec<_>>(),
        want
    );
    // The number's and the name's matches are read apart in id order and merged: in every book,
    // forwards from a sync cursor, and sorted (then as one OR), the rows LIKE finds.
    let staff = strings(conn, "SELECT id FROM staff ORDER BY id");
    let books: Vec<Option<String>> = std::iter::once(None).chain(staff.into_iter().map(Some)).collect();
    let found = |q: &str, book: &Option<String>, order: &str| -> Vec<String> {
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT d.id FROM document d JOIN client c ON c.id = d.client_id
                  WHERE (d.doc_no LIKE ?1 ESCAPE '\\' OR c.name LIKE ?1 ESCAPE '\\')
                    AND (?2 IS NULL OR c.owner_id = ?2) ORDER BY {order}"
            ))
            .unwrap();
        stmt.query_map(
            rusqlite::params![backoffice::plumbing::db::query::like_contains(q), book],
            |r| r.get(0),
        )
        .unwrap()
        .map(Result::unwrap)
        .collect()
    };
    let mut in_books = 0;
    for q in [&queries[0], &queries[1], &name[2..8].to_lowercase(), "1"] {
        for book in &books {
            let ids = |p: Page| {
                let filter = DocumentFilter {
                    q: Some(q.to_string()),
                    book: book.clone(),
                    ..Default::default()
                };
                let got = documents::store::list(conn, filter)
                    .unwrap()
                    .page(conn, &p)
                    .unwrap();
                (got.total, got.rows.into_iter().map(|r| r.id).collect::<Vec<_>>())
            };
            let want = found(q, book, "d.id DESC");
            in_books += want.len();
            let total = want.len() as i64;
            let window =
                |rows: &[String], skip: usize| rows.iter().skip(skip).take(50).cloned().collect::<Vec<_>>();
            assert_eq!(ids(page(2)), (total, window(&want, 50)), "{q:?} in {book:?}");
            let ascending = found(q, book, "d.id");
            if let Some(cursor) = ascending.get(3) {
                let after = Page {
                    after: Some(cursor.clone()),
                    ..page(1)
                };
                let rest = ascending.len() as i64 - 4;
                assert_eq!(ids(after), (rest, window(&ascending, 4)), "{q:?} after {cursor}");
            }
            let by_date = Page {
                sort: Some("-doc_date".into()),
                ..page(1)
            };
            let dated = found(q, book, "d.doc_date DESC, d.id DESC");
            assert_eq!(
                ids(by_date),
                (total, window(&dated, 0)),
                "{q:?} by date in {book:?}"
            );
        }
    }
    assert!(in_books > 100, "the searches find documents: {in_books}");
    let count: i64 = conn
        .query_row("SELECT COUNT(*) FROM document", [], |r| r.get(0))
        .unwrap();
    let last = documents::store::list(conn, DocumentFilter::default())
        .unwrap()
        .page(conn, &page((count as u32).div_ceil(50)))
        .unwrap();
    assert_eq!(last.total, count);
    assert_eq!(
        last.rows.last().map(|r| r.id.clone()),
        strings(conn, "SELECT id FROM document ORDER BY id LIMIT 1").pop()
    );

    // The projects board, as the plain joins give it (the stalled list: `check_tiles`).
    let board: Vec<String> = projects::store::board(conn, None)
        .unwrap()
        .iter()
        .map(|r| format!("{}|{}|{}", r.key, r.label, r.pending))
        .collect();
    let mut stmt = conn
        .prepare(
            "SELECT pm.key, MIN(pm.label), SUM(pm.done_on IS NULL) FROM project_milestone pm
               JOIN client_module cm ON cm.id = pm.client_module_id JOIN client c ON c.id = cm.client_id
              WHERE cm.active = 1 GROUP BY pm.key ORDER BY MIN(pm.position), pm.key",
        )
        .unwrap();
    let want: Vec<String> = stmt
        .query_map([], |r| {
            Ok(format!(
                "{}|{}|{}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(board, want);
    let owner = strings(
        conn,
        "SELECT owner_id FROM client WHERE owner_id IS NOT NULL LIMIT 1",
    )
    .remove(0);
    for book in [None, Some(owner.as_str())] {
        let staff_board = projects::store::board(conn, book).unwrap();
        assert!(!staff_board.is_empty());
    }
    // A module's roster, first and last page, as ORDER BY over the join gives it.
    let module = strings(
        conn,
        "SELECT module_id FROM client_module WHERE active = 1 GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1",
    )
    .remove(0);
    let want = strings(
        conn,
        &format!(
            "SELECT cm.id FROM client_module cm JOIN client c ON c.id = cm.client_id
              WHERE cm.module_id = '{module}' AND cm.active = 1 ORDER BY c.name COLLATE NOCASE, cm.id"
        ),
    );
    for n in [1, want.len().div_ceil(50) as u32] {
        let got = projects::store::roster(conn, &module, None, Some(1), &page(n)).unwrap();
        assert_eq!(got.total, want.len() as i64);
        let start = (n as usize - 1) * 50;
        assert_eq!(
            got.rows
                .iter()
                .map(|r| r.client_module_id.clone())
                .collect::<Vec<_>>(),
            want[start..(start + 50).min(want.len())].to_vec()
        );
    }
}

fn check_all(app: &TestApp) {
    let conn = app.sql();
    check_kept_tables(&conn);
    check_settlements(&conn);
    check_reads(&conn);
    check_summaries(&conn);
    check_report_summaries(&conn);
    check_pipeline(&conn);
    check_search(&conn);
    check_tiles(&conn);
    check_gstr1(&conn);
}

/// What a query's plan says, one line per step.
fn plan(conn: &Connection, sql: &str) -> String {
    let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
    let n = stmt.parameter_count();
    let nulls: Vec<rusqlite::types::Value> = vec![rusqlite::types::Value::Null; n];
    stmt.query_map(rusqlite::params_from_iter(nulls), |r| r.get::<_, String>(3))
        .unwrap()
        .map(Result::unwrap)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The summaries (issue 39): the renewals tiles count and price exactly what the renewals list
/// holds, in every book and window; and the queries that migrations/V26 indexed take its indexes.
fn check_summaries(conn: &Connection) {
    use backoffice::renewals::store::{LIVE_RENEWAL_PROFORMA, RenewalFilter};
    let today = backoffice::plumbing::db::settings::office_today(conn).unwrap();
    let staff = strings(conn, "SELECT id FROM staff ORDER BY id");
    let books = std::iter::once(None).chain(staff.into_iter().map(Some));
    let mut priced = 0;
    for book in books {
        for days in [0u64, 7, 30, 60, 400] {
            let filter = RenewalFilter {
                from: today,
                to: today + chrono::Days::new(days),
                kind: None,
                q: None,
                book: book.clone(),
            };
            let rows = backoffice::renewals::renewals(conn, &filter, None).unwrap();
            let listed = (
                rows.len() as i64,
                rows.iter().filter_map(|r| r.amount).sum::<i64>(),
            );
            let tile = backoffice::renewals::due_within(conn, days, book.clone()).unwrap();
            assert_eq!(tile, listed, "{days} days in the book {book:?}");
            priced += listed.1;
        }
    }
    assert!(priced > 0, "the demo office renews nothing priced");
    // A page in the usual order (its rows up to the page's end, its count and amount from the
    // kept counts) equals that page of every row priced and sorted, in every book and kind.
    let staff = strings(conn, "SELECT id FROM staff ORDER BY id");
    let mut paged = 0;
    for book in std::iter::once(None).chain(staff.into_iter().map(Some)) {
        for kind in [None, Some("module"), Some("contract")] {
            for (from, to) in [
                (today, today + chrono::Days::new(60)),
                (today - chrono::Days::new(200), today + chrono::Days::new(400)),
            ] {
                let filter = RenewalFilter {
                    from,
                    to,
                    kind: kind.map(str::to_string),
                    q: None,
                    book: book.clone(),
                };
                let all = backoffice::renewals::renewals(conn, &filter, None).unwrap();
                let amount: i64 = all.iter().filter_map(|r| r.amount).sum();
                let all = serde_json::to_value(&all).unwrap();
                for (n, per_page, sort) in [
                    (1, 50, None),
                    (2, 7, Some("due_on")),
                    (3, 7, Some("days_until")),
                    (9_999, 50, None),
                ] {
                    let page = Page {
                        page: n,
                        per_page,
                        after: None,
                        sort: sort.map(str::to_string),
                    };
                    let listed = backoffice::renewals::page(conn, &filter, &page).unwrap();
                    let want: Vec<_> = all
                        .as_array()
                        .unwrap()
                        .iter()
                        .skip(((n - 1) * per_page) as usize)
                        .take(per_page as usize)
                        .collect();
                    let what =
                        format!("page {n} of {per_page}, {kind:?} from {from} to {to} in the book {book:?}");
                    assert_eq!(
                        listed
                            .page
                            .rows
                            .iter()
                            .map(|r| serde_json::to_value(r).unwrap())
                            .collect::<Vec<_>>(),
                        want.into_iter().cloned().collect::<Vec<_>>(),
                        "{what}"
                    );
                    assert_eq!(
                        (listed.page.total, listed.total_amount),
                        (all.as_array().unwrap().len() as i64, amount),
                        "{what}"
                    );
                    paged += listed.page.rows.len();
                }
            }
        }
    }
    assert!(paged > 0, "no renewal paged");
    let proforma = plan(
        conn,
        &format!("SELECT cm.id, ({LIVE_RENEWAL_PROFORMA}) FROM client_module cm"),
    );
    assert!(
        proforma.contains("USING INDEX document_live_renewal (client_id=?)"),
        "{proforma}"
    );
    let open = plan(conn, backoffice::tickets::store::OPEN_AFTER);
    assert!(open.contains("USING COVERING INDEX ticket_resolved"), "{open}");
}

/// The dues aging summed by client, the client profitability and the cloud-cost ranking (issue
/// 39, migrations/V30): `client_year` equals its months, and each view equals the query it
/// replaced (kept here as the reference), to the paisa, in every book, on several dates and
/// ranges.
fn check_report_summaries(conn: &Connection) {
    use backoffice::plumbing::clock::Month;
    use backoffice::revenue::rules::Months;
    use backoffice::{cloud_costs, reports, revenue};
    let fy = "CAST(substr(month, 1, 4) AS INTEGER) - (substr(month, 6, 2) < '04')";
    assert_eq!(
        rows(
            conn,
            "SELECT fy, client_id, taxable, collected, cost, cost_months FROM client_year
              WHERE taxable <> 0 OR collected <> 0 OR cost <> 0 OR cost_months <> 0 ORDER BY 1, 2"
        ),
        rows(
            conn,
            &format!(
                "SELECT fy, client_id, SUM(taxable), SUM(collected), SUM(cost), SUM(n) FROM (
                   SELECT {fy} AS fy, client_id, taxable, collected, 0 AS cost, 0 AS n FROM client_month
                   UNION ALL SELECT {fy}, client_id, 0, 0, amount, 1 FROM cloud_cost)
                  GROUP BY 1, 2 HAVING SUM(taxable) <> 0 OR SUM(collected) <> 0 OR SUM(cost) <> 0 OR SUM(n) <> 0
                  ORDER BY 1, 2"
            )
        ),
        "client_year"
    );

    let today = backoffice::plumbing::db::settings::office_today(conn).unwrap();
    let staff = strings(conn, "SELECT id FROM staff ORDER BY id");
    let books: Vec<Option<String>> = std::iter::once(None).chain(staff.into_iter().map(Some)).collect();

    // The dues aging: the invoices' query of before V7, summed by client in SQL.
    let dates = strings(
        conn,
        "SELECT DISTINCT doc_date FROM document WHERE type = 'INVOICE' AND doc_date IS NOT NULL ORDER BY 1",
    );
    let mut as_ofs: Vec<chrono::NaiveDate> = (0..6)
        .map(|i| chrono::NaiveDate::parse_from_str(&dates[i * (dates.len() - 1) / 5], "%Y-%m-%d").unwrap())
        .collect();
    // Today, and days to come without a write: invoices move between buckets.
    as_ofs.extend([
        today,
        today + chrono::Days::new(31),
        today + chrono::Days::new(95),
    ]);
    let mut owed = 0;
    for book in &books {
        for as_of in &as_ofs {
            let (got, totals) = reports::rules::rank_clients(
                reports::store::dues_by_client(conn, *as_of, book.as_deref()).unwrap(),
            );
            let mut stmt = conn
                .prepare(
                    "SELECT client_id, name, SUM(CASE WHEN days <= 0 THEN outstanding ELSE 0 END),
                        SUM(CASE WHEN days BETWEEN 1 AND 30 THEN outstanding ELSE 0 END),
                        SUM(CASE WHEN days BETWEEN 31 AND 60 THEN outstanding ELSE 0 END),
                        SUM(CASE WHEN days BETWEEN 61 AND 90 THEN outstanding ELSE 0 END),
                        SUM(CASE WHEN days > 90 THEN outstanding ELSE 0 END), SUM(outstanding) FROM (
                      SELECT d.client_id, c.name,
                        d.total
                        - (SELECT COALESCE(SUM(n.total), 0) FROM document n WHERE n.parent_id = d.id AND +n.type = 'CREDIT_NOTE'
                             AND n.status NOT IN ('cancelled', 'draft') AND n.doc_date <= ?1)
                        - (SELECT COALESCE(SUM(a.amount + a.tds), 0) FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                             WHERE a.document_id = d.id AND p.received_on <= ?1) AS outstanding,
                        CAST(julianday(?1) - julianday(COALESCE(d.due_date, d.doc_date)) AS INTEGER) AS days
                      FROM document d JOIN client c ON c.id = d.client_id
                      WHERE d.type = 'INVOICE' AND d.status NOT IN ('draft', 'cancelled') AND d.doc_date <= ?1
                        AND (?2 IS NULL OR c.owner_id = ?2))
                     WHERE outstanding > 0 GROUP BY client_id ORDER BY SUM(outstanding) DESC, name, client_id",
                )
                .unwrap();
            let want: Vec<(String, String, [i64; 6])> = stmt
                .query_map(rusqlite::params![as_of.to_string(), book], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        [r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?],
                    ))
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            let got: Vec<(String, String, [i64; 6])> = got
                .into_iter()
                .map(|r| (r.client_id, r.client_name, r.buckets.cells()))
                .collect();
            assert_eq!(got, want, "dues aging as of {as_of} in the book {book:?}");
            let mut sums = [0; 6];
            for (_, _, cells) in &want {
                for (s, c) in sums.iter_mut().zip(cells) {
                    *s += c;
                }
            }
            assert_eq!(
                totals.cells(),
                sums,
                "dues aging totals as of {as_of} in the book {book:?}"
            );
            owed += sums[5];
        }
    }
    assert!(owed > 0, "the demo office owes nothing");

    // Profitability and ranking: the queries of V17 over client_month and cloud_cost.
    let this = Month::of(today);
    let mut ranges: Vec<Months> = (0..4)
        .map(|back| {
            let april = backoffice::plumbing::clock::Fy::of(today)
                .first_month()
                .plus(-12 * back);
            Months {
                from: april,
                to: april.plus(11),
            }
        })
        .collect();
    ranges.extend([
        Months::ending(today, 12),
        Months::ending(today, 1),
        Months {
            from: this.plus(-40),
            to: this.plus(-9),
        },
        Months {
            from: this.plus(-29),
            to: this.plus(-17),
        },
        Months {
            from: this.plus(-35),
            to: this,
        },
    ]);
    let mut seen = (0, 0);
    for book in &books {
        for range in &ranges {
            let (from, to) = (range.from_text(), range.to_text());
            let mut got: Vec<String> = revenue::store::client_figures(conn, *range, book.as_deref())
                .unwrap()
                .into_iter()
                .map(|f| {
                    format!(
                        "{}|{}|{}|{}|{}",
                        f.client_id, f.client_name, f.billed, f.collected, f.cost
                    )
                })
                .collect();
            got.sort();
            let mut stmt = conn
                .prepare(
                    "SELECT c.id || '|' || c.name || '|' || COALESCE(m.taxable, 0) || '|' || COALESCE(m.collected, 0)
                            || '|' || COALESCE(k.cost, 0)
                       FROM client c
                       LEFT JOIN (SELECT client_id, SUM(taxable) AS taxable, SUM(collected) AS collected FROM client_month
                                   WHERE month BETWEEN ?1 AND ?2 GROUP BY client_id) m ON m.client_id = c.id
                       LEFT JOIN (SELECT client_id, SUM(amount) AS cost FROM cloud_cost
                                   WHERE month BETWEEN ?1 AND ?2 GROUP BY client_id) k ON k.client_id = c.id
                      WHERE (m.taxable <> 0 OR m.collected <> 0 OR k.cost <> 0) AND (?3 IS NULL OR c.owner_id = ?3)",
                )
                .unwrap();
            let mut want: Vec<String> = stmt
                .query_map(rusqlite::params![from, to, book], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            want.sort();
            assert_eq!(got, want, "profitability {from} to {to} in the book {book:?}");
            seen.0 += want.len();

            let mut got: Vec<String> =
                cloud_costs::store::ranking(conn, range.from, range.to, book.as_deref())
                    .unwrap()
                    .into_iter()
                    .map(|r| {
                        format!(
                            "{}|{}|{}|{}|{}",
                            r.client_id, r.client_name, r.total, r.months, r.average
                        )
                    })
                    .collect();
            got.sort();
            let mut stmt = conn
                .prepare(
                    "SELECT cc.client_id, c.name, SUM(cc.amount), COUNT(*)
                       FROM cloud_cost cc JOIN client c ON c.id = cc.client_id
                      WHERE cc.month >= ?1 AND cc.month <= ?2 AND (?3 IS NULL OR c.owner_id = ?3)
                      GROUP BY cc.client_id",
                )
                .unwrap();
            let mut want: Vec<String> = stmt
                .query_map(rusqlite::params![from, to, book], |r| {
                    let (total, months): (i64, i64) = (r.get(2)?, r.get(3)?);
                    Ok(format!(
                        "{}|{}|{total}|{months}|{}",
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        cloud_costs::rules::average(total, months)
                    ))
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            want.sort();
            assert_eq!(
                got, want,
                "cloud-cost ranking {from} to {to} in the book {book:?}"
            );
            seen.1 += want.len();
        }
    }
    assert!(
        seen.0 > 0 && seen.1 > 0,
        "no profitability or no cloud costs in the demo office"
    );
}

/// The stalled list as it was computed before migrations/V29, on `today` at `days`: every
/// active project with a pending step and its last activity (the plain join), by client name,
/// those at least `days` old, oldest first; and how many had no activity day.
fn stalled_before(conn: &Connection, book: Option<&str>, today: NaiveDate, days: i64) -> (Vec<String>, i64) {
    let mut stmt = conn
        .prepare(
            "SELECT cm.id, c.name, COALESCE((SELECT MAX(done_on) FROM project_milestone d WHERE d.client_module_id = cm.id), substr(cm.created_at, 1, 10))
             FROM client_module cm JOIN client c ON c.id = cm.client_id JOIN module m ON m.id = cm.module_id
             WHERE cm.active = 1 AND (?1 IS NULL OR c.owner_id = ?1)
               AND EXISTS (SELECT 1 FROM project_milestone p WHERE p.client_module_id = cm.id AND p.done_on IS NULL)
             ORDER BY c.name COLLATE NOCASE, cm.id",
        )
        .unwrap();
    let open = stmt
        .query_map([book], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect::<Vec<_>>();
    let mut unknown = 0;
    let mut stalled = vec![];
    for (id, name, last) in open {
        let Some(last) = last.and_then(|d| backoffice::plumbing::clock::date(&d)) else {
            unknown += 1;
            continue;
        };
        let age = (today - last).num_days();
        if age >= days {
            stalled.push((age, format!("{id}|{name}|{last}|{age}")));
        }
    }
    stalled.sort_by_key(|(age, _)| std::cmp::Reverse(*age));
    (stalled.into_iter().map(|(_, row)| row).collect(), unknown)
}

/// The tickets still open at the end of each of `days` as counted before migrations/V29: every
/// ticket not resolved by the first, checked against each day.
fn still_open_before(conn: &Connection, days: &[NaiveDate]) -> Vec<i64> {
    let first = days.iter().min().unwrap().to_string();
    let days: Vec<String> = days.iter().map(NaiveDate::to_string).collect();
    let mut counts = vec![0; days.len()];
    for (opened, resolved) in backoffice::tickets::store::open_after(conn, &first).unwrap() {
        for (count, day) in counts.iter_mut().zip(&days) {
            if opened <= *day && resolved.as_ref().is_none_or(|r| r > day) {
                *count += 1;
            }
        }
    }
    counts
}

/// The renewals of `days` from `on` in `book` as the list prices them: how many, their amount.
fn renewals_listed(conn: &Connection, on: NaiveDate, days: u64, book: Option<String>) -> (i64, i64) {
    let filter = backoffice::renewals::store::RenewalFilter {
        from: on,
        to: on + chrono::Days::new(days),
        kind: None,
        q: None,
        book,
    };
    let rows = backoffice::renewals::renewals(conn, &filter, None).unwrap();
    (
        rows.len() as i64,
        rows.iter().filter_map(|r| r.amount).sum::<i64>(),
    )
}

/// The dashboard's and the cockpit's tiles (issue 39, migrations/V29) equal what they were
/// computed from before: the stalled projects (count and list), the renewals due, the tickets
/// still open at each month's end and the office's months, in every book, today and 40 days on.
fn check_tiles(conn: &Connection) {
    use backoffice::plumbing::db::settings;
    use backoffice::projects::milestones;
    use backoffice::revenue::rules::Months;
    let today = settings::office_today(conn).unwrap();
    let staff = strings(conn, "SELECT id FROM staff ORDER BY id");
    let books: Vec<Option<String>> = std::iter::once(None).chain(staff.into_iter().map(Some)).collect();
    let (mut stalled_seen, mut series_seen) = (0, 0);
    for on in [today, today + chrono::Days::new(40)] {
        let stall_days = settings::int(conn, &settings::PROJECT_STALL_DAYS, on).unwrap();
        for book in &books {
            let b = book.as_deref();
            for days in [None, Some(0), Some(30), Some(400)] {
                let (want, unknown) = stalled_before(conn, b, on, days.unwrap_or(stall_days));
                let got = milestones::stalled_on(conn, b, days, on).unwrap();
                let rows: Vec<String> = got
                    .projects
                    .iter()
                    .map(|p| {
                        format!(
                            "{}|{}|{}|{}",
                            p.project.client_module_id, p.project.client_name, p.last_activity, p.age_days
                        )
                    })
                    .collect();
                assert_eq!(rows, want, "stalled on {on} at {days:?} days, book {book:?}");
                assert_eq!(
                    (got.total, got.unknown_age_excluded, got.days),
                    (want.len() as i64, unknown, days.unwrap_or(stall_days)),
                    "stalled on {on} at {days:?}, book {book:?}"
                );
                stalled_seen += want.len();
            }
            let (want, _) = stalled_before(conn, b, on, stall_days);
            assert_eq!(
                milestones::stalled_count(conn, b, on).unwrap(),
                (want.len() as i64, stall_days),
                "stalled tile on {on}, book {book:?}"
            );
            for days in [0u64, 30, 60, 400] {
                assert_eq!(
                    backoffice::renewals::due_within_on(conn, days, book.clone(), on).unwrap(),
                    renewals_listed(conn, on, days, book.clone()),
                    "renewals of {days} days from {on}, book {book:?}"
                );
            }
        }
        // The cockpit's series: tickets still open at each month's end, and a few more days.
        let range = Months::ending(on, 12);
        let mut ends: Vec<NaiveDate> = range.each().map(|m| m.last_day().min(on)).collect();
        ends.extend(
            strings(conn, "SELECT opened_on FROM ticket ORDER BY id LIMIT 5")
                .iter()
                .filter_map(|d| backoffice::plumbing::clock::date(d)),
        );
        let want = still_open_before(conn, &ends);
        assert_eq!(
            backoffice::tickets::still_open_at(conn, &ends).unwrap(),
            want,
            "tickets still open on {ends:?}"
        );
        series_seen += want.iter().sum::<i64>();
        // The office's months, the last 12 and the last five years.
        for months in [range, Months::ending(on, 60)] {
            let got: Vec<String> = backoffice::revenue::store::office_months(conn, months)
                .unwrap()
                .into_iter()
                .map(|(m, f)| format!("{m}|{}|{}|{}", f.billed, f.collected, f.owed))
                .collect();
            let mut stmt = conn
                .prepare(
                    "SELECT month, SUM(billed), SUM(collected), SUM(billed - settled) FROM client_month
                      WHERE month BETWEEN ?1 AND ?2 GROUP BY month",
                )
                .unwrap();
            let found: BTreeMap<String, String> = stmt
                .query_map([months.from_text(), months.to_text()], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        format!(
                            "{}|{}|{}",
                            r.get::<_, i64>(1)?,
                            r.get::<_, i64>(2)?,
                            r.get::<_, i64>(3)?
                        ),
                    ))
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            let want: Vec<String> = months
                .list()
                .into_iter()
                .map(|m| format!("{m}|{}", found.get(&m).map_or("0|0|0", String::as_str)))
                .collect();
            assert_eq!(got, want, "office months");
        }
    }
    assert!(stalled_seen > 0, "the demo office has stalled projects");
    assert!(series_seen > 0, "the demo office has open tickets");
    // The tiles as the dashboard and the cockpit answer them today.
    let (want_stalled, _) = stalled_before(
        conn,
        None,
        today,
        settings::int(conn, &settings::PROJECT_STALL_DAYS, today).unwrap(),
    );
    for book in &books {
        let d = backoffice::dashboard::dashboard(conn, book.clone()).unwrap();
        let (want, _) = stalled_before(
            conn,
            book.as_deref(),
            today,
            settings::int(conn, &settings::PROJECT_STALL_DAYS, today).unwrap(),
        );
        assert_eq!(d.stalled_projects.count, want.len() as i64, "book {book:?}");
        assert_eq!(
            (d.renewals.count, d.renewals.amount),
            renewals_listed(conn, today, backoffice::dashboard::RENEWAL_DAYS, book.clone()),
            "book {book:?}"
        );
    }
    // The open quotations by band, as the open pipeline's rows count them (the computation
    // before V29), and the reminders due as every open reminder's row counts them.
    for book in &books {
        let mut want = backoffice::pipeline::OpenQuotes::default();
        let filter = backoffice::pipeline::store::PipelineFilter {
            show: backoffice::pipeline::store::Show::Open,
            q: None,
            owner_id: None,
            book: book.clone(),
        };
        backoffice::pipeline::listing(conn, filter)
            .unwrap()
            .each(conn, None, |row| {
                if row.document_id.is_none() {
                    want.enquiries += 1;
                } else {
                    want.count += 1;
                    want.value += row.total.unwrap_or(0);
                    let band = &mut want.bands;
                    *match row.band.as_str() {
                        "green" => &mut band.green,
                        "amber" => &mut band.amber,
                        "red" => &mut band.red,
                        _ => &mut band.grey,
                    } += 1;
                }
                Ok(())
            })
            .unwrap();
        let got = backoffice::pipeline::open_quotes(conn, book.clone()).unwrap();
        assert_eq!(
            serde_json::to_value(&got).unwrap(),
            serde_json::to_value(&want).unwrap(),
            "open quotations, book {book:?}"
        );
        for on in [today, today + chrono::Days::new(40)] {
            let want: (i64, i64) = conn
                .query_row(
                    "SELECT COALESCE(SUM(r.due_on = ?1), 0), COALESCE(SUM(r.due_on < ?1), 0) FROM reminder r NOT INDEXED
                      WHERE r.status = 'open' AND r.due_on <= ?1 AND (?2 IS NULL OR r.owner_id = ?2 OR r.doc_id IS NULL)",
                    rusqlite::params![on.to_string(), book],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            assert_eq!(
                backoffice::dashboard::store::reminders_due(conn, on, book.as_deref()).unwrap(),
                want,
                "reminders due on {on}, book {book:?}"
            );
        }
    }
    let mis = backoffice::dashboard::mis(conn).unwrap();
    assert!(mis.months.len() == 12 && !want_stalled.is_empty());
    assert_eq!(
        (mis.renewals.count, mis.renewals.amount),
        renewals_listed(conn, today, backoffice::dashboard::RENEWAL_DAYS, None)
    );
    let ends: Vec<NaiveDate> = Months::ending(today, 12)
        .each()
        .map(|m| m.last_day().min(today))
        .collect();
    assert_eq!(mis.tickets.series, still_open_before(conn, &ends));
}

#[tokio::test]
async fn what_v7_keeps_matches_the_tables_before_and_after_writes() {
    let app = TestApp::new();
    fill_demo(&app);
    check_all(&app);

    let owner = app.owner().await;
    let conn = app.sql();
    let today = backoffice::plumbing::db::settings::office_today(&conn)
        .unwrap()
        .to_string();
    let module = strings(
        &conn,
        "SELECT module_id FROM module_price GROUP BY module_id HAVING MIN(price) > 0 ORDER BY module_id LIMIT 1",
    )
    .remove(0);
    let client = strings(
        &conn,
        "SELECT id FROM client WHERE status = 'active' ORDER BY id LIMIT 1",
    )
    .remove(0);
    let mut invoices = vec![];
    for _ in 0..4 {
        let draft = app
            .post(
                "/api/documents",
                &owner,
                json!({ "type": "INVOICE", "client_id": client, "lines": [{ "module_id": module, "qty": 2 }] }),
            )
            .await;
        assert_eq!(draft.status, 201, "{}", draft.text);
        let id = draft.body["id"].as_str().unwrap().to_string();
        // A draft's lines change its total (the trigger's short way).
        let patched = app
            .patch(
                &format!("/api/documents/{id}"),
                &owner,
                json!({ "lines": [{ "module_id": module, "qty": 3 }] }),
            )
            .await;
        assert_eq!(patched.status, 200, "{}", patched.text);
        let issued = app
            .post(&format!("/api/documents/{id}/issue"), &owner, json!({}))
            .await;
        assert_eq!(issued.status, 200, "{}", issued.text);
        invoices.push((id, issued.body["total"].as_i64().unwrap()));
    }
    // Paid in part, paid in full (money and TDS), credited in full, cancelled.
    let payment = app
        .post(
            "/api/payments",
            &owner,
            json!({ "client_id": client, "received_on": today, "amount": invoices[0].1, "mode": "upi",
                    "allocations": [{ "document_id": invoices[0].0, "amount": 100 },
                                    { "document_id": invoices[1].0, "amount": invoices[1].1 - 500, "tds": 500 }] }),
        )
        .await;
    assert_eq!(payment.status, 201, "{}", payment.text);
    let credit = app
        .post(
            &format!("/api/documents/{}/credit-note", invoices[2].0),
            &owner,
            json!({ "reason": "Billed twice" }),
        )
        .await;
    assert_eq!(credit.status, 200, "{}", credit.text);
    let cancel = app
        .post(
            &format!("/api/documents/{}/cancel", invoices[3].0),
            &owner,
            json!({ "reason": "Wrong client" }),
        )
        .await;
    assert_eq!(cancel.status, 200, "{}", cancel.text);
    // A payment with TDS recorded and cancelled; cloud costs entered, one of them twice.
    let second = app
        .post(
            "/api/payments",
            &owner,
            json!({ "client_id": client, "received_on": today, "amount": 300, "mode": "upi",
                    "allocations": [{ "document_id": invoices[0].0, "amount": 300, "tds": 200 }] }),
        )
        .await;
    assert_eq!(second.status, 201, "{}", second.text);
    let cancelled = app
        .post(
            &format!("/api/payments/{}/cancel", second.body["id"].as_str().unwrap()),
            &owner,
            json!({ "reason": "Bounced" }),
        )
        .await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.text);
    let this_month = &today[..7];
    for amount in [90_000, 125_000] {
        let costs = app
            .send(
                Call::new(Method::PUT, "/api/cloud-costs").cookie(&owner).json(
                    json!({ "rows": [{ "client_id": client, "month": this_month, "amount": amount }] }),
                ),
            )
            .await;
        assert_eq!(costs.status, 200, "{}", costs.text);
    }
    // A renamed client is found by its new name; a ticked step and a stopped project leave the board.
    let renamed = app
        .patch(
            &format!("/api/clients/{client}"),
            &owner,
            json!({ "name": "Zyxwvu Service Co-operative Bank Ltd" }),
        )
        .await;
    assert_eq!(renamed.status, 200, "{}", renamed.text);
    let (project, step): (String, String) = conn
        .query_row(
            "SELECT client_module_id, key FROM project_milestone WHERE done_on IS NULL ORDER BY id LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let tick = app
        .post(
            &format!("/api/client-modules/{project}/milestones"),
            &owner,
            json!({ "key": step, "done": true }),
        )
        .await;
    assert_eq!(tick.status, 200, "{}", tick.text);
    let other: String = conn
        .query_row(
            "SELECT client_module_id FROM project_milestone WHERE done_on IS NULL AND client_module_id <> ?1 ORDER BY id LIMIT 1",
            [&project],
            |r| r.get(0),
        )
        .unwrap();
    let stop = app
        .patch(
            &format!("/api/client-modules/{other}"),
            &owner,
            json!({ "active": 0 }),
        )
        .await;
    assert_eq!(stop.status, 200, "{}", stop.text);
    pipeline_writes(&app, &owner).await;
    // A ticket opened (in Malayalam and English), its subject edited, another resolved, a
    // client's phone changed: the searches of V28 find them as the plain queries do.
    let opened = app
        .post(
            "/api/tickets",
            &owner,
            json!({ "client_id": client, "subject": "പ്രിന്റർ PRINTER jam at the ക്യാഷ് counter",
                    "description": "Printer 50% done_then stuck \\ \"quoted\"" }),
        )
        .await;
    assert_eq!(opened.status, 201, "{}", opened.text);
    let ticket = opened.body["id"].as_str().unwrap().to_string();
    let edited = app
        .patch(
            &format!("/api/tickets/{ticket}"),
            &owner,
            json!({ "subject": "Zqxprinter മാറ്റി ക്യാഷ് counter", "description": "" }),
        )
        .await;
    assert_eq!(edited.status, 200, "{}", edited.text);
    let open_one: String = conn
        .query_row(
            "SELECT id FROM ticket WHERE status = 'open' AND id <> ?1 ORDER BY id LIMIT 1",
            [&ticket],
            |r| r.get(0),
        )
        .unwrap();
    let resolved = app
        .patch(
            &format!("/api/tickets/{open_one}"),
            &owner,
            json!({ "status": "resolved", "subject": "Resolved: printer zqx fixed" }),
        )
        .await;
    assert_eq!(resolved.status, 200, "{}", resolved.text);
    let phoned = app
        .patch(
            &format!("/api/clients/{client}"),
            &owner,
            json!({ "phone": "+91 94470-99999" }),
        )
        .await;
    assert_eq!(phoned.status, 200, "{}", phoned.text);
    // What the tiles keep (migrations/V29): a quotation sent and one lost, a subscription renewed
    // (its next renewal moved on) and one added, a client given to another owner and one lost,
    // a ticket opened and one resolved.
    for (i, action) in ["mark-sent", "lost"].into_iter().enumerate() {
        let quote = app
            .post(
                "/api/documents",
                &owner,
                json!({ "type": "QUOTATION", "client_id": client, "lines": [{ "module_id": module, "qty": i + 1 }] }),
            )
            .await;
        assert_eq!(quote.status, 201, "{}", quote.text);
        let id = quote.body["id"].as_str().unwrap().to_string();
        let issued = app
            .post(&format!("/api/documents/{id}/issue"), &owner, json!({}))
            .await;
        assert_eq!(issued.status, 200, "{}", issued.text);
        let acted = app
            .post(&format!("/api/documents/{id}/{action}"), &owner, json!({}))
            .await;
        assert_eq!(acted.status, 200, "{action}: {}", acted.text);
    }
    let (renewing, renewal): (String, String) = conn
        .query_row(
            "SELECT id, next_renewal FROM client_module WHERE active = 1 AND next_renewal >= ?1 ORDER BY next_renewal, id LIMIT 1",
            [&today],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let next = chrono::NaiveDate::parse_from_str(&renewal, "%Y-%m-%d").unwrap() + chrono::Months::new(12);
    let renewed = app
        .patch(
            &format!("/api/client-modules/{renewing}"),
            &owner,
            json!({ "next_renewal": next.to_string() }),
        )
        .await;
    assert_eq!(renewed.status, 200, "{}", renewed.text);
    let soon = chrono::NaiveDate::parse_from_str(&today, "%Y-%m-%d").unwrap() + chrono::Days::new(10);
    let unsubscribed = strings(
        &conn,
        &format!(
            "SELECT id FROM module WHERE id NOT IN (SELECT module_id FROM client_module WHERE client_id = '{client}') ORDER BY id LIMIT 1"
        ),
    );
    if let Some(other_module) = unsubscribed.first() {
        let added = app
            .post(
                "/api/client-modules",
                &owner,
                json!({ "client_id": client, "module_id": other_module, "next_renewal": soon.to_string() }),
            )
            .await;
        assert_eq!(added.status, 201, "{}", added.text);
    }
    let (moved, lost): (String, String) = conn
        .query_row(
            "SELECT (SELECT c.id FROM client c JOIN client_module cm ON cm.client_id = c.id
                      WHERE cm.active = 1 AND c.status = 'active' AND c.id <> ?1 ORDER BY c.id LIMIT 1),
                    (SELECT c.id FROM client c JOIN client_module cm ON cm.client_id = c.id
                      WHERE cm.active = 1 AND c.status = 'active' AND c.id <> ?1 ORDER BY c.id DESC LIMIT 1)",
            [&client],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let other_owner = strings(
        &conn,
        &format!(
            "SELECT id FROM staff WHERE id IS NOT (SELECT owner_id FROM client WHERE id = '{moved}') ORDER BY id LIMIT 1"
        ),
    )
    .remove(0);
    let given = app
        .patch(
            &format!("/api/clients/{moved}/owner"),
            &owner,
            json!({ "owner_id": other_owner }),
        )
        .await;
    assert_eq!(given.status, 200, "{}", given.text);
    let marked = app
        .patch(
            &format!("/api/clients/{lost}"),
            &owner,
            json!({ "status": "lost" }),
        )
        .await;
    assert_eq!(marked.status, 200, "{}", marked.text);
    let day_end = app
        .post(
            "/api/tickets",
            &owner,
            json!({ "client_id": client, "subject": "Day-end not closing" }),
        )
        .await;
    assert_eq!(day_end.status, 201, "{}", day_end.text);
    let open_ticket: String = conn
        .query_row(
            "SELECT id FROM ticket WHERE resolved_on IS NULL ORDER BY opened_on, id LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let resolved_one = app
        .patch(
            &format!("/api/tickets/{open_ticket}"),
            &owner,
            json!({ "status": "resolved" }),
        )
        .await;
    assert_eq!(resolved_one.status, 200, "{}", resolved_one.text);
    check_all(&app);
    // A backup (VACUUM INTO) keeps the tickets' rowids, which the text index of V28 is keyed by:
    // with a gap in them (a ticket removed, which renumbering would close), the copy answers
    // every search as the plain queries do.
    conn.execute_batch(
        "DELETE FROM ticket_event WHERE ticket_id = (SELECT id FROM ticket ORDER BY rowid LIMIT 1 OFFSET 3);
         DELETE FROM ticket WHERE rowid = (SELECT rowid FROM ticket ORDER BY rowid LIMIT 1 OFFSET 3);",
    )
    .unwrap();
    let copy = app.dir.path().join("copy.db");
    backoffice::plumbing::db::backup::backup_file(&app.dir.path().join("test.db"), &copy).unwrap();
    check_search(&Connection::open(&copy).unwrap());

    let found = app.get("/api/documents?q=zyxwvu", &owner).await;
    assert_eq!(
        found.body["total"].as_i64(),
        Some(
            conn.query_row(
                "SELECT COUNT(*) FROM document WHERE client_id = ?1",
                [&client],
                |r| r.get(0)
            )
            .unwrap()
        )
    );
    let start = app
        .patch(
            &format!("/api/client-modules/{other}"),
            &owner,
            json!({ "active": 1 }),
        )
        .await;
    assert_eq!(start.status, 200, "{}", start.text);
    check_kept_tables(&conn);
}

/// The statement of account ties to the rest of the books (issue 35): for every client of a demo
/// office, the closing at today is its invoices' outstanding less its unallocated advances, as
/// the client page's `owes` says, and the year-end list names exactly those that owe. Two legacy invoices (one part paid before the move, one fully)
/// join the demo's history, as an import writes them.
#[tokio::test]
async fn every_clients_statement_closes_at_what_it_owes_less_its_advances() {
    let app = TestApp::new();
    fill_demo(&app);
    let conn = app.sql();
    let clients = strings(&conn, "SELECT id FROM client ORDER BY id");
    for (n, (total, paid)) in [(5_000_000_i64, 1_500_000_i64), (2_000_000, 2_000_000)]
        .into_iter()
        .enumerate()
    {
        conn.execute(
            "INSERT INTO document (id, type, status, client_id, doc_no, doc_date, source, subtotal, total, legacy_paid, created_at, updated_at)
             VALUES (?1, 'INVOICE', 'issued', ?2, ?3, '2019-06-01', 'legacy', ?4, ?4, ?5, '2019-06-01T00:00:00Z', '2019-06-01T00:00:00Z')",
            rusqlite::params![format!("legacy{n}"), clients[n], format!("OLD/{n}"), total, paid],
        )
        .unwrap();
    }
    let today = backoffice::plumbing::db::settings::office_today(&conn).unwrap();
    let period = backoffice::statements::rules::period(None, None, today).unwrap();
    let mut owing = vec![];
    for id in &clients {
        let client = backoffice::clients::store::get(&conn, id, None).unwrap().unwrap();
        let statement = backoffice::statements::statement(&conn, &client, period).unwrap();
        let owes = backoffice::clients::owes::owes(&conn, id, today).unwrap();
        assert_eq!(
            statement.closing,
            owes.outstanding - owes.unallocated,
            "{} ({id})",
            client.name
        );
        let rows = &statement.rows;
        let mut balance = statement.opening;
        for r in rows {
            balance += r.debit - r.credit;
            assert_eq!(r.balance, balance, "{id} {r:?}");
        }
        assert_eq!(
            statement.closing,
            statement.opening + statement.totals.debit - statement.totals.credit
        );
        if statement.closing > 0 {
            owing.push((id.clone(), statement.closing));
        }
    }
    assert!(owing.len() > 5, "the demo office has clients that owe: {owing:?}");
    // The year-end run's list, made in one pass over the office, is exactly the clients whose
    // statement closes above zero, at that closing.
    let year_end = backoffice::statements::year_end::year_end(&conn, None).unwrap();
    assert_eq!(year_end.to, today.to_string());
    let mut listed: Vec<(String, i64)> = year_end
        .rows
        .into_iter()
        .map(|r| (r.client_id, r.closing))
        .collect();
    listed.sort();
    assert_eq!(listed, owing);
}

/// The pipeline as the store derived it before migrations/V27 kept its rows (the reference): the
/// open quotations and bare leads of `quotes` and `leads` (SQL conditions), as one list `p`.
fn pipeline_before(quotes: &str, leads: &str) -> String {
    format!(
        "(SELECT d.id AS row_id, d.client_id, c.name AS client_name, c.owner_id, d.id AS document_id,
                 d.doc_no, d.status AS doc_status, d.total,
                 CASE WHEN d.status = 'lost' OR c.status = 'lost' THEN 'Lost' ELSE 'Quoted/Waiting' END AS stage,
                 COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = d.id AND e.kind = 'sent'),
                          d.doc_date) AS anchor,
                 r.id AS reminder_id, r.due_on AS reminder_due_on
          FROM document d JOIN client c ON c.id = d.client_id
               LEFT JOIN reminder r ON r.id = (SELECT r2.id FROM reminder r2 WHERE r2.doc_id = d.id
                     AND r2.rule_kind = 'quote_followup' AND r2.status IN ('open', 'failed') ORDER BY r2.id DESC LIMIT 1)
          WHERE d.type = 'QUOTATION' AND c.status <> 'inactive' AND ({quotes})
            AND NOT EXISTS (SELECT 1 FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled')
          UNION ALL
          SELECT c.id, c.id, c.name, c.owner_id, NULL, NULL, NULL, NULL,
                 CASE WHEN c.status = 'lost' THEN 'Lost' ELSE 'Enquiry' END, c.created_at, NULL, NULL
          FROM client c
          WHERE (c.status = 'lead' OR c.id IN (SELECT client_id FROM bare_client) AND c.imported_at IS NULL)
            AND ({leads})
            AND NOT EXISTS (SELECT 1 FROM document q WHERE q.client_id = c.id AND +q.type = 'QUOTATION'
                            AND q.status NOT IN ('draft', 'cancelled'))
         ) p LEFT JOIN staff o ON o.id = p.owner_id"
    )
}

/// The pipeline (issue 39): the rows migrations/V27 keeps equal those derived from the tables,
/// with their days at the kept offset (the latest one set); and every list (open, lost, all;
/// every book, an owner, a search; each sort; a page and every row) answers what the query
/// before V27 answered, in the same order with the same total, whether it reads the kept days or
/// derives them (as it does while the offset in force is not the kept one).
fn check_pipeline(conn: &Connection) {
    use backoffice::pipeline::rules;
    use backoffice::pipeline::store::{self, PipelineFilter, PipelineRow, Show};
    use backoffice::plumbing::clock;
    let ladder = backoffice::pipeline::ladder(conn).unwrap();
    let latest: String = conn
        .query_row(
            "SELECT json_extract(value, '$') FROM setting WHERE key = 'company.utc_offset'
              ORDER BY effective_from DESC, id DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let kept = store::kept_day_offset(conn).unwrap();
    assert_eq!(
        kept,
        clock::parse_offset(&latest).map(|o| o.local_minus_utc()),
        "the kept days are for the latest offset, {latest}"
    );
    let kept_seconds = kept.unwrap();
    let all = pipeline_before("d.status IN ('issued', 'sent', 'lost')", "c.status <> 'inactive'");
    assert_eq!(
        rows(
            conn,
            "SELECT row_id, client_id, document_id, lost, anchor, day FROM pipeline_entry ORDER BY row_id"
        ),
        rows(
            conn,
            &format!(
                "SELECT p.row_id, p.client_id, p.document_id, p.stage = 'Lost', p.anchor,
                        CASE WHEN length(p.anchor) = 10 THEN p.anchor ELSE date(p.anchor, '{kept_seconds:+} seconds') END
                   FROM {all} ORDER BY p.row_id"
            )
        ),
        "the kept pipeline rows"
    );

    let shows = [
        (
            Show::Open,
            pipeline_before(
                "d.status IN ('issued', 'sent') AND c.status <> 'lost'",
                "c.status NOT IN ('lost', 'inactive')",
            ),
        ),
        (
            Show::Lost,
            pipeline_before(
                "d.status IN ('issued', 'sent', 'lost') AND (d.status = 'lost' OR c.status = 'lost')",
                "c.status = 'lost'",
            ),
        ),
        (Show::All, all.clone()),
    ];
    let old_sorts = [
        ("client_name", "p.client_name COLLATE NOCASE"),
        ("docNo", "p.doc_no"),
        ("total", "p.total"),
        (
            "stage",
            "CASE p.stage WHEN 'Enquiry' THEN 0 WHEN 'Quoted/Waiting' THEN 1 ELSE 2 END",
        ),
        ("age", "-julianday(p.anchor)"),
        ("owner_name", "o.name COLLATE NOCASE"),
    ];
    let staff = strings(conn, "SELECT id FROM staff ORDER BY id");
    let owner = strings(
        conn,
        "SELECT owner_id FROM client WHERE owner_id IS NOT NULL GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1",
    )
    .remove(0);
    // (book, owner filter, search)
    let mut readers: Vec<(Option<String>, Option<String>, Option<&str>)> = vec![
        (None, None, None),
        (None, Some(owner.clone()), None),
        (None, None, Some("scb")),
        (None, Some(owner.clone()), Some("QT/")),
        (None, None, Some("no such society")),
    ];
    for s in &staff {
        readers.push((Some(s.clone()), None, None));
    }
    readers.push((Some(owner.clone()), Some(staff[0].clone()), Some("a")));
    let mut seen = [0usize; 3];
    for (i, (show, from)) in shows.iter().enumerate() {
        for (book, owner_id, q) in &readers {
            let mut wheres = vec!["1".to_string()];
            let mut values: Vec<rusqlite::types::Value> = vec![];
            if book.is_none()
                && let Some(o) = owner_id
            {
                wheres.push("p.owner_id = ?".into());
                values.push(o.clone().into());
            }
            if let Some(q) = q {
                wheres.push("(p.client_name LIKE ? ESCAPE '\\' OR p.doc_no LIKE ? ESCAPE '\\')".into());
                let pattern = backoffice::plumbing::db::query::like_contains(q);
                values.push(pattern.clone());
                values.push(pattern);
            }
            if let Some(b) = book {
                wheres.push("p.client_id IN (SELECT id FROM client WHERE owner_id = ?)".into());
                values.push(b.clone().into());
            }
            let sorts = std::iter::once(None).chain(
                old_sorts
                    .iter()
                    .flat_map(|(name, _)| [Some(name.to_string()), Some(format!("-{name}"))]),
            );
            for sort in sorts {
                let order = match &sort {
                    None => {
                        let direction = if *show == Show::Lost { "DESC" } else { "ASC" };
                        format!(
                            "CASE WHEN length(p.anchor) = 10 THEN p.anchor ELSE date(p.anchor, '{:+} seconds') END {direction}, p.row_id {direction}",
                            ladder.offset.local_minus_utc()
                        )
                    }
                    Some(s) => {
                        let (name, direction) = match s.strip_prefix('-') {
                            Some(n) => (n, "DESC"),
                            None => (s.as_str(), "ASC"),
                        };
                        let (_, expression) = old_sorts.iter().find(|(n, _)| *n == name).unwrap();
                        format!("{expression} {direction}, p.row_id {direction}")
                    }
                };
                let sql = format!(
                    "SELECT p.row_id, p.client_id, p.client_name, p.owner_id, o.name, p.document_id, p.doc_no,
                            p.doc_status, p.total, p.stage, p.anchor, p.reminder_id, p.reminder_due_on
                       FROM {from} WHERE {} ORDER BY {order}",
                    wheres.join(" AND ")
                );
                let mut stmt = conn.prepare(&sql).unwrap();
                let want: Vec<String> = stmt
                    .query_map(rusqlite::params_from_iter(values.iter()), |r| {
                        let stage: String = r.get(9)?;
                        let anchor: String = r.get(10)?;
                        let (began, sent) = match clock::date(&anchor) {
                            Some(issued) => (issued, false),
                            None => (
                                clock::office_date(&anchor, ladder.offset).unwrap_or(ladder.today),
                                true,
                            ),
                        };
                        let chase = rules::chase(&stage, sent, began, &ladder.offsets, ladder.today);
                        Ok(format!(
                            "{:?}",
                            PipelineRow {
                                client_id: r.get(1)?,
                                client_name: r.get(2)?,
                                owner_id: r.get(3)?,
                                owner_name: r.get(4)?,
                                document_id: r.get(5)?,
                                doc_no: r.get(6)?,
                                doc_status: r.get(7)?,
                                total: r.get(8)?,
                                stage,
                                age: chase.age,
                                band: chase.band.to_string(),
                                next_action: chase.next_action,
                                next_on: chase.next_on.map(|d| d.to_string()),
                                reminder_id: r.get(11)?,
                                reminder_due_on: r.get(12)?,
                            }
                        ))
                    })
                    .unwrap()
                    .map(Result::unwrap)
                    .collect();
                seen[i] = seen[i].max(want.len());
                let filter = || PipelineFilter {
                    show: *show,
                    q: q.map(str::to_string),
                    owner_id: owner_id.clone(),
                    book: book.clone(),
                };
                // As the handler reads it, and with the days derived (the offset in force not
                // the kept one).
                let listings = [
                    ("listing", backoffice::pipeline::listing(conn, filter()).unwrap()),
                    ("derived days", store::list(filter(), ladder.clone(), None)),
                ];
                let what = format!("{show:?} book {book:?} owner {owner_id:?} q {q:?} sort {sort:?}");
                for (how, listing) in listings {
                    let mut got = vec![];
                    listing
                        .each(conn, sort.as_deref(), |r| {
                            got.push(format!("{r:?}"));
                            Ok(())
                        })
                        .unwrap();
                    assert_eq!(got, want, "{how}: every row of {what}");
                }
                for n in [1, 2] {
                    let page = Page {
                        page: n,
                        per_page: 50,
                        after: None,
                        sort: sort.clone(),
                    };
                    let got = backoffice::pipeline::listing(conn, filter())
                        .unwrap()
                        .page(conn, &page)
                        .unwrap();
                    let start = want.len().min(50 * (n as usize - 1));
                    assert_eq!(
                        (
                            got.total,
                            got.rows.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>()
                        ),
                        (
                            want.len() as i64,
                            want[start..(start + 50).min(want.len())].to_vec()
                        ),
                        "page {n} of {what}"
                    );
                }
            }
        }
    }
    assert!(
        seen.iter().all(|n| *n > 0),
        "the demo office has open, lost and all conversations: {seen:?}"
    );
}

/// Writes that move the pipeline, through the API: quotations issued, sent, accepted, converted
/// (and the conversion cancelled), lost; a lead made, a client lost and one made inactive; the
/// follow-up reminders raised and one dismissed; a `sent` moment moved; the office's offset set
/// and set back, the pipeline checked in between.
async fn pipeline_writes(app: &TestApp, owner: &str) {
    let conn = app.sql();
    let clients = strings(
        &conn,
        "SELECT id FROM client WHERE status = 'active' ORDER BY id LIMIT 6",
    );
    let module = strings(
        &conn,
        "SELECT module_id FROM module_price GROUP BY module_id HAVING MIN(price) > 0 ORDER BY module_id LIMIT 1",
    )
    .remove(0);
    let mut quotes = vec![];
    for client in &clients {
        let draft = app
            .post(
                "/api/documents",
                owner,
                json!({ "type": "QUOTATION", "client_id": client, "lines": [{ "module_id": module, "qty": 1 }] }),
            )
            .await;
        assert_eq!(draft.status, 201, "{}", draft.text);
        let id = draft.body["id"].as_str().unwrap().to_string();
        let issued = app
            .post(&format!("/api/documents/{id}/issue"), owner, json!({}))
            .await;
        assert_eq!(issued.status, 200, "{}", issued.text);
        quotes.push(id);
    }
    let act = |doc: &str, action: &str, body: serde_json::Value| {
        let path = format!("/api/documents/{doc}/{action}");
        async move {
            let reply = app.post(&path, owner, body).await;
            assert_eq!(reply.status, 200, "{path}: {}", reply.text);
            reply.body
        }
    };
    for q in &quotes[..5] {
        act(q, "mark-sent", json!({})).await;
    }
    act(&quotes[1], "accept", json!({})).await;
    act(&quotes[2], "convert", json!({ "to": "INVOICE" })).await;
    act(&quotes[3], "lost", json!({})).await;
    // A conversion issued and cancelled: the quotation is open again.
    let proforma = act(&quotes[4], "convert", json!({ "to": "PROFORMA" })).await;
    let proforma = proforma["id"].as_str().unwrap().to_string();
    act(&proforma, "issue", json!({})).await;
    act(&proforma, "cancel", json!({ "reason": "Wrong modules" })).await;
    conn.execute(
        "UPDATE document_event SET at = '2020-01-01T20:00:00Z' WHERE document_id = ?1 AND kind = 'sent'",
        [&quotes[0]],
    )
    .unwrap();
    for body in [
        json!({ "name": "Chelannur Lead SCB", "state_code": "32", "status": "lead" }),
        json!({ "name": "Kunnamangalam Stores", "state_code": "32" }),
    ] {
        let made = app.post("/api/clients", owner, body).await;
        assert_eq!(made.status, 201, "{}", made.text);
    }
    for (client, status) in [(&clients[0], "lost"), (&clients[5], "inactive")] {
        let changed = app
            .patch(
                &format!("/api/clients/{client}"),
                owner,
                json!({ "status": status }),
            )
            .await;
        assert_eq!(changed.status, 200, "{}", changed.text);
    }
    let scan = app.post("/api/jobs/daily-scan", owner, json!({})).await;
    assert_eq!(scan.status, 200, "{}", scan.text);
    let reminder: Option<String> = conn
        .query_row(
            "SELECT id FROM reminder WHERE rule_kind = 'quote_followup' AND status = 'open' ORDER BY id LIMIT 1",
            [],
            |r| r.get(0),
        )
        .ok();
    if let Some(reminder) = reminder {
        let dismissed = app
            .post(&format!("/api/reminders/{reminder}/dismiss"), owner, json!({}))
            .await;
        assert_eq!(dismissed.status, 200, "{}", dismissed.text);
    }
    for offset in ["-03:00", "+05:30"] {
        app.set_company(owner, json!({ "utc_offset": offset })).await;
        check_pipeline(&conn);
    }
}
/// The texts a search check looks for: fixed ones (one and two characters, case, `%`, `_`,
/// `\`, quotes, nothing found) and pieces of what the office holds, cut at several places and
/// in both cases.
fn search_texts(conn: &Connection, sql: &str) -> Vec<String> {
    let mut texts: Vec<String> = [
        "a",
        "E",
        "pr",
        "PR",
        "in",
        "printer",
        "PRINTER",
        "Printer not",
        "%",
        "_",
        "%a",
        "a_b",
        "\\",
        "\"",
        "\"day",
        "day-end",
        "zzqx",
        "00",
        "-0",
        "/2",
        "27-0004",
        "26-27",
        "0001",
        "rct/",
        "ക്യാ",
        "പ്രി",
        "ന്റർ p",
        "qwerty",
        "zqxprinter",
        "ZQX",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for text in strings(conn, sql) {
        let chars: Vec<char> = text.chars().collect();
        for (start, len) in [(0, 3), (2, 5), (5, 9), (1, 2), (4, 12)] {
            if start + len <= chars.len() {
                let piece: String = chars[start..start + len].iter().collect();
                texts.push(piece.to_uppercase());
                texts.push(piece);
            }
        }
    }
    texts.sort();
    texts.dedup();
    texts
}

/// The searches of issue 39 (migrations/V28) answer what the plain queries over the base tables
/// answered (kept here as the reference): the ticket list searched (its page in the list's
/// order and sorted, its total, its chips' counts), and the global search's tickets and
/// payments, for many texts, in every book; and the receipt numbers' suffixes and the tickets'
/// text index hold one entry set per row.
fn check_search(conn: &Connection) {
    use backoffice::tickets::store::TicketFilter;
    let kept = rows(
        conn,
        "SELECT suffix, payment_id FROM payment_no_search ORDER BY 1, 2",
    );
    let truth = rows(
        conn,
        "SELECT lower(substr(p.receipt_no, s.n)), p.id FROM payment p JOIN search_position s ON s.n <= length(p.receipt_no) ORDER BY 1, 2",
    );
    assert_eq!(kept, truth, "payment_no_search");
    assert_eq!(
        rows(conn, "SELECT id FROM ticket_text_docsize ORDER BY 1"),
        rows(conn, "SELECT rowid FROM ticket ORDER BY 1"),
        "ticket_text"
    );
    let staff = strings(conn, "SELECT id FROM staff ORDER BY id");
    let books: Vec<Option<String>> = std::iter::once(None).chain(staff.into_iter().map(Some)).collect();
    let texts = search_texts(
        conn,
        "SELECT subject FROM ticket WHERE rowid % 37 = 1 UNION ALL SELECT description FROM ticket WHERE rowid % 41 = 2 AND description IS NOT NULL
         UNION ALL SELECT name FROM client WHERE rowid % 9 = 1 UNION ALL SELECT receipt_no FROM payment WHERE rowid % 97 = 3",
    );
    let escaped = |q: &str| {
        format!(
            "%{}%",
            q.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
        )
    };
    let mut found = 0;
    for book in &books {
        for q in &texts {
            let pattern = escaped(q.trim());
            let mut stmt = conn
                .prepare_cached(
                    "SELECT t.status, t.opened_on, t.id, t.subject FROM ticket t
                      WHERE (t.subject LIKE ?1 ESCAPE '\\' OR t.description LIKE ?1 ESCAPE '\\'
                             OR t.client_id IN (SELECT id FROM client WHERE name LIKE ?1 ESCAPE '\\'))
                        AND (?2 IS NULL OR t.assignee_id = ?2 OR t.client_id IN (SELECT id FROM client WHERE owner_id = ?2))",
                )
                .unwrap();
            let matches: Vec<(String, String, String, String)> = stmt
                .query_map(rusqlite::params![pattern, book], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            found += matches.len();
            let status_count =
                |group: &[&str]| matches.iter().filter(|m| group.contains(&m.0.as_str())).count() as i64;
            for chip in ["all", "still_open", "resolved"] {
                let group: &[&str] = match chip {
                    "all" => &["open", "in_progress", "waiting_on_client", "resolved", "closed"],
                    "still_open" => &["open", "in_progress", "waiting_on_client"],
                    _ => &["resolved"],
                };
                let mut want: Vec<&(String, String, String, String)> =
                    matches.iter().filter(|m| group.contains(&m.0.as_str())).collect();
                want.sort_by(|a, b| (&a.1, &a.2).cmp(&(&b.1, &b.2)));
                if chip != "still_open" {
                    want.reverse();
                }
                let filter = TicketFilter {
                    chip: chip.into(),
                    search: Some(q.clone()),
                    book: book.clone(),
                    ..Default::default()
                };
                for n in [1, 2] {
                    let listed = backoffice::tickets::list(conn, &filter, &page(n)).unwrap();
                    let start = ((n - 1) * 50) as usize;
                    let want_ids: Vec<&String> = want.iter().skip(start).take(50).map(|m| &m.2).collect();
                    let got_ids: Vec<&String> = listed.page.rows.iter().map(|t| &t.id).collect();
                    assert_eq!(got_ids, want_ids, "{q:?} {chip} page {n} in {book:?}");
                    assert_eq!(listed.page.total, want.len() as i64, "{q:?} {chip} in {book:?}");
                    assert_eq!(listed.counts["all"], matches.len() as i64, "{q:?} in {book:?}");
                    assert_eq!(
                        listed.counts["still_open"],
                        status_count(&["open", "in_progress", "waiting_on_client"]),
                        "{q:?} in {book:?}"
                    );
                    for status in ["open", "in_progress", "waiting_on_client", "resolved", "closed"] {
                        assert_eq!(
                            listed.counts[status],
                            status_count(&[status]),
                            "{q:?} {status} in {book:?}"
                        );
                    }
                }
                // Sorted by subject: the list's own query with the index of V28 in its WHERE.
                let sorted = backoffice::tickets::list(
                    conn,
                    &filter,
                    &Page {
                        sort: Some("subject".into()),
                        ..page(1)
                    },
                )
                .unwrap();
                let mut by_subject = want.clone();
                by_subject.sort_by(|a, b| {
                    a.3.to_ascii_lowercase()
                        .cmp(&b.3.to_ascii_lowercase())
                        .then_with(|| a.2.cmp(&b.2))
                });
                let want_ids: Vec<&String> = by_subject.iter().take(50).map(|m| &m.2).collect();
                let got_ids: Vec<&String> = sorted.page.rows.iter().map(|t| &t.id).collect();
                assert_eq!(got_ids, want_ids, "{q:?} {chip} by subject in {book:?}");
                assert_eq!(
                    sorted.page.total,
                    want.len() as i64,
                    "{q:?} {chip} by subject in {book:?}"
                );
            }
            if q.trim().chars().count() < 2 {
                continue;
            }
            let q = q.trim();
            // The global search's tickets: by subject, still open first, then newest first.
            let want = strings_with(
                conn,
                "SELECT t.id FROM ticket t WHERE t.subject LIKE ?1 ESCAPE '\\'
                   AND (?2 IS NULL OR t.assignee_id = ?2 OR t.client_id IN (SELECT id FROM client WHERE owner_id = ?2))
                 ORDER BY t.status NOT IN ('open', 'in_progress', 'waiting_on_client'), t.opened_on DESC, t.id DESC LIMIT 6",
                &escaped(q),
                book,
            );
            let got: Vec<String> = backoffice::search::store::tickets(conn, q, book.as_deref())
                .unwrap()
                .into_iter()
                .map(|h| h.id)
                .collect();
            assert_eq!(got, want, "search tickets {q:?} in {book:?}");
            // Its payments by a part of a receipt number (text not starting with a letter).
            if !q.starts_with(|c: char| c.is_ascii_alphabetic()) && q.chars().any(|c| c.is_ascii_digit()) {
                let want = strings_with(
                    conn,
                    "SELECT p.id FROM payment p WHERE p.receipt_no LIKE ?1 ESCAPE '\\'
                       AND (?2 IS NULL OR p.client_id IN (SELECT id FROM client WHERE owner_id = ?2))
                     ORDER BY p.receipt_no DESC LIMIT 6",
                    &escaped(q),
                    book,
                );
                let got: Vec<String> = backoffice::search::store::payments(conn, q, book.as_deref())
                    .unwrap()
                    .into_iter()
                    .map(|h| h.id)
                    .collect();
                assert_eq!(got, want, "search payments {q:?} in {book:?}");
            }
        }
    }
    assert!(found > 1000, "the searches found too little: {found}");
    check_phone_search(conn, &books);
}

/// The phones' digit suffixes (V28) equal the phones' digits, and a phone search finds the
/// clients the plain LIKE over every client and contact found.
fn check_phone_search(conn: &Connection, books: &[Option<String>]) {
    use backoffice::search::rules::{phone_digits, phone_pattern};
    let phones: Vec<(String, String, String)> = {
        let mut stmt = conn
            .prepare(
                "SELECT id, '', phone FROM client WHERE phone IS NOT NULL
                 UNION ALL SELECT client_id, id, phone FROM contact WHERE phone IS NOT NULL",
            )
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let mut truth: Vec<String> = vec![];
    for (client, contact, phone) in &phones {
        let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
        for start in 0..digits.len().saturating_sub(5) {
            truth.push(format!("{:?}|{:?}|{:?}", &digits[start..], client, contact));
        }
    }
    truth.sort();
    let kept: Vec<String> = {
        let mut stmt = conn
            .prepare("SELECT suffix, client_id, contact_id FROM phone_search")
            .unwrap();
        let mut kept: Vec<String> = stmt
            .query_map([], |r| {
                Ok(format!(
                    "{:?}|{:?}|{:?}",
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?
                ))
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        kept.sort();
        kept
    };
    assert_eq!(kept, truth, "phone_search");
    let mut queries: Vec<String> = vec!["944709".into(), "000000".into(), "9447099999".into()];
    for (i, (_, _, phone)) in phones.iter().enumerate().filter(|(i, _)| i % 7 == 0) {
        let digits = phone_digits(phone);
        if digits.len() >= 8 {
            queries.push(digits[i % 3..].to_string());
            queries.push(digits[..8].to_string());
        }
    }
    assert!(queries.len() > 10, "too few phones");
    for book in books {
        for digits in &queries {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT c.id, c.phone, 0, c.name FROM client c
                      WHERE c.phone LIKE ?1 AND (?2 IS NULL OR c.owner_id = ?2)
                     UNION ALL
                     SELECT c.id, k.phone, 1, c.name FROM contact k JOIN client c ON c.id = k.client_id
                      WHERE k.phone LIKE ?1 AND (?2 IS NULL OR c.owner_id = ?2)
                     ORDER BY 4 COLLATE NOCASE, 1, 3",
                )
                .unwrap();
            let mut want: Vec<(String, i64)> = vec![];
            let rows: Vec<(String, String, i64)> = stmt
                .query_map(rusqlite::params![phone_pattern(digits), book], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            for (id, phone, contact) in rows {
                if want.len() < 6
                    && !want.iter().any(|w| w.0 == id)
                    && phone_digits(&phone).contains(digits.as_str())
                {
                    want.push((id, contact));
                }
            }
            let got: Vec<(String, i64)> =
                backoffice::search::store::clients_by_phone(conn, digits, book.as_deref())
                    .unwrap()
                    .into_iter()
                    .map(|h| (h.id, i64::from(h.matched == "contact_phone")))
                    .collect();
            assert_eq!(got, want, "phone {digits} in {book:?}");
        }
    }
}

fn strings_with(conn: &Connection, sql: &str, text: &str, book: &Option<String>) -> Vec<String> {
    let mut stmt = conn.prepare_cached(sql).unwrap();
    stmt.query_map(rusqlite::params![text, book], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// GSTR-1 (issue 39, migrations/V31): a month's documents with their lines, and its numbers,
/// off `document_gstr1` are the rows, in the order, of the queries before it (one row per line,
/// over the document table through `document_date`), in every month of the office and over a
/// whole year; the return built from them is the one built from those rows, each line a document
/// of its own (as the return was built line by line); and neither query reads a document row or
/// sorts, nor the lines' query a line row (V32).
fn check_gstr1(conn: &Connection) {
    use backoffice::gst_return::rules::ReturnDocument;
    use backoffice::gst_return::{store, tables};
    use backoffice::plumbing::clock::Month;
    let before_lines = "SELECT d.id, d.type = 'CREDIT_NOTE', d.source = 'legacy', d.doc_no, d.doc_date, d.total, d.intra_state,
                d.client_id, c.name, c.gstin, c.state_code, p.doc_no, p.doc_date, p.total, p.intra_state,
                l.position, l.sac, l.description, l.gst_rate, l.taxable, l.igst, l.cgst, l.sgst
         FROM document d
         JOIN client c ON c.id = d.client_id
         LEFT JOIN document p ON p.id = d.parent_id AND d.type = 'CREDIT_NOTE'
         JOIN document_line l ON l.document_id = d.id
         WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.doc_date BETWEEN ?1 AND ?2
           AND d.status NOT IN ('draft', 'cancelled')
         ORDER BY d.doc_date, d.doc_no, l.position";
    let one_line_document = |r: &rusqlite::Row| -> rusqlite::Result<ReturnDocument> {
        let mut d = store::return_document(r)?;
        d.lines.push(store::return_line(r, 15)?);
        Ok(d)
    };
    let before_numbers = "SELECT d.doc_no, d.type = 'CREDIT_NOTE', d.status = 'cancelled' FROM document d
         WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.doc_date BETWEEN ?1 AND ?2
           AND d.doc_no IS NOT NULL AND d.status <> 'draft'
         ORDER BY d.doc_no";
    let months = strings(
        conn,
        "SELECT DISTINCT substr(doc_date, 1, 7) FROM document
          WHERE type IN ('INVOICE', 'CREDIT_NOTE') AND doc_date IS NOT NULL ORDER BY 1",
    );
    assert!(months.len() >= 12, "{months:?}");
    let day = |d: String| NaiveDate::parse_from_str(&d, "%Y-%m-%d").unwrap();
    let mut periods: Vec<(NaiveDate, NaiveDate)> = months
        .iter()
        .map(|m| {
            let first = day(format!("{m}-01"));
            (
                first,
                first
                    .checked_add_months(chrono::Months::new(1))
                    .unwrap()
                    .pred_opt()
                    .unwrap(),
            )
        })
        .collect();
    periods.push((periods[0].0, periods[11].1));
    let (mut lines, mut cancelled, mut credit_notes) = (0, 0, 0);
    for (from, to) in periods {
        let (a, b) = (from.to_string(), to.to_string());
        let want: Vec<ReturnDocument> = conn
            .prepare(before_lines)
            .unwrap()
            .query_map([&a, &b], one_line_document)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let got = store::documents(conn, from, to).unwrap();
        let flat: Vec<ReturnDocument> = got
            .iter()
            .flat_map(|d| {
                d.lines.iter().map(|l| ReturnDocument {
                    lines: vec![l.clone()],
                    ..d.clone()
                })
            })
            .collect();
        assert_eq!(format!("{flat:?}"), format!("{want:?}"), "lines {a} to {b}");
        if to
            == from
                .checked_add_months(chrono::Months::new(1))
                .unwrap()
                .pred_opt()
                .unwrap()
        {
            let period = Month::parse(&a[..7]).unwrap();
            let built = |documents: &[ReturnDocument]| {
                let g = tables::build(period, documents, &[], Some("32AAAAA0000A1Z5"), Some("32"));
                serde_json::to_string(&g).unwrap()
            };
            assert_eq!(built(&got), built(&want), "the return of {period}");
        }
        lines += flat.len();
        credit_notes += flat.iter().filter(|l| l.credit_note).count();
        let want: Vec<_> = conn
            .prepare(before_numbers)
            .unwrap()
            .query_map([&a, &b], store::issued_number)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let got = store::numbers(conn, from, to).unwrap();
        assert_eq!(format!("{got:?}"), format!("{want:?}"), "numbers {a} to {b}");
        cancelled += got.iter().filter(|n| n.cancelled).count();
    }
    assert!(
        lines > 0 && cancelled > 0 && credit_notes > 0,
        "{lines} {cancelled} {credit_notes}"
    );
    for sql in [store::DOCUMENTS, store::LINES] {
        let plan = plan(conn, sql);
        assert!(plan.contains("COVERING INDEX document_gstr1"), "{plan}");
        assert!(!plan.contains("TEMP B-TREE"), "{plan}");
    }
    let lines_plan = plan(conn, store::LINES);
    assert!(
        lines_plan.contains("COVERING INDEX document_line_doc"),
        "{lines_plan}"
    );
    let numbers_plan = plan(conn, store::NUMBERS);
    assert!(
        numbers_plan.contains("COVERING INDEX document_gstr1"),
        "{numbers_plan}"
    );
}
