//! The letterhead of every rendered document (spec 2.11 `template.*`, 4.7): each field is a
//! dated setting `template.<field>`; an unset or empty one falls back to its default (the
//! company profile for names, address, GSTIN, bank and contact details). The logo is the newest
//! row of `template_logo`, a PNG or JPEG recognised by its content.

use crate::auth::session::AuthUser;
use crate::company::{self, letterhead_store};
use crate::plumbing::db::audit::{Audit, audit, setting_changed};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::plumbing::gstin::{self, Gstin};
use rusqlite::Connection;
use serde::Serialize;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

/// The editable fields, in the order the console shows them.
pub const FIELDS: &[&str] = &[
    "trade_name",
    "address",
    "gstin",
    "phone",
    "email",
    "bank_name",
    "bank_account",
    "bank_ifsc",
    "upi_id",
    "terms",
    "footer",
    "accent_color",
];

pub const DEFAULT_ACCENT: &str = "#1f4e79";
const DEFAULT_TERMS: &str = "Payment by NEFT, RTGS, UPI or cheque in favour of the account above. Please quote the document number with the payment.";
const DEFAULT_FOOTER: &str = "This is a computer-generated document.";

/// The most a logo may weigh (decisions 5).
pub const LOGO_MAX_BYTES: usize = 512 * 1024;

pub fn key(field: &str) -> String {
    format!("template.{field}")
}

/// The stored value of every field (None when unset), keyed `template.<field>`.
pub fn stored(conn: &Connection) -> Result<Map<String, Value>, AppError> {
    let today = settings::office_today(conn)?;
    let mut out = Map::new();
    for field in FIELDS {
        let value = settings::get(conn, &key(field), today)?
            .filter(|v| v.as_str().is_some_and(|s| !s.trim().is_empty()))
            .unwrap_or(Value::Null);
        out.insert(key(field), value);
    }
    Ok(out)
}

/// What each field shows when it is not set, keyed `template.<field>`.
pub fn defaults(conn: &Connection) -> Result<Map<String, Value>, AppError> {
    let profile = company::profile(conn)?;
    let text = |v: Option<String>| {
        v.filter(|s| !s.trim().is_empty())
            .map_or(Value::Null, Value::String)
    };
    let mut out = Map::new();
    for field in FIELDS {
        let value = match *field {
            "trade_name" => text(Some(profile.name.clone())),
            "address" => text(Some(profile.address.clone())),
            "gstin" => text(profile.gstin.clone()),
            "phone" => text(profile.phone.clone()),
            "email" => text(profile.email.clone()),
            "bank_name" => text(profile.bank_name.clone()),
            "bank_account" => text(profile.bank_account.clone()),
            "bank_ifsc" => text(profile.bank_ifsc.clone()),
            "upi_id" => text(profile.upi_id.clone()),
            "terms" => Value::String(DEFAULT_TERMS.into()),
            "footer" => Value::String(DEFAULT_FOOTER.into()),
            "accent_color" => Value::String(DEFAULT_ACCENT.into()),
            _ => Value::Null,
        };
        out.insert(key(field), value);
    }
    Ok(out)
}

/// Checks a body of `template.<field>` keys (any subset; null or "" clears a field) and
/// returns the values to store, normalised.
pub fn check(body: &Map<String, Value>) -> Result<Vec<(String, Value)>, AppError> {
    let mut out = vec![];
    for (k, v) in body {
        let field = k
            .strip_prefix("template.")
            .filter(|f| FIELDS.contains(f))
            .ok_or_else(|| AppError::invalid(k, "unknown_field", format!("{k} is not a template field.")))?;
        let text = match v {
            Value::Null => String::new(),
            Value::String(s) => s.trim().to_string(),
            _ => {
                return Err(AppError::invalid(
                    k,
                    "not_text",
                    "Give text, or null to use the default.",
                ));
            }
        };
        let limit = if matches!(field, "terms" | "address" | "footer") {
            2000
        } else {
            200
        };
        if text.chars().count() > limit {
            return Err(AppError::invalid(
                k,
                "too_long",
                format!("At most {limit} characters."),
            ));
        }
        let text = match field {
            "accent_color" if !text.is_empty() => {
                let ok = text.len() == 7
                    && text.starts_with('#')
                    && text[1..].chars().all(|c| c.is_ascii_hexdigit());
                if !ok {
                    return Err(AppError::invalid(
                        k,
                        "invalid_color",
                        "Give the colour as #RRGGBB, e.g. #1f4e79.",
                    ));
                }
                text.to_ascii_lowercase()
            }
            "gstin" if !text.is_empty() => Gstin::parse(&text)
                .map(String::from)
                .map_err(|e| e.on_field(k.as_str()))?,
            _ => text,
        };
        out.push((key(field), Value::String(text)));
    }
    Ok(out)
}

/// A logo image as stored.
#[derive(Debug, Clone)]
pub struct Logo {
    pub mime: &'static str,
    pub bytes: Vec<u8>,
}

/// The image type of `bytes` by its signature: PNG or JPEG, nothing else.
pub fn logo_mime(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else {
        None
    }
}

/// The logo in force, if one was uploaded.
pub fn logo(conn: &Connection) -> Result<Option<Logo>, AppError> {
    Ok(letterhead_store::newest_logo(conn)?.and_then(|(mime, bytes)| {
        logo_mime(&bytes)
            .filter(|m| *m == mime)
            .map(|mime| Logo { mime, bytes })
    }))
}

/// The letterhead fields as stored (null = the default shows), the defaults, and the logo's presence.
#[derive(Serialize, ToSchema)]
pub struct TemplateSettings {
    /// `template.<field>` → the stored text or null.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub fields: Map<String, Value>,
    /// `template.<field>` → what shows when the field is not set.
    #[schema(value_type = Object)]
    pub defaults: Map<String, Value>,
    pub has_logo: bool,
    /// The logo as a data: URI, for the editor to show.
    pub logo: Option<String>,
}

/// The letterhead settings as the editor shows them.
pub fn settings(conn: &Connection) -> Result<TemplateSettings, AppError> {
    let logo = logo(conn)?;
    Ok(TemplateSettings {
        fields: stored(conn)?,
        defaults: defaults(conn)?,
        has_logo: logo.is_some(),
        logo: logo.map(|l| {
            use base64::Engine;
            format!(
                "data:{};base64,{}",
                l.mime,
                base64::engine::general_purpose::STANDARD.encode(&l.bytes)
            )
        }),
    })
}

/// Sets letterhead fields (checked by `check`), audited; answers the settings as saved.
pub fn save_fields_in(
    tx: &Connection,
    user: &AuthUser,
    changes: &[(String, Value)],
) -> Result<TemplateSettings, AppError> {
    let before = stored(tx)?;
    let today = settings::office_today(tx)?;
    for (key, value) in changes {
        settings::set(tx, key, value, today, Some(&user.id))?;
    }
    let after = stored(tx)?;
    setting_changed(
        tx,
        &user.id,
        "template",
        Value::Object(before),
        Value::Object(after),
    )?;
    self::settings(tx)
}

/// Stores a new logo (its `mime` from `logo_mime`), audited by size and digest.
pub fn save_logo_in(
    tx: &Connection,
    user: &AuthUser,
    mime: &str,
    bytes: &[u8],
) -> Result<TemplateSettings, AppError> {
    let sha = hex::encode(Sha256::digest(bytes));
    letterhead_store::insert_logo(tx, mime, bytes, &sha, &user.id)?;
    audit(
        tx,
        Audit {
            entity: "setting",
            entity_id: Some("template.logo"),
            action: "update",
            user_id: Some(&user.id),
            before: None,
            after: Some(json!({ "mime": mime, "bytes": bytes.len(), "sha256": sha })),
        },
    )?;
    self::settings(tx)
}

/// The letterhead with every fallback applied, as documents render it.
#[derive(Debug, Clone, Default)]
pub struct Letterhead {
    pub trade_name: String,
    pub address_lines: Vec<String>,
    pub gstin: Option<String>,
    /// "Kerala (32)" from the GSTIN, else the company's state code.
    pub state: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub bank_name: Option<String>,
    pub bank_account: Option<String>,
    pub bank_ifsc: Option<String>,
    pub upi_id: Option<String>,
    pub terms: Option<String>,
    pub footer: Option<String>,
    /// `#rrggbb`.
    pub accent_color: String,
    pub logo: Option<Logo>,
}

/// The letterhead in force; `overrides` (unsaved `template.<field>` values) win, for the sample preview.
pub fn letterhead(conn: &Connection, overrides: &[(String, Value)]) -> Result<Letterhead, AppError> {
    let mut values = defaults(conn)?;
    for (k, v) in stored(conn)?.into_iter().chain(overrides.iter().cloned()) {
        if v.as_str().is_some_and(|s| !s.is_empty()) {
            values.insert(k, v);
        }
    }
    let get = |field: &str| {
        values
            .get(&key(field))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let gstin = get("gstin");
    let state_code = gstin
        .clone()
        .map(|g| Gstin::stored(g).state_code().to_string())
        .or(company::profile(conn)?.state_code);
    Ok(Letterhead {
        trade_name: get("trade_name").unwrap_or_default(),
        address_lines: get("address")
            .unwrap_or_default()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        gstin,
        state: state_code.as_deref().map(state_label),
        phone: get("phone"),
        email: get("email"),
        bank_name: get("bank_name"),
        bank_account: get("bank_account"),
        bank_ifsc: get("bank_ifsc"),
        upi_id: get("upi_id"),
        terms: get("terms"),
        footer: get("footer"),
        accent_color: get("accent_color").unwrap_or_else(|| DEFAULT_ACCENT.into()),
        logo: logo(conn)?,
    })
}

/// "Kerala (32)", or the bare code when it is not a known state.
pub fn state_label(code: &str) -> String {
    match gstin::state_name(code) {
        Some(name) => format!("{name} ({code})"),
        None => code.to_string(),
    }
}
