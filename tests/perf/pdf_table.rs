//! The in-process PDF table: `backoffice::documents::pdf::document_pdf` on one-page tax invoices
//! (English, with its UPI code, in Malayalam) and a five-page one, without the server.

use std::time::{Duration, Instant};

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

/// A GST tax invoice with a logo and `lines` lines (descriptions of one to four printed lines).
fn pdf_view(lines: usize) -> backoffice::documents::view::DocumentView {
    use backoffice::company::letterhead::{Letterhead, Logo};
    use backoffice::documents::view::{DocumentView, LineView, Party};
    let descriptions = [
        "Annual maintenance of the society accounting software, April 2026 to March 2027",
        "Data migration from the old system",
        "Training for staff (two days, on site)",
    ];
    let text = |s: &str| Some(s.to_string());
    DocumentView {
        title: "TAX INVOICE",
        doc_no: text("INV/26-27-0001"),
        doc_date: text("22 Nov 2026"),
        due_date: text("07 Dec 2026"),
        letterhead: Letterhead {
            trade_name: "Malabar Cooperative Software Pvt Ltd".into(),
            address_lines: vec![
                "2nd Floor, Civil Station Road".into(),
                "Kozhikode, Kerala 673020".into(),
            ],
            gstin: text("32AABCM1234F1Z5"),
            state: text("Kerala (32)"),
            phone: text("+91 495 276 5432"),
            email: text("accounts@malabarsoft.in"),
            bank_name: text("State Bank of India"),
            bank_account: text("38291047561"),
            bank_ifsc: text("SBIN0000857"),
            upi_id: text("malabarsoft@sbi"),
            terms: None,
            footer: text("This is a computer-generated document."),
            accent_color: "#1f4e79".into(),
            logo: Some(Logo {
                mime: "image/png",
                bytes: include_bytes!("../../src/plumbing/pdf/test_logo.png").to_vec(),
            }),
        },
        recipient: Party {
            name: "Vadakara Service Co-operative Bank Ltd".into(),
            address_lines: vec!["Main Road, Vadakara".into(), "Kozhikode District".into()],
            gstin: text("32AAAAV1234B1Z9"),
            state: text("Kerala (32)"),
            ..Default::default()
        },
        place_of_supply: "Kerala (32)".into(),
        intra_state: true,
        lines: (0..lines)
            .map(|i| LineView {
                sno: i + 1,
                description: descriptions[i % 3].into(),
                sac: "998314".into(),
                qty: "1".into(),
                rate: "33,333.33".into(),
                taxable: "33,333.33".into(),
                gst_rate: "18%".into(),
                cgst: "3,000.00".into(),
                sgst: "3,000.00".into(),
                igst: "0.00".into(),
                total: "39,333.33".into(),
            })
            .collect(),
        subtotal: "1,00,000.00".into(),
        cgst: "9,000.00".into(),
        sgst: "9,000.00".into(),
        total: "₹1,18,000.00".into(),
        total_in_words: "Rupees One Lakh Eighteen Thousand Only".into(),
        notes: text("Thank you for your business."),
        terms: text("Payment within 15 days. Interest at 18% a year on payments made late."),
        ..Default::default()
    }
}

/// PDF rendering in-process: `backoffice::documents::pdf::document_pdf` 200 times on a one-page and on a
/// five-page invoice; returns the markdown table.
pub fn pdf_section() -> String {
    let mut out = String::from(
        "## PDF rendering\n\n`backoffice::documents::pdf::document_pdf` on one thread, 200 renders each after a first one, timed \
         apart (first ms; in the first row it is also the process's first render, which parses the \
         embedded fonts and decodes the logo).\n\n\
         | document | lines | pages | size KB | first ms | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (name, lines, pages, upi, malayalam) in [
        ("tax invoice, one page", 3, 1, false, false),
        ("tax invoice with its UPI code, one page", 3, 1, true, false),
        ("tax invoice in Malayalam, one page", 3, 1, false, true),
        ("tax invoice, five pages", 80, 5, false, false),
    ] {
        let mut view = pdf_view(lines);
        if malayalam {
            // The same invoice to a society that writes in Malayalam: its name, its address and
            // the lines (Noto Sans Malayalam, shaped, beside DejaVu Sans).
            view.recipient.name = "കുമ്മിൾ സർവീസ് സഹകരണ ബാങ്ക് ലിമിറ്റഡ് നമ്പർ 1234".into();
            view.recipient.address_lines = vec!["മെയിൻ റോഡ്, കുമ്മിൾ".into(), "കൊല്ലം ജില്ല".into()];
            let descriptions = [
                "സോഫ്റ്റ്‌വെയർ വാർഷിക പരിപാലനം, ഏപ്രിൽ 2026 മുതൽ മാർച്ച് 2027 വരെ",
                "പഴയ സിസ്റ്റത്തിൽ നിന്നുള്ള ഡാറ്റ മാറ്റം",
                "ജീവനക്കാർക്കുള്ള പരിശീലനം (രണ്ട് ദിവസം)",
            ];
            for (line, description) in view.lines.iter_mut().zip(descriptions) {
                line.description = description.into();
            }
        }
        if upi {
            let uri = backoffice::documents::upi::uri(
                "malabarsoft@sbi",
                "Malabar Soft",
                10_800_000,
                "INV/26-27-0001",
            );
            view.upi = Some(backoffice::documents::view::UpiView {
                uri,
                amount: "₹1,08,000.00".into(),
                less_tds: Some("₹10,000.00".into()),
            });
        }
        let t = Instant::now();
        let pdf = backoffice::documents::pdf::document_pdf(&view).unwrap();
        let first = t.elapsed();
        let found = pdf
            .windows(12)
            .filter(|w| w.starts_with(b"/Type /Page") && w[11] != b's')
            .count();
        assert_eq!(found, pages, "{name}: {lines} lines gave {found} pages");
        let mut times: Vec<Duration> = (0..200)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(backoffice::documents::pdf::document_pdf(&view).unwrap());
                t.elapsed()
            })
            .collect();
        times.sort();
        out.push_str(&format!(
            "| {name} | {lines} | {pages} | {:.1} | {} | {} | {} |\n",
            pdf.len() as f64 / 1024.0,
            ms(first),
            ms(times[times.len() / 2]),
            ms(times[times.len() * 99 / 100]),
        ));
    }
    out
}
