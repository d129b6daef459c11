//! The envelope of one TallyPrime Import Data request, written event by event with quick-xml:
//! [`Envelope::begin`] (the header and the request's description), then each voucher or party
//! ledger of `rules` in its own `TALLYMESSAGE`, then [`Envelope::end`]. Names are the text of
//! the writer's events, so `&`, `<` and quotes are escaped by quick-xml and any UTF-8
//! (Malayalam) passes as it is.

use crate::exports::tally::rules::{Party, Voucher, state_of};
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use std::io::{self, Write};

/// What an envelope carries: vouchers, or the party ledgers alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    Vouchers,
    Masters,
}

/// The envelope of one Import Data request, written as it goes: [`Envelope::begin`], then each
/// voucher or ledger, then [`Envelope::end`]. The bytes written so far are in `writer`'s inner
/// buffer, which a caller may drain between objects.
pub struct Envelope<W: Write> {
    pub writer: Writer<W>,
}

fn yes(b: bool) -> &'static str {
    if b { "Yes" } else { "No" }
}

impl<W: Write> Envelope<W> {
    /// The declaration, the header (`Import Data`) and the request's description (the report,
    /// and the company when named), up to the open `REQUESTDATA`.
    pub fn begin(inner: W, report: Report, company: &str) -> io::Result<Envelope<W>> {
        let mut writer = Writer::new_with_indent(inner, b' ', 1);
        writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        let mut e = Envelope { writer };
        e.open("ENVELOPE")?;
        e.open("HEADER")?;
        e.text("TALLYREQUEST", "Import Data")?;
        e.close("HEADER")?;
        e.open("BODY")?;
        e.open("IMPORTDATA")?;
        e.open("REQUESTDESC")?;
        e.text(
            "REPORTNAME",
            match report {
                Report::Vouchers => "Vouchers",
                Report::Masters => "All Masters",
            },
        )?;
        if !company.is_empty() {
            e.open("STATICVARIABLES")?;
            e.text("SVCURRENTCOMPANY", company)?;
            e.close("STATICVARIABLES")?;
        }
        e.close("REQUESTDESC")?;
        e.open("REQUESTDATA")?;
        Ok(e)
    }

    /// Closes what [`Envelope::begin`] opened and answers the inner writer.
    pub fn end(mut self) -> io::Result<W> {
        self.close("REQUESTDATA")?;
        self.close("IMPORTDATA")?;
        self.close("BODY")?;
        self.close("ENVELOPE")?;
        Ok(self.writer.into_inner())
    }

    fn open(&mut self, name: &str) -> io::Result<()> {
        self.writer.write_event(Event::Start(BytesStart::new(name)))
    }

    fn open_with(&mut self, name: &str, attributes: &[(&str, &str)]) -> io::Result<()> {
        let start = BytesStart::new(name).with_attributes(attributes.iter().copied());
        self.writer.write_event(Event::Start(start))
    }

    fn close(&mut self, name: &str) -> io::Result<()> {
        self.writer.write_event(Event::End(BytesEnd::new(name)))
    }

    /// `<name>text</name>`, the text escaped.
    fn text(&mut self, name: &str, text: &str) -> io::Result<()> {
        self.writer
            .create_element(name)
            .write_text_content(BytesText::new(text))?;
        Ok(())
    }

    fn message(&mut self) -> io::Result<()> {
        self.open_with("TALLYMESSAGE", &[("xmlns:UDF", "TallyUDF")])
    }

    /// One voucher in its own `TALLYMESSAGE`.
    pub fn voucher(&mut self, v: &Voucher) -> io::Result<()> {
        self.message()?;
        let kind = v.kind.name();
        self.open_with(
            "VOUCHER",
            &[
                ("REMOTEID", v.remote_id.as_str()),
                ("VCHTYPE", kind),
                ("ACTION", "Create"),
                ("OBJVIEW", "Accounting Voucher View"),
            ],
        )?;
        let date = v.date.format("%Y%m%d").to_string();
        self.text("DATE", &date)?;
        self.text("EFFECTIVEDATE", &date)?;
        self.text("VOUCHERTYPENAME", kind)?;
        self.text("VOUCHERNUMBER", &v.number)?;
        if let Some(r) = &v.reference {
            self.text("REFERENCE", r)?;
        }
        self.text("PARTYLEDGERNAME", &v.party)?;
        if let Some(g) = &v.party_gstin {
            self.text("PARTYGSTIN", g)?;
        }
        if let Some(s) = &v.party_state {
            self.text("STATENAME", s)?;
            self.text("PLACEOFSUPPLY", s)?;
        }
        self.text("PERSISTEDVIEW", "Accounting Voucher View")?;
        self.text("ISINVOICE", "No")?;
        self.text("NARRATION", &v.narration)?;
        for entry in &v.entries {
            self.open("ALLLEDGERENTRIES.LIST")?;
            self.text("LEDGERNAME", &entry.ledger)?;
            self.text("ISDEEMEDPOSITIVE", yes(entry.amount < 0))?;
            self.text("ISPARTYLEDGER", yes(entry.party))?;
            self.text("AMOUNT", &crate::plumbing::money::decimal(entry.amount))?;
            for bill in &entry.bills {
                self.open("BILLALLOCATIONS.LIST")?;
                if let Some(name) = &bill.name {
                    self.text("NAME", name)?;
                }
                self.text("BILLTYPE", bill.kind)?;
                self.text("AMOUNT", &crate::plumbing::money::decimal(bill.amount))?;
                self.close("BILLALLOCATIONS.LIST")?;
            }
            self.close("ALLLEDGERENTRIES.LIST")?;
        }
        self.close("VOUCHER")?;
        self.close("TALLYMESSAGE")
    }

    /// One party ledger under Sundry Debtors, bill-wise, with its address, state and GSTIN.
    pub fn ledger(&mut self, p: &Party) -> io::Result<()> {
        self.message()?;
        self.open_with(
            "LEDGER",
            &[
                ("NAME", p.name.as_str()),
                ("REMOTEID", p.id.as_str()),
                ("ACTION", "Create"),
            ],
        )?;
        self.open_with("NAME.LIST", &[("TYPE", "String")])?;
        self.text("NAME", &p.name)?;
        self.close("NAME.LIST")?;
        self.text("PARENT", "Sundry Debtors")?;
        self.text("ISBILLWISEON", "Yes")?;
        let lines: Vec<&str> = p
            .address
            .as_deref()
            .unwrap_or("")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if !lines.is_empty() {
            self.open_with("ADDRESS.LIST", &[("TYPE", "String")])?;
            for line in lines {
                self.text("ADDRESS", line)?;
            }
            self.close("ADDRESS.LIST")?;
        }
        self.text("COUNTRYNAME", "India")?;
        if let Some(state) = state_of(p.state_code.as_deref()) {
            self.text("STATENAME", &state)?;
            self.text("LEDSTATENAME", &state)?;
        }
        match &p.gstin {
            Some(g) => {
                self.text("GSTREGISTRATIONTYPE", "Regular")?;
                self.text("PARTYGSTIN", g)?;
            }
            None => self.text("GSTREGISTRATIONTYPE", "Unregistered")?,
        }
        self.close("LEDGER")?;
        self.close("TALLYMESSAGE")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exports::tally::rules::{Ledgers, SaleDoc, sale};

    #[test]
    fn names_are_escaped_by_the_writer() {
        let doc = SaleDoc {
            id: "d1".into(),
            credit_note: false,
            doc_no: "INV/1".into(),
            doc_date: "2026-05-04".parse().unwrap(),
            client_name: "A & B <Co>".into(),
            client_gstin: None,
            client_state_code: Some("32".into()),
            against: None,
            subtotal: 10_000,
            cgst: 900,
            sgst: 900,
            igst: 0,
            round_off: 20,
            total: 11_820,
        };
        let mut e = Envelope::begin(Vec::new(), Report::Vouchers, "Co & Sons").unwrap();
        e.voucher(&sale(&doc, &Ledgers::default())).unwrap();
        let text = String::from_utf8(e.end().unwrap()).unwrap();
        assert!(
            text.contains("<PARTYLEDGERNAME>A &amp; B &lt;Co&gt;</PARTYLEDGERNAME>"),
            "{text}"
        );
        assert!(text.contains("<SVCURRENTCOMPANY>Co &amp; Sons</SVCURRENTCOMPANY>"));
        assert!(text.contains("<DATE>20260504</DATE>"));
        assert!(text.contains("<AMOUNT>-118.20</AMOUNT>"));
    }
}
