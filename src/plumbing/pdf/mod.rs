//! The PDF drawing layer, written with pdf-writer: DejaVu Sans (regular and bold, for ₹) and
//! Noto Sans Malayalam (regular and bold, shaped with rustybuzz) embedded in the binary, each
//! PDF carrying the subset of glyphs it uses (subsetter), every stream deflated.
//! A one-page invoice is about 30 KB and takes a few milliseconds (docs/pdf.md).
//!
//! [`layout`] is the reusable part (pages, text, wrapping, rules, tables flowing over pages, the
//! signature and page footer). It names no business area: the areas lay out their own papers
//! with it (`documents::pdf` for quotations and invoices, `payments::receipt_pdf` for receipts,
//! `company::letterhead_pdf` for the letterhead on top of both), each a function of this shape:
//!
//! ```ignore
//! let mut w = Writer::new();
//! let page = w.new_page();
//! let y = letterhead_pdf::letterhead(page, &letterhead, layout::TOP) + 8.0 * MM;
//! page.text_center(layout::PAGE_W / 2.0, y, Style::bold(15.0), "RECEIPT");
//! let y = layout::label_values(page, x, y + 20.0, 70.0, 200.0, &[("Receipt No.", no)]);
//! // ... page.text / text_right / wrapped; a Flow and layout::table for what it settled ...
//! layout::signature(page, &letterhead.trade_name, y);
//! w.finish(|page, n, of| layout::page_footer(page, "RECEIPT RCT/26-27-0007", n, of))
//! ```
//! `payments::receipt_pdf` draws one in full.

pub mod fonts;
mod image;
pub mod layout;
mod write;

pub use fonts::Face;
pub use image::Image;
pub use layout::{Color, Flow, Page, Style, Writer};

#[cfg(test)]
mod tests {
    use super::*;

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
