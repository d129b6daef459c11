//! The A4 layout of a quotation, proforma, GST tax invoice or credit note, and the response that
//! serves a PDF.

use crate::company::letterhead_pdf;
use crate::documents::view::{self, DocumentView, UpiView};
use crate::plumbing::error::AppError;
use crate::plumbing::pdf::layout::{
    self, Align, CONTENT_W, Color, Column, Flow, MARGIN, MM, PAGE_W, Page, Style, TOP, Writer,
};
use crate::plumbing::qr::Qr;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The columns of the lines table: CGST and SGST within a state, IGST across states; the
/// description takes what the others leave.
fn columns(intra_state: bool) -> Vec<Column> {
    let mut cols = vec![
        Column::new("S.No", 26.0, Align::Center),
        Column::new("Description", 0.0, Align::Left),
        Column::new("SAC", 38.0, Align::Center),
        Column::new("Qty", 28.0, Align::Right),
        Column::new("Rate", 54.0, Align::Right),
        Column::new("Taxable value", 58.0, Align::Right),
        Column::new("GST %", 30.0, Align::Right),
    ];
    if intra_state {
        cols.push(Column::new("CGST", 50.0, Align::Right));
        cols.push(Column::new("SGST", 50.0, Align::Right));
    } else {
        cols.push(Column::new("IGST", 56.0, Align::Right));
    }
    cols.push(Column::new("Total", 62.0, Align::Right));
    cols
}

fn cells(view: &DocumentView, line: &crate::documents::view::LineView) -> Vec<String> {
    let mut cells = vec![
        line.sno.to_string(),
        line.description.clone(),
        line.sac.clone(),
        line.qty.clone(),
        line.rate.clone(),
        line.taxable.clone(),
        line.gst_rate.clone(),
    ];
    if view.intra_state {
        cells.push(line.cgst.clone());
        cells.push(line.sgst.clone());
    } else {
        cells.push(line.igst.clone());
    }
    cells.push(line.total.clone());
    cells
}

/// "Invoice No." and the like.
fn number_label(title: &str) -> &'static str {
    match title {
        "TAX INVOICE" => "Invoice No.",
        "PROFORMA INVOICE" => "Proforma No.",
        "QUOTATION" => "Quotation No.",
        "CREDIT NOTE" => "Credit Note No.",
        _ => "Number",
    }
}

/// The number as printed: "Draft" until one is given.
fn number(view: &DocumentView) -> &str {
    view.doc_no.as_deref().unwrap_or("Draft")
}

/// The A4 PDF of a business document (see `docs/pdf.md`).
pub fn document_pdf(view: &DocumentView) -> Result<Vec<u8>, AppError> {
    let accent = letterhead_pdf::accent(&view.letterhead);
    let mut writer = Writer::new();
    writer.set_title(&format!("{} {}", view.title, number(view)));
    let page = writer.new_page();
    let y = letterhead_pdf::letterhead(page, &view.letterhead, TOP);

    // The title, and the mark beside it.
    let title = Style::bold(15.0).color(accent);
    let y = y + 8.0 * MM;
    page.text_center(PAGE_W / 2.0, y, title, view.title);
    if let Some(mark) = view.mark {
        page.text_right(MARGIN + CONTENT_W, y, Style::bold(12.0).color(Color::RED), mark);
    }
    let y = parties(page, view, y + 5.0 * MM);

    let trade_name = view.letterhead.trade_name.clone();
    let heading = format!("{} {} (continued)", view.title, number(view));
    let mut flow = Flow::new(writer, y + 5.0 * MM, move |page: &mut Page| {
        page.text(MARGIN, TOP + 10.0, Style::bold(10.0).color(accent), &trade_name);
        page.text_right(MARGIN + CONTENT_W, TOP + 10.0, Style::bold(10.0), &heading);
        page.hrule(MARGIN, TOP + 16.0, CONTENT_W, 1.0, accent);
        TOP + 16.0 + 5.0 * MM
    });

    let rows = view.lines.iter().map(|line| cells(view, line));
    layout::table(&mut flow, &columns(view.intra_state), rows, accent);
    totals(&mut flow, view, accent);
    tail(&mut flow, view);

    let footer = format!("{} {}", view.title, number(view));
    flow.writer.finish(|page, n, of| {
        if let Some(mark) = view.mark {
            page.watermark(mark, Color::RED);
        }
        layout::page_footer(page, &footer, n, of);
    })
}

/// The recipient ("Bill to", place of supply) at the left and the document's particulars at
/// the right, boxed, from `top`; returns the bottom of the box.
fn parties(page: &mut Page, view: &DocumentView, top: f32) -> f32 {
    let left_w = CONTENT_W * 0.56;
    let label = Style::bold(7.5).color(Color::GREY);
    let body = Style::regular(8.5);
    let x = MARGIN + 2.0 * MM;
    let width = left_w - 4.0 * MM;
    page.text(x, top + 4.0 * MM, label, "BILL TO");
    let r = &view.recipient;
    let mut y = page.wrapped(x, top + 4.0 * MM + 12.0, width, Style::bold(10.0), &r.name);
    for line in &r.address_lines {
        y = page.wrapped(x, y, width, body, line);
    }
    let extra = [
        r.gstin.as_ref().map(|g| format!("GSTIN: {g}")),
        r.state.as_ref().map(|s| format!("State: {s}")),
        r.phone.as_ref().map(|p| format!("Phone: {p}")),
        r.email.as_ref().map(|e| format!("Email: {e}")),
    ];
    for line in extra.iter().flatten() {
        y = page.wrapped(x, y, width, body, line);
    }
    y = page.wrapped(
        x,
        y + 3.0,
        width,
        Style::bold(8.5),
        &format!("Place of supply: {}", view.place_of_supply),
    );
    let left_bottom = y - body.leading() + 4.0 * MM;

    // The particulars: label and value, the value in bold.
    let due_label = if view.title == "QUOTATION" {
        "Valid until"
    } else {
        "Due date"
    };
    let rows: Vec<(&str, String)> = [
        Some((number_label(view.title), number(view).to_string())),
        view.doc_date.clone().map(|d| ("Date", d)),
        view.due_date.clone().map(|d| (due_label, d)),
        view.reference.clone().map(|r| ("Reference", r)),
    ]
    .into_iter()
    .flatten()
    .collect();
    let rx = MARGIN + left_w + 2.0 * MM;
    let y = layout::label_values(
        page,
        rx,
        top + 4.0 * MM + 2.0,
        28.0 * MM,
        MARGIN + CONTENT_W - 2.0 * MM - rx,
        &rows,
    );
    let right_bottom = match &view.upi {
        Some(upi) => upi_code(
            page,
            upi,
            rx,
            y - body.leading() + 6.0,
            MARGIN + CONTENT_W - 2.0 * MM,
        ),
        None => y - body.leading(),
    } + 4.0 * MM;

    let bottom = left_bottom.max(right_bottom);
    page.rect(
        MARGIN,
        top,
        CONTENT_W,
        bottom - top,
        None,
        Some((Color::RULE, 0.6)),
    );
    page.line(
        (MARGIN + left_w, top),
        (MARGIN + left_w, bottom),
        0.6,
        Color::RULE,
    );
    bottom
}

/// The UPI code of a bill that is owed from `top`, ending at `right`, its caption from `x`;
/// returns the bottom.
fn upi_code(page: &mut Page, upi: &UpiView, x: f32, top: f32, right: f32) -> f32 {
    let Some(qr) = Qr::encode(&upi.uri) else {
        return top;
    };
    let size = 26.0 * MM;
    page.qr(&qr, right - size, top, size);
    let width = right - size - 2.0 * MM - x;
    let label = Style::bold(7.5).color(Color::GREY);
    let mut cy = page.wrapped(x, top + 4.0 * MM, width, label, "SCAN TO PAY BY UPI");
    cy = page.wrapped(x, cy + 2.0, width, Style::bold(10.0), &upi.amount);
    if let Some(tds) = &upi.less_tds {
        cy = page.wrapped(x, cy, width, Style::regular(7.5), &format!("after TDS of {tds}"));
    }
    cy = page.wrapped(x, cy, width, Style::regular(7.5), "with any UPI app");
    (top + size).max(cy)
}

/// The tax totals at the right, the amount in words at the left.
fn totals(flow: &mut Flow, view: &DocumentView, accent: Color) {
    let mut rows: Vec<(&str, &str)> = vec![("Taxable value", &view.subtotal)];
    if view.intra_state {
        rows.push(("CGST", &view.cgst));
        rows.push(("SGST", &view.sgst));
    } else {
        rows.push(("IGST", &view.igst));
    }
    if let Some(r) = &view.round_off {
        rows.push(("Round off", r));
    }
    let body = Style::regular(8.5);
    let total = Style::bold(11.0);
    let words_w = CONTENT_W - 85.0 * MM - 6.0 * MM;
    let in_words = Style::bold(9.0);
    let words = in_words.wrap(&view.total_in_words, words_w);
    let height = (rows.len() as f32 * body.leading() + total.leading() + 8.0)
        .max(12.0 + words.len() as f32 * in_words.leading())
        + 4.0 * MM;
    flow.ensure(height);
    let top = flow.y + 3.0 * MM;
    let page = flow.page();

    let label_x = MARGIN + CONTENT_W - 85.0 * MM;
    let right = MARGIN + CONTENT_W - layout::PAD;
    let mut y = top + body.size;
    for (name, value) in &rows {
        page.text(label_x, y, body, name);
        page.text_right(right, y, body, value);
        y += body.leading();
    }
    page.hrule(
        label_x,
        y - body.size + 2.0,
        MARGIN + CONTENT_W - label_x,
        0.8,
        accent,
    );
    y += total.size - body.size + 4.0;
    page.text(label_x, y, total, "Total");
    page.text_right(
        right,
        y,
        total.fit(&view.total, right - label_x - 40.0),
        &view.total,
    );
    let totals_bottom = y + 4.0;
    page.hrule(label_x, totals_bottom, MARGIN + CONTENT_W - label_x, 0.8, accent);

    page.text(
        MARGIN,
        top + 7.5,
        Style::bold(7.5).color(Color::GREY),
        "Amount in words:",
    );
    let mut wy = top + 7.5 + 12.0;
    for line in &words {
        page.text(MARGIN, wy, in_words, line);
        wy += in_words.leading();
    }
    flow.y = totals_bottom.max(wy) + 4.0 * MM;
}

/// Notes, bank details with the signature, terms and the letterhead's footer.
fn tail(flow: &mut Flow, view: &DocumentView) {
    let lh = &view.letterhead;
    let label = Style::bold(7.5).color(Color::GREY);
    let body = Style::regular(8.5);
    if let Some(notes) = &view.notes {
        flow.ensure(label.leading() + body.leading());
        let y = flow.y + label.size;
        flow.page().text(MARGIN, y, label, "NOTES");
        flow.y += label.leading() + 1.0;
        flow.paragraph(MARGIN, CONTENT_W, body, notes);
        flow.y += 3.0 * MM;
    }

    let bank = [
        lh.bank_name.as_ref().map(|b| format!("Bank: {b}")),
        lh.bank_account.as_ref().map(|a| format!("Account No.: {a}")),
        lh.bank_ifsc.as_ref().map(|i| format!("IFSC: {i}")),
        lh.upi_id.as_ref().map(|u| format!("UPI: {u}")),
    ];
    let bank: Vec<&String> = bank.iter().flatten().collect();
    let band = (label.leading() + bank.len() as f32 * body.leading()).max(60.0);
    flow.ensure(band);
    let top = flow.y;
    let page = flow.page();
    let mut y = top + label.size;
    if !bank.is_empty() {
        page.text(MARGIN, y, label, "BANK DETAILS");
        y += label.leading() + 1.0;
        for line in &bank {
            y = page.wrapped(MARGIN, y, CONTENT_W * 0.55, body, line);
        }
    }
    let sig_bottom = layout::signature(page, &lh.trade_name, top);
    flow.y = (y - body.leading()).max(sig_bottom) + 4.0 * MM;

    if let Some(terms) = &view.terms {
        let small = Style::regular(7.5);
        flow.ensure(label.leading() + small.leading());
        let y = flow.y + label.size;
        flow.page().text(MARGIN, y, label, "TERMS AND CONDITIONS");
        flow.y += label.leading() + 1.0;
        flow.paragraph(MARGIN, CONTENT_W, small, terms);
        flow.y += 3.0 * MM;
    }
    if let Some(footer) = &lh.footer {
        let small = Style::regular(7.5).color(Color::GREY);
        for line in small.wrap(footer, CONTENT_W) {
            flow.ensure(small.leading());
            let y = flow.y + small.size;
            flow.page().text_center(PAGE_W / 2.0, y, small, &line);
            flow.y += small.leading();
        }
    }
}

/// A document's PDF: inline, or as an attachment named from its number (decisions 5).
pub fn pdf_response(bytes: Vec<u8>, doc_no: Option<&str>, download: bool) -> Response {
    let name = view::pdf_file_name(doc_no);
    let disposition = format!(
        "{}; filename=\"{name}\"",
        if download { "attachment" } else { "inline" }
    );
    (
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "private, no-store".to_string()),
        ],
        bytes,
    )
        .into_response()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::company::letterhead::Logo;
    pub(crate) use crate::documents::pdf_samples::{pages_and_text, sample, squash};
    use crate::documents::view::DocumentView;

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
        let mut png = include_bytes!("../plumbing/pdf/test_logo.png").to_vec();
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

    /// The invoice of `sample` to a society that writes in Malayalam: its name, its address, two
    /// lines and the notes typed in Malayalam (a zero width non-joiner in സോഫ്റ്റ്‌വെയർ).
    pub(crate) fn sample_malayalam() -> DocumentView {
        let mut view = sample(3);
        view.recipient.name = "കുമ്മിൾ സർവീസ് സഹകരണ ബാങ്ക് ലിമിറ്റഡ് നമ്പർ 1234".into();
        view.recipient.address_lines = vec!["മെയിൻ റോഡ്, കുമ്മിൾ".into(), "കൊല്ലം ജില്ല".into()];
        view.lines[0].description = "സോഫ്റ്റ്‌വെയർ വാർഷിക പരിപാലനം, ഏപ്രിൽ 2026 മുതൽ മാർച്ച് 2027 വരെ".into();
        view.lines[1].description = "പഴയ സിസ്റ്റത്തിൽ നിന്നുള്ള ഡാറ്റ മാറ്റം (data migration)".into();
        view.notes = Some("നിങ്ങളുടെ സഹകരണത്തിന് നന്ദി.".into());
        view
    }

    /// What poppler's pdftotext extracts (ActualText honoured).
    fn pdftotext(pdf: &[u8]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.pdf");
        std::fs::write(&input, pdf).unwrap();
        let out = std::process::Command::new("pdftotext")
            .arg(&input)
            .arg("-")
            .output()
            .expect("pdftotext (poppler-utils; tests/run.sh installs it)");
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    }

    /// Every span of text marked with its ActualText, with the names of the glyphs drawn in it
    /// (read from the subset font embedded: its `post` table keeps the names of the original).
    fn marked_glyphs(pdf: &[u8]) -> Vec<(String, Vec<String>)> {
        use lopdf::{Object, content::Content};
        let doc = lopdf::Document::load_mem(pdf).unwrap();
        let text = |o: &Object| match o.as_str().unwrap() {
            [0xFE, 0xFF, rest @ ..] => String::from_utf16(
                &rest
                    .chunks(2)
                    .map(|c| u16::from_be_bytes([c[0], c[1]]))
                    .collect::<Vec<_>>(),
            )
            .unwrap(),
            ascii => String::from_utf8(ascii.to_vec()).unwrap(),
        };
        let mut spans = Vec::new();
        for (_, page) in doc.get_pages() {
            let fonts = doc.get_page_fonts(page).unwrap();
            let font_file = |name: &[u8]| -> Vec<u8> {
                let type0 = fonts[name];
                let descendant = type0.get(b"DescendantFonts").unwrap().as_array().unwrap()[0]
                    .as_reference()
                    .unwrap();
                let cid = doc.get_dictionary(descendant).unwrap();
                let descriptor = doc
                    .get_dictionary(cid.get(b"FontDescriptor").unwrap().as_reference().unwrap())
                    .unwrap();
                let file = descriptor.get(b"FontFile2").unwrap().as_reference().unwrap();
                doc.get_object(file)
                    .unwrap()
                    .as_stream()
                    .unwrap()
                    .decompressed_content()
                    .unwrap()
            };
            let content = Content::decode(&doc.get_page_content(page)).unwrap();
            let (mut font, mut span): (Vec<u8>, Option<(String, Vec<String>)>) = (vec![], None);
            for op in content.operations {
                match op.operator.as_str() {
                    "Tf" => font = op.operands[0].as_name().unwrap().to_vec(),
                    "BDC" => {
                        let actual = op.operands[1].as_dict().unwrap().get(b"ActualText").unwrap();
                        span = Some((text(actual), vec![]));
                    }
                    "EMC" => spans.extend(span.take()),
                    "TJ" if span.is_some() => {
                        let data = font_file(&font);
                        let face = ttf_parser::Face::parse(&data, 0).unwrap();
                        let names = &mut span.as_mut().unwrap().1;
                        for item in op.operands[0].as_array().unwrap() {
                            if let Ok(codes) = item.as_str() {
                                for code in codes.chunks(2) {
                                    let gid = ttf_parser::GlyphId(u16::from_be_bytes([code[0], code[1]]));
                                    names.push(face.glyph_name(gid).unwrap_or("?").to_string());
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        spans
    }

    #[test]
    fn a_malayalam_invoice_reads_back_as_typed_and_as_the_rendering_looked_at() {
        let pdf = document_pdf(&sample_malayalam()).unwrap();
        let text = squash(&pdftotext(&pdf));
        for typed in [
            "കുമ്മിൾ സർവീസ് സഹകരണ ബാങ്ക് ലിമിറ്റഡ് നമ്പർ 1234",
            "മെയിൻ റോഡ്, കുമ്മിൾ",
            "കൊല്ലം ജില്ല",
            "സോഫ്റ്റ്‌വെയർ വാർഷിക",
            "പഴയ സിസ്റ്റത്തിൽ",
            "നിങ്ങളുടെ സഹകരണത്തിന് നന്ദി.",
        ] {
            assert!(text.contains(typed), "{typed:?} missing from {text:?}");
        }
        // The conjunct ക്ക of ബാങ്ക് is not there, but ങ്ക is: one glyph, not three.
        let glyphs = marked_glyphs(&pdf);
        let bank = glyphs.iter().find(|(t, _)| t == "ബാങ്ക്").expect("ബാങ്ക് is marked");
        assert!(bank.1.len() < "ബാങ്ക്".chars().count(), "{bank:?}");
        assert!(
            glyphs
                .iter()
                .all(|(_, names)| !names.iter().any(|n| n == ".notdef"))
        );

        // The fixture is this invoice as rendered and looked at (pdftoppm, at 100 dpi): the same
        // text layer and the same glyphs, word by word. After a change looked at again, run with
        // UPDATE_FIXTURES=1 to keep the new rendering.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/documents/fixtures/malayalam-invoice.pdf"
        );
        if std::env::var_os("UPDATE_FIXTURES").is_some() {
            std::fs::write(path, &pdf).unwrap();
        }
        let fixture = std::fs::read(path).unwrap();
        assert_eq!(pdftotext(&pdf), pdftotext(&fixture));
        assert_eq!(glyphs, marked_glyphs(&fixture));
    }
}
