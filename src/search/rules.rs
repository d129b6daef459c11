//! The rules of the global search (spec 1 function 12, 4.7; decisions 11):
//!
//! - The typed text is trimmed. Under two characters it is not searched: the answer is four
//!   empty groups (a box that searches as one types asks after the first key, and one letter
//!   matches half the office). Over 100 characters it is refused (400, field `q`).
//! - Text matches as SQL's `LIKE '%q%'` does: ASCII letters fold, everything else is literal
//!   (`%` and `_` too).
//! - `only` names the groups to search (comma-separated `clients`, `documents`, `tickets`,
//!   `payments`; all four by default); the others are answered empty. An unknown name is refused
//!   (400).
//! - Text that is a phone number ([`phone_query`]: only digits and what people type between
//!   them, at least six digits once `+91` or a leading 0 is set aside) also finds the clients
//!   whose own phone, or a contact's, holds those digits, spacing ignored ([`phone_digits`]).
//! - Payments are found by their receipt number: text that starts with a letter by the numbers
//!   that start with it (`RCT/26-27-00`, the unique index), other text holding a digit by the
//!   numbers that contain it (`0042`); text with neither is not a receipt number.
//! - Each group shows at most five hits; `capped` says there are more than it shows.
//! - Every hit has a `label` (what it is called) and a `detail` line (what tells two hits of
//!   one label apart), beside the fields the console links and badges with.

use crate::plumbing::error::AppError;

/// Shorter text is not searched.
pub const MIN_CHARS: usize = 2;
/// Longer text is refused.
pub const MAX_CHARS: usize = 100;
/// Hits shown per group.
pub const SHOWN: usize = 5;
/// Hits looked for per group: one more than shown, so that finding it is what `capped` says.
pub const LOOKED_FOR: usize = SHOWN + 1;

/// The text to search for: trimmed, None when it is too short to search; a 400 naming `q` when
/// it is too long.
pub fn text(q: Option<&str>) -> Result<Option<String>, AppError> {
    let q = q.unwrap_or("").trim();
    let chars = q.chars().count();
    if chars > MAX_CHARS {
        return Err(AppError::bad_request(
            "q_too_long",
            format!("Search for at most {MAX_CHARS} characters."),
        )
        .on_field("q"));
    }
    Ok((chars >= MIN_CHARS).then(|| q.to_string()))
}

/// The groups a search looks in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Groups {
    pub clients: bool,
    pub documents: bool,
    pub tickets: bool,
    pub payments: bool,
}

pub const GROUPS: &[&str] = &["clients", "documents", "tickets", "payments"];

/// The groups `only` names (all four when it is absent or blank); a 400 naming `only` for a
/// name that is not a group.
pub fn groups(only: Option<&str>) -> Result<Groups, AppError> {
    let names: Vec<&str> = only
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if let Some(wrong) = names.iter().find(|n| !GROUPS.contains(n)) {
        return Err(AppError::bad_request(
            "invalid_group",
            format!("“{wrong}” is not a group: only takes {}.", GROUPS.join(", ")),
        )
        .on_field("only"));
    }
    let all = names.is_empty();
    Ok(Groups {
        clients: all || names.contains(&"clients"),
        documents: all || names.contains(&"documents"),
        tickets: all || names.contains(&"tickets"),
        payments: all || names.contains(&"payments"),
    })
}

/// Digits a phone number search needs: fewer match too much of the office.
pub const PHONE_MIN_DIGITS: usize = 6;

/// A phone number's digits as they are compared: every other character dropped, then the
/// country code of `+91` (or of twelve digits starting 91) and a leading trunk 0 set aside, so
/// that `+91 94470 12345`, `094470-12345` and `9447012345` are one number.
pub fn phone_digits(text: &str) -> String {
    let text = text.trim();
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let national = match digits.strip_prefix("91") {
        Some(rest) if text.starts_with('+') || digits.len() == 12 => rest,
        _ => digits.as_str(),
    };
    national.strip_prefix('0').unwrap_or(national).to_string()
}

/// The digits to look for in phone numbers when `q` is one: nothing but digits, spaces and
/// `+ - ( ) .`, with at least [`PHONE_MIN_DIGITS`] digits once compared as [`phone_digits`].
pub fn phone_query(q: &str) -> Option<String> {
    let phone_like = q
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '+' | '-' | '(' | ')' | '.'));
    let digits = phone_digits(q);
    (phone_like && digits.len() >= PHONE_MIN_DIGITS).then_some(digits)
}

/// A `LIKE` pattern every phone holding `digits` matches (they in order, anything between),
/// so that the table is narrowed in SQL before [`phone_digits`] decides.
pub fn phone_pattern(digits: &str) -> String {
    let mut pattern = String::from("%");
    for d in digits.chars() {
        pattern.push(d);
        pattern.push('%');
    }
    pattern
}

/// How a receipt number search reads the payments, by what the text starts with.
#[derive(Debug, PartialEq, Eq)]
pub enum ReceiptSearch {
    /// Numbers starting with this (upper-cased) text.
    StartingWith(String),
    /// Numbers containing the text.
    Containing,
    /// Not a receipt number.
    None,
}

/// Text starting with a letter is the start of a number (`RCT/26-27`); other text holding a
/// digit is a part of one (`27-0042`); anything else is not looked for.
pub fn receipt_search(q: &str) -> ReceiptSearch {
    if q.starts_with(|c: char| c.is_ascii_alphabetic()) {
        ReceiptSearch::StartingWith(q.to_ascii_uppercase())
    } else if q.chars().any(|c| c.is_ascii_digit()) {
        ReceiptSearch::Containing
    } else {
        ReceiptSearch::None
    }
}

/// A client found by a phone: its line, then the phone and whose it is ("Kollam · Phone 94470
/// 12345", "Kollam · Ravi 94470 12345").
pub fn phone_detail(detail: &str, phone: &str, contact: Option<&str>) -> String {
    let whose = contact.map_or_else(|| "Phone".to_string(), str::to_string);
    let phone = format!("{whose} {}", phone.trim());
    if detail.is_empty() {
        phone
    } else {
        format!("{detail} · {phone}")
    }
}

/// A payment's line: client, day received and status unless recorded ("Chavara SCB ·
/// 2026-10-01 · cancelled").
pub fn payment_detail(client_name: &str, received_on: &str, status: &str) -> String {
    let mut line = format!("{client_name} · {received_on}");
    if status != "recorded" {
        line.push_str(&format!(" · {status}"));
    }
    line
}

/// Whether `text` contains `q` as `LIKE '%q%'` finds it: ASCII letters folded, the rest literal.
pub fn contains(text: &str, q: &str) -> bool {
    text.to_ascii_lowercase().contains(&q.to_ascii_lowercase())
}

/// The hits to show and whether there are more than those.
pub fn shown<T>(mut hits: Vec<T>) -> (Vec<T>, bool) {
    let capped = hits.len() > SHOWN;
    hits.truncate(SHOWN);
    (hits, capped)
}

/// Which of a client's searched fields holds the text, in the order they are tried: name,
/// gstin, district, remote_access_id.
pub fn client_field(
    q: &str,
    name: &str,
    gstin: Option<&str>,
    district: Option<&str>,
    remote_access_id: Option<&str>,
) -> &'static str {
    let holds = |v: Option<&str>| v.is_some_and(|v| contains(v, q));
    if contains(name, q) {
        "name"
    } else if holds(gstin) {
        "gstin"
    } else if holds(district) {
        "district"
    } else if holds(remote_access_id) {
        "remote_access_id"
    } else {
        "name"
    }
}

/// A client's line: district, GSTIN and remote access id where known, and its status unless it
/// is active ("Kollam · GSTIN 32AAB… · lead").
pub fn client_detail(
    district: Option<&str>,
    gstin: Option<&str>,
    remote_access_id: Option<&str>,
    status: &str,
) -> String {
    fn known(v: Option<&str>) -> Option<&str> {
        v.map(str::trim).filter(|v| !v.is_empty())
    }
    let mut parts: Vec<String> = vec![];
    if let Some(d) = known(district) {
        parts.push(d.to_string());
    }
    if let Some(g) = known(gstin) {
        parts.push(format!("GSTIN {g}"));
    }
    if let Some(r) = known(remote_access_id) {
        parts.push(format!("Remote {r}"));
    }
    if status != "active" {
        parts.push(status.to_string());
    }
    parts.join(" · ")
}

/// What a person calls a document type.
pub fn type_label(doc_type: &str) -> &str {
    match doc_type {
        "QUOTATION" => "Quotation",
        "PROFORMA" => "Proforma invoice",
        "INVOICE" => "Invoice",
        "CREDIT_NOTE" => "Credit note",
        other => other,
    }
}

/// A document's line: type, client, date and status ("Invoice · Chavara SCB · 2026-04-12 ·
/// cancelled").
pub fn document_detail(doc_type: &str, client_name: &str, doc_date: Option<&str>, status: &str) -> String {
    let mut parts = vec![type_label(doc_type).to_string(), client_name.to_string()];
    if let Some(date) = doc_date {
        parts.push(date.to_string());
    }
    parts.push(status.replace('_', " "));
    parts.join(" · ")
}

/// A ticket's line: client, status and the day it was opened ("Chavara SCB · in progress ·
/// opened 2026-04-12").
pub fn ticket_detail(client_name: &str, status: &str, opened_on: &str) -> String {
    format!(
        "{client_name} · {} · opened {opened_on}",
        status.replace('_', " ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_trimmed_short_text_is_not_searched_and_long_text_is_refused() {
        type Case<'a> = (Option<&'a str>, Result<Option<&'a str>, &'a str>);
        let cases: &[Case] = &[
            (None, Ok(None)),
            (Some(""), Ok(None)),
            (Some("   "), Ok(None)),
            (Some(" k "), Ok(None)),
            (Some("é"), Ok(None)),
            (Some(" ka "), Ok(Some("ka"))),
            (Some("éü"), Ok(Some("éü"))),
            (Some("INV/25-26-0042"), Ok(Some("INV/25-26-0042"))),
        ];
        for (q, expected) in cases {
            let got = text(*q).map_err(|e| e.code);
            assert_eq!(
                got.as_ref().map(|o| o.as_deref()),
                expected.as_ref().map(|o| *o),
                "{q:?}"
            );
        }
        let hundred = "x".repeat(100);
        assert_eq!(
            text(Some(&format!("  {hundred}  "))).unwrap().as_deref(),
            Some(hundred.as_str())
        );
        let refused = text(Some(&"é".repeat(101))).unwrap_err();
        assert_eq!(
            (refused.status.as_u16(), refused.code, refused.field.as_deref()),
            (400, "q_too_long", Some("q"))
        );
    }

    #[test]
    fn only_names_the_groups_searched() {
        let all = Groups {
            clients: true,
            documents: true,
            tickets: true,
            payments: true,
        };
        assert_eq!(groups(None).unwrap(), all);
        assert_eq!(groups(Some(" , ")).unwrap(), all);
        assert_eq!(
            groups(Some("tickets, clients")).unwrap(),
            Groups {
                clients: true,
                documents: false,
                tickets: true,
                payments: false,
            }
        );
        let refused = groups(Some("clients,people")).unwrap_err();
        assert_eq!(
            (refused.status.as_u16(), refused.code, refused.field.as_deref()),
            (400, "invalid_group", Some("only"))
        );
    }

    #[test]
    fn five_are_shown_and_a_sixth_caps_the_group() {
        assert_eq!(shown(vec![1, 2, 3, 4, 5]), (vec![1, 2, 3, 4, 5], false));
        assert_eq!(shown(vec![1, 2, 3, 4, 5, 6]), (vec![1, 2, 3, 4, 5], true));
        assert_eq!(shown(Vec::<i32>::new()), (vec![], false));
    }

    #[test]
    fn the_field_that_holds_the_text_is_named() {
        let field = |q| {
            client_field(
                q,
                "Chavara SCB",
                Some("32AABCK1234L1ZV"),
                Some("Kollam"),
                Some("ANY 123 456"),
            )
        };
        assert_eq!(field("chav"), "name");
        assert_eq!(field("aabck"), "gstin");
        assert_eq!(field("KOLL"), "district");
        assert_eq!(field("123 4"), "remote_access_id");
        assert!(contains("Adoor_Bank 50%", "R_BANK 50%"));
        assert!(
            !contains("Über", "über"),
            "non-ASCII letters do not fold, as in LIKE"
        );
    }

    #[test]
    fn detail_lines_say_what_tells_hits_apart() {
        assert_eq!(
            client_detail(Some("Kollam"), Some("32AABCK1234L1ZV"), None, "active"),
            "Kollam · GSTIN 32AABCK1234L1ZV"
        );
        assert_eq!(
            client_detail(None, None, Some(" 123 "), "lead"),
            "Remote 123 · lead"
        );
        assert_eq!(client_detail(Some(""), None, None, "active"), "");
        assert_eq!(
            document_detail("CREDIT_NOTE", "Chavara SCB", Some("2026-04-12"), "cancelled"),
            "Credit note · Chavara SCB · 2026-04-12 · cancelled"
        );
        assert_eq!(
            ticket_detail("Kallai PACS", "waiting_on_client", "2026-04-01"),
            "Kallai PACS · waiting on client · opened 2026-04-01"
        );
    }

    #[test]
    fn phone_numbers_compare_by_their_digits() {
        for same in [
            "9447012345",
            "94470 12345",
            "+91 94470 12345",
            "+91-94470-12345",
            "919447012345",
            "094470-12345",
            " (0)94470.12345 ",
        ] {
            assert_eq!(phone_digits(same), "9447012345", "{same}");
        }
        assert_eq!(phone_digits("0471-2345678"), "4712345678");
        assert_eq!(phone_digits("+91 0471 2345678"), "4712345678");
        assert_eq!(phone_digits("91234"), "91234", "a short number keeps its 91");
        assert_eq!(phone_query("94470 1"), Some("944701".to_string()));
        assert_eq!(
            phone_query("+91 94470"),
            None,
            "five digits once +91 is set aside"
        );
        assert_eq!(phone_query("0471 23"), None);
        assert_eq!(phone_query("(0471) 234-567"), Some("471234567".to_string()));
        assert_eq!(phone_query("INV/25-26-0042"), None);
        assert_eq!(phone_query("ANY 123 456"), None);
        assert_eq!(phone_pattern("9447"), "%9%4%4%7%");
    }

    #[test]
    fn receipt_numbers_are_looked_for_by_their_start_or_a_part_with_a_digit() {
        assert_eq!(
            receipt_search("rct/26-27"),
            ReceiptSearch::StartingWith("RCT/26-27".to_string())
        );
        assert_eq!(receipt_search("27-0042"), ReceiptSearch::Containing);
        assert_eq!(receipt_search("/26"), ReceiptSearch::Containing);
        assert_eq!(receipt_search("--"), ReceiptSearch::None);
        assert_eq!(
            payment_detail("Chavara SCB", "2026-10-01", "cancelled"),
            "Chavara SCB · 2026-10-01 · cancelled"
        );
        assert_eq!(
            phone_detail("Kollam", " 94470 12345", Some("Ravi")),
            "Kollam · Ravi 94470 12345"
        );
        assert_eq!(phone_detail("", "94470 12345", None), "Phone 94470 12345");
    }
}
