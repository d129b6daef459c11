//! The SQL of support tickets: one ticket with its timeline, the list with its chips' counts
//! and the kinds already used, and the writes. Ages and the SLA flag are read against the
//! office's today and the `ticket.sla_days` in force, passed in by the caller.

use crate::auth::session::AuthUser;
use crate::book;
use crate::plumbing::clock;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::query::{
    Changes, Filter, ListQuery, Listing, Plan, Tally, bytes, insert_row, like_contains, starts_with,
    trigram_contains, update_columns,
};
use crate::plumbing::error::AppError;
use crate::tickets::rules;
use chrono::NaiveDate;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params, params_from_iter};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// A support ticket as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Ticket {
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    pub subject: String,
    pub description: Option<String>,
    /// One of the `ticket.types` setting (`GET /api/tickets/types`).
    #[serde(rename = "type")]
    pub ticket_type: String,
    /// Free text (`kind_suggestions` of the list).
    pub kind: Option<String>,
    /// open, in_progress, waiting_on_client (still open), resolved or closed.
    pub status: String,
    #[schema(format = Date)]
    pub opened_on: String,
    #[schema(format = Date)]
    pub resolved_on: Option<String>,
    pub assignee_id: Option<String>,
    pub assignee_name: Option<String>,
    pub created_by: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Whole office days from opened_on to today (to resolved_on once resolved or closed).
    pub age: i64,
    /// The days counted against the SLA: `age` less the days it waited on the client.
    pub sla_age: i64,
    /// The office day the SLA clock counts from: opened_on moved later by the finished waits.
    #[schema(format = Date)]
    pub sla_from: String,
    /// The day the present wait on the client began (the SLA clock is paused); null otherwise.
    #[schema(format = Date)]
    pub waiting_since: Option<String>,
    /// 1 when its SLA clock runs (open or in progress) and `sla_age` passes `ticket.sla_days`.
    pub overdue: u8,
}

/// One entry of a ticket's timeline.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TicketEvent {
    pub id: String,
    /// opened, status, note, billed or assigned.
    pub kind: String,
    pub at: String,
    pub user_id: Option<String>,
    pub user_name: Option<String>,
    pub from_status: Option<String>,
    pub to_status: Option<String>,
    pub note: Option<String>,
    /// The draft a `billed` entry made.
    pub document_id: Option<String>,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    /// Its type (INVOICE, PROFORMA or QUOTATION) and status now (a bill's draft may since
    /// have been issued or cancelled).
    pub document_type: Option<String>,
    pub document_status: Option<String>,
    pub assignee_id: Option<String>,
    pub assignee_name: Option<String>,
}

/// The live bill of a ticket.
#[derive(Debug, Serialize, ToSchema)]
pub struct TicketBill {
    pub id: String,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    /// INVOICE, PROFORMA or QUOTATION.
    #[serde(rename = "type")]
    pub doc_type: String,
}

/// What a ticket's age and SLA flag are read against.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    pub today: NaiveDate,
    pub sla_days: i64,
}

const COLUMNS: &str = "t.id, t.client_id, c.name, t.subject, t.description, t.type, t.kind, t.status, t.opened_on, \
    t.resolved_on, t.assignee_id, a.name, t.created_by, t.created_at, t.updated_at, t.sla_from, t.waiting_since";
const FROM: &str = "ticket t JOIN client c ON c.id = t.client_id LEFT JOIN staff a ON a.id = t.assignee_id";
/// Where the list's rows are found and ordered: the joins its filters and sorts may name.
const FIND_IN: &str = "ticket t JOIN client c ON c.id = t.client_id";
/// Where a filtered list is counted: the tickets alone (a search finds the client's name by
/// its ids, not by joining every ticket to its client).
const COUNTED_IN: &str = "ticket t";

fn date(text: &str) -> Option<NaiveDate> {
    clock::date(text)
}

fn ticket(r: &Row<'_>, clock: Clock) -> rusqlite::Result<Ticket> {
    let status: String = r.get(7)?;
    let opened_on: String = r.get(8)?;
    let resolved_on: Option<String> = r.get(9)?;
    let resolved = resolved_on.as_deref().and_then(date);
    let age = date(&opened_on).map_or(0, |opened| rules::age(opened, resolved, &status, clock.today));
    let sla_from: String = r
        .get::<_, Option<String>>(15)?
        .unwrap_or_else(|| opened_on.clone());
    let waiting_since: Option<String> = r.get(16)?;
    let sla_age = date(&sla_from).map_or(0, |from| {
        rules::sla_age(
            from,
            resolved,
            &status,
            waiting_since.as_deref().and_then(date),
            clock.today,
        )
    });
    Ok(Ticket {
        id: r.get(0)?,
        client_id: r.get(1)?,
        client_name: r.get(2)?,
        subject: r.get(3)?,
        description: r.get(4)?,
        ticket_type: r.get(5)?,
        kind: r.get(6)?,
        overdue: u8::from(rules::overdue(&status, sla_age, clock.sla_days)),
        status,
        opened_on,
        resolved_on,
        assignee_id: r.get(10)?,
        assignee_name: r.get(11)?,
        created_by: r.get(12)?,
        created_at: r.get(13)?,
        updated_at: r.get(14)?,
        age,
        sla_age,
        sla_from,
        waiting_since,
    })
}

/// The ticket `id`, if it is in the staff user's share (`book`; None: every ticket).
pub fn get(
    conn: &Connection,
    id: &str,
    book: Option<&str>,
    clock: Clock,
) -> Result<Option<Ticket>, AppError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM {FROM} WHERE t.id = ?1 AND {}",
            book::ticket_is_in("t", "?2")
        ))?
        .query_row(params![id, book], |r| ticket(r, clock))
        .optional()?)
}

/// A ticket's timeline, oldest first.
pub fn events(conn: &Connection, ticket_id: &str) -> Result<Vec<TicketEvent>, AppError> {
    let mut stmt = conn.prepare_cached(
        "SELECT e.id, e.kind, e.at, e.user_id, u.name, e.from_status, e.to_status, e.note, e.document_id,
                d.doc_no, d.type, d.status, e.assignee_id, s.name
         FROM ticket_event e LEFT JOIN staff u ON u.id = e.user_id LEFT JOIN document d ON d.id = e.document_id
              LEFT JOIN staff s ON s.id = e.assignee_id
         WHERE e.ticket_id = ?1 ORDER BY e.id",
    )?;
    let rows = stmt
        .query_map([ticket_id], |r| {
            Ok(TicketEvent {
                id: r.get(0)?,
                kind: r.get(1)?,
                at: r.get(2)?,
                user_id: r.get(3)?,
                user_name: r.get(4)?,
                from_status: r.get(5)?,
                to_status: r.get(6)?,
                note: r.get(7)?,
                document_id: r.get(8)?,
                doc_no: r.get(9)?,
                document_type: r.get(10)?,
                document_status: r.get(11)?,
                assignee_id: r.get(12)?,
                assignee_name: r.get(13)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// The document billed from a ticket that is still live (not cancelled), the latest.
pub fn live_bill(conn: &Connection, ticket_id: &str) -> Result<Option<TicketBill>, AppError> {
    Ok(conn
        .prepare_cached(
            "SELECT d.id, d.doc_no, d.type FROM ticket_event e JOIN document d ON d.id = e.document_id
             WHERE e.ticket_id = ?1 AND e.kind = 'billed' AND d.status <> 'cancelled' ORDER BY e.id DESC LIMIT 1",
        )?
        .query_row([ticket_id], |r| {
            Ok(TicketBill {
                id: r.get(0)?,
                doc_no: r.get(1)?,
                doc_type: r.get(2)?,
            })
        })
        .optional()?)
}

/// Filters of the ticket list.
#[derive(Default, Clone)]
pub struct TicketFilter {
    /// One of `rules::CHIPS`, checked by the caller.
    pub chip: String,
    /// Assigned to this employee (`mine=1`).
    pub assignee_id: Option<String>,
    /// Part of the subject, the description or the client's name.
    pub search: Option<String>,
    /// One type; None: every type.
    pub ticket_type: Option<String>,
    /// Only those past the SLA.
    pub overdue: bool,
    pub client_id: Option<String>,
    /// A staff user's share (`book::narrow_tickets`); None: every ticket.
    pub book: Option<String>,
}

/// The chips' counts are summed from this when the list is filtered only by type and assignee.
const TALLY: Tally = Tally {
    table: "ticket_tally",
    columns: &[
        ("t.status", "status"),
        ("t.type", "type"),
        ("t.assignee_id", "assignee_id"),
    ],
};

const SORTS: &[(&str, &str)] = &[
    ("opened_on", "t.opened_on"),
    ("resolved_on", "t.resolved_on"),
    ("subject", "t.subject COLLATE NOCASE"),
    ("client_name", "c.name COLLATE NOCASE"),
    ("status", "t.status"),
    ("type", "t.type"),
    ("kind", "t.kind COLLATE NOCASE"),
    ("created_at", "t.created_at"),
];

/// Every filter but the chip's: what the chips' counts are counted under.
fn base_filter(filter: &TicketFilter, clock: Clock) -> Filter {
    let mut f = other_filters(filter, clock);
    if let Some(q) = searched_for(filter) {
        let (clause, values) = search_clause(q);
        f.and(&clause, values);
    }
    f
}

/// Every filter but the chip's and the search's.
fn other_filters(filter: &TicketFilter, clock: Clock) -> Filter {
    let mut f = Filter::default();
    f.eq("t.type", filter.ticket_type.clone())
        .eq("t.assignee_id", filter.assignee_id.clone())
        .eq("t.client_id", filter.client_id.clone());
    if filter.overdue {
        f.and(rules::SLA_RUNS_SQL, []);
        let before = rules::overdue_before(clock.today, clock.sla_days);
        f.and("t.sla_from < ?", [Value::Text(before.to_string())]);
    }
    book::narrow_tickets(&mut f, "t", filter.book.clone());
    f
}

/// The text searched for, trimmed; None when blank.
fn searched_for(filter: &TicketFilter) -> Option<&str> {
    filter.search.as_deref().map(str::trim).filter(|q| !q.is_empty())
}

/// The search's condition: the subject or the description contains `q` (as `LIKE '%q%'`:
/// ASCII letters fold, everything else literal), or the client's name does. The subject and
/// description through their trigram index (migrations/V28), which finds exactly the tickets
/// holding the text, for text of three characters and more; shorter text by LIKE over every
/// ticket. The client's name through its suffix table (V7): one key range.
fn search_clause(q: &str) -> (String, Vec<Value>) {
    let (by_name, name_values) = name_clause(q);
    let (text, mut values) = match trigram_contains("", q) {
        Some(phrase) => (
            "t.rowid IN (SELECT rowid FROM ticket_text WHERE ticket_text MATCH ?)",
            vec![phrase],
        ),
        None => {
            let pattern = like_contains(q);
            (
                "t.subject LIKE ? ESCAPE '\\' OR t.description LIKE ? ESCAPE '\\'",
                vec![pattern.clone(), pattern],
            )
        }
    };
    values.extend(name_values);
    (format!("{text} OR {by_name}"), values)
}

/// The tickets whose client's name contains `q`, through the names' suffix table (V7).
fn name_clause(q: &str) -> (String, Vec<Value>) {
    let (names, values) = starts_with("s.suffix", q);
    (
        format!("t.client_id IN (SELECT s.client_id FROM client_name_search s WHERE {names})"),
        values,
    )
}

/// The chips' counts from the number of tickets of each status.
fn chips(by_status: &[(String, i64)]) -> BTreeMap<String, i64> {
    let count_of = |statuses: Option<&[&str]>| -> i64 {
        by_status
            .iter()
            .filter(|(s, _)| statuses.is_none_or(|group| group.contains(&s.as_str())))
            .map(|(_, n)| n)
            .sum()
    };
    rules::CHIPS
        .iter()
        .map(|chip| (chip.to_string(), count_of(rules::chip_statuses(chip))))
        .collect()
}

/// The count of each chip under every other filter.
pub fn counts(
    conn: &Connection,
    filter: &TicketFilter,
    clock: Clock,
) -> Result<BTreeMap<String, i64>, AppError> {
    let by_status = base_filter(filter, clock).counts_by(conn, COUNTED_IN, "t.status", Some(&TALLY))?;
    Ok(chips(&by_status))
}

/// Whether a chip's list runs oldest first: the still-open chips (the most overdue on top).
fn oldest_first(statuses: Option<&[&str]>) -> bool {
    statuses.is_some_and(|s| s.iter().all(|s| rules::still_open(s)))
}

/// One page of a searched list and its chips' counts.
pub type Searched = (Paginated<Ticket>, BTreeMap<String, i64>);

/// A searched list in its own order (`page` has no sort and no cursor; else [`list`] and
/// [`counts`]): one page and the chips' counts from one read of the tickets the search and the
/// other filters find (status, opened_on and id of each), rather than three (the page, its
/// count, the chips'). The page's rows are then read by their ids. None when nothing is
/// searched for.
///
/// Text of three characters and more is read in two parts: the tickets holding it, driven by
/// the trigram index (each match's ticket read by its rowid, with none of the temporary table
/// of matched rowids that `t.rowid IN (…) OR …` builds), then those of the clients whose name
/// holds it that the first part did not find.
pub fn searched(
    conn: &Connection,
    filter: &TicketFilter,
    clock: Clock,
    page: &Page,
) -> Result<Option<Searched>, AppError> {
    let Some(q) = searched_for(filter) else {
        return Ok(None);
    };
    if page.after.is_some() || page.sort.as_deref().is_some_and(|s| !s.trim().is_empty()) {
        return Ok(None);
    }
    const FOUND: &str = "SELECT t.status, t.opened_on, t.id, t.rowid FROM";
    let reads: Vec<(&str, Filter)> = match trigram_contains("", q) {
        Some(phrase) => {
            let mut text = other_filters(filter, clock);
            text.and("x.ticket_text MATCH ?", [phrase]);
            let mut names = other_filters(filter, clock);
            let (clause, values) = name_clause(q);
            names.and(&clause, values);
            vec![
                ("ticket_text x CROSS JOIN ticket t ON t.rowid = x.rowid", text),
                (COUNTED_IN, names),
            ]
        }
        None => vec![(COUNTED_IN, base_filter(filter, clock))],
    };
    let statuses = rules::chip_statuses(&filter.chip);
    let mut by_status: Vec<(String, i64)> = vec![];
    // The listed matches' opened_on and id, back to back in one buffer, each match its
    // (start, id's start, end) in it: a search finds thousands, and two Strings each were a
    // tenth of the call.
    let mut keys: Vec<u8> = vec![];
    let mut listed: Vec<(usize, usize, usize)> = vec![];
    // The rowids found by the reads before, sorted before the next.
    let mut found: Vec<i64> = vec![];
    for (from, f) in &reads {
        let mut stmt = conn.prepare_cached(&format!("{FOUND} {from}{}", f.sql()))?;
        let mut rows = stmt.query(params_from_iter(f.values().iter()))?;
        found.sort_unstable();
        let before = found.len();
        while let Some(r) = rows.next()? {
            let rowid: i64 = r.get(3)?;
            if found[..before].binary_search(&rowid).is_ok() {
                continue;
            }
            found.push(rowid);
            let status = bytes(r, 0)?;
            let counted = match by_status.iter().position(|(s, _)| s.as_bytes() == status) {
                Some(i) => i,
                None => {
                    by_status.push((String::from_utf8_lossy(status).into_owned(), 0));
                    by_status.len() - 1
                }
            };
            by_status[counted].1 += 1;
            if statuses.is_none_or(|group| group.iter().any(|s| s.as_bytes() == status)) {
                let start = keys.len();
                keys.extend_from_slice(bytes(r, 1)?);
                let id = keys.len();
                keys.extend_from_slice(bytes(r, 2)?);
                listed.push((start, id, keys.len()));
            }
        }
    }
    let key = |&(start, id, end): &(usize, usize, usize)| (&keys[start..id], &keys[id..end]);
    let ids = if oldest_first(statuses) {
        page.slice_ordered_by(listed, |a, b| key(a).cmp(&key(b)))
    } else {
        page.slice_ordered_by(listed, |a, b| key(b).cmp(&key(a)))
    }
    .map(|(_, id, end)| String::from_utf8_lossy(&keys[id..end]).into_owned());
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM {FROM} WHERE t.id IN (SELECT value FROM json_each(?1))"
    ))?;
    let mut found: BTreeMap<String, Ticket> = stmt
        .query_map([serde_json::to_string(&ids.rows)?], |r| ticket(r, clock))?
        .map(|t| t.map(|t| (t.id.clone(), t)))
        .collect::<Result<_, _>>()?;
    let tickets = ids.map(|id| found.remove(&id));
    let rows = tickets.rows.into_iter().flatten().collect();
    Ok(Some((
        Paginated {
            rows,
            total: tickets.total,
            page: tickets.page,
            per_page: tickets.per_page,
        },
        chips(&by_status),
    )))
}

/// Kinds already used, the most used first: over every ticket (the tally table) for owner and
/// manager, over their own share for a staff user (`book`), since a kind typed on another
/// book's ticket can name that book's client or trouble.
pub fn kind_suggestions(conn: &Connection, book: Option<&str>) -> Result<Vec<String>, AppError> {
    let Some(staff) = book else {
        let mut stmt = conn.prepare_cached(
            "SELECT kind FROM ticket_kind_tally WHERE n > 0 ORDER BY n DESC, kind LIMIT 30",
        )?;
        let kinds = stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
        return Ok(kinds);
    };
    let sql = format!(
        "SELECT t.kind FROM ticket t WHERE t.kind IS NOT NULL AND {}
         GROUP BY t.kind ORDER BY COUNT(*) DESC, t.kind LIMIT 30",
        book::ticket_is_in("t", "?1")
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let kinds = stmt.query_map([staff], |r| r.get(0))?.collect::<Result<_, _>>()?;
    Ok(kinds)
}

/// The ticket list: still-open chips oldest first (the most overdue on top), the others newest
/// first; a page of it or every row for the CSV twin.
pub fn list(filter: &TicketFilter, clock: Clock) -> Listing<Ticket> {
    let mut f = base_filter(filter, clock);
    let statuses = rules::chip_statuses(&filter.chip);
    match statuses {
        Some(statuses) if statuses == rules::STILL_OPEN => {
            f.and(rules::STILL_OPEN_SQL, []);
        }
        Some([one]) => {
            f.eq("t.status", Some(one.to_string()));
        }
        _ => {}
    }
    let query = ListQuery {
        columns: COLUMNS.into(),
        from: FROM,
        order_by: if oldest_first(statuses) {
            "t.opened_on ASC, t.id ASC"
        } else {
            "t.opened_on DESC, t.id DESC"
        },
        id_column: "t.id",
        sorts: SORTS,
    };
    Listing::new(query, f, move |r| ticket(r, clock)).with_plan(Plan {
        find_in: Some(FIND_IN),
        tally: Some(&TALLY),
        count_in: Some(COUNTED_IN),
    })
}

/// Inserts a ticket of checked `fields`; answers its id.
pub fn insert(tx: &Connection, fields: Changes) -> Result<String, AppError> {
    Ok(insert_row(tx, "ticket", fields)?)
}

/// Writes `changes`; with none, only marks the ticket as worked on (`updated_at`).
pub fn update(tx: &Connection, id: &str, changes: Changes) -> Result<(), AppError> {
    if changes.is_empty() {
        return touch(tx, id);
    }
    update_columns(tx, "ticket", id, changes)?;
    Ok(())
}

pub fn touch(tx: &Connection, id: &str) -> Result<(), AppError> {
    tx.prepare_cached("UPDATE ticket SET updated_at = ?2 WHERE id = ?1")?
        .execute(params![id, crate::plumbing::clock::now_timestamp()])?;
    Ok(())
}

/// One timeline entry, written in the transaction of the change it records.
pub struct NewEvent<'a> {
    pub kind: &'static str,
    pub from_status: Option<&'a str>,
    pub to_status: Option<&'a str>,
    pub note: Option<&'a str>,
    pub document_id: Option<&'a str>,
    pub assignee_id: Option<&'a str>,
}

impl NewEvent<'_> {
    pub fn of(kind: &'static str) -> NewEvent<'static> {
        NewEvent {
            kind,
            from_status: None,
            to_status: None,
            note: None,
            document_id: None,
            assignee_id: None,
        }
    }
}

pub fn add_event(tx: &Connection, ticket_id: &str, user_id: &str, e: NewEvent<'_>) -> Result<(), AppError> {
    tx.prepare_cached(
        "INSERT INTO ticket_event (id, ticket_id, kind, at, user_id, from_status, to_status, note, document_id, assignee_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        crate::plumbing::db::ids::new_id(),
        ticket_id,
        e.kind,
        crate::plumbing::clock::now_timestamp(),
        user_id,
        e.from_status,
        e.to_status,
        e.note,
        e.document_id,
        e.assignee_id
    ])?;
    Ok(())
}

/// The tickets still open at the end of `first` (opened by then, not resolved by then), and
/// each later day up to `last` with how many more were open at its end than the day before,
/// in order: from the counts per day migrations/V29 keeps (`ticket_day`).
pub fn open_by_day(
    conn: &Connection,
    first: &str,
    last: &str,
) -> Result<(i64, Vec<(String, i64)>), AppError> {
    let open = conn
        .prepare_cached("SELECT COALESCE(SUM(opened - closed), 0) FROM ticket_day WHERE day <= ?1")?
        .query_row([first], |r| r.get(0))?;
    let mut stmt = conn.prepare_cached(
        "SELECT day, opened - closed FROM ticket_day WHERE day > ?1 AND day <= ?2 ORDER BY day",
    )?;
    let changes = stmt
        .query_map([first, last], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    Ok((open, changes))
}

/// The query of [`open_after`]: read from the `ticket_resolved` index alone (migrations/V26).
pub const OPEN_AFTER: &str =
    "SELECT opened_on, resolved_on FROM ticket WHERE resolved_on IS NULL OR resolved_on > ?1";

/// (opened_on, resolved_on) of every ticket not resolved by `day`: those a count of the
/// still-open tickets at a day from `day` on may hold.
pub fn open_after(conn: &Connection, day: &str) -> Result<Vec<(String, Option<String>)>, AppError> {
    let mut stmt = conn.prepare_cached(OPEN_AFTER)?;
    let spans = stmt
        .query_map([day], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    Ok(spans)
}

/// The ticket, if it is in the user's share ([`ticket_is_in`]).
pub fn visible_ticket(
    conn: &Connection,
    user: &AuthUser,
    id: &str,
    clock: Clock,
) -> Result<Ticket, AppError> {
    get(conn, id, user.book().as_deref(), clock)?.ok_or_else(|| AppError::not_found("ticket"))
}
