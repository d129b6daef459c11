//! Staging a legacy file (spec 2.10, 4.8): read it, check every row against the others and the
//! registry, keep the rows with their problem markers, and let the owner correct or exclude a
//! row, which re-checks the file at once. Each is one transaction; staging again replaces what
//! was staged. The status is read from the staged rows alone.

use crate::auth::session::AuthUser;
use crate::clients::store as client_store;
use crate::documents::store as document_store;
use crate::imports::matching::{self, KnownClient, KnownNumber, Registry, Staged};
use crate::imports::reading::{self, Column};
use crate::imports::rules::{self, ContinuityGap};
use crate::imports::store::{self, Counts, StagedRow, Verification};
use crate::plumbing::db::audit::{Audit, audit};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::projects::rules::Step;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// What the registry holds that the staged rows are checked against: every client, and the
/// documents holding any number the rows give.
fn registry(conn: &Connection, rows: &[Staged]) -> Result<Registry, AppError> {
    let clients = client_store::identities(conn)?
        .into_iter()
        .map(|(id, name, gstin)| KnownClient { id, name, gstin })
        .collect();
    let numbers: Vec<&str> = rows
        .iter()
        .filter(|s| !s.raw.invoice_no.is_empty())
        .map(|s| s.raw.invoice_no.as_str())
        .collect();
    let numbers = document_store::numbers_held(conn, &numbers)?
        .into_iter()
        .map(|(no, (client_id, source))| {
            (
                no,
                KnownNumber {
                    client_id,
                    legacy: source == "legacy",
                },
            )
        })
        .collect();
    Ok(Registry { clients, numbers })
}

/// Stages `csv` (refused whole, writing nothing, when it cannot be read), replacing what was
/// staged, and audits it with its counts.
pub fn stage_in(
    tx: &Connection,
    user: &AuthUser,
    csv: &str,
    file_name: Option<&str>,
    checklist: Option<&[String]>,
) -> Result<Status, AppError> {
    let checklist = checklist
        .filter(|labels| !labels.is_empty())
        .map(|labels| crate::projects::rules::steps_from_labels("checklist", labels))
        .transpose()?;
    let (columns, raws) = reading::read_file(csv)?;
    let staged: Vec<Staged> = raws
        .into_iter()
        .map(|raw| Staged { raw, excluded: false })
        .collect();
    let today = settings::office_today(tx)?;
    let verdicts = matching::check(&staged, &registry(tx, &staged)?, today);
    store::clear(tx)?;
    let file_name = file_name.map(str::trim).filter(|f| !f.is_empty());
    store::insert_batch(tx, file_name, &columns, checklist.as_deref(), &user.id)?;
    for (s, v) in staged.iter().zip(&verdicts) {
        store::insert_row(tx, &s.raw, v)?;
    }
    let status = status(tx)?;
    audit(
        tx,
        Audit {
            entity: "import",
            entity_id: None,
            action: "stage",
            user_id: Some(&user.id),
            before: None,
            after: Some(serde_json::json!({
                "file_name": file_name,
                "columns": columns,
                "checklist": checklist,
                "counts": status.counts,
                "problems_by_kind": status.problems_by_kind,
            })),
        },
    )?;
    Ok(status)
}

/// Checks the staged rows again (after a correction, or before a commit, when the registry may
/// have moved on) and writes the verdicts that changed.
pub fn recheck_in(tx: &Connection) -> Result<(), AppError> {
    let stored = store::rows(tx)?;
    let staged: Vec<Staged> = stored
        .iter()
        .map(|s| Staged {
            raw: s.raw.clone(),
            excluded: s.excluded,
        })
        .collect();
    let today = settings::office_today(tx)?;
    let verdicts = matching::check(&staged, &registry(tx, &staged)?, today);
    for (s, v) in stored.iter().zip(&verdicts) {
        if &s.verdict != v {
            store::set_verdict(tx, s.raw.row, v)?;
        }
    }
    Ok(())
}

/// A correction of one staged row: any of its cells, leaving it out, and for a client already
/// in the registry whether to update it or leave it alone (for every row of that client).
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct RowEdit {
    pub name: Option<String>,
    pub gstin: Option<String>,
    pub district: Option<String>,
    pub sector: Option<String>,
    pub remote_access_id: Option<String>,
    pub os: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub address: Option<String>,
    pub contact_name: Option<String>,
    pub contact_role: Option<String>,
    pub contact_phone: Option<String>,
    pub contact_email: Option<String>,
    pub invoice_no: Option<String>,
    pub invoice_date: Option<String>,
    pub invoice_total: Option<String>,
    pub invoice_balance: Option<String>,
    /// 1 leaves the row out of the commit; 0 brings it back.
    #[serde(with = "crate::plumbing::flag::option", default)]
    #[schema(value_type = Option<u8>)]
    pub excluded: Option<bool>,
    /// update or skip.
    pub action: Option<String>,
}

/// The staged file, or 409 `nothing_staged`.
pub fn staged_batch(conn: &Connection) -> Result<store::Batch, AppError> {
    store::batch(conn)?
        .ok_or_else(|| AppError::conflict("nothing_staged", "No file is staged: stage one first."))
}

/// The staged rows cannot change once committed: staging a file again starts anew.
fn open_batch(conn: &Connection) -> Result<store::Batch, AppError> {
    let batch = staged_batch(conn)?;
    if batch.committed_at.is_some() {
        return Err(AppError::conflict(
            "import_committed",
            "This file is already committed; stage a file again to import more.",
        ));
    }
    Ok(batch)
}

/// Applies `edit` to the staged row `row`, re-checks the file and answers the row as it now is.
pub fn edit_row_in(tx: &Connection, row: i64, edit: RowEdit) -> Result<StagedRow, AppError> {
    open_batch(tx)?;
    let mut stored = store::row(tx, row)?.ok_or_else(|| AppError::not_found("staged row"))?;
    let cells = [
        ("name", edit.name),
        ("gstin", edit.gstin),
        ("district", edit.district),
        ("sector", edit.sector),
        ("remote_access_id", edit.remote_access_id),
        ("os", edit.os),
        ("phone", edit.phone),
        ("email", edit.email),
        ("address", edit.address),
        ("contact_name", edit.contact_name),
        ("contact_role", edit.contact_role),
        ("contact_phone", edit.contact_phone),
        ("contact_email", edit.contact_email),
        ("invoice_no", edit.invoice_no),
        ("invoice_date", edit.invoice_date),
        ("invoice_total", edit.invoice_total),
        ("invoice_balance", edit.invoice_balance),
    ];
    for (field, value) in cells {
        if let Some(value) = value {
            if value.chars().count() > 2000 {
                return Err(AppError::invalid(field, "too_long", "At most 2000 characters."));
            }
            if let Some(slot) = stored.raw.field_mut(field) {
                *slot = value.trim().to_string();
            }
        }
    }
    if let Some(excluded) = edit.excluded {
        stored.excluded = excluded;
    }
    store::set_row(tx, &stored)?;
    if let Some(action) = edit.action.as_deref() {
        crate::clients::rules::one_of("action", action, &["update", "skip"])?;
        store::set_action(tx, Some(&stored.verdict.client_key), action)?;
    }
    recheck_in(tx)?;
    store::one(tx, row)?.ok_or_else(|| AppError::not_found("staged row"))
}

/// Sets every client already in the registry to be updated or left alone; answers how many rows.
pub fn set_action_all_in(tx: &Connection, action: &str) -> Result<usize, AppError> {
    crate::clients::rules::one_of("action", action, &["update", "skip"])?;
    open_batch(tx)?;
    store::set_action(tx, None, action)
}

/// Forgets what is staged (audited).
pub fn discard_in(tx: &Connection, user: &AuthUser) -> Result<(), AppError> {
    let counts = store::counts(tx)?;
    store::clear(tx)?;
    audit(
        tx,
        Audit {
            entity: "import",
            entity_id: None,
            action: "discard",
            user_id: Some(&user.id),
            before: Some(serde_json::to_value(&counts)?),
            after: None,
        },
    )
}

/// The staged file as the owner reads it before committing (decisions 11), and after.
#[derive(Debug, Serialize, ToSchema)]
pub struct Status {
    #[serde(flatten)]
    pub counts: Counts,
    /// Rows with each kind of problem.
    pub problems_by_kind: BTreeMap<String, i64>,
    /// The first 50 rows with a problem, in file order (`problems` is the honest count).
    pub problem_rows: Vec<StagedRow>,
    /// The staged invoices' sum and count per financial year, to compare with the old system's.
    pub verification: Verification,
    pub file_name: Option<String>,
    /// How the file's headers were read.
    pub columns: Vec<Column>,
    /// The old system's onboarding checklist the stage brought; the commit makes it the legacy
    /// whole checklist (`project.milestone_template`).
    pub checklist: Option<Vec<Step>>,
    pub staged_at: Option<String>,
    /// What the owner should know before committing: each gap the file's invoice numbers would
    /// open in a series past the numbers it has already given (empty once committed).
    pub warnings: Vec<ContinuityGap>,
    /// What the commit did, once it is done.
    pub committed: Option<Committed>,
}

/// What a commit did, and the cross-check read back from what it wrote.
#[derive(Debug, Serialize, ToSchema)]
pub struct Committed {
    pub at: String,
    #[schema(value_type = Object)]
    pub result: serde_json::Value,
    pub verification: Verification,
}

/// The status of what is staged (all zero when nothing is).
pub fn status(conn: &Connection) -> Result<Status, AppError> {
    let batch = store::batch(conn)?;
    let committed = match batch.as_ref() {
        Some(b) if b.committed_at.is_some() => Some(Committed {
            at: b.committed_at.clone().unwrap_or_default(),
            result: b.result.clone().unwrap_or_default(),
            verification: store::committed_verification(conn)?,
        }),
        _ => None,
    };
    let warnings = if committed.is_some() {
        vec![]
    } else {
        let numbers: Vec<_> = store::numbers_to_record(conn)?
            .iter()
            .filter_map(|n| rules::parse_number(n))
            .collect();
        rules::continuity_gaps(&numbers, &crate::reports::store::series_given(conn)?)
    };
    Ok(Status {
        counts: store::counts(conn)?,
        problems_by_kind: store::problems_by_kind(conn)?,
        problem_rows: store::problem_rows(conn, rules::PROBLEM_ROWS_SHOWN)?,
        verification: store::staged_verification(conn)?,
        file_name: batch.as_ref().and_then(|b| b.file_name.clone()),
        columns: batch.as_ref().map(|b| b.columns.clone()).unwrap_or_default(),
        checklist: batch.as_ref().and_then(|b| b.checklist.clone()),
        staged_at: batch.as_ref().map(|b| b.staged_at.clone()),
        warnings,
        committed,
    })
}
