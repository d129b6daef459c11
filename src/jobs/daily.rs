//! The jobs of an office day: the list a tick runs ([`JOBS`]), one run recorded in `job_run`
//! whatever happens ([`run_job`]), and the day's jobs not yet done ([`run_day`]).

use crate::jobs::store;
use crate::plumbing::error::AppError;
use crate::state::AppState;
use chrono::NaiveDate;

/// A job the scheduler runs: once per office day, on `run(state, as_of)` answering its counts.
pub struct Job {
    pub name: &'static str,
    /// Whether the owner may run it now from the jobs page.
    pub run_now: bool,
    run: fn(&AppState, NaiveDate) -> Result<serde_json::Value, AppError>,
}

pub const DAILY_SCAN: &str = "daily_scan";
pub const AUTO_SEND_DRAIN: &str = "auto_send_drain";

/// Every scheduled job, in the order a tick runs them. The first three are the spec's day (6.3):
/// the scan raises the reminders, the recurring plans issue their invoices, then the auto-send
/// drain sends what is set to go by itself, so it sees both (each still its own failure
/// boundary: a failed generation does not hold the drain back).
pub const JOBS: &[Job] = &[
    Job {
        name: DAILY_SCAN,
        run_now: true,
        run: |state, as_of| {
            Ok(serde_json::to_value(crate::reminders::scan::daily(
                state, as_of,
            )?)?)
        },
    },
    Job {
        name: "recurring_generation",
        run_now: true,
        run: |state, as_of| {
            Ok(serde_json::to_value(crate::recurring::generate::run(
                state, as_of,
            )?)?)
        },
    },
    Job {
        name: AUTO_SEND_DRAIN,
        run_now: true,
        run: |state, as_of| {
            Ok(serde_json::to_value(crate::reminders::send::drain_job(
                state, as_of,
            )?)?)
        },
    },
    Job {
        name: "sms_balance_pass",
        run_now: true,
        run: |state, _as_of| crate::sms::pull::daily(state),
    },
    Job {
        name: "cloud_cost_pull",
        run_now: true,
        run: crate::cloud_costs::pull::monthly,
    },
];

/// Runs `job` for `as_of`, recorded in `job_run` whatever happens: its counts, or its error or
/// panic as the run's error.
pub fn run_job(state: &AppState, job: &Job, as_of: NaiveDate) -> Result<serde_json::Value, AppError> {
    let db = &state.db;
    let id = db.write_blocking(|tx| store::start(tx, job.name, as_of))?;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (job.run)(state, as_of)))
        .unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the job panicked".into());
            Err(AppError::internal(format!("panic: {what}")))
        });
    let recorded = match &result {
        Ok(counts) => db.write_blocking(|tx| store::finish(tx, &id, Ok(counts))),
        Err(e) => {
            let text = e.to_string();
            tracing::error!(job = job.name, error = %text, "job failed");
            db.write_blocking(|tx| store::finish(tx, &id, Err(&text)))
        }
    };
    recorded?;
    result
}

/// Runs each job not yet done for `day`, in the order of [`JOBS`], each in its own failure
/// boundary.
pub fn run_day(state: &AppState, day: NaiveDate) {
    let db = &state.db;
    for job in JOBS {
        match db.read_blocking(|c| store::done_for(c, job.name, day)) {
            Ok(true) => {}
            Ok(false) => {
                let _ = run_job(state, job, day);
            }
            Err(e) => {
                tracing::error!(job = job.name, error = %e.to_string(), "jobs: cannot read the last run")
            }
        }
    }
}
