//! A raster image to embed in a PDF (a letterhead's logo): PNG or JPEG bytes decoded once, its
//! samples deflated (a JPEG kept as is); the writer embeds it.

use miniz_oxide::deflate::compress_to_vec_zlib;
use pdf_writer::Filter;
use std::sync::{Arc, Mutex};

/// Deflates a stream of the PDF (an image's samples here; the writer's pages, fonts and maps)
/// with zlib at level 6, the usual balance of size and speed.
pub(super) fn deflate(bytes: &[u8]) -> Vec<u8> {
    compress_to_vec_zlib(bytes, 6)
}

/// A raster image ready to embed: decoded once, its samples already deflated (or a JPEG as is).
#[derive(Clone)]
pub struct Image(pub(super) Arc<ImageData>);

pub(super) struct ImageData {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) samples: Vec<u8>,
    pub(super) filter: Filter,
    /// DeviceGray, DeviceRGB or DeviceCMYK.
    pub(super) color_space: &'static [u8],
    /// Adobe CMYK JPEGs are stored inverted.
    pub(super) inverted: bool,
    /// The deflated alpha channel, when not opaque.
    pub(super) alpha: Option<Vec<u8>>,
}

impl Image {
    /// An image from PNG or JPEG bytes, remembering the last one (a logo is drawn again and
    /// again).
    pub fn cached(mime: &str, bytes: &[u8]) -> Result<Image, String> {
        let mut cache = LOGO_CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((key, image)) = cache.as_ref()
            && key == bytes
        {
            return Ok(image.clone());
        }
        let image = match mime {
            "image/jpeg" => Image::jpeg(bytes)?,
            _ => Image::png(bytes)?,
        };
        *cache = Some((bytes.to_vec(), image.clone()));
        Ok(image)
    }

    /// A PNG of any colour type (palettes expanded, 16 bits cut to 8, alpha kept as a soft mask).
    pub fn png(bytes: &[u8]) -> Result<Image, String> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
        let mut buf = vec![0; reader.output_buffer_size().ok_or("the PNG is too large")?];
        let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
        buf.truncate(info.buffer_size());
        let (colors, has_alpha) = match info.color_type {
            png::ColorType::Grayscale => (1, false),
            png::ColorType::GrayscaleAlpha => (1, true),
            png::ColorType::Rgb => (3, false),
            png::ColorType::Rgba => (3, true),
            png::ColorType::Indexed => return Err("the PNG palette was not expanded".into()),
        };
        let (samples, alpha) = if has_alpha {
            let mut samples = Vec::with_capacity(buf.len() / (colors + 1) * colors);
            let mut alpha = Vec::with_capacity(buf.len() / (colors + 1));
            for px in buf.chunks_exact(colors + 1) {
                samples.extend_from_slice(&px[..colors]);
                alpha.push(px[colors]);
            }
            let opaque = alpha.iter().all(|a| *a == 255);
            (samples, (!opaque).then(|| deflate(&alpha)))
        } else {
            (buf, None)
        };
        Ok(Image(Arc::new(ImageData {
            width: info.width,
            height: info.height,
            samples: deflate(&samples),
            filter: Filter::FlateDecode,
            color_space: if colors == 1 { b"DeviceGray" } else { b"DeviceRGB" },
            inverted: false,
            alpha,
        })))
    }

    /// A JPEG, embedded as it is; only its frame header is read.
    pub fn jpeg(bytes: &[u8]) -> Result<Image, String> {
        let (width, height, components, adobe) = jpeg_header(bytes).ok_or("not a readable JPEG")?;
        let color_space: &'static [u8] = match components {
            1 => b"DeviceGray",
            3 => b"DeviceRGB",
            4 => b"DeviceCMYK",
            n => return Err(format!("a JPEG of {n} components")),
        };
        Ok(Image(Arc::new(ImageData {
            width,
            height,
            samples: bytes.to_vec(),
            filter: Filter::DctDecode,
            color_space,
            inverted: components == 4 && adobe,
            alpha: None,
        })))
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.0.width, self.0.height)
    }
}

/// Width, height, components and whether an Adobe marker is present, from a JPEG's headers.
fn jpeg_header(b: &[u8]) -> Option<(u32, u32, u8, bool)> {
    if !b.starts_with(&[0xFF, 0xD8]) {
        return None;
    }
    let (mut i, mut adobe) = (2, false);
    while i + 4 <= b.len() {
        if b[i] != 0xFF {
            return None;
        }
        let marker = b[i + 1];
        if marker == 0xFF {
            i += 1;
            continue;
        }
        let len = u16::from_be_bytes([b[i + 2], b[i + 3]]) as usize;
        let body = b.get(i + 4..i + 2 + len)?;
        match marker {
            0xEE if body.starts_with(b"Adobe") => adobe = true,
            // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                let height = u16::from_be_bytes([*body.get(1)?, *body.get(2)?]) as u32;
                let width = u16::from_be_bytes([*body.get(3)?, *body.get(4)?]) as u32;
                return (width > 0 && height > 0).then_some((width, height, *body.get(5)?, adobe));
            }
            _ => {}
        }
        i += 2 + len;
    }
    None
}

/// The last logo decoded, by its bytes: documents are rendered again and again with one logo.
static LOGO_CACHE: Mutex<Option<(Vec<u8>, Image)>> = Mutex::new(None);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jpeg_headers_give_size_and_components() {
        // SOI, APP14 "Adobe", SOF0 of 30×20 with 4 components.
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xEE, 0x00, 0x07];
        jpeg.extend_from_slice(b"Adobe");
        jpeg.extend_from_slice(&[0xFF, 0xC0, 0x00, 0x0B, 8, 0, 20, 0, 30, 4, 0, 0, 0]);
        assert_eq!(jpeg_header(&jpeg), Some((30, 20, 4, true)));
        let image = Image::jpeg(&jpeg).unwrap();
        assert_eq!(image.size(), (30, 20));
        assert!(image.0.inverted);
        assert_eq!(jpeg_header(&[0xFF, 0xD8, 0xFF, 0xC0, 0x00]), None);
        assert_eq!(jpeg_header(b"not a jpeg"), None);
    }

    #[test]
    fn opaque_png_logos_need_no_mask() {
        let image = Image::png(include_bytes!("test_logo.png")).unwrap();
        assert_eq!(image.size(), (240, 96));
        assert!(image.0.alpha.is_none());
        assert_eq!(image.0.color_space, b"DeviceRGB");
    }
}
