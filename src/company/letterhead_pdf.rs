//! The letterhead drawn on a PDF page: the logo, the trade name in the accent colour, address,
//! GSTIN and state, phone and email, and an accent rule under it all. Documents and receipts
//! start their first page with it.

use crate::company::letterhead::Letterhead;
use crate::plumbing::pdf::layout::{CONTENT_W, MARGIN, MM};
use crate::plumbing::pdf::{Color, Image, Page, Style};

/// The logo of a letterhead as a PDF image; None (and a warning) when it cannot be read.
pub fn logo_image(letterhead: &Letterhead) -> Option<Image> {
    let logo = letterhead.logo.as_ref()?;
    Image::cached(logo.mime, &logo.bytes)
        .map_err(|e| tracing::warn!("the letterhead logo cannot be read, left out: {e}"))
        .ok()
}

/// Draws the letterhead across the top of `page` from `top`: the logo (at most 25 mm tall) at the
/// left, then the trade name in the accent colour, address, GSTIN and state, phone and email,
/// and an accent rule under it all. Returns the y below the rule.
pub fn letterhead(page: &mut Page, letterhead: &Letterhead, top: f32) -> f32 {
    let accent = accent(letterhead);
    let mut x = MARGIN;
    let mut logo_bottom = top;
    if let Some(image) = logo_image(letterhead) {
        let (w, h) = image.size();
        if w > 0 && h > 0 {
            let max_h = 25.0 * MM;
            let max_w = 50.0 * MM;
            let scale = (max_h / h as f32).min(max_w / w as f32);
            let (dw, dh) = (w as f32 * scale, h as f32 * scale);
            page.image(&image, MARGIN, top, dw, dh);
            x += dw + 4.0 * MM;
            logo_bottom = top + dh;
        }
    }
    let width = MARGIN + CONTENT_W - x;
    let name = Style::bold(16.0).color(accent);
    let mut y = page.wrapped(x, top + 14.0, width, name, &letterhead.trade_name) - name.leading() + 4.0;
    let small = Style::regular(8.5);
    y += small.leading();
    for line in &letterhead.address_lines {
        y = page.wrapped(x, y, width, small, line);
    }
    let joined = |parts: &[Option<String>]| parts.iter().flatten().cloned().collect::<Vec<_>>().join("  ·  ");
    let tax = joined(&[
        letterhead.gstin.as_ref().map(|g| format!("GSTIN: {g}")),
        letterhead.state.as_ref().map(|s| format!("State: {s}")),
    ]);
    let contact = joined(&[
        letterhead.phone.as_ref().map(|p| format!("Phone: {p}")),
        letterhead.email.as_ref().map(|e| format!("Email: {e}")),
    ]);
    for line in [tax, contact] {
        if !line.is_empty() {
            y = page.wrapped(x, y, width, small, &line);
        }
    }
    let rule = (y - small.leading() + 6.0).max(logo_bottom + 4.0);
    page.hrule(MARGIN, rule, CONTENT_W, 1.5, accent);
    rule + 1.5
}

/// The accent colour of a letterhead.
pub fn accent(letterhead: &Letterhead) -> Color {
    Color::hex(&letterhead.accent_color, Color(0x1f, 0x4e, 0x79))
}
