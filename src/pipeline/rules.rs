//! The rules of the pipeline (spec 4.6, decisions 11): one row per open sales conversation.
//!
//! - A quotation issued or sent, not yet accepted, converted or cancelled, is `Quoted/Waiting`;
//!   a lost one (or one of a lost client) is `Lost`.
//! - A bare lead is a client with status `lead`, or with no document and no subscription yet,
//!   with no quotation beyond a draft: `Enquiry` (`Lost` once the client is lost).
//! - Age is whole office days from the quotation's first `sent` event (its issue date while it
//!   has not been sent), a lead's from the client's creation.
//! - The colour band and the next action come from the quote follow-up day offsets in force:
//!   `green` before the first rung, `amber` once a rung is crossed with another to come, `red`
//!   once the last is crossed; `grey` for a lost one. `next_on` is the day of the next rung.

use crate::reminders::rules::rung_reached;
use chrono::{Duration, NaiveDate};

pub const FILTERS: &[&str] = &["open", "lost", "all"];

pub const ENQUIRY: &str = "Enquiry";
pub const QUOTED: &str = "Quoted/Waiting";
pub const LOST: &str = "Lost";

/// Where a conversation stands on the follow-up ladder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chase {
    pub age: i64,
    /// green, amber, red or grey.
    pub band: &'static str,
    pub next_action: String,
    pub next_on: Option<NaiveDate>,
}

/// The chase of a conversation at `stage` that began on `anchor`; `sent` says whether its
/// quotation has been sent (a lead has none). `offsets` ascending.
pub fn chase(stage: &str, sent: bool, anchor: NaiveDate, offsets: &[i64], today: NaiveDate) -> Chase {
    let age = (today - anchor).num_days().max(0);
    if stage == LOST {
        return Chase {
            age,
            band: "grey",
            next_action: "None: lost".into(),
            next_on: None,
        };
    }
    let crossed = rung_reached(anchor, offsets.iter().copied(), today);
    let next = offsets.iter().copied().find(|o| *o > age);
    let band = match (crossed, next) {
        (None, _) => "green",
        (Some(_), Some(_)) => "amber",
        (Some(_), None) => "red",
    };
    let next_action = match (stage, sent, crossed, next) {
        (ENQUIRY, ..) => "Send a quotation".to_string(),
        (_, false, ..) => "Send the quotation".to_string(),
        (_, true, None, _) => "Wait for an answer".to_string(),
        (_, true, Some(day), Some(_)) => format!("Follow up (day {day} passed)"),
        (_, true, Some(day), None) => format!("Chase for a decision or mark it lost (day {day} passed)"),
    };
    Chase {
        age,
        band,
        next_action,
        next_on: next.map(|o| anchor + Duration::days(o)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        crate::plumbing::clock::date(text).unwrap()
    }

    /// The band at each offset of the default ladder (3, 7, 14 days), for a sent quotation.
    #[test]
    fn the_band_follows_the_ladder() {
        let sent = day("2026-11-01");
        let ladder = [3, 7, 14];
        let cases = [
            (0, "green", "Wait for an answer", Some("2026-11-04")),
            (2, "green", "Wait for an answer", Some("2026-11-04")),
            (3, "amber", "Follow up (day 3 passed)", Some("2026-11-08")),
            (6, "amber", "Follow up (day 3 passed)", Some("2026-11-08")),
            (7, "amber", "Follow up (day 7 passed)", Some("2026-11-15")),
            (13, "amber", "Follow up (day 7 passed)", Some("2026-11-15")),
            (
                14,
                "red",
                "Chase for a decision or mark it lost (day 14 passed)",
                None,
            ),
            (
                90,
                "red",
                "Chase for a decision or mark it lost (day 14 passed)",
                None,
            ),
        ];
        for (age, band, action, next_on) in cases {
            let today = sent + Duration::days(age);
            let c = chase(QUOTED, true, sent, &ladder, today);
            assert_eq!(
                (c.age, c.band, c.next_action.as_str(), c.next_on),
                (age, band, action, next_on.map(day)),
                "day {age}"
            );
        }
    }

    #[test]
    fn leads_unsent_and_lost_conversations() {
        let today = day("2026-11-25");
        let lead = chase(ENQUIRY, false, day("2026-11-20"), &[3, 7], today);
        assert_eq!(
            (lead.age, lead.band, lead.next_action.as_str(), lead.next_on),
            (5, "amber", "Send a quotation", Some(day("2026-11-27")))
        );
        let unsent = chase(QUOTED, false, day("2026-11-24"), &[3, 7], today);
        assert_eq!(
            (unsent.band, unsent.next_action.as_str()),
            ("green", "Send the quotation")
        );
        let lost = chase(LOST, true, day("2026-10-01"), &[3, 7], today);
        assert_eq!((lost.age, lost.band, lost.next_on), (55, "grey", None));
        // A ladder that starts on the day itself is crossed at once.
        assert_eq!(chase(QUOTED, true, today, &[0, 5], today).band, "amber");
        // An anchor after today (a clock set back) reads as age 0.
        assert_eq!(chase(QUOTED, true, day("2026-11-26"), &[3], today).age, 0);
    }
}
