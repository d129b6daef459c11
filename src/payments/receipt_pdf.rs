//! A payment receipt on the shared layout layer: letterhead, RECEIPT, number and date, who paid,
//! the amount in figures and words, what it settled with the TDS noted, the advance held, and
//! the signature.

use crate::company::letterhead_pdf;
use crate::payments::receipt::ReceiptView;
use crate::plumbing::error::AppError;
use crate::plumbing::pdf::layout::{self, Align, CONTENT_W, Column, MARGIN, MM, PAGE_W, TOP};
use crate::plumbing::pdf::{Flow, Style, Writer};

pub fn receipt_pdf(v: &ReceiptView) -> Result<Vec<u8>, AppError> {
    let lh = &v.letterhead;
    let accent = letterhead_pdf::accent(lh);
    let mut w = Writer::new();
    w.set_title(&format!("Receipt {}", v.receipt_no));
    let page = w.new_page();
    let y = letterhead_pdf::letterhead(page, lh, TOP) + 8.0 * MM;
    let title = if v.cancelled.is_some() {
        "RECEIPT (CANCELLED)"
    } else {
        "RECEIPT"
    };
    page.text_center(PAGE_W / 2.0, y, Style::bold(15.0).color(accent), title);
    let numbers = [("Receipt No.", v.receipt_no.clone()), ("Date", v.date.clone())];
    let right = layout::label_values(
        page,
        MARGIN + CONTENT_W - 70.0 * MM,
        y + 8.0 * MM,
        25.0 * MM,
        70.0 * MM,
        &numbers,
    );
    let mut from = vec![("Received from", v.received_from.name.clone())];
    from.extend(v.received_from.address_lines.iter().map(|l| ("", l.clone())));
    if let Some(g) = &v.received_from.gstin {
        from.push(("GSTIN", g.clone()));
    }
    let mut paid_by = vec![("Mode", v.mode.clone())];
    if let Some(r) = &v.reference {
        paid_by.push(("Reference", r.clone()));
    }
    let refs: Vec<(&str, String)> = from.into_iter().chain(paid_by).collect();
    let left = layout::label_values(
        page,
        MARGIN,
        y + 8.0 * MM,
        30.0 * MM,
        CONTENT_W - 75.0 * MM,
        &refs,
    );
    let y = left.max(right) + 6.0 * MM;
    page.text(
        MARGIN,
        y,
        Style::bold(12.0),
        &format!("Amount received: {}", v.amount),
    );
    let y = page.wrapped(
        MARGIN,
        y + 6.0 * MM,
        CONTENT_W,
        Style::regular(9.0),
        &v.amount_in_words,
    );
    let mut flow = Flow::new(w, y + 4.0 * MM, |_| TOP);
    if !v.settled.is_empty() {
        let columns = [
            Column::new("Against invoice", 0.0, Align::Left),
            Column::new("Dated", 70.0, Align::Left),
            Column::new("Amount settled", 90.0, Align::Right),
            Column::new("TDS noted", 80.0, Align::Right),
        ];
        let rows = v.settled.iter().map(|r| {
            vec![
                r.doc_no.clone(),
                r.doc_date.clone(),
                r.amount.clone(),
                r.tds.clone(),
            ]
        });
        layout::table(&mut flow, &columns, rows, accent);
    }
    let mut notes = vec![];
    if let Some(c) = &v.cancelled {
        notes.push(format!(
            "{c}. This receipt acknowledges no payment and settles no invoice."
        ));
    }
    if let Some(t) = &v.tds {
        notes.push(format!(
            "TDS of {t} deducted by the payer is noted against the invoices above; it settles them once deposited with the government."
        ));
    }
    if let Some(a) = &v.advance {
        notes.push(format!(
            "{a} is held as an advance and will be adjusted against future invoices."
        ));
    }
    if let Some(r) = &v.refunded {
        notes.push(format!("{r} of the advance was refunded to the payer."));
    }
    if let Some(n) = &v.notes {
        notes.push(n.clone());
    }
    notes.push("This receipt is an acknowledgment of payment and carries no GST.".into());
    flow.y += 4.0 * MM;
    for n in &notes {
        flow.paragraph(MARGIN, CONTENT_W, Style::regular(9.0), n);
        flow.y += 1.5 * MM;
    }
    flow.ensure(36.0 * MM);
    let y = flow.y + 6.0 * MM;
    layout::signature(flow.page(), &lh.trade_name, y);
    let footer = format!("RECEIPT {}", v.receipt_no);
    flow.writer
        .finish(|page, n, of| layout::page_footer(page, &footer, n, of))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::company::letterhead::Letterhead;
    use crate::documents::pdf::tests::{pages_and_text, squash};
    use crate::payments::receipt::SettledRow;

    fn receipt(lh: &Letterhead) -> Result<Vec<u8>, AppError> {
        receipt_pdf(&view(lh))
    }

    fn view(lh: &Letterhead) -> ReceiptView {
        ReceiptView {
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
            refunded: None,
            notes: None,
            cancelled: None,
        }
    }

    #[test]
    fn a_receipt_acknowledges_the_money_and_notes_the_tds() {
        let (pages, text) =
            pages_and_text(&receipt(&crate::documents::pdf::tests::sample(1).letterhead).unwrap());
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
    fn a_cancelled_receipt_says_so_with_its_reason() {
        let mut v = view(&crate::documents::pdf::tests::sample(1).letterhead);
        v.settled.clear();
        v.tds = None;
        v.cancelled = Some("Cancelled on 24 Nov 2026: entered twice".into());
        let (_, text) = pages_and_text(&receipt_pdf(&v).unwrap());
        let text = squash(&text);
        for expected in [
            "RECEIPT (CANCELLED)",
            "RCT/26-27-0007",
            "Cancelled on 24 Nov 2026: entered twice",
        ] {
            assert!(
                text.contains(&squash(expected)),
                "{expected:?} missing from {text:?}"
            );
        }
    }
}
