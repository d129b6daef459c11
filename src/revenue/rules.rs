//! The months the revenue reports read, and the margin (spec 4.9, issue 20).
//!
//! A report reads whole months (`YYYY-MM`): `from` and `to`, or a financial year `fy=YYYY-YY`
//! (April to March); by default up to this month, from the start of the financial year (the
//! revenue reports) or over the last twelve months (the cloud-cost ranking). A range runs
//! forwards and spans at most ten years. The margin is what was billed before GST less what the
//! society's cloud server cost; its percentage is of what was billed, and there is none when
//! nothing was billed.

use crate::plumbing::clock::Fy;
use crate::plumbing::clock::Month;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;

/// The longest range a report reads.
pub const MAX_MONTHS: i64 = 120;

/// A range of whole months, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Months {
    pub from: Month,
    pub to: Month,
}

/// Where a range without `from` starts.
#[derive(Debug, Clone, Copy)]
pub enum Start {
    /// April of the financial year `to` is in.
    FinancialYear,
    /// The `n` months that end with `to`.
    Trailing(i32),
}

fn month_param(text: &str, field: &str) -> Result<Month, AppError> {
    Month::parse(text).ok_or_else(|| {
        AppError::bad_request(
            "invalid_month",
            format!("{field} is a month as YYYY-MM, from 2000-01."),
        )
        .on_field(field)
    })
}

impl Months {
    /// The range a request names, checked: `fy`, or `from` and `to` (`to` defaulting to this
    /// month, `from` to `start`). A field sent empty is a field not sent.
    pub fn asked<'a>(
        from: Option<&'a str>,
        to: Option<&'a str>,
        fy: Option<&'a str>,
        today: NaiveDate,
        start: Start,
    ) -> Result<Months, AppError> {
        let given = |t: Option<&'a str>| t.map(str::trim).filter(|t| !t.is_empty());
        let (from, to) = (given(from), given(to));
        let range = match given(fy) {
            Some(_) if from.is_some() || to.is_some() => {
                return Err(AppError::bad_request(
                    "invalid_range",
                    "Give a financial year or from and to, not both.",
                )
                .on_field("fy"));
            }
            Some(fy) => {
                let april = Fy::param(fy)?.first_month();
                Months {
                    from: april,
                    to: april.plus(11),
                }
            }
            None => {
                let to = to
                    .map(|t| month_param(t, "to"))
                    .transpose()?
                    .unwrap_or(Month::of(today));
                let from = match (from, start) {
                    (Some(f), _) => month_param(f, "from")?,
                    (None, Start::Trailing(n)) => to.plus(1 - n),
                    (None, Start::FinancialYear) => Month::of(Fy::of(to.first_day()).first_day()),
                };
                Months { from, to }
            }
        };
        if range.to < range.from {
            return Err(AppError::bad_request("invalid_range", "to is on or after from.").on_field("to"));
        }
        if range.len() > MAX_MONTHS {
            return Err(
                AppError::bad_request("invalid_range", "Ask for at most ten years at a time.").on_field("to"),
            );
        }
        Ok(range)
    }

    /// The `n` months that end with the month of `day`.
    pub fn ending(day: NaiveDate, n: i32) -> Months {
        let to = Month::of(day);
        Months {
            from: to.plus(1 - n),
            to,
        }
    }

    /// Every month of the range, in order.
    pub fn each(&self) -> impl Iterator<Item = Month> + use<> {
        let from = self.from;
        (0..self.len()).map(move |i| from.plus(i as i32))
    }

    /// Every month of the range as `YYYY-MM`, in order.
    pub fn list(&self) -> Vec<String> {
        self.each().map(|m| m.to_string()).collect()
    }

    /// How many months the range holds.
    pub fn len(&self) -> i64 {
        self.from.months_through(self.to)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn from_text(&self) -> String {
        self.from.to_string()
    }

    pub fn to_text(&self) -> String {
        self.to.to_string()
    }
}

/// A range of months read as whole financial years (figures kept per year, migrations/V30)
/// and months added or taken away at its edges: a year more than half covered is read whole
/// less the months outside the range (months after today are mostly empty, so a year to date
/// reads one row per client), one less than half covered as its months.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ByYear {
    /// The financial years counted whole.
    pub years: Vec<Fy>,
    /// Ranges of months added.
    pub add: Vec<Months>,
    /// Ranges of months taken away from a year counted whole.
    pub subtract: Vec<Months>,
}

impl ByYear {
    /// The edge ranges with the sign their months count with: +1 added, -1 taken away.
    pub fn edges(&self) -> impl Iterator<Item = (&Months, i64)> {
        let added = self.add.iter().map(|r| (r, 1));
        added.chain(self.subtract.iter().map(|r| (r, -1)))
    }
}

impl Months {
    /// The range as [`ByYear`]: the same months, each counted once.
    pub fn by_year(&self) -> ByYear {
        let mut out = ByYear::default();
        let mut fy = Fy::of(self.from.first_day());
        loop {
            let (april, march) = (fy.first_month(), fy.first_month().plus(11));
            if april > self.to {
                break;
            }
            let from = self.from.max(april);
            let to = self.to.min(march);
            if from.months_through(to) * 2 > 12 {
                out.years.push(fy);
                if from > april {
                    out.subtract.push(Months {
                        from: april,
                        to: from.previous(),
                    });
                }
                if to < march {
                    out.subtract.push(Months {
                        from: to.plus(1),
                        to: march,
                    });
                }
            } else {
                out.add.push(Months { from, to });
            }
            fy = Fy { start: fy.start + 1 };
        }
        out
    }
}

/// The margin's share of what was billed, in percent to one decimal; none when nothing was.
pub fn margin_pct(margin: i64, billed: i64) -> Option<f64> {
    (billed != 0).then(|| (margin as f64 * 1000.0 / billed as f64).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// from, to, fy as a request gives them.
    type Asked = (Option<&'static str>, Option<&'static str>, Option<&'static str>);

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn a_range_is_a_financial_year_or_from_and_to_or_this_year_so_far() {
        let today = day(2026, 11, 24);
        let cases: &[(Asked, (&str, &str, i64))] = &[
            ((None, None, None), ("2026-04", "2026-11", 8)),
            ((None, None, Some("2025-26")), ("2025-04", "2026-03", 12)),
            (
                (Some("2024-01"), Some("2024-01"), None),
                ("2024-01", "2024-01", 1),
            ),
            ((Some("2024-11"), None, None), ("2024-11", "2026-11", 25)),
            ((Some(""), Some(" "), Some("2025-26")), ("2025-04", "2026-03", 12)),
        ];
        for ((from, to, fy), (f, t, n)) in cases {
            let m = Months::asked(*from, *to, *fy, today, Start::FinancialYear).unwrap();
            assert_eq!(
                (m.from_text().as_str(), m.to_text().as_str(), m.len()),
                (*f, *t, *n)
            );
            assert_eq!(m.list().len() as i64, *n);
        }
        // In January the financial year began last April.
        let m = Months::asked(None, None, None, day(2027, 1, 5), Start::FinancialYear).unwrap();
        assert_eq!((m.from_text(), m.to_text()), ("2026-04".into(), "2027-01".into()));
    }

    #[test]
    fn bad_months_and_ranges_are_refused_naming_the_field() {
        let today = day(2026, 11, 24);
        let cases: &[(Asked, &str, &str)] = &[
            ((Some("2026-13"), None, None), "invalid_month", "from"),
            ((Some("2026-1"), None, None), "invalid_month", "from"),
            ((None, Some("26-01"), None), "invalid_month", "to"),
            ((None, Some("nonsense"), None), "invalid_month", "to"),
            ((Some("2026-05"), Some("2026-04"), None), "invalid_range", "to"),
            ((Some("2010-01"), Some("2020-01"), None), "invalid_range", "to"),
            ((None, None, Some("2025-27")), "invalid_fy", "fy"),
            ((None, None, Some("2025")), "invalid_fy", "fy"),
            ((Some("2025-04"), None, Some("2025-26")), "invalid_range", "fy"),
        ];
        for ((from, to, fy), code, field) in cases {
            let e = Months::asked(*from, *to, *fy, today, Start::FinancialYear).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref()),
                (*code, Some(*field)),
                "{from:?} {to:?} {fy:?}"
            );
        }
        // Exactly ten years is allowed.
        assert_eq!(
            Months::asked(
                Some("2010-01"),
                Some("2019-12"),
                None,
                today,
                Start::FinancialYear
            )
            .unwrap()
            .len(),
            120
        );
    }

    #[test]
    fn a_trailing_range_is_the_twelve_months_up_to_to() {
        let today = day(2026, 11, 24);
        let asked = |from, to| Months::asked(from, to, None, today, Start::Trailing(12)).unwrap();
        let texts = |m: Months| (m.from_text(), m.to_text());
        assert_eq!(texts(asked(None, None)), ("2025-12".into(), "2026-11".into()));
        assert_eq!(
            texts(asked(None, Some("2026-03"))),
            ("2025-04".into(), "2026-03".into())
        );
        assert_eq!(
            texts(asked(Some("2026-01"), None)),
            ("2026-01".into(), "2026-11".into())
        );
        assert_eq!(asked(Some("2016-12"), Some("2026-11")).len(), 120);
        let e =
            Months::asked(Some("2016-11"), Some("2026-11"), None, today, Start::Trailing(12)).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), ("invalid_range", Some("to")));
    }

    #[test]
    fn the_last_twelve_months_end_with_this_one() {
        let m = Months::ending(day(2026, 2, 10), 12);
        assert_eq!((m.from_text(), m.to_text()), ("2025-03".into(), "2026-02".into()));
    }

    #[test]
    fn the_margin_percentage_is_of_what_was_billed() {
        assert_eq!(margin_pct(25_000, 100_000), Some(25.0));
        assert_eq!(margin_pct(-5_000, 30_000), Some(-16.7));
        assert_eq!(margin_pct(1, 3), Some(33.3));
        assert_eq!(margin_pct(-500, 0), None);
    }

    #[test]
    fn a_range_is_whole_years_and_the_months_at_its_edges() {
        let m = |t: &str| Month::parse(t).unwrap();
        let r = |a: &str, b: &str| Months { from: m(a), to: m(b) };
        let fy = |start| Fy { start };
        // A financial year; a year to date (the months after it taken away); the last twelve
        // months of December (a quarter of the year before, the rest of this one).
        assert_eq!(
            r("2025-04", "2026-03").by_year(),
            ByYear {
                years: vec![fy(2025)],
                add: vec![],
                subtract: vec![]
            }
        );
        assert_eq!(
            r("2026-04", "2026-12").by_year(),
            ByYear {
                years: vec![fy(2026)],
                add: vec![],
                subtract: vec![r("2027-01", "2027-03")]
            }
        );
        assert_eq!(
            r("2026-01", "2026-12").by_year(),
            ByYear {
                years: vec![fy(2026)],
                add: vec![r("2026-01", "2026-03")],
                subtract: vec![r("2027-01", "2027-03")]
            }
        );
        // Half a year or less is read as months; two edges of a year both taken away.
        assert_eq!(
            r("2025-10", "2026-03").by_year(),
            ByYear {
                years: vec![],
                add: vec![r("2025-10", "2026-03")],
                subtract: vec![]
            }
        );
        assert_eq!(
            r("2025-05", "2026-01").by_year(),
            ByYear {
                years: vec![fy(2025)],
                add: vec![],
                subtract: vec![r("2025-04", "2025-04"), r("2026-02", "2026-03")]
            }
        );
        // Every month counted once, over many ranges.
        let start = m("2020-01");
        for a in 0..40 {
            for len in 1..40 {
                let range = Months {
                    from: start.plus(a),
                    to: start.plus(a + len - 1),
                };
                let pieces = range.by_year();
                let mut count = std::collections::BTreeMap::new();
                for y in &pieces.years {
                    for month in (Months {
                        from: y.first_month(),
                        to: y.first_month().plus(11),
                    })
                    .each()
                    {
                        *count.entry(month).or_insert(0) += 1;
                    }
                }
                for (ranges, sign) in [(&pieces.add, 1), (&pieces.subtract, -1)] {
                    for part in ranges {
                        for month in part.each() {
                            *count.entry(month).or_insert(0) += sign;
                        }
                    }
                }
                count.retain(|_, n| *n != 0);
                assert!(count.values().all(|n| *n == 1), "{range:?}");
                assert_eq!(
                    count.keys().copied().collect::<Vec<_>>(),
                    range.each().collect::<Vec<_>>()
                );
            }
        }
    }
}
