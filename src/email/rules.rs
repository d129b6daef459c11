//! What a change of the mail settings must hold (decisions 12 "SMTP"): a sender that is an
//! email address, an SMTP server named by a host name or an IP address alone (no `smtp://`, no
//! port, no path: the port has a field of its own), a port from 1 to 65535, and credentials of at
//! most 256 characters. Every wrong field is named in one 422. Whether the host may be reached
//! (the request-forgery check) is asked of `outbound` by the handler, which resolves it.

use crate::clients::rules::credential_value;
use crate::email::MailInput;
use crate::plumbing::error::{AppError, Checks};
use std::net::IpAddr;

/// Trims the texts of `input` and collects what is wrong with each field into `checks`.
pub fn check_input(checks: &mut Checks, input: MailInput) -> MailInput {
    let trim = |v: Option<String>| v.map(|v| v.trim().to_string());
    let input = MailInput {
        api_url: input.api_url.map(|u| u.trim().trim_end_matches('/').to_string()),
        from: trim(input.from),
        token: trim(input.token),
        smtp_host: trim(input.smtp_host),
        smtp_username: trim(input.smtp_username),
        smtp_password: trim(input.smtp_password),
        ..input
    };
    if let Some(from) = input.from.as_deref().filter(|f| !f.is_empty()) {
        checks.check(crate::staff::rules::check_email(from).map_err(|e| e.on_field("from")));
    }
    if let Some(host) = input.smtp_host.as_deref().filter(|h| !h.is_empty()) {
        checks.check(check_smtp_host(host));
    }
    if input.smtp_port == Some(0) {
        checks.fail(AppError::invalid(
            "smtp_port",
            "out_of_range",
            "A port from 1 to 65535.",
        ));
    }
    for (field, value) in [
        ("token", &input.token),
        ("smtp_username", &input.smtp_username),
        ("smtp_password", &input.smtp_password),
    ] {
        if let Some(value) = value {
            checks.check(credential_value(field, value));
        }
    }
    input
}

/// A host name (letters, digits and hyphens in dot-separated labels) or an IP address.
pub fn check_smtp_host(host: &str) -> Result<(), AppError> {
    let label = |l: &str| {
        (1..=63).contains(&l.len())
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    let ip = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .is_ok();
    if ip || (host.len() <= 253 && host.split('.').all(label)) {
        Ok(())
    } else {
        Err(AppError::invalid(
            "smtp_host",
            "invalid_host",
            "The mail server's name alone, such as smtp.gmail.com: no smtp://, no port, no spaces.",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_is_a_name_or_an_address_alone() {
        for good in [
            "smtp.gmail.com",
            "smtp.zoho.in",
            "localhost",
            "mail-1.office.example.in",
            "127.0.0.1",
            "::1",
            "[::1]",
        ] {
            assert!(check_smtp_host(good).is_ok(), "{good}");
        }
        for bad in [
            "smtp://smtp.gmail.com",
            "smtp.gmail.com:587",
            "smtp.gmail.com/",
            "user@smtp.gmail.com",
            "smtp gmail com",
            "smtp..gmail.com",
            "-smtp.gmail.com",
            "smtp.gmail.com.",
        ] {
            let e = check_smtp_host(bad).unwrap_err();
            assert_eq!(
                (e.field.as_deref(), e.code),
                (Some("smtp_host"), "invalid_host"),
                "{bad}"
            );
        }
    }

    #[test]
    fn every_wrong_field_is_named_at_once() {
        let mut checks = Checks::default();
        let input = check_input(
            &mut checks,
            MailInput {
                from: Some(" not-an-address ".into()),
                smtp_host: Some("smtp://x".into()),
                smtp_port: Some(0),
                smtp_password: Some("p".repeat(257)),
                ..MailInput::default()
            },
        );
        assert_eq!(input.from.as_deref(), Some("not-an-address"));
        let e = checks.done().unwrap_err();
        let fields: Vec<&str> = e.errors.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(fields, ["from", "smtp_host", "smtp_port", "smtp_password"]);
    }
}
