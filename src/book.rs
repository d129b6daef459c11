//! The staff book (spec 5.10, "own clients, own documents and payments"): who may see what.
//!
//! A staff user's book is the clients whose account owner they are, and everything that hangs
//! on those clients (documents, payments, projects, interactions, contacts, the email sent to
//! them), whoever created it. Owner and manager see every book. Every area scopes its reads
//! through this module: [`AuthUser::book`] says whose book a request reads, [`client_is_in`]
//! and [`owner_is`] are the SQL for it ([`narrow`] for a list's filter). Each area's store has its
//! `visible_*`, which fetches one record through these or answers 404 (decisions 3: a record
//! outside the book is not revealed to exist).
//!
//! Reminders keep the spec's own rule (their derived owner is their document's `created_by`;
//! reminders without a document are shared work) in the reminders area.

use crate::auth::Role;
use crate::auth::session::AuthUser;
use crate::plumbing::db::query::Filter;
use rusqlite::types::Value;

impl AuthUser {
    /// The book this user reads: a staff user's own id, None for owner and manager (every book).
    pub fn book(&self) -> Option<String> {
        (self.role == Role::Staff).then(|| self.id.clone())
    }
}

/// SQL: the client row `alias` is in the book bound at `param` (NULL: every book).
pub fn owner_is(alias: &str, param: &str) -> String {
    format!("({param} IS NULL OR {alias}.owner_id = {param})")
}

/// SQL: the client whose id is `client_id` (a column) is in the book bound at `param` (NULL:
/// every book). For the records that hang on a client.
pub fn client_is_in(client_id: &str, param: &str) -> String {
    format!("({param} IS NULL OR {client_id} IN (SELECT id FROM client WHERE owner_id = {param}))")
}

/// SQL: the reminder row `alias` is in the share (below) of the staff user bound at `param`
/// (NULL: everyone's).
pub fn reminder_is_in(alias: &str, param: &str) -> String {
    format!("({param} IS NULL OR {alias}.owner_id = {param} OR {alias}.doc_id IS NULL)")
}

/// Narrows the reminder queue to a staff user's share (spec 4.6, the reminders' own rule): the
/// reminders whose derived owner they are, and those without a document, which are shared work.
pub fn narrow_reminders(filter: &mut Filter, alias: &str, book: Option<String>) {
    if let Some(staff) = book {
        filter.and(
            &format!("{alias}.owner_id = ? OR {alias}.doc_id IS NULL"),
            [Value::Text(staff)],
        );
    }
}

/// SQL: the ticket row `alias` is in the share of the staff user bound at `param` (NULL:
/// every ticket): the tickets of their clients and those assigned to them, since a support call
/// is worked by whoever it is assigned to, whoever keeps the account.
pub fn ticket_is_in(alias: &str, param: &str) -> String {
    format!(
        "({param} IS NULL OR {alias}.assignee_id = {param} \
         OR {alias}.client_id IN (SELECT id FROM client WHERE owner_id = {param}))"
    )
}

/// Narrows the ticket list to a staff user's share ([`ticket_is_in`]).
pub fn narrow_tickets(filter: &mut Filter, alias: &str, book: Option<String>) {
    if let Some(staff) = book {
        filter.and(
            &format!(
                "{alias}.assignee_id = ? OR {alias}.client_id IN (SELECT id FROM client WHERE owner_id = ?)"
            ),
            [Value::Text(staff.clone()), Value::Text(staff)],
        );
    }
}

/// Narrows a list to the records whose client (the column `client_id`) is in `book` (None:
/// every book).
pub fn narrow(filter: &mut Filter, client_id: &str, book: Option<String>) {
    if let Some(staff) = book {
        filter.and(
            &format!("{client_id} IN (SELECT id FROM client WHERE owner_id = ?)"),
            [Value::Text(staff)],
        );
    }
}

/// Narrows a list whose query joins the client as `alias` to `book` (None: every book): the
/// joined client's own owner, where [`narrow`] would look the client up again.
pub fn narrow_joined(filter: &mut Filter, alias: &str, book: Option<String>) {
    filter.eq(&format!("{alias}.owner_id"), book);
}
