//! The console: static assets embedded in the binary, served with their content type and an
//! ETag, and `index.html` for the console's own client-side routes.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "assets/"]
#[exclude = "*.md"]
struct Assets;

/// Serves `GET` and `HEAD` outside `/api`: an asset when one has that path, else `index.html`
/// for paths without a file extension (the console's routes), else 404.
pub async fn serve(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return super::method_not_allowed().await.into_response();
    }
    let path = uri.path().trim_start_matches('/');
    if let Some(font) = path.strip_prefix("fonts/") {
        return match serve_font(font, &method, &headers) {
            Some(response) => response,
            None => super::not_found().await.into_response(),
        };
    }
    let looks_like_route = !path.rsplit('/').next().unwrap_or("").contains('.');
    let file = Assets::get(path).map(|f| (path.to_string(), f)).or_else(|| {
        looks_like_route
            .then(|| Assets::get("index.html").map(|f| ("index.html".to_string(), f)))
            .flatten()
    });
    let Some((name, file)) = file else {
        return super::not_found().await.into_response();
    };
    let etag = format!("\"{}\"", hex::encode(&file.metadata.sha256_hash()[..16]));
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == etag);
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else if method == Method::HEAD {
        Response::new(Body::empty())
    } else {
        Response::new(Body::from(file.data.into_owned()))
    };
    let headers = response.headers_mut();
    let mime = if name.ends_with(".js") {
        "text/javascript; charset=utf-8".to_string()
    } else {
        file.metadata.mimetype().to_string()
    };
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&mime).unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    headers.insert(
        header::ETAG,
        HeaderValue::from_str(&etag).expect("hex is a valid header value"),
    );
    // Revalidate every time: cheap with the ETag, and a new binary's console is seen at once.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// A web font of the scripts of India (`assets/fonts.css`), from the bytes the PDFs embed.
fn serve_font(name: &str, method: &Method, headers: &HeaderMap) -> Option<Response> {
    let data = crate::plumbing::pdf::fonts::file(name)?;
    // The binary's version and the file's name and length: the font changes only with a binary.
    let etag = format!("\"{}-{name}-{}\"", env!("CARGO_PKG_VERSION"), data.len());
    let mut response = if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes())
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else if method == Method::HEAD {
        Response::new(Body::empty())
    } else {
        Response::new(Body::from(data))
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("font/ttf"));
    headers.insert(
        header::ETAG,
        HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"font\"")),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Some(response)
}
