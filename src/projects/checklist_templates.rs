//! The milestone templates, kept as dated settings: the shared front list
//! (`project.milestone_template.front`) and a tail per module (`project.milestone_template:<CODE>`),
//! and the whole checklist older offices kept before the front and tails existed
//! (`project.milestone_template`, spec 2.11): it is the checklist of a module that has neither
//! front nor tail steps, in place of the default tail.

use crate::auth::session::AuthUser;
use crate::plumbing::db::audit::setting_changed;
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::projects::rules::{self, Step, default_tail};
use crate::projects::store;
use rusqlite::Connection;

pub const FRONT_KEY: &str = "project.milestone_template.front";
pub const TAIL_PREFIX: &str = "project.milestone_template:";
pub const LEGACY_KEY: &str = "project.milestone_template";

fn steps_of(conn: &Connection, key: &str) -> Result<Option<Vec<Step>>, AppError> {
    let value = settings::get(conn, key, settings::office_today(conn)?)?;
    Ok(value.and_then(|v| serde_json::from_value(v).ok()))
}

pub fn front(conn: &Connection) -> Result<Vec<Step>, AppError> {
    Ok(steps_of(conn, FRONT_KEY)?.unwrap_or_default())
}

/// A module's own tail; None when it has none (the default tail applies).
pub fn tail(conn: &Connection, code: &str) -> Result<Option<Vec<Step>>, AppError> {
    steps_of(conn, &format!("{TAIL_PREFIX}{code}"))
}

/// Every module code that has its own tail, with the tail.
pub fn tails(conn: &Connection) -> Result<Vec<(String, Vec<Step>)>, AppError> {
    let mut out = vec![];
    for key in store::tail_keys(conn)? {
        let code = key.trim_start_matches(TAIL_PREFIX).to_string();
        if let Some(steps) = tail(conn, &code)? {
            out.push((code, steps));
        }
    }
    Ok(out)
}

/// The legacy whole checklist in force, if one is set and has steps. Older offices kept it as a
/// list of labels or of `{ key, label }` steps; both are read, keys derived from labels.
pub fn legacy(conn: &Connection) -> Result<Option<Vec<Step>>, AppError> {
    let value = settings::get(conn, LEGACY_KEY, settings::office_today(conn)?)?;
    Ok(value.and_then(rules::legacy_steps).filter(|s| !s.is_empty()))
}

/// A project's checklist: the front list, then its module's tail or the default tail; for a
/// module with neither front nor tail steps, the legacy whole checklist when one is set.
pub fn checklist(conn: &Connection, module_code: &str) -> Result<Vec<Step>, AppError> {
    let mut steps = front(conn)?;
    let tail = tail(conn, module_code)?;
    if steps.is_empty()
        && tail.is_none()
        && let Some(whole) = legacy(conn)?
    {
        return Ok(whole);
    }
    steps.extend(tail.unwrap_or_else(default_tail));
    Ok(steps)
}

/// Every tail key (each module's own and the default), for the front-list collision check.
pub fn all_tail_keys(conn: &Connection) -> Result<Vec<String>, AppError> {
    let mut keys: Vec<String> = default_tail().into_iter().map(|s| s.key).collect();
    for (_, steps) in tails(conn)? {
        keys.extend(steps.into_iter().map(|s| s.key));
    }
    Ok(keys)
}

fn save_template(
    tx: &Connection,
    user: &AuthUser,
    key: &str,
    before: Option<Vec<Step>>,
    steps: &[Step],
) -> Result<(), AppError> {
    let value = serde_json::to_value(steps)?;
    settings::set(tx, key, &value, settings::office_today(tx)?, Some(&user.id))?;
    setting_changed(tx, &user.id, key, serde_json::to_value(before)?, value)
}

/// Replaces the shared front list (owner), audited; a key also in any tail is refused (422).
pub fn save_front_in(tx: &Connection, user: &AuthUser, steps: Vec<Step>) -> Result<(), AppError> {
    let steps = rules::check_template(steps, &all_tail_keys(tx)?)?;
    save_template(tx, user, FRONT_KEY, Some(front(tx)?), &steps)
}

/// Replaces one module's tail (owner), audited; a key also in the front list is refused (422).
pub fn save_tail_in(tx: &Connection, user: &AuthUser, code: &str, steps: Vec<Step>) -> Result<(), AppError> {
    let front_keys: Vec<String> = front(tx)?.into_iter().map(|s| s.key).collect();
    let steps = rules::check_template(steps, &front_keys)?;
    let before = tail(tx, code)?;
    save_template(tx, user, &format!("{}{code}", TAIL_PREFIX), before, &steps)
}

/// Replaces the legacy whole checklist (owner, or the import's commit), audited; an empty list
/// clears it, and the list in force again writes nothing.
pub fn save_legacy_in(tx: &Connection, user: &AuthUser, steps: Vec<Step>) -> Result<(), AppError> {
    let steps = rules::check_template(steps, &[])?;
    let before = legacy(tx)?;
    if before.as_deref().unwrap_or_default() == steps.as_slice() {
        return Ok(());
    }
    save_template(tx, user, LEGACY_KEY, before, &steps)
}
