//! CSV output: RFC 4180 quoting, and a leading apostrophe on cells a spreadsheet would run as a
//! formula (=, +, -, @), so an exported client name cannot become a command in Excel.

/// One cell.
pub fn cell(value: &str) -> String {
    let guarded = if value.starts_with(['=', '+', '-', '@']) {
        format!("'{value}")
    } else {
        value.to_string()
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// One line, ending in CRLF.
pub fn line(cells: &[&str]) -> String {
    let mut out = cells.iter().map(|c| cell(c)).collect::<Vec<_>>().join(",");
    out.push_str("\r\n");
    out
}

/// A CSV built in memory (reports of a few thousand rows) as a download named `file_name`.
pub fn attachment(file_name: &str, body: String) -> axum::response::Response {
    use axum::response::IntoResponse;
    (
        [
            (
                axum::http::header::CONTENT_TYPE,
                "text/csv; charset=utf-8".to_string(),
            ),
            (
                axum::http::header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file_name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoting_and_formula_guard() {
        assert_eq!(
            super::line(&["plain", "a,b", "say \"hi\"", "=SUM(A1)", ""]),
            "plain,\"a,b\",\"say \"\"hi\"\"\",'=SUM(A1),\r\n"
        );
    }
}
