//! The rules of the portals list and the module data directory (spec 1 function 12, 4.9;
//! decisions 5):
//!
//! - The portals list holds every client module with a portal provider or username; it shows
//!   whether a password is stored (`hasPassword`), never the password, which is read only
//!   through the audited, managerial `POST /api/client-modules/{id}/reveal-password`.
//! - The module data directory lays a module's subscriptions out as a table whose columns are
//!   the module's `field_spec`, in its order: a row's `values` hold exactly those keys (null
//!   where the subscription has no value), so a key left over from an older spec does not show,
//!   and the secrets, kept apart from the field values, never do.
//! - `active` filters on the subscription's flag: 1 or true, 0 or false, blank for both.

use crate::catalog::rules::FieldDef;
use crate::plumbing::error::AppError;
use serde_json::{Map, Value};

/// The `active` filter: Some(1) or Some(0), None for both; a 400 naming `active` otherwise.
pub fn active(value: Option<&str>) -> Result<Option<i64>, AppError> {
    match value.map(str::trim).unwrap_or("") {
        "" => Ok(None),
        "1" | "true" => Ok(Some(1)),
        "0" | "false" => Ok(Some(0)),
        _ => {
            Err(AppError::bad_request("invalid_active", "active is 1, 0, true or false.").on_field("active"))
        }
    }
}

/// A text filter: trimmed, None when blank.
pub fn text(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

/// A subscription's stored `field_values` laid out on the spec's keys: each key once, null
/// where it has no value; keys the spec does not name are left out. (The order of the columns
/// is the spec's, answered beside the rows.)
pub fn values_in_spec(stored: &str, spec: &[FieldDef]) -> Map<String, Value> {
    let mut stored: Map<String, Value> = serde_json::from_str(stored).unwrap_or_default();
    spec.iter()
        .map(|f| (f.key.clone(), stored.remove(&f.key).unwrap_or(Value::Null)))
        .collect()
}

/// A field value as a CSV cell: text as it is, numbers as JSON writes them, yes or no for a
/// boolean, nothing for null.
pub fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn def(key: &str, kind: &str) -> FieldDef {
        FieldDef {
            key: key.into(),
            label: key.to_uppercase(),
            kind: kind.into(),
            options: vec![],
            required: false,
        }
    }

    #[test]
    fn active_takes_flags_and_blank_and_refuses_the_rest() {
        for (given, expected) in [
            (None, None),
            (Some(" "), None),
            (Some("1"), Some(1)),
            (Some("true"), Some(1)),
            (Some("0"), Some(0)),
            (Some("false"), Some(0)),
        ] {
            assert_eq!(active(given).unwrap(), expected, "{given:?}");
        }
        for wrong in ["yes", "2", "x"] {
            let e = active(Some(wrong)).unwrap_err();
            assert_eq!(
                (e.status.as_u16(), e.code, e.field.as_deref()),
                (400, "invalid_active", Some("active"))
            );
        }
    }

    #[test]
    fn values_hold_the_spec_keys_only() {
        let spec = [
            def("plan", "select"),
            def("members", "integer"),
            def("go_live", "date"),
        ];
        let values = values_in_spec(r#"{"members": 1200, "old_key": "x", "plan": "Pro"}"#, &spec);
        assert_eq!(
            Value::Object(values),
            json!({ "plan": "Pro", "members": 1200, "go_live": null })
        );
        assert_eq!(
            Value::Object(values_in_spec("not json", &spec)),
            json!({ "plan": null, "members": null, "go_live": null })
        );
        assert!(values_in_spec("{}", &[]).is_empty());
    }

    #[test]
    fn cells_read_as_a_person_writes_them() {
        assert_eq!(
            [
                json!(null),
                json!("Pro"),
                json!(1200),
                json!(2.5),
                json!(true),
                json!(false)
            ]
            .iter()
            .map(cell)
            .collect::<Vec<_>>(),
            ["", "Pro", "1200", "2.5", "yes", "no"]
        );
    }
}
