//! Time as the service writes it: RFC 3339 UTC with second precision, so text order is time order;
//! office days; calendar months (`YYYY-MM`), which the monthly figures and reports count in; and
//! the one reading of a date a request body writes `YYYY-MM-DD` ([`check_date`]).

use crate::error::AppError;
use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, SecondsFormat, Utc};

pub fn now() -> DateTime<Utc> {
    Utc::now()
}

/// `2026-11-22T09:30:00Z`.
pub fn timestamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub fn now_timestamp() -> String {
    timestamp(now())
}

pub fn parse_timestamp(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Parses an offset such as `+05:30` (the `company.utc_offset` setting).
pub fn parse_offset(text: &str) -> Option<FixedOffset> {
    let sign = match text.chars().next()? {
        '+' => 1,
        '-' => -1,
        _ => return None,
    };
    let (hours, minutes) = text[1..].split_once(':')?;
    let (hours, minutes): (i32, i32) = (hours.parse().ok()?, minutes.parse().ok()?);
    if !(0..=14).contains(&hours) || !(0..60).contains(&minutes) {
        return None;
    }
    FixedOffset::east_opt(sign * (hours * 3600 + minutes * 60))
}

/// The UTC timestamp at which `day` begins in the office's time zone.
pub fn office_day_start(day: NaiveDate, offset: FixedOffset) -> String {
    let local_midnight = day.and_hms_opt(0, 0, 0).expect("midnight exists");
    timestamp(DateTime::<Utc>::from_naive_utc_and_offset(
        local_midnight - offset,
        Utc,
    ))
}

/// UTC bounds `[from, to)` for a filter of office days `from..=to` (both optional).
pub fn office_days(
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    offset: FixedOffset,
) -> (Option<String>, Option<String>) {
    (
        from.map(|d| office_day_start(d, offset)),
        to.and_then(|d| d.succ_opt()).map(|d| office_day_start(d, offset)),
    )
}

/// The office's date of a stored UTC timestamp.
pub fn office_date(timestamp: &str, offset: FixedOffset) -> Option<NaiveDate> {
    parse_timestamp(timestamp).map(|t| t.with_timezone(&offset).date_naive())
}

/// Today's date in the office's time zone.
pub fn office_today(offset: FixedOffset) -> NaiveDate {
    now().with_timezone(&offset).date_naive()
}

/// A day as the data file keeps it, `YYYY-MM-DD` (a longer text, such as a timestamp, is not
/// one: take its first ten characters). The one reading of a stored day.
pub fn date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

/// A date of a request body written `YYYY-MM-DD` (years 1900 to 9998), `invalid_date` on
/// `field` when it is none: an impossible day says so ([`no_such_date`]) rather than asking for
/// the format the text already has.
pub fn check_date(field: &str, raw: &str) -> Result<NaiveDate, AppError> {
    let raw = raw.trim();
    date(raw)
        .filter(|d| (1900..=9998).contains(&d.year()))
        .ok_or_else(|| {
            let message = no_such_date(raw).unwrap_or_else(|| "Give the date as YYYY-MM-DD.".into());
            AppError::invalid(field, "invalid_date", message)
        })
}

/// Why `text`, written `YYYY-MM-DD` with a real month, is no date: "2026-02-31: there is no
/// such date (February has 28 days in 2026)." None for any other text, dates included.
pub fn no_such_date(text: &str) -> Option<String> {
    let text = text.trim();
    let mut parts = text.split('-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || year.len() != 4 || month.len() != 2 || day.len() != 2 {
        return None;
    }
    let (year, month, day): (i32, u32, u32) = (year.parse().ok()?, month.parse().ok()?, day.parse().ok()?);
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    let days = Month::of(first).last_day().day();
    let name = chrono::Month::try_from(u8::try_from(month).ok()?).ok()?.name();
    (day == 0 || day > days)
        .then(|| format!("{text}: there is no such date ({name} has {days} days in {year})."))
}

/// No month before this year is taken: the business is younger, and a year 0026 is a typo.
pub const FIRST_YEAR: i32 = 2000;

/// A calendar month, `YYYY-MM`; months order as time does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month {
    year: i32,
    /// 1 to 12.
    month: u32,
}

impl Month {
    /// Reads exactly `YYYY-MM` (four digits, a dash, two digits, month 01 to 12, year from 2000).
    pub fn parse(text: &str) -> Option<Month> {
        let bytes = text.as_bytes();
        if bytes.len() != 7
            || bytes[4] != b'-'
            || !bytes[..4].iter().chain(&bytes[5..]).all(u8::is_ascii_digit)
        {
            return None;
        }
        let year: i32 = text[..4].parse().ok()?;
        let month: u32 = text[5..].parse().ok()?;
        ((1..=12).contains(&month) && year >= FIRST_YEAR).then_some(Month { year, month })
    }

    /// The month `day` falls in.
    pub fn of(day: NaiveDate) -> Month {
        Month {
            year: day.year(),
            month: day.month(),
        }
    }

    /// The first day of the month.
    pub fn first_day(self) -> NaiveDate {
        NaiveDate::from_ymd_opt(self.year, self.month, 1).unwrap_or(NaiveDate::MIN)
    }

    /// Months since the start of year 0: consecutive months are consecutive numbers.
    fn index(self) -> i64 {
        i64::from(self.year) * 12 + i64::from(self.month) - 1
    }

    fn from_index(index: i64) -> Month {
        Month {
            year: i32::try_from(index.div_euclid(12)).unwrap_or(i32::MAX),
            month: u32::try_from(index.rem_euclid(12) + 1).unwrap_or(1),
        }
    }

    /// The month `n` months later (earlier when `n` is negative).
    pub fn plus(self, n: i32) -> Month {
        Month::from_index(self.index() + i64::from(n))
    }

    /// The last day of the month.
    pub fn last_day(self) -> NaiveDate {
        self.plus(1).first_day().pred_opt().unwrap_or(NaiveDate::MIN)
    }

    pub fn previous(self) -> Month {
        self.plus(-1)
    }

    /// How many months `self..=to` holds (0 when `to` is before `self`).
    pub fn months_through(self, to: Month) -> i64 {
        (to.index() - self.index() + 1).max(0)
    }
}

impl std::fmt::Display for Month {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_that_does_not_exist_says_so() {
        for (raw, message) in [
            (
                "2026-02-31",
                "2026-02-31: there is no such date (February has 28 days in 2026).",
            ),
            (
                "2028-02-30",
                "2028-02-30: there is no such date (February has 29 days in 2028).",
            ),
            (
                "2026-04-31",
                "2026-04-31: there is no such date (April has 30 days in 2026).",
            ),
            (
                "2026-01-00",
                "2026-01-00: there is no such date (January has 31 days in 2026).",
            ),
            ("2026-13-01", "Give the date as YYYY-MM-DD."),
            ("31-02-2026", "Give the date as YYYY-MM-DD."),
            ("2026-4-1x", "Give the date as YYYY-MM-DD."),
            ("1899-12-31", "Give the date as YYYY-MM-DD."),
            ("", "Give the date as YYYY-MM-DD."),
        ] {
            let e = check_date("due", raw).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref(), e.message.as_str()),
                ("invalid_date", Some("due"), message),
                "{raw}"
            );
        }
        assert_eq!(
            check_date("due", " 2028-02-29 ").ok(),
            NaiveDate::from_ymd_opt(2028, 2, 29)
        );
        assert_eq!(no_such_date("2026-02-28"), None);
    }

    #[test]
    fn offsets_and_office_days() {
        let ist = parse_offset("+05:30").unwrap();
        assert_eq!(ist.local_minus_utc(), 19800);
        assert_eq!(parse_offset("-03:00").unwrap().local_minus_utc(), -10800);
        for bad in ["05:30", "+5", "+25:00", "+05:75", ""] {
            assert!(parse_offset(bad).is_none(), "{bad}");
        }
        let day = NaiveDate::from_ymd_opt(2026, 11, 22).unwrap();
        assert_eq!(office_day_start(day, ist), "2026-11-21T18:30:00Z");
        assert_eq!(office_date("2026-11-21T18:30:00Z", ist), Some(day));
        assert_eq!(office_date("2026-11-21T18:29:59Z", ist), day.pred_opt());
    }

    fn m(text: &str) -> Month {
        Month::parse(text).unwrap()
    }

    #[test]
    fn months_are_read_exactly_and_step_across_years() {
        for bad in [
            "2026-13",
            "2026-00",
            "2026-1",
            "26-01",
            "2026/01",
            "2026-01-01",
            " 2026-01",
            "1999-12",
            "０２０２-01",
            "",
            "abcd-ef",
        ] {
            assert_eq!(Month::parse(bad), None, "{bad:?}");
        }
        assert_eq!(m("2026-01").to_string(), "2026-01");
        assert_eq!(m("2026-01").previous(), m("2025-12"));
        assert_eq!(m("2025-12").plus(1), m("2026-01"));
        assert_eq!(m("2026-11").plus(-11), m("2025-12"));
        assert_eq!(m("2026-11").plus(-120), m("2016-11"));
        assert_eq!(m("2025-12").months_through(m("2026-11")), 12);
        assert_eq!(m("2026-11").months_through(m("2026-11")), 1);
        assert_eq!(m("2026-11").months_through(m("2026-10")), 0);
        assert!(m("2025-12") < m("2026-01"));
        assert_eq!(
            Month::of(NaiveDate::from_ymd_opt(2026, 3, 31).unwrap()),
            m("2026-03")
        );
        assert_eq!(
            m("2026-03").first_day(),
            NaiveDate::from_ymd_opt(2026, 3, 1).unwrap()
        );
        assert_eq!(
            (m("2024-02").last_day(), m("2026-12").last_day()),
            (
                NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
                NaiveDate::from_ymd_opt(2026, 12, 31).unwrap()
            )
        );
    }
}
