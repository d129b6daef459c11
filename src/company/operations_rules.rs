//! Checking the operations settings: every value is checked before anything is written, and
//! each fault names its key.

use crate::plumbing::error::{AppError, Checks};
use crate::plumbing::outbound;
use serde::Deserialize;
use utoipa::ToSchema;

/// A PUT of the operations settings: an absent key is left as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OperationsInput {
    /// The gateway's balance address (http or https, a public host); "" turns the pull off.
    #[serde(rename = "sms.balance_api_url")]
    pub sms_balance_api_url: Option<String>,
    /// 0 to 10,000,000 SMS credits.
    #[serde(rename = "sms.low_balance_threshold")]
    pub sms_low_balance_threshold: Option<i64>,
    /// 1 to 365 days.
    #[serde(rename = "ticket.sla_days")]
    pub ticket_sla_days: Option<i64>,
}

/// A checked change: each field None when left, the address Some(None) when cleared.
#[derive(Debug, Default)]
pub struct Change {
    pub sms_balance_api_url: Option<Option<String>>,
    pub sms_low_balance_threshold: Option<i64>,
    pub ticket_sla_days: Option<i64>,
}

pub const MAX_THRESHOLD: i64 = 10_000_000;
pub const MAX_SLA_DAYS: i64 = 365;

/// Checks every value; the gateway's address against request forgery (spec 2.11), which
/// resolves its host: call it off the async threads.
pub fn check(input: OperationsInput, allow_private: bool) -> Result<Change, AppError> {
    let mut checks = Checks::default();
    let url = input.sms_balance_api_url.map(|u| u.trim().to_string());
    let sms_balance_api_url = match url {
        None => None,
        Some(url) if url.is_empty() => Some(None),
        Some(url) => checks
            .check(outbound::check_target(&url, allow_private).map_err(|e| {
                AppError::invalid(
                    "sms.balance_api_url",
                    "address_refused",
                    format!("This address is refused: {e}."),
                )
            }))
            .map(|()| Some(url)),
    };
    let mut within = |value: Option<i64>, key: &str, low: i64, high: i64, unit: &str| {
        value.filter(|v| {
            let ok = (low..=high).contains(v);
            if !ok {
                checks.fail(AppError::invalid(
                    key,
                    "out_of_range",
                    format!("Give {low} to {high} {unit}."),
                ));
            }
            ok
        })
    };
    let change = Change {
        sms_balance_api_url,
        sms_low_balance_threshold: within(
            input.sms_low_balance_threshold,
            "sms.low_balance_threshold",
            0,
            MAX_THRESHOLD,
            "credits",
        ),
        ticket_sla_days: within(input.ticket_sla_days, "ticket.sla_days", 1, MAX_SLA_DAYS, "days"),
    };
    checks.done()?;
    Ok(change)
}

/// The address with each query value masked, for the audit trail: `?key=•••`.
pub fn masked_query(url: &str) -> String {
    match url.split_once('?') {
        None => url.to_string(),
        Some((base, query)) => {
            let masked: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((name, _)) => format!("{name}=•••"),
                    None => pair.to_string(),
                })
                .collect();
            format!("{base}?{}", masked.join("&"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(url: Option<&str>, threshold: Option<i64>, sla: Option<i64>) -> OperationsInput {
        OperationsInput {
            sms_balance_api_url: url.map(str::to_string),
            sms_low_balance_threshold: threshold,
            ticket_sla_days: sla,
        }
    }

    #[test]
    fn each_bad_value_is_named_and_all_are_reported() {
        let e = check(input(Some("http://169.254.169.254/"), Some(-1), Some(0)), false).unwrap_err();
        let fields: Vec<&str> = e.errors.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "sms.balance_api_url",
                "sms.low_balance_threshold",
                "ticket.sla_days"
            ]
        );
        let e = check(input(None, None, Some(366)), false).unwrap_err();
        assert_eq!(
            (e.field.as_deref(), e.code),
            (Some("ticket.sla_days"), "out_of_range")
        );
        let e = check(input(Some("ftp://8.8.8.8/"), None, None), false).unwrap_err();
        assert_eq!(
            (e.field.as_deref(), e.code),
            (Some("sms.balance_api_url"), "address_refused")
        );
    }

    #[test]
    fn good_values_pass_and_an_empty_address_clears() {
        let change = check(
            input(Some(" https://8.8.8.8/balance "), Some(0), Some(365)),
            false,
        )
        .unwrap();
        assert_eq!(
            change.sms_balance_api_url,
            Some(Some("https://8.8.8.8/balance".into()))
        );
        assert_eq!(
            (change.sms_low_balance_threshold, change.ticket_sla_days),
            (Some(0), Some(365))
        );
        assert_eq!(
            check(input(Some(""), None, None), false)
                .unwrap()
                .sms_balance_api_url,
            Some(None)
        );
        assert_eq!(
            check(input(None, None, None), false).unwrap().sms_balance_api_url,
            None
        );
    }

    #[test]
    fn query_values_are_masked_for_the_audit() {
        assert_eq!(
            masked_query("https://sms.in/bal?key=abc&x"),
            "https://sms.in/bal?key=•••&x"
        );
        assert_eq!(masked_query("https://sms.in/bal"), "https://sms.in/bal");
    }
}
