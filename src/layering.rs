//! Arrows point down: the lower layers name no area, and no file reaches into another
//! area's handlers (operations live in files named for them, `routes` hold handlers only,
//! with no SQL and no audit rows of their own).
use std::path::{Path, PathBuf};

/// Folders and files below the areas: plumbing that any area may use.
const LOWER: &[&str] = &["plumbing"];

/// The source files under `dir`, but this one: its examples are what it forbids.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.ends_with("src/layering.rs") {
            continue;
        }
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every folder under src/ that is not a lower layer is an area.
fn areas(src: &Path) -> Vec<String> {
    let mut areas: Vec<String> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| !LOWER.contains(&name.as_str()))
        .collect();
    areas.sort();
    areas
}

/// The code of a file without its comments (a doc comment may mention an area).
fn code(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What is wrong with the file at `relative` (under src/) whose code is `text`.
fn violations(relative: &Path, text: &str, areas: &[String]) -> Vec<String> {
    let top = relative
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    let mut wrong = vec![];
    for area in areas {
        let reach = format!("crate::{area}");
        for (at, _) in text.match_indices(&reach) {
            let rest = &text[at + reach.len()..];
            if !rest.starts_with("::") && !rest.starts_with(';') {
                continue; // e.g. crate::clients_x
            }
            if LOWER.contains(&top.as_str()) {
                wrong.push(format!("{} names the area {area}", relative.display()));
            }
            let module: String = rest
                .trim_start_matches("::")
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if top != "lib.rs" && (module == "routes" || module.ends_with("_routes")) {
                wrong.push(format!("{} reaches into {area}::{module}", relative.display()));
            }
        }
    }
    let stem = relative.file_stem().unwrap_or_default().to_string_lossy();
    if stem == "routes" || stem.ends_with("_routes") {
        let sql = ["execute", "query_row", "prepare"]
            .into_iter()
            .filter(|m| text.contains(&format!(".{m}(")));
        let audits = ["audit", "record"].into_iter().filter(|f| calls(text, f));
        for call in sql.chain(audits) {
            wrong.push(format!("{} calls {call} in a handler file", relative.display()));
        }
    }
    wrong
}

/// Whether `text` calls a function or method named exactly `name`.
fn calls(text: &str, name: &str) -> bool {
    let call = format!("{name}(");
    text.match_indices(&call).any(|(at, _)| {
        !text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn the_rule_sees_what_it_forbids() {
    let areas = vec!["documents".to_string(), "clients".to_string()];
    let db = Path::new("plumbing/db/query.rs");
    assert_eq!(violations(db, "use crate::documents::store;", &areas).len(), 1);
    assert_eq!(
        violations(
            db,
            "use crate::plumbing::error::AppError; use crate::clients_x;",
            &areas
        )
        .len(),
        0
    );
    let area = Path::new("payments/recording.rs");
    assert_eq!(
        violations(
            area,
            "use crate::documents::routes::visible; use crate::clients::contacts_routes::x;",
            &areas
        ),
        [
            "payments/recording.rs reaches into documents::routes",
            "payments/recording.rs reaches into clients::contacts_routes"
        ]
    );
    assert!(violations(area, "use crate::documents::drafts::create_in;", &areas).is_empty());
    assert!(violations(Path::new("lib.rs"), "crate::documents::routes::router()", &areas).is_empty());
    // Handler files hold no SQL and no audit rows: those belong to the operations.
    let handlers = Path::new("clients/contacts_routes.rs");
    assert_eq!(
        violations(handlers, "tx.execute(\"DELETE\", []); record(tx, &u)", &areas),
        [
            "clients/contacts_routes.rs calls execute in a handler file",
            "clients/contacts_routes.rs calls record in a handler file"
        ]
    );
    assert!(
        violations(
            handlers,
            "async fn list_audit(s: State) { record_payment() }",
            &areas
        )
        .is_empty()
    );
    assert_eq!(violations(area, "tx.execute(\"DELETE\", [])", &areas).len(), 0);
}

#[test]
fn lower_layers_name_no_area_and_handler_files_hold_handlers_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let areas = areas(&src);
    assert!(areas.contains(&"documents".to_string()) && areas.contains(&"payments".to_string()));
    let mut files = vec![];
    sources(&src, &mut files);
    let mut wrong: Vec<String> = files
        .iter()
        .flat_map(|file| violations(file.strip_prefix(&src).unwrap(), &code(file), &areas))
        .collect();
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

/// What is out of shape in the file at `relative` (under src/) whose code (comments and test
/// module left out) is `text`: a `mod.rs` is an index (its modules, what it re-exports, at
/// most the area's `router()`), and an area's SQL is in its store files (`store.rs`,
/// `*_store.rs`). The plumbing is the SQL layer itself; the demo office is written in bulk
/// by its own generator, as a migration would, and is no area of the product's.
fn out_of_shape(relative: &Path, text: &str) -> Vec<String> {
    let mut wrong = vec![];
    let stem = relative.file_stem().unwrap_or_default().to_string_lossy();
    if stem == "mod" {
        let items = [
            "fn ", "struct ", "enum ", "impl ", "impl<", "const ", "static ", "type ", "trait ",
        ];
        for line in text.lines().map(str::trim) {
            let line = line
                .strip_prefix("pub(crate) ")
                .or_else(|| line.strip_prefix("pub(super) "))
                .or_else(|| line.strip_prefix("pub "))
                .unwrap_or(line);
            let line = line.strip_prefix("async ").unwrap_or(line);
            if items.iter().any(|i| line.starts_with(i)) && !line.starts_with("fn router(") {
                wrong.push(format!("{} is no index: {line}", relative.display()));
            }
        }
    }
    let top = relative.iter().next().unwrap_or_default();
    let exempt = ["plumbing", "demo"].iter().any(|t| top == *t);
    if !exempt && stem != "store" && !stem.ends_with("_store") {
        for call in [
            "execute",
            "execute_batch",
            "query_row",
            "prepare",
            "prepare_cached",
        ] {
            if text.contains(&format!(".{call}(")) {
                wrong.push(format!("{} calls {call} outside a store", relative.display()));
            }
        }
    }
    wrong
}

#[test]
fn the_shape_rule_sees_what_it_forbids() {
    let index = "pub mod store;\npub use store::X;\npub fn router() -> R { routes::router() }";
    assert!(out_of_shape(Path::new("a/mod.rs"), index).is_empty());
    assert_eq!(
        out_of_shape(
            Path::new("a/mod.rs"),
            "pub struct Row;\npub(crate) async fn list() {}"
        ),
        [
            "a/mod.rs is no index: struct Row;",
            "a/mod.rs is no index: fn list() {}"
        ]
    );
    assert_eq!(
        out_of_shape(Path::new("a/scan.rs"), "conn.prepare_cached(\"SELECT\")"),
        ["a/scan.rs calls prepare_cached outside a store"]
    );
    assert!(out_of_shape(Path::new("a/contacts_store.rs"), "conn.execute(\"X\", [])").is_empty());
    assert!(out_of_shape(Path::new("plumbing/db/settings.rs"), "conn.execute(\"X\", [])").is_empty());
}

#[test]
fn every_mod_rs_is_an_index_and_sql_is_in_the_stores() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    sources(&src, &mut files);
    let mut wrong: Vec<String> = files
        .iter()
        .flat_map(|file| out_of_shape(file.strip_prefix(&src).unwrap(), without_tests(&code(file))))
        .collect();
    wrong.sort();
    assert!(wrong.is_empty(), "out of shape:\n{}", wrong.join("\n"));
}

/// The module a file under src/ is: `reports/store.rs` is `reports::store`, `tds/mod.rs` is
/// `tds`, `lib.rs` the crate root (empty).
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// Every path `text` names from `crate::` or `super::` (the module of the file being `at`),
/// braces expanded: `use crate::a::{b, c::{d, e}}` names a::b, a::c::d and a::c::e.
fn paths(text: &str, at: &[String]) -> Vec<Vec<String>> {
    fn ident(text: &str) -> (&str, &str) {
        let end = text
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        text.split_at(end)
    }
    /// Reads a path (or a braced group of paths) after `prefix`; answers the rest of the text.
    fn read<'t>(mut text: &'t str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> &'t str {
        let mut path = prefix;
        loop {
            text = text.trim_start();
            if let Some(rest) = text.strip_prefix('{') {
                text = rest;
                loop {
                    text = read(text, path.clone(), out).trim_start();
                    match text.chars().next() {
                        Some(',') => text = &text[1..],
                        Some('}') => return &text[1..],
                        _ => return text,
                    }
                    if text.trim_start().starts_with('}') {
                        return &text.trim_start()[1..];
                    }
                }
            }
            let (name, rest) = ident(text);
            if name.is_empty() {
                out.push(path);
                return text;
            }
            if name != "self" {
                path.push(name.to_string());
            }
            text = rest;
            match text.strip_prefix("::") {
                Some(rest) => text = rest,
                None => {
                    out.push(path);
                    return text;
                }
            }
        }
    }
    let mut out = vec![];
    // `super` of `a::b` (a file a/b.rs, or a folder's a/b/mod.rs) is `a` either way.
    let up: Vec<String> = at[..at.len().saturating_sub(1)].to_vec();
    for (marker, base) in [("crate::", vec![]), ("super::", up)] {
        for (i, _) in text.match_indices(marker) {
            if text[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            read(&text[i + marker.len()..], base.clone(), &mut out);
        }
    }
    out
}

/// The code before a file's test module (`#[cfg(test)] mod …`, last in a file): a test may
/// reach anything.
fn without_tests(code: &str) -> &str {
    code.find("#[cfg(test)]\nmod ").map_or(code, |at| &code[..at])
}

/// The circles among the files of src/: each a set of files that import one another in a
/// loop (Tarjan's strongly connected components with more than one file). The crate root
/// imports every area's router, so a file that imports the root is in a circle with it: the
/// roof is imported by nothing.
fn circles(src: &Path) -> Vec<Vec<String>> {
    let mut files = vec![];
    sources(src, &mut files);
    files.retain(|f| f.file_name().is_some_and(|n| n != "main.rs"));
    let modules: Vec<Vec<String>> = files
        .iter()
        .map(|f| module_of(f.strip_prefix(src).unwrap()))
        .collect();
    let index: std::collections::HashMap<&[String], usize> = modules
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_slice(), i))
        .collect();
    let edges: Vec<Vec<usize>> = files
        .iter()
        .zip(&modules)
        .enumerate()
        .map(|(from, (file, module))| {
            let mut to: Vec<usize> = paths(without_tests(&code(file)), module)
                .into_iter()
                .filter_map(|path| {
                    (0..=path.len())
                        .rev()
                        .find_map(|n| index.get(&path[..n]).copied())
                })
                .filter(|&to| to != from)
                .collect();
            to.sort_unstable();
            to.dedup();
            to
        })
        .collect();
    // Tarjan, iterative enough for a few hundred files.
    struct State<'a> {
        edges: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.edges[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = vec![];
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.out.push(component);
            }
        }
    }
    let n = files.len();
    let mut state = State {
        edges: &edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: vec![],
        next: 0,
        out: vec![],
    };
    for v in 0..n {
        if state.index[v].is_none() {
            visit(&mut state, v);
        }
    }
    state
        .out
        .into_iter()
        .map(|c| {
            let mut names: Vec<String> = c
                .into_iter()
                .map(|f| files[f].strip_prefix(src).unwrap().display().to_string())
                .collect();
            names.sort();
            names
        })
        .filter(|c| c.len() > 1)
        .collect()
}

#[test]
fn the_circle_check_sees_a_circle_and_reads_braces() {
    let at = vec!["reports".to_string(), "store".to_string()];
    let mut got = paths(
        "use crate::reports::{rules::{self, DueInvoice}, store}; use super::rules::X; crate::plumbing::db::page::Page",
        &at,
    );
    got.sort();
    let p = |s: &str| s.split("::").map(str::to_string).collect::<Vec<_>>();
    assert_eq!(
        got,
        [
            p("plumbing::db::page::Page"),
            p("reports::rules"),
            p("reports::rules::DueInvoice"),
            p("reports::rules::X"),
            p("reports::store")
        ]
    );
    let dir = tempfile::TempDir::new().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod a; use crate::a::{rules, store};").unwrap();
    std::fs::write(src.join("a/mod.rs"), "pub mod rules; pub mod store;").unwrap();
    std::fs::write(src.join("a/rules.rs"), "use crate::a::store::Row;").unwrap();
    std::fs::write(src.join("a/store.rs"), "use super::rules::{self, bucket};").unwrap();
    assert_eq!(circles(src), [["a/rules.rs", "a/store.rs"]]);
    std::fs::write(src.join("a/rules.rs"), "pub struct Row;").unwrap();
    assert!(circles(src).is_empty());
    // The roof imports the area; the area may not import the roof.
    std::fs::write(src.join("a/store.rs"), "use crate::Root;").unwrap();
    assert_eq!(circles(src), [["a/store.rs", "lib.rs"]]);
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = circles(&src);
    assert!(
        found.is_empty(),
        "files that import each other in a circle (move what both need to where both can import it \
         downward):\n{}",
        found
            .iter()
            .map(|c| c.join(" <-> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
