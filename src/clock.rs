//! Time as the service writes it: RFC 3339 UTC with second precision, so text order is time order.

use chrono::{DateTime, FixedOffset, NaiveDate, SecondsFormat, Utc};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
