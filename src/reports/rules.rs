//! Report rules as plain functions:
//! - dues aging (issue 8): an invoice's days past due count from COALESCE(due_date, doc_date) to
//!   the as-of date; buckets are not due (0 or fewer days), 1-30, 31-60, 61-90 and over 90;
//! - the GST summary adds issued invoices and subtracts issued credit notes, month by month,
//!   from their stored paise (never recomputed).

use serde::Serialize;
use utoipa::ToSchema;

pub const BUCKETS: &[&str] = &["not_due", "days_1_30", "days_31_60", "days_61_90", "over_90"];

/// The bucket of an invoice `days` past its due date.
pub fn bucket(days: i64) -> usize {
    match days {
        ..=0 => 0,
        1..=30 => 1,
        31..=60 => 2,
        61..=90 => 3,
        _ => 4,
    }
}

/// Outstanding paise in each bucket, and their sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Buckets {
    pub not_due: i64,
    pub days_1_30: i64,
    pub days_31_60: i64,
    pub days_61_90: i64,
    pub over_90: i64,
    pub total: i64,
}

impl Buckets {
    pub fn add(&mut self, days: i64, amount: i64) {
        *match bucket(days) {
            0 => &mut self.not_due,
            1 => &mut self.days_1_30,
            2 => &mut self.days_31_60,
            3 => &mut self.days_61_90,
            _ => &mut self.over_90,
        } += amount;
        self.total += amount;
    }

    pub fn merge(&mut self, other: &Buckets) {
        self.not_due += other.not_due;
        self.days_1_30 += other.days_1_30;
        self.days_31_60 += other.days_31_60;
        self.days_61_90 += other.days_61_90;
        self.over_90 += other.over_90;
        self.total += other.total;
    }

    pub fn cells(&self) -> [i64; 6] {
        [
            self.not_due,
            self.days_1_30,
            self.days_31_60,
            self.days_61_90,
            self.over_90,
            self.total,
        ]
    }
}

/// Taxable value and taxes of a month (or the grand total), paise.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct GstFigures {
    pub taxable: i64,
    pub cgst: i64,
    pub sgst: i64,
    pub igst: i64,
    pub total: i64,
}

impl GstFigures {
    /// Adds an invoice (sign 1) or subtracts a credit note (sign -1).
    pub fn add(&mut self, sign: i64, taxable: i64, cgst: i64, sgst: i64, igst: i64, total: i64) {
        self.taxable += sign * taxable;
        self.cgst += sign * cgst;
        self.sgst += sign * sgst;
        self.igst += sign * igst;
        self.total += sign * total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_turn_at_their_edges() {
        for (days, b) in [
            (-5, 0),
            (0, 0),
            (1, 1),
            (30, 1),
            (31, 2),
            (60, 2),
            (61, 3),
            (90, 3),
            (91, 4),
            (4000, 4),
        ] {
            assert_eq!(bucket(days), b, "{days}");
        }
        let mut sums = Buckets::default();
        sums.add(30, 100);
        sums.add(31, 50);
        assert_eq!(sums.cells(), [0, 100, 50, 0, 0, 150]);
    }

    #[test]
    fn credit_notes_subtract() {
        let mut m = GstFigures::default();
        m.add(1, 10_000, 900, 900, 0, 11_800);
        m.add(-1, 1_000, 90, 90, 0, 1_180);
        assert_eq!(
            m,
            GstFigures {
                taxable: 9_000,
                cgst: 810,
                sgst: 810,
                igst: 0,
                total: 10_620
            }
        );
    }
}
