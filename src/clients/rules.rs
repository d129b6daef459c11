//! The rules of the client registry, as plain functions (spec 2.3):
//! - GSTIN: optional, checked as `crate::plumbing::gstin` says; one may be shared by two clients of
//!   different names (a society and the store it runs), with a warning.
//! - client_type: 'Store' when the name ends in STORE or STORES (after any trailing "LTD" or
//!   "NO 123"), else 'PACS'; set at create, editable after.
//! - category: derived from the name by the ordered table [`CATEGORY_RULES`], most specific first,
//!   at create and whenever the name changes.

use crate::clients::store::SameGstin;
use crate::plumbing::error::{AppError, Warning};

/// The name's words, upper-cased, without trailing "LTD", "LIMITED" or "NO 123".
fn name_words(name: &str) -> Vec<String> {
    let upper = name.to_uppercase();
    let mut words: Vec<String> = upper
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    loop {
        match words.last().map(String::as_str) {
            Some("LTD" | "LIMITED") => {
                words.pop();
            }
            Some(w)
                if w.chars().all(|c| c.is_ascii_digit())
                    && words.len() >= 2
                    && words[words.len() - 2] == "NO" =>
            {
                words.truncate(words.len() - 2);
            }
            _ => return words,
        }
    }
}

/// 'Store' when the name ends in STORE or STORES, else 'PACS'.
pub fn client_type_for(name: &str) -> &'static str {
    match name_words(name).last().map(String::as_str) {
        Some("STORE" | "STORES") => "Store",
        _ => "PACS",
    }
}

/// One row of the category table: the category when every word of `all` is in the name
/// (or, for `ends_store`, when the name ends in STORE/STORES).
pub struct CategoryRule {
    pub category: &'static str,
    pub all: &'static [&'static str],
    pub any: &'static [&'static str],
    pub ends_store: bool,
}

/// Most specific first; the first matching row wins; no match gives "Other".
pub const CATEGORY_RULES: &[CategoryRule] = &[
    CategoryRule {
        category: "Urban Bank",
        all: &["URBAN", "BANK"],
        any: &[],
        ends_store: false,
    },
    CategoryRule {
        category: "Service Bank",
        all: &["SERVICE", "BANK"],
        any: &[],
        ends_store: false,
    },
    CategoryRule {
        category: "Vanitha",
        all: &["VANITHA"],
        any: &[],
        ends_store: false,
    },
    CategoryRule {
        category: "Housing",
        all: &["HOUSING"],
        any: &[],
        ends_store: false,
    },
    CategoryRule {
        category: "Employees",
        all: &["EMPLOYEES"],
        any: &[],
        ends_store: false,
    },
    CategoryRule {
        category: "Agricultural",
        all: &["AGRICULTURAL"],
        any: &[],
        ends_store: false,
    },
    CategoryRule {
        category: "Marketing",
        all: &["MARKETING"],
        any: &[],
        ends_store: false,
    },
    CategoryRule {
        category: "Store",
        all: &[],
        any: &[],
        ends_store: true,
    },
    CategoryRule {
        category: "Society (other)",
        all: &[],
        any: &[
            "SOCIETY",
            "CO-OPERATIVE",
            "COOPERATIVE",
            "CO-OP",
            "COOP",
            "SANGHAM",
        ],
        ends_store: false,
    },
];

/// The ten categories, for pickers and filters.
pub const CATEGORIES: &[&str] = &[
    "Service Bank",
    "Urban Bank",
    "Vanitha",
    "Housing",
    "Employees",
    "Agricultural",
    "Marketing",
    "Society (other)",
    "Store",
    "Other",
];

/// The category the name gives.
pub fn category_for(name: &str) -> &'static str {
    let words = name_words(name);
    let has = |w: &&str| words.iter().any(|x| x == w);
    CATEGORY_RULES
        .iter()
        .find(|rule| {
            if rule.ends_store {
                return client_type_for(name) == "Store";
            }
            rule.all.iter().all(has) && (rule.any.is_empty() || rule.any.iter().any(has))
        })
        .map_or("Other", |rule| rule.category)
}

pub const STATUSES: &[&str] = &["lead", "active", "lost", "inactive"];
pub const CLIENT_TYPES: &[&str] = &["PACS", "Store"];
pub const INTERACTION_TYPES: &[&str] = &["call", "visit", "email", "whatsapp", "meeting", "note"];
pub const CONTACT_ROLE_SUGGESTIONS: &[&str] = &["WhatsApp", "secretary", "president", "accountant"];

/// Checks `value` is one of `allowed`, naming `field` when not.
pub fn one_of(field: &str, value: &str, allowed: &[&str]) -> Result<(), AppError> {
    if allowed.contains(&value) {
        Ok(())
    } else {
        Err(AppError::invalid(
            field,
            "invalid_choice",
            format!("Choose one of: {}.", allowed.join(", ")),
        ))
    }
}

/// A stored credential written by the old system's encryption cannot be read: it is treated as
/// empty, never shown as ciphertext (spec 5.12).
pub const LEGACY_ENCRYPTED_PREFIX: &str = "enc:";

/// A write-only credential as a request sets it: at most 256 characters, empty clears it.
pub fn credential_value(field: &str, raw: &str) -> Result<rusqlite::types::Value, AppError> {
    if raw.chars().count() > 256 {
        return Err(AppError::invalid(field, "too_long", "At most 256 characters."));
    }
    Ok(if raw.is_empty() {
        rusqlite::types::Value::Null
    } else {
        rusqlite::types::Value::Text(raw.to_string())
    })
}

/// The readable value of a stored credential, if any.
pub fn readable_credential(stored: Option<String>) -> Option<String> {
    stored.filter(|v| !v.is_empty() && !v.starts_with(LEGACY_ENCRYPTED_PREFIX))
}

/// The warning for a GSTIN that other clients already have (a society and the store it runs
/// may share one registration): it names those the user may see, and only those. A staff user
/// is not told that a client outside their book holds the GSTIN, not even as "another client":
/// that would reveal a client of another book (decisions 3: records outside the book are not
/// revealed).
pub fn shared_gstin_warning(visible: &[SameGstin]) -> Option<Warning> {
    let names: Vec<String> = visible.iter().map(|c| c.name.clone()).collect();
    let who = match names.as_slice() {
        [] => return None,
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    Some(Warning {
        code: "gstin_shared",
        message: format!("This GSTIN is also registered to {who}."),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_type_from_the_name() {
        let cases = [
            ("KADAKKAL CONSUMER STORES", "Store"),
            ("Vythiri Co-operative Store", "Store"),
            ("ANCHAL CONSUMER CO-OPERATIVE STORES LTD NO 1234", "Store"),
            ("KADAKKAL SERVICE CO-OPERATIVE BANK LTD NO 1234", "PACS"),
            ("STORES WORKERS SOCIETY", "PACS"),
            ("RESTORE", "PACS"),
        ];
        for (name, expected) in cases {
            assert_eq!(client_type_for(name), expected, "{name}");
        }
    }

    /// One case per row of the category table, plus the fall-through.
    #[test]
    fn category_table() {
        let cases = [
            ("PERINTHALMANNA URBAN CO-OPERATIVE BANK LTD", "Urban Bank"),
            ("KADAKKAL SERVICE CO-OPERATIVE BANK LTD NO 1234", "Service Bank"),
            ("URBAN SERVICE BANK", "Urban Bank"),
            ("MANJERI VANITHA CO-OPERATIVE SOCIETY", "Vanitha"),
            ("KOLLAM HOUSING CO-OPERATIVE SOCIETY", "Housing"),
            ("KSEB EMPLOYEES CO-OPERATIVE SOCIETY", "Employees"),
            ("THRISSUR AGRICULTURAL CO-OPERATIVE SOCIETY", "Agricultural"),
            ("WAYANAD MARKETING CO-OPERATIVE SOCIETY", "Marketing"),
            ("ANCHAL CONSUMER STORES", "Store"),
            ("VANITHA STORES", "Vanitha"),
            ("PALLIKKAL CO-OPERATIVE SOCIETY", "Society (other)"),
            ("KUDUMBASREE SANGHAM", "Society (other)"),
            ("EDAVA COOP", "Society (other)"),
            ("ACME SOFTWARE PVT", "Other"),
        ];
        for (name, expected) in cases {
            assert_eq!(category_for(name), expected, "{name}");
        }
        assert!(CATEGORY_RULES.iter().all(|r| CATEGORIES.contains(&r.category)));
    }

    #[test]
    fn legacy_ciphertext_reads_as_empty() {
        assert_eq!(readable_credential(Some("s3cret".into())), Some("s3cret".into()));
        assert_eq!(readable_credential(Some("enc:AES:abcd==".into())), None);
        assert_eq!(readable_credential(Some(String::new())), None);
        assert_eq!(readable_credential(None), None);
    }

    #[test]
    fn a_shared_gstin_names_the_clients_one_may_see() {
        let c = |name: &str| SameGstin {
            id: name.into(),
            name: name.into(),
        };
        assert!(shared_gstin_warning(&[]).is_none());
        for (visible, message) in [
            (
                vec![c("Anchal SCB")],
                "This GSTIN is also registered to Anchal SCB.",
            ),
            (vec![c("A"), c("B")], "This GSTIN is also registered to A and B."),
            (
                vec![c("A"), c("B"), c("C")],
                "This GSTIN is also registered to A, B and C.",
            ),
        ] {
            let w = shared_gstin_warning(&visible).unwrap();
            assert_eq!((w.code, w.message.as_str()), ("gstin_shared", message));
        }
    }
}
