//! Calls to services outside the office (decisions 7): http or https only, the host must not
//! resolve to a loopback, private, link-local, multicast or unspecified address (unless the
//! lab switch `BACKOFFICE_ALLOW_PRIVATE_TARGETS=1` lifts it), no redirects, a 10 second timeout.

use std::net::{IpAddr, ToSocketAddrs};

pub const TIMEOUT_SECS: u64 = 10;

/// Why an address was refused before any call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetError {
    NotHttp,
    NoHost,
    Unresolvable,
    Private(IpAddr),
}

impl std::fmt::Display for TargetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TargetError::NotHttp => write!(f, "the address must start with http:// or https://"),
            TargetError::NoHost => write!(f, "the address has no host"),
            TargetError::Unresolvable => write!(f, "the host name does not resolve"),
            TargetError::Private(ip) => write!(f, "the host resolves to {ip}, a private or local address"),
        }
    }
}

/// True for the addresses an outbound call must never reach.
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_multicast()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || o[0] == 0
                || (o[0] == 100 && (o[1] & 0xC0) == 64) // carrier-grade NAT 100.64/10
                || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments
                || o[0] >= 240
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_forbidden(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xFE00) == 0xFC00 // unique local fc00::/7
                || (first & 0xFFC0) == 0xFE80 // link-local fe80::/10
        }
    }
}

/// The host and port of an http(s) URL.
fn host_port(url: &str) -> Result<(String, u16), TargetError> {
    let (rest, default_port) = if let Some(r) = url.strip_prefix("https://") {
        (r, 443)
    } else if let Some(r) = url.strip_prefix("http://") {
        (r, 80)
    } else {
        return Err(TargetError::NotHttp);
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err(TargetError::NoHost);
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (h, tail) = v6.split_once(']').ok_or(TargetError::NoHost)?;
        (
            h.to_string(),
            tail.strip_prefix(':')
                .map(str::parse)
                .transpose()
                .map_err(|_| TargetError::NoHost)?,
        )
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p.parse().map_err(|_| TargetError::NoHost)?)),
            None => (authority.to_string(), None),
        }
    };
    if host.is_empty() {
        return Err(TargetError::NoHost);
    }
    Ok((host, port.unwrap_or(default_port)))
}

/// Refuses an address that is not http(s) or whose host resolves to a forbidden address.
/// Resolves the name (blocking): call it off the async threads.
pub fn check_target(url: &str, allow_private: bool) -> Result<(), TargetError> {
    let (host, port) = host_port(url.trim())?;
    if allow_private {
        return Ok(());
    }
    let addrs: Vec<IpAddr> = (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|_| TargetError::Unresolvable)?
        .map(|a| a.ip())
        .collect();
    if addrs.is_empty() {
        return Err(TargetError::Unresolvable);
    }
    match addrs.into_iter().find(|ip| is_forbidden(*ip)) {
        Some(ip) => Err(TargetError::Private(ip)),
        None => Ok(()),
    }
}

/// A request with the outbound rules applied: no redirects, the timeout.
pub fn request(method: minreq::Method, url: &str) -> minreq::Request {
    minreq::Request::new(method, url)
        .with_timeout(TIMEOUT_SECS)
        .with_follow_redirects(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_and_private_targets_are_refused() {
        for url in [
            "http://127.0.0.1:8080/x",
            "http://localhost/",
            "http://10.1.2.3/",
            "http://192.168.1.1/",
            "http://172.16.0.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://0.0.0.0/",
            "http://[::1]/",
            "http://[fe80::1]/",
            "http://[fd00::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://100.64.0.1/",
            "http://224.0.0.1/",
        ] {
            assert!(
                matches!(check_target(url, false), Err(TargetError::Private(_))),
                "{url}"
            );
        }
        assert_eq!(
            check_target("ftp://example.com/", false),
            Err(TargetError::NotHttp)
        );
        assert_eq!(
            check_target("http://user@10.0.0.1/", false),
            Err(TargetError::NoHost)
        );
        assert_eq!(check_target("https://", false), Err(TargetError::NoHost));
        assert!(check_target("http://8.8.8.8/", false).is_ok());
        assert!(check_target("http://127.0.0.1:9/", true).is_ok());
    }
}
