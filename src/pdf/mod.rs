//! PDFs of the business documents, written with pdf-writer: DejaVu Sans (regular and bold, for
//! ₹) embedded in the binary and subset to the glyphs used (subsetter), every stream deflated.
//! A one-page invoice is about 30 KB and takes a few milliseconds (docs/pdf.md).
//!
//! [`layout`] is the reusable part (pages, text, wrapping, rules, the letterhead, the signature
//! and page footer); [`document_pdf`] lays out a quotation, proforma, tax invoice or credit note
//! with it. Another document (a payment receipt) is a function of the same shape:
//!
//! ```ignore
//! let mut w = Writer::new();
//! let page = w.new_page();
//! let y = layout::letterhead(page, &letterhead, layout::TOP) + 8.0 * MM;
//! page.text_center(layout::PAGE_W / 2.0, y, Style::bold(15.0), "RECEIPT");
//! let y = layout::label_values(page, x, y + 20.0, 70.0, 200.0, &[("Receipt No.", no)]);
//! // ... page.text / text_right / wrapped; a Flow and layout::table for what it settled ...
//! layout::signature(page, &letterhead.trade_name, y);
//! w.finish(|page, n, of| layout::page_footer(page, "RECEIPT RCT/26-27-0007", n, of))
//! ```
//! The test `a_receipt_can_be_drawn_with_the_same_layer` draws one in full.

mod document;
pub mod layout;
mod receipt;
mod write;

pub use document::document_pdf;
pub use layout::{Color, Face, Flow, Image, Page, Style, Writer};
pub use receipt::receipt_pdf;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::company::template::{Letterhead, Logo};
    use crate::documents::view::{DocumentView, LineView, Party};

    fn line(sno: usize, description: &str, taxable: &str, gst: &str, total: &str) -> LineView {
        LineView {
            sno,
            description: description.into(),
            sac: "998314".into(),
            qty: "1".into(),
            rate: taxable.into(),
            taxable: taxable.into(),
            gst_rate: "18%".into(),
            cgst: gst.into(),
            sgst: gst.into(),
            igst: "0.00".into(),
            total: total.into(),
        }
    }

    pub(super) fn sample(lines: usize) -> DocumentView {
        let base = [
            line(
                1,
                "Annual maintenance of the society accounting software, April 2026 to March 2027",
                "50,000.00",
                "4,500.00",
                "59,000.00",
            ),
            line(
                2,
                "Data migration from the old system",
                "30,000.00",
                "2,700.00",
                "35,400.00",
            ),
            line(
                3,
                "Training for staff (two days, on site)",
                "20,000.00",
                "1,800.00",
                "23,600.00",
            ),
        ];
        DocumentView {
            title: "TAX INVOICE",
            doc_no: Some("INV/26-27-0001".into()),
            doc_date: Some("22 Nov 2026".into()),
            due_date: Some("07 Dec 2026".into()),
            mark: None,
            reference: None,
            letterhead: Letterhead {
                trade_name: "Malabar Cooperative Software Pvt Ltd".into(),
                address_lines: vec!["2nd Floor, Civil Station Road".into(), "Kozhikode, Kerala 673020".into()],
                gstin: Some("32AABCM1234F1Z5".into()),
                state: Some("Kerala (32)".into()),
                phone: Some("+91 495 276 5432".into()),
                email: Some("accounts@malabarsoft.in".into()),
                bank_name: Some("State Bank of India, Kozhikode Main".into()),
                bank_account: Some("38291047561".into()),
                bank_ifsc: Some("SBIN0000857".into()),
                upi_id: Some("malabarsoft@sbi".into()),
                terms: Some("Payment by NEFT, RTGS, UPI or cheque in favour of the account above. Please quote the document number with the payment.".into()),
                footer: Some("This is a computer-generated document.".into()),
                accent_color: "#1f4e79".into(),
                logo: Some(Logo { mime: "image/png", bytes: include_bytes!("test_logo.png").to_vec() }),
            },
            recipient: Party {
                name: "Vadakara Service Co-operative Bank Ltd No. 1234".into(),
                address_lines: vec!["Main Road, Vadakara".into(), "Kozhikode District".into()],
                gstin: Some("32AAAAV1234B1Z9".into()),
                state: Some("Kerala (32)".into()),
                phone: None,
                email: Some("vscb@example.in".into()),
            },
            place_of_supply: "Kerala (32)".into(),
            intra_state: true,
            lines: (0..lines)
                .map(|i| LineView { sno: i + 1, ..base[i % 3].clone() })
                .collect(),
            subtotal: "1,00,000.00".into(),
            cgst: "9,000.00".into(),
            sgst: "9,000.00".into(),
            igst: "0.00".into(),
            round_off: None,
            total: "₹1,18,000.00".into(),
            total_in_words: "Rupees One Lakh Eighteen Thousand Only".into(),
            notes: Some("Thank you for your business.".into()),
            terms: Some("Payment within 15 days. Interest at 18% a year on payments made late.".into()),
        }
    }

    fn pages_and_text(pdf: &[u8]) -> (usize, String) {
        let doc = lopdf::Document::load_mem(pdf).expect("the PDF parses");
        let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
        let text = doc.extract_text(&pages).expect("text extracts");
        (pages.len(), text)
    }

    /// Text with all runs of white space made one space.
    fn squash(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn a_tax_invoice_renders_with_an_extractable_text_layer() {
        let pdf = document_pdf(&sample(3)).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        assert!(pdf.len() < 100 * 1024, "one page is {} bytes", pdf.len());
        let (pages, text) = pages_and_text(&pdf);
        let text = squash(&text);
        assert_eq!(pages, 1);
        for expected in [
            "TAX INVOICE",
            "INV/26-27-0001",
            "₹1,18,000.00",
            "Rupees One Lakh Eighteen Thousand Only",
            "Place of supply: Kerala (32)",
            "Malabar Cooperative Software Pvt Ltd",
            "CGST",
            "SGST",
            "998314",
            "Authorised Signatory",
            "Page 1 of 1",
        ] {
            assert!(text.contains(expected), "{expected:?} missing from {text:?}");
        }
        assert!(!text.contains("IGST"));
    }

    #[test]
    fn many_lines_flow_onto_more_pages() {
        let (short, _) = pages_and_text(&document_pdf(&sample(3)).unwrap());
        let (long, text) = pages_and_text(&document_pdf(&sample(60)).unwrap());
        assert!(long > short, "60 lines gave {long} pages");
        let text = squash(&text);
        assert!(text.contains(&format!("Page {long} of {long}")));
        // The header is repeated on every page.
        assert_eq!(text.matches("Taxable value").count(), long + 1, "{text}");
    }

    #[test]
    fn drafts_inter_state_and_cancelled_documents_are_marked() {
        let mut view = sample(3);
        view.doc_no = None;
        view.mark = Some("DRAFT");
        view.intra_state = false;
        view.round_off = Some("-0.40".into());
        view.letterhead.logo = Some(Logo {
            mime: "image/png",
            bytes: b"\x89PNG\r\n\x1a\nnot really".to_vec(),
        });
        let (_, text) = pages_and_text(&document_pdf(&view).unwrap());
        let text = squash(&text);
        for expected in ["DRAFT", "Draft", "IGST", "Round off", "-0.40"] {
            assert!(text.contains(expected), "{expected:?} missing from {text:?}");
        }
        view.mark = Some("CANCELLED");
        let (_, text) = pages_and_text(&document_pdf(&view).unwrap());
        assert!(text.contains("CANCELLED"));
    }

    #[test]
    fn a_logo_that_does_not_decode_is_left_out() {
        let mut view = sample(3);
        // The header of the logo reads, its image data does not.
        let mut png = include_bytes!("test_logo.png").to_vec();
        png[45..80].fill(0xAB);
        view.letterhead.logo = Some(Logo {
            mime: "image/png",
            bytes: png,
        });
        let (_, text) = pages_and_text(&document_pdf(&view).unwrap());
        assert!(squash(&text).contains("₹1,18,000.00"));
        view.letterhead.logo = Some(Logo {
            mime: "image/jpeg",
            bytes: vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 0],
        });
        assert!(document_pdf(&view).is_ok());
    }

    #[test]
    fn a_line_taller_than_a_page_goes_on_over_the_next() {
        let mut view = sample(2);
        view.lines[0].description = "A very long description of the work done. ".repeat(200);
        let (pages, text) = pages_and_text(&document_pdf(&view).unwrap());
        assert!(pages >= 3, "{pages} pages");
        assert!(squash(&text).contains("Rupees One Lakh Eighteen Thousand Only"));
    }

    fn receipt(lh: &Letterhead) -> Result<Vec<u8>, crate::http::error::AppError> {
        use crate::payments::receipt::{ReceiptView, SettledRow};
        receipt_pdf(&ReceiptView {
            letterhead: lh.clone(),
            receipt_no: "RCT/26-27-0007".into(),
            date: "25 Nov 2026".into(),
            received_from: crate::documents::view::Party {
                name: "Vadakara Service Co-operative Bank Ltd".into(),
                ..Default::default()
            },
            mode: "NEFT/RTGS".into(),
            reference: Some("SBIN126330012345".into()),
            amount: "₹1,18,000.00".into(),
            amount_in_words: "Rupees One Lakh Eighteen Thousand Only".into(),
            settled: vec![SettledRow {
                doc_no: "INV/26-27-0001".into(),
                doc_date: "22 Nov 2026".into(),
                amount: "1,08,000.00".into(),
                tds: "10,000.00".into(),
            }],
            tds: Some("₹10,000.00".into()),
            advance: None,
            notes: None,
        })
    }

    #[test]
    fn a_receipt_acknowledges_the_money_and_notes_the_tds() {
        let (pages, text) = pages_and_text(&receipt(&sample(1).letterhead).unwrap());
        let text = squash(&text);
        assert_eq!(pages, 1);
        for expected in [
            "RECEIPT",
            "RCT/26-27-0007",
            "₹1,18,000.00",
            "INV/26-27-0001",
            "Authorised Signatory",
        ] {
            assert!(text.contains(expected), "{expected:?} missing from {text:?}");
        }
    }

    #[test]
    fn text_wraps_at_spaces_and_inside_long_words() {
        let style = Style::regular(10.0);
        let lines = style.wrap("one two three four five six seven", style.width("one two three"));
        assert_eq!(lines, ["one two three", "four five six", "seven"]);
        let lines = style.wrap("abcdefghij", style.width("abcd"));
        assert_eq!(lines.concat(), "abcdefghij");
        assert!(lines.iter().all(|l| style.width(l) <= style.width("abcd")));
        assert_eq!(style.wrap("a\n\nb", 100.0), ["a", "", "b"]);
        assert!(Style::bold(10.0).width("₹") > 0.0);
        assert_eq!(Color::hex("#1f4e79", Color::BLACK), Color(0x1f, 0x4e, 0x79));
        assert_eq!(Color::hex("blue", Color::BLACK), Color::BLACK);
    }
}
