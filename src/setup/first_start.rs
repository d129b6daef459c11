//! An office's first start: the data file opened and migrated, the default settings seeded and,
//! on an empty file, the owner created (decisions 8). `main` calls it before serving; the tests
//! make their offices with it.

use crate::auth::{Role, rules as auth_rules};
use crate::plumbing::config::Config;
use crate::plumbing::db::{self, Db};
use crate::staff;

/// What first start did: the password of the owner it created, when it generated one.
pub struct Bootstrap {
    pub db: Db,
    pub generated_owner_password: Option<String>,
}

/// Opens the data file, runs migrations, seeds default settings and, on an empty file,
/// creates the owner (decisions 8). Errors are sentences for the operator.
pub fn bootstrap(config: &Config) -> Result<Bootstrap, String> {
    let db = Db::open_with(&config.data, config.checkpoints)?;
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
