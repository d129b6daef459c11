//! What migrations/V7 keeps beside the data for a large office (tallies, suffix tables for
//! substring search, what each invoice still owes, the projects board's pending counts) equals
//! what it is derived from, on a demo office and again after writes through the API; and the
//! lists, searches and reports that read it answer exactly as the plain queries over the base
//! tables do (the queries the stores ran before V7, kept here as the reference).

use crate::common::{Call, TestApp};
use axum::http::Method;
use backoffice::documents::store::DocumentFilter;
use backoffice::plumbing::db::page::Page;
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

    // The projects board and the stalled list, as the plain joins give them.
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
        let stalled: Vec<String> = projects::store::open_projects_with_activity(conn, book)
            .unwrap()
            .iter()
            .map(|(p, last)| format!("{}|{}|{:?}", p.client_module_id, p.client_name, last))
            .collect();
        let mut stmt = conn
            .prepare(
                "SELECT cm.id, c.name, COALESCE((SELECT MAX(done_on) FROM project_milestone d WHERE d.client_module_id = cm.id), substr(cm.created_at, 1, 10))
                 FROM client_module cm JOIN client c ON c.id = cm.client_id JOIN module m ON m.id = cm.module_id
                 WHERE cm.active = 1 AND (?1 IS NULL OR c.owner_id = ?1)
                   AND EXISTS (SELECT 1 FROM project_milestone p WHERE p.client_module_id = cm.id AND p.done_on IS NULL)
                 ORDER BY c.name COLLATE NOCASE, cm.id",
            )
            .unwrap();
        let want: Vec<String> = stmt
            .query_map([book], |r| {
                Ok(format!(
                    "{}|{}|{:?}",
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?
                ))
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(stalled, want, "stalled, book {book:?}");
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
    check_all(&app);

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
