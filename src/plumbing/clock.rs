//! Time as the service writes it: RFC 3339 UTC with second precision, so text order is time order;
//! office days; calendar months (`YYYY-MM`), which the monthly figures and reports count in; and
//! the one reading of a date a request body writes `YYYY-MM-DD` ([`check_date`]).

use crate::plumbing::error::AppError;
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

/// A quarter of a financial year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Quarter {
    Q1,
    Q2,
    Q3,
    Q4,
}

impl Quarter {
    pub const ALL: [Quarter; 4] = [Quarter::Q1, Quarter::Q2, Quarter::Q3, Quarter::Q4];

    /// `Q1` to `Q4` (any case, spaces around allowed).
    pub fn parse(text: &str) -> Option<Quarter> {
        match text.trim().to_ascii_uppercase().as_str() {
            "Q1" => Some(Quarter::Q1),
            "Q2" => Some(Quarter::Q2),
            "Q3" => Some(Quarter::Q3),
            "Q4" => Some(Quarter::Q4),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Quarter::Q1 => "Q1",
            Quarter::Q2 => "Q2",
            Quarter::Q3 => "Q3",
            Quarter::Q4 => "Q4",
        }
    }

    /// 0 for Q1 to 3 for Q4.
    pub fn index(self) -> u32 {
        self as u32
    }

    /// The quarter of index 0 to 3.
    pub fn from_index(i: u32) -> Option<Quarter> {
        Quarter::ALL.get(i as usize).copied()
    }

    /// "April to June".
    pub fn months(self) -> &'static str {
        match self {
            Quarter::Q1 => "April to June",
            Quarter::Q2 => "July to September",
            Quarter::Q3 => "October to December",
            Quarter::Q4 => "January to March",
        }
    }
}

/// A financial year, April to March, named by the year it starts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fy {
    pub start: i32,
}

impl Fy {
    /// `2025-26` (a year from [`FIRST_YEAR`]), spaces around allowed.
    pub fn parse(text: &str) -> Option<Fy> {
        let (start, end) = text.trim().split_once('-')?;
        let start: i32 = start.parse().ok().filter(|_| start.len() == 4)?;
        let end: i32 = end.parse().ok().filter(|_| end.len() == 2)?;
        ((FIRST_YEAR..=9998).contains(&start) && (start + 1) % 100 == end).then_some(Fy { start })
    }

    /// The financial year `day` is in.
    pub fn of(day: NaiveDate) -> Fy {
        Fy {
            start: if day.month() >= 4 {
                day.year()
            } else {
                day.year() - 1
            },
        }
    }

    /// A day of the calendar known to exist (MIN if it does not).
    pub fn day(year: i32, month: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(year, month, day).unwrap_or(NaiveDate::MIN)
    }

    /// The first day of `q`.
    pub fn quarter_first(self, q: Quarter) -> NaiveDate {
        let month = 4 + 3 * q.index();
        if month > 12 {
            Fy::day(self.start + 1, month - 12, 1)
        } else {
            Fy::day(self.start, month, 1)
        }
    }

    /// The last day of `q`.
    pub fn quarter_last(self, q: Quarter) -> NaiveDate {
        match q {
            Quarter::Q1 => Fy::day(self.start, 6, 30),
            Quarter::Q2 => Fy::day(self.start, 9, 30),
            Quarter::Q3 => Fy::day(self.start, 12, 31),
            Quarter::Q4 => Fy::day(self.start + 1, 3, 31),
        }
    }

    /// 1 April to 31 March.
    pub fn first_day(self) -> NaiveDate {
        self.quarter_first(Quarter::Q1)
    }

    pub fn last_day(self) -> NaiveDate {
        self.quarter_last(Quarter::Q4)
    }

    pub fn previous(self) -> Fy {
        Fy {
            start: self.start - 1,
        }
    }
}

impl Fy {
    /// `26-27`: the year in a document's number (`INV/26-27-0001`).
    pub fn short(self) -> String {
        format!("{:02}-{:02}", self.start % 100, (self.start + 1) % 100)
    }

    /// The `fy` parameter of a query: 400 `invalid_fy` on `fy` when it is no financial year.
    pub fn param(text: &str) -> Result<Fy, AppError> {
        Fy::parse(text).ok_or_else(|| {
            AppError::bad_request("invalid_fy", "fy is a financial year as YYYY-YY, e.g. 2025-26.")
                .on_field("fy")
        })
    }

    /// Its first month, April.
    pub fn first_month(self) -> Month {
        Month::of(self.first_day())
    }
}

impl std::fmt::Display for Fy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{:02}", self.start, (self.start + 1).rem_euclid(100))
    }
}

/// The financial year and quarter `day` falls in.
pub fn quarter_of(day: NaiveDate) -> (Fy, Quarter) {
    let index = (day.month() + 8) % 12 / 3;
    (Fy::of(day), Quarter::from_index(index).unwrap_or(Quarter::Q1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_financial_year_is_written_2025_26_and_runs_april_to_march() {
        let fy = Fy::parse(" 2025-26 ").unwrap();
        assert_eq!(
            (fy.to_string(), fy.short()),
            ("2025-26".to_string(), "25-26".to_string())
        );
        assert_eq!(
            (fy.first_day().to_string(), fy.last_day().to_string()),
            ("2025-04-01".into(), "2026-03-31".into())
        );
        assert_eq!(fy.first_month().to_string(), "2025-04");
        assert_eq!(Fy::parse("2099-00").map(|f| f.start), Some(2099));
        for bad in ["2025-27", "25-26", "2025/26", "1999-00", "2025-2026", ""] {
            assert_eq!(Fy::parse(bad), None, "{bad}");
        }
        assert_eq!(Fy::param("x").unwrap_err().code, "invalid_fy");
    }

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
