//! Project (client module) rules as plain functions (spec 2.5, 2.6, 3.3):
//! - a project's checklist is the shared front list followed by its module's tail, or the default
//!   tail when the module has none; keys are derived from labels when blank; a key in both the
//!   front and a tail is rejected; legacy keys advance_payment and balance_payment read as
//!   payment_received;
//! - ticking `installed` or `trained` advances the status and stamps installed_on / trained_on
//!   from the step's done_on, only the first time, never overwriting;
//! - a project's age is the time since its latest ticked step, else since its creation;
//! - module secrets are one blob: a first line listing the keys, then the JSON map.

use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// One step of a checklist template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Derived from the label when blank.
    #[serde(default)]
    pub key: String,
    pub label: String,
}

/// The tail used for modules that have none of their own.
pub fn default_tail() -> Vec<Step> {
    [
        ("advance_paid", "Advance paid"),
        ("setup", "Setup"),
        ("installed", "Installed"),
        ("trained", "Trained"),
        ("go_live", "Go-live"),
        ("balance", "Balance"),
        ("amc", "AMC"),
    ]
    .iter()
    .map(|(key, label)| Step {
        key: (*key).into(),
        label: (*label).into(),
    })
    .collect()
}

/// "Go-live call" → "go_live_call".
pub fn key_from_label(label: &str) -> String {
    let mut key = String::new();
    for c in label.trim().chars() {
        if c.is_ascii_alphanumeric() {
            key.push(c.to_ascii_lowercase());
        } else if !key.ends_with('_') && !key.is_empty() {
            key.push('_');
        }
    }
    key.trim_end_matches('_').to_string()
}

/// Legacy keys read as their successor.
pub fn canonical_key(key: &str) -> &str {
    match key {
        "advance_payment" | "balance_payment" => "payment_received",
        other => other,
    }
}

/// The steps of a stored legacy checklist: a list of labels or of `{ key, label }` steps, keys
/// derived and canonicalized as a saved template's are; None when it is neither.
pub fn legacy_steps(value: Value) -> Option<Vec<Step>> {
    let steps: Vec<Step> = value
        .as_array()?
        .iter()
        .map(|item| match item {
            Value::String(label) => Some(Step {
                key: String::new(),
                label: label.clone(),
            }),
            other => serde_json::from_value(other.clone()).ok(),
        })
        .collect::<Option<_>>()?;
    check_template(steps, &[]).ok()
}

/// A whole checklist given as labels in order (the legacy import's `checklist`), keys derived as
/// a saved template's are; a fault names `{field}[i]`.
pub fn steps_from_labels(field: &str, labels: &[String]) -> Result<Vec<Step>, AppError> {
    let steps = labels
        .iter()
        .map(|label| Step {
            key: String::new(),
            label: label.clone(),
        })
        .collect();
    check_template(steps, &[]).map_err(|mut e| {
        let at = e
            .field
            .as_deref()
            .and_then(|f| f.strip_prefix("steps"))
            .map(|rest| {
                let index = rest.split(']').next().unwrap_or("");
                format!("{field}{index}]")
            });
        e.field = Some(at.unwrap_or_else(|| field.to_string()));
        e
    })
}

/// Normalizes a template being saved: labels required, keys derived when blank and
/// canonicalized, no key twice, none colliding with `others` (the other side: front vs tails).
pub fn check_template(steps: Vec<Step>, others: &[String]) -> Result<Vec<Step>, AppError> {
    if steps.len() > 40 {
        return Err(AppError::invalid(
            "steps",
            "too_many",
            "A list has at most 40 steps.",
        ));
    }
    let mut out: Vec<Step> = vec![];
    for (i, step) in steps.into_iter().enumerate() {
        let label = step.label.trim().to_string();
        if label.is_empty() || label.chars().count() > 80 {
            return Err(AppError::invalid(
                &format!("steps[{i}].label"),
                "invalid_label",
                "A step's label is 1 to 80 characters.",
            ));
        }
        let key = if step.key.trim().is_empty() {
            key_from_label(&label)
        } else {
            key_from_label(&step.key)
        };
        let key = canonical_key(&key).to_string();
        if key.is_empty() {
            return Err(AppError::invalid(
                &format!("steps[{i}].key"),
                "invalid_key",
                "A step's key needs letters or digits.",
            ));
        }
        if out.iter().any(|s| s.key == key) {
            return Err(AppError::invalid(
                &format!("steps[{i}].key"),
                "duplicate_key",
                format!("The key {key} is used twice."),
            ));
        }
        if others.contains(&key) {
            return Err(AppError::invalid(
                &format!("steps[{i}].key"),
                "key_collision",
                format!("The key {key} is already in the other list (front and tail keys must differ)."),
            ));
        }
        out.push(Step { key, label });
    }
    Ok(out)
}

/// What ticking or unticking a step does to the project's status and dates.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Stamp {
    pub status: Option<&'static str>,
    pub installed_on: Option<NaiveDate>,
    pub trained_on: Option<NaiveDate>,
}

/// The status and date a tick of `key` on `done_on` sets, given what the project has.
pub fn stamp_for_tick(
    key: &str,
    done_on: NaiveDate,
    status: &str,
    installed_on: Option<&str>,
    trained_on: Option<&str>,
) -> Stamp {
    match key {
        "installed" => Stamp {
            status: (status != "trained" && status != "installed").then_some("installed"),
            installed_on: installed_on.is_none().then_some(done_on),
            trained_on: None,
        },
        "trained" => Stamp {
            status: (status != "trained").then_some("trained"),
            installed_on: None,
            trained_on: trained_on.is_none().then_some(done_on),
        },
        _ => Stamp::default(),
    }
}

/// Whole days from `since` to `today`.
pub fn age_days(since: NaiveDate, today: NaiveDate) -> i64 {
    (today - since).num_days()
}

/// Parses the stalled-projects `days`: an integer from 0 to 3650, else a 400.
pub fn parse_stall_days(raw: &str) -> Result<i64, AppError> {
    match raw.trim().parse::<i64>() {
        Ok(days) if (0..=3650).contains(&days) => Ok(days),
        _ => Err(
            AppError::bad_request("invalid_query", "days is a whole number from 0 to 3650.").on_field("days"),
        ),
    }
}

/// The secrets blob: "key1,key2\n{json map}".
pub fn encode_secrets(map: &Map<String, Value>) -> Option<String> {
    if map.is_empty() {
        return None;
    }
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
    Some(format!("{}\n{}", keys.join(","), Value::Object(map.clone())))
}

/// The keys listed on the blob's first line, read without touching the values.
pub fn secret_keys(blob: Option<&str>) -> Vec<String> {
    blob.and_then(|b| b.lines().next())
        .map(|line| {
            line.split(',')
                .filter(|k| !k.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The whole map (empty for a missing or unreadable blob).
pub fn decode_secrets(blob: Option<&str>) -> Map<String, Value> {
    blob.and_then(|b| b.split_once('\n'))
        .and_then(|(_, json)| serde_json::from_str::<Map<String, Value>>(json).ok())
        .unwrap_or_default()
}

/// A secret key: lower_snake_case or dotted, at most 60 characters (it is shown in lists).
pub fn check_secret_key(key: &str) -> Result<(), AppError> {
    let ok = !key.is_empty()
        && key.len() <= 60
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    if ok {
        Ok(())
    } else {
        Err(AppError::invalid(
            key,
            "invalid_key",
            "A secret's key is letters, digits, _ . or -, at most 60.",
        ))
    }
}

/// The day a ticked step is done on (spec 2.6): a step ticked with a payment is done on the day
/// the money came, whatever date was typed; otherwise the date given, else the office's today.
pub fn done_on(
    given: Option<NaiveDate>,
    payment_received_on: Option<NaiveDate>,
    today: NaiveDate,
) -> NaiveDate {
    payment_received_on.or(given).unwrap_or(today)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    #[test]
    fn a_legacy_checklist_is_labels_or_steps() {
        let steps =
            |v: Value| legacy_steps(v).map(|s| s.into_iter().map(|s| (s.key, s.label)).collect::<Vec<_>>());
        assert_eq!(
            steps(json!(["Agreement signed", "Advance payment"])),
            Some(vec![
                ("agreement_signed".into(), "Agreement signed".into()),
                ("payment_received".into(), "Advance payment".into())
            ])
        );
        assert_eq!(
            steps(json!([{ "key": "go_live", "label": "Go-live" }])),
            Some(vec![("go_live".into(), "Go-live".into())])
        );
        assert_eq!(steps(json!([])), Some(vec![]));
        for unreadable in [
            json!("Setup"),
            json!([1, 2]),
            json!(["Setup", "setup"]),
            json!([""]),
        ] {
            assert_eq!(steps(unreadable.clone()), None, "{unreadable}");
        }
    }

    fn d(s: &str) -> NaiveDate {
        crate::plumbing::clock::date(s).unwrap()
    }

    #[test]
    fn keys_from_labels_and_legacy_keys() {
        assert_eq!(key_from_label("Go-live call"), "go_live_call");
        assert_eq!(key_from_label("  AMC "), "amc");
        assert_eq!(key_from_label("Data migration (old DB)"), "data_migration_old_db");
        assert_eq!(canonical_key("advance_payment"), "payment_received");
        assert_eq!(canonical_key("balance_payment"), "payment_received");
        assert_eq!(canonical_key("setup"), "setup");
    }

    #[test]
    fn templates_are_normalized_and_collisions_refused() {
        let steps = vec![
            Step {
                key: String::new(),
                label: "Site survey".into(),
            },
            Step {
                key: "Advance Payment".into(),
                label: "Advance".into(),
            },
        ];
        let out = check_template(steps, &[]).unwrap();
        assert_eq!(
            out.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(),
            vec!["site_survey", "payment_received"]
        );
        let collide = check_template(
            vec![Step {
                key: "setup".into(),
                label: "Setup".into(),
            }],
            &["setup".into()],
        )
        .unwrap_err();
        assert_eq!(
            (collide.code, collide.field.as_deref()),
            ("key_collision", Some("steps[0].key"))
        );
        let twice = check_template(
            vec![
                Step {
                    key: "".into(),
                    label: "A b".into(),
                },
                Step {
                    key: "a_b".into(),
                    label: "x".into(),
                },
            ],
            &[],
        )
        .unwrap_err();
        assert_eq!(twice.code, "duplicate_key");
        assert_eq!(
            check_template(
                vec![Step {
                    key: "".into(),
                    label: " ".into()
                }],
                &[]
            )
            .unwrap_err()
            .code,
            "invalid_label"
        );
    }

    #[test]
    fn installed_and_trained_stamp_once() {
        let day = d("2026-11-20");
        assert_eq!(
            stamp_for_tick("installed", day, "new", None, None),
            Stamp {
                status: Some("installed"),
                installed_on: Some(day),
                trained_on: None
            }
        );
        assert_eq!(
            stamp_for_tick("installed", day, "installed", Some("2026-10-01"), None),
            Stamp::default(),
            "never overwritten"
        );
        assert_eq!(
            stamp_for_tick("installed", day, "trained", None, Some("2026-10-01")).status,
            None,
            "no step back from trained"
        );
        assert_eq!(
            stamp_for_tick("trained", day, "installed", Some("2026-10-01"), None),
            Stamp {
                status: Some("trained"),
                installed_on: None,
                trained_on: Some(day)
            }
        );
        assert_eq!(stamp_for_tick("setup", day, "new", None, None), Stamp::default());
    }

    #[test]
    fn stall_days_are_integers_in_range() {
        assert_eq!(parse_stall_days("0").unwrap(), 0);
        assert_eq!(parse_stall_days("3650").unwrap(), 3650);
        for bad in ["-1", "3651", "abc", "1.5", "", "1e3"] {
            assert_eq!(
                parse_stall_days(bad).unwrap_err().status,
                axum::http::StatusCode::BAD_REQUEST,
                "{bad}"
            );
        }
        assert_eq!(age_days(d("2026-10-23"), d("2026-11-22")), 30);
    }

    #[test]
    fn secrets_blob_lists_keys_without_values() {
        let map = json!({ "api_key": "s3cr3t", "sender_id": "KSCBNK" })
            .as_object()
            .unwrap()
            .clone();
        let blob = encode_secrets(&map).unwrap();
        assert_eq!(blob.lines().next(), Some("api_key,sender_id"));
        assert_eq!(secret_keys(Some(&blob)), vec!["api_key", "sender_id"]);
        assert_eq!(decode_secrets(Some(&blob)), map);
        assert!(secret_keys(None).is_empty() && encode_secrets(&Map::new()).is_none());
    }

    #[test]
    fn a_step_ticked_with_a_payment_is_done_on_the_day_the_money_came() {
        let d = |day| NaiveDate::from_ymd_opt(2026, 11, day).unwrap();
        for (given, received, expected) in [
            (None, None, d(24)),
            (Some(d(3)), None, d(3)),
            (None, Some(d(10)), d(10)),
            (Some(d(3)), Some(d(10)), d(10)),
        ] {
            assert_eq!(
                done_on(given, received, d(24)),
                expected,
                "{given:?} {received:?}"
            );
        }
    }
}
