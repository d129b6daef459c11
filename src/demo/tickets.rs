//! The support desk of a demo office, written after its history: about ten tickets per society
//! over the years since it joined (a lead has at most one, about its demo), each with its
//! timeline (opened, assigned, the status moves, a note now and then).
//!
//! A ticket's life is drawn first as the days of its moves, then cut at the present: what would
//! happen after now has not happened yet, so its status is the last move made. Old tickets are
//! therefore resolved or closed (most within the 7-day SLA, some later), the last three weeks'
//! mostly still open, and a few hundred in a large office are open past the SLA, a few of them
//! long forgotten, so the SLA view has overdue rows (about 500 of 47,000 in the large office). A
//! lost society stopped calling two months before today, and its calls were all settled.
//!
//! Timelines are capped at the real clock, not at the end of `today`: a run in the morning has
//! none of today's afternoon, so only today's rows depend on the hour it runs.

use crate::demo::calls::{BRANCHES, CALLS, LEAD_CALLS, NOTES};
use crate::demo::{Rng, Summary};
use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use crate::tickets::rules::STILL_OPEN;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc, Weekday};
use rusqlite::{Connection, params};

/// The demo office's time zone (`Rng::office_time` is in IST).
const IST_MINUTES: i64 = 330;

/// A step of a ticket's life after it was opened.
#[derive(Clone, Copy)]
enum Step {
    /// To this status.
    Status(&'static str),
    Note(&'static str),
}

/// The moves of a ticket opened on `opened`, as (day, new status), in order, none after
/// `today`. `settled`: the society's calls were all dealt with (a lost client).
fn moves(rng: &mut Rng, opened: NaiveDate, today: NaiveDate, settled: bool) -> Vec<(NaiveDate, Step)> {
    let age = (today - opened).num_days();
    let days = |n: i64| opened + Duration::days(n);
    let stuck = !settled
        && match age {
            0..=7 => rng.chance(75),
            8..=21 => rng.chance(40),
            22..=90 => rng.chance(4),
            _ => rng.below(1000) < 1,
        };
    if stuck {
        let started = days(rng.range(0, age.min(2)));
        let roll = if age == 0 { rng.below(60) } else { rng.below(100) };
        let waiting = started + Duration::days(rng.range(0, (today - started).num_days()));
        return match roll {
            0..=24 => vec![],
            25..=64 => vec![(started, Step::Status("in_progress"))],
            _ => vec![
                (started, Step::Status("in_progress")),
                (waiting, Step::Status("waiting_on_client")),
            ],
        };
    }
    let took = match rng.below(100) {
        0..=77 => rng.range(0, 6),
        78..=94 => rng.range(7, 15),
        _ => rng.range(16, 40),
    }
    .min(age);
    let mut path = vec![];
    if took > 0 || rng.chance(70) {
        path.push((days(rng.range(0, took.min(1))), Step::Status("in_progress")));
        if took >= 3 && rng.chance(20) {
            let asked = days(rng.range(1, took - 1));
            path.push((asked, Step::Status("waiting_on_client")));
            path.push((
                days(rng.range((asked - opened).num_days(), took)),
                Step::Status("in_progress"),
            ));
        }
    }
    let resolved = days(took);
    path.push((resolved, Step::Status("resolved")));
    // Now and then the society calls back: the fix did not hold.
    let mut last = resolved;
    if rng.chance(3) {
        let back = last + Duration::days(rng.range(1, 5));
        last = back + Duration::days(rng.range(0, 4));
        path.push((back, Step::Status("in_progress")));
        path.push((last, Step::Status("resolved")));
    }
    if rng.chance(85) {
        path.push((last + Duration::days(rng.range(1, 10)), Step::Status("closed")));
    }
    path.retain(|(day, _)| *day <= today);
    path
}

/// A day the desk works: a Sunday's call is logged on the Saturday or the Monday, within
/// `first..=today` (Sunday itself when neither fits).
fn desk_day(rng: &mut Rng, day: NaiveDate, first: NaiveDate, today: NaiveDate) -> NaiveDate {
    let (saturday, monday) = (day - Duration::days(1), day + Duration::days(1));
    match day.weekday() {
        Weekday::Sun if monday <= today && (saturday < first || rng.chance(50)) => monday,
        Weekday::Sun if saturday >= first => saturday,
        _ => day,
    }
}

struct Desk<'a> {
    conn: &'a Connection,
    rng: &'a mut Rng,
    staff: Vec<String>,
    today: NaiveDate,
    /// No timeline goes past it.
    now: DateTime<Utc>,
    summary: &'a mut Summary,
}

/// What a call is about, as it is logged.
struct Subject<'a> {
    subject: &'a str,
    description: &'a str,
    ticket_type: &'static str,
    kind: Option<&'static str>,
    /// The note of the one who fixed it.
    fix: Option<&'static str>,
}

/// One society as the desk sees it.
struct Society<'a> {
    id: &'a str,
    owner: &'a str,
    /// The day it became a client: no call before it.
    since: NaiveDate,
    settled: bool,
}

impl Desk<'_> {
    /// A moment on `day` after `after` (minutes later when the office hours of `day` are
    /// already past it).
    fn moment(&mut self, day: NaiveDate, after: DateTime<Utc>) -> DateTime<Utc> {
        let at = self.rng.office_time(day);
        if at > after {
            at
        } else {
            after + Duration::minutes(self.rng.range(5, 45))
        }
    }

    /// Writes one ticket opened on `opened` with its timeline, and counts it.
    fn ticket(
        &mut self,
        society: &Society<'_>,
        opened: NaiveDate,
        about: Subject<'_>,
    ) -> Result<(), AppError> {
        let mut opened = desk_day(self.rng, opened, society.since, self.today);
        let mut created = self.rng.office_time(opened);
        if created > self.now {
            // Today's office hours are not over yet: this call came in the day before.
            let before = (opened - Duration::days(1)).max(society.since);
            opened = desk_day(self.rng, before, society.since, before);
            created = self.rng.office_time(opened).min(self.now);
        }
        // One in twenty is logged a day or two after the call.
        if self.rng.chance(5) {
            let late = opened + Duration::days(self.rng.range(1, 2));
            let logged = self.moment(late, created);
            if logged <= self.now {
                created = logged;
            }
        }
        let creator = society.owner;
        // Mostly the account owner's own; a third handed to someone else.
        let mut assignee = creator.to_string();
        if self.rng.chance(33) {
            for _ in 0..4 {
                let other = self.rng.pick(&self.staff);
                if other != creator {
                    assignee = other.clone();
                    break;
                }
            }
        }
        let id = self.rng.id(created);
        let mut events: Vec<Event> = vec![Event::new(created, "opened", creator)];
        if assignee != creator {
            let at = (created + Duration::minutes(self.rng.range(2, 30))).min(self.now);
            events.push(Event {
                assignee: Some(assignee.clone()),
                ..Event::new(at, "assigned", creator)
            });
        }
        let mut path = moves(self.rng, opened, self.today, society.settled);
        if self.rng.chance(33) {
            let settled = path
                .iter()
                .position(|(_, s)| matches!(s, Step::Status("resolved")));
            let note = match (about.fix, settled) {
                (Some(fix), Some(_)) if self.rng.chance(50) => fix,
                _ => *self.rng.pick(NOTES),
            };
            // Before the move that settled it, or any day so far.
            let (day, before) = match settled {
                Some(i) => (path[i].0, i),
                None => (
                    opened + Duration::days(self.rng.range(0, (self.today - opened).num_days())),
                    path.len(),
                ),
            };
            path.insert(before, (day, Step::Note(note)));
        }
        // What happens after now has not happened yet.
        let mut status = "open";
        let mut resolved_on = None;
        for (day, step) in path {
            let at = self.moment(day, events.last().expect("opened").at);
            if at > self.now {
                break;
            }
            match step {
                Step::Status(to) => {
                    events.push(Event {
                        from: Some(status),
                        to: Some(to),
                        ..Event::new(at, "status", &assignee)
                    });
                    match to {
                        // The office's date of the move (later than planned when the call was
                        // logged late).
                        "resolved" => resolved_on = Some((at + Duration::minutes(IST_MINUTES)).date_naive()),
                        "closed" => {}
                        _ => resolved_on = None,
                    }
                    status = to;
                }
                Step::Note(note) => events.push(Event {
                    note: Some(note),
                    ..Event::new(at, "note", &assignee)
                }),
            }
        }
        let updated = events.last().expect("opened").at;
        self.conn
            .prepare_cached(
                "INSERT INTO ticket (id, client_id, subject, description, type, kind, status, opened_on, resolved_on,
                                     assignee_id, created_by, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?
            .execute(params![
                id,
                society.id,
                about.subject,
                about.description,
                about.ticket_type,
                about.kind,
                status,
                opened.to_string(),
                resolved_on.map(|d: NaiveDate| d.to_string()),
                assignee,
                creator,
                clock::timestamp(created),
                clock::timestamp(updated)
            ])?;
        let mut insert = self.conn.prepare_cached(
            "INSERT INTO ticket_event (id, ticket_id, kind, at, user_id, from_status, to_status, note, assignee_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?;
        for e in &events {
            insert.execute(params![
                self.rng.id(e.at),
                id,
                e.kind,
                clock::timestamp(e.at),
                e.user,
                e.from,
                e.to,
                e.note,
                e.assignee
            ])?;
        }
        self.summary.tickets += 1;
        self.summary.ticket_events += events.len();
        if STILL_OPEN.contains(&status) {
            self.summary.tickets_open += 1;
        }
        Ok(())
    }

    /// A support call about one of the recurring kinds, opened on `opened`.
    fn call(&mut self, society: &Society<'_>, opened: NaiveDate) -> Result<(), AppError> {
        let total: u64 = CALLS.iter().map(|c| c.weight).sum();
        let mut roll = self.rng.below(total);
        let call = CALLS
            .iter()
            .find(|c| {
                let hit = roll < c.weight;
                roll = roll.saturating_sub(c.weight);
                hit
            })
            .unwrap_or(&CALLS[0]);
        let (subject, description) = *self.rng.pick(call.subjects);
        let branch = *self.rng.pick(BRANCHES);
        let (subject, description) = (
            subject.replace("{branch}", branch),
            description.replace("{branch}", branch),
        );
        // About one call in six is logged without a kind.
        let kind = (!self.rng.chance(17)).then_some(call.kind);
        let about = Subject {
            subject: &subject,
            description: &description,
            ticket_type: call.ticket_type,
            kind,
            fix: Some(call.fix),
        };
        self.ticket(society, opened, about)
    }
}

/// One line of a ticket's timeline.
struct Event {
    at: DateTime<Utc>,
    kind: &'static str,
    user: String,
    from: Option<&'static str>,
    to: Option<&'static str>,
    note: Option<&'static str>,
    assignee: Option<String>,
}

impl Event {
    fn new(at: DateTime<Utc>, kind: &'static str, user: &str) -> Event {
        Event {
            at,
            kind,
            user: user.to_string(),
            from: None,
            to: None,
            note: None,
            assignee: None,
        }
    }
}

/// Writes the tickets and their timelines; fills `summary`'s counts of them.
pub fn write(
    conn: &Connection,
    rng: &mut Rng,
    today: NaiveDate,
    summary: &mut Summary,
) -> Result<(), AppError> {
    let staff: Vec<String> = conn
        .prepare("SELECT id FROM staff ORDER BY id")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let owner = super::store::owner_id(conn)?;
    type ClientRow = (String, Option<String>, String, String);
    let clients: Vec<ClientRow> = conn
        .prepare("SELECT id, owner_id, status, substr(created_at, 1, 10) FROM client ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    let mut desk = Desk {
        conn,
        rng,
        staff,
        today,
        now: clock::now(),
        summary,
    };
    for (id, account_owner, status, since) in &clients {
        let since = clock::date(since).unwrap_or(today).min(today);
        let span = (today - since).num_days();
        let society = Society {
            id,
            owner: account_owner.as_deref().unwrap_or(&owner),
            since,
            settled: status == "lost",
        };
        if status == crate::demo::history::LEAD {
            if desk.rng.chance(40) {
                let (subject, description) = *desk.rng.pick(LEAD_CALLS);
                let opened = since + Duration::days(desk.rng.range(0, span));
                let about = Subject {
                    subject,
                    description,
                    ticket_type: "service",
                    kind: Some("Demo"),
                    fix: None,
                };
                desk.ticket(&society, opened, about)?;
            }
            continue;
        }
        // A lost society stopped calling a while ago.
        let calling = if society.settled { (span - 60).max(0) } else { span };
        let mut days: Vec<NaiveDate> = (0..desk.rng.range(6, 13))
            .map(|_| since + Duration::days(desk.rng.range(0, calling)))
            .collect();
        // A society still with us has often called in the last weeks.
        if !society.settled && desk.rng.chance(25) {
            days.push(today - Duration::days(desk.rng.range(0, 45.min(span))));
        }
        days.sort();
        for day in days {
            desk.call(&society, day)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticket_moves_in_order_and_never_past_today() {
        let mut rng = Rng::new(19);
        let today = NaiveDate::from_ymd_opt(2026, 11, 25).unwrap();
        for n in 0..5000 {
            let opened = today - Duration::days(n % 400);
            let settled = n % 7 == 0;
            let path = moves(&mut rng, opened, today, settled);
            assert!(path.windows(2).all(|w| w[0].0 <= w[1].0), "{n}");
            assert!(path.iter().all(|(day, _)| (opened..=today).contains(day)), "{n}");
            let last = path.last().map_or("open", |(_, s)| match s {
                Step::Status(to) => *to,
                Step::Note(_) => unreachable!("moves write no notes"),
            });
            // A settled society's old calls are all dealt with.
            if settled && n % 400 > 60 {
                assert!(["resolved", "closed"].contains(&last), "{n}: {last}");
            }
        }
    }

    /// A small office: each ticket's status, resolution day and tallies agree with its
    /// timeline, as the API would have left them.
    #[test]
    fn the_tickets_agree_with_their_timelines() {
        let (_dir, conn, summary, _) = crate::demo::small_office(crate::demo::Options {
            clients: 300,
            years: 3,
            seed: 19,
        });
        let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(one("SELECT COUNT(*) FROM ticket") as usize, summary.tickets);
        assert_eq!(
            one("SELECT COUNT(*) FROM ticket_event") as usize,
            summary.ticket_events
        );
        let open = "status IN ('open', 'in_progress', 'waiting_on_client')";
        assert_eq!(
            one(&format!("SELECT COUNT(*) FROM ticket WHERE {open}")) as usize,
            summary.tickets_open
        );
        assert!(
            (2_400..=3_600).contains(&summary.tickets),
            "{} tickets",
            summary.tickets
        );
        for status in ["open", "in_progress", "waiting_on_client", "resolved", "closed"] {
            assert!(
                one(&format!("SELECT COUNT(*) FROM ticket WHERE status = '{status}'")) > 0,
                "no {status}"
            );
        }
        let overdue = one(&format!(
            "SELECT COUNT(*) FROM ticket WHERE {open} AND opened_on < date('now', '-7 day')"
        ));
        assert!(
            overdue > 0 && overdue * 20 < summary.tickets as i64,
            "{overdue} overdue"
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM ticket WHERE opened_on > date('now', '+1 day')"),
            0
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM ticket WHERE (resolved_on IS NOT NULL) <> (status IN ('resolved', 'closed'))
                    OR resolved_on < opened_on"),
            0
        );
        // The tallies the triggers keep.
        assert_eq!(
            one("SELECT SUM(n) FROM ticket_tally"),
            one("SELECT COUNT(*) FROM ticket")
        );
        assert_eq!(
            one("SELECT SUM(n) FROM ticket_kind_tally"),
            one("SELECT COUNT(kind) FROM ticket")
        );
        // The timeline: opened first at the ticket's creation, in time order, never after now,
        // each move from the status the one before left, the last the ticket's status.
        let now = clock::now_timestamp();
        assert_eq!(
            one(&format!("SELECT COUNT(*) FROM ticket_event WHERE at > '{now}'")),
            0
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM ticket t WHERE
                   (SELECT kind || at FROM ticket_event e WHERE e.ticket_id = t.id ORDER BY e.id LIMIT 1) IS NOT 'opened' || t.created_at
                   OR t.updated_at IS NOT (SELECT MAX(at) FROM ticket_event e WHERE e.ticket_id = t.id)
                   OR t.status IS NOT COALESCE((SELECT to_status FROM ticket_event e WHERE e.ticket_id = t.id AND e.kind = 'status'
                                                ORDER BY e.id DESC LIMIT 1), 'open')"),
            0
        );
        assert_eq!(
            one(
                "SELECT COUNT(*) FROM ticket_event a JOIN ticket_event b ON b.ticket_id = a.ticket_id AND a.id < b.id AND a.at > b.at"
            ),
            0
        );
        assert_eq!(
            one("SELECT COUNT(*) FROM ticket_event e WHERE e.kind = 'status' AND e.from_status IS NOT
                   COALESCE((SELECT p.to_status FROM ticket_event p WHERE p.ticket_id = e.ticket_id AND p.kind = 'status'
                             AND p.id < e.id ORDER BY p.id DESC LIMIT 1), 'open')"),
            0
        );
        // Assigned exactly when someone other than the account owner has it.
        assert_eq!(
            one("SELECT COUNT(*) FROM ticket t JOIN client c ON c.id = t.client_id WHERE t.created_by IS NOT c.owner_id
                    OR (t.assignee_id <> t.created_by) <> EXISTS (SELECT 1 FROM ticket_event e WHERE e.ticket_id = t.id
                        AND e.kind = 'assigned' AND e.assignee_id = t.assignee_id)"),
            0
        );
        // Leads: recent, nothing bought or billed, at most one call.
        assert_eq!(
            one("SELECT COUNT(*) FROM client WHERE status = 'lead'") as usize,
            summary.leads
        );
        assert!(summary.leads > 0);
        assert_eq!(
            one("SELECT COUNT(*) FROM client c WHERE c.status = 'lead' AND (c.created_at < date('now', '-151 day')
                    OR EXISTS (SELECT 1 FROM document d WHERE d.client_id = c.id)
                    OR (SELECT COUNT(*) FROM ticket t WHERE t.client_id = c.id) > 1)"),
            0
        );
        assert_eq!(
            one(
                "SELECT COUNT(*) FROM bare_client b JOIN client c ON c.id = b.client_id WHERE c.status <> 'lead'"
            ),
            0
        );
    }
}
