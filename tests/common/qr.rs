//! Reading QR codes back from pixels (rqrr), so a test proves that what people see decodes to
//! the exact text: a PDF page rendered by pdftoppm, a page screenshot taken by Chromium.

/// Every QR code in the PNG `png` (grey, RGB or RGBA; the first channel is read).
pub fn codes_in_png(png: &[u8]) -> Vec<String> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("a PNG of {other:?}"),
    };
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let (w, h) = (info.width as usize, info.height as usize);
    let mut img =
        rqrr::PreparedImage::prepare_from_greyscale(w, h, |x, y| buf[y * info.line_size + x * channels]);
    img.detect_grids()
        .into_iter()
        .map(|g| g.decode().expect("a QR code that decodes").1)
        .collect()
}
