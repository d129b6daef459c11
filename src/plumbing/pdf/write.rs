//! The PDF itself, with pdf-writer: the fonts (`fonts`) embedded as CID fonts (Identity-H)
//! addressed by glyph, subset to the glyphs used (subsetter), with a ToUnicode map and, around
//! shaped text, its typed text as ActualText, so that text extracts as it was typed; images (PNG
//! decoded, JPEG passed through); every stream deflated.

use super::fonts::{self, Font, Run};
use super::image::{Image, ImageData, deflate};
use super::layout::{Color, Op, PAGE_H, PAGE_W, Page, Style, Writer};
use crate::plumbing::error::AppError;
use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use std::sync::Arc;
use subsetter::GlyphRemapper;

/// The glyphs of one font used so far.
struct FontUse {
    remapper: GlyphRemapper,
    /// Width (thousandths of an em) and text of each new glyph id.
    widths: Vec<f32>,
    text: Vec<Option<String>>,
}

impl FontUse {
    fn new() -> FontUse {
        FontUse {
            remapper: GlyphRemapper::new(),
            widths: vec![0.0],
            text: vec![None],
        }
    }

    /// The subset's code of glyph `n` of `run`, remembering its width and text when it is new.
    fn code(&mut self, font: &Font, run: &Run, n: usize) -> u16 {
        let glyph = run.glyphs[n].id;
        let new = self.remapper.remap(glyph);
        if new as usize == self.widths.len() {
            self.widths.push(font.advance(glyph) * 1000.0);
            self.text.push(Some(if run.shaped {
                fonts::glyph_text(run, n)
            } else {
                run.text[run.glyphs[n].cluster..].chars().take(1).collect()
            }));
        }
        new
    }
}

/// The resource name of a font.
fn resource(font: usize) -> String {
    format!("F{}", font + 1)
}

/// PDF y (from the bottom) of a y from the top.
fn flip(y: f32) -> f32 {
    PAGE_H - y
}

fn fill(content: &mut Content, c: Color) {
    content.set_fill_rgb(c.0 as f32 / 255.0, c.1 as f32 / 255.0, c.2 as f32 / 255.0);
}

fn stroke(content: &mut Content, c: Color, width: f32) {
    content.set_stroke_rgb(c.0 as f32 / 255.0, c.1 as f32 / 255.0, c.2 as f32 / 255.0);
    content.set_line_width(width);
}

/// Shows `text` from (`x`, `y`): a run per font, each glyph where shaping put it (TJ
/// adjustments for advances and offsets other than the font's own, the text rise for vertical
/// offsets), shaped runs marked with the text they stand for.
fn show(content: &mut Content, fonts: &mut [FontUse], x: f32, y: f32, style: Style, text: &str) {
    fill(content, style.color);
    content.begin_text();
    content.set_text_matrix([1.0, 0.0, 0.0, 1.0, x, y]);
    // How far (ems) the pen stands ahead of where the glyphs put it, and the rise now set.
    let (mut ahead, mut rise) = (0.0f32, 0.0f32);
    for run in fonts::runs(style.face, text) {
        let font = fonts::font(run.font);
        content.set_font(Name(resource(run.font).as_bytes()), style.size);
        if run.shaped {
            content
                .begin_marked_content_with_properties(Name(b"Span"))
                .properties()
                .actual_text(TextStr(run.text));
        }
        let mut n = 0;
        while n < run.glyphs.len() {
            if run.glyphs[n].dy != rise {
                rise = run.glyphs[n].dy;
                content.set_rise(rise * style.size);
            }
            let mut show = content.show_positioned();
            let mut items = show.items();
            let mut codes = Vec::new();
            while let Some(glyph) = run.glyphs.get(n).filter(|g| g.dy == rise) {
                let shift = glyph.dx - ahead;
                if shift.abs() > 1e-4 {
                    if !codes.is_empty() {
                        items.show(Str(&codes));
                        codes.clear();
                    }
                    items.adjust(-shift * 1000.0);
                }
                codes.extend_from_slice(&fonts[run.font].code(font, &run, n).to_be_bytes());
                ahead = glyph.dx + font.advance(glyph.id) - glyph.advance;
                n += 1;
            }
            if !codes.is_empty() {
                items.show(Str(&codes));
            }
        }
        if run.shaped {
            content.end_marked_content();
        }
    }
    if rise != 0.0 {
        content.set_rise(0.0);
    }
    content.end_text();
}

/// The content stream of a page; images used are added to `images`.
fn content(page: &Page, fonts: &mut [FontUse], images: &mut Vec<Image>) -> Vec<u8> {
    let mut content = Content::new();
    for op in &page.ops {
        match op {
            Op::Text { x, y, style, text } => show(&mut content, fonts, *x, flip(*y), *style, text),
            Op::Line {
                from,
                to,
                width,
                color,
            } => {
                stroke(&mut content, *color, *width);
                content.move_to(from.0, flip(from.1));
                content.line_to(to.0, flip(to.1));
                content.stroke();
            }
            Op::Rect {
                x,
                y,
                w,
                h,
                fill: paint,
                stroke: line,
            } => {
                // Colours first: inside a path only path operators may stand (PDF 32000 8.5.1).
                if let Some(c) = paint {
                    fill(&mut content, *c);
                }
                if let Some((c, width)) = line {
                    stroke(&mut content, *c, *width);
                }
                content.rect(*x, flip(*y + *h), *w, *h);
                match (paint, line) {
                    (Some(_), Some(_)) => content.fill_nonzero_and_stroke(),
                    (Some(_), None) => content.fill_nonzero(),
                    (None, Some(_)) => content.stroke(),
                    (None, None) => content.end_path(),
                };
            }
            Op::Rects { rects, color } => {
                fill(&mut content, *color);
                for (x, y, w, h) in rects {
                    content.rect(*x, flip(*y + *h), *w, *h);
                }
                content.fill_nonzero();
            }
            Op::Image { image, x, y, w, h } => {
                let n = match images.iter().position(|i| Arc::ptr_eq(&i.0, &image.0)) {
                    Some(n) => n,
                    None => {
                        images.push(image.clone());
                        images.len() - 1
                    }
                };
                content.save_state();
                content.transform([*w, 0.0, 0.0, *h, *x, flip(*y + *h)]);
                content.x_object(Name(format!("Im{n}").as_bytes()));
                content.restore_state();
            }
            Op::Watermark { text, color } => {
                let style = Style::bold(1.0).color(*color);
                // As large as fits along the diagonal, at most 110 pt.
                let diagonal = (PAGE_W * PAGE_W + PAGE_H * PAGE_H).sqrt();
                let size = (diagonal * 0.6 / style.width(text).max(0.01)).min(110.0);
                let style = style.size(size);
                let angle = (PAGE_H / PAGE_W).atan();
                let (sin, cos) = angle.sin_cos();
                content.save_state();
                content.set_parameters(Name(b"Light"));
                content.transform([cos, sin, -sin, cos, PAGE_W / 2.0, PAGE_H / 2.0]);
                show(
                    &mut content,
                    fonts,
                    -style.width(text) / 2.0,
                    -size * 0.35,
                    style,
                    text,
                );
                content.restore_state();
            }
        }
    }
    deflate(&content.finish())
}

/// A subset tag ("ABCDEF") from the glyphs kept.
fn subset_tag(glyphs: &GlyphRemapper) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for g in glyphs.remapped_gids() {
        h = (h ^ g as u32).wrapping_mul(0x0100_0193);
    }
    (0..6)
        .map(|i| (b'A' + ((h >> (i * 5)) % 26) as u8) as char)
        .collect()
}

/// Writes the font objects of one face at `type0`.
fn write_font(
    pdf: &mut Pdf,
    next: &mut impl FnMut() -> Ref,
    type0: Ref,
    font: &Font,
    used: &FontUse,
) -> Result<(), String> {
    let (cid, descriptor, cmap_id, file) = (next(), next(), next(), next());
    let base = format!("{}+{}", subset_tag(&used.remapper), font.name);
    let system = SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"Identity"),
        supplement: 0,
    };

    pdf.type0_font(type0)
        .base_font(Name(base.as_bytes()))
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid)
        .to_unicode(cmap_id);

    let mut cid_font = pdf.cid_font(cid);
    cid_font
        .subtype(CidFontType::Type2)
        .base_font(Name(base.as_bytes()))
        .system_info(system)
        .font_descriptor(descriptor)
        .default_width(0.0)
        .cid_to_gid_map_predefined(Name(b"Identity"));
    cid_font.widths().consecutive(0, used.widths.iter().copied());
    cid_font.finish();

    let f = &font.face;
    let bbox = f.global_bounding_box();
    let weight = f.weight().to_number() as f32;
    pdf.font_descriptor(descriptor)
        .name(Name(base.as_bytes()))
        .flags(FontFlags::NON_SYMBOLIC)
        .bbox(Rect::new(
            font.scale(bbox.x_min),
            font.scale(bbox.y_min),
            font.scale(bbox.x_max),
            font.scale(bbox.y_max),
        ))
        .italic_angle(0.0)
        .ascent(font.scale(f.ascender()))
        .descent(font.scale(f.descender()))
        .cap_height(font.scale(f.capital_height().unwrap_or(f.ascender())))
        .stem_v(10.0 + 0.244 * (weight - 50.0))
        .font_file2(file);

    let mut cmap = UnicodeCmap::new(Name(b"Custom"), system);
    for (gid, text) in used.text.iter().enumerate() {
        if let Some(text) = text {
            cmap.pair_with_multiple(gid as u16, text.chars());
        }
    }
    pdf.stream(cmap_id, &deflate(&cmap.finish()))
        .filter(Filter::FlateDecode);

    let subset = subsetter::subset(font.data, 0, &used.remapper).map_err(|e| format!("font subset: {e}"))?;
    let deflated = deflate(&subset);
    let mut stream = pdf.stream(file, &deflated);
    stream.filter(Filter::FlateDecode);
    stream.pair(Name(b"Length1"), subset.len() as i32);
    stream.finish();
    Ok(())
}

fn write_image(pdf: &mut Pdf, id: Ref, mask: Ref, image: &ImageData) {
    let mut x = pdf.image_xobject(id, &image.samples);
    x.filter(image.filter);
    x.width(image.width as i32);
    x.height(image.height as i32);
    x.color_space_name(Name(image.color_space));
    x.bits_per_component(8);
    x.interpolate(true);
    if image.inverted {
        x.decode([1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]);
    }
    if image.alpha.is_some() {
        x.s_mask(mask);
    }
    x.finish();
    if let Some(alpha) = &image.alpha {
        let mut m = pdf.image_xobject(mask, alpha);
        m.filter(Filter::FlateDecode);
        m.width(image.width as i32);
        m.height(image.height as i32);
        m.color_space_name(Name(b"DeviceGray"));
        m.bits_per_component(8);
        m.interpolate(true);
        m.finish();
    }
}

/// The whole PDF of laid-out pages.
pub(super) fn pdf(pages: &[Page], title: Option<&str>) -> Result<Vec<u8>, String> {
    let mut fonts: Vec<FontUse> = (0..fonts::COUNT).map(|_| FontUse::new()).collect();
    let mut images = Vec::new();
    let streams: Vec<Vec<u8>> = pages
        .iter()
        .map(|page| content(page, &mut fonts, &mut images))
        .collect();

    let mut last = 0;
    let mut next = move || {
        last += 1;
        Ref::new(last)
    };
    let (catalog, tree, light, info) = (next(), next(), next(), next());
    let font_refs: Vec<Ref> = fonts.iter().map(|_| next()).collect();
    let image_refs: Vec<(Ref, Ref)> = images.iter().map(|_| (next(), next())).collect();
    let page_refs: Vec<(Ref, Ref)> = pages.iter().map(|_| (next(), next())).collect();
    let used = |f: &FontUse| f.widths.len() > 1;

    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids(page_refs.iter().map(|(page, _)| *page))
        .count(pages.len() as i32);
    pdf.ext_graphics(light).non_stroking_alpha(0.18);
    for ((page_id, content_id), stream) in page_refs.iter().zip(&streams) {
        let mut page = pdf.page(*page_id);
        page.parent(tree)
            .media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H))
            .contents(*content_id);
        let mut resources = page.resources();
        let mut font_dict = resources.fonts();
        for (n, font) in fonts.iter().enumerate() {
            if used(font) {
                font_dict.pair(Name(resource(n).as_bytes()), font_refs[n]);
            }
        }
        font_dict.finish();
        let mut xobjects = resources.x_objects();
        for (n, (id, _)) in image_refs.iter().enumerate() {
            xobjects.pair(Name(format!("Im{n}").as_bytes()), *id);
        }
        xobjects.finish();
        resources.ext_g_states().pair(Name(b"Light"), light);
        resources.finish();
        page.finish();
        pdf.stream(*content_id, stream).filter(Filter::FlateDecode);
    }
    for (n, used_font) in fonts.iter().enumerate() {
        if used(used_font) {
            write_font(&mut pdf, &mut next, font_refs[n], fonts::font(n), used_font)?;
        }
    }
    for (image, (id, mask)) in images.iter().zip(&image_refs) {
        write_image(&mut pdf, *id, *mask, &image.0);
    }
    let mut doc_info = pdf.document_info(info);
    if let Some(title) = title {
        doc_info.title(TextStr(title));
    }
    doc_info.producer(TextStr("backoffice"));
    doc_info.finish();
    Ok(pdf.finish())
}

impl Writer {
    /// Writes the PDF; `decorate(page, n, of)` draws over each page last (footers, marks), when the
    /// number of pages is known.
    pub fn finish(mut self, mut decorate: impl FnMut(&mut Page, usize, usize)) -> Result<Vec<u8>, AppError> {
        if self.pages.is_empty() {
            self.pages.push(Page::default());
        }
        let count = self.pages.len();
        for (i, page) in self.pages.iter_mut().enumerate() {
            decorate(page, i + 1, count);
        }
        pdf(&self.pages, self.title.as_deref())
            .map_err(|e| AppError::internal(format!("cannot write the PDF: {e}")))
    }
}
