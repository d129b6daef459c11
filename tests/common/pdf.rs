//! Reading a PDF back as people and programs do: its text layer (lopdf, from the fonts' ToUnicode
//! maps; poppler's pdftotext, which also honours ActualText, so shaped Malayalam reads back as
//! typed) and its first page as pixels (pdftoppm), kept under `target/screenshots` for a reviewer
//! to look at, as the browser tests keep theirs.

use std::process::Command;

/// The text layer of every page, as lopdf extracts it.
pub fn text(bytes: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(bytes).expect("a PDF lopdf can read");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    doc.extract_text(&pages).expect("a text layer")
}

/// The text of every page as poppler's pdftotext gives it, all runs of white space made one space.
pub fn pdftotext(bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pdf");
    std::fs::write(&input, bytes).unwrap();
    let out = Command::new("pdftotext")
        .arg(&input)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils; tests/run.sh installs it)");
    assert!(out.status.success(), "pdftotext failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Page 1 rendered in grey at 150 dpi by pdftoppm, kept as `target/screenshots/<name>.png`.
pub fn first_page_png(bytes: &[u8], name: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pdf");
    std::fs::write(&input, bytes).unwrap();
    let out = dir.path().join("page");
    let status = Command::new("pdftoppm")
        .args(["-r", "150", "-gray", "-png", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&input)
        .arg(&out)
        .status()
        .expect("pdftoppm (poppler-utils; tests/run.sh installs it)");
    assert!(status.success(), "pdftoppm failed");
    let png = std::fs::read(dir.path().join("page.png")).unwrap();
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    if std::fs::create_dir_all(&shots).is_ok() {
        let _ = std::fs::write(shots.join(format!("{name}.png")), &png);
    }
    png
}
