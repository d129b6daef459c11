//! The mail transport: the office chooses one of two ([`Transport`]).
//! - A mail API in Postmark's shape (decisions 7), here: `POST {api_url}/email` with the
//!   header `X-Postmark-Server-Token`, answered `{ ErrorCode: 0, MessageID }`; liveness is
//!   `GET {api_url}/server` (200 alive, 401 a dead token). Every call goes through `outbound`
//!   (the address checked is the address called, no redirects, the timeout, a size cap). The
//!   token never enters an error text.
//! - The office's own mailbox over SMTP ([`smtp`]), under the same address check and timeout.
//!
//! `transport`: the choice and the calls through it. `api` and `smtp`: the two ways. `message`:
//! what is sent, and why a send failed. This is the transport only: what is sent, and the log of
//! it, belong to the email area.

pub mod api;
pub mod message;
pub mod smtp;
pub mod transport;

pub use api::{Bounce, MailConfig};
pub use message::{Attachment, Email, MailError};
pub use transport::{Transport, alive, bounces, probe, send, send_now};
