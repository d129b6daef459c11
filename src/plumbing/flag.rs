//! Flags in JSON are integers 0/1 (spec 2 conventions, decisions 10): a record's yes/no column
//! is answered as 0 or 1, and a request may give 0, 1, `true` or `false`. Use it on a field as
//! `#[serde(with = "crate::plumbing::flag")]` (`crate::plumbing::flag::option` for an `Option<bool>`), with
//! `#[schema(value_type = u8)]` so the OpenAPI says what goes over the wire.

use serde::Serializer;
use serde::de::{self, Deserializer, Unexpected, Visitor};

pub fn serialize<S: Serializer>(value: &bool, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u8(u8::from(*value))
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    d.deserialize_any(FlagVisitor)
}

struct FlagVisitor;

impl Visitor<'_> for FlagVisitor {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("0, 1, true or false")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        Ok(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
        match v {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(E::invalid_value(Unexpected::Unsigned(v), &self)),
        }
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
        }
    }
}

/// The same for an optional flag (absent or null: None).
pub mod option {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<bool>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_some(&u8::from(*v)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
        #[derive(Deserialize)]
        struct Flag(#[serde(with = "super")] bool);
        Ok(Option::<Flag>::deserialize(d)?.map(|f| f.0))
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Row {
        #[serde(with = "super")]
        on: bool,
        #[serde(with = "super::option", default)]
        maybe: Option<bool>,
    }

    #[test]
    fn flags_answer_0_or_1_and_take_0_1_true_or_false() {
        let row = Row {
            on: true,
            maybe: Some(false),
        };
        assert_eq!(serde_json::to_string(&row).unwrap(), r#"{"on":1,"maybe":0}"#);
        for (json, on, maybe) in [
            (r#"{"on":1,"maybe":0}"#, true, Some(false)),
            (r#"{"on":true,"maybe":true}"#, true, Some(true)),
            (r#"{"on":0}"#, false, None),
            (r#"{"on":false,"maybe":null}"#, false, None),
        ] {
            assert_eq!(
                serde_json::from_str::<Row>(json).unwrap(),
                Row { on, maybe },
                "{json}"
            );
        }
        for bad in [
            r#"{"on":2}"#,
            r#"{"on":-1}"#,
            r#"{"on":"yes"}"#,
            r#"{"on":1,"maybe":7}"#,
        ] {
            let e = serde_json::from_str::<Row>(bad).unwrap_err().to_string();
            assert!(e.contains("0, 1, true or false"), "{bad}: {e}");
        }
    }
}
