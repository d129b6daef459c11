//! A GSTIN (spec 2.3): 15 characters, a known two-digit state code, a PAN (5 letters, 4 digits,
//! 1 letter), an entity number (1-9 or A-Z), 'Z', and a check character (Luhn mod 36 over the
//! first 14). Its first two digits are the state, which decides the place of supply.

use crate::plumbing::error::AppError;
use rusqlite::types::{FromSql, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};

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
pub fn check_char(first14: &str) -> Option<char> {
    let mut sum = 0usize;
    for (i, c) in first14.bytes().enumerate() {
        let value = BASE36.iter().position(|b| *b == c)?;
        let product = value * if i % 2 == 0 { 1 } else { 2 };
        sum += product / 36 + product % 36;
    }
    Some(BASE36[(36 - sum % 36) % 36] as char)
}

/// A GSTIN, upper-case. One made by [`Gstin::parse`] has passed every check; one read from the
/// data file was checked when it was written (or came from a legacy import as it stood).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Gstin(String);

impl Gstin {
    /// A GSTIN as stored, checked when it was written.
    pub fn stored(text: String) -> Gstin {
        Gstin(text)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The two-digit GST state code it starts with (the place of supply).
    pub fn state_code(&self) -> &str {
        self.0.get(..2).unwrap_or("")
    }

    /// Normalizes and checks a GSTIN as typed; the error names the rule that failed.
    pub fn parse(raw: &str) -> Result<Gstin, AppError> {
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
        if check_char(&gstin[..14]) != Some(b[14] as char) {
            return fail(
                "gstin_checksum",
                "The last character does not match: check the GSTIN for a typing mistake.",
            );
        }
        Ok(Gstin(gstin))
    }
}

impl From<Gstin> for String {
    fn from(g: Gstin) -> String {
        g.0
    }
}

impl ToSql for Gstin {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

impl FromSql for Gstin {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        String::column_result(value).map(Gstin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gstin_rules() {
        for good in ["27AAPFU0939F1ZV", "29aagcb7383j1z4", " 32AABCK1234L1ZV "] {
            assert!(Gstin::parse(good).is_ok(), "{good}");
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
            let err = Gstin::parse(gstin).unwrap_err();
            assert_eq!((err.code, err.field.as_deref()), (code, Some("gstin")), "{gstin}");
        }
        let parsed = Gstin::parse("29aagcb7383j1z4").unwrap();
        assert_eq!((parsed.as_str(), parsed.state_code()), ("29AAGCB7383J1Z4", "29"));
        assert_eq!(
            Gstin::stored("x".into()).state_code(),
            "",
            "a short legacy value does not panic"
        );
    }
}
