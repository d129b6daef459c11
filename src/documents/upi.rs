//! The UPI payment link of a bill that is owed (decisions 12 "UPI on a document"), in NPCI's
//! linking format: `upi://pay?pa=<VPA>&pn=<payee name>&am=<rupees>&cu=INR&tn=<note>`
//! (NPCI, "UPI Linking Specifications" v1.6: `pa` payee address, `pn` payee name, `am` amount
//! with two decimals, `cu` currency, `tn` transaction note). Every value is percent-encoded
//! (RFC 3986: all but the unreserved characters), so a name with `&` or a space cannot break the
//! link. The same link is the JSON's `upi.uri`, the QR on the PDF and the share page, and the
//! line of the reminder emails.

use crate::company;
use crate::documents::upi_store;
use crate::payments::rules::tds_at;
use crate::plumbing::error::AppError;
use crate::plumbing::http::url::encode_component as encode;
use crate::plumbing::money;
use crate::tds::rules::section_percent;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

/// What a society scans to pay a bill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Upi {
    pub uri: String,
    /// Paise: what is owed, less the TDS the client is still expected to deduct.
    pub amount: i64,
}

/// The link that pays `amount` paise to `upi_id` (shown as `payee`), noted with the document
/// number.
pub fn uri(upi_id: &str, payee: &str, amount: i64, doc_no: &str) -> String {
    format!(
        "upi://pay?pa={}&pn={}&am={}&cu=INR&tn={}",
        encode(upi_id),
        encode(payee),
        money::decimal(amount),
        encode(doc_no)
    )
}

/// What the society should pay now: `owed`, less the TDS it is still expected to deduct under
/// its own section (`tds_percent` of the `taxable` value, rounded to the rupee as the payment
/// form suggests it, less what is already booked), never below zero.
pub fn amount(owed: i64, taxable: i64, tds_percent: Option<i64>, tds_booked: i64) -> i64 {
    let still_to_deduct = tds_percent.map_or(0, |p| (tds_at(taxable, p) - tds_booked).max(0));
    (owed - still_to_deduct).max(0)
}

/// What a bill's UPI link is made from: the document as `store::get` reads it.
pub struct Bill<'a> {
    pub doc_type: &'a str,
    pub status: &'a str,
    pub doc_no: Option<&'a str>,
    pub client_id: &'a str,
    pub total: i64,
    /// The taxable value.
    pub subtotal: i64,
    pub outstanding: Option<i64>,
    /// The TDS booked on its payments.
    pub tds_booked: i64,
}

/// The bill's UPI link: an issued invoice with something outstanding or a live proforma (issued,
/// sent or accepted), when the company has a UPI ID; None otherwise or when nothing is left to
/// pay after the TDS.
pub fn of(conn: &Connection, doc: &Bill<'_>) -> Result<Option<Upi>, AppError> {
    let owed = match (doc.doc_type, doc.status) {
        (_, "draft" | "cancelled") => return Ok(None),
        ("INVOICE", _) => doc.outstanding.unwrap_or(0),
        ("PROFORMA", "issued" | "sent" | "accepted") => doc.total,
        _ => return Ok(None),
    };
    let Some(doc_no) = doc.doc_no else {
        return Ok(None);
    };
    if owed <= 0 {
        return Ok(None);
    }
    let profile = company::profile(conn)?;
    let Some(upi_id) = profile.upi_id.as_deref().map(str::trim).filter(|u| !u.is_empty()) else {
        return Ok(None);
    };
    let section = upi_store::client_tds_section(conn, doc.client_id)?;
    let amount = amount(
        owed,
        doc.subtotal,
        section.as_deref().and_then(section_percent),
        doc.tds_booked,
    );
    Ok((amount > 0).then(|| Upi {
        uri: uri(upi_id, &profile.name, amount, doc_no),
        amount,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_percent_encodes_every_value() {
        assert_eq!(
            uri("malabarsoft@sbi", "Malabar Soft & Co.", 699_800, "INV/26-27/0001"),
            "upi://pay?pa=malabarsoft%40sbi&pn=Malabar%20Soft%20%26%20Co.&am=6998.00&cu=INR&tn=INV%2F26-27%2F0001"
        );
        assert_eq!(
            encode("കുമ്മിൾ"),
            "%E0%B4%95%E0%B5%81%E0%B4%AE%E0%B5%8D%E0%B4%AE%E0%B4%BF%E0%B5%BE"
        );
    }

    #[test]
    fn the_amount_leaves_the_tds_still_to_deduct() {
        // ₹10,000 taxable + 18 % GST = ₹11,800; 194J 10 % of the taxable is ₹1,000.
        assert_eq!(amount(1_180_000, 1_000_000, None, 0), 1_180_000);
        assert_eq!(amount(1_180_000, 1_000_000, Some(10), 0), 1_080_000);
        assert_eq!(amount(1_180_000, 1_000_000, Some(2), 0), 1_160_000);
        // Part paid with its TDS booked: nothing more to deduct.
        assert_eq!(amount(590_000, 1_000_000, Some(10), 100_000), 590_000);
        // Part of the TDS booked: the rest still to deduct.
        assert_eq!(amount(590_000, 1_000_000, Some(10), 40_000), 530_000);
        // Rounded half-up to the rupee: 10 % of ₹1,234.50 is ₹123.45, so ₹123.
        assert_eq!(amount(145_671, 123_450, Some(10), 0), 145_671 - 12_300);
        // Never below zero.
        assert_eq!(amount(50_000, 1_000_000, Some(10), 0), 0);
    }
}
