//! The embedded fonts, and text made into glyphs. DejaVu Sans (which carries ₹) sets Latin and
//! everything else; Noto Sans Malayalam (`fonts/noto-sans-malayalam`, SIL Open Font License)
//! sets Malayalam, chosen per run of text. Malayalam is shaped with rustybuzz, a port of
//! HarfBuzz: conjuncts formed, vowel signs reordered and placed, chillu letters as typed. Latin
//! is set a glyph per character from DejaVu's cmap, as every PDF has been, which keeps the
//! measuring that wrapping does cheap.

use super::layout::Face;
use rustybuzz::{Direction, ShapePlan, UnicodeBuffer, script};
use std::sync::LazyLock;

/// One embedded font, parsed once.
pub(super) struct Font {
    pub(super) data: &'static [u8],
    pub(super) face: rustybuzz::Face<'static>,
    /// The PostScript name, e.g. DejaVuSans-Bold.
    pub(super) name: &'static str,
    units_per_em: f32,
    /// The shaping plan of a shaped script, built once (building one is slow).
    plan: Option<ShapePlan>,
}

impl Font {
    fn load(data: &'static [u8], name: &'static str, shaped: bool) -> Font {
        let face = rustybuzz::Face::from_slice(data, 0).expect("an embedded font parses");
        let plan =
            shaped.then(|| ShapePlan::new(&face, Direction::LeftToRight, Some(script::MALAYALAM), None, &[]));
        Font {
            data,
            units_per_em: face.units_per_em() as f32,
            face,
            name,
            plan,
        }
    }

    /// Font units in ems.
    pub(super) fn em(&self, v: impl Into<f32>) -> f32 {
        v.into() / self.units_per_em
    }

    /// Font units in PDF glyph space (thousandths of an em).
    pub(super) fn scale(&self, v: impl Into<f32>) -> f32 {
        self.em(v) * 1000.0
    }

    /// The glyph of a character (.notdef for what the font lacks) and its advance in ems.
    fn glyph(&self, c: char) -> (u16, f32) {
        let id = self.face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
        (id.0, self.advance(id.0))
    }

    /// A glyph's own advance in ems (what the PDF's widths array says).
    pub(super) fn advance(&self, glyph: u16) -> f32 {
        self.em(self
            .face
            .glyph_hor_advance(ttf_parser::GlyphId(glyph))
            .unwrap_or(0))
    }
}

/// The fonts, in the order of [`font_index`].
static FONTS: LazyLock<[Font; 4]> = LazyLock::new(|| {
    [
        Font::load(dejavu::sans::regular(), "DejaVuSans", false),
        Font::load(dejavu::sans::bold(), "DejaVuSans-Bold", false),
        Font::load(
            include_bytes!("../../fonts/noto-sans-malayalam/NotoSansMalayalam-Regular.ttf"),
            "NotoSansMalayalam",
            true,
        ),
        Font::load(
            include_bytes!("../../fonts/noto-sans-malayalam/NotoSansMalayalam-Bold.ttf"),
            "NotoSansMalayalam-Bold",
            true,
        ),
    ]
});

/// How many fonts there are.
pub(super) const COUNT: usize = 4;

pub(super) fn font(index: usize) -> &'static Font {
    &FONTS[index]
}

/// The scripts that pick a font.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Script {
    Latin,
    Malayalam,
}

fn font_index(face: Face, script: Script) -> usize {
    match (script, face) {
        (Script::Latin, Face::Regular) => 0,
        (Script::Latin, Face::Bold) => 1,
        (Script::Malayalam, Face::Regular) => 2,
        (Script::Malayalam, Face::Bold) => 3,
    }
}

fn is_malayalam(c: char) -> bool {
    ('\u{0D00}'..='\u{0D7F}').contains(&c)
}

/// ZERO WIDTH NON-JOINER and JOINER, which choose between a conjunct, a half form and a chillu.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// `text` cut into runs of one script; joiners stay with the Malayalam before them.
pub(super) fn segments(text: &str) -> impl Iterator<Item = (Script, &str)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let mut chars = rest.char_indices();
        let (_, first) = chars.next()?;
        let script = if is_malayalam(first) {
            Script::Malayalam
        } else {
            Script::Latin
        };
        let end = chars
            .find(|(_, c)| {
                let malayalam = is_malayalam(*c) || (script == Script::Malayalam && is_joiner(*c));
                malayalam != (script == Script::Malayalam)
            })
            .map_or(rest.len(), |(i, _)| i);
        let (run, tail) = rest.split_at(end);
        rest = tail;
        Some((script, run))
    })
}

/// One glyph placed: its id, its advance and offsets in ems, and the byte offset in its run of
/// the characters it stands for (several glyphs can share one cluster, a conjunct is one glyph
/// for several characters).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Glyph {
    pub id: u16,
    pub advance: f32,
    pub dx: f32,
    pub dy: f32,
    pub cluster: usize,
}

/// A run of text in one font, as glyphs.
pub(super) struct Run<'a> {
    pub font: usize,
    pub text: &'a str,
    pub glyphs: Vec<Glyph>,
    /// Shaped: its glyphs are not one per character, so its text is carried beside them.
    pub shaped: bool,
}

/// The glyphs of a Malayalam run, shaped.
fn shape(font: &Font, text: &str) -> Vec<Glyph> {
    let plan = font.plan.as_ref().expect("a shaped font has its plan");
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.set_direction(Direction::LeftToRight);
    buffer.set_script(script::MALAYALAM);
    let out = rustybuzz::shape_with_plan(&font.face, plan, buffer);
    out.glyph_infos()
        .iter()
        .zip(out.glyph_positions())
        .map(|(info, pos)| Glyph {
            id: info.glyph_id as u16,
            advance: font.em(pos.x_advance as f32),
            dx: font.em(pos.x_offset as f32),
            dy: font.em(pos.y_offset as f32),
            cluster: info.cluster as usize,
        })
        .collect()
}

/// `text` in `face`, as runs of glyphs.
pub(super) fn runs(face: Face, text: &str) -> impl Iterator<Item = Run<'_>> {
    segments(text).map(move |(script, text)| {
        let index = font_index(face, script);
        let font = font(index);
        let glyphs = match script {
            Script::Malayalam => shape(font, text),
            Script::Latin => text
                .char_indices()
                .map(|(i, c)| {
                    let (id, advance) = font.glyph(c);
                    Glyph {
                        id,
                        advance,
                        dx: 0.0,
                        dy: 0.0,
                        cluster: i,
                    }
                })
                .collect(),
        };
        Run {
            font: index,
            text,
            glyphs,
            shaped: script == Script::Malayalam,
        }
    })
}

/// The width of `text` in `face`, in ems.
pub(super) fn width(face: Face, text: &str) -> f32 {
    segments(text)
        .map(|(script, run)| {
            let font = font(font_index(face, script));
            match script {
                Script::Latin => run.chars().map(|c| font.glyph(c).1).sum::<f32>(),
                Script::Malayalam => shape(font, run).iter().map(|g| g.advance).sum(),
            }
        })
        .sum()
}

/// `word` cut where a line may break inside it: between letters, never inside a syllable (a
/// vowel sign, a virama and what it joins, a joiner stay with the letter before them).
pub(super) fn pieces(word: &str) -> impl Iterator<Item = &str> {
    let mut rest = word;
    std::iter::from_fn(move || {
        let mut prev: Option<char> = None;
        let end = rest
            .char_indices()
            .find(|(i, c)| {
                let joined = prev.is_some_and(|p| p == '\u{0D4D}' || is_joiner(p));
                let mark = matches!(*c, '\u{0D00}'..='\u{0D03}' | '\u{0D3B}'..='\u{0D3C}'
                    | '\u{0D3E}'..='\u{0D4D}' | '\u{0D57}' | '\u{0D62}'..='\u{0D63}')
                    || is_joiner(*c);
                prev = Some(*c);
                *i > 0 && !joined && !mark
            })
            .map_or(rest.len(), |(i, _)| i);
        (end > 0).then(|| {
            let (piece, tail) = rest.split_at(end);
            rest = tail;
            piece
        })
    })
}

/// The text a glyph of a shaped run stands for, for the PDF's ToUnicode map: the character
/// whose own glyph it is, else (a conjunct, a ligature) its whole cluster.
pub(super) fn glyph_text(run: &Run, n: usize) -> String {
    let glyph = run.glyphs[n];
    let end = run
        .glyphs
        .iter()
        .map(|g| g.cluster)
        .filter(|c| *c > glyph.cluster)
        .min()
        .unwrap_or(run.text.len());
    let cluster = &run.text[glyph.cluster..end];
    let font = font(run.font);
    cluster
        .chars()
        .find(|c| font.glyph(*c).0 == glyph.id)
        .map_or_else(|| cluster.to_string(), String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyph_of(face: Face, c: char) -> u16 {
        font(font_index(face, Script::Malayalam)).glyph(c).0
    }

    #[test]
    fn scripts_are_cut_into_runs_with_joiners_kept() {
        let runs: Vec<_> = segments("Kummil കുമ്മിൾ ബാങ്ക്\u{200D}, Ltd").collect();
        assert_eq!(
            runs,
            [
                (Script::Latin, "Kummil "),
                (Script::Malayalam, "കുമ്മിൾ"),
                (Script::Latin, " "),
                (Script::Malayalam, "ബാങ്ക്\u{200D}"),
                (Script::Latin, ", Ltd"),
            ]
        );
        assert_eq!(segments("").count(), 0);
    }

    #[test]
    fn malayalam_is_shaped_into_conjuncts_and_reordered_vowel_signs() {
        // ക്ക: two consonants and a virama become one conjunct glyph.
        let kka: Vec<_> = runs(Face::Regular, "ക്ക").collect();
        assert_eq!(kka.len(), 1);
        assert!(kka[0].shaped);
        assert_eq!(kka[0].glyphs.len(), 1);
        let conjunct = kka[0].glyphs[0].id;
        assert_ne!(conjunct, 0);
        assert_ne!(conjunct, glyph_of(Face::Regular, 'ക'));
        assert_eq!(glyph_text(&kka[0], 0), "ക്ക");

        // കെ: the vowel sign is typed after the consonant and drawn before it.
        let ke: Vec<_> = runs(Face::Regular, "കെ").collect();
        let ids: Vec<u16> = ke[0].glyphs.iter().map(|g| g.id).collect();
        assert_eq!(
            ids,
            [glyph_of(Face::Regular, '\u{0D46}'), glyph_of(Face::Regular, 'ക')]
        );
        assert_eq!(glyph_text(&ke[0], 0), "\u{0D46}");
        assert_eq!(glyph_text(&ke[0], 1), "ക");

        // Nothing of a real society's name falls back to .notdef, in either weight.
        for face in [Face::Regular, Face::Bold] {
            for run in runs(face, "കുമ്മിൾ സർവീസ് സഹകരണ ബാങ്ക് ലിമിറ്റഡ് നമ്പർ 1234")
            {
                assert!(run.glyphs.iter().all(|g| g.id != 0), "{}", run.text);
            }
        }
        assert!(width(Face::Regular, "കുമ്മിൾ") > 0.0);
        // Shaping makes the word narrower than its characters side by side.
        let side_by_side: f32 = "ക്ക".chars().map(|c| font(2).glyph(c).1).sum();
        assert!(width(Face::Regular, "ക്ക") < side_by_side);
    }

    #[test]
    fn words_break_between_syllables_only() {
        let cut = |word| pieces(word).collect::<Vec<_>>();
        assert_eq!(cut("സഹകരണ"), ["സ", "ഹ", "ക", "ര", "ണ"]);
        assert_eq!(cut("ബാങ്ക്"), ["ബാ", "ങ്ക്"]);
        assert_eq!(cut("ക\u{200D}ര"), ["ക\u{200D}ര"]);
        assert_eq!(cut("abc"), ["a", "b", "c"]);
    }
}
