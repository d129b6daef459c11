//! Reading the gateway's answer (decisions 7): one line `code|STATUS|payload`, e.g.
//! `200|OK|1520` or `401|ERROR|Invalid login`. The balance is the trailing number of an OK
//! payload; anything else is flagged, never guessed (spec 4.9).

/// What one poll came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A balance was read.
    Ok,
    /// The gateway answered with an ERROR line (a wrong login, an expired account).
    Error,
    /// The answer is not `code|STATUS|payload` with a balance, or is too large.
    Malformed,
    /// No answer: the connection, the timeout, the address refused.
    Unreachable,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Error => "error",
            Outcome::Malformed => "malformed",
            Outcome::Unreachable => "unreachable",
        }
    }
}

/// A reading of one answer: a balance, or the outcome and the text of its flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    Balance(i64),
    Flag(Outcome, String),
}

/// The longest flag text kept.
const FLAG_CHARS: usize = 200;

/// Reads the gateway's answer (the body as text, with its HTTP status).
pub fn read_reply(body: &str, http_status: u16) -> Reading {
    let line = body.trim();
    let malformed = |why: String| Reading::Flag(Outcome::Malformed, why);
    let excerpt = || shorten(line, 60);
    if line.is_empty() {
        return malformed(format!("The gateway answered HTTP {http_status} with nothing."));
    }
    if line.contains(['\n', '\r']) {
        return malformed(format!(
            "The gateway answered more than one line: «{}».",
            excerpt()
        ));
    }
    let mut parts = line.splitn(3, '|');
    let (Some(code), Some(status), Some(payload)) = (parts.next(), parts.next(), parts.next()) else {
        return malformed(format!(
            "The gateway's answer is not code|STATUS|payload (HTTP {http_status}): «{}».",
            excerpt()
        ));
    };
    if code.trim().is_empty() || !code.trim().bytes().all(|b| b.is_ascii_digit()) {
        return malformed(format!(
            "The gateway's answer has no numeric code: «{}».",
            excerpt()
        ));
    }
    match status.trim().to_ascii_uppercase().as_str() {
        "OK" => match trailing_number(payload) {
            Some(balance) => Reading::Balance(balance),
            None => malformed(format!("The gateway said OK without a balance: «{}».", excerpt())),
        },
        "ERROR" => Reading::Flag(
            Outcome::Error,
            format!("{} {}", code.trim(), shorten(payload.trim(), FLAG_CHARS)),
        ),
        _ => malformed(format!(
            "The gateway's status is neither OK nor ERROR: «{}».",
            excerpt()
        )),
    }
}

/// The number a payload ends with: `1520`, `Balance: 1520`, `1,520` (Indian or Western
/// grouping). None when it does not end in digits, or the number does not fit.
fn trailing_number(payload: &str) -> Option<i64> {
    let payload = payload.trim();
    let start = payload
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_digit() || *c == ',')
        .last()
        .map(|(i, _)| i)?;
    let digits: String = payload[start..].chars().filter(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return None;
    }
    digits.parse().ok()
}

fn shorten(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(chars).collect::<String>())
    }
}

/// `text` with every occurrence of `secret` masked: a gateway that echoes the login back must
/// not put the password into a flag or the telemetry.
pub fn masked(text: &str, secret: &str) -> String {
    if secret.len() < 3 {
        return text.to_string();
    }
    text.replace(secret, "•••")
}

/// The address of one poll: the gateway's address with the subscription's login in the query.
pub fn poll_url(gateway: &str, username: &str, password: &str) -> String {
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("username", username)
        .append_pair("password", password)
        .finish();
    let joiner = if gateway.contains('?') { '&' } else { '?' };
    format!("{gateway}{joiner}{query}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_as_the_wire_format_says() {
        for (body, status, reading) in [
            ("200|OK|1520", 200, Reading::Balance(1520)),
            ("200|OK|1520\r\n", 200, Reading::Balance(1520)),
            ("200|OK|Balance: 48", 200, Reading::Balance(48)),
            ("200|OK|Credits left 1,20,000", 200, Reading::Balance(120_000)),
            ("200|ok|0", 200, Reading::Balance(0)),
            (" 200 | OK | 77 ", 200, Reading::Balance(77)),
            (
                "401|ERROR|Invalid login",
                200,
                Reading::Flag(Outcome::Error, "401 Invalid login".into()),
            ),
            (
                "401|ERROR|Invalid login",
                401,
                Reading::Flag(Outcome::Error, "401 Invalid login".into()),
            ),
            ("500|ERROR|", 200, Reading::Flag(Outcome::Error, "500 ".into())),
        ] {
            assert_eq!(read_reply(body, status), reading, "{body:?}");
        }
    }

    #[test]
    fn anything_else_is_flagged_never_guessed() {
        for body in [
            "",
            "   ",
            "<html><body>Bad gateway</body></html>",
            "1520",
            "200|OK",
            "200|OK|",
            "200|OK|about a thousand",
            "200|OK|1520 credits",
            "abc|OK|1520",
            "|OK|1520",
            "200|PENDING|1520",
            "200|OK|1520\n200|OK|9",
            "200|OK|99999999999999999999999",
        ] {
            let reading = read_reply(body, 200);
            assert!(
                matches!(reading, Reading::Flag(Outcome::Malformed, _)),
                "{body:?}: {reading:?}"
            );
        }
        let Reading::Flag(_, text) = read_reply(&"x".repeat(500), 200) else {
            panic!()
        };
        assert!(text.chars().count() < 150, "{text}");
    }

    #[test]
    fn the_login_goes_in_the_query_and_never_into_a_flag() {
        assert_eq!(
            poll_url("https://sms.example.in/balance", "kadakkal", "p&ss word"),
            "https://sms.example.in/balance?username=kadakkal&password=p%26ss+word"
        );
        assert_eq!(
            poll_url("https://sms.example.in/api?action=balance", "a", "b"),
            "https://sms.example.in/api?action=balance&username=a&password=b"
        );
        assert_eq!(
            masked("401 bad password Secret#42 for user", "Secret#42"),
            "401 bad password ••• for user"
        );
    }
}
