//! WhatsApp click-to-chat (decisions 12): which number, and the link that opens the chat with
//! the message written. `https://wa.me/<number>?text=<text>` is WhatsApp's published form
//! ("How to use click to chat", WhatsApp Help Center): the number in full international form
//! without `+`, `0`, spaces or dashes, the text URL-encoded.

use crate::documents::store::Document;
use crate::documents::view::{DocumentView, long_date};
use crate::plumbing::http::url::encode_component;
use crate::plumbing::money;
use crate::statements::Statement;

/// An Indian mobile as WhatsApp wants it, `91` and ten digits whose first is 6 to 9, from a
/// number as typed: `+91`, `0091`, `91` or a leading `0` before the ten digits, with spaces,
/// dashes, dots or brackets anywhere. None for a landline, a short or long number, or text.
pub fn mobile(raw: &str) -> Option<String> {
    let kept: String = raw
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '.' | '(' | ')' | '\u{a0}'))
        .collect();
    let digits = kept.strip_prefix('+').unwrap_or(&kept);
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let ten = match digits.len() {
        10 => digits,
        11 => digits.strip_prefix('0')?,
        12 => digits.strip_prefix("91")?,
        14 => digits.strip_prefix("0091")?,
        _ => return None,
    };
    ten.starts_with(['6', '7', '8', '9']).then(|| format!("91{ten}"))
}

/// The link that opens the chat with `phone` (as [`mobile`] gives it) with `text` written.
pub fn url(phone: &str, text: &str) -> String {
    format!("https://wa.me/{phone}?text={}", encode_component(text))
}

/// Who is written to, in the order tried: the contact whose role is WhatsApp, the secretary,
/// any other contact, the client's own phone.
pub fn rank(role: Option<&str>) -> u8 {
    match role.map(|r| r.trim().to_lowercase()).as_deref() {
        Some("whatsapp") => 0,
        Some("secretary") => 1,
        _ => 2,
    }
}

/// The message about a document: its number, date and amount, what is owed, its live public
/// link and its UPI link when there are ones.
pub fn document_text(doc: &Document, v: &DocumentView, link: Option<&str>) -> String {
    let what = format!(
        "our {} {}{}",
        v.title.to_lowercase(),
        v.doc_no.as_deref().unwrap_or("(draft)"),
        v.doc_date
            .as_deref()
            .map_or(String::new(), |d| format!(" dated {d}"))
    );
    let owed = match (doc.doc_type.as_str(), doc.outstanding) {
        ("INVOICE", Some(o)) if o <= 0 => ", paid in full. Thank you".to_string(),
        ("INVOICE", Some(o)) if o < doc.total => format!(
            ": {} is outstanding{}",
            money::rupees(o),
            v.due_date
                .as_deref()
                .map_or(String::new(), |d| format!(", due on {d}"))
        ),
        ("INVOICE", Some(_)) => v
            .due_date
            .as_deref()
            .map_or(String::new(), |d| format!(", due on {d}")),
        _ => String::new(),
    };
    let mut text = format!("Dear Sir/Madam,\n\nThis is {what} for {}{owed}.", v.total);
    if let Some(url) = link {
        text.push_str(&format!("\n\nView it online: {url}"));
    }
    if let Some(upi) = &v.upi {
        text.push_str(&format!("\n\nPay {} by UPI: {}", upi.amount, upi.uri));
    }
    text.push_str(&format!("\n\nRegards,\n{}", v.letterhead.trade_name));
    text
}

/// The message about a statement of account: its period, what the client owes at its end (or
/// holds in advance), the UPI link for it, the sender.
pub fn statement_text(s: &Statement, sender: &str) -> String {
    let owes = match s.closing {
        c if c > 0 => format!("the balance due is {}", money::rupees(c)),
        0 => "nothing is due".to_string(),
        c => format!("{} stands to your credit as an advance", money::rupees(-c)),
    };
    let mut text = format!(
        "Dear Sir/Madam,\n\nYour statement of account with us from {} to {}: {owes}. We will email you the statement as a PDF on request.",
        long_date(&s.from),
        long_date(&s.to)
    );
    if let Some(upi) = &s.upi {
        text.push_str(&format!(
            "\n\nPay {} by UPI: {}",
            money::rupees(upi.amount),
            upi.uri
        ));
    }
    text.push_str(&format!("\n\nRegards,\n{sender}"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indian_mobiles_are_accepted_in_every_usual_spelling() {
        for typed in [
            "9847012345",
            "+91 98470 12345",
            "+91-98470-12345",
            "09847012345",
            "0091 9847012345",
            "919847012345",
            "(984) 701-2345",
        ] {
            assert_eq!(mobile(typed).as_deref(), Some("919847012345"), "{typed}");
        }
        assert_eq!(mobile("6282012345").as_deref(), Some("916282012345"));
    }

    #[test]
    fn landlines_short_numbers_and_text_are_refused() {
        for typed in [
            "0474 2456789", // a Kollam landline
            "04742456789",
            "+91 474 245 6789",
            "5847012345",  // a first digit no mobile has
            "98470 1234",  // nine digits
            "98470123456", // eleven, not after a 0
            "+1 415 555 0100",
            "98470x2345",
            "",
        ] {
            assert_eq!(mobile(typed), None, "{typed}");
        }
    }

    #[test]
    fn the_link_carries_the_number_and_the_encoded_text() {
        assert_eq!(
            url("919847012345", "Invoice INV/26-27-0001: ₹1,18,000.00\nPay"),
            "https://wa.me/919847012345?text=Invoice%20INV%2F26-27-0001%3A%20%E2%82%B91%2C18%2C000.00%0APay"
        );
    }

    #[test]
    fn the_whatsapp_contact_comes_first_then_the_secretary() {
        assert_eq!(rank(Some(" WhatsApp ")), 0);
        assert_eq!(rank(Some("Secretary")), 1);
        assert_eq!(rank(Some("president")), 2);
        assert_eq!(rank(None), 2);
    }
}
