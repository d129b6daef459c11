//! The live preview of a draft (spec 3.1): the computation and rendering of an unsaved body,
//! permissive (warnings instead of refusals), persisting nothing.

use crate::auth::session::AuthUser;
use crate::clients::store::visible_client;
use crate::company::letterhead;
use crate::documents::drafts::{DocumentInput, compose};
use crate::documents::pricing::{Mode, PricedLine, Totals};
use crate::documents::store::{self, Document};
use crate::documents::{html, view};
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Warning};
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
pub struct Preview {
    pub lines: Vec<PricedLine>,
    pub totals: Totals,
    #[serde(with = "crate::plumbing::flag")]
    #[schema(value_type = u8)]
    pub intra_state: bool,
    pub warnings: Vec<Warning>,
    /// The draft rendered as the document will look (an HTML fragment, everything escaped).
    pub html: String,
}

/// Prices and renders `input` for a client in the caller's book.
pub fn preview(c: &Connection, user: &AuthUser, input: DocumentInput) -> Result<Preview, AppError> {
    let client_id = input
        .client_id
        .clone()
        .ok_or_else(|| AppError::invalid("client_id", "required", "Choose the client."))?;
    let client = visible_client(c, user, &client_id)?;
    let on = match input.doc_date.flatten() {
        Some(d) => d,
        None => settings::office_today(c)?,
    };
    let lines = input.lines.clone().unwrap_or_default();
    let (priced, intra) = compose(
        c,
        &client,
        &lines,
        on,
        input.round_to_rupee.unwrap_or(false),
        Mode::Permissive,
    )?;
    let mut warnings = priced.warnings;
    let due_date = input.due_date.flatten();
    if due_date.is_some() && input.doc_type.as_deref() != Some("INVOICE") {
        warnings.push(Warning {
            code: "due_date_not_allowed",
            message: "Only an invoice has a due date.".into(),
        });
    }
    let doc_type = input.doc_type.clone().unwrap_or_else(|| "QUOTATION".into());
    let draft = Document {
        doc_type: doc_type.clone(),
        status: "draft".into(),
        doc_date: Some(on.to_string()),
        due_date: due_date.filter(|_| doc_type == "INVOICE").map(|d| d.to_string()),
        client_id: client.id.clone(),
        client_name: client.name.clone(),
        notes: input.notes.clone(),
        terms: input.terms.clone(),
        round_to_rupee: input.round_to_rupee.unwrap_or(false),
        intra_state: intra,
        subtotal: priced.totals.subtotal,
        cgst: priced.totals.cgst,
        sgst: priced.totals.sgst,
        igst: priced.totals.igst,
        round_off: priced.totals.round_off,
        total: priced.totals.total,
        lines: priced
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| store::Line {
                id: String::new(),
                position: i as i64,
                priced: l.clone(),
            })
            .collect(),
        ..Document::default()
    };
    let letterhead = letterhead::letterhead(c, &[])?;
    let html = html::fragment(&view::assemble(&draft, letterhead, view::party(&client), None))?;
    Ok(Preview {
        lines: priced.lines,
        totals: priced.totals,
        intra_state: intra,
        warnings,
        html,
    })
}
