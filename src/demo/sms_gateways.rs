//! The gateways of the demo's SMS subscriptions: the providers the societies buy from, their
//! logins (a username made from the society's name, a password), and what a failed poll reads
//! as, in the server's own words (`sms::rules::read_reply`, `outbound::CallError`).

use crate::demo::Rng;
use crate::plumbing::outbound::CallError;
use crate::sms::rules::{self, Outcome, Reading};
use std::collections::HashSet;

/// Gateways the societies buy from: (name, weight, typical answer in ms).
pub(super) const PROVIDERS: &[(&str, u64, i64)] = &[
    ("MSG91", 26, 180),
    ("Textlocal", 16, 240),
    ("Fast2SMS", 14, 210),
    ("SMSCountry", 10, 260),
    ("Kaleyra", 10, 150),
    ("Gupshup", 9, 170),
    ("2Factor", 8, 220),
    ("Route Mobile", 7, 190),
];

/// What can go wrong with one poll, as a gateway does it.
#[derive(Clone, Copy)]
pub(super) enum Failure {
    /// No answer within the server's 10 s.
    Timeout,
    /// The connection dropped.
    Reset,
    InvalidLogin,
    Expired,
    /// The DLT registration every Indian sender needs.
    Suspended,
    ServerError,
    /// A proxy's error page instead of the gateway's line.
    Html,
    /// An empty answer.
    Empty,
}

impl Failure {
    /// The check's outcome, its text (as the server writes it) and its latency.
    pub(super) fn check(self, rng: &mut Rng, typical_ms: i64, password: &str) -> (Outcome, String, i64) {
        let no_answer = |e: CallError| format!("The gateway did not answer: {e}.");
        let reply = |body: &str, status: u16| match rules::read_reply(body, status) {
            Reading::Flag(outcome, text) => (outcome, text),
            Reading::Balance(_) => unreachable!("a failure's reply reads as a failure"),
        };
        let answered = typical_ms + rng.range(0, typical_ms);
        let (outcome, text, latency) = match self {
            Failure::Timeout => (
                Outcome::Unreachable,
                no_answer(CallError::Timeout(std::time::Duration::from_secs(10))),
                10_000 + rng.range(0, 40),
            ),
            Failure::Reset => (
                Outcome::Unreachable,
                no_answer(CallError::Unreachable(
                    "connection failed: connection reset".into(),
                )),
                rng.range(30, 3_000),
            ),
            Failure::InvalidLogin => {
                let (o, t) = reply("401|ERROR|Invalid login", 200);
                (o, t, answered)
            }
            Failure::Expired => {
                let (o, t) = reply("402|ERROR|Account expired, please renew your plan", 200);
                (o, t, answered)
            }
            Failure::Suspended => {
                let (o, t) = reply("403|ERROR|Account suspended: DLT entity ID not linked", 200);
                (o, t, answered)
            }
            Failure::ServerError => {
                let (o, t) = reply("500|ERROR|Internal server error, try again later", 200);
                (o, t, answered)
            }
            Failure::Html => {
                let (o, t) = reply(
                    "<html><head><title>503 Service Temporarily Unavailable</title></head><body><center>\
                     <h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>",
                    503,
                );
                (o, t, answered)
            }
            Failure::Empty => {
                let (o, t) = reply("", 502);
                (o, t, answered)
            }
        };
        (outcome, rules::masked(&text, password), latency)
    }
}

/// "KADAKKAL SERVICE CO-OPERATIVE BANK LTD NO 1023" → "kadakkalscb1023": the place, the
/// initials of the kind and the registration number; a number after it when already taken. A
/// gateway's usernames are ASCII: a name in Malayalam gives "society" and its number.
pub(super) fn username(name: &str, taken: &mut HashSet<String>) -> String {
    let mut words = name.split_whitespace();
    let mut base = words.next().unwrap_or_default().to_ascii_lowercase();
    base.retain(|c| c.is_ascii_alphanumeric());
    if base.is_empty() {
        base.push_str("society");
    }
    let mut number = String::new();
    for word in words {
        if word.bytes().all(|b| b.is_ascii_digit()) {
            number = word.to_string();
        } else if !matches!(word, "LTD" | "NO") {
            base.extend(
                word.chars()
                    .next()
                    .filter(char::is_ascii_alphabetic)
                    .map(|c| c.to_ascii_lowercase()),
            );
        }
    }
    base.push_str(&number);
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

/// A gateway password: what a secretary picks (`Kadakkal@2481`) or what the provider issued.
pub(super) fn password(rng: &mut Rng, place: &str) -> String {
    if rng.chance(40) {
        let mut word: String = place
            .chars()
            .take(rng.range(4, 8) as usize)
            .collect::<String>()
            .to_lowercase();
        if let Some(first) = word.get(0..1).map(str::to_uppercase) {
            word.replace_range(0..1, &first);
        }
        format!(
            "{word}{}{}",
            rng.pick(&["@", "#", "_", "$", "@"]),
            rng.range(100, 9999)
        )
    } else {
        const CHARS: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
        (0..10)
            .map(|_| CHARS[rng.below(CHARS.len() as u64) as usize] as char)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_made_from_the_name_and_never_repeat() {
        let mut taken = HashSet::new();
        assert_eq!(
            username("KADAKKAL SERVICE CO-OPERATIVE BANK LTD NO 1023", &mut taken),
            "kadakkalscb1023"
        );
        assert_eq!(
            username("ANCHAL CONSUMER CO-OPERATIVE STORES", &mut taken),
            "anchalccs"
        );
        assert_eq!(
            username("ANCHAL CONSUMER CO-OPERATIVE STORES", &mut taken),
            "anchalccs2"
        );
        assert_eq!(
            username("കടയ്ക്കൽ സർവീസ് സഹകരണ ബാങ്ക് ലിമിറ്റഡ് നമ്പർ 1042", &mut taken),
            "society1042"
        );
    }
}
