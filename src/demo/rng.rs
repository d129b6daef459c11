//! The demo's generator: deterministic for a seed, with ids that sort in time order.

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};

/// A small deterministic generator (SplitMix64): the same seed gives the same office.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.bits() % n.max(1)
    }
    /// lo..=hi.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1).max(1) as u64) as i64
    }
    /// True with `percent` in 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    /// A ULID for something that happened `at`: ids sort in time order, as the server's do.
    pub fn id(&mut self, at: DateTime<Utc>) -> String {
        let random = (u128::from(self.bits()) << 64) | u128::from(self.bits());
        ulid::Ulid::from_parts(at.timestamp_millis().max(0) as u64, random).to_string()
    }
    /// A moment in office hours (09:00–18:00 IST) on `day`.
    pub fn office_time(&mut self, day: NaiveDate) -> DateTime<Utc> {
        let seconds = self.range(3 * 3600 + 1800, 12 * 3600 + 1800);
        Utc.from_utc_datetime(&day.and_hms_opt(0, 0, 0).expect("midnight")) + Duration::seconds(seconds)
    }
}
