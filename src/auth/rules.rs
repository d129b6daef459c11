//! Sign-in rules as plain functions (spec 5, decisions 4): password hashing, the dummy-hash
//! path for unknown users, the lockout after 8 consecutive failures, session tokens and expiry.
//!
//! Password hashing is argon2id with OWASP's floor: 19 MiB of memory, 2 passes, 1 lane.
//! Hashing costs tens of milliseconds on purpose; the server runs it on its hashing threads
//! (`AppState::hashing`).

use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use argon2::password_hash::{self, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Consecutive failures that lock an account.
pub const MAX_FAILURES: i64 = 8;
/// How long a lock lasts.
pub const LOCK_MINUTES: i64 = 15;
/// A session ends after this long without a request...
pub const SESSION_IDLE_HOURS: i64 = 12;
/// ...and at the latest this long after sign-in.
pub const SESSION_MAX_DAYS: i64 = 7;
/// The shortest password a user may choose.
pub const MIN_PASSWORD_LEN: usize = 10;
/// The longest accepted: hashing a megabyte-long "password" would be a cheap way to burn CPU.
pub const MAX_PASSWORD_LEN: usize = 256;

/// The parameters of new hashes.
fn params() -> Params {
    Params::new(19 * 1024, 2, 1, None).expect("valid argon2 parameters")
}

thread_local! {
    /// argon2's 19 MiB of working memory, kept by each thread that hashes rather than allocated
    /// per sign-in (see `AppState::hashing`, which runs it on one thread per core).
    static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// argon2 of `password` and `salt` into `out`, in this thread's kept memory.
fn argon2_into(
    algorithm: Algorithm,
    version: Version,
    params: Params,
    password: &str,
    salt: &[u8],
    out: &mut [u8],
) -> Result<(), argon2::Error> {
    MEMORY.with_borrow_mut(|memory| {
        memory.resize(params.block_count(), Block::new());
        Argon2::new(algorithm, version, params).hash_password_into_with_memory(
            password.as_bytes(),
            salt,
            out,
            &mut memory[..],
        )
    })
}

/// The PHC string of `password` with a fresh random salt.
pub fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the OS random source works");
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    let (algorithm, version, params) = (Algorithm::Argon2id, Version::V0x13, params());
    argon2_into(algorithm, version, params.clone(), password, &salt, &mut out)
        .expect("argon2 hashing succeeds");
    let salt = SaltString::encode_b64(&salt).expect("16 bytes is a valid salt");
    PasswordHash {
        algorithm: algorithm.ident(),
        version: Some(version.into()),
        params: (&params).try_into().expect("argon2 parameters as a PHC string"),
        salt: Some(salt.as_salt()),
        hash: Some(password_hash::Output::new(&out).expect("a 32-byte output")),
    }
    .to_string()
}

/// Whether `password` matches the stored PHC string; a malformed string never matches.
pub fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .and_then(|parsed| matches(password, &parsed))
        .unwrap_or(false)
}

/// What argon2's own verifier checks, in this thread's kept memory.
fn matches(password: &str, parsed: &PasswordHash) -> Result<bool, password_hash::Error> {
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return Ok(false);
    };
    let algorithm = Algorithm::try_from(parsed.algorithm)?;
    let version = parsed
        .version
        .map(Version::try_from)
        .transpose()?
        .unwrap_or_default();
    let mut salt_bytes = [0u8; 64];
    let salt = salt.decode_b64(&mut salt_bytes)?;
    let mut out = vec![0u8; expected.len()];
    argon2_into(
        algorithm,
        version,
        Params::try_from(parsed)?,
        password,
        salt,
        &mut out,
    )?;
    // Output compares in constant time.
    Ok(password_hash::Output::new(&out)? == expected)
}

/// How many sign-ins took the dummy-hash path since the process started (tests read it).
pub static DUMMY_VERIFICATIONS: AtomicU64 = AtomicU64::new(0);

/// Costs one verification against a fixed hash, so an unknown user answers as slowly as a known one.
pub fn verify_against_dummy(password: &str) {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY_VERIFICATIONS.fetch_add(1, Ordering::Relaxed);
    let dummy = DUMMY.get_or_init(|| hash_password("dummy password nobody has"));
    let _ = verify_password(password, dummy);
}

/// A readable random initial password (no look-alike characters), about 95 bits.
pub fn initial_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyzACDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut bytes = [0u8; 18];
    getrandom::fill(&mut bytes).expect("the OS random source works");
    let chars: String = bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect();
    format!("{}-{}-{}", &chars[0..6], &chars[6..12], &chars[12..18])
}

/// The least zxcvbn score a new password must reach: 3 is "safely unguessable" (more than
/// 10^8 guesses), the bar zxcvbn's authors set for an online service that throttles guessing.
const MIN_STRENGTH: u8 = 3;

/// Why a new password is refused, if it is: too short, too long, or too easy to guess. The
/// strength estimate (zxcvbn) also knows `user_inputs` (the user's name, email, username: what
/// the caller knows of them), so "pillaimeera" is weak for Meera Pillai and only for her. The
/// reason is zxcvbn's own warning and suggestion, which a person can act on.
pub fn password_problem(password: &str, user_inputs: &[&str]) -> Option<String> {
    let len = password.chars().count();
    if len < MIN_PASSWORD_LEN {
        return Some(format!("Use at least {MIN_PASSWORD_LEN} characters."));
    }
    if len > MAX_PASSWORD_LEN {
        return Some(format!("Use at most {MAX_PASSWORD_LEN} characters."));
    }
    // An email is also judged by its parts: "meera" in "meera@coop.in".
    let mut inputs: Vec<&str> = Vec::new();
    for input in user_inputs.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
        inputs.push(input);
        inputs.extend(
            input
                .split(['@', '.', ' ', '_', '-'])
                .filter(|part| part.len() >= 3),
        );
    }
    let estimate = zxcvbn::zxcvbn(password, &inputs);
    if u8::from(estimate.score()) >= MIN_STRENGTH {
        return None;
    }
    let feedback = estimate.feedback();
    let warning = feedback.and_then(|f| f.warning()).map(|w| w.to_string());
    let suggestion = feedback
        .and_then(|f| f.suggestions().first())
        .map(|s| s.to_string());
    let mut reason = String::from("This password is too easy to guess.");
    for part in [warning, suggestion].into_iter().flatten() {
        reason.push(' ');
        reason.push_str(part.trim_end_matches('.'));
        reason.push('.');
    }
    Some(reason)
}

/// After one more failure on top of `failed_before`: the counter to store and, when this
/// failure reaches the limit, the lock expiry (the counter then starts again from zero).
pub fn after_failure(failed_before: i64, now: DateTime<Utc>) -> (i64, Option<DateTime<Utc>>) {
    let failed = failed_before + 1;
    if failed >= MAX_FAILURES {
        (0, Some(now + Duration::minutes(LOCK_MINUTES)))
    } else {
        (failed, None)
    }
}

/// A new session token (64 hex characters, 256 random bits) and the hash the database keeps.
pub fn new_session_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS random source works");
    let token = hex::encode(bytes);
    let hash = hash_token(&token);
    (token, hash)
}

/// SHA-256 (hex) of a session token: what the database stores and looks up.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Whether a session is still alive at `now`.
pub fn session_alive(last_seen: DateTime<Utc>, expires_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now < expires_at && now < last_seen + Duration::hours(SESSION_IDLE_HOURS)
}

/// What checking a sign-in found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Success,
    /// Unknown user.
    Failed,
    WrongPassword,
    Inactive,
    Locked(chrono::DateTime<chrono::Utc>),
}

impl Verdict {
    /// The verdict on a known, unlocked account: the password first, so that a deactivated
    /// account with a wrong password looks like any wrong password.
    pub fn of_check(password_matches: bool, active: bool) -> Verdict {
        match (password_matches, active) {
            (false, _) => Verdict::WrongPassword,
            (true, false) => Verdict::Inactive,
            (true, true) => Verdict::Success,
        }
    }

    /// What the login event records.
    pub fn outcome(&self) -> Outcome {
        match self {
            Verdict::Success => Outcome::Success,
            Verdict::Locked(_) => Outcome::Locked,
            Verdict::Failed | Verdict::WrongPassword | Verdict::Inactive => Outcome::Failed,
        }
    }

    /// The answer to a sign-in that did not succeed. Unknown user and wrong password look the same.
    pub fn refusal(self) -> AppError {
        let mut err = match self {
            Verdict::Locked(until) => {
                let mut err = AppError::new(
                    StatusCode::LOCKED,
                    "locked",
                    format!(
                        "This account is locked after too many failed sign-ins. It unlocks at {}.",
                        clock::timestamp(until)
                    ),
                );
                err.locked_until = Some(clock::timestamp(until));
                err
            }
            Verdict::Inactive => AppError::new(
                StatusCode::UNAUTHORIZED,
                "inactive",
                "This account has been deactivated.",
            ),
            Verdict::Success | Verdict::Failed | Verdict::WrongPassword => AppError::new(
                StatusCode::UNAUTHORIZED,
                "invalid_credentials",
                "Wrong username or password.",
            ),
        };
        err.outcome = Some(self.outcome().as_str());
        err
    }
}

/// The outcome of one sign-in attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Success,
    Failed,
    Locked,
    /// Refused by a rate limiter before any check (decisions 12).
    Limited,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Failed => "failed",
            Outcome::Locked => "locked",
            Outcome::Limited => "limited",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sign-in verdict table (spec 2.2, decisions 4): what each case records and answers.
    #[test]
    fn sign_in_verdicts() {
        let until = clock::parse_timestamp("2026-11-24T10:15:00Z").unwrap();
        assert_eq!(Verdict::of_check(false, true), Verdict::WrongPassword);
        assert_eq!(Verdict::of_check(false, false), Verdict::WrongPassword);
        assert_eq!(Verdict::of_check(true, false), Verdict::Inactive);
        assert_eq!(Verdict::of_check(true, true), Verdict::Success);
        for (verdict, outcome, status, code) in [
            (Verdict::Failed, "failed", 401, "invalid_credentials"),
            (Verdict::WrongPassword, "failed", 401, "invalid_credentials"),
            (Verdict::Inactive, "failed", 401, "inactive"),
            (Verdict::Locked(until), "locked", 423, "locked"),
        ] {
            let refusal = verdict.refusal();
            assert_eq!(
                (
                    verdict.outcome().as_str(),
                    refusal.status.as_u16(),
                    refusal.code,
                    refusal.outcome
                ),
                (outcome, status, code, Some(outcome)),
                "{verdict:?}"
            );
        }
        assert_eq!(
            Verdict::Locked(until).refusal().locked_until.as_deref(),
            Some("2026-11-24T10:15:00Z")
        );
    }
    use chrono::TimeZone;

    #[test]
    fn hash_then_verify() {
        let phc = hash_password("correct horse battery");
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify_password("correct horse battery", &phc));
        assert!(!verify_password("wrong", &phc));
        assert!(!verify_password("anything", "not a phc string"));
        // The same verdicts as argon2's own verifier, on a hash of other parameters too.
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let other = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(8192, 3, 1, Some(24)).unwrap(),
        )
        .hash_password(
            b"another password",
            &SaltString::encode_b64(b"sixteen byte salt").unwrap(),
        )
        .unwrap()
        .to_string();
        for (password, phc) in [
            ("correct horse battery", &phc),
            ("another password", &other),
            ("wrong", &other),
        ] {
            let theirs =
                Argon2::default().verify_password(password.as_bytes(), &PasswordHash::new(phc).unwrap());
            assert_eq!(verify_password(password, phc), theirs.is_ok(), "{password}");
        }
        assert!(verify_password("another password", &other));
    }

    #[test]
    fn eighth_failure_locks_for_fifteen_minutes() {
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap();
        assert_eq!(after_failure(0, now), (1, None));
        assert_eq!(after_failure(6, now), (7, None));
        assert_eq!(after_failure(7, now), (0, Some(now + Duration::minutes(15))));
    }

    #[test]
    fn session_expiry_idle_and_absolute() {
        let t0 = Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap();
        let abs = t0 + Duration::days(7);
        assert!(session_alive(t0, abs, t0 + Duration::hours(11)));
        assert!(!session_alive(t0, abs, t0 + Duration::hours(12)));
        let late = abs - Duration::minutes(1);
        assert!(session_alive(late, abs, late));
        assert!(!session_alive(abs, abs, abs));
    }

    #[test]
    fn tokens_are_64_hex_and_hashed() {
        let (token, hash) = new_session_token();
        assert_eq!(token.len(), 64);
        assert!(token.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(hash, hash_token(&token));
        assert_ne!(hash, token);
    }

    #[test]
    fn password_rules() {
        for (password, inputs, refused) in [
            ("short", &[][..], true),
            ("password123", &[], true),
            ("qwertyuiop12", &[], true),
            ("Password2026!", &[], true),
            ("pillaimeera", &["Meera Pillai", "meera@coop.in"][..], true),
            ("pillaimeera", &[], false),
            ("Kumily-ledger-2026", &[], false),
            ("correct horse battery staple", &[], false),
        ] {
            assert_eq!(
                password_problem(password, inputs).is_some(),
                refused,
                "{password}"
            );
        }
        assert_eq!(
            password_problem("short", &[]).as_deref(),
            Some("Use at least 10 characters.")
        );
        assert_eq!(
            password_problem("password123", &[]).as_deref(),
            Some(
                "This password is too easy to guess. This is a very common password. Add another word or two. Uncommon words are better."
            )
        );
        assert!(password_problem(&"x".repeat(257), &[]).is_some());
        let p = initial_password();
        assert_eq!(p.len(), 20);
        assert_eq!(password_problem(&p, &[]), None);
    }
}

/// "Chrome on Windows" from a user-agent string, for the login history.
pub fn device_label(user_agent: Option<&str>) -> String {
    let Some(ua) = user_agent.filter(|ua| !ua.trim().is_empty()) else {
        return "Unknown device".into();
    };
    // Order matters: Edge and Opera also say Chrome; Chrome also says Safari.
    let browser = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Chromium/", "Chromium"),
        ("Safari/", "Safari"),
        ("curl/", "curl"),
    ]
    .iter()
    .find(|(needle, _)| ua.contains(needle))
    .map(|(_, name)| *name);
    let os = [
        ("Windows", "Windows"),
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Mac OS X", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .iter()
    .find(|(needle, _)| ua.contains(needle))
    .map(|(_, name)| *name);
    match (browser, os) {
        (Some(b), Some(o)) => format!("{b} on {o}"),
        (Some(b), None) => b.to_string(),
        (None, Some(o)) => format!("Browser on {o}"),
        (None, None) => "Other device".into(),
    }
}

#[cfg(test)]
mod device_tests {
    use super::device_label;

    #[test]
    fn device_labels() {
        let cases = [
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
                "Chrome on Windows",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36 Edg/120.0",
                "Edge on Windows",
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
                "Firefox on Linux",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
                "Safari on iPhone",
            ),
            (
                "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36",
                "Chrome on Android",
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/156.0 Safari/537.36",
                "Chrome on Linux",
            ),
            ("curl/8.5.0", "curl"),
            ("", "Unknown device"),
        ];
        for (ua, label) in cases {
            assert_eq!(device_label(Some(ua)), label, "{ua}");
        }
        assert_eq!(device_label(None), "Unknown device");
    }
}
