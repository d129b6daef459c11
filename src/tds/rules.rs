//! The rules of TDS certificates (issue 21; Income-tax Act 1961, sections 194J and 194C, 200(3),
//! 203; Income-tax Rules 1962, rules 31 and 31A).
//!
//! - A financial year runs April to March and is written `2025-26`; its quarters are Q1
//!   April–June, Q2 July–September, Q3 October–December and Q4 January–March.
//! - The deductor files its quarterly TDS return (Form 26Q) by 31 July, 31 October, 31 January
//!   and 31 May (rule 31A(2)); the certificate in Form 16A is due within fifteen days of that:
//!   15 August, 15 November, 15 February and 15 June (rule 31(3)).
//! - A client and quarter is `awaited` without a certificate, `received` when the certified
//!   amount equals the TDS booked on the allocations of its recorded payments of that quarter,
//!   else `mismatch` (a certificate of a quarter with nothing booked is a mismatch too).
//! - A TAN is ten characters: four letters, five digits, a letter (read trimmed and upper-case).
//!   The section is 194J (fees for professional or technical services) or 194C (work contracts).
//! - A certificate's number is 1 to 20 characters; it is issued on a day from the quarter's last
//!   day to the office's today; it certifies a positive whole number of paise.

use crate::plumbing::clock;
use crate::plumbing::clock::{Fy, Quarter};
use crate::plumbing::error::AppError;
use crate::plumbing::money;
use chrono::{Datelike, Days, NaiveDate};
use serde_json::Value;

/// The sections a society may deduct under.
pub const SECTIONS: &[&str] = &["194J", "194C"];
/// The states of a client's quarter, in the order the chips show them.
pub const STATES: &[&str] = &["awaited", "received", "mismatch", "short_filed", "not_filed"];
/// The longest certificate number kept (TRACES numbers are 7 characters; a revised or manual one
/// may carry a suffix).
pub const MAX_CERTIFICATE_NO: usize = 20;
/// The largest amount a certificate may state: ₹1,000 crore, far beyond any society's TDS and
/// far inside an i64 when a year of them is summed.
pub const MAX_AMOUNT: i64 = 1_000_000_000_000;
/// The days of statutory dates a scan looks back over: a first scan on an old office raises
/// the last year's certificates, not ten years of them.
pub const LOOKBACK_DAYS: u64 = 365;

/// The last day for the deductor's quarterly TDS return (rule 31A(2)): 31 July, 31 October,
/// 31 January and 31 May.
pub fn return_due(fy: Fy, q: Quarter) -> NaiveDate {
    match q {
        Quarter::Q1 => Fy::day(fy.start, 7, 31),
        Quarter::Q2 => Fy::day(fy.start, 10, 31),
        Quarter::Q3 => Fy::day(fy.start + 1, 1, 31),
        Quarter::Q4 => Fy::day(fy.start + 1, 5, 31),
    }
}

/// The day the Form 16A is due from the deductor: fifteen days after the return's last day
/// (rule 31(3)): 15 August, 15 November, 15 February, 15 June.
pub fn certificate_due(fy: Fy, q: Quarter) -> NaiveDate {
    return_due(fy, q)
        .checked_add_days(Days::new(15))
        .unwrap_or(NaiveDate::MAX)
}

/// The quarter whose certificate falls due on `day`, if any (the way back from a reminder's
/// date to its quarter).
pub fn quarter_due_on(day: NaiveDate) -> Option<(Fy, Quarter)> {
    let (fy, q) = match (day.month(), day.day()) {
        (8, 15) => (Fy { start: day.year() }, Quarter::Q1),
        (11, 15) => (Fy { start: day.year() }, Quarter::Q2),
        (2, 15) => (
            Fy {
                start: day.year() - 1,
            },
            Quarter::Q3,
        ),
        (6, 15) => (
            Fy {
                start: day.year() - 1,
            },
            Quarter::Q4,
        ),
        _ => return None,
    };
    Some((fy, q))
}

/// Every quarter whose `due` day (its certificate's, [`certificate_due`], or its return's,
/// [`return_due`]) fell in the year before `as_of`: on or after `as_of` less
/// [`LOOKBACK_DAYS`], before `as_of`. Oldest first.
pub fn quarters_overdue(as_of: NaiveDate, due: fn(Fy, Quarter) -> NaiveDate) -> Vec<(Fy, Quarter)> {
    let earliest = as_of
        .checked_sub_days(Days::new(LOOKBACK_DAYS))
        .unwrap_or(NaiveDate::MIN);
    let mut out = vec![];
    let mut fy = Fy::of(as_of).previous().previous();
    while fy.start <= as_of.year() {
        for q in Quarter::ALL {
            let due = due(fy, q);
            if due >= earliest && due < as_of {
                out.push((fy, q));
            }
        }
        fy.start += 1;
    }
    out
}

/// A client's quarter: with an upload of Form 26AS for its year and a TAN on record (`filed`
/// known), `not_filed` when nothing of the TDS booked was deposited, `short_filed` when less
/// was, `mismatch` when more was (TDS deposited that the books do not hold); else, and when
/// the deposit matches, as its Form 16A says: `awaited` without one, `received` when it
/// certifies what is booked, else `mismatch`.
pub fn state(booked: i64, certified: Option<i64>, filed: Option<i64>) -> &'static str {
    match (filed, certified) {
        (Some(f), _) if f < booked && f <= 0 => "not_filed",
        (Some(f), _) if f < booked => "short_filed",
        (Some(f), _) if f > booked => "mismatch",
        (_, None) => "awaited",
        (_, Some(amount)) if amount == booked => "received",
        (_, Some(_)) => "mismatch",
    }
}

/// How a client's quarter compares with Form 26AS (the counts of an upload).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filing {
    /// Deposited what was booked.
    Matched,
    /// Deposited less, but something.
    Short,
    /// Nothing deposited of what was booked.
    NotFiled,
    /// Deposited more than was booked (nothing booked, or not all of it).
    NotBooked,
}

/// None when there is nothing to compare (nothing booked, nothing deposited).
pub fn filing(booked: i64, filed: i64) -> Option<Filing> {
    Some(match filed.cmp(&booked) {
        _ if booked <= 0 && filed <= 0 => return None,
        std::cmp::Ordering::Equal => Filing::Matched,
        std::cmp::Ordering::Greater => Filing::NotBooked,
        std::cmp::Ordering::Less if filed <= 0 => Filing::NotFiled,
        std::cmp::Ordering::Less => Filing::Short,
    })
}

/// A TAN: four letters, five digits, a letter.
pub fn is_tan(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b[..4].iter().all(u8::is_ascii_uppercase)
        && b[4..9].iter().all(u8::is_ascii_digit)
        && b[9].is_ascii_uppercase()
}

/// A TAN as typed: trimmed and upper-cased, checked; None when empty (cleared).
pub fn check_tan(field: &str, raw: &str) -> Result<Option<String>, AppError> {
    let tan = raw.trim().to_ascii_uppercase();
    if tan.is_empty() {
        return Ok(None);
    }
    if !is_tan(&tan) {
        return Err(AppError::invalid(
            field,
            "invalid_tan",
            "A TAN is 10 characters: 4 letters, 5 digits and a letter, e.g. TVDK01234E.",
        ));
    }
    Ok(Some(tan))
}

/// The rate a section deducts at, in percent: 194J 10, 194C 2 (the payment form's "TDS 10%" and
/// "TDS 2%").
pub fn section_percent(section: &str) -> Option<i64> {
    match section {
        "194J" => Some(10),
        "194C" => Some(2),
        _ => None,
    }
}

/// A section as typed (trimmed, any case); None when empty (cleared).
pub fn check_section(field: &str, raw: &str) -> Result<Option<String>, AppError> {
    let section = raw.trim().to_ascii_uppercase();
    if section.is_empty() {
        return Ok(None);
    }
    match SECTIONS.iter().find(|s| **s == section) {
        Some(s) => Ok(Some(s.to_string())),
        None => Err(AppError::invalid(
            field,
            "invalid_tds_section",
            "The TDS section is 194J (professional or technical fees) or 194C (work contracts).",
        )),
    }
}

/// A certificate number: 1 to 20 characters once trimmed.
pub fn check_certificate_no(raw: &str) -> Result<String, AppError> {
    let no = raw.trim();
    if no.is_empty() {
        return Err(AppError::invalid(
            "certificate_no",
            "required",
            "Enter the certificate number printed on the Form 16A.",
        ));
    }
    if no.chars().count() > MAX_CERTIFICATE_NO {
        return Err(AppError::invalid(
            "certificate_no",
            "too_long",
            format!("A certificate number is at most {MAX_CERTIFICATE_NO} characters."),
        ));
    }
    Ok(no.to_string())
}

/// The day a certificate was issued: a date, not after `today`, and not before `quarter_last`
/// (when the quarter is known) — a Form 16A certifies a quarter that has ended.
pub fn check_issued_on(
    raw: &str,
    quarter_last: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<NaiveDate, AppError> {
    let field = "issued_on";
    let day = clock::check_date(field, raw)?;
    if day > today {
        return Err(AppError::invalid(
            field,
            "in_the_future",
            "A certificate cannot be issued after today.",
        ));
    }
    if let Some(last) = quarter_last
        && day < last
    {
        return Err(AppError::invalid(
            field,
            "before_quarter_end",
            format!(
                "A Form 16A is issued after its quarter ends: on {} or later.",
                long_date(last)
            ),
        ));
    }
    Ok(day)
}

/// The amount certified: a JSON whole number of paise, above 0, at most [`MAX_AMOUNT`].
pub fn check_amount(value: &Value) -> Result<i64, AppError> {
    let invalid = || {
        AppError::invalid(
            "amount",
            "invalid_amount",
            "The amount is a whole number of paise above 0 (₹1,234.50 is 123450).",
        )
    };
    let paise = match value {
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(p), _) => p,
            (None, Some(_)) => i64::MAX,
            _ => return Err(invalid()),
        },
        _ => return Err(invalid()),
    };
    if paise <= 0 {
        return Err(invalid());
    }
    if paise > MAX_AMOUNT {
        return Err(AppError::invalid(
            "amount",
            "amount_too_large",
            format!("A certificate states at most {}.", money::rupees(MAX_AMOUNT)),
        ));
    }
    Ok(paise)
}

/// "15 Nov 2025".
pub fn long_date(d: NaiveDate) -> String {
    d.format("%-d %b %Y").to_string()
}

/// The reminder's sentence: "Form 16A for Q2 2025-26 (₹1,234.00 TDS booked) was due from the
/// society on 15 Nov 2025."
pub fn reason(fy: Fy, q: Quarter, booked: i64, due: NaiveDate) -> String {
    format!(
        "Form 16A for {} {fy} ({} TDS booked) was due from the society on {}.",
        q.as_str(),
        money::rupees(booked),
        long_date(due)
    )
}

/// The sentence of a `tds_not_filed` reminder: "TDS of ₹1,234.00 booked for Q2 2025-26 (July to
/// September); Form 26AS shows ₹0.00 deposited by TAN TVDK01234E. The return was due on 31 Oct
/// 2025."
pub fn not_filed_reason(fy: Fy, q: Quarter, booked: i64, filed: i64, tan: Option<&str>) -> String {
    let by = tan.map_or(String::new(), |t| format!(" by TAN {t}"));
    format!(
        "TDS of {} booked for {} {fy} ({}); Form 26AS shows {} deposited{by}. The return was due on {}.",
        money::rupees(booked),
        q.as_str(),
        q.months(),
        money::rupees(filed),
        long_date(return_due(fy, q))
    )
}

/// What a letter asking a society for its certificate needs.
pub struct Asking<'a> {
    pub fy: Fy,
    pub quarter: Quarter,
    pub section: &'a str,
    pub tan: Option<&'a str>,
    pub booked: i64,
    /// A certificate already received for the quarter: its number and amount.
    pub received: Option<(&'a str, i64)>,
}

/// The subject and the message (paragraphs split on blank lines) of the letter to a society
/// asking for its Form 16A.
pub fn letter(a: &Asking<'_>) -> (String, String) {
    let q = a.quarter.as_str();
    let due = long_date(certificate_due(a.fy, a.quarter));
    let booked = money::rupees(a.booked);
    let tan = a.tan.map_or(String::new(), |t| format!(" (deductor TAN {t})"));
    let opening = format!(
        "Dear Sir/Madam,\n\nIn {q} of the financial year {} ({}), your society{tan} deducted {booked} as TDS under \
         section {} from its payments of our fees, and we have booked it against those payments.",
        a.fy,
        a.quarter.months(),
        a.section
    );
    match a.received {
        None => (
            format!("Form 16A for {q} {}: TDS certificate awaited", a.fy),
            format!(
                "{opening} The TDS certificate in Form 16A for that quarter was due from you on {due}, and we have \
                 not received it yet.\n\nWe would be grateful if you could download the Form 16A from TRACES and send \
                 it to us at your earliest convenience, so that the credit shows against our PAN.\n\nIf the TDS in your \
                 quarterly return differs from {booked}, please let us know so that we can reconcile it. Thank you."
            ),
        ),
        Some((no, amount)) => (
            format!("Form 16A for {q} {}: revised TDS certificate requested", a.fy),
            format!(
                "{opening} The Form 16A we received for that quarter (certificate no. {no}) states {}, which does not \
                 match.\n\nWe would be grateful if you could check the quarterly return and send us a revised Form 16A \
                 for {booked}, or tell us which payments it leaves out. Thank you.",
                money::rupees(amount)
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn d(s: &str) -> NaiveDate {
        clock::date(s).unwrap()
    }

    #[test]
    fn a_day_falls_in_its_financial_year_and_quarter() {
        let cases = [
            ("2025-04-01", "2025-26", Quarter::Q1),
            ("2025-06-30", "2025-26", Quarter::Q1),
            ("2025-07-01", "2025-26", Quarter::Q2),
            ("2025-09-30", "2025-26", Quarter::Q2),
            ("2025-10-01", "2025-26", Quarter::Q3),
            ("2025-12-31", "2025-26", Quarter::Q3),
            ("2026-01-01", "2025-26", Quarter::Q4),
            ("2026-03-31", "2025-26", Quarter::Q4),
            ("2026-04-01", "2026-27", Quarter::Q1),
            ("2099-02-14", "2098-99", Quarter::Q4),
        ];
        for (day, fy, q) in cases {
            let (f, got) = crate::plumbing::clock::quarter_of(d(day));
            assert_eq!((f.to_string().as_str(), got), (fy, q), "{day}");
            assert!(f.quarter_first(got) <= d(day) && d(day) <= f.quarter_last(got));
        }
    }

    #[test]
    fn a_quarter_runs_from_its_first_day_to_its_last() {
        let fy = Fy::parse("2025-26").unwrap();
        let spans: Vec<(String, String)> = Quarter::ALL
            .iter()
            .map(|q| (fy.quarter_first(*q).to_string(), fy.quarter_last(*q).to_string()))
            .collect();
        assert_eq!(
            spans,
            [
                ("2025-04-01", "2025-06-30"),
                ("2025-07-01", "2025-09-30"),
                ("2025-10-01", "2025-12-31"),
                ("2026-01-01", "2026-03-31"),
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert_eq!(
            (fy.first_day(), fy.last_day()),
            (d("2025-04-01"), d("2026-03-31"))
        );
    }

    #[test]
    fn financial_years_and_quarters_are_read_exactly() {
        assert_eq!(Fy::parse("2025-26"), Some(Fy { start: 2025 }));
        assert_eq!(Fy::parse(" 2099-00 "), Some(Fy { start: 2099 }));
        for bad in ["2025-27", "2025", "25-26", "2025-026", "", "x"] {
            assert_eq!(Fy::parse(bad), None, "{bad}");
        }
        assert_eq!(Fy { start: 2099 }.to_string(), "2099-00");
        assert_eq!(Quarter::parse("q3"), Some(Quarter::Q3));
        assert_eq!(Quarter::parse(" Q4 "), Some(Quarter::Q4));
        for bad in ["Q0", "Q5", "3", "", "quarter"] {
            assert_eq!(Quarter::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_return_and_the_certificate_fall_due_on_the_statutory_days() {
        let fy = Fy { start: 2025 };
        let due: Vec<(NaiveDate, NaiveDate)> = Quarter::ALL
            .iter()
            .map(|q| (return_due(fy, *q), certificate_due(fy, *q)))
            .collect();
        assert_eq!(
            due,
            [
                (d("2025-07-31"), d("2025-08-15")),
                (d("2025-10-31"), d("2025-11-15")),
                (d("2026-01-31"), d("2026-02-15")),
                (d("2026-05-31"), d("2026-06-15")),
            ]
        );
        for q in Quarter::ALL {
            assert_eq!(quarter_due_on(certificate_due(fy, q)), Some((fy, q)));
        }
        assert_eq!(quarter_due_on(d("2025-11-16")), None);
    }

    #[test]
    fn a_scan_looks_back_a_year_of_statutory_days_before_its_day() {
        let names = |as_of: &str| -> Vec<String> {
            quarters_overdue(d(as_of), certificate_due)
                .iter()
                .map(|(fy, q)| format!("{} {fy}", q.as_str()))
                .collect()
        };
        // On the day itself nothing is due yet; the day after, it is.
        assert_eq!(
            names("2025-11-15"),
            ["Q2 2024-25", "Q3 2024-25", "Q4 2024-25", "Q1 2025-26"]
        );
        assert_eq!(
            names("2025-11-16"),
            ["Q3 2024-25", "Q4 2024-25", "Q1 2025-26", "Q2 2025-26"]
        );
        // 365 days back: 15 Nov 2024 is still in on 15 Nov 2025 (and out a day later).
        assert_eq!(names("2026-01-10")[0], "Q3 2024-25");
        assert_eq!(names("2026-02-16").len(), 4);
        assert_eq!(names("2026-02-16")[3], "Q3 2025-26");
    }

    #[test]
    fn the_state_compares_the_certificate_with_what_was_booked() {
        assert_eq!(state(10_000, None, None), "awaited");
        assert_eq!(state(0, None, None), "awaited");
        assert_eq!(state(10_000, Some(10_000), None), "received");
        assert_eq!(state(10_000, Some(9_900), None), "mismatch");
        assert_eq!(state(0, Some(500), None), "mismatch");
    }

    #[test]
    fn form_26as_comes_before_the_certificate() {
        // Deposited what was booked: the certificate decides.
        assert_eq!(state(10_000, None, Some(10_000)), "awaited");
        assert_eq!(state(10_000, Some(10_000), Some(10_000)), "received");
        // Deposited less, or nothing, whatever the certificate says.
        assert_eq!(state(10_000, Some(10_000), Some(4_000)), "short_filed");
        assert_eq!(state(10_000, Some(10_000), Some(0)), "not_filed");
        // Deposited more than the books hold.
        assert_eq!(state(0, None, Some(500)), "mismatch");
        assert_eq!(state(10_000, Some(10_000), Some(10_500)), "mismatch");

        assert_eq!(filing(10_000, 10_000), Some(Filing::Matched));
        assert_eq!(filing(10_000, 4_000), Some(Filing::Short));
        assert_eq!(filing(10_000, 0), Some(Filing::NotFiled));
        assert_eq!(filing(0, 500), Some(Filing::NotBooked));
        assert_eq!(filing(10_000, 10_001), Some(Filing::NotBooked));
        assert_eq!(filing(0, 0), None);
    }

    #[test]
    fn the_chase_for_a_deposit_starts_after_the_return_was_due() {
        let names: Vec<String> = quarters_overdue(d("2025-11-01"), return_due)
            .iter()
            .map(|(fy, q)| format!("{} {fy}", q.as_str()))
            .collect();
        assert_eq!(names, ["Q3 2024-25", "Q4 2024-25", "Q1 2025-26", "Q2 2025-26"]);
    }

    #[test]
    fn a_tan_is_four_letters_five_digits_and_a_letter() {
        assert_eq!(
            check_tan("tan", " tvdk01234e ").unwrap().as_deref(),
            Some("TVDK01234E")
        );
        assert_eq!(check_tan("tan", "  ").unwrap(), None);
        for bad in [
            "TVD01234E",
            "TVDK01234",
            "TVDK0123E4",
            "1VDK01234E",
            "TVDK01234EE",
            "TVDK 1234E",
        ] {
            let e = check_tan("tan", bad).unwrap_err();
            assert_eq!(
                (e.status.as_u16(), e.code, e.field.as_deref()),
                (422, "invalid_tan", Some("tan")),
                "{bad}"
            );
        }
        assert_eq!(
            check_section("tds_section", "194c").unwrap().as_deref(),
            Some("194C")
        );
        assert_eq!(check_section("tds_section", "").unwrap(), None);
        assert_eq!(
            check_section("tds_section", "194I").unwrap_err().code,
            "invalid_tds_section"
        );
    }

    #[test]
    fn a_certificate_is_checked_field_by_field() {
        let today = d("2026-11-25");
        let q2_end = Some(d("2026-09-30"));
        assert_eq!(check_certificate_no(" ABCDEFG ").unwrap(), "ABCDEFG");
        assert_eq!(check_certificate_no("  ").unwrap_err().code, "required");
        assert_eq!(
            check_certificate_no(&"X".repeat(21)).unwrap_err().code,
            "too_long"
        );
        assert!(check_certificate_no(&"X".repeat(20)).is_ok());
        assert_eq!(
            check_issued_on("2026-09-30", q2_end, today).unwrap(),
            d("2026-09-30")
        );
        assert_eq!(check_issued_on("2026-11-25", q2_end, today).unwrap(), today);
        let code = |raw: &str| check_issued_on(raw, q2_end, today).unwrap_err().code;
        assert_eq!(code("2026-09-29"), "before_quarter_end");
        assert_eq!(code("2026-11-26"), "in_the_future");
        assert_eq!(code("30-09-2026"), "invalid_date");
        assert_eq!(code("2026-02-30"), "invalid_date");
        assert!(check_issued_on("2020-01-01", None, today).is_ok());
        assert_eq!(check_amount(&json!(123_450)).unwrap(), 123_450);
        for bad in [json!(0), json!(-5), json!(12.5), json!("1200"), json!(null)] {
            assert_eq!(check_amount(&bad).unwrap_err().code, "invalid_amount", "{bad}");
        }
        assert_eq!(
            check_amount(&json!(u64::MAX)).unwrap_err().code,
            "amount_too_large"
        );
    }

    #[test]
    fn the_reminder_and_the_letter_name_the_quarter_and_the_amount() {
        let fy = Fy { start: 2025 };
        assert_eq!(
            reason(fy, Quarter::Q2, 123_400, d("2025-11-15")),
            "Form 16A for Q2 2025-26 (₹1,234.00 TDS booked) was due from the society on 15 Nov 2025."
        );
        let asking = Asking {
            fy,
            quarter: Quarter::Q2,
            section: "194J",
            tan: Some("TVDK01234E"),
            booked: 123_400,
            received: None,
        };
        let (subject, message) = letter(&asking);
        assert_eq!(subject, "Form 16A for Q2 2025-26: TDS certificate awaited");
        assert!(
            message.contains(
                "In Q2 of the financial year 2025-26 (July to September), your society (deductor TAN TVDK01234E) \
                 deducted ₹1,234.00 as TDS under section 194J"
            ),
            "{message}"
        );
        assert!(message.contains("was due from you on 15 Nov 2025"), "{message}");
        let (subject, message) = letter(&Asking {
            received: Some(("QWERTYU", 120_000)),
            tan: None,
            ..asking
        });
        assert_eq!(
            subject,
            "Form 16A for Q2 2025-26: revised TDS certificate requested"
        );
        assert!(
            message.contains("(certificate no. QWERTYU) states ₹1,200.00, which does not match"),
            "{message}"
        );
    }
}
