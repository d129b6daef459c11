//! The rules of the client registry, as plain functions (spec 2.3):
//! - GSTIN: optional; 15 characters: a known two-digit state code, a PAN (5 letters, 4 digits,
//!   1 letter), an entity number, 'Z', and a check character (Luhn mod 36 over the first 14).
//! - client_type: 'Store' when the name ends in STORE or STORES (after any trailing "LTD" or
//!   "NO 123"), else 'PACS'; set at create, editable after.
//! - category: derived from the name by the ordered table [`CATEGORY_RULES`], most specific first,
//!   at create and whenever the name changes.

use crate::clients::store::SameGstin;
use crate::error::{AppError, Warning};

const BASE36: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// GST state codes in use (including 97 Other Territory and 99 Centre Jurisdiction).
pub fn state_name(code: &str) -> Option<&'static str> {
    Some(match code {
        "01" => "Jammu and Kashmir",
        "02" => "Himachal Pradesh",
        "03" => "Punjab",
        "04" => "Chandigarh",
        "05" => "Uttarakhand",
        "06" => "Haryana",
        "07" => "Delhi",
        "08" => "Rajasthan",
        "09" => "Uttar Pradesh",
        "10" => "Bihar",
        "11" => "Sikkim",
        "12" => "Arunachal Pradesh",
        "13" => "Nagaland",
        "14" => "Manipur",
        "15" => "Mizoram",
        "16" => "Tripura",
        "17" => "Meghalaya",
        "18" => "Assam",
        "19" => "West Bengal",
        "20" => "Jharkhand",
        "21" => "Odisha",
        "22" => "Chhattisgarh",
        "23" => "Madhya Pradesh",
        "24" => "Gujarat",
        "25" => "Daman and Diu",
        "26" => "Dadra and Nagar Haveli and Daman and Diu",
        "27" => "Maharashtra",
        "28" => "Andhra Pradesh (old)",
        "29" => "Karnataka",
        "30" => "Goa",
        "31" => "Lakshadweep",
        "32" => "Kerala",
        "33" => "Tamil Nadu",
        "34" => "Puducherry",
        "35" => "Andaman and Nicobar Islands",
        "36" => "Telangana",
        "37" => "Andhra Pradesh",
        "38" => "Ladakh",
        "97" => "Other Territory",
        "99" => "Centre Jurisdiction",
        _ => return None,
    })
}

/// The check character of the first 14 characters of a GSTIN (Luhn mod 36).
pub fn gstin_check_char(first14: &str) -> Option<char> {
    let mut sum = 0usize;
    for (i, c) in first14.bytes().enumerate() {
        let value = BASE36.iter().position(|b| *b == c)?;
        let product = value * if i % 2 == 0 { 1 } else { 2 };
        sum += product / 36 + product % 36;
    }
    Some(BASE36[(36 - sum % 36) % 36] as char)
}

/// Normalizes and validates a GSTIN; the error names the rule that failed.
pub fn check_gstin(raw: &str) -> Result<String, AppError> {
    let gstin: String = raw.trim().to_ascii_uppercase();
    let fail = |code: &'static str, message: &str| Err(AppError::invalid("gstin", code, message));
    if gstin.len() != 15 || !gstin.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return fail("gstin_length", "A GSTIN is 15 letters and digits.");
    }
    let b = gstin.as_bytes();
    let pan_ok = b[2..7].iter().all(u8::is_ascii_alphabetic)
        && b[7..11].iter().all(u8::is_ascii_digit)
        && b[11].is_ascii_alphabetic();
    if !b[0].is_ascii_digit() || !b[1].is_ascii_digit() || !pan_ok || b[12] == b'0' || b[13] != b'Z' {
        return fail(
            "gstin_format",
            "A GSTIN is a 2-digit state code, a 10-character PAN, an entity number (1-9 or A-Z), 'Z' and a check character.",
        );
    }
    if state_name(&gstin[..2]).is_none() {
        return fail(
            "gstin_state",
            &format!("{} is not a GST state code.", &gstin[..2]),
        );
    }
    if gstin_check_char(&gstin[..14]) != Some(b[14] as char) {
        return fail(
            "gstin_checksum",
            "The last character does not match: check the GSTIN for a typing mistake.",
        );
    }
    Ok(gstin)
}

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
/// may share one registration): it names those the user may see and counts the others.
pub fn shared_gstin_warning(visible: &[SameGstin], hidden: i64) -> Option<Warning> {
    let mut names: Vec<String> = visible.iter().map(|c| c.name.clone()).collect();
    if hidden > 0 {
        names.push(if hidden == 1 { "another client".into() } else { format!("{hidden} other clients") });
    }
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
    fn gstin_rules() {
        for good in ["27AAPFU0939F1ZV", "29aagcb7383j1z4", " 32AABCK1234L1ZV "] {
            assert!(check_gstin(good).is_ok(), "{good}");
        }
        let cases = [
            ("27AAPFU0939F1Z", "gstin_length"),
            ("27AAPFU0939F1ZV1", "gstin_length"),
            ("27AAPFU0939F1Z-", "gstin_length"),
            ("2XAAPFU0939F1ZV", "gstin_format"),
            ("27AAPF10939F1ZV", "gstin_format"),
            ("27AAPFU0939F1YV", "gstin_format"),
            ("27AAPFU0939F0ZV", "gstin_format"),
            ("40AAPFU0939F1ZV", "gstin_state"),
            ("27AAPFU0939F1ZW", "gstin_checksum"),
            ("29AAGCB7383J1Z5", "gstin_checksum"),
        ];
        for (gstin, code) in cases {
            let err = check_gstin(gstin).unwrap_err();
            assert_eq!((err.code, err.field.as_deref()), (code, Some("gstin")), "{gstin}");
        }
        assert_eq!(check_gstin("29aagcb7383j1z4").unwrap(), "29AAGCB7383J1Z4");
    }

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
        let c = |name: &str| SameGstin { id: name.into(), name: name.into() };
        assert!(shared_gstin_warning(&[], 0).is_none());
        for (visible, hidden, message) in [
            (vec![c("Anchal SCB")], 0, "This GSTIN is also registered to Anchal SCB."),
            (vec![c("A"), c("B")], 0, "This GSTIN is also registered to A and B."),
            (vec![c("A")], 1, "This GSTIN is also registered to A and another client."),
            (vec![], 2, "This GSTIN is also registered to 2 other clients."),
        ] {
            let w = shared_gstin_warning(&visible, hidden).unwrap();
            assert_eq!((w.code, w.message.as_str()), ("gstin_shared", message));
        }
    }
}
