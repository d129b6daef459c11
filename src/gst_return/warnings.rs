//! The warnings of a return, each (code, document or client) once, and those a document earns
//! on its own.

use crate::gst_return::rules::{NUMBER_MAX, ReturnDocument, ReturnLine, ReturnWarning};
use std::collections::BTreeSet;

/// Collects warnings, each (code, document or client) once.
pub(crate) struct Warnings {
    pub(crate) seen: BTreeSet<(&'static str, String)>,
    pub(crate) list: Vec<ReturnWarning>,
}

impl Warnings {
    pub(crate) fn document(&mut self, code: &'static str, doc: &ReturnDocument, message: String) {
        if self.seen.insert((code, doc.id.clone())) {
            self.list.push(ReturnWarning {
                code,
                message,
                document_id: Some(doc.id.clone()),
                client_id: None,
            });
        }
    }

    pub(crate) fn client(&mut self, code: &'static str, doc: &ReturnDocument, message: String) {
        if self.seen.insert((code, doc.client_id.clone())) {
            self.list.push(ReturnWarning {
                code,
                message,
                document_id: None,
                client_id: Some(doc.client_id.clone()),
            });
        }
    }
}

fn kind(doc: &ReturnDocument) -> &'static str {
    if doc.credit_note { "Credit note" } else { "Invoice" }
}

/// The warnings a document earns on its own, checked at each of its lines: no SAC, imported,
/// a number the tool cuts.
pub(crate) fn check_document(doc: &ReturnDocument, line: &ReturnLine, warnings: &mut Warnings) {
    if doc.legacy {
        warnings.document(
            "legacy_invoice",
            doc,
            format!("Invoice {} was imported from the old system with no SAC and no tax split: it is here at 0% with its whole total as taxable value. Check it against the return the old system filed.", doc.doc_no),
        );
    } else if line.sac.as_deref().is_none_or(|s| s.trim().is_empty()) {
        warnings.document(
            "missing_sac",
            doc,
            format!("{} {} has a line without a SAC code: the HSN summary needs one. Set the SAC on its module, then cancel the document and issue it again.", kind(doc), doc.doc_no),
        );
    }
    if doc.doc_no.chars().count() > NUMBER_MAX {
        warnings.document(
            "number_too_long",
            doc,
            format!(
                "{} number {} is longer than the 16 characters the tool takes.",
                kind(doc),
                doc.doc_no
            ),
        );
    }
}
