//! A small drawing layer over krilla: pages are first laid out as lists of drawing operations
//! (so that "Page n of m" can be known when they are written), with two embedded faces of
//! DejaVu Sans (which carries ₹), measured text, word wrapping and the letterhead.
//!
//! Coordinates are PDF points (1/72 inch) from the top-left corner of an A4 page; `y` of a
//! text is its baseline. krilla subsets the fonts to the glyphs used and deflates every stream.

use crate::company::template::Letterhead;
use crate::http::error::AppError;
use krilla::color::rgb;
use krilla::error::KrillaError;
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::image::Image;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::{Document, SerializeSettings};
use skrifa::MetadataProvider;
use skrifa::instance::{LocationRef, Size as FontSize};
use std::sync::LazyLock;

/// One millimetre in points.
pub const MM: f32 = 72.0 / 25.4;
/// A4 portrait, in points.
pub const PAGE_W: f32 = 595.276;
pub const PAGE_H: f32 = 841.89;
/// The left and right margin.
pub const MARGIN: f32 = 15.0 * MM;
/// The printable width between the margins.
pub const CONTENT_W: f32 = PAGE_W - 2.0 * MARGIN;

/// An RGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    pub const BLACK: Color = Color(0, 0, 0);
    pub const WHITE: Color = Color(255, 255, 255);
    /// Labels and small print.
    pub const GREY: Color = Color(96, 96, 96);
    /// Rules between table rows.
    pub const RULE: Color = Color(200, 200, 200);
    pub const RED: Color = Color(192, 0, 0);

    /// `#rrggbb`; `fallback` when the text is not such a colour.
    pub fn hex(text: &str, fallback: Color) -> Color {
        let t = text.trim().trim_start_matches('#');
        let byte = |i: usize| t.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (t.len(), byte(0), byte(2), byte(4)) {
            (6, Some(r), Some(g), Some(b)) => Color(r, g, b),
            _ => fallback,
        }
    }

    /// This colour mixed with white: 0.0 is the colour, 1.0 white.
    pub fn lighten(self, amount: f32) -> Color {
        let mix = |c: u8| (c as f32 + (255.0 - c as f32) * amount).round() as u8;
        Color(mix(self.0), mix(self.1), mix(self.2))
    }

    fn paint(self) -> rgb::Color {
        rgb::Color::new(self.0, self.1, self.2)
    }
}

/// The two embedded faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    Regular,
    Bold,
}

/// A face with what measuring and drawing it needs, parsed once.
struct LoadedFace {
    font: Font,
    charmap: skrifa::charmap::Charmap<'static>,
    metrics: skrifa::metrics::GlyphMetrics<'static>,
}

impl LoadedFace {
    fn load(bytes: &'static [u8]) -> LoadedFace {
        let font_ref = skrifa::FontRef::new(bytes).expect("the embedded DejaVu font parses");
        LoadedFace {
            font: Font::new(bytes.into(), 0).expect("the embedded DejaVu font loads"),
            charmap: font_ref.charmap(),
            // Size 1: advances come out in ems, as krilla's glyphs want them.
            metrics: font_ref.glyph_metrics(FontSize::new(1.0), LocationRef::default()),
        }
    }

    /// The glyph and advance (in ems) of a character; .notdef for what the font lacks.
    fn glyph(&self, c: char) -> (skrifa::GlyphId, f32) {
        let id = self.charmap.map(c).unwrap_or(skrifa::GlyphId::NOTDEF);
        (id, self.metrics.advance_width(id).unwrap_or(0.0))
    }
}

static REGULAR: LazyLock<LoadedFace> = LazyLock::new(|| LoadedFace::load(dejavu::sans::regular()));
static BOLD: LazyLock<LoadedFace> = LazyLock::new(|| LoadedFace::load(dejavu::sans::bold()));

impl Face {
    fn loaded(self) -> &'static LoadedFace {
        match self {
            Face::Regular => &REGULAR,
            Face::Bold => &BOLD,
        }
    }
}

/// How a piece of text looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    pub face: Face,
    pub size: f32,
    pub color: Color,
}

impl Style {
    pub fn regular(size: f32) -> Style {
        Style {
            face: Face::Regular,
            size,
            color: Color::BLACK,
        }
    }

    pub fn bold(size: f32) -> Style {
        Style {
            face: Face::Bold,
            ..Style::regular(size)
        }
    }

    pub fn color(self, color: Color) -> Style {
        Style { color, ..self }
    }

    pub fn size(self, size: f32) -> Style {
        Style { size, ..self }
    }

    /// The distance between two baselines of wrapped text.
    pub fn leading(&self) -> f32 {
        self.size * 1.25
    }

    /// The width of `text` in points.
    pub fn width(&self, text: &str) -> f32 {
        let face = self.face.loaded();
        text.chars().map(|c| face.glyph(c).1).sum::<f32>() * self.size
    }

    /// This style, made smaller if needed so that `text` fits in `width`.
    pub fn fit(self, text: &str, width: f32) -> Style {
        let w = self.width(text);
        if w > width && w > 0.0 {
            self.size(self.size * width / w)
        } else {
            self
        }
    }

    /// `text` broken into lines at most `width` wide: at spaces, inside words only when a word
    /// alone is too wide; every newline starts a line (empty lines are kept).
    pub fn wrap(&self, text: &str, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for paragraph in text.lines() {
            let mut line = String::new();
            for word in paragraph.split_whitespace() {
                let candidate = if line.is_empty() {
                    word.to_string()
                } else {
                    format!("{line} {word}")
                };
                if self.width(&candidate) <= width {
                    line = candidate;
                    continue;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                // A word wider than the line is cut where it must be.
                for c in word.chars() {
                    line.push(c);
                    if self.width(&line) > width && line.chars().count() > 1 {
                        line.pop();
                        lines.push(std::mem::replace(&mut line, c.to_string()));
                    }
                }
            }
            lines.push(line);
        }
        if lines.is_empty() {
            lines.push(String::new());
        }
        lines
    }
}

enum Op {
    Text {
        x: f32,
        y: f32,
        style: Style,
        text: String,
    },
    Line {
        from: (f32, f32),
        to: (f32, f32),
        width: f32,
        color: Color,
    },
    Rect {
        rect: Rect,
        fill: Option<Color>,
        stroke: Option<(Color, f32)>,
    },
    Image {
        image: Image,
        x: f32,
        y: f32,
        size: Size,
    },
    Watermark {
        text: String,
        color: Color,
    },
}

/// One page being laid out.
#[derive(Default)]
pub struct Page {
    ops: Vec<Op>,
}

impl Page {
    /// Draws `text` with its baseline at `y`, starting at `x`; returns its width.
    pub fn text(&mut self, x: f32, y: f32, style: Style, text: &str) -> f32 {
        let width = style.width(text);
        if !text.is_empty() {
            self.ops.push(Op::Text {
                x,
                y,
                style,
                text: text.to_string(),
            });
        }
        width
    }

    /// Draws `text` so that it ends at `right`.
    pub fn text_right(&mut self, right: f32, y: f32, style: Style, text: &str) {
        self.text(right - style.width(text), y, style, text);
    }

    /// Draws `text` centred on `center`.
    pub fn text_center(&mut self, center: f32, y: f32, style: Style, text: &str) {
        self.text(center - style.width(text) / 2.0, y, style, text);
    }

    /// Draws `text` wrapped to `width`, the first baseline at `y`; returns the baseline after
    /// the last line (where the next line would go).
    pub fn wrapped(&mut self, x: f32, y: f32, width: f32, style: Style, text: &str) -> f32 {
        let mut y = y;
        for line in style.wrap(text, width) {
            self.text(x, y, style, &line);
            y += style.leading();
        }
        y
    }

    /// A straight line.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, color: Color) {
        self.ops.push(Op::Line {
            from,
            to,
            width,
            color,
        });
    }

    /// A horizontal rule from `x` over `width` at `y`.
    pub fn hrule(&mut self, x: f32, y: f32, width: f32, thickness: f32, color: Color) {
        self.line((x, y), (x + width, y), thickness, color);
    }

    /// A rectangle, filled and/or outlined (colour, line width); `y` is its top.
    pub fn rect(
        &mut self,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Option<Color>,
        stroke: Option<(Color, f32)>,
    ) {
        if let Some(rect) = Rect::from_xywh(x, y, w, h) {
            self.ops.push(Op::Rect { rect, fill, stroke });
        }
    }

    /// An image scaled to `w` × `h`, its top-left corner at (`x`, `y`).
    pub fn image(&mut self, image: &Image, x: f32, y: f32, w: f32, h: f32) {
        if let Some(size) = Size::from_wh(w, h) {
            self.ops.push(Op::Image {
                image: image.clone(),
                x,
                y,
                size,
            });
        }
    }

    /// Large, light, diagonal text across the page (DRAFT, CANCELLED), drawn over everything.
    pub fn watermark(&mut self, text: &str, color: Color) {
        self.ops.push(Op::Watermark {
            text: text.to_string(),
            color,
        });
    }

    fn render(&self, surface: &mut Surface, images: bool) {
        for op in &self.ops {
            match op {
                Op::Text { x, y, style, text } => draw_text(surface, *x, *y, *style, text, 1.0),
                Op::Line {
                    from,
                    to,
                    width,
                    color,
                } => {
                    let mut pb = PathBuilder::new();
                    pb.move_to(from.0, from.1);
                    pb.line_to(to.0, to.1);
                    if let Some(path) = pb.finish() {
                        surface.set_fill(None);
                        surface.set_stroke(Some(Stroke {
                            paint: color.paint().into(),
                            width: *width,
                            ..Default::default()
                        }));
                        surface.draw_path(&path);
                        surface.set_stroke(None);
                    }
                }
                Op::Rect { rect, fill, stroke } => {
                    let mut pb = PathBuilder::new();
                    pb.push_rect(*rect);
                    if let Some(path) = pb.finish() {
                        surface.set_fill(fill.map(|c| Fill {
                            paint: c.paint().into(),
                            ..Default::default()
                        }));
                        surface.set_stroke(stroke.map(|(c, width)| Stroke {
                            paint: c.paint().into(),
                            width,
                            ..Default::default()
                        }));
                        surface.draw_path(&path);
                        surface.set_stroke(None);
                    }
                }
                Op::Image { .. } if !images => {}
                Op::Image { image, x, y, size } => {
                    surface.push_transform(&Transform::from_translate(*x, *y));
                    surface.draw_image(image.clone(), *size);
                    surface.pop();
                }
                Op::Watermark { text, color } => {
                    let style = Style::bold(1.0).color(*color);
                    // As large as fits along the diagonal, at most 110 pt.
                    let diagonal = (PAGE_W * PAGE_W + PAGE_H * PAGE_H).sqrt();
                    let size = (diagonal * 0.6 / style.width(text).max(0.01)).min(110.0);
                    let style = style.size(size);
                    let angle = -(PAGE_H / PAGE_W).atan().to_degrees();
                    surface.push_transform(&Transform::from_rotate_at(angle, PAGE_W / 2.0, PAGE_H / 2.0));
                    let x = PAGE_W / 2.0 - style.width(text) / 2.0;
                    draw_text(surface, x, PAGE_H / 2.0 + size * 0.35, style, text, 0.18);
                    surface.pop();
                }
            }
        }
    }
}

fn draw_text(surface: &mut Surface, x: f32, y: f32, style: Style, text: &str, opacity: f32) {
    let face = style.face.loaded();
    let glyphs: Vec<KrillaGlyph> = text
        .char_indices()
        .map(|(i, c)| {
            let (id, advance) = face.glyph(c);
            KrillaGlyph::new(
                GlyphId::new(id.to_u32()),
                advance,
                0.0,
                0.0,
                0.0,
                i..i + c.len_utf8(),
                None,
            )
        })
        .collect();
    surface.set_stroke(None);
    surface.set_fill(Some(Fill {
        paint: style.color.paint().into(),
        opacity: NormalizedF32::new(opacity).unwrap_or(NormalizedF32::ONE),
        ..Default::default()
    }));
    surface.draw_glyphs(
        Point::from_xy(x, y),
        &glyphs,
        face.font.clone(),
        text,
        style.size,
        false,
    );
}

/// A PDF being laid out: its pages, then [`Writer::finish`].
#[derive(Default)]
pub struct Writer {
    pages: Vec<Page>,
    title: Option<String>,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    /// The document title readers show (metadata).
    pub fn set_title(&mut self, title: &str) {
        self.title = Some(title.to_string());
    }

    /// Starts a page and returns it.
    pub fn new_page(&mut self) -> &mut Page {
        self.pages.push(Page::default());
        self.pages.last_mut().expect("just pushed")
    }

    /// The page being laid out (a first one is started when there is none).
    pub fn page(&mut self) -> &mut Page {
        if self.pages.is_empty() {
            self.pages.push(Page::default());
        }
        self.pages.last_mut().expect("one page at least")
    }

    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Writes the PDF; `decorate(page, n, of)` draws over each page last (footers, marks), when the
    /// number of pages is known.
    pub fn finish(mut self, mut decorate: impl FnMut(&mut Page, usize, usize)) -> Result<Vec<u8>, AppError> {
        let count = self.pages.len();
        for (i, page) in self.pages.iter_mut().enumerate() {
            decorate(page, i + 1, count);
        }
        match self.write(true) {
            // An image whose header reads but whose data does not decode fails only here.
            Err(KrillaError::Image(_, _, e)) => {
                tracing::warn!("an image of the PDF cannot be read, left out: {e}");
                self.write(false)
            }
            other => other,
        }
        .map_err(|e| AppError::internal(format!("cannot write the PDF: {e}")))
    }

    fn write(&self, images: bool) -> Result<Vec<u8>, KrillaError> {
        let mut document = Document::new_with(SerializeSettings {
            xmp_metadata: false,
            enable_tagging: false,
            ..Default::default()
        });
        if let Some(title) = &self.title {
            document.set_metadata(krilla::metadata::Metadata::new().title(title.clone()));
        }
        let settings = PageSettings::from_wh(PAGE_W, PAGE_H).expect("A4 is a valid size");
        for page in &self.pages {
            let mut pdf_page = document.start_page_with(settings.clone());
            let mut surface = pdf_page.surface();
            page.render(&mut surface, images);
            surface.finish();
            pdf_page.finish();
        }
        document.finish()
    }
}

/// The logo of a letterhead as a PDF image; None (and a warning) when it cannot be read.
pub fn logo_image(letterhead: &Letterhead) -> Option<Image> {
    let logo = letterhead.logo.as_ref()?;
    let data = logo.bytes.clone().into();
    let image = match logo.mime {
        "image/jpeg" => Image::from_jpeg(data, true),
        _ => Image::from_png(data, true),
    };
    image
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

/// Draws "For <trade name>", room to sign, a line and "Authorised Signatory", right-aligned
/// at the right margin from `top`; returns the y below it.
pub fn signature(page: &mut Page, trade_name: &str, top: f32) -> f32 {
    let right = MARGIN + CONTENT_W;
    let width = 62.0 * MM;
    page.text_right(right, top + 9.0, Style::bold(9.0), &format!("For {trade_name}"));
    let line_y = top + 9.0 + 32.0;
    page.hrule(right - width, line_y, width, 0.5, Color::GREY);
    page.text_right(right, line_y + 10.0, Style::regular(8.5), "Authorised Signatory");
    line_y + 14.0
}

/// The standard footer of every page: a thin rule, `left` (e.g. the document number) and
/// "Page n of m".
pub fn page_footer(page: &mut Page, left: &str, n: usize, of: usize) {
    let y = PAGE_H - 10.0 * MM;
    let style = Style::regular(7.5).color(Color::GREY);
    page.hrule(MARGIN, y - 9.0, CONTENT_W, 0.4, Color::RULE);
    page.text(MARGIN, y, style, left);
    page.text_right(MARGIN + CONTENT_W, y, style, &format!("Page {n} of {of}"));
}

/// The top of the content on every page.
pub const TOP: f32 = 12.0 * MM;
/// The lowest baseline content may use (the page footer sits below).
pub const BOTTOM: f32 = PAGE_H - 18.0 * MM;

/// Content flowing down pages: `y` is where the next thing goes; [`Flow::ensure`] starts a
/// page (drawing `continued`, which returns where content resumes) when something would not fit.
pub struct Flow<'a> {
    pub writer: Writer,
    pub y: f32,
    continued: Box<dyn Fn(&mut Page) -> f32 + 'a>,
}

impl<'a> Flow<'a> {
    /// Starts on the writer's current page at `y`.
    pub fn new(writer: Writer, y: f32, continued: impl Fn(&mut Page) -> f32 + 'a) -> Flow<'a> {
        Flow {
            writer,
            y,
            continued: Box::new(continued),
        }
    }

    pub fn page(&mut self) -> &mut Page {
        self.writer.page()
    }

    /// Makes room for `height` more points, on a new page when this one is full; true when a
    /// page was started.
    pub fn ensure(&mut self, height: f32) -> bool {
        if self.y + height <= BOTTOM {
            return false;
        }
        self.break_page();
        true
    }

    /// Starts a new page, with the continuation heading.
    pub fn break_page(&mut self) {
        let page = self.writer.new_page();
        self.y = (self.continued)(page);
    }

    /// A wrapped paragraph over the full width, moving to new pages line by line; `self.y` is the
    /// top of its first line before and the bottom of its last after.
    pub fn paragraph(&mut self, x: f32, width: f32, style: Style, text: &str) {
        for line in style.wrap(text, width) {
            self.ensure(style.leading());
            let baseline = self.y + style.size;
            self.page().text(x, baseline, style, &line);
            self.y += style.leading();
        }
    }
}
