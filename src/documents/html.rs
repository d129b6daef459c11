//! HTML renderings of a document (askama templates in `templates/`): the fragment the console
//! previews, the public share page around it, and the body of a document email. Every value
//! from the database is escaped by the templates.

use crate::company::letterhead::Letterhead;
use crate::documents::pricing::PricedLine;
use crate::documents::store::{Document, Line};
use crate::documents::view::{self, DocumentView, Party};
use crate::error::AppError;
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

/// The public share page: the document and a button to its PDF.
pub fn share_page(view: &DocumentView, pdf_href: &str) -> Result<String, AppError> {
    rendered(
        SharePage {
            view,
            body: fragment(view)?,
            pdf_href,
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
