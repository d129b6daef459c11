//! The SMS balance pull of this process (`sms::pull`): one at a time, and where it stands for
//! the console's progress bar. The server keeps one ([`crate::state::AppState`]).

use serde::Serialize;
use std::sync::{Mutex, PoisonError};
use utoipa::ToSchema;

/// What a pull came to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct PullCounts {
    /// Subscriptions polled.
    pub total: usize,
    /// A balance was read and differs from the stored one (or none was stored).
    pub updated: usize,
    /// A balance was read and equals the stored one.
    pub unchanged: usize,
    /// No balance was read: an ERROR line, a malformed answer, no answer.
    pub flagged: usize,
    /// Of the flagged, those the gateway never answered.
    pub unreachable: usize,
}

/// Where a pull stands, for the console's progress bar.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Progress {
    pub running: bool,
    /// Subscriptions recorded so far, of `total`.
    pub done: usize,
    pub total: usize,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    /// The counts so far (the last pull's when none is running).
    pub counts: PullCounts,
}

/// One pull at a time per process: the gate, and where the running one stands.
#[derive(Default)]
pub struct Pulls {
    pub(super) gate: Mutex<()>,
    progress: Mutex<Progress>,
}

impl Pulls {
    pub fn progress(&self) -> Progress {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(super) fn update(&self, change: impl FnOnce(&mut Progress)) {
        change(&mut self.progress.lock().unwrap_or_else(PoisonError::into_inner));
    }
}
