//! WhatsApp from the office's own number (decisions 12): for a document, a reminder (and a
//! statement), the number to write to and a click-to-chat link with the message written; the
//! staff member's browser opens it (WhatsApp Web or the desktop app), so there is no API
//! account and nothing is sent by the server. Saying it was sent logs a `whatsapp` interaction
//! on the client (and closes a reminder as `sent`).
//!
//! - `chats`: the number to write to and the chat about a document, a reminder or a statement.
//! - `sent`: a chat said to be sent, logged on the client (a reminder closed as `sent`).
//! - `rules`: mobiles, the link, the messages' words. `routes`: handlers.

pub mod chats;
pub mod routes;
pub mod rules;
pub mod sent;

pub use chats::{Message, for_document, for_reminder, for_statement, number};
pub use sent::{Sent, record_document_in, record_reminder_in, record_statement_in};
