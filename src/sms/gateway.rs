//! One poll of the SMS gateway (decisions 7): `GET {sms.balance_api_url}?username=..&password=..`
//! through `outbound` (the checked address, no redirect, the timeout, a size cap).

use crate::plumbing::clock;
use crate::plumbing::outbound::{self, CallError, Guard};
use crate::sms::rules::{self, Outcome, Reading};
use crate::sms::store::{Check, Subscription};

/// The gateway answers one short line; anything longer is not its answer.
const MAX_REPLY: u64 = 4096;

/// Asks the gateway for one subscription's balance. Never fails: what went wrong is the check's
/// outcome. No text of it carries the password (the address is never quoted; an echo is masked).
pub fn poll(guard: Guard, gateway: &str, subscription: &Subscription) -> Check {
    let at = clock::now_timestamp();
    let started = std::time::Instant::now();
    let (reading, latency) = match subscription.login() {
        None => (
            Reading::Flag(
                Outcome::Error,
                "No gateway login is stored for this subscription.".into(),
            ),
            std::time::Duration::ZERO,
        ),
        Some((username, password)) => {
            let url = rules::poll_url(gateway, username, password);
            match outbound::call(guard, outbound::Request::get(&url, MAX_REPLY)) {
                Ok(reply) => (rules::read_reply(&reply.text(), reply.status), reply.latency),
                // It answered, but not with its line: a redirect or an answer past the cap.
                Err(e @ (CallError::TooLarge(_) | CallError::Redirect(_))) => (
                    Reading::Flag(
                        Outcome::Malformed,
                        format!("The gateway's answer is refused: {e}."),
                    ),
                    started.elapsed(),
                ),
                Err(e) => (
                    Reading::Flag(Outcome::Unreachable, format!("The gateway did not answer: {e}.")),
                    started.elapsed(),
                ),
            }
        }
    };
    let (outcome, balance, error) = match reading {
        Reading::Balance(balance) => (Outcome::Ok, Some(balance), None),
        Reading::Flag(outcome, text) => (
            outcome,
            None,
            Some(rules::masked(
                &text,
                subscription.password.as_deref().unwrap_or(""),
            )),
        ),
    };
    Check {
        client_module_id: subscription.id.clone(),
        at,
        outcome,
        balance,
        error,
        latency_ms: latency.as_millis().try_into().unwrap_or(i64::MAX),
    }
}
