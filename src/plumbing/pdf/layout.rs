//! A small drawing layer for PDFs: pages are first laid out as lists of drawing operations
//! (so that "Page n of m" is known when they are written), with text in two weights (DejaVu
//! Sans, which carries ₹, and Noto Sans Malayalam, chosen per run: `fonts`), measured text,
//! word wrapping, the letterhead, the signature and the page footer. `write` turns the pages
//! into the PDF.
//!
//! Coordinates are PDF points (1/72 inch) from the top-left corner of an A4 page; `y` of a
//! text is its baseline, of a rectangle or image its top.

use super::fonts;
pub use super::fonts::Face;
pub use super::image::Image;

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
        fonts::width(self.face, text) * self.size
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
                // A word wider than the line is cut where it must be, between syllables.
                for piece in fonts::pieces(word) {
                    let len = line.len();
                    line.push_str(piece);
                    if self.width(&line) > width && len > 0 {
                        line.truncate(len);
                        lines.push(std::mem::replace(&mut line, piece.to_string()));
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

pub(super) enum Op {
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
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Option<Color>,
        stroke: Option<(Color, f32)>,
    },
    Image {
        image: Image,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
    },
    /// Many rectangles (x, y top, w, h) filled as one path: a QR code's dark runs.
    Rects {
        rects: Vec<(f32, f32, f32, f32)>,
        color: Color,
    },
    Watermark {
        text: String,
        color: Color,
    },
}

/// One page being laid out.
#[derive(Default)]
pub struct Page {
    pub(super) ops: Vec<Op>,
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
        if w > 0.0 && h > 0.0 {
            self.ops.push(Op::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
            });
        }
    }

    /// An image scaled to `w` × `h`, its top-left corner at (`x`, `y`).
    pub fn image(&mut self, image: &Image, x: f32, y: f32, w: f32, h: f32) {
        if w > 0.0 && h > 0.0 {
            self.ops.push(Op::Image {
                image: image.clone(),
                x,
                y,
                w,
                h,
            });
        }
    }

    /// A QR code `size` points square, its top-left corner at (`x`, `y`), the quiet zone
    /// included: the dark runs filled as one path on white.
    pub fn qr(&mut self, qr: &crate::plumbing::qr::Qr, x: f32, y: f32, size: f32) {
        let module = size / qr.size_with_quiet_zone() as f32;
        let at = |m: usize| (m + crate::plumbing::qr::QUIET_ZONE) as f32 * module;
        self.rect(x, y, size, size, Some(Color::WHITE), None);
        let rects = qr
            .runs
            .iter()
            .map(|r| (x + at(r.x), y + at(r.y), r.len as f32 * module, module))
            .collect();
        self.ops.push(Op::Rects {
            rects,
            color: Color::BLACK,
        });
    }

    /// Large, light, diagonal text across the page (DRAFT, CANCELLED), drawn over everything.
    pub fn watermark(&mut self, text: &str, color: Color) {
        self.ops.push(Op::Watermark {
            text: text.to_string(),
            color,
        });
    }
}

/// A PDF being laid out: its pages, then [`Writer::finish`] (the writer's, which turns them into
/// the PDF).
#[derive(Default)]
pub struct Writer {
    pub(super) pages: Vec<Page>,
    pub(super) title: Option<String>,
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

/// Label and value rows: labels grey at `x`, values bold from `x + label_w`, wrapped to what
/// is left of `width`. `baseline` is the first row's; returns where a next row would go.
pub fn label_values(
    page: &mut Page,
    x: f32,
    baseline: f32,
    label_w: f32,
    width: f32,
    rows: &[(&str, String)],
) -> f32 {
    let label = Style::regular(8.5).color(Color::GREY);
    let value = Style::bold(8.5);
    let mut y = baseline;
    for (name, text) in rows {
        page.text(x, y, label, name);
        y = page.wrapped(x + label_w, y, width - label_w, value, text) + 2.0;
    }
    y
}

/// Padding inside table cells.
pub const PAD: f32 = 3.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// A column of a [`table`].
#[derive(Debug, Clone)]
pub struct Column {
    pub title: &'static str,
    /// In points; 0 for a share of what the other columns leave. Text wraps in such a column
    /// and is made smaller to fit in the others.
    pub width: f32,
    pub align: Align,
}

impl Column {
    pub fn new(title: &'static str, width: f32, align: Align) -> Column {
        Column { title, width, align }
    }
}

/// Draws `text` in a cell from `x` of `width`, aligned, made smaller to fit when needed.
fn cell(page: &mut Page, x: f32, width: f32, baseline: f32, align: Align, style: Style, text: &str) {
    let style = style.fit(text, width - 2.0 * PAD);
    match align {
        Align::Left => {
            page.text(x + PAD, baseline, style, text);
        }
        Align::Center => page.text_center(x + width / 2.0, baseline, style, text),
        Align::Right => page.text_right(x + width - PAD, baseline, style, text),
    }
}

/// The header row of a table at `top`, white on `accent`; returns its bottom.
fn table_header(page: &mut Page, cols: &[Column], accent: Color, top: f32) -> f32 {
    let style = Style::bold(7.5).color(Color::WHITE);
    let titles: Vec<Vec<String>> = cols
        .iter()
        .map(|c| style.wrap(c.title, c.width - 2.0 * PAD))
        .collect();
    let lines = titles.iter().map(Vec::len).max().unwrap_or(1);
    let height = lines as f32 * style.leading() + 2.0 * PAD;
    page.rect(MARGIN, top, CONTENT_W, height, Some(accent), None);
    let mut x = MARGIN;
    for (col, title) in cols.iter().zip(&titles) {
        // Titles sit on the last line, beside the wrapped ones.
        let first = top + PAD + style.size + (lines - title.len()) as f32 * style.leading();
        for (i, line) in title.iter().enumerate() {
            let baseline = first + i as f32 * style.leading();
            cell(page, x, col.width, baseline, col.align, style, line);
        }
        x += col.width;
    }
    top + height
}

/// A table over the full width from `flow.y`, flowing down pages with its header repeated;
/// rows striped with a tint of `accent`. A row stays on one page unless it is taller than a
/// page, when its wrapped text goes on over the next.
pub fn table(
    flow: &mut Flow,
    columns: &[Column],
    rows: impl IntoIterator<Item = Vec<String>>,
    accent: Color,
) {
    let wraps: Vec<bool> = columns.iter().map(|c| c.width <= 0.0).collect();
    let mut cols = columns.to_vec();
    let fixed: f32 = cols.iter().map(|c| c.width).sum();
    let flexible = cols.iter().filter(|c| c.width <= 0.0).count();
    for c in cols.iter_mut().filter(|c| c.width <= 0.0) {
        c.width = ((CONTENT_W - fixed) / flexible as f32).max(20.0);
    }
    let style = Style::regular(8.0);
    let header = |flow: &mut Flow| {
        let top = flow.y;
        flow.y = table_header(flow.page(), &cols, accent, top);
    };
    header(flow);
    for (i, texts) in rows.into_iter().enumerate() {
        // The wrapped columns' lines; None for the others.
        let wrapped: Vec<Option<Vec<String>>> = cols
            .iter()
            .zip(&texts)
            .zip(&wraps)
            .map(|((c, t), wraps)| wraps.then(|| style.wrap(t, c.width - 2.0 * PAD)))
            .collect();
        let lines = wrapped.iter().flatten().map(Vec::len).max().unwrap_or(1).max(1);
        let height = lines as f32 * style.leading() + 2.0 * PAD;
        // A row taller than a page starts where it is.
        if height < BOTTOM - TOP - 100.0 && flow.ensure(height) {
            header(flow);
        }
        let mut done = 0;
        while done < lines {
            let room = ((BOTTOM - flow.y - 2.0 * PAD) / style.leading()).floor().max(0.0) as usize;
            let take = (lines - done).min(room);
            if take == 0 {
                flow.break_page();
                header(flow);
                continue;
            }
            let height = take as f32 * style.leading() + 2.0 * PAD;
            let top = flow.y;
            let page = flow.page();
            if i % 2 == 1 {
                page.rect(MARGIN, top, CONTENT_W, height, Some(accent.lighten(0.94)), None);
            }
            let baseline = top + PAD + style.size;
            let mut x = MARGIN;
            for ((col, text), wrapped) in cols.iter().zip(&texts).zip(&wrapped) {
                match wrapped {
                    Some(parts) => {
                        for (n, part) in parts.iter().skip(done).take(take).enumerate() {
                            let y = baseline + n as f32 * style.leading();
                            cell(page, x, col.width, y, col.align, style, part);
                        }
                    }
                    None if done == 0 => cell(page, x, col.width, baseline, col.align, style, text),
                    None => {}
                }
                x += col.width;
            }
            page.hrule(MARGIN, top + height, CONTENT_W, 0.4, Color::RULE);
            flow.y = top + height;
            done += take;
            if done < lines {
                flow.break_page();
                header(flow);
            }
        }
    }
}
