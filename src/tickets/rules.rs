//! The rules of support tickets (spec 2.10, 2.11, 3.3; decisions 5, 9, 11):
//!
//! - A status is `open`, `in_progress`, `waiting_on_client`, `resolved` or `closed`; the first
//!   three are "still open". Any status may move to any other (a resolved call that comes back
//!   is reopened); `resolved_on` is set on the move out of the still-open group and cleared on
//!   the move back into it.
//! - A ticket's age is whole office days from `opened_on` to today while it is still open, and
//!   to `resolved_on` once it is not. Its SLA clock runs while it is open or in progress and
//!   pauses while it waits on the client (decisions 12): `sla_age` is its age less the days it
//!   waited, and it is `overdue` when the clock runs and `sla_age` passes the `ticket.sla_days`
//!   setting in force today.
//! - `opened_on` is today by default, may be backdated (a call logged late), never lies in the
//!   future, and never after the day it was resolved.
//! - `type` is one of the `ticket.types` setting in force (seeded on first boot; the code's
//!   list when the stored one cannot be read), `service` by default. `kind` is free text.
//! - The list's chips are status groups: `still_open` (the default), each status, and `all`.

use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use serde_json::Value;

pub const STATUSES: &[&str] = &["open", "in_progress", "waiting_on_client", "resolved", "closed"];
pub const STILL_OPEN: &[&str] = &["open", "in_progress", "waiting_on_client"];
/// The SQL twin of [`STILL_OPEN`], word for word the WHERE of the `ticket_still_open` index
/// (migrations/V16) so the planner takes it.
pub const STILL_OPEN_SQL: &str = "t.status IN ('open', 'in_progress', 'waiting_on_client')";

/// The list's chips, in the order the console shows them.
pub const CHIPS: &[&str] = &[
    "still_open",
    "open",
    "in_progress",
    "waiting_on_client",
    "resolved",
    "closed",
    "all",
];
pub const DEFAULT_CHIP: &str = "still_open";
pub const DEFAULT_TYPE: &str = "service";

pub const MAX_SUBJECT: usize = 200;
pub const MAX_TEXT: usize = 5000;
pub const MAX_KIND: usize = 60;

pub fn still_open(status: &str) -> bool {
    STILL_OPEN.contains(&status)
}

/// The statuses a chip stands for (None: every status).
pub fn chip_statuses(chip: &str) -> Option<&'static [&'static str]> {
    match chip {
        "still_open" => Some(STILL_OPEN),
        "all" => None,
        other => STATUSES
            .iter()
            .position(|s| *s == other)
            .map(|i| &STATUSES[i..=i]),
    }
}

/// Whole days from `opened_on` to today while still open, else to the day it was resolved.
pub fn age(opened_on: NaiveDate, resolved_on: Option<NaiveDate>, status: &str, today: NaiveDate) -> i64 {
    let end = match resolved_on {
        Some(day) if !still_open(status) => day,
        _ => today,
    };
    (end - opened_on).num_days().max(0)
}

/// Whether a ticket's SLA clock runs: open or in progress. It pauses while the ticket waits on
/// the client and stops once it is resolved or closed.
pub fn sla_runs(status: &str) -> bool {
    matches!(status, "open" | "in_progress")
}

/// The SQL twin of [`sla_runs`], word for word the condition of the `ticket_sla_running` index.
pub const SLA_RUNS_SQL: &str = "t.status IN ('open', 'in_progress')";

/// The days counted against the SLA: from `sla_from` (opened_on moved later by the finished
/// waits) to today, less the present wait (from `waiting_since`); to the day it was resolved
/// once it is not still open.
pub fn sla_age(
    sla_from: NaiveDate,
    resolved_on: Option<NaiveDate>,
    status: &str,
    waiting_since: Option<NaiveDate>,
    today: NaiveDate,
) -> i64 {
    let end = match (status, resolved_on, waiting_since) {
        (_, Some(day), _) if !still_open(status) => day,
        ("waiting_on_client", _, Some(since)) => since,
        _ => today,
    };
    (end - sla_from).num_days().max(0)
}

/// Past the SLA: its clock runs and it has counted more than `sla_days` days.
pub fn overdue(status: &str, sla_age: i64, sla_days: i64) -> bool {
    sla_runs(status) && sla_age > sla_days
}

/// The last `sla_from` a ticket whose clock runs may have today and not be overdue: one older
/// is past the SLA (the SQL twin of [`overdue`]).
pub fn overdue_before(today: NaiveDate, sla_days: i64) -> NaiveDate {
    today - chrono::Duration::days(sla_days)
}

/// A ticket's `sla_from` after a wait that began on `waiting_since` ends on `today`: moved
/// later by the wait's whole days (a wait of unknown start counts as none).
pub fn sla_from_after_wait(
    sla_from: NaiveDate,
    waiting_since: Option<NaiveDate>,
    today: NaiveDate,
) -> NaiveDate {
    let waited = waiting_since.map_or(0, |since| (today - since).num_days().max(0));
    sla_from + chrono::Duration::days(waited)
}

/// The ticket types of the `ticket.types` setting; the code's list when it is not a list of
/// names.
pub fn types(stored: Option<Value>, fallback: Value) -> Vec<String> {
    let names = |v: &Value| -> Option<Vec<String>> {
        let list: Vec<String> = v
            .as_array()?
            .iter()
            .map(|t| t.as_str().map(|s| s.trim().to_string()))
            .collect::<Option<_>>()?;
        (!list.is_empty() && list.iter().all(|t| !t.is_empty())).then_some(list)
    };
    stored
        .as_ref()
        .and_then(names)
        .or_else(|| names(&fallback))
        .unwrap_or_else(|| vec![DEFAULT_TYPE.to_string()])
}

/// The most ticket types the list holds, and the longest name.
pub const MAX_TYPES: usize = 30;
pub const MAX_TYPE_NAME: usize = 40;

/// A new `ticket.types` list (decisions 12): 1 to 30 names, each 1 to 40 characters once
/// trimmed, none twice (letter case aside); each fault on `types[i]`.
pub fn check_types(names: Vec<String>) -> Result<Vec<String>, AppError> {
    if names.is_empty() || names.len() > MAX_TYPES {
        return Err(AppError::invalid(
            "types",
            "invalid_types",
            format!("Give 1 to {MAX_TYPES} ticket types."),
        ));
    }
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for (i, raw) in names.iter().enumerate() {
        let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        if name.is_empty() || name.chars().count() > MAX_TYPE_NAME || name.chars().any(char::is_control) {
            return Err(AppError::invalid(
                &format!("types[{i}]"),
                "invalid_type",
                format!("A type's name is 1 to {MAX_TYPE_NAME} characters."),
            ));
        }
        if out.iter().any(|t| t.to_lowercase() == name.to_lowercase()) {
            return Err(AppError::invalid(
                &format!("types[{i}]"),
                "duplicate_type",
                format!("{name} is in the list twice."),
            ));
        }
        out.push(name);
    }
    Ok(out)
}

/// The type a ticket opened without one takes: `service` while the list has it, else the
/// list's first.
pub fn default_type(types: &[String]) -> String {
    types
        .iter()
        .find(|t| t.as_str() == DEFAULT_TYPE)
        .or_else(|| types.first())
        .cloned()
        .unwrap_or_else(|| DEFAULT_TYPE.to_string())
}

/// A subject: 1 to 200 characters once trimmed.
pub fn check_subject(raw: &str) -> Result<String, AppError> {
    let text = raw.trim();
    if text.is_empty() || text.chars().count() > MAX_SUBJECT {
        return Err(AppError::invalid(
            "subject",
            "invalid_subject",
            "Write a subject of 1 to 200 characters.",
        ));
    }
    Ok(text.to_string())
}

/// Optional free text of at most `max` characters; empty is none.
pub fn check_text(field: &str, raw: &str, max: usize) -> Result<Option<String>, AppError> {
    let text = raw.trim();
    if text.chars().count() > max {
        return Err(AppError::invalid(
            field,
            "too_long",
            format!("Write at most {max} characters."),
        ));
    }
    Ok((!text.is_empty()).then(|| text.to_string()))
}

/// A status of [`STATUSES`].
pub fn check_status(raw: &str) -> Result<&'static str, AppError> {
    STATUSES.iter().find(|s| **s == raw).copied().ok_or_else(|| {
        AppError::invalid(
            "status",
            "unknown_status",
            format!("The status is one of {}.", STATUSES.join(", ")),
        )
    })
}

/// A type of the list in force.
pub fn check_type(raw: &str, types: &[String]) -> Result<String, AppError> {
    let text = raw.trim();
    types
        .iter()
        .find(|t| t.eq_ignore_ascii_case(text))
        .cloned()
        .ok_or_else(|| {
            AppError::invalid(
                "type",
                "unknown_type",
                format!("The type is one of {}.", types.join(", ")),
            )
        })
}

/// The day a ticket was opened: a real date, not in the future, not after it was resolved.
pub fn check_opened_on(
    raw: &str,
    today: NaiveDate,
    resolved_on: Option<NaiveDate>,
) -> Result<NaiveDate, AppError> {
    let day = clock::check_date("opened_on", raw)?;
    if day > today {
        return Err(AppError::invalid(
            "opened_on",
            "future_date",
            format!("A ticket cannot be opened after today ({today})."),
        ));
    }
    if resolved_on.is_some_and(|r| day > r) {
        return Err(AppError::invalid(
            "opened_on",
            "after_resolved",
            "A ticket cannot be opened after the day it was resolved.",
        ));
    }
    if day < NaiveDate::from_ymd_opt(2000, 1, 1).expect("a date") {
        return Err(AppError::invalid(
            "opened_on",
            "invalid_date",
            "Give a date from 2000 on.",
        ));
    }
    Ok(day)
}

/// The `resolved_on` a move from `from` to `to` leaves: set to today on leaving the still-open
/// group, cleared on coming back to it, kept otherwise.
pub fn resolved_on_after(
    from: &str,
    to: &str,
    kept: Option<NaiveDate>,
    today: NaiveDate,
) -> Option<NaiveDate> {
    match (still_open(from), still_open(to)) {
        (true, false) => Some(today),
        (false, true) => None,
        (false, false) => kept.or(Some(today)),
        (true, true) => None,
    }
}

/// The note and the line of a bill raised from a ticket: both name it.
pub fn bill_texts(subject: &str, opened_on: Option<NaiveDate>) -> (String, String) {
    let opened = opened_on.map_or_else(String::new, |d| format!(" of {}", d.format("%d-%m-%Y")));
    (
        format!("Support ticket{opened}: {subject}."),
        format!("Support: {subject} (ticket{opened})"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    #[test]
    fn a_types_list_is_one_to_thirty_distinct_names() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            check_types(names(&["  AMC   visit ", "bug"])).unwrap(),
            names(&["AMC visit", "bug"])
        );
        let refused = [
            (names(&[]), "types", "invalid_types"),
            ((0..31).map(|i| i.to_string()).collect(), "types", "invalid_types"),
            (names(&["bug", ""]), "types[1]", "invalid_type"),
            (names(&[&"x".repeat(41)]), "types[0]", "invalid_type"),
            (names(&["bug\u{7}"]), "types[0]", "invalid_type"),
            (names(&["Bug", "bug"]), "types[1]", "duplicate_type"),
        ];
        for (list, field, code) in refused {
            let err = check_types(list.clone()).unwrap_err();
            assert_eq!((err.field.as_deref(), err.code), (Some(field), code), "{list:?}");
        }
        assert_eq!(default_type(&names(&["bug", "service"])), "service");
        assert_eq!(default_type(&names(&["bug", "AMC"])), "bug");
    }

    fn day(text: &str) -> NaiveDate {
        clock::date(text).unwrap()
    }

    #[test]
    fn age_counts_to_today_while_open_and_to_the_resolution_after() {
        let today = day("2026-11-25");
        let cases = [
            ("2026-11-25", None, "open", 0),
            ("2026-11-18", None, "in_progress", 7),
            ("2026-11-17", None, "waiting_on_client", 8),
            ("2026-11-01", Some("2026-11-04"), "resolved", 3),
            ("2026-11-01", Some("2026-11-04"), "closed", 3),
            // Reopened: resolved_on is cleared by the move, but counts to today either way.
            ("2026-11-01", Some("2026-11-04"), "open", 24),
            // A closed ticket with no day recorded (never in the API's writes): to today.
            ("2026-11-20", None, "closed", 5),
        ];
        for (opened, resolved, status, want) in cases {
            assert_eq!(
                age(day(opened), resolved.map(day), status, today),
                want,
                "{opened} {resolved:?} {status}"
            );
        }
    }

    #[test]
    fn the_sla_clock_leaves_out_the_waits() {
        let today = day("2026-11-25");
        let from = day("2026-11-10");
        // Running: to today; waiting: to the day the wait began; resolved: to that day.
        assert_eq!(sla_age(from, None, "in_progress", None, today), 15);
        assert_eq!(
            sla_age(from, None, "waiting_on_client", Some(day("2026-11-20")), today),
            10
        );
        assert_eq!(
            sla_age(from, Some(day("2026-11-22")), "resolved", None, today),
            12
        );
        // A wait of six days moves the clock's start six days later; one of unknown start, none.
        assert_eq!(
            sla_from_after_wait(from, Some(day("2026-11-19")), today),
            day("2026-11-16")
        );
        assert_eq!(sla_from_after_wait(from, None, today), from);
    }

    #[test]
    fn overdue_is_past_the_sla_while_the_clock_runs() {
        let cases = [
            ("open", 7, 7, false),
            ("open", 8, 7, true),
            // The clock is paused while the ticket waits on the client.
            ("waiting_on_client", 8, 7, false),
            ("in_progress", 3, 2, true),
            ("resolved", 30, 7, false),
            ("closed", 30, 7, false),
        ];
        for (status, age, sla, want) in cases {
            assert_eq!(overdue(status, age, sla), want, "{status} {age} {sla}");
        }
        let today = day("2026-11-25");
        let before = overdue_before(today, 7);
        assert_eq!(before, day("2026-11-18"));
        assert!(!overdue("open", age(before, None, "open", today), 7));
        assert!(overdue(
            "open",
            age(before.pred_opt().unwrap(), None, "open", today),
            7
        ));
    }

    #[test]
    fn chips_stand_for_status_groups() {
        assert_eq!(chip_statuses("still_open"), Some(STILL_OPEN));
        assert_eq!(
            chip_statuses("waiting_on_client"),
            Some(&["waiting_on_client"][..])
        );
        assert_eq!(chip_statuses("all"), None);
        assert_eq!(chip_statuses("pending"), None);
        for chip in CHIPS {
            assert!(*chip == "all" || chip_statuses(chip).is_some(), "{chip}");
        }
    }

    #[test]
    fn types_come_from_the_setting_or_the_code() {
        let fallback = json!(["service", "training"]);
        assert_eq!(
            types(Some(json!(["bug", " amc "])), fallback.clone()),
            ["bug", "amc"]
        );
        for broken in [json!([]), json!("service"), json!([1, 2]), json!(["", "bug"])] {
            assert_eq!(types(Some(broken), fallback.clone()), ["service", "training"]);
        }
        assert_eq!(types(None, fallback), ["service", "training"]);
        let list = types(None, json!(["service", "Data correction"]));
        assert_eq!(check_type("data CORRECTION", &list).unwrap(), "Data correction");
        assert_eq!(check_type("hardware", &list).unwrap_err().code, "unknown_type");
    }

    #[test]
    fn opened_on_is_never_in_the_future_nor_after_the_resolution() {
        let today = day("2026-11-25");
        assert_eq!(check_opened_on("2026-11-25", today, None).unwrap(), today);
        assert_eq!(
            check_opened_on(" 2026-10-01 ", today, None).unwrap(),
            day("2026-10-01")
        );
        for (raw, resolved, code) in [
            ("2026-11-26", None, "future_date"),
            ("2026-11-10", Some("2026-11-05"), "after_resolved"),
            ("25-11-2026", None, "invalid_date"),
            ("1999-12-31", None, "invalid_date"),
            ("", None, "invalid_date"),
        ] {
            let e = check_opened_on(raw, today, resolved.map(day)).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (code, Some("opened_on")), "{raw}");
        }
    }

    #[test]
    fn resolution_day_follows_the_moves() {
        let today = day("2026-11-25");
        let kept = Some(day("2026-11-20"));
        assert_eq!(resolved_on_after("open", "resolved", None, today), Some(today));
        assert_eq!(
            resolved_on_after("in_progress", "closed", None, today),
            Some(today)
        );
        assert_eq!(resolved_on_after("resolved", "closed", kept, today), kept);
        assert_eq!(resolved_on_after("closed", "open", kept, today), None);
        assert_eq!(resolved_on_after("open", "waiting_on_client", None, today), None);
    }

    #[test]
    fn a_bill_names_its_ticket() {
        assert_eq!(
            bill_texts("Day-end stuck", Some(day("2026-11-03"))),
            (
                "Support ticket of 03-11-2026: Day-end stuck.".to_string(),
                "Support: Day-end stuck (ticket of 03-11-2026)".to_string()
            )
        );
    }

    #[test]
    fn subjects_texts_and_statuses_are_checked() {
        assert_eq!(check_subject("  Day-end stuck ").unwrap(), "Day-end stuck");
        assert_eq!(check_subject(" ").unwrap_err().code, "invalid_subject");
        assert_eq!(
            check_subject(&"x".repeat(201)).unwrap_err().code,
            "invalid_subject"
        );
        assert_eq!(check_text("kind", "  ", MAX_KIND).unwrap(), None);
        assert_eq!(
            check_text("kind", &"k".repeat(61), MAX_KIND).unwrap_err().code,
            "too_long"
        );
        assert_eq!(check_status("waiting_on_client").unwrap(), "waiting_on_client");
        assert_eq!(check_status("pending").unwrap_err().code, "unknown_status");
    }
}
