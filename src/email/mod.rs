//! Email going out (decisions 7, spec 2.10, 6.4, decisions 12 "SMTP"): the mail settings
//! (`mail.transport` chooses the mail API, `mail.api_url` and the token, or the office's own
//! mailbox over SMTP, `mail.smtp_*` and its password; `mail.from` is shared; the token and the
//! password are stored as write-only credentials) and the `email_log` with one row per attempted
//! send, whatever came of it ([`store`]). The transport is `crate::plumbing::mail`.
//!
//! - `settings`: the keys, the owner's view of the settings, a change of them saved.
//! - `transport`: the transport to send through (409 when not set up), the dead provider's 409.
//! - `test_message`: the settings' test message sent, logged and audited.
//! - `rules`: the settings' checks. `store`: the SQL of the `email_log`. `routes`: handlers.

pub mod routes;
pub mod rules;
pub mod settings;
pub mod store;
pub mod test_message;
pub mod transport;

pub use settings::{
    API_URL_KEY, FROM_KEY, MailInput, MailSettings, SMTP_HOST_KEY, SMTP_PASSWORD_KEY, SMTP_PORT_KEY,
    SMTP_SECURITY_KEY, SMTP_USERNAME_KEY, TOKEN_KEY, TRANSPORT_KEY, TransportChoice, save_settings_in,
    settings_view, store_token,
};
pub use test_message::{TestSent, send_test};
pub use transport::{config, dead_provider};
