//! The console is served from the binary: content types, ETag revalidation, the index.html
//! fallback for client routes, the security headers, and no inline script anywhere.

use crate::common::{Call, TestApp};
use axum::http::{Method, StatusCode, header};

#[tokio::test]
async fn assets_are_served_with_types_etags_and_the_route_fallback() {
    let app = TestApp::new();
    let index = app.send(Call::new(Method::GET, "/")).await;
    assert_eq!(index.status, StatusCode::OK);
    assert!(
        index.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(index.text.contains("<script type=\"module\" src=\"/app.js\">"));
    let etag = index.headers[header::ETAG].to_str().unwrap().to_string();
    assert_eq!(index.headers[header::CACHE_CONTROL], "no-cache");
    let csp = index.headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    assert!(
        csp.contains("script-src 'self'")
            && csp.contains("frame-ancestors 'none'")
            && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert_eq!(index.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(index.headers[header::X_FRAME_OPTIONS], "DENY");

    let again = app
        .send(Call::new(Method::GET, "/").header("if-none-match", &etag))
        .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.text.is_empty());

    let route = app.send(Call::new(Method::GET, "/employees?page=2")).await;
    assert_eq!(
        (route.status, route.headers[header::ETAG].to_str().unwrap()),
        (StatusCode::OK, etag.as_str()),
        "client routes get index.html"
    );

    let js = app.send(Call::new(Method::GET, "/app.js")).await;
    assert_eq!(js.status, StatusCode::OK);
    assert_eq!(js.headers[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
    let css = app.send(Call::new(Method::GET, "/app.css")).await;
    assert!(
        css.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/css")
    );
    let vendor = app.send(Call::new(Method::GET, "/vendor/preact-htm.js")).await;
    assert_eq!(vendor.status, StatusCode::OK);

    // Browsers ask for /favicon.ico whatever the page links to.
    let icon = app.send(Call::new(Method::GET, "/favicon.ico")).await;
    assert_eq!(icon.status, StatusCode::OK);
    assert!(
        icon.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .contains("icon"),
        "{:?}",
        icon.headers
    );
    assert!(icon.bytes.starts_with(&[0, 0, 1, 0]), "an ICO file");
    // The scripts of India as web fonts: the very files the PDFs embed.
    let font = app
        .send(Call::new(Method::GET, "/fonts/NotoSansMalayalam-Regular.ttf"))
        .await;
    assert_eq!(
        (font.status, font.header("content-type")),
        (StatusCode::OK, Some("font/ttf"))
    );
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fonts/noto/NotoSansMalayalam-Regular.ttf"
    );
    assert!(font.bytes[..] == std::fs::read(file).unwrap()[..]);
    let font_etag = font.headers[header::ETAG].to_str().unwrap().to_string();
    let font_again = app
        .send(
            Call::new(Method::GET, "/fonts/NotoSansMalayalam-Regular.ttf")
                .header("if-none-match", &font_etag),
        )
        .await;
    assert_eq!(font_again.status, StatusCode::NOT_MODIFIED);
    let css = app.send(Call::new(Method::GET, "/fonts.css")).await;
    assert!(css.text.contains("url(\"/fonts/NotoSansMalayalam-Bold.ttf\")"));
    for name in [
        "/fonts/DejaVuSans.ttf",
        "/fonts/NotoSansMalayalam-Bold",
        "/fonts/x/../OFL.txt",
    ] {
        let reply = app.send(Call::new(Method::GET, name)).await;
        assert_eq!(
            (reply.status, reply.code()),
            (StatusCode::NOT_FOUND, "not_found"),
            "{name}"
        );
    }
    let missing = app.send(Call::new(Method::GET, "/missing.js")).await;
    assert_eq!(
        (missing.status, missing.code()),
        (StatusCode::NOT_FOUND, "not_found")
    );
    let api_missing = app.send(Call::new(Method::GET, "/api/employeez")).await;
    assert_eq!(
        (api_missing.status, api_missing.code()),
        (StatusCode::NOT_FOUND, "not_found"),
        "no index.html under /api"
    );
    let docs = app.send(Call::new(Method::GET, "/js/README.md")).await;
    assert_eq!(
        docs.status,
        StatusCode::NOT_FOUND,
        "notes for developers are not embedded"
    );
    let post = app
        .send(Call::new(Method::POST, "/employees").json(serde_json::json!({})))
        .await;
    assert_eq!(post.status, StatusCode::METHOD_NOT_ALLOWED);
}

#[test]
fn no_asset_carries_inline_script_or_inline_handlers() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut html_files = vec![];
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                html_files.push(path);
            }
        }
    }
    assert!(!html_files.is_empty());
    for path in html_files {
        let text = std::fs::read_to_string(&path).unwrap().to_lowercase();
        for tag in text.split("<script").skip(1) {
            let open = tag.split('>').next().unwrap();
            assert!(open.contains("src="), "inline script in {}", path.display());
        }
        assert!(
            !text.contains(" onclick=") && !text.contains(" onload=") && !text.contains(" style="),
            "inline handler or style in {}",
            path.display()
        );
    }
}

/// Console layering (issue 38): a screen's shared pieces live in `assets/js/ui/`, so no page
/// imports another page. A folder under `pages/` is one screen split in files (`client/`,
/// `document/`, …): its files import each other and nothing else under `pages/`. A file
/// directly in `pages/` is a whole screen and imports no page; nothing in `ui/` imports a page.
mod page_imports {
    use std::path::{Component, Path, PathBuf};

    /// The modules `code` imports: the text of each `from "…"`, `import "…"` and `import("…")`,
    /// comment lines left out.
    fn specifiers(code: &str) -> Vec<String> {
        let mut found = vec![];
        for line in code.lines() {
            let t = line.trim_start();
            if t.starts_with("//") || t.starts_with("/*") || t.starts_with('*') {
                continue;
            }
            for marker in ["from \"", "import \"", "import(\""] {
                let mut rest = line;
                while let Some(at) = rest.find(marker) {
                    rest = &rest[at + marker.len()..];
                    if let Some(end) = rest.find('"') {
                        found.push(rest[..end].to_string());
                        rest = &rest[end..];
                    }
                }
            }
        }
        found
    }

    /// `spec` imported by `file` (both under assets/, e.g. `js/pages/client/client.js`) as a
    /// path under assets/, `..` resolved; None for what lies outside (a bare name).
    fn resolve(file: &Path, spec: &str) -> Option<PathBuf> {
        let joined = if let Some(abs) = spec.strip_prefix('/') {
            PathBuf::from(abs)
        } else if spec.starts_with("./") || spec.starts_with("../") {
            file.parent()?.join(spec)
        } else {
            return None;
        };
        let mut out = PathBuf::new();
        for c in joined.components() {
            match c {
                Component::ParentDir => {
                    out.pop();
                }
                Component::Normal(p) => out.push(p),
                _ => {}
            }
        }
        Some(out)
    }

    /// What is wrong with the imports of `file` (under assets/) whose text is `code`.
    fn violations(file: &Path, code: &str) -> Vec<String> {
        let pages = Path::new("js/pages");
        let in_pages = file.starts_with(pages);
        if !in_pages && !file.starts_with("js/ui") {
            return vec![];
        }
        let folder = file.parent().unwrap();
        specifiers(code)
            .into_iter()
            .filter(|spec| {
                let Some(target) = resolve(file, spec) else {
                    return false;
                };
                if !target.starts_with(pages) {
                    return false;
                }
                // Only the parts of one screen, in its own folder, import each other.
                !(in_pages && folder != pages && target.parent() == Some(folder))
            })
            .map(|spec| format!("{} imports the page {spec}", file.display()))
            .collect()
    }

    fn scripts(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                scripts(&path, out);
            } else if path.extension().is_some_and(|e| e == "js") {
                out.push(path);
            }
        }
    }

    #[test]
    fn no_page_imports_another_page() {
        let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut files = vec![];
        scripts(&assets.join("js"), &mut files);
        assert!(files.len() > 50, "the console's scripts were found");
        let mut wrong = vec![];
        for path in &files {
            let relative = path.strip_prefix(&assets).unwrap();
            wrong.extend(violations(relative, &std::fs::read_to_string(path).unwrap()));
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// The rule sees what it forbids, and lets through what it allows.
    #[test]
    fn the_rule_sees_page_imports() {
        let bad = |file: &str, code: &str| !violations(Path::new(file), code).is_empty();
        // A whole screen imports no page, however it names it.
        assert!(bad(
            "js/pages/payments.js",
            r#"import { ClientFilter } from "./documents.js";"#
        ));
        assert!(bad(
            "js/pages/payments.js",
            r#"import { X } from "/js/pages/documents.js";"#
        ));
        assert!(bad(
            "js/pages/payments.js",
            r#"const m = import("./documents.js");"#
        ));
        assert!(bad(
            "js/pages/payments.js",
            "import {\n  A,\n  B,\n} from \"./client/sections.js\";"
        ));
        // A screen's part imports no other screen's.
        assert!(bad(
            "js/pages/client/sections.js",
            r#"import { X } from "../documents.js";"#
        ));
        assert!(bad(
            "js/pages/client/sections.js",
            r#"import { X } from "../document/editor.js";"#
        ));
        // A shared piece imports no page.
        assert!(bad(
            "js/ui/clients.js",
            r#"import { X } from "../pages/documents.js";"#
        ));
        // Allowed: the shared pieces, the screen's own parts, comments.
        assert!(!bad(
            "js/pages/payments.js",
            r#"import { ClientFilter } from "../ui/clients.js";"#
        ));
        assert!(!bad(
            "js/pages/payments.js",
            r#"import { get } from "../api.js";"#
        ));
        assert!(!bad(
            "js/pages/client/client.js",
            r#"import { X } from "./sections.js";"#
        ));
        assert!(!bad(
            "js/pages/client/client.js",
            r#"import { X } from "../../components.js";"#
        ));
        assert!(!bad(
            "js/pages/payments.js",
            r#"// once: import { X } from "./documents.js";"#
        ));
        assert!(!bad(
            "js/pages/payments.js",
            r#"import { html } from "/vendor/preact-htm.js";"#
        ));
        // The entry imports every screen.
        assert!(!bad(
            "app.js",
            r#"import { PaymentsPage } from "/js/pages/payments.js";"#
        ));
    }
}
