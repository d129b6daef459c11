//! The checks a staged row passes or fails on its own: its name, GSTIN, phones, emails, contact
//! and legacy invoice (number, date, amounts), each problem a marker.

use crate::imports::reading::RawRow;
use crate::imports::rules::{Problem, client_key, parse_amount, parse_date, parse_number, problem};
use crate::plumbing::clock::Fy;
use crate::plumbing::gstin::Gstin;
use crate::staff::rules::{check_email, check_phone};
use chrono::NaiveDate;

/// Prefixes the back office's other series own: a legacy invoice may not take them.
const RESERVED_PREFIXES: &[&str] = &["QT", "PI", "CN", "RCT"];

/// What the checks made of a row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Verdict {
    pub client_key: String,
    pub doc_date: Option<NaiveDate>,
    pub fy: Option<String>,
    pub total: Option<i64>,
    pub balance: Option<i64>,
    pub problems: Vec<Problem>,
    /// The registry's client this row's client is.
    pub match_id: Option<String>,
    /// The invoice is already this client's legacy invoice.
    pub invoice_known: bool,
}

/// The checks a row passes or fails on its own.
pub fn check_row(raw: &RawRow, today: NaiveDate) -> Verdict {
    let mut v = Verdict {
        client_key: client_key(&raw.name),
        ..Verdict::default()
    };
    let p = &mut v.problems;
    if v.client_key.is_empty() {
        p.push(problem("name_missing", "name", "The society's name is empty."));
    } else if raw.name.chars().count() > 200 {
        p.push(problem(
            "name_too_long",
            "name",
            "A name is at most 200 characters.",
        ));
    }
    if !raw.gstin.is_empty()
        && let Err(e) = Gstin::parse(&raw.gstin)
    {
        p.push(problem("gstin_invalid", "gstin", e.message.clone()));
    }
    for (field, text) in [
        ("district", &raw.district),
        ("sector", &raw.sector),
        ("remote_access_id", &raw.remote_access_id),
        ("os", &raw.os),
        ("address", &raw.address),
        ("contact_role", &raw.contact_role),
    ] {
        if text.chars().count() > 2000 {
            p.push(problem("value_too_long", field, "At most 2000 characters."));
        }
    }
    for (field, phone) in [("phone", &raw.phone), ("contact_phone", &raw.contact_phone)] {
        if check_phone(phone).is_err() {
            p.push(problem(
                "phone_invalid",
                field,
                format!("\"{phone}\" is not a phone number of 6 to 15 digits."),
            ));
        }
    }
    for (field, email) in [("email", &raw.email), ("contact_email", &raw.contact_email)] {
        if !email.is_empty() && check_email(email).is_err() {
            p.push(problem(
                "email_invalid",
                field,
                format!("\"{email}\" is not an email address."),
            ));
        }
    }
    if raw.contact_name.is_empty()
        && !(raw.contact_role.is_empty() && raw.contact_phone.is_empty() && raw.contact_email.is_empty())
    {
        p.push(problem(
            "contact_incomplete",
            "contact_name",
            "The row gives a contact's details without the contact's name.",
        ));
    } else if raw.contact_name.chars().count() > 200 {
        p.push(problem(
            "name_too_long",
            "contact_name",
            "A contact's name is at most 200 characters.",
        ));
    }
    if !raw.has_invoice() {
        return v;
    }
    for (field, text, what) in [
        ("invoice_no", &raw.invoice_no, "number"),
        ("invoice_date", &raw.invoice_date, "date"),
        ("invoice_total", &raw.invoice_total, "total"),
    ] {
        if text.is_empty() {
            p.push(problem(
                "invoice_incomplete",
                field,
                format!("The row gives an invoice without its {what}."),
            ));
        }
    }
    if !raw.invoice_date.is_empty() {
        match parse_date(&raw.invoice_date) {
            Some(d) if d > today => p.push(problem(
                "date_invalid",
                "invoice_date",
                format!("{} is in the future.", raw.invoice_date),
            )),
            Some(d) => {
                v.doc_date = Some(d);
                v.fy = Some(Fy::of(d).short());
            }
            None => p.push(problem(
                "date_invalid",
                "invoice_date",
                format!(
                    "\"{}\" is not a date: write 2024-04-01 or 01-04-2024.",
                    raw.invoice_date
                ),
            )),
        }
    }
    if !raw.invoice_total.is_empty() {
        v.total = parse_amount(&raw.invoice_total);
        if v.total.is_none() {
            p.push(problem(
                "amount_invalid",
                "invoice_total",
                format!(
                    "\"{}\" is not an amount in rupees, such as 1,180.00.",
                    raw.invoice_total
                ),
            ));
        }
    }
    if !raw.invoice_balance.is_empty() {
        v.balance = parse_amount(&raw.invoice_balance);
        match (v.balance, v.total) {
            (None, _) => p.push(problem(
                "amount_invalid",
                "invoice_balance",
                format!(
                    "\"{}\" is not an amount in rupees, such as 1,180.00.",
                    raw.invoice_balance
                ),
            )),
            (Some(b), Some(t)) if b > t => p.push(problem(
                "amount_invalid",
                "invoice_balance",
                "The balance still owed is more than the invoice's total.",
            )),
            _ => {}
        }
    }
    if !raw.invoice_no.is_empty() {
        match parse_number(&raw.invoice_no) {
            None => p.push(problem(
                "invoice_no_shape",
                "invoice_no",
                format!("\"{}\" is not a number such as INV/24-25-0042.", raw.invoice_no),
            )),
            Some(n) if RESERVED_PREFIXES.contains(&n.prefix.as_str()) => p.push(problem(
                "invoice_no_shape",
                "invoice_no",
                format!(
                    "{}/ numbers belong to another kind of document; an invoice's may not use it.",
                    n.prefix
                ),
            )),
            Some(n) => {
                if let Some(fy) = v.fy.as_deref()
                    && fy != n.fy
                {
                    p.push(problem(
                        "invoice_fy_mismatch",
                        "invoice_no",
                        format!(
                            "{} is numbered in the financial year {} but dated in {fy}.",
                            raw.invoice_no, n.fy
                        ),
                    ));
                }
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phone_email_and_contact_cells_are_checked_naming_the_column() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let row = |cells: &[(&str, &str)]| {
            let mut raw = RawRow {
                name: "Alpha PACS".into(),
                ..RawRow::default()
            };
            for (field, text) in cells {
                *raw.field_mut(field).unwrap() = text.to_string();
            }
            check_row(&raw, today)
                .problems
                .into_iter()
                .map(|p| (p.kind, p.field))
                .collect::<Vec<_>>()
        };
        let pair = |k: &str, f: &str| (k.to_string(), f.to_string());
        assert_eq!(
            row(&[
                ("phone", "0474 255 1432"),
                ("email", "office@alpha.in"),
                ("contact_name", "Suresh"),
                ("contact_phone", "+91 94470-12345"),
                ("contact_email", "s@alpha.in"),
            ]),
            vec![]
        );
        assert_eq!(
            row(&[("phone", "call the office"), ("email", "office at alpha")]),
            vec![pair("phone_invalid", "phone"), pair("email_invalid", "email")]
        );
        assert_eq!(
            row(&[
                ("contact_name", "Suresh"),
                ("contact_phone", "12"),
                ("contact_email", "s@")
            ]),
            vec![
                pair("phone_invalid", "contact_phone"),
                pair("email_invalid", "contact_email")
            ]
        );
        assert_eq!(
            row(&[("contact_role", "secretary")]),
            vec![pair("contact_incomplete", "contact_name")]
        );
    }
}
