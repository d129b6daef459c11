//! Catalog rules as plain functions (spec 2.4, 4.3; issue: catalog):
//! - a module code is upper-case letters, digits and underscore (it appears in settings keys);
//! - a field_spec is a list of FieldDef `{key, label, type, options, required}` with the types
//!   text, integer, decimal, date, boolean, select, email, phone, url; a client module's
//!   field_values are checked against it (unknown keys, wrong types, missing required: 422 naming the key);
//! - the price on a date is the price-book row with the latest effective date not after it;
//! - the rate for a count is the highest band with `min_qty <= count`; below the lowest band is
//!   under the minimum order.

use crate::plumbing::clock;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

pub fn check_code(code: &str) -> Result<(), AppError> {
    let ok = (1..=32).contains(&code.len())
        && code.starts_with(|c: char| c.is_ascii_uppercase())
        && code
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(AppError::invalid(
            "code",
            "invalid_code",
            "A code is 1 to 32 upper-case letters, digits or _, starting with a letter.",
        ))
    }
}

pub const FIELD_TYPES: &[&str] = &[
    "text", "integer", "decimal", "date", "boolean", "select", "email", "phone", "url",
];

/// One custom field a module asks for on each subscription.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldDef {
    /// lower_snake_case, unique in the spec.
    pub key: String,
    pub label: String,
    /// text, integer, decimal, date, boolean, select, email, phone or url.
    #[serde(rename = "type")]
    pub kind: String,
    /// The choices of a select.
    #[serde(default)]
    pub options: Vec<String>,
    #[serde(default)]
    pub required: bool,
}

/// Checks a field_spec: keys well-formed and unique, known types, options for selects.
pub fn check_field_spec(spec: &[FieldDef]) -> Result<(), AppError> {
    let mut seen = std::collections::HashSet::new();
    for (i, def) in spec.iter().enumerate() {
        let at = |what: &str| format!("field_spec[{i}].{what}");
        let key_ok = def.key.starts_with(|c: char| c.is_ascii_lowercase())
            && def.key.len() <= 40
            && def
                .key
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !key_ok {
            return Err(AppError::invalid(
                &at("key"),
                "invalid_key",
                "A field key is lower_snake_case, at most 40 characters.",
            ));
        }
        if !seen.insert(def.key.as_str()) {
            return Err(AppError::invalid(
                &at("key"),
                "duplicate_key",
                format!("The key {} is used twice.", def.key),
            ));
        }
        if def.label.trim().is_empty() {
            return Err(AppError::invalid(
                &at("label"),
                "required",
                "Every field needs a label.",
            ));
        }
        if !FIELD_TYPES.contains(&def.kind.as_str()) {
            return Err(AppError::invalid(
                &at("type"),
                "invalid_type",
                format!("The type is one of: {}.", FIELD_TYPES.join(", ")),
            ));
        }
        if def.kind == "select" && def.options.iter().filter(|o| !o.trim().is_empty()).count() == 0 {
            return Err(AppError::invalid(
                &at("options"),
                "required",
                "A select field needs its options.",
            ));
        }
    }
    Ok(())
}

/// Checks `values` against `spec` and answers the map to store (nulls and empty text dropped).
pub fn check_field_values(
    spec: &[FieldDef],
    values: &Map<String, Value>,
) -> Result<Map<String, Value>, AppError> {
    let mut clean = Map::new();
    for (key, value) in values {
        let Some(def) = spec.iter().find(|d| &d.key == key) else {
            return Err(AppError::invalid(
                key,
                "unknown_field",
                format!("{key} is not a field of this module."),
            ));
        };
        let empty = value.is_null() || value.as_str().is_some_and(|s| s.trim().is_empty());
        if empty {
            continue;
        }
        let wrong = |expected: &str| {
            Err(AppError::invalid(
                key,
                "wrong_type",
                format!("{} must be {expected}.", def.label),
            ))
        };
        let checked = match def.kind.as_str() {
            "text" => match value.as_str() {
                Some(s) if s.chars().count() <= 2000 => Value::String(s.trim().to_string()),
                _ => return wrong("text of at most 2000 characters"),
            },
            "integer" => match value {
                Value::Number(n) if n.is_i64() => value.clone(),
                _ => return wrong("a whole number"),
            },
            "decimal" => match value {
                Value::Number(_) => value.clone(),
                Value::String(s) if s.trim().parse::<f64>().is_ok_and(f64::is_finite) => {
                    Value::String(s.trim().to_string())
                }
                _ => return wrong("a number"),
            },
            "date" => match value.as_str().and_then(clock::date) {
                Some(d) => Value::String(d.to_string()),
                _ => return wrong("a date as YYYY-MM-DD"),
            },
            "boolean" => match value {
                Value::Bool(_) => value.clone(),
                _ => return wrong("true or false"),
            },
            "select" => match value.as_str() {
                Some(s) if def.options.iter().any(|o| o == s) => value.clone(),
                _ => return wrong(&format!("one of: {}", def.options.join(", "))),
            },
            "email" => match value.as_str() {
                Some(s) if crate::staff::rules::check_email(s.trim()).is_ok() => {
                    Value::String(s.trim().to_string())
                }
                _ => return wrong("an email address"),
            },
            "phone" => match value.as_str() {
                Some(s) if crate::staff::rules::check_phone(s.trim()).is_ok() => {
                    Value::String(s.trim().to_string())
                }
                _ => return wrong("a phone number"),
            },
            "url" => match value.as_str() {
                Some(s)
                    if (s.starts_with("https://") || s.starts_with("http://"))
                        && s.len() > 8
                        && !s.contains(char::is_whitespace) =>
                {
                    value.clone()
                }
                _ => return wrong("a web address starting with http:// or https://"),
            },
            _ => return wrong("valid"),
        };
        clean.insert(key.clone(), checked);
    }
    if let Some(missing) = spec.iter().find(|d| d.required && !clean.contains_key(&d.key)) {
        return Err(AppError::invalid(
            &missing.key,
            "required",
            format!("{} is required.", missing.label),
        ));
    }
    Ok(clean)
}

/// A dated price-book row.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PriceRow {
    pub id: String,
    pub effective_from: String,
    /// Paise.
    pub price: i64,
    pub created_at: String,
}

/// priceOn: the row with the latest effective date not after `on` (ties: the latest written).
pub fn price_on(rows: &[PriceRow], on: NaiveDate) -> Option<&PriceRow> {
    let on = on.to_string();
    rows.iter()
        .filter(|r| r.effective_from <= on)
        .max_by(|a, b| (&a.effective_from, &a.id).cmp(&(&b.effective_from, &b.id)))
}

/// One volume band of a rate card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub min_qty: i64,
    /// Paise per unit.
    pub rate: i64,
}

/// A price is 0 to ₹100 crore, in paise.
pub fn check_price(price: i64) -> Result<(), AppError> {
    if !(0..=100_000_000_000).contains(&price) {
        return Err(AppError::invalid(
            "price",
            "invalid_price",
            "A price is 0 or more paise (at most ₹100 crore).",
        ));
    }
    Ok(())
}

/// Checks a new card's bands: at least one, distinct min_qty, positive rates; answers them sorted.
pub fn check_bands(mut bands: Vec<Band>) -> Result<Vec<Band>, AppError> {
    if bands.is_empty() || bands.len() > 50 {
        return Err(AppError::invalid(
            "bands",
            "invalid_bands",
            "A rate card has 1 to 50 bands.",
        ));
    }
    bands.sort_by_key(|b| b.min_qty);
    for (i, band) in bands.iter().enumerate() {
        if band.min_qty < 0 {
            return Err(AppError::invalid(
                &format!("bands[{i}].min_qty"),
                "invalid_min_qty",
                "A band starts at 0 or more.",
            ));
        }
        if band.rate <= 0 {
            return Err(AppError::invalid(
                &format!("bands[{i}].rate"),
                "invalid_rate",
                "A band's rate is more than zero paise.",
            ));
        }
        if i > 0 && bands[i - 1].min_qty == band.min_qty {
            return Err(AppError::invalid(
                &format!("bands[{i}].min_qty"),
                "duplicate_min_qty",
                "Two bands start at the same quantity.",
            ));
        }
    }
    Ok(bands)
}

/// Why a count gets no rate.
#[derive(Debug, PartialEq, Eq)]
pub struct UnderMinimum {
    pub minimum: i64,
}

/// The rate for `count`: the highest band with `min_qty <= count`.
pub fn band_rate(bands: &[Band], count: i64) -> Result<i64, UnderMinimum> {
    bands
        .iter()
        .filter(|b| b.min_qty <= count)
        .max_by_key(|b| b.min_qty)
        .map(|b| b.rate)
        .ok_or(UnderMinimum {
            minimum: bands.iter().map(|b| b.min_qty).min().unwrap_or(0),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn date(s: &str) -> NaiveDate {
        clock::date(s).unwrap()
    }

    #[test]
    fn prices_run_from_zero_to_a_hundred_crore() {
        assert!(check_price(0).is_ok());
        assert!(check_price(100_000_000_000).is_ok());
        assert_eq!(check_price(-1).unwrap_err().code, "invalid_price");
        assert_eq!(check_price(100_000_000_001).unwrap_err().code, "invalid_price");
    }

    #[test]
    fn codes() {
        for good in ["SMS", "LOAN_2", "A"] {
            assert!(check_code(good).is_ok(), "{good}");
        }
        for bad in ["", "sms", "2SMS", "SMS-1", "S MS", &"A".repeat(33)] {
            assert!(check_code(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn price_on_boundary_dates() {
        let row = |id: &str, from: &str, price| PriceRow {
            id: id.into(),
            effective_from: from.into(),
            price,
            created_at: String::new(),
        };
        let rows = vec![
            row("01A", "2025-04-01", 100),
            row("01B", "2026-04-01", 120),
            row("01C", "2026-04-01", 125),
        ];
        assert_eq!(price_on(&rows, date("2025-03-31")), None);
        assert_eq!(price_on(&rows, date("2025-04-01")).unwrap().price, 100);
        assert_eq!(price_on(&rows, date("2026-03-31")).unwrap().price, 100);
        assert_eq!(
            price_on(&rows, date("2026-04-01")).unwrap().price,
            125,
            "the later-written row of the same date wins"
        );
        assert_eq!(price_on(&rows, date("2030-01-01")).unwrap().price, 125);
    }

    #[test]
    fn band_choice_and_minimum_order() {
        let bands = check_bands(vec![
            Band {
                min_qty: 50_000,
                rate: 15,
            },
            Band {
                min_qty: 10_000,
                rate: 20,
            },
            Band {
                min_qty: 100_000,
                rate: 12,
            },
        ])
        .unwrap();
        assert_eq!(band_rate(&bands, 9_999), Err(UnderMinimum { minimum: 10_000 }));
        assert_eq!(band_rate(&bands, 10_000), Ok(20));
        assert_eq!(band_rate(&bands, 49_999), Ok(20));
        assert_eq!(band_rate(&bands, 50_000), Ok(15));
        assert_eq!(band_rate(&bands, 1_000_000), Ok(12));
        assert!(check_bands(vec![]).is_err());
        assert_eq!(
            check_bands(vec![Band { min_qty: 1, rate: 0 }]).unwrap_err().code,
            "invalid_rate"
        );
        assert_eq!(
            check_bands(vec![Band { min_qty: 5, rate: 1 }, Band { min_qty: 5, rate: 2 }])
                .unwrap_err()
                .code,
            "duplicate_min_qty"
        );
    }

    fn spec() -> Vec<FieldDef> {
        let def = |key: &str, kind: &str, required: bool| FieldDef {
            key: key.into(),
            label: key.into(),
            kind: kind.into(),
            options: if kind == "select" {
                vec!["Basic".into(), "Pro".into()]
            } else {
                vec![]
            },
            required,
        };
        vec![
            def("members", "integer", true),
            def("share_value", "decimal", false),
            def("go_live", "date", false),
            def("cloud", "boolean", false),
            def("plan", "select", false),
            def("contact_email", "email", false),
            def("portal", "url", false),
            def("note", "text", false),
        ]
    }

    #[test]
    fn field_values_are_type_checked() {
        let ok = json!({ "members": 1200, "share_value": "10.50", "go_live": "2026-12-01", "cloud": true, "plan": "Pro",
                         "contact_email": "a@b.in", "portal": "https://x.in", "note": "", "share_value2": null });
        let mut values = ok.as_object().unwrap().clone();
        values.remove("share_value2");
        let clean = check_field_values(&spec(), &values).unwrap();
        assert!(!clean.contains_key("note"), "empty text is dropped");
        let cases = [
            (
                json!({ "members": 1, "colour": "red" }),
                "colour",
                "unknown_field",
            ),
            (json!({ "members": "many" }), "members", "wrong_type"),
            (json!({ "members": 1.5 }), "members", "wrong_type"),
            (
                json!({ "members": 1, "go_live": "01-12-2026" }),
                "go_live",
                "wrong_type",
            ),
            (json!({ "members": 1, "cloud": "yes" }), "cloud", "wrong_type"),
            (json!({ "members": 1, "plan": "Gold" }), "plan", "wrong_type"),
            (
                json!({ "members": 1, "contact_email": "nope" }),
                "contact_email",
                "wrong_type",
            ),
            (
                json!({ "members": 1, "portal": "ftp://x" }),
                "portal",
                "wrong_type",
            ),
            (json!({ "share_value": 2 }), "members", "required"),
        ];
        for (values, field, code) in cases {
            let err = check_field_values(&spec(), values.as_object().unwrap()).unwrap_err();
            assert_eq!((err.field.as_deref(), err.code), (Some(field), code), "{values}");
        }
    }

    #[test]
    fn field_specs_are_checked() {
        assert!(check_field_spec(&spec()).is_ok());
        let mut dup = spec();
        dup.push(dup[0].clone());
        assert_eq!(check_field_spec(&dup).unwrap_err().code, "duplicate_key");
        let mut bad_type = spec();
        bad_type[0].kind = "money".into();
        assert_eq!(
            check_field_spec(&bad_type).unwrap_err().field.as_deref(),
            Some("field_spec[0].type")
        );
        let mut no_options = spec();
        no_options[4].options.clear();
        assert_eq!(check_field_spec(&no_options).unwrap_err().code, "required");
    }
}
