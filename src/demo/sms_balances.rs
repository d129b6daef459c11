//! The balances of the demo's SMS subscriptions: today's drawn first, then the month of passes
//! made backwards from it (what a society sent each day, the packs it bought).

use crate::demo::Rng;
use chrono::{Datelike, Duration, NaiveDate, Weekday};

/// Days of balance checks kept in the demo: one pass a day, the last one yesterday.
pub const DAYS: usize = 30;
/// The low-balance threshold the demo's balances are drawn around (`sms.low_balance_threshold`'s default).
pub(super) const LOW: i64 = 500;

/// The credit packs a society tops up with.
const PACKS: &[i64] = &[5_000, 10_000, 25_000, 50_000, 100_000, 200_000, 500_000];

/// Today's balance: most in the thousands to lakhs, about one in eight below 500, a few at 0.
pub(super) fn todays_balance(rng: &mut Rng) -> i64 {
    match rng.below(1000) {
        0..15 => 0,
        15..125 => rng.range(1, LOW - 1),
        125..300 => rng.range(LOW, 5_000),
        300..850 => rng.range(5_000, 100_000),
        _ => rng.range(100_000, 600_000),
    }
}

/// What a society sent on `day`: `rate` a working day give or take; on Sundays and the second
/// and fourth Saturdays (bank holidays) often nothing, else a few reminders.
fn sent(rng: &mut Rng, rate: i64, day: NaiveDate) -> i64 {
    let holiday = day.weekday() == Weekday::Sun
        || (day.weekday() == Weekday::Sat && matches!((day.day() - 1) / 7, 1 | 3));
    if holiday {
        if rng.chance(50) {
            0
        } else {
            rng.range(0, rate / 20)
        }
    } else {
        rate * rng.range(60, 140) / 100
    }
}

/// The balance at each pass, backwards from `today`'s: a pass read what the one before it read,
/// less what was sent between them, plus a pack bought between them now and then (bought when
/// half or less was left).
pub(super) fn series(rng: &mut Rng, today: i64, rate: i64, first_day: NaiveDate) -> Vec<i64> {
    let mut v = vec![0; DAYS + 1];
    v[DAYS] = today;
    for i in (1..=DAYS).rev() {
        // Between the pass of v[i - 1] and that of v[i]: the day before the latter.
        let day = first_day + Duration::days(i as i64 - 2);
        let before = if v[i] == 0 && rng.chance(50) {
            0 // it was already empty
        } else {
            v[i] + sent(rng, rate, day)
        };
        v[i - 1] = match PACKS.iter().rev().find(|&&p| p <= before && 2 * p >= before) {
            Some(pack) if rng.chance(4) => before - pack,
            _ => before,
        };
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balances_are_made_backwards_and_never_go_below_zero() {
        let mut rng = Rng::new(3);
        let first = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
        let drawn: Vec<i64> = (0..4000).map(|_| todays_balance(&mut rng)).collect();
        let share = |f: fn(&i64) -> bool| drawn.iter().filter(|b| f(b)).count() * 1000 / drawn.len();
        assert!((8..=25).contains(&share(|b| *b == 0)), "a few at 0");
        assert!(
            (100..=150).contains(&share(|b| *b < LOW)),
            "about one in eight below 500"
        );
        assert!(share(|b| *b >= 5_000) >= 600, "most in the thousands to lakhs");
        for today in drawn.into_iter().take(500) {
            let v = series(&mut rng, today, 700, first);
            assert_eq!(v[DAYS], today);
            assert!(v.iter().all(|b| *b >= 0), "{v:?}");
        }
    }
}
