//! The one way out to services beyond the office (decisions 7): the mail provider, the SMS
//! gateway, later the cloud-cost pull.
//!
//! - Only `http` and `https`, no credentials in the address.
//! - The host is resolved once, every address it resolves to must be public (see
//!   [`is_forbidden`]), and the connection goes to exactly those addresses: the HTTP client's
//!   resolver is pinned to them ([`Pinned`]), while the original host name is kept for TLS and
//!   the Host header. Nothing is left for a second lookup to change (DNS rebinding).
//! - No redirect is followed, no proxy from the environment is used, every call has a timeout
//!   (10 s) and the answer's size is capped.
//! - `BACKOFFICE_ALLOW_PRIVATE_TARGETS=1` lifts the address check (tests and labs only).
//!
//! ureq is the client because its resolver is pluggable: minreq, the first choice, resolves the
//! name itself after any check of ours.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::time::{Duration, Instant};
pub use ureq::http::Method;
use ureq::http::{self, Uri};
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

/// How long an outbound call may take, from connect to the last byte of the answer.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// The rules a call is made under: the address check (unless lifted) and the timeout.
#[derive(Debug, Clone, Copy)]
pub struct Guard {
    pub allow_private: bool,
    pub timeout: Duration,
    /// A private certificate authority (PEM) that SMTP's TLS trusts beside the public roots
    /// (`Config::smtp_ca`). A server's guard is `Config::guard`.
    pub smtp_ca: Option<&'static [u8]>,
}

/// Why an address was refused before any call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetError {
    NotHttp,
    NoHost,
    /// `user:password@` in the address: credentials travel in headers or the query, and an
    /// `@` is a classic way to make an address read as another host.
    Credentials,
    Unresolvable,
    Private(IpAddr),
}

impl std::fmt::Display for TargetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TargetError::NotHttp => write!(f, "the address must start with http:// or https://"),
            TargetError::NoHost => write!(f, "the address has no valid host"),
            TargetError::Credentials => write!(f, "the address must not carry a user name or password"),
            TargetError::Unresolvable => write!(f, "the host name does not resolve"),
            TargetError::Private(ip) => {
                write!(
                    f,
                    "the host resolves to {ip}, a private, local or reserved address"
                )
            }
        }
    }
}

/// Why a call did not bring an answer back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The address was refused before any connection.
    Target(TargetError),
    /// The service answered with a redirect, which is not followed.
    Redirect(u16),
    /// No complete answer within the timeout.
    Timeout(Duration),
    /// The answer was larger than the cap.
    TooLarge(u64),
    /// Connection, TLS or protocol failure.
    Unreachable(String),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Target(e) => write!(f, "the address is refused: {e}"),
            CallError::Redirect(code) => write!(
                f,
                "it answered with a redirect (HTTP {code}), which is not followed"
            ),
            CallError::Timeout(after) => write!(f, "no answer within {} seconds", after.as_secs_f64()),
            CallError::TooLarge(cap) => write!(f, "the answer is larger than {cap} bytes"),
            CallError::Unreachable(why) => write!(f, "{why}"),
        }
    }
}

/// True for the addresses an outbound call must never reach: everything that is not a public
/// unicast address, in IPv4 and in each IPv6 form that carries an IPv4 address.
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(v4: Ipv4Addr) -> bool {
    let o = v4.octets();
    v4.is_loopback() // 127/8
        || v4.is_private() // 10/8, 172.16/12, 192.168/16
        || v4.is_link_local() // 169.254/16, the cloud metadata address among them
        || v4.is_multicast() // 224/4
        || v4.is_broadcast()
        || v4.is_documentation() // 192.0.2/24, 198.51.100/24, 203.0.113/24
        || o[0] == 0 // "this network", 0.0.0.0 among it
        || (o[0] == 100 && (o[1] & 0xC0) == 64) // carrier-grade NAT 100.64/10
        || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments 192.0.0/24
        || (o[0] == 198 && (o[1] & 0xFE) == 18) // benchmarking 198.18/15
        || (o[0] == 192 && o[1] == 88 && o[2] == 99) // 6to4 relay anycast
        || o[0] >= 240 // reserved 240/4
}

fn forbidden_v6(v6: Ipv6Addr) -> bool {
    let s = v6.segments();
    let v4_at = |i: usize| Ipv4Addr::from((u32::from(s[i]) << 16) | u32::from(s[i + 1]));
    // The IPv6 forms that carry an IPv4 address are judged by that address.
    let compatible = s[..6] == [0; 6] && !(s[6] == 0 && s[7] <= 1); // ::a.b.c.d (not :: or ::1)
    let nat64 = s[..6] == [0x64, 0xff9b, 0, 0, 0, 0]; // 64:ff9b::a.b.c.d
    let embedded = if let Some(v4) = v6.to_ipv4_mapped() {
        Some(v4) // ::ffff:a.b.c.d
    } else if compatible || nat64 {
        Some(v4_at(6))
    } else if s[0] == 0x2002 {
        Some(v4_at(1)) // 6to4 2002:aabb:ccdd::
    } else {
        None
    };
    if let Some(v4) = embedded {
        return forbidden_v4(v4);
    }
    v6.is_loopback() // ::1
        || v6.is_unspecified() // ::
        || v6.is_multicast() // ff00::/8
        || (s[0] & 0xFE00) == 0xFC00 // unique local fc00::/7
        || (s[0] & 0xFFC0) == 0xFE80 // link-local fe80::/10
        || (s[0] & 0xFFC0) == 0xFEC0 // site-local fec0::/10 (deprecated, still routed inside)
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation 2001:db8::/32
        || (s[0] == 0x2001 && s[1] < 0x0200) // IETF protocol assignments 2001::/23 (Teredo among them)
        || s[..4] == [0x0100, 0, 0, 0] // discard-only 100::/64
}

/// A checked target: the parsed address and the socket addresses the call may connect to.
#[derive(Debug)]
pub struct Target {
    uri: Uri,
    addrs: Vec<SocketAddr>,
}

/// Parses `url` with the HTTP client's own parser (so the host checked is the host called),
/// resolves its host once and checks every address. Blocks on the lookup: call it off the
/// async threads.
pub fn resolve(url: &str, allow_private: bool) -> Result<Target, TargetError> {
    let uri: Uri = url.trim().parse().map_err(|_| {
        if url.trim().starts_with("http://") || url.trim().starts_with("https://") {
            TargetError::NoHost
        } else {
            TargetError::NotHttp
        }
    })?;
    let default_port = match uri.scheme_str() {
        Some("http") => 80,
        Some("https") => 443,
        _ => return Err(TargetError::NotHttp),
    };
    let authority = uri.authority().ok_or(TargetError::NoHost)?;
    if authority.as_str().contains('@') {
        return Err(TargetError::Credentials);
    }
    let host = authority.host();
    if host.is_empty() {
        return Err(TargetError::NoHost);
    }
    let port = authority.port_u16().unwrap_or(default_port);
    let addrs = resolve_host(host, port, allow_private)?;
    Ok(Target { uri, addrs })
}

/// Resolves `host` once and checks every address it resolves to; answers those addresses, the
/// only ones a call may connect to. The check of [`resolve`], for a service that is not
/// reached by an http(s) address (the SMTP server). Blocks on the lookup.
pub fn resolve_host(host: &str, port: u16, allow_private: bool) -> Result<Vec<SocketAddr>, TargetError> {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|_| TargetError::Unresolvable)?
        .take(16)
        .collect();
    if addrs.is_empty() {
        return Err(TargetError::Unresolvable);
    }
    if !allow_private && let Some(bad) = addrs.iter().find(|a| is_forbidden(a.ip())) {
        return Err(TargetError::Private(bad.ip()));
    }
    Ok(addrs)
}

/// Refuses an address that is not http(s) or whose host resolves to a forbidden address:
/// the check made before an address is stored. Blocks on the lookup.
pub fn check_target(url: &str, allow_private: bool) -> Result<(), TargetError> {
    resolve(url, allow_private).map(|_| ())
}

/// [`check_target`] for an address about to be stored in a setting (a provider's), off the
/// async threads: a refused one is 422 `address_refused` on `field`, saying why.
pub async fn check_stored(
    url: String,
    allow_private: bool,
    field: &'static str,
) -> Result<(), crate::plumbing::error::AppError> {
    refused_on(field, move || check_target(&url, allow_private)).await
}

/// [`check_stored`] for a host name (the SMTP server's) about to be stored.
pub async fn check_stored_host(
    host: String,
    allow_private: bool,
    field: &'static str,
) -> Result<(), crate::plumbing::error::AppError> {
    refused_on(field, move || resolve_host(&host, 0, allow_private).map(|_| ())).await
}

async fn refused_on(
    field: &'static str,
    check: impl FnOnce() -> Result<(), TargetError> + Send + 'static,
) -> Result<(), crate::plumbing::error::AppError> {
    use crate::plumbing::error::AppError;
    tokio::task::spawn_blocking(check)
        .await
        .map_err(AppError::internal)?
        .map_err(|e| AppError::invalid(field, "address_refused", format!("This address is refused: {e}.")))
}

/// The resolver of one call: answers the addresses that were checked, whatever it is asked.
#[derive(Debug)]
struct Pinned(Vec<SocketAddr>);

impl Resolver for Pinned {
    fn resolve(
        &self,
        _uri: &Uri,
        _config: &ureq::config::Config,
        _timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let mut out = self.empty();
        for addr in &self.0 {
            out.push(*addr);
        }
        Ok(out)
    }
}

/// One outbound request.
pub struct Request<'a> {
    pub method: Method,
    pub url: &'a str,
    pub headers: Vec<(&'static str, String)>,
    pub body: Option<Vec<u8>>,
    /// The largest answer read; a larger one is [`CallError::TooLarge`].
    pub max_bytes: u64,
}

impl<'a> Request<'a> {
    pub fn get(url: &'a str, max_bytes: u64) -> Self {
        Request {
            method: Method::GET,
            url,
            headers: Vec::new(),
            body: None,
            max_bytes,
        }
    }

    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }
}

/// An answer that came back: any status but a redirect, and the body within the cap.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
    /// From the start of the call to the last byte of the answer.
    pub latency: Duration,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Makes one call under `guard`: resolve and check, connect to the checked addresses only,
/// no redirect, no proxy, the timeout, the size cap. Blocks: call it off the async threads.
/// No error text carries the address (its query may hold a login).
pub fn call(guard: Guard, request: Request<'_>) -> Result<Reply, CallError> {
    let started = Instant::now();
    let target = resolve(request.url, guard.allow_private).map_err(CallError::Target)?;
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(guard.timeout))
        .max_redirects(0)
        .max_redirects_will_error(false)
        .http_status_as_error(false)
        .proxy(None)
        .user_agent(concat!("backoffice/", env!("CARGO_PKG_VERSION")))
        .build();
    let agent = ureq::Agent::with_parts(config, DefaultConnector::new(), Pinned(target.addrs));
    let mut builder = http::Request::builder().method(request.method).uri(target.uri);
    for (name, value) in &request.headers {
        builder = builder.header(*name, value.as_str());
    }
    let wire = builder
        .body(request.body.unwrap_or_default())
        .map_err(|_| CallError::Unreachable("the request could not be built".into()))?;
    let failed = |e: ureq::Error| match e {
        ureq::Error::Timeout(_) => CallError::Timeout(guard.timeout),
        ureq::Error::BodyExceedsLimit(_) => CallError::TooLarge(request.max_bytes),
        ureq::Error::HostNotFound => CallError::Target(TargetError::Unresolvable),
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => CallError::Timeout(guard.timeout),
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::InvalidData => {
            CallError::Unreachable(format!("TLS or HTTP failed: {io}"))
        }
        ureq::Error::Io(io) => CallError::Unreachable(format!("connection failed: {}", io.kind())),
        ureq::Error::ConnectionFailed => CallError::Unreachable("connection failed".into()),
        ureq::Error::Tls(why) => CallError::Unreachable(format!("TLS failed: {why}")),
        ureq::Error::Rustls(why) => CallError::Unreachable(format!("TLS failed: {why}")),
        ureq::Error::Protocol(why) => CallError::Unreachable(format!("not an HTTP answer: {why}")),
        // Any other failure is named by its kind only: its text could quote the address.
        other => CallError::Unreachable(format!(
            "the call failed ({})",
            format!("{other:?}")
                .split(['(', ' ', '{'])
                .next()
                .unwrap_or("error")
        )),
    };
    let mut response = agent.run(wire).map_err(failed)?;
    let status = response.status().as_u16();
    if (300..400).contains(&status) {
        return Err(CallError::Redirect(status));
    }
    let body = response
        .body_mut()
        .with_config()
        .limit(request.max_bytes)
        .read_to_vec()
        .map_err(failed)?;
    Ok(Reply {
        status,
        body,
        latency: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;

    /// Every form below is refused by the address check (spec 7, decisions 7).
    const REFUSED: &[&str] = &[
        // loopback in its spellings
        "http://127.0.0.1:8080/x",
        "http://127.1/",
        "http://127.255.255.254/",
        "http://2130706433/",
        "http://0x7f000001/",
        "http://0x7f.0.0.1/",
        "http://0177.0.0.1/",
        "http://017700000001/",
        "http://localhost/",
        "http://LOCALHOST:9/",
        "http://[::1]/",
        "http://[0:0:0:0:0:0:0:1]/",
        // unspecified
        "http://0.0.0.0/",
        "http://0/",
        "http://[::]/",
        // private
        "http://10.1.2.3/",
        "http://172.16.0.1/",
        "http://172.31.255.255/",
        "http://192.168.1.1/",
        // link-local and the cloud metadata address
        "http://169.254.169.254/latest/meta-data",
        "http://169.254.0.1/",
        "http://[fe80::1]/",
        // carrier-grade NAT, benchmarking, IETF, reserved, broadcast, multicast
        "http://100.64.0.1/",
        "http://100.127.255.254/",
        "http://198.18.0.1/",
        "http://198.19.255.1/",
        "http://192.0.0.8/",
        "http://240.0.0.1/",
        "http://255.255.255.255/",
        "http://224.0.0.1/",
        "http://239.255.255.250/",
        // documentation ranges
        "http://192.0.2.10/",
        "http://198.51.100.7/",
        "http://203.0.113.1/",
        "http://[2001:db8::1]/",
        // IPv4 carried in IPv6
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://[0:0:0:0:0:ffff:10.0.0.1]/",
        "http://[::ffff:169.254.169.254]/",
        "http://[::127.0.0.1]/",
        "http://[::10.0.0.1]/",
        "http://[::192.168.0.1]/",
        "http://[64:ff9b::127.0.0.1]/",
        "http://[2002:7f00:1::]/",
        "http://[2002:a9fe:a9fe::1]/",
        // unique-local, site-local, multicast, Teredo, discard-only IPv6
        "http://[fd00::1]/",
        "http://[fc00::5]/",
        "http://[fd00:ec2::254]/",
        "http://[fec0::1]/",
        "http://[ff02::1]/",
        "http://[2001::1]/",
        "http://[100::1]/",
    ];

    #[test]
    fn every_private_local_or_reserved_form_is_refused() {
        assert!(REFUSED.len() >= 30);
        for url in REFUSED {
            let result = check_target(url, false);
            assert!(
                matches!(result, Err(TargetError::Private(_))),
                "{url}: {result:?}"
            );
            assert!(
                matches!(
                    call(GUARD, Request::get(url, 100)),
                    Err(CallError::Target(TargetError::Private(_)))
                ),
                "{url}: a call is refused before any connection"
            );
        }
    }

    const GUARD: Guard = Guard {
        smtp_ca: None,
        allow_private: false,
        timeout: Duration::from_secs(2),
    };

    #[test]
    fn addresses_that_are_not_plain_http_urls_are_refused() {
        for (url, why) in [
            ("ftp://example.com/", TargetError::NotHttp),
            ("file:///etc/passwd", TargetError::NotHttp),
            ("gopher://8.8.8.8/", TargetError::NotHttp),
            ("example.com/x", TargetError::NotHttp),
            ("http://user@8.8.8.8/", TargetError::Credentials),
            ("http://user:pw@8.8.8.8/", TargetError::Credentials),
            ("http://8.8.8.8@127.0.0.1/", TargetError::Credentials),
            ("https://", TargetError::NoHost),
            ("http://[::1/", TargetError::NoHost),
            ("http://host name.example/", TargetError::NoHost),
        ] {
            assert_eq!(check_target(url, false), Err(why), "{url}");
        }
        assert_eq!(
            check_target("http://no-such-host.invalid/", false),
            Err(TargetError::Unresolvable)
        );
    }

    #[test]
    fn public_addresses_pass_and_the_lab_switch_lifts_the_check() {
        for url in [
            "http://8.8.8.8/",
            "https://1.1.1.1:8443/x",
            "http://[2606:4700::1111]/",
            "http://100.128.0.1/",
            "http://198.20.0.1/",
            "http://172.32.0.1/",
        ] {
            assert_eq!(check_target(url, false), Ok(()), "{url}");
        }
        assert_eq!(check_target("http://127.0.0.1:9/", true), Ok(()));
        assert_eq!(check_target("ftp://127.0.0.1/", true), Err(TargetError::NotHttp));
    }

    /// A one-shot server on loopback answering `reply` to every request; its address.
    fn serve(reply: &'static str, delay: Duration) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut line = String::new();
                    while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                        line.clear();
                    }
                    std::thread::sleep(delay);
                    let _ = (&stream).write_all(reply.as_bytes());
                });
            }
        });
        format!("http://{addr}")
    }

    const LAB: Guard = Guard {
        smtp_ca: None,
        allow_private: true,
        timeout: Duration::from_secs(1),
    };

    #[test]
    fn redirects_are_never_followed() {
        for status in [301, 302, 303, 307, 308] {
            let reply: &'static str = Box::leak(
                format!(
                    "HTTP/1.1 {status} Moved\r\nLocation: http://169.254.169.254/latest/meta-data\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                )
                .into_boxed_str(),
            );
            let url = serve(reply, Duration::ZERO);
            assert_eq!(
                call(LAB, Request::get(&url, 1000)).unwrap_err(),
                CallError::Redirect(status)
            );
            // Without the lab switch the loopback server itself is refused first.
            assert!(matches!(
                call(GUARD, Request::get(&url, 1000)),
                Err(CallError::Target(TargetError::Private(_)))
            ));
        }
    }

    #[test]
    fn answers_are_capped_and_timed() {
        let url = serve(
            "HTTP/1.1 200 OK\r\nContent-Length: 9\r\nConnection: close\r\n\r\n200|OK|42",
            Duration::ZERO,
        );
        let reply = call(LAB, Request::get(&url, 100)).unwrap();
        assert_eq!((reply.status, reply.text().as_str()), (200, "200|OK|42"));
        assert_eq!(
            call(LAB, Request::get(&url, 5)).unwrap_err(),
            CallError::TooLarge(5)
        );
        // https to a server that speaks plain HTTP: a TLS failure, named as such.
        let tls = call(LAB, Request::get(&url.replace("http://", "https://"), 100)).unwrap_err();
        assert!(
            matches!(&tls, CallError::Unreachable(why) if why.starts_with("TLS")),
            "{tls:?}"
        );
        let slow = serve(
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
            Duration::from_secs(3),
        );
        assert_eq!(
            call(LAB, Request::get(&slow, 100)).unwrap_err(),
            CallError::Timeout(LAB.timeout)
        );
    }
}
