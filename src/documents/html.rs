//! HTML renderings of a document (askama templates in `templates/`): the fragment the console
//! previews, the public share page around it, and the body of a document email. Every value
//! from the database is escaped by the templates.

use crate::company::letterhead::Letterhead;
use crate::documents::pricing::PricedLine;
use crate::documents::store::{Document, Line};
use crate::documents::view::{self, DocumentView, Party};
use crate::plumbing::error::AppError;
use crate::plumbing::qr::{self, Qr};
use askama::Template;
use base64::Engine;

#[derive(Template)]
#[template(path = "document.html")]
struct Fragment<'a> {
    view: &'a DocumentView,
    logo_src: Option<String>,
}

#[derive(Template)]
#[template(path = "share.html")]
struct SharePage<'a> {
    view: &'a DocumentView,
    body: String,
    pdf_href: &'a str,
    /// The UPI link as a QR code (SVG), when the bill is owed.
    upi_qr: Option<String>,
}

#[derive(Template)]
#[template(path = "email.html")]
struct EmailBody<'a> {
    paragraphs: Vec<&'a str>,
    view: Option<&'a DocumentView>,
    link: Option<&'a str>,
    sender: &'a str,
    footer: Option<&'a str>,
}

fn rendered(result: askama::Result<String>) -> Result<String, AppError> {
    result.map_err(AppError::internal)
}

/// The document as an HTML fragment (an `<article class="doc-sheet">`).
pub fn fragment(view: &DocumentView) -> Result<String, AppError> {
    let logo_src = view.letterhead.logo.as_ref().map(|logo| {
        format!(
            "data:{};base64,{}",
            logo.mime,
            base64::engine::general_purpose::STANDARD.encode(&logo.bytes)
        )
    });
    rendered(Fragment { view, logo_src }.render())
}

/// The public share page: the document, a button to its PDF and, when the bill is owed, its
/// UPI code with a link a phone opens in its UPI app.
pub fn share_page(view: &DocumentView, pdf_href: &str) -> Result<String, AppError> {
    let upi_qr = view
        .upi
        .as_ref()
        .and_then(|u| Qr::encode(&u.uri))
        .map(|qr| qr::svg(&qr, "upi-qr", "UPI payment code"));
    rendered(
        SharePage {
            view,
            body: fragment(view)?,
            pdf_href,
            upi_qr,
        }
        .render(),
    )
}

/// An email's HTML and plain-text bodies: the message (paragraphs split on blank lines), a
/// summary of the document when there is one, the link, and the sender's name.
pub fn email(
    message: &str,
    view: Option<&DocumentView>,
    link: Option<&str>,
    letterhead: &Letterhead,
) -> Result<(String, String), AppError> {
    let paragraphs: Vec<&str> = message
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let html = rendered(
        EmailBody {
            paragraphs: paragraphs.clone(),
            view,
            link,
            sender: &letterhead.trade_name,
            footer: letterhead.footer.as_deref(),
        }
        .render(),
    )?;
    let mut text = paragraphs.join("\n\n");
    if let Some(v) = view {
        text.push_str(&format!(
            "\n\n{} {}\nAmount: {}",
            v.title,
            v.doc_no.as_deref().unwrap_or("Draft"),
            v.total
        ));
        if let Some(due) = &v.due_date {
            text.push_str(&format!("\nDue date: {due}"));
        }
        if let Some(upi) = &v.upi {
            text.push_str(&format!("\nPay {} by UPI: {}", upi.amount, upi.uri));
        }
    }
    if let Some(url) = link {
        text.push_str(&format!("\n\nView it online: {url}"));
    }
    text.push_str(&format!("\n\nRegards,\n{}\n", letterhead.trade_name));
    Ok((html, text))
}

/// The greeting of a document email when the sender wrote none.
pub fn default_message(view: &DocumentView) -> String {
    format!(
        "Dear Sir/Madam,\n\nPlease find attached our {} {} for {}.",
        view.title.to_lowercase(),
        view.doc_no.as_deref().unwrap_or("(draft)"),
        view.total
    )
}

/// A made-up invoice on the given letterhead, for the template editor's preview.
pub fn sample(letterhead: Letterhead) -> DocumentView {
    let line = |description: &str, qty: i64, unit_price: i64| {
        let tax = crate::documents::rules::line_tax(qty, unit_price, 18, true);
        Line {
            id: String::new(),
            position: 0,
            priced: PricedLine {
                module_id: None,
                description: description.into(),
                sac: Some("998314".into()),
                qty,
                unit_price,
                explicit_price: Some(unit_price),
                gst_rate: 18,
                price_source: "override".into(),
                taxable: tax.taxable,
                cgst: tax.cgst,
                sgst: tax.sgst,
                igst: tax.igst,
                total: tax.total(),
            },
        }
    };
    let lines = vec![
        line("Co-operative banking software: annual licence", 1, 7_500_000),
        line("Data migration and training (days)", 2, 1_250_000),
    ];
    let sum = |f: fn(&Line) -> i64| lines.iter().map(f).sum::<i64>();
    let doc = Document {
        doc_type: "INVOICE".into(),
        status: "issued".into(),
        doc_no: Some("INV/26-27-0001".into()),
        doc_date: Some("2026-11-22".into()),
        due_date: Some("2026-12-07".into()),
        intra_state: true,
        subtotal: sum(|l| l.priced.taxable),
        cgst: sum(|l| l.priced.cgst),
        sgst: sum(|l| l.priced.sgst),
        total: sum(|l| l.priced.total),
        lines,
        ..Document::default()
    };
    let recipient = Party {
        name: "KADAKKAL SERVICE CO-OPERATIVE BANK LTD NO 1234".into(),
        address_lines: vec!["Main Road, Kadakkal".into(), "Kollam District".into()],
        gstin: Some("32AAAAK1234A1ZV".into()),
        state: Some("Kerala (32)".into()),
        phone: None,
        email: None,
    };
    view::assemble(&doc, letterhead, recipient, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::view::UpiView;

    /// A bill that is owed names its UPI amount and link in both bodies of its email; one that is
    /// not names none.
    #[test]
    fn an_owed_bill_email_carries_its_upi_link() {
        let mut view = sample(Letterhead::default());
        let uri = "upi://pay?pa=softland%40okaxis&pn=Softland&am=108000.00&cu=INR&tn=INV%2F26-27-0001";
        view.upi = Some(UpiView {
            uri: uri.into(),
            amount: "₹1,08,000.00".into(),
            less_tds: None,
        });
        let (html, text) = email("Dear Sir/Madam,", Some(&view), None, &view.letterhead).unwrap();
        assert!(
            text.contains(&format!("\nPay ₹1,08,000.00 by UPI: {uri}\n")),
            "{text}"
        );
        assert!(
            html.replace("&#38;", "&")
                .contains(&format!(r#"<a href="{uri}">₹1,08,000.00 with a UPI app</a>"#)),
            "{html}"
        );
        view.upi = None;
        let (html, text) = email("Dear Sir/Madam,", Some(&view), None, &view.letterhead).unwrap();
        assert!(!text.contains("UPI") && !html.contains("UPI"));
    }
}
