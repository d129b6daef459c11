//! One typed configuration, read once at start: defaults < environment < command line
//! (clap resolves the last two), then passed in the app state. Nothing else reads `std::env`.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

/// What the server needs to run.
#[derive(Clone)]
pub struct Config {
    pub data: PathBuf,
    pub listen: SocketAddr,
    /// Public base of links; None means "the request's own origin".
    pub base_url: Option<String>,
    /// The one proxy hop whose `X-Forwarded-For` is believed.
    pub trusted_proxy: Option<IpAddr>,
    pub owner_email: String,
    /// The first owner's password; None means "generate and print once".
    pub owner_password: Option<String>,
    /// Lifts the request-forgery address check on outbound calls (tests and labs only).
    pub allow_private_targets: bool,
    /// Hours between scheduled snapshots into `backups/`; 0 turns them off.
    pub backup_every_hours: u64,
    /// Snapshots kept.
    pub backup_keep: usize,
    /// The longest one write may hold the writer before the health check calls it hung (an
    /// import's commit runs for seconds). Not on the command line: tests shorten it.
    pub longest_write: std::time::Duration,
    /// How long an outbound call may take (decisions 7: 10 s). Not on the command line: tests
    /// shorten it to try a slow gateway.
    pub outbound_timeout: std::time::Duration,
    /// Who checkpoints the WAL: the server, or Litestream when it replicates the data file
    /// (`--replicated`).
    pub checkpoints: crate::plumbing::db::Checkpoints,
    /// The certificate authority (PEM) of an office's own mail server, trusted by SMTP's TLS
    /// beside the public roots (`--smtp-ca-file`); read once at start and kept for the life
    /// of the process ([`read_smtp_ca`]).
    pub smtp_ca: Option<&'static [u8]>,
}

/// Reads the `--smtp-ca-file` at start: a file that cannot be read or holds no certificate
/// stops the start, rather than every send failing later.
pub fn read_smtp_ca(path: &std::path::Path) -> Result<&'static [u8], String> {
    let pem = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    crate::plumbing::mail::smtp::check_ca(&pem).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Box::leak(pem.into_boxed_slice()))
}

impl Config {
    /// The rules this server's outbound calls are made under.
    pub fn guard(&self) -> crate::plumbing::outbound::Guard {
        crate::plumbing::outbound::Guard {
            allow_private: self.allow_private_targets,
            timeout: self.outbound_timeout,
            smtp_ca: self.smtp_ca,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data: PathBuf::from("backoffice.db"),
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            base_url: None,
            trusted_proxy: None,
            owner_email: "owner@localhost".into(),
            owner_password: None,
            allow_private_targets: false,
            backup_every_hours: 24,
            backup_keep: 7,
            longest_write: std::time::Duration::from_secs(120),
            outbound_timeout: crate::plumbing::outbound::TIMEOUT,
            checkpoints: crate::plumbing::db::Checkpoints::Server,
            smtp_ca: None,
        }
    }
}

/// Secrets are redacted so a `{:?}` in a log line cannot leak them.
impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("data", &self.data)
            .field("listen", &self.listen)
            .field("base_url", &self.base_url)
            .field("trusted_proxy", &self.trusted_proxy)
            .field("owner_email", &self.owner_email)
            .field(
                "owner_password",
                &self.owner_password.as_ref().map(|_| "<redacted>"),
            )
            .field("allow_private_targets", &self.allow_private_targets)
            .field("backup_every_hours", &self.backup_every_hours)
            .field("backup_keep", &self.backup_keep)
            .field("longest_write", &self.longest_write)
            .field("outbound_timeout", &self.outbound_timeout)
            .field("checkpoints", &self.checkpoints)
            .field(
                "smtp_ca",
                &self.smtp_ca.map(|pem| format!("{} bytes of PEM", pem.len())),
            )
            .finish()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_timeout_is_ten_seconds() {
        let guard = super::Config::default().guard();
        assert_eq!(guard.timeout, std::time::Duration::from_secs(10));
        assert!(!guard.allow_private);
    }

    #[test]
    fn debug_redacts_the_owner_password() {
        let config = super::Config {
            owner_password: Some("hunter2-secret".into()),
            ..Default::default()
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("hunter2-secret"));
        assert!(shown.contains("<redacted>"));
    }
}
