//! Committing the staged file (spec 2.7, 4.8; issue 17), in one transaction: refused while any
//! row has a problem (checked again first: the registry may have moved on since staging);
//! otherwise each client of the file is created (classified from its name as on create, and
//! marked `imported_at`, so the pipeline does not take it for an enquiry) or, when it is already
//! in the registry, updated with the cells the file gives or left alone as the owner chose; the
//! contacts its rows name are added to it unless it was left alone; each legacy invoice is
//! recorded with its number, date and total; and every number series is moved past the largest
//! legacy number of its prefix and financial year, so the next invoice continues the old series. The old system's onboarding checklist, when the
//! stage brought one, becomes the legacy whole checklist (spec 2.11). A second commit of the
//! same file finds every client and invoice already there and creates nothing.

use crate::auth::session::AuthUser;
use crate::clients::contacts::{ContactInput, contact_changes};
use crate::clients::contacts_store;
use crate::clients::registry::{ClientInput, client_changes};
use crate::clients::store as client_store;
use crate::documents::drafts::place_of_supply;
use crate::documents::store::{self as document_store, LegacyInvoice};
use crate::imports::reading;
use crate::imports::rules;
use crate::imports::staging::{recheck_in, staged_batch};
use crate::imports::store::{self, Stored};
use crate::plumbing::db::audit::{Audit, audit, record};
use crate::plumbing::db::query::{defer_search, resume_search};
use crate::plumbing::error::AppError;
use rusqlite::Connection;
use rusqlite::types::Value;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use utoipa::ToSchema;

/// What a commit did.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct CommitResult {
    pub clients_created: i64,
    /// Clients already in the registry that the file changed.
    pub clients_updated: i64,
    /// Clients already in the registry left as they were (skipped, or nothing new in the file).
    pub clients_unchanged: i64,
    /// Contacts added to the clients (one per contact name a client's rows give that it does
    /// not already have).
    pub contacts_created: i64,
    pub invoices_created: i64,
    /// Invoices an earlier commit had already recorded.
    pub invoices_known: i64,
    /// The number series moved: the last number now taken in each.
    pub series: Vec<Series>,
    /// The steps of the old system's checklist made the legacy whole checklist (0: none came).
    pub checklist_steps: i64,
}

/// A series the commit moved: the last number now taken in it (the largest legacy number, or
/// the office's own when it had gone further).
#[derive(Debug, Serialize, ToSchema)]
pub struct Series {
    pub prefix: String,
    pub fy: String,
    pub last_seq: i64,
}

fn opt(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_string())
}

/// The client the rows of one key describe: the first row's cells, the first GSTIN any gives.
fn client_input(rows: &[&Stored], with_name: bool) -> ClientInput {
    let first = &rows[0].raw;
    let pick = |cell: fn(&reading::RawRow) -> &String| {
        rows.iter()
            .map(|s| cell(&s.raw))
            .find(|c| !c.is_empty())
            .and_then(|c| opt(c))
    };
    ClientInput {
        name: with_name.then(|| first.name.clone()),
        gstin: pick(|r| &r.gstin),
        district: pick(|r| &r.district),
        sector: pick(|r| &r.sector),
        remote_access_id: pick(|r| &r.remote_access_id),
        os: pick(|r| &r.os),
        phone: pick(|r| &r.phone),
        email: pick(|r| &r.email),
        address: pick(|r| &r.address),
        ..ClientInput::default()
    }
}

/// Adds to `client_id` each contact its rows give (by name, the first row naming one) that it
/// does not already have under that name; answers how many were added.
fn add_contacts(tx: &Connection, client_id: &str, rows: &[&Stored]) -> Result<i64, AppError> {
    // Most files name no contact: their thousands of clients cost no query here.
    if rows.iter().all(|s| s.raw.contact_name.is_empty()) {
        return Ok(0);
    }
    let mut names: Vec<String> = contacts_store::contacts_of(tx, client_id)?
        .into_iter()
        .map(|c| c.name.trim().to_lowercase())
        .collect();
    let mut added = 0;
    for raw in rows.iter().map(|s| &s.raw) {
        let name = raw.contact_name.to_lowercase();
        if name.is_empty() || names.contains(&name) {
            continue;
        }
        let input = ContactInput {
            name: Some(raw.contact_name.clone()),
            role: opt(&raw.contact_role),
            phone: opt(&raw.contact_phone),
            email: opt(&raw.contact_email),
        };
        contacts_store::insert(tx, "contact", client_id, contact_changes(&input, true)?)?;
        names.push(name);
        added += 1;
    }
    Ok(added)
}

/// Commits what is staged; see the module header.
pub fn commit_in(tx: &Connection, user: &AuthUser) -> Result<CommitResult, AppError> {
    let batch = staged_batch(tx)?;
    recheck_in(tx)?;
    let counts = store::counts(tx)?;
    if counts.problems > 0 {
        return Err(AppError::conflict(
            "import_has_problems",
            format!(
                "{} staged row{} still {} a problem: correct or exclude {} before committing.",
                counts.problems,
                if counts.problems == 1 { "" } else { "s" },
                if counts.problems == 1 { "has" } else { "have" },
                if counts.problems == 1 { "it" } else { "them" },
            ),
        ));
    }
    let rows: Vec<Stored> = store::rows(tx)?.into_iter().filter(|s| !s.excluded).collect();
    // The rows of each client, clients in the order the file first names them.
    let mut groups: Vec<Vec<&Stored>> = vec![];
    let mut group_of: HashMap<&str, usize> = HashMap::new();
    for s in &rows {
        let i = *group_of.entry(&s.verdict.client_key).or_insert_with(|| {
            groups.push(vec![]);
            groups.len() - 1
        });
        groups[i].push(s);
    }
    let mut result = CommitResult::default();
    let mut series: BTreeMap<(String, String), i64> = BTreeMap::new();
    // Thousands of rows: their search suffixes go in at the end, in key order (V14).
    defer_search(tx)?;
    let (mut new_clients, mut new_invoices) = (vec![], vec![]);
    for group in &groups {
        let first = group[0];
        let client = match first.verdict.match_id.as_deref() {
            Some(id) => {
                let before = client_store::get(tx, id, None)?
                    .ok_or_else(|| AppError::internal("matched client vanished"))?;
                let mut input = client_input(group, false);
                // Only what is new: a cell the registry already holds as the file gives it, or a
                // GSTIN where the client has one, is left alone.
                if before.gstin.is_some() {
                    input.gstin = None;
                }
                for (cell, current) in [
                    (&mut input.district, &before.district),
                    (&mut input.sector, &before.sector),
                    (&mut input.remote_access_id, &before.remote_access_id),
                    (&mut input.os, &before.os),
                    (&mut input.phone, &before.phone),
                    (&mut input.email, &before.email),
                    (&mut input.address, &before.address),
                ] {
                    if cell.as_ref() == current.as_ref() {
                        *cell = None;
                    }
                }
                let changes = client_changes(&input, Some(&before))?;
                if first.action == "update" {
                    result.contacts_created += add_contacts(tx, id, group)?;
                }
                if first.action == "update" && !changes.is_empty() {
                    client_store::update(tx, id, changes)?;
                    let after = client_store::get(tx, id, None)?
                        .ok_or_else(|| AppError::internal("matched client vanished"))?;
                    record(
                        tx,
                        &user.id,
                        "client",
                        id,
                        "import_update",
                        Some(&before),
                        Some(&after),
                    )?;
                    result.clients_updated += 1;
                    after
                } else {
                    result.clients_unchanged += 1;
                    before
                }
            }
            None => {
                let mut fields = client_changes(&client_input(group, true), None)?;
                fields.push((
                    "imported_at",
                    Value::Text(crate::plumbing::clock::now_timestamp()),
                ));
                result.clients_created += 1;
                let client = client_store::insert(tx, fields, &user.id)?;
                result.contacts_created += add_contacts(tx, &client.id, group)?;
                new_clients.push(client.id.clone());
                client
            }
        };
        let mut intra_state = None;
        for s in group.iter().filter(|s| !s.raw.invoice_no.is_empty()) {
            if let Some(n) = rules::parse_number(&s.raw.invoice_no) {
                let last = series.entry((n.prefix, n.fy)).or_default();
                *last = (*last).max(n.seq);
            }
            if s.verdict.invoice_known {
                result.invoices_known += 1;
                continue;
            }
            let (Some(date), Some(total)) = (s.verdict.doc_date, s.verdict.total) else {
                return Err(AppError::internal(
                    "a checked invoice row without its date or total",
                ));
            };
            let intra = match intra_state {
                Some(i) => i,
                None => *intra_state.insert(place_of_supply(tx, &client)?.0),
            };
            let id = document_store::insert_legacy(
                tx,
                &LegacyInvoice {
                    client_id: &client.id,
                    doc_no: &s.raw.invoice_no,
                    doc_date: &date.to_string(),
                    total,
                    paid: total - s.verdict.balance.unwrap_or(0),
                    intra_state: intra,
                    created_by: &user.id,
                },
            )?;
            new_invoices.push(id);
            result.invoices_created += 1;
        }
    }
    client_store::index_names(tx, &new_clients)?;
    document_store::index_numbers(tx, &new_invoices)?;
    resume_search(tx)?;
    for ((prefix, fy), seq) in series {
        let last_seq = document_store::seed_series(tx, &prefix, &fy, seq)?;
        result.series.push(Series { prefix, fy, last_seq });
    }
    if let Some(steps) = batch.checklist.clone().filter(|s| !s.is_empty()) {
        result.checklist_steps = steps.len() as i64;
        crate::projects::checklist_templates::save_legacy_in(tx, user, steps)?;
    }
    let image = serde_json::to_value(&result)?;
    store::set_committed(tx, &batch.id, &user.id, &image)?;
    audit(
        tx,
        Audit {
            entity: "import",
            entity_id: Some(&batch.id),
            action: "commit",
            user_id: Some(&user.id),
            before: None,
            after: Some(serde_json::json!({ "file_name": batch.file_name, "result": image })),
        },
    )?;
    Ok(result)
}
