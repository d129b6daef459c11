//! The statement of account on the letterhead: the client and period, the opening balance, a
//! row per entry with its running balance, the closing balance, the aging and the open invoices,
//! and the UPI code for the closing balance when something is owed.

use crate::company::letterhead::Letterhead;
use crate::company::letterhead_pdf;
use crate::documents::view::long_date;
use crate::plumbing::error::AppError;
use crate::plumbing::money;
use crate::plumbing::pdf::layout::{self, Align, CONTENT_W, Column, MARGIN, MM, PAGE_W, TOP};
use crate::plumbing::pdf::{Color, Flow, Style, Writer};
use crate::plumbing::qr::Qr;
use crate::statements::Statement;

/// "₹1,000.00", or "₹1,000.00 in advance" for what the client has paid ahead.
fn balance(paise: i64) -> String {
    if paise < 0 {
        format!("{} in advance", money::rupees(-paise))
    } else {
        money::rupees(paise)
    }
}

/// A cell amount, blank for nothing.
fn cell(paise: i64) -> String {
    if paise == 0 {
        String::new()
    } else {
        money::amount(paise)
    }
}

pub fn statement_pdf(s: &Statement, lh: &Letterhead) -> Result<Vec<u8>, AppError> {
    let accent = letterhead_pdf::accent(lh);
    let period = format!("{} to {}", long_date(&s.from), long_date(&s.to));
    let mut w = Writer::new();
    w.set_title(&format!("Statement of account {} {period}", s.client_name));
    let page = w.new_page();
    let y = letterhead_pdf::letterhead(page, lh, TOP) + 8.0 * MM;
    page.text_center(
        PAGE_W / 2.0,
        y,
        Style::bold(15.0).color(accent),
        "STATEMENT OF ACCOUNT",
    );
    let right = layout::label_values(
        page,
        MARGIN + CONTENT_W - 80.0 * MM,
        y + 8.0 * MM,
        30.0 * MM,
        80.0 * MM,
        &[
            ("Period", period.clone()),
            ("Opening balance", balance(s.opening)),
            ("Closing balance", balance(s.closing)),
        ],
    );
    let left = layout::label_values(
        page,
        MARGIN,
        y + 8.0 * MM,
        22.0 * MM,
        CONTENT_W - 85.0 * MM,
        &[("Client", s.client_name.clone())],
    );
    let mut flow = Flow::new(w, left.max(right) + 6.0 * MM, |_| TOP);
    let columns = [
        Column::new("Date", 60.0, Align::Left),
        Column::new("Particulars", 0.0, Align::Left),
        Column::new("Debit", 75.0, Align::Right),
        Column::new("Credit", 75.0, Align::Right),
        Column::new("Balance", 80.0, Align::Right),
    ];
    let opening = vec![
        long_date(&s.from),
        "Opening balance".into(),
        String::new(),
        String::new(),
        money::amount(s.opening),
    ];
    let rows = s.rows.iter().map(|r| {
        vec![
            long_date(&r.date),
            format!("{} {}", r.kind.label(), r.reference),
            cell(r.debit),
            cell(r.credit),
            money::amount(r.balance),
        ]
    });
    let closing = vec![
        long_date(&s.to),
        "Closing balance".into(),
        money::amount(s.totals.debit),
        money::amount(s.totals.credit),
        money::amount(s.closing),
    ];
    layout::table(
        &mut flow,
        &columns,
        std::iter::once(opening).chain(rows).chain([closing]),
        accent,
    );
    flow.y += 4.0 * MM;
    if !s.open_invoices.is_empty() {
        flow.ensure(30.0 * MM);
        let a = &s.aging;
        let aging = format!(
            "Open on {}: 0-30 days {}; 31-60 days {}; 61-90 days {}; over 90 days {}.",
            long_date(&s.to),
            money::rupees(a.upto_30),
            money::rupees(a.upto_60),
            money::rupees(a.upto_90),
            money::rupees(a.over_90)
        );
        flow.paragraph(MARGIN, CONTENT_W, Style::bold(9.0), &aging);
        flow.y += 2.0 * MM;
        let columns = [
            Column::new("Open invoice", 0.0, Align::Left),
            Column::new("Dated", 70.0, Align::Left),
            Column::new("Due", 70.0, Align::Left),
            Column::new("Outstanding", 90.0, Align::Right),
        ];
        let rows = s.open_invoices.iter().map(|i| {
            vec![
                i.doc_no.clone(),
                long_date(&i.doc_date),
                long_date(&i.due_date),
                money::amount(i.outstanding),
            ]
        });
        layout::table(&mut flow, &columns, rows, accent);
        flow.y += 4.0 * MM;
    }
    if let Some(qr) = s.upi.as_ref().and_then(|u| Qr::encode(&u.uri)) {
        let size = 30.0 * MM;
        flow.ensure(size + 4.0 * MM);
        let top = flow.y;
        let page = flow.page();
        page.qr(&qr, MARGIN, top, size);
        let x = MARGIN + size + 4.0 * MM;
        let label = Style::bold(7.5).color(Color::GREY);
        let y = page.wrapped(x, top + 6.0 * MM, CONTENT_W - size, label, "SCAN TO PAY BY UPI");
        page.wrapped(
            x,
            y + 2.0,
            CONTENT_W - size,
            Style::bold(11.0),
            &money::rupees(s.closing),
        );
        flow.y = top + size + 4.0 * MM;
    }
    let footer = format!("STATEMENT {} {period}", s.client_name);
    flow.writer
        .finish(|page, n, of| layout::page_footer(page, &footer, n, of))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::pdf::tests::{pages_and_text, sample, squash};
    use crate::statements::rules::{Aging, Kind, Row, Totals};
    use crate::statements::store::OpenInvoice;

    /// Ten years of a large client: a monthly invoice and its payment with TDS.
    fn long_statement() -> Statement {
        let mut rows = vec![];
        let mut balance = 0;
        for month in 0..120 {
            let date = format!("{}-{:02}-10", 2016 + month / 12, month % 12 + 1);
            for (kind, debit, credit) in [
                (Kind::Invoice, 1_180_000, 0),
                (Kind::Payment, 0, 1_080_000),
                (Kind::Tds, 0, 100_000),
            ] {
                balance += debit - credit;
                rows.push(Row {
                    date: date.clone(),
                    kind,
                    document_id: None,
                    payment_id: None,
                    reference: format!("INV/{month:04}"),
                    debit,
                    credit,
                    balance,
                });
            }
        }
        Statement {
            client_id: "c1".into(),
            client_name: "Vadakara Service Co-operative Bank Ltd".into(),
            from: "2016-01-01".into(),
            to: "2025-12-31".into(),
            opening: 0,
            closing: balance,
            totals: Totals {
                debit: 120 * 1_180_000,
                credit: 120 * 1_180_000,
            },
            rows,
            aging: Aging::default(),
            open_invoices: vec![OpenInvoice {
                document_id: "d1".into(),
                doc_no: "INV/0119".into(),
                doc_date: "2025-12-10".into(),
                due_date: "2026-01-09".into(),
                outstanding: 0,
            }],
            upi: None,
        }
    }

    #[test]
    fn a_long_statement_flows_over_pages_to_its_closing() {
        let pdf = statement_pdf(&long_statement(), &sample(1).letterhead).unwrap();
        let (pages, text) = pages_and_text(&pdf);
        let text = squash(&text);
        assert!(pages >= 8, "{pages} pages");
        for expected in [
            "STATEMENT OF ACCOUNT",
            "01 Jan 2016 to 31 Dec 2025",
            "Opening balance",
            "INV/0119",
            "Closing balance",
            &format!("Page {pages} of {pages}"),
        ] {
            assert!(text.contains(&squash(expected)), "{expected:?} missing");
        }
    }
}
