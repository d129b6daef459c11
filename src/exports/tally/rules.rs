//! The Tally vouchers and party ledgers as plain structs, built from the documents and payments
//! the store reads (docs/api/exports.md, "Tally XML", for the published sources of the shape); the
//! envelope that carries them is written by `envelope`.
//!
//! Tally's sign convention: an entry's `AMOUNT` is negative for a debit, which is also
//! `ISDEEMEDPOSITIVE` Yes, and positive for a credit (`ISDEEMEDPOSITIVE` No); a voucher's
//! amounts sum to zero. Every amount here is in paise with that sign; the envelope writes it as
//! rupees with two decimals.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The ledger names the vouchers post to (`GET/PUT /api/settings/tally`): every accountant
/// names them differently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Ledgers {
    /// Sales (the taxable value of an invoice, debited back by a credit note).
    pub sales_ledger: String,
    /// Output CGST.
    pub cgst_ledger: String,
    /// Output SGST.
    pub sgst_ledger: String,
    /// Output IGST.
    pub igst_ledger: String,
    /// The bank a receipt by cheque, NEFT/RTGS, UPI or other is paid into.
    pub bank_ledger: String,
    /// Cash in hand, for a receipt in cash.
    pub cash_ledger: String,
    /// TDS receivable: what a society deducted from our fee.
    pub tds_ledger: String,
    /// Round off: what brought a document's total to the rupee.
    pub round_off_ledger: String,
    /// The company as named in Tally (`SVCURRENTCOMPANY`); empty: the company loaded in Tally.
    pub company_name: String,
}

impl Default for Ledgers {
    fn default() -> Ledgers {
        Ledgers {
            sales_ledger: "Sales".into(),
            cgst_ledger: "Output CGST".into(),
            sgst_ledger: "Output SGST".into(),
            igst_ledger: "Output IGST".into(),
            bank_ledger: "Bank".into(),
            cash_ledger: "Cash".into(),
            tds_ledger: "TDS Receivable".into(),
            round_off_ledger: "Round Off".into(),
            company_name: String::new(),
        }
    }
}

/// The fields of [`Ledgers`] in order, each with its label for messages.
pub const FIELDS: [(&str, &str); 9] = [
    ("sales_ledger", "The sales ledger"),
    ("cgst_ledger", "The CGST ledger"),
    ("sgst_ledger", "The SGST ledger"),
    ("igst_ledger", "The IGST ledger"),
    ("bank_ledger", "The bank ledger"),
    ("cash_ledger", "The cash ledger"),
    ("tds_ledger", "The TDS receivable ledger"),
    ("round_off_ledger", "The round-off ledger"),
    ("company_name", "The company name"),
];

/// The longest name Tally is given here.
pub const MAX_NAME: usize = 100;

/// A ledger or company name as typed, trimmed; empty is refused but for the company name.
pub fn check_name(field: &str, label: &str, raw: &str) -> Result<String, crate::plumbing::error::AppError> {
    use crate::plumbing::error::AppError;
    let name = raw.trim();
    if name.is_empty() && field != "company_name" {
        return Err(AppError::invalid(
            field,
            "required",
            format!("{label} needs a name, as it is in Tally."),
        ));
    }
    if name.chars().count() > MAX_NAME {
        return Err(AppError::invalid(
            field,
            "too_long",
            format!("{label} is at most {MAX_NAME} characters."),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(AppError::invalid(
            field,
            "invalid_value",
            format!("{label} is one line of text."),
        ));
    }
    Ok(name.to_string())
}

/// What a voucher is in Tally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Sales,
    CreditNote,
    Receipt,
}

impl Kind {
    /// The voucher type's name (`VCHTYPE`, `VOUCHERTYPENAME`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sales => "Sales",
            Kind::CreditNote => "Credit Note",
            Kind::Receipt => "Receipt",
        }
    }
}

/// A bill allocation of the party's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bill {
    /// The bill's name (the invoice's number); none for "On Account".
    pub name: Option<String>,
    /// `New Ref` (an invoice raising a bill), `Agst Ref` (settling one), `On Account`.
    pub kind: &'static str,
    /// Paise, Tally's sign (the entry's).
    pub amount: i64,
}

/// One ledger entry: paise with Tally's sign (negative: a debit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub ledger: String,
    pub amount: i64,
    /// The party's own entry.
    pub party: bool,
    pub bills: Vec<Bill>,
}

impl Entry {
    fn plain(ledger: &str, amount: i64) -> Entry {
        Entry {
            ledger: ledger.to_string(),
            amount,
            party: false,
            bills: vec![],
        }
    }
}

/// One voucher, whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Voucher {
    /// The document's or payment's id: a second import alters the voucher it made.
    pub remote_id: String,
    pub kind: Kind,
    pub date: NaiveDate,
    /// The document number or the receipt number.
    pub number: String,
    /// The client's name, which is its party ledger's.
    pub party: String,
    pub party_gstin: Option<String>,
    /// The client's state, for the place of supply.
    pub party_state: Option<String>,
    /// A cheque number or UTR of a receipt; the invoice a credit note is against.
    pub reference: Option<String>,
    pub narration: String,
    pub entries: Vec<Entry>,
}

impl Voucher {
    /// The sum of its entries: zero for a voucher Tally accepts.
    pub fn balance(&self) -> i64 {
        self.entries.iter().map(|e| e.amount).sum()
    }
}

/// An issued invoice or credit note, as the store reads it (paise, positive).
#[derive(Debug, Clone)]
pub struct SaleDoc {
    pub id: String,
    /// INVOICE or CREDIT_NOTE.
    pub credit_note: bool,
    pub doc_no: String,
    pub doc_date: NaiveDate,
    pub client_name: String,
    pub client_gstin: Option<String>,
    pub client_state_code: Option<String>,
    /// The invoice a credit note is against: its number.
    pub against: Option<String>,
    pub subtotal: i64,
    pub cgst: i64,
    pub sgst: i64,
    pub igst: i64,
    pub round_off: i64,
    pub total: i64,
}

/// A recorded payment with what it settled, as the store reads it (paise, positive).
#[derive(Debug, Clone)]
pub struct Payment {
    pub id: String,
    pub receipt_no: String,
    pub received_on: NaiveDate,
    pub client_name: String,
    /// cash, cheque, neft_rtgs, upi or other.
    pub mode: String,
    pub reference: Option<String>,
    /// The money received.
    pub amount: i64,
    /// Each invoice it settled: (number, money, TDS).
    pub settled: Vec<(String, i64, i64)>,
}

/// A client as its party ledger.
#[derive(Debug, Clone)]
pub struct Party {
    pub id: String,
    pub name: String,
    pub gstin: Option<String>,
    pub state_code: Option<String>,
    pub address: Option<String>,
}

pub(crate) fn state_of(code: Option<&str>) -> Option<String> {
    code.and_then(crate::plumbing::gstin::state_name)
        .map(str::to_string)
}

/// The voucher of an invoice (Sales: the party debited with the total, a new bill in the
/// invoice's number; sales and the output tax credited) or a credit note (Credit Note: each
/// reversed, the party credited against the invoice's bill). A positive round-off is credited
/// on an invoice; a zero amount makes no entry.
pub fn sale(doc: &SaleDoc, ledgers: &Ledgers) -> Voucher {
    // +1: as an invoice posts it (credits positive); a credit note posts each the other way.
    let way = if doc.credit_note { -1 } else { 1 };
    let bill = match (&doc.against, doc.credit_note) {
        (Some(invoice), true) => Bill {
            name: Some(invoice.clone()),
            kind: "Agst Ref",
            amount: doc.total,
        },
        (None, true) => Bill {
            name: None,
            kind: "On Account",
            amount: doc.total,
        },
        (_, false) => Bill {
            name: Some(doc.doc_no.clone()),
            kind: "New Ref",
            amount: -doc.total,
        },
    };
    let mut entries = vec![Entry {
        ledger: doc.client_name.clone(),
        amount: -way * doc.total,
        party: true,
        bills: vec![bill],
    }];
    for (ledger, amount) in [
        (&ledgers.sales_ledger, doc.subtotal),
        (&ledgers.cgst_ledger, doc.cgst),
        (&ledgers.sgst_ledger, doc.sgst),
        (&ledgers.igst_ledger, doc.igst),
        (&ledgers.round_off_ledger, doc.round_off),
    ] {
        if amount != 0 {
            entries.push(Entry::plain(ledger, way * amount));
        }
    }
    let kind = if doc.credit_note {
        Kind::CreditNote
    } else {
        Kind::Sales
    };
    let narration = match (&doc.against, doc.credit_note) {
        (Some(invoice), true) => format!("Credit note {} against invoice {invoice}", doc.doc_no),
        _ if doc.credit_note => format!("Credit note {}", doc.doc_no),
        _ => format!("Invoice {}", doc.doc_no),
    };
    Voucher {
        remote_id: doc.id.clone(),
        kind,
        date: doc.doc_date,
        number: doc.doc_no.clone(),
        party: doc.client_name.clone(),
        party_gstin: doc.client_gstin.clone(),
        party_state: state_of(doc.client_state_code.as_deref()),
        reference: if doc.credit_note {
            doc.against.clone()
        } else {
            None
        },
        narration,
        entries,
    }
}

/// The voucher of a recorded payment (Receipt): the bank (the cash ledger for cash) debited with
/// the money, TDS receivable with the TDS its allocations booked, and the party credited with
/// both, one `Agst Ref` bill per invoice settled and what is left of the money `On Account`.
pub fn receipt(p: &Payment, ledgers: &Ledgers) -> Voucher {
    let tds: i64 = p.settled.iter().map(|s| s.2).sum();
    let money_settled: i64 = p.settled.iter().map(|s| s.1).sum();
    let mut bills: Vec<Bill> = p
        .settled
        .iter()
        .map(|(doc_no, money, tds)| Bill {
            name: Some(doc_no.clone()),
            kind: "Agst Ref",
            amount: money + tds,
        })
        .collect();
    let advance = p.amount - money_settled;
    if advance != 0 {
        bills.push(Bill {
            name: None,
            kind: "On Account",
            amount: advance,
        });
    }
    let into = if p.mode == "cash" {
        &ledgers.cash_ledger
    } else {
        &ledgers.bank_ledger
    };
    let mut entries = vec![Entry {
        ledger: p.client_name.clone(),
        amount: p.amount + tds,
        party: true,
        bills,
    }];
    entries.push(Entry::plain(into, -p.amount));
    if tds != 0 {
        entries.push(Entry::plain(&ledgers.tds_ledger, -tds));
    }
    let mut narration = format!("Receipt {}", p.receipt_no);
    if let Some(r) = p.reference.as_deref().filter(|r| !r.is_empty()) {
        narration.push_str(&format!(", ref {r}"));
    }
    Voucher {
        remote_id: p.id.clone(),
        kind: Kind::Receipt,
        date: p.received_on,
        number: p.receipt_no.clone(),
        party: p.client_name.clone(),
        party_gstin: None,
        party_state: None,
        reference: p.reference.clone().filter(|r| !r.is_empty()),
        narration,
        entries,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    fn doc(credit_note: bool) -> SaleDoc {
        SaleDoc {
            id: "d1".into(),
            credit_note,
            doc_no: if credit_note {
                "CN/1".into()
            } else {
                "INV/1".into()
            },
            doc_date: day("2026-05-04"),
            client_name: "A & B <Co>".into(),
            client_gstin: None,
            client_state_code: Some("32".into()),
            against: credit_note.then(|| "INV/1".to_string()),
            subtotal: 10_000,
            cgst: 900,
            sgst: 900,
            igst: 0,
            round_off: 20,
            total: 11_820,
        }
    }

    #[test]
    fn an_invoice_debits_the_party_and_balances() {
        let v = sale(&doc(false), &Ledgers::default());
        assert_eq!(v.balance(), 0);
        assert_eq!(v.entries[0].amount, -11_820);
        assert_eq!(v.entries[0].bills[0].kind, "New Ref");
        assert_eq!(v.entries.len(), 5);
        assert_eq!(v.kind.name(), "Sales");
    }

    #[test]
    fn a_credit_note_reverses_each_entry_against_the_invoice() {
        let v = sale(&doc(true), &Ledgers::default());
        assert_eq!(v.balance(), 0);
        assert_eq!(v.entries[0].amount, 11_820);
        assert_eq!(v.entries[0].bills[0].name.as_deref(), Some("INV/1"));
        assert_eq!(v.entries[1].amount, -10_000);
    }

    #[test]
    fn a_receipt_debits_bank_and_tds_and_keeps_an_advance_on_account() {
        let p = Payment {
            id: "p1".into(),
            receipt_no: "RCT/26-27/1".into(),
            received_on: day("2026-05-05"),
            client_name: "x".into(),
            mode: "upi".into(),
            reference: None,
            amount: 50_000,
            settled: vec![("INV/1".into(), 20_000, 1_000), ("INV/2".into(), 10_000, 0)],
        };
        let v = receipt(&p, &Ledgers::default());
        assert_eq!(v.balance(), 0);
        assert_eq!(v.entries[0].amount, 51_000);
        let bills: i64 = v.entries[0].bills.iter().map(|b| b.amount).sum();
        assert_eq!(bills, 51_000);
        assert_eq!(v.entries[1].ledger, "Bank");
        assert_eq!(v.entries[2].amount, -1_000);
    }
}
