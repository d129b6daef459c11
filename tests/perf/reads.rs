//! What the office reads, each with its floor: the same store functions (so the same SQL with
//! the same parameters, and the same row decoding) called directly on a read-only connection
//! to the same file, after the same session lookup the server does for every request.

use crate::http::Client;
use backoffice::documents::store::DocumentFilter;
use backoffice::plumbing::db::page::Page;
use chrono::{Datelike, NaiveDate};
use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::sync::Arc;

/// How a target applies to a scenario.
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    /// Lists, searches and page reads: p99 at most 10 ms at 16 clients.
    List,
    /// Reports: at most 100 ms.
    Report,
    /// A page of its own target: p99 at most this many ms at one client (the dashboard, the
    /// global search).
    AtOneClient(f64),
    /// Rendered documents: no target of their own.
    Render,
    /// Requests that do next to no work (health, the session): they measure the HTTP path
    /// itself, so a ratio to their floor says nothing of the SQL.
    Overhead,
}

/// The path of a scenario's call number `i`.
pub type PathOf = Arc<dyn Fn(usize) -> String + Send + Sync>;
/// A floor call: the scenario's work directly on a connection, for call number `i`.
pub type Floor = Arc<dyn Fn(&Connection, usize) + Send + Sync>;

/// One read the office does, and its floor.
pub struct ReadScenario {
    pub name: String,
    pub kind: Kind,
    pub path: PathOf,
    pub cookie: String,
    pub floor: Floor,
}

/// What the scenarios read, found in the data before anything is timed.
pub struct Fixture {
    pub today: NaiveDate,
    pub manager: String,
    pub manager_id: String,
    pub manager_hash: String,
    pub owner: String,
    pub owner_hash: String,
    /// The module with the most active subscribers.
    pub roster_module: String,
    /// The most common district and category pair.
    pub district: String,
    pub category: String,
    /// Part of an invoice number (`INV/25-26-01`) and part of a client's name.
    pub number_q: String,
    pub name_q: String,
    /// Issued invoices with three lines or more and two events or more.
    pub documents: Vec<String>,
    /// A one-page invoice and a five-page one (80 lines, made at fixture time), and a one-page
    /// invoice of a society named in Malayalam.
    pub one_page: String,
    pub five_page: String,
    pub malayalam: String,
    /// Active clients to write for, and invoices owing at least ₹100 with their client.
    pub clients: Vec<String>,
    pub owing: Vec<(String, String)>,
    /// The society with the most invoices (its ten-year statement).
    pub biggest_client: String,
    /// A module with a price today (invoice lines).
    pub priced_module: String,
    /// The last whole financial year (GST summary).
    pub fy: (NaiveDate, NaiveDate),
}

/// A read-only connection configured as the server's read pool configures its own.
pub fn reader(data: &Path) -> Connection {
    let conn = Connection::open_with_flags(
        data,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI,
    )
    .unwrap();
    backoffice::plumbing::db::configure_reader(&conn).unwrap();
    conn
}

fn token_hash(cookie: &str) -> String {
    backoffice::auth::rules::hash_token(cookie.trim_start_matches("bo_session="))
}

fn strings(conn: &Connection, sql: &str) -> Vec<String> {
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn one(conn: &Connection, sql: &str) -> String {
    strings(conn, sql)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("nothing for {sql}"))
}

impl Fixture {
    pub fn discover(data: &Path, addr: &str, owner: String, manager: String) -> Fixture {
        let conn = reader(data);
        let today = backoffice::plumbing::db::settings::office_today(&conn).unwrap();
        let fy_start = NaiveDate::from_ymd_opt(
            if today.month() >= 4 {
                today.year() - 1
            } else {
                today.year() - 2
            },
            4,
            1,
        )
        .unwrap();
        let fy = (
            fy_start,
            fy_start
                .with_year(fy_start.year() + 1)
                .unwrap()
                .pred_opt()
                .unwrap(),
        );
        let yy = |y: i32| y % 100;
        let number_q = format!("INV/{:02}-{:02}-01", yy(fy.0.year()), yy(fy.1.year()));
        // A town most names start with, searched as a lower-case part ("door" for ADOOR).
        let town = one(
            &conn,
            "SELECT substr(name, 1, instr(name, ' ') - 1) FROM client GROUP BY 1 HAVING COUNT(*) >= 20 ORDER BY 1 LIMIT 1",
        );
        let name_q = town[1..].to_lowercase();
        let (district, category): (String, String) = conn
            .query_row(
                "SELECT district, category FROM client WHERE district IS NOT NULL GROUP BY 1, 2 ORDER BY COUNT(*) DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let documents = strings(
            &conn,
            "SELECT d.id FROM document d WHERE d.type = 'INVOICE' AND d.status = 'issued'
               AND (SELECT COUNT(*) FROM document_line l WHERE l.document_id = d.id) >= 3
               AND (SELECT COUNT(*) FROM document_event e WHERE e.document_id = d.id) >= 2
             ORDER BY d.id DESC LIMIT 200",
        );
        assert!(documents.len() >= 50, "too few documents with lines and events");
        let one_page = documents[0].clone();
        let malayalam = one(
            &conn,
            "SELECT d.id FROM document d JOIN client c ON c.id = d.client_id
             WHERE d.type = 'INVOICE' AND d.status = 'issued' AND unicode(c.name) BETWEEN 3328 AND 3455
               AND (SELECT COUNT(*) FROM document_line l WHERE l.document_id = d.id) >= 3
             ORDER BY d.id DESC LIMIT 1",
        );
        let clients = strings(
            &conn,
            "SELECT id FROM client WHERE status = 'active' ORDER BY id LIMIT 3000",
        );
        let priced_module = strings(&conn, "SELECT id FROM module WHERE active = 1 ORDER BY code")
            .into_iter()
            .find(|m| {
                backoffice::catalog::store::get(&conn, m, today)
                    .unwrap()
                    .is_some_and(|m| m.price_today.is_some_and(|p| p > 0))
            })
            .expect("a module with a price today");
        let mut stmt = conn
            .prepare(
                "SELECT d.client_id, d.id FROM document d WHERE d.type = 'INVOICE' AND d.status = 'issued'
                   AND d.total - (SELECT COALESCE(SUM(a.amount + a.tds), 0) FROM payment_allocation a WHERE a.document_id = d.id) >= 10000
                   AND NOT EXISTS (SELECT 1 FROM document n WHERE n.parent_id = d.id)
                 ORDER BY d.id DESC LIMIT 3000",
            )
            .unwrap();
        let owing = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        let biggest_client = one(
            &conn,
            "SELECT client_id FROM document WHERE type = 'INVOICE' GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1",
        );
        let roster_module = one(
            &conn,
            "SELECT module_id FROM client_module WHERE active = 1 GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1",
        );
        let manager_id = one(
            &conn,
            "SELECT id FROM staff WHERE username = 'manager@demo.office'",
        );
        // The five-page invoice: 80 lines, made through the API.
        let lines: Vec<String> = (0..80)
            .map(|i| {
                format!(
                    r#"{{"description":"Data migration, batch {i} of 80: ledgers, deposits and loan accounts","qty":1,"unit_price":{}}}"#,
                    100_000 + i * 100
                )
            })
            .collect();
        let mut api = Client::connect(addr);
        let body = format!(
            r#"{{"type":"INVOICE","client_id":"{}","lines":[{}]}}"#,
            clients[0],
            lines.join(",")
        );
        let five_page = api.post("/api/documents", &manager, &body, 201).json()["id"]
            .as_str()
            .unwrap()
            .to_string();
        api.post(&format!("/api/documents/{five_page}/issue"), &manager, "", 200);
        Fixture {
            today,
            manager_hash: token_hash(&manager),
            owner_hash: token_hash(&owner),
            manager,
            manager_id,
            owner,
            roster_module,
            district,
            category,
            number_q,
            name_q,
            documents,
            one_page,
            five_page,
            malayalam,
            clients,
            owing,
            biggest_client,
            priced_module,
            fy,
        }
    }
}

fn page(n: u32) -> Page {
    Page {
        page: n,
        per_page: 50,
        after: None,
        sort: None,
    }
}

fn encode(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// The session lookup the server runs for every request.
fn session(conn: &Connection, hash: &str) {
    backoffice::auth::store::session_by_hash(conn, hash)
        .unwrap()
        .unwrap();
}

/// Every read scenario of the table, in its order.
pub fn scenarios(f: &Fixture) -> Vec<ReadScenario> {
    use backoffice::{audit, clients, documents, projects, reports};
    let mut out = vec![];
    let mut add = |name: String, kind: Kind, cookie: &str, path: PathOf, floor: Floor| {
        out.push(ReadScenario {
            name,
            kind,
            path,
            cookie: cookie.to_string(),
            floor,
        })
    };
    let mh = f.manager_hash.clone();

    let (district, category) = (f.district.clone(), f.category.clone());
    let path = format!(
        "/api/clients?district={}&category={}",
        encode(&district),
        encode(&category)
    );
    add(
        format!("client list, district {district} and category {category}"),
        Kind::List,
        &f.manager,
        Arc::new(move |_| path.clone()),
        Arc::new({
            let mh = mh.clone();
            move |c, _| {
                session(c, &mh);
                let filter = clients::store::ClientFilter {
                    district: Some(district.clone()),
                    category: Some(category.clone()),
                    ..Default::default()
                };
                clients::store::list(filter).page(c, &page(1)).unwrap();
            }
        }),
    );

    for n in [1u32, 1000] {
        let mh = mh.clone();
        add(
            format!("documents, page {n} of 50"),
            Kind::List,
            &f.manager,
            Arc::new(move |_| format!("/api/documents?page={n}&per_page=50")),
            Arc::new(move |c, _| {
                session(c, &mh);
                let list = documents::store::list(c, DocumentFilter::default())
                    .unwrap()
                    .page(c, &page(n))
                    .unwrap();
                assert_eq!(list.rows.len(), 50);
            }),
        );
    }

    // Sorted by total, largest first: the order the owner asks for when chasing money.
    for n in [1u32, 1000] {
        let mh = mh.clone();
        add(
            format!("documents by total desc, page {n} of 50"),
            Kind::List,
            &f.manager,
            Arc::new(move |_| format!("/api/documents?sort=-total&page={n}&per_page=50")),
            Arc::new(move |c, _| {
                session(c, &mh);
                let sorted = Page {
                    sort: Some("-total".into()),
                    ..page(n)
                };
                let list = documents::store::list(c, DocumentFilter::default())
                    .unwrap()
                    .page(c, &sorted)
                    .unwrap();
                assert_eq!(list.rows.len(), 50);
            }),
        );
    }

    // The CSV twin: every invoice of the financial year, streamed.
    {
        let mh = mh.clone();
        let (from, to) = f.fy;
        add(
            "documents.csv, the invoices of a financial year".into(),
            Kind::List,
            &f.manager,
            Arc::new(move |_| format!("/api/documents.csv?type=INVOICE&from={from}&to={to}")),
            Arc::new(move |c, _| {
                session(c, &mh);
                let filter = invoices_between(from, to);
                let mut rows = 0;
                documents::store::list(c, filter)
                    .unwrap()
                    .each(c, None, |_| {
                        rows += 1;
                        Ok(())
                    })
                    .unwrap();
                assert!(rows > 0);
            }),
        );
    }

    // Its Excel twin (issue 36): the same rows through the workbook writer. The floor is the same
    // work in this process: the rows read, written as the CSV's lines and packed as a workbook.
    {
        let mh = mh.clone();
        let (from, to) = f.fy;
        add(
            "documents.xlsx, the invoices of a financial year".into(),
            Kind::Report,
            &f.manager,
            Arc::new(move |_| format!("/api/documents.xlsx?type=INVOICE&from={from}&to={to}")),
            Arc::new(move |c, _| {
                session(c, &mh);
                let filter = invoices_between(from, to);
                let line = backoffice::plumbing::http::csv::line;
                let mut csv = line(&[
                    "Number",
                    "Type",
                    "Client",
                    "Date",
                    "Due",
                    "Status",
                    "Payment",
                    "Total",
                    "Outstanding",
                ]);
                documents::store::list(c, filter)
                    .unwrap()
                    .each(c, None, |r| {
                        let text = |v: &Option<String>| v.clone().unwrap_or_default();
                        let total = backoffice::plumbing::money::decimal(r.total);
                        let outstanding = r
                            .outstanding
                            .map(backoffice::plumbing::money::decimal)
                            .unwrap_or_default();
                        csv.push_str(&line(&[
                            &text(&r.doc_no),
                            &r.doc_type,
                            &r.client_name,
                            &text(&r.doc_date),
                            &text(&r.due_date),
                            &r.status,
                            &text(&r.payment_state),
                            &total,
                            &outstanding,
                        ]));
                        Ok(())
                    })
                    .unwrap();
                backoffice::plumbing::http::xlsx::write_workbook(
                    csv.as_bytes(),
                    std::io::sink(),
                    "documents",
                )
                .unwrap();
            }),
        );
    }

    for (what, q) in [("number", f.number_q.clone()), ("client name", f.name_q.clone())] {
        let mh = mh.clone();
        let path = format!("/api/documents?q={}&per_page=50", encode(&q));
        add(
            format!("documents q by {what} `{q}`"),
            Kind::List,
            &f.manager,
            Arc::new(move |_| path.clone()),
            Arc::new(move |c, _| {
                session(c, &mh);
                let filter = DocumentFilter {
                    q: Some(q.clone()),
                    ..Default::default()
                };
                let list = documents::store::list(c, filter)
                    .unwrap()
                    .page(c, &page(1))
                    .unwrap();
                assert!(list.total > 0);
            }),
        );
    }

    let docs = Arc::new(f.documents.clone());
    add(
        "one document with lines and events".into(),
        Kind::List,
        &f.manager,
        Arc::new({
            let docs = docs.clone();
            move |i| format!("/api/documents/{}", docs[i % docs.len()])
        }),
        Arc::new({
            let mh = mh.clone();
            move |c, i| {
                session(c, &mh);
                documents::store::get(c, &docs[i % docs.len()], None)
                    .unwrap()
                    .unwrap();
            }
        }),
    );

    let module = f.roster_module.clone();
    let path = format!("/api/modules/{module}/clients");
    add(
        "module roster with footer".into(),
        Kind::List,
        &f.manager,
        Arc::new(move |_| path.clone()),
        Arc::new({
            let mh = mh.clone();
            move |c, _| {
                session(c, &mh);
                let today = backoffice::plumbing::db::settings::office_today(c).unwrap();
                let m = backoffice::catalog::store::get(c, &module, today)
                    .unwrap()
                    .unwrap();
                projects::store::roster(c, &module, None, m.price_today, &page(1)).unwrap();
            }
        }),
    );

    add(
        "projects board".into(),
        Kind::List,
        &f.manager,
        Arc::new(|_| "/api/projects/board".into()),
        Arc::new({
            let mh = mh.clone();
            move |c, _| {
                session(c, &mh);
                projects::store::board(c, None).unwrap();
            }
        }),
    );
    add(
        "projects stalled".into(),
        Kind::List,
        &f.manager,
        Arc::new(|_| "/api/projects/stalled".into()),
        Arc::new({
            let mh = mh.clone();
            move |c, _| {
                session(c, &mh);
                projects::milestones::stalled(c, None, None).unwrap();
            }
        }),
    );

    let oh = f.owner_hash.clone();
    add(
        "audit, entity document and action issued (owner)".into(),
        Kind::List,
        &f.owner,
        Arc::new(|_| "/api/audit?entity=document&action=issued".into()),
        Arc::new(move |c, _| {
            session(c, &oh);
            backoffice::plumbing::db::settings::office_offset(c).unwrap();
            let filter = audit::store::AuditFilter {
                entity: Some("document".into()),
                action: Some("issued".into()),
                ..Default::default()
            };
            audit::store::page(c, filter, &page(1)).unwrap();
        }),
    );

    add(
        "reminder queue, open (manager)".into(),
        Kind::List,
        &f.manager,
        Arc::new(|_| "/api/reminders?status=open".into()),
        Arc::new({
            let mh = mh.clone();
            move |c, _| {
                session(c, &mh);
                let filter = backoffice::reminders::store::ReminderFilter {
                    status: Some("open".into()),
                    ..Default::default()
                };
                let at = backoffice::reminders::store::Reading::now(c).unwrap();
                backoffice::reminders::store::list(filter, at)
                    .page(c, &page(1))
                    .unwrap();
            }
        }),
    );

    add(
        "dues aging as of today".into(),
        Kind::Report,
        &f.manager,
        Arc::new(|_| "/api/reports/dues-aging".into()),
        Arc::new({
            let mh = mh.clone();
            move |c, _| {
                session(c, &mh);
                reports::reads::dues_aging(c, None, None).unwrap();
            }
        }),
    );
    let (from, to) = f.fy;
    add(
        format!("GST summary {from} to {to}"),
        Kind::Report,
        &f.manager,
        Arc::new(move |_| format!("/api/reports/gst-summary?from={from}&to={to}")),
        Arc::new({
            let mh = mh.clone();
            move |c, _| {
                session(c, &mh);
                backoffice::plumbing::db::settings::office_today(c).unwrap();
                reports::store::gst_by_month(c, from, to, None).unwrap();
            }
        }),
    );

    for (what, id) in [
        ("one page", f.one_page.clone()),
        ("five pages", f.five_page.clone()),
        ("one page, a society named in Malayalam", f.malayalam.clone()),
    ] {
        let mh = mh.clone();
        let path = format!("/api/documents/{id}/pdf");
        add(
            format!("invoice PDF, {what}"),
            Kind::Render,
            &f.manager,
            Arc::new(move |_| path.clone()),
            Arc::new(move |c, _| {
                session(c, &mh);
                let doc = documents::store::get(c, &id, None).unwrap().unwrap();
                let view = documents::view::build(c, &doc).unwrap();
                backoffice::documents::pdf::document_pdf(&view).unwrap();
            }),
        );
    }
    out
}

/// Who reads a scenario.
#[derive(Clone, Copy)]
pub enum Reader {
    Owner,
    Manager,
}

/// A scenario of `who` reading `path`, whose floor is `work` after the same session lookup.
pub fn read_as(
    f: &Fixture,
    who: Reader,
    name: &str,
    kind: Kind,
    path: impl Into<String>,
    work: impl Fn(&Connection) + Send + Sync + 'static,
) -> ReadScenario {
    let (cookie, hash) = match who {
        Reader::Owner => (f.owner.clone(), f.owner_hash.clone()),
        Reader::Manager => (f.manager.clone(), f.manager_hash.clone()),
    };
    let floor: Floor = Arc::new(move |c, _| {
        backoffice::auth::store::session_by_hash(c, &hash)
            .unwrap()
            .unwrap();
        work(c);
    });
    let path = path.into();
    let path: PathOf = Arc::new(move |_| path.clone());
    ReadScenario {
        name: name.to_string(),
        kind,
        path,
        cookie,
        floor,
    }
}

/// The first page of 50, as the console asks for a list.
pub fn first_page() -> Page {
    Page {
        page: 1,
        per_page: 50,
        after: None,
        sort: None,
    }
}

/// The documents list's filter for the invoices dated `from` to `to` (the CSV and Excel rows).
fn invoices_between(from: NaiveDate, to: NaiveDate) -> DocumentFilter {
    DocumentFilter {
        doc_type: Some("INVOICE".into()),
        from: Some(from.to_string()),
        to: Some(to.to_string()),
        ..Default::default()
    }
}
