//! Report rules as plain functions:
//! - dues aging (issue 8): an invoice's days past due count from the day it falls due
//!   (`documents::rules::FALLS_DUE`) to the as-of date; buckets are not due (0 or fewer days), 1-30, 31-60, 61-90 and over 90;
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
        self.add_to(bucket(days), amount);
    }

    /// Adds `amount` to the bucket of index `bucket` (of [`BUCKETS`]) and to the total.
    pub fn add_to(&mut self, bucket: usize, amount: i64) {
        *match bucket {
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

#[derive(Debug, Serialize, ToSchema, Clone, PartialEq, Eq)]
pub struct ClientDues {
    pub client_id: String,
    pub client_name: String,
    #[serde(flatten)]
    pub buckets: Buckets,
}

/// An invoice with something outstanding on the as-of date.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DueInvoice {
    pub document_id: String,
    #[serde(rename = "docNo")]
    pub doc_no: Option<String>,
    pub client_id: String,
    pub client_name: String,
    pub doc_date: String,
    pub due_date: Option<String>,
    pub total: i64,
    /// The taxable value (TDS is a share of it, never of the GST).
    pub taxable: i64,
    /// On the as-of date: payments received and credit notes dated by then count.
    pub outstanding: i64,
    /// From the day it falls due (`documents::rules::FALLS_DUE`) to the as-of date.
    pub days_past_due: i64,
    /// not_due, days_1_30, days_31_60, days_61_90 or over_90.
    pub bucket: &'static str,
}

/// Per-client sums of the due invoices, largest total first (client name breaks ties).
pub fn by_client(invoices: &[DueInvoice]) -> (Vec<ClientDues>, Buckets) {
    let mut rows: Vec<ClientDues> = vec![];
    for inv in invoices {
        if rows.last().is_none_or(|r| r.client_id != inv.client_id) {
            rows.push(ClientDues {
                client_id: inv.client_id.clone(),
                client_name: inv.client_name.clone(),
                buckets: Buckets::default(),
            });
        }
        rows.last_mut()
            .expect("pushed above")
            .buckets
            .add(inv.days_past_due, inv.outstanding);
    }
    rank_clients(rows)
}

/// The dues aging's rows in order, largest total first (client name, then id, break ties),
/// and their sums per bucket.
pub fn rank_clients(mut rows: Vec<ClientDues>) -> (Vec<ClientDues>, Buckets) {
    let mut totals = Buckets::default();
    for r in &rows {
        totals.merge(&r.buckets);
    }
    rows.sort_by(|a, b| {
        b.buckets
            .total
            .cmp(&a.buckets.total)
            .then_with(|| a.client_name.cmp(&b.client_name))
            .then_with(|| a.client_id.cmp(&b.client_id))
    });
    (rows, totals)
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

    fn due(client: &str, days: i64, outstanding: i64) -> DueInvoice {
        DueInvoice {
            document_id: format!("{client}{days}"),
            doc_no: None,
            client_id: client.to_lowercase(),
            client_name: client.into(),
            doc_date: "2026-04-01".into(),
            due_date: None,
            total: outstanding,
            taxable: outstanding,
            outstanding,
            days_past_due: days,
            bucket: BUCKETS[bucket(days)],
        }
    }

    #[test]
    fn dues_group_by_client_largest_first() {
        // The store answers invoices by client name; equal totals keep name order.
        let invoices = [
            due("Alpha", 10, 500),
            due("Alpha", 95, 700),
            due("Beta", 0, 1_200),
            due("Gamma", 40, 2_000),
        ];
        let (rows, totals) = by_client(&invoices);
        let order: Vec<_> = rows
            .iter()
            .map(|r| (r.client_name.as_str(), r.buckets.total))
            .collect();
        assert_eq!(order, [("Gamma", 2_000), ("Alpha", 1_200), ("Beta", 1_200)]);
        assert_eq!(rows[1].buckets.cells(), [0, 500, 0, 0, 700, 1_200]);
        assert_eq!(totals.cells(), [1_200, 500, 2_000, 0, 700, 4_400]);
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
