//! The embedded fonts, and text made into glyphs. DejaVu Sans (which carries ₹) sets Latin and
//! everything no other font claims; Noto Sans sets the scripts of India the office types
//! (Malayalam, Tamil, Kannada, Devanagari: `fonts/noto`, SIL Open Font License), chosen per run
//! of text. Those runs are shaped with rustybuzz, a port of HarfBuzz: conjuncts formed, vowel
//! signs reordered and placed, chillu letters as typed. Latin is set a glyph per character from
//! DejaVu's cmap, as every PDF has been, which keeps the measuring that wrapping does cheap.

use rustybuzz::{Direction, ShapePlan, UnicodeBuffer, script};
use std::ops::RangeInclusive;
use std::sync::LazyLock;
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// The two weights of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    Regular,
    Bold,
}

/// One embedded font, parsed once.
pub(super) struct Font {
    pub(super) data: &'static [u8],
    pub(super) face: rustybuzz::Face<'static>,
    /// The PostScript name, e.g. DejaVuSans-Bold.
    pub(super) name: &'static str,
    units_per_em: f32,
    /// The shaping plan of its script, built once (building one is slow); none for Latin.
    plan: Option<(rustybuzz::Script, ShapePlan)>,
}

impl Font {
    fn load(data: &'static [u8], name: &'static str, script: Option<rustybuzz::Script>) -> Font {
        let face = rustybuzz::Face::from_slice(data, 0).expect("an embedded font parses");
        let plan = script.map(|script| {
            let plan = ShapePlan::new(&face, Direction::LeftToRight, Some(script), None, &[]);
            (script, plan)
        });
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

/// A script of India set in its own font: its Unicode block, its virama (after which the next
/// consonant joins), its shaping script and its two faces.
struct Indic {
    block: RangeInclusive<char>,
    virama: char,
    script: rustybuzz::Script,
    regular: (&'static [u8], &'static str),
    bold: (&'static [u8], &'static str),
}

macro_rules! noto {
    ($file:literal) => {
        (
            include_bytes!(concat!("../../../fonts/noto/", $file, ".ttf")),
            $file,
        )
    };
}

static INDIC: [Indic; 4] = [
    Indic {
        block: '\u{0D00}'..='\u{0D7F}',
        virama: '\u{0D4D}',
        script: script::MALAYALAM,
        regular: noto!("NotoSansMalayalam-Regular"),
        bold: noto!("NotoSansMalayalam-Bold"),
    },
    Indic {
        block: '\u{0B80}'..='\u{0BFF}',
        virama: '\u{0BCD}',
        script: script::TAMIL,
        regular: noto!("NotoSansTamil-Regular"),
        bold: noto!("NotoSansTamil-Bold"),
    },
    Indic {
        block: '\u{0C80}'..='\u{0CFF}',
        virama: '\u{0CCD}',
        script: script::KANNADA,
        regular: noto!("NotoSansKannada-Regular"),
        bold: noto!("NotoSansKannada-Bold"),
    },
    Indic {
        block: '\u{0900}'..='\u{097F}',
        virama: '\u{094D}',
        script: script::DEVANAGARI,
        regular: noto!("NotoSansDevanagari-Regular"),
        bold: noto!("NotoSansDevanagari-Bold"),
    },
];

/// The bytes of the Noto font file `name` (`NotoSansMalayalam-Bold.ttf`): the console serves
/// them as web fonts (`/fonts/...`, `assets/fonts.css`), so a screen shows these scripts as the
/// PDFs do on a computer that has no font for them.
pub fn file(name: &str) -> Option<&'static [u8]> {
    let stem = name.strip_suffix(".ttf")?;
    INDIC
        .iter()
        .flat_map(|i| [i.regular, i.bold])
        .find(|(_, n)| *n == stem)
        .map(|(data, _)| data)
}

/// How many fonts there are: DejaVu's two faces, then two for each script of [`INDIC`].
pub(super) const COUNT: usize = 2 + 2 * INDIC.len();

/// The fonts, in the order of [`font_index`].
static FONTS: LazyLock<Vec<Font>> = LazyLock::new(|| {
    let mut fonts = vec![
        Font::load(dejavu::sans::regular(), "DejaVuSans", None),
        Font::load(dejavu::sans::bold(), "DejaVuSans-Bold", None),
    ];
    for indic in &INDIC {
        for (data, name) in [indic.regular, indic.bold] {
            fonts.push(Font::load(data, name, Some(indic.script)));
        }
    }
    fonts
});

pub(super) fn font(index: usize) -> &'static Font {
    &FONTS[index]
}

/// What sets a run of text: DejaVu (`None`) or the script of [`INDIC`] at that index.
pub(super) type Script = Option<usize>;

fn font_index(face: Face, script: Script) -> usize {
    let weight = match face {
        Face::Regular => 0,
        Face::Bold => 1,
    };
    script.map_or(0, |s| 2 + 2 * s) + weight
}

/// The script of [`INDIC`] whose block holds `c`.
fn indic(c: char) -> Script {
    INDIC.iter().position(|i| i.block.contains(&c))
}

/// ZERO WIDTH NON-JOINER and JOINER, which choose between a conjunct, a half form and a chillu.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// `text` cut into runs of one script; joiners stay with the run before them.
pub(super) fn segments(text: &str) -> impl Iterator<Item = (Script, &str)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let mut chars = rest.char_indices();
        let (_, first) = chars.next()?;
        let script = indic(first);
        let end = chars
            .find(|(_, c)| !(indic(*c) == script || (script.is_some() && is_joiner(*c))))
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

/// The glyphs of a run of an Indic script, shaped.
fn shape(font: &Font, text: &str) -> Vec<Glyph> {
    let (script, plan) = font.plan.as_ref().expect("a shaped font has its plan");
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.set_direction(Direction::LeftToRight);
    buffer.set_script(*script);
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
            Some(_) => shape(font, text),
            None => text
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
            shaped: script.is_some(),
        }
    })
}

/// The width of `text` in `face`, in ems.
pub(super) fn width(face: Face, text: &str) -> f32 {
    segments(text)
        .map(|(script, run)| {
            let font = font(font_index(face, script));
            match script {
                None => run.chars().map(|c| font.glyph(c).1).sum::<f32>(),
                Some(_) => shape(font, run).iter().map(|g| g.advance).sum(),
            }
        })
        .sum()
}

/// `word` cut where a line may break inside it: between letters, never inside a syllable (a
/// vowel sign or other mark, a virama and the consonant it joins, a joiner stay with the letter
/// before them).
pub(super) fn pieces(word: &str) -> impl Iterator<Item = &str> {
    let mut rest = word;
    std::iter::from_fn(move || {
        let mut prev: Option<char> = None;
        let end = rest
            .char_indices()
            .find(|(i, c)| {
                let joined = prev.is_some_and(|p| is_joiner(p) || INDIC.iter().any(|s| s.virama == p));
                let mark = c.general_category_group() == GeneralCategoryGroup::Mark || is_joiner(*c);
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
        font(font_index(face, Some(0))).glyph(c).0
    }

    #[test]
    fn scripts_are_cut_into_runs_with_joiners_kept() {
        let runs: Vec<_> = segments("Kummil കുമ്മിൾ ബാങ്ക്\u{200D}, Ltd").collect();
        assert_eq!(
            runs,
            [
                (None, "Kummil "),
                (Some(0), "കുമ്മിൾ"),
                (None, " "),
                (Some(0), "ബാങ്ക്\u{200D}"),
                (None, ", Ltd"),
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
    fn tamil_kannada_and_hindi_names_are_set_in_their_own_fonts() {
        for (script, name) in [
            (1, "கூட்டுறவு சங்கம்"),
            (2, "ಸಹಕಾರ ಸಂಘ ನಿಯಮಿತ"),
            (3, "सहकारी समिति लिमिटेड"),
        ] {
            for face in [Face::Regular, Face::Bold] {
                let runs: Vec<_> = runs(face, name).filter(|r| r.shaped).collect();
                assert_eq!(runs.len(), 2 + usize::from(script != 1), "{name}");
                for run in runs {
                    assert_eq!(run.font, font_index(face, Some(script)));
                    assert!(run.glyphs.iter().all(|g| g.id != 0), "{} has a .notdef", run.text);
                }
            }
        }
        // Hindi's i-matra is typed after its consonant and drawn before it: ि then स in सि.
        let si: Vec<_> = runs(Face::Regular, "सि").collect();
        let hindi = font(font_index(Face::Regular, Some(3)));
        assert_eq!(si[0].glyphs[1].id, hindi.glyph('स').0);
    }

    #[test]
    fn the_console_is_served_the_same_font_files() {
        let bold = file("NotoSansMalayalam-Bold.ttf").unwrap();
        assert_eq!(bold, font(font_index(Face::Bold, Some(0))).data);
        assert!(file("NotoSansTamil-Regular.ttf").is_some());
        assert_eq!(file("NotoSansMalayalam-Bold"), None);
        assert_eq!(file("../Cargo.toml"), None);
    }

    #[test]
    fn words_break_between_syllables_only() {
        let cut = |word| pieces(word).collect::<Vec<_>>();
        assert_eq!(cut("സഹകരണ"), ["സ", "ഹ", "ക", "ര", "ണ"]);
        assert_eq!(cut("ബാങ്ക്"), ["ബാ", "ങ്ക്"]);
        assert_eq!(cut("ക\u{200D}ര"), ["ക\u{200D}ര"]);
        assert_eq!(cut("abc"), ["a", "b", "c"]);
        assert_eq!(cut("समिति"), ["स", "मि", "ति"]);
    }
}
