//! What every handler can reach: the plumbing (the data file, the configuration, the hashing
//! threads) and the areas' own state, each a type of its area that handlers take as a sub-state
//! (axum's `FromRef`): the sign-in limiters and the reveal limit (`auth::limiter`), the SMS
//! balance pull (`sms::pull`). The plumbing's own handlers and extractors (the health check, the
//! client's address) take the data file and the configuration as sub-states the same way, so the
//! plumbing never names the application.

use crate::auth::limiter::{LoginLimits, Reveals};
use crate::plumbing::config::Config;
use crate::plumbing::db::Db;
use crate::plumbing::error::AppError;
use crate::plumbing::workers::Workers;
use crate::sms::pulls::Pulls;
use axum::extract::FromRef;
use std::sync::Arc;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    /// Password hashing, one thread per core: more at once only thrashes the caches, and each
    /// thread keeps argon2's 19 MiB for its next run (`auth::rules`, `workers`).
    hashers: Workers,
    pub login_limits: Arc<LoginLimits>,
    pub reveals: Reveals,
    /// The SMS balance pull of this process: one at a time, and where it stands.
    pub sms_pulls: Arc<Pulls>,
}

impl AppState {
    pub fn new(db: Db, config: Config) -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        AppState {
            db,
            config: Arc::new(config),
            hashers: Workers::start("hashing", cores).expect("cannot start the hashing threads"),
            login_limits: Arc::new(LoginLimits::default()),
            reveals: Reveals::default(),
            sms_pulls: Arc::default(),
        }
    }

    /// Runs password-hashing work on the hashing threads, one job per core at a time.
    pub async fn hashing<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        self.hashers.run(work).await
    }
}

impl FromRef<AppState> for Db {
    fn from_ref(state: &AppState) -> Self {
        state.db.clone()
    }
}

impl FromRef<AppState> for Arc<Config> {
    fn from_ref(state: &AppState) -> Self {
        state.config.clone()
    }
}

impl FromRef<AppState> for Reveals {
    fn from_ref(state: &AppState) -> Self {
        state.reveals.clone()
    }
}

impl FromRef<AppState> for Arc<LoginLimits> {
    fn from_ref(state: &AppState) -> Self {
        state.login_limits.clone()
    }
}

impl FromRef<AppState> for Arc<Pulls> {
    fn from_ref(state: &AppState) -> Self {
        state.sms_pulls.clone()
    }
}
