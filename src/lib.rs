//! The back office: one binary, one SQLite data file, a JSON API under `/api` and the console.
//!
//! [`app`] builds the whole router so that `main` serves it and the tests call it in-process.

pub mod audit;
pub mod auth;
pub mod catalog;
pub mod clients;
pub mod clock;
pub mod company;
pub mod config;
pub mod db;
pub mod demo;
pub mod documents;
pub mod http;
pub mod jobs;
pub mod mail;
pub mod openapi;
pub mod payments;
pub mod pdf;
pub mod projects;
pub mod reports;
pub mod staff;
pub mod workers;

use auth::limiter::LoginLimits;
use auth::{Role, rules as auth_rules};
use config::Config;
use db::Db;
use std::sync::Arc;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    pub login_limits: Arc<LoginLimits>,
    /// 20 reveals of a stored credential per minute per user, across all reveal routes.
    pub reveal_limits: Arc<auth::limiter::FixedWindow>,
    /// Password hashing, one thread per core: more at once only thrashes the caches, and each
    /// thread keeps argon2's 19 MiB for its next run (`auth::rules`, `workers`).
    hashers: workers::Workers,
}

impl AppState {
    pub fn new(db: Db, config: Config) -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        AppState {
            db,
            config: Arc::new(config),
            login_limits: Arc::new(LoginLimits::default()),
            reveal_limits: Arc::new(auth::limiter::FixedWindow::new(
                20,
                std::time::Duration::from_secs(60),
            )),
            hashers: workers::Workers::start("hashing", cores).expect("cannot start the hashing threads"),
        }
    }

    /// Runs password-hashing work on the hashing threads, one job per core at a time.
    pub async fn hashing<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, http::error::AppError> {
        self.hashers.run(work).await
    }
}

/// The whole HTTP application.
pub fn app(state: AppState) -> axum::Router {
    http::router(state)
}

/// What first start did: the password of the owner it created, when it generated one.
pub struct Bootstrap {
    pub db: Db,
    pub generated_owner_password: Option<String>,
}

/// Opens the data file, runs migrations, seeds default settings and, on an empty file,
/// creates the owner (decisions 8). Errors are sentences for the operator.
pub fn bootstrap(config: &Config) -> Result<Bootstrap, String> {
    let db = Db::open(&config.data)?;
    let owner_email = config.owner_email.trim().to_string();
    let owner_password = config.owner_password.clone();
    let generated = owner_password.is_none();
    let password = owner_password.unwrap_or_else(auth_rules::initial_password);
    let created = db
        .write_blocking(|tx| {
            db::settings::seed_defaults(tx)?;
            if staff::store::count(tx)? > 0 {
                return Ok(false);
            }
            let owner = staff::store::insert(
                tx,
                staff::store::NewEmployee {
                    username: owner_email.clone(),
                    email: owner_email.clone(),
                    name: "Owner".into(),
                    role: Role::Owner,
                    phone: None,
                    title: None,
                    password_hash: auth_rules::hash_password(&password),
                    must_change_password: true,
                },
            )?;
            db::audit::audit(
                tx,
                db::audit::Audit {
                    entity: "staff",
                    entity_id: Some(&owner.id),
                    action: "create",
                    user_id: None,
                    before: None,
                    after: Some(serde_json::to_value(&owner)?),
                },
            )?;
            Ok(true)
        })
        .map_err(|e| format!("cannot prepare the data file: {e}"))?;
    Ok(Bootstrap {
        db,
        generated_owner_password: (created && generated).then_some(password),
    })
}
