//! The onboarding checklist of each project (spec 2.6, 4.4): seeding it from the templates,
//! ticking and unticking a step (one audit row each; a bulk tick writes one summary row), and
//! the stalled worklist. The handlers are in `milestone_routes`.

use crate::auth::session::AuthUser;
use crate::plumbing::clock;
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::projects::checklist_templates;
use crate::projects::rules;
use crate::projects::store::visible_project;
use crate::projects::store::{self, ClientModule, Milestone, ProjectRow};
use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn seed(conn: &Connection, cm: &ClientModule) -> Result<(), AppError> {
    store::seed_milestones(
        conn,
        &cm.id,
        &checklist_templates::checklist(conn, &cm.module_code)?,
    )
}

/// The project's checklist, its missing steps seeded first.
pub fn checklist_in(tx: &Connection, user: &AuthUser, id: &str) -> Result<Vec<Milestone>, AppError> {
    let cm = visible_project(tx, user, id)?;
    seed(tx, &cm)?;
    store::milestones(tx, id)
}

#[derive(Deserialize, ToSchema, Clone)]
#[serde(deny_unknown_fields)]
pub struct Tick {
    pub key: String,
    #[serde(with = "crate::plumbing::flag")]
    #[schema(value_type = u8)]
    pub done: bool,
    /// YYYY-MM-DD, default today; a step ticked with a payment is done on its received_on.
    #[serde(rename = "doneOn", alias = "done_on")]
    pub done_on: Option<NaiveDate>,
    /// A payment of the same client.
    #[serde(rename = "paymentId", alias = "payment_id")]
    pub payment_id: Option<String>,
    /// A document (the quotation) of the same client.
    #[serde(rename = "documentId", alias = "document_id")]
    pub document_id: Option<String>,
}

/// What a tick changed: the step before, and the step after with what it stamped on the project.
pub struct Ticked {
    before: serde_json::Value,
    after: serde_json::Value,
}

/// Ticks or unticks one step of a project; ticking installed or trained advances the project's
/// status and stamps its date the first time. Must run inside the caller's transaction; the
/// caller audits (one row per tick, or one summary for a bulk tick).
pub fn apply_tick(tx: &Connection, cm: &ClientModule, tick: &Tick) -> Result<Ticked, AppError> {
    seed(tx, cm)?;
    let key = rules::canonical_key(tick.key.trim()).to_string();
    let steps = store::milestones(tx, &cm.id)?;
    let before = steps.iter().find(|m| m.key == key).cloned().ok_or_else(|| {
        AppError::invalid(
            "key",
            "unknown_step",
            format!("{key} is not a step of this project's checklist."),
        )
    })?;
    for (table, id, field) in [
        ("payment", &tick.payment_id, "paymentId"),
        ("document", &tick.document_id, "documentId"),
    ] {
        if let Some(id) = id {
            match store::belongs_to_client(tx, table, id, &cm.client_id)? {
                Some(true) => {}
                Some(false) => {
                    return Err(AppError::invalid(
                        field,
                        "other_client",
                        format!("No {table} of this client has that id."),
                    ));
                }
                None => {
                    return Err(AppError::invalid(
                        field,
                        "not_available",
                        format!("No {table}s are recorded yet."),
                    ));
                }
            }
        }
    }
    let mut after_cm = serde_json::json!({});
    if tick.done {
        let received_on = match &tick.payment_id {
            Some(payment) => Some(
                store::payment_received_on(tx, payment)?
                    .and_then(|d| clock::date(&d))
                    .ok_or_else(|| AppError::internal("payment without received_on"))?,
            ),
            None => None,
        };
        let done_on = rules::done_on(tick.done_on, received_on, settings::office_today(tx)?);
        store::set_milestone(
            tx,
            &cm.id,
            &key,
            Some(&done_on.to_string()),
            tick.payment_id.as_deref(),
            tick.document_id.as_deref(),
        )?;
        let stamp = rules::stamp_for_tick(
            &key,
            done_on,
            &cm.status,
            cm.installed_on.as_deref(),
            cm.trained_on.as_deref(),
        );
        let mut changes = vec![];
        if let Some(status) = stamp.status {
            changes.push(("status", Value::Text(status.into())));
            after_cm["status"] = status.into();
        }
        if let Some(d) = stamp.installed_on {
            changes.push(("installed_on", Value::Text(d.to_string())));
            after_cm["installed_on"] = d.to_string().into();
        }
        if let Some(d) = stamp.trained_on {
            changes.push(("trained_on", Value::Text(d.to_string())));
            after_cm["trained_on"] = d.to_string().into();
        }
        store::update(tx, &cm.id, changes)?;
    } else {
        store::set_milestone(tx, &cm.id, &key, None, None, None)?;
    }
    let after = store::milestones(tx, &cm.id)?.into_iter().find(|m| m.key == key);
    let mut after_image = serde_json::to_value(&after)?;
    if let (Some(image), Some(stamped)) = (after_image.as_object_mut(), after_cm.as_object()) {
        image.extend(stamped.clone());
    }
    Ok(Ticked {
        before: serde_json::to_value(&before)?,
        after: after_image,
    })
}

/// Ticks or unticks a step of the project `id`, audited; answers its checklist.
pub fn tick_in(tx: &Connection, user: &AuthUser, id: &str, tick: &Tick) -> Result<Vec<Milestone>, AppError> {
    let cm = visible_project(tx, user, id)?;
    let ticked = apply_tick(tx, &cm, tick)?;
    audit(
        tx,
        Audit {
            entity: "client_module",
            entity_id: Some(&cm.id),
            action: if tick.done {
                "milestone_tick"
            } else {
                "milestone_untick"
            },
            user_id: Some(&user.id),
            before: Some(ticked.before),
            after: Some(ticked.after),
        },
    )?;
    store::milestones(tx, id)
}

/// Unticks every step ticked with the payment `payment_id`, inside the transaction that cancels
/// it (docs/api/documents.md: a step that says "paid" must not outlive its payment); each audited as an
/// untick with the receipt as the reason. The project's status and its installed/trained dates
/// stay: those steps are ticked without a payment.
pub fn untick_for_payment_in(
    tx: &Connection,
    user: &AuthUser,
    payment_id: &str,
    receipt_no: &str,
) -> Result<(), AppError> {
    for (project, step) in store::ticked_with_payment(tx, payment_id)? {
        store::set_milestone(tx, &project, &step.key, None, None, None)?;
        let after = Milestone {
            done_on: None,
            payment_id: None,
            document_id: None,
            ..step.clone()
        };
        let mut after = serde_json::to_value(&after)?;
        after["reason"] = format!("Payment {receipt_no} was cancelled.").into();
        audit(
            tx,
            Audit {
                entity: "client_module",
                entity_id: Some(&project),
                action: "milestone_untick",
                user_id: Some(&user.id),
                before: Some(serde_json::to_value(&step)?),
                after: Some(after),
            },
        )?;
    }
    Ok(())
}

/// Ticks or unticks one step on every project of `ids` (all or nothing), with one summary audit
/// row (spec 4.4); answers how many.
pub fn bulk_tick_in(
    tx: &Connection,
    user: &AuthUser,
    ids: &[String],
    tick: &Tick,
) -> Result<usize, AppError> {
    for id in ids {
        let cm = store::get(tx, id, None)?.ok_or_else(|| {
            AppError::invalid(
                "projects",
                "unknown_project",
                format!("No project has the id {id}; nothing was changed."),
            )
        })?;
        apply_tick(tx, &cm, tick)?;
    }
    let summary =
        serde_json::json!({ "projects": ids, "key": tick.key, "done": tick.done, "updated": ids.len() });
    audit(
        tx,
        Audit {
            entity: "client_module",
            entity_id: None,
            action: "bulk_milestone",
            user_id: Some(&user.id),
            before: None,
            after: Some(summary),
        },
    )?;
    Ok(ids.len())
}

/// The project settings in force today.
#[derive(Serialize, ToSchema)]
pub struct ProjectSettings {
    /// Days without a ticked step after which an active project is stalled.
    pub stall_days: i64,
    /// The day the value took effect (2000-01-01: the default first boot writes).
    pub effective_from: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProjectSettingsInput {
    /// 0 to 3650.
    pub stall_days: i64,
}

pub fn project_settings(conn: &Connection) -> Result<ProjectSettings, AppError> {
    Ok(ProjectSettings {
        stall_days: settings::int(conn, &settings::PROJECT_STALL_DAYS, settings::office_today(conn)?)?,
        effective_from: settings::since(conn, settings::PROJECT_STALL_DAYS.name)?,
    })
}

/// Sets project.stall_days from today (owner), audited.
pub fn save_settings_in(
    tx: &Connection,
    user: &AuthUser,
    input: ProjectSettingsInput,
) -> Result<ProjectSettings, AppError> {
    let days = settings::check_days("stall_days", input.stall_days, 3650)?;
    let before = project_settings(tx)?.stall_days;
    settings::change_in(
        tx,
        &user.id,
        settings::PROJECT_STALL_DAYS.name,
        before.into(),
        days.into(),
    )?;
    project_settings(tx)
}

#[derive(Serialize, ToSchema)]
pub struct StalledProject {
    #[serde(flatten)]
    pub project: ProjectRow,
    /// The latest ticked step's date, else the creation date.
    pub last_activity: String,
    pub age_days: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Stalled {
    pub ok: bool,
    /// Oldest activity first.
    pub projects: Vec<StalledProject>,
    /// Projects with neither a ticked step nor a creation date: their age is unknown.
    #[serde(rename = "unknownAgeExcluded")]
    pub unknown_age_excluded: i64,
    pub total: i64,
    pub days: i64,
}

/// The stall days in force on `today`, or `days`, and the last activity day a stalled project
/// has at most: `today` less those days (its age, today less its day, is at least `days`).
fn stall_cutoff(c: &Connection, days: Option<i64>, today: NaiveDate) -> Result<(i64, NaiveDate), AppError> {
    let days = match days {
        Some(d) => d,
        None => settings::int(c, &settings::PROJECT_STALL_DAYS, today)?,
    };
    Ok((days, today - chrono::Duration::days(days)))
}

/// Active projects in `book` (`crate::book`; None: every book) with nothing ticked for at least
/// `days` (default: the project.stall_days setting), oldest activity first.
pub fn stalled(c: &Connection, book: Option<&str>, days: Option<i64>) -> Result<Stalled, AppError> {
    stalled_on(c, book, days, settings::office_today(c)?)
}

/// [`stalled`] as it reads on `today`.
pub fn stalled_on(
    c: &Connection,
    book: Option<&str>,
    days: Option<i64>,
    today: NaiveDate,
) -> Result<Stalled, AppError> {
    let (days, cutoff) = stall_cutoff(c, days, today)?;
    let (rows, mut unknown) = store::stalled_projects(c, book, &cutoff.to_string())?;
    let mut projects = vec![];
    for (project, last) in rows {
        let Some(last) = clock::date(&last) else {
            unknown += 1;
            continue;
        };
        projects.push(StalledProject {
            project,
            last_activity: last.to_string(),
            age_days: rules::age_days(last, today),
        });
    }
    projects.sort_by_key(|p| std::cmp::Reverse(p.age_days));
    let total = projects.len() as i64;
    Ok(Stalled {
        ok: true,
        projects,
        unknown_age_excluded: unknown,
        total,
        days,
    })
}

/// How many projects [`stalled`] lists on `today` at the stall days in force, and those days
/// (the dashboard's tile), without building them.
pub fn stalled_count(c: &Connection, book: Option<&str>, today: NaiveDate) -> Result<(i64, i64), AppError> {
    let (days, cutoff) = stall_cutoff(c, None, today)?;
    Ok((store::stalled_count(c, book, &cutoff.to_string())?, days))
}
