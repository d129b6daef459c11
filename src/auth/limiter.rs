//! Fixed-window rate limits for sign-in (spec 5.4, 8): 20 per minute per client address and
//! 8 per 15 minutes per identifier as typed, lower-cased. Windows live in memory; a restart
//! clears them (the lockout counter lives in the data file).

use crate::plumbing::error::AppError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Counts hits per key in fixed windows that start at a key's first hit.
pub struct FixedWindow {
    limit: u32,
    window: Duration,
    hits: Mutex<HashMap<String, (Instant, u32)>>,
}

/// Past this many keys, expired windows are swept so memory stays bounded.
const SWEEP_AT: usize = 10_000;

impl FixedWindow {
    pub fn new(limit: u32, window: Duration) -> Self {
        FixedWindow {
            limit,
            window,
            hits: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a hit for `key` at `now`; `Err(seconds)` until the window ends when over the limit.
    pub fn hit(&self, key: &str, now: Instant) -> Result<(), u64> {
        let mut hits = self.hits.lock().unwrap_or_else(|p| p.into_inner());
        if hits.len() >= SWEEP_AT {
            hits.retain(|_, (start, _)| now.duration_since(*start) < self.window);
        }
        let entry = hits.entry(key.to_string()).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1 >= self.limit {
            let left = self.window.saturating_sub(now.duration_since(entry.0));
            return Err(left.as_secs() + u64::from(left.subsec_nanos() > 0));
        }
        entry.1 += 1;
        Ok(())
    }
}

/// Which sign-in limiter refused an attempt, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    /// Seconds until the tripped window ends (the `Retry-After` of the 429).
    pub retry_after: u64,
    /// True when the per-address limiter tripped, false for the per-identifier one.
    pub by_address: bool,
    /// The length of the tripped limiter's window: the login history keeps one `limited` row
    /// per address (and identifier) per window of this length.
    pub window: Duration,
}

/// The two sign-in limiters, layered over the lockout.
pub struct LoginLimits {
    pub per_address: FixedWindow,
    pub per_identifier: FixedWindow,
}

impl Default for LoginLimits {
    fn default() -> Self {
        LoginLimits {
            per_address: FixedWindow::new(20, Duration::from_secs(60)),
            per_identifier: FixedWindow::new(8, Duration::from_secs(15 * 60)),
        }
    }
}

impl LoginLimits {
    /// Counts one sign-in attempt; which limiter refused it when either limit is over.
    pub fn hit(&self, address: &str, identifier: &str, now: Instant) -> Result<(), Refusal> {
        self.per_address
            .hit(address, now)
            .map_err(|retry_after| Refusal {
                retry_after,
                by_address: true,
                window: self.per_address.window,
            })?;
        self.per_identifier
            .hit(&identifier.to_lowercase(), now)
            .map_err(|retry_after| Refusal {
                retry_after,
                by_address: false,
                window: self.per_identifier.window,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_window_trips_and_resets() {
        let limiter = FixedWindow::new(3, Duration::from_secs(60));
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(limiter.hit("a", t0), Ok(()));
        }
        assert_eq!(limiter.hit("a", t0 + Duration::from_secs(10)), Err(50));
        assert_eq!(limiter.hit("b", t0), Ok(()), "keys are independent");
        assert_eq!(
            limiter.hit("a", t0 + Duration::from_secs(60)),
            Ok(()),
            "a new window starts"
        );
    }

    #[test]
    fn identifiers_are_lower_cased() {
        let limits = LoginLimits::default();
        let now = Instant::now();
        for i in 0..8 {
            let ident = if i % 2 == 0 { "Anna" } else { "anna" };
            assert!(limits.hit(&format!("10.0.0.{i}"), ident, now).is_ok());
        }
        assert_eq!(
            limits
                .hit("10.0.0.99", "ANNA", now)
                .map_err(|r| (r.by_address, r.window)),
            Err((false, Duration::from_secs(900)))
        );
        assert!(
            limits.hit("10.0.0.99", "anna@example.com", now).is_ok(),
            "the email is another key"
        );
    }
}

/// Reveals of a stored credential (a portal or database password, a module secret): 20 a
/// minute per user across every reveal route. Handlers take it as a sub-state.
#[derive(Clone)]
pub struct Reveals(Arc<FixedWindow>);

impl Default for Reveals {
    fn default() -> Self {
        Reveals(Arc::new(FixedWindow::new(20, Duration::from_secs(60))))
    }
}

impl Reveals {
    /// Counts one reveal by `user_id`: 429 past the limit.
    pub fn hit(&self, user_id: &str) -> Result<(), AppError> {
        self.0
            .hit(user_id, Instant::now())
            .map_err(AppError::rate_limited)
    }
}
