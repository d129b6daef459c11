//! A QR code as its dark runs, so that every renderer draws the same thing: the PDF fills them
//! as rectangles (`pdf::layout::Page::qr`), the share page writes them as one SVG path
//! ([`svg`]). The `qrcode` crate makes the matrix (error correction M: a printed or screen code
//! still reads with a fold or a glare); the quiet zone of four modules is left to the renderers.

use qrcode::{Color, EcLevel, QrCode};

/// Light modules on every side, as ISO/IEC 18004 asks.
pub const QUIET_ZONE: usize = 4;

/// A horizontal run of dark modules, in modules from the top-left of the symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    pub x: usize,
    pub y: usize,
    pub len: usize,
}

#[derive(Debug, Clone)]
pub struct Qr {
    /// Modules on a side, without the quiet zone.
    pub width: usize,
    pub runs: Vec<Run>,
}

impl Qr {
    /// `text` as a QR code; None when it is too long for one (about 2,300 characters at M).
    pub fn encode(text: &str) -> Option<Qr> {
        let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
        let width = code.width();
        let colors = code.to_colors();
        let mut runs = Vec::new();
        for (y, row) in colors.chunks(width).enumerate() {
            let mut x = 0;
            while x < width {
                if row[x] == Color::Dark {
                    let len = row[x..].iter().take_while(|c| **c == Color::Dark).count();
                    runs.push(Run { x, y, len });
                    x += len;
                } else {
                    x += 1;
                }
            }
        }
        Some(Qr { width, runs })
    }

    /// Modules on a side with the quiet zone on both sides.
    pub fn size_with_quiet_zone(&self) -> usize {
        self.width + 2 * QUIET_ZONE
    }
}

/// The code as an SVG element scaled by CSS (`class`), one module = one user unit, black on
/// white: no style attribute or script, so it stands under the console's strict CSP.
pub fn svg(qr: &Qr, class: &str, label: &'static str) -> String {
    let side = qr.size_with_quiet_zone();
    let mut path = String::with_capacity(qr.runs.len() * 16);
    for r in &qr.runs {
        use std::fmt::Write;
        let _ = write!(
            path,
            "M{} {}h{}v1h-{}z",
            r.x + QUIET_ZONE,
            r.y + QUIET_ZONE,
            r.len,
            r.len
        );
    }
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="{class}" viewBox="0 0 {side} {side}" role="img" aria-label="{label}" shape-rendering="crispEdges"><rect width="{side}" height="{side}" fill="#fff"/><path fill="#000" d="{path}"/></svg>"##
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs read back into the matrix they came from, and the matrix decodes (rqrr) to the
    /// exact text.
    #[test]
    fn runs_decode_back_to_the_text() {
        let text = "upi://pay?pa=malabarsoft%40sbi&pn=Malabar%20Soft&am=6998.00&cu=INR&tn=INV%2F26-27%2F0001";
        let qr = Qr::encode(text).unwrap();
        let scale = 4;
        let side = qr.size_with_quiet_zone() * scale;
        let mut dark = vec![false; side * side];
        for r in &qr.runs {
            for x in r.x..r.x + r.len {
                for dy in 0..scale {
                    for dx in 0..scale {
                        let px = (x + QUIET_ZONE) * scale + dx;
                        let py = (r.y + QUIET_ZONE) * scale + dy;
                        dark[py * side + px] = true;
                    }
                }
            }
        }
        let mut img =
            rqrr::PreparedImage::prepare_from_greyscale(
                side,
                side,
                |x, y| {
                    if dark[y * side + x] { 0 } else { 255 }
                },
            );
        let grids = img.detect_grids();
        assert_eq!(grids.len(), 1);
        assert_eq!(grids[0].decode().unwrap().1, text);
    }

    #[test]
    fn svg_has_one_path_and_no_style() {
        let qr = Qr::encode("hello").unwrap();
        let svg = svg(&qr, "upi-qr", "UPI payment code");
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
        assert_eq!(svg.matches("<path").count(), 1);
        assert!(!svg.contains("style"));
        assert!(svg.contains(r#"class="upi-qr""#) && svg.contains(r#"aria-label="UPI payment code""#));
        let side = qr.size_with_quiet_zone();
        assert!(svg.contains(&format!(r#"viewBox="0 0 {side} {side}""#)));
    }
}
