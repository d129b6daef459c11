//! The sample tax invoice the PDF tests draw (documents, receipts, statements), and how they
//! read a PDF back: its pages and its text.

use crate::company::letterhead::{Letterhead, Logo};
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

pub(crate) fn sample(lines: usize) -> DocumentView {
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
            logo: Some(Logo { mime: "image/png", bytes: include_bytes!("../plumbing/pdf/test_logo.png").to_vec() }),
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
        upi: Some(crate::documents::view::UpiView {
            uri: crate::documents::upi::uri("malabarsoft@sbi", "Malabar Cooperative Software", 10_800_000, "INV/26-27-0001"),
            amount: "₹1,08,000.00".into(),
            less_tds: Some("₹10,000.00".into()),
        }),
    }
}

pub(crate) fn pages_and_text(pdf: &[u8]) -> (usize, String) {
    let doc = lopdf::Document::load_mem(pdf).expect("the PDF parses");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    let text = doc.extract_text(&pages).expect("text extracts");
    (pages.len(), text)
}

/// Text with all runs of white space made one space.
pub(crate) fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
