//! Excel twins of the CSV downloads (decisions 12, "Excel"): every `GET …/x.csv` route of the
//! API gains `GET …/x.xlsx`, registered here once for all of them ([`twins`]).
//!
//! A twin runs the very same handler (its path with `.csv`, the same query, cookie and role), so
//! filters, sort and a staff user's book are the CSV's by construction, and any refusal (a bad
//! query, a missing record, a role) is the CSV's answer. A 200 is turned into one worksheet as its
//! rows stream in: a bold, frozen header row, then each cell typed from its value as the CSV
//! writers made it ([`typed`]):
//!
//! - an amount (`-52.30`, what [`crate::plumbing::http::csv::amount`] writes and nothing else does) is a
//!   number in rupees shown with the Indian grouping `#,##,##0.00`;
//! - a date `YYYY-MM-DD` is a date shown `dd-mm-yyyy`;
//! - a whole number of at most nine digits without a leading zero (a count, a row number) is a
//!   number; longer digit strings (phone numbers, account numbers) and anything with a leading
//!   zero stay text, as do timestamps (UTC, which a spreadsheet cell cannot carry) and months;
//! - everything else is text, written as a string, never as a formula: the CSV's apostrophe
//!   guard before `=`, `+`, `-`, `@`, tab or CR is taken off again, since a string cell cannot run.
//!
//! Memory stays flat on the largest list: the worksheet is written in `rust_xlsxwriter`'s
//! constant-memory mode (rows go to a temporary file as they arrive) and the workbook's zip is
//! streamed to the client as it is packed.

use crate::plumbing::error::AppError;
use crate::plumbing::http::download::{body_of, headers};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::StreamExt;
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet, XlsxError};
use std::io::{self, Read, Write};
use std::net::SocketAddr;
use tokio::sync::mpsc;
use tower::ServiceExt;
use utoipa::openapi::content::Content;
use utoipa::openapi::path::PathItem;
use utoipa::openapi::response::Response as ApiResponse;
use utoipa::openapi::schema::{KnownFormat, Object, SchemaFormat, Type};
use utoipa::openapi::{OpenApi as Document, RefOr};

/// The media type of an `.xlsx` workbook.
pub const CONTENT_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// Amounts: rupees, two decimals, Indian grouping (decisions 12, "Excel").
pub const AMOUNT_FORMAT: &str = "#,##,##0.00";
/// Dates as the office reads them.
pub const DATE_FORMAT: &str = "dd-mm-yyyy";

/// Rows of a worksheet (Excel's limit, the header included).
const MAX_ROWS: u32 = 1_048_576;
/// Characters of a cell (Excel's limit).
const MAX_CHARS: usize = 32_767;
/// Rows read before the column widths are chosen.
const SAMPLE_ROWS: usize = 200;
/// Bytes handed to the client at a time.
const CHUNK: usize = 64 * 1024;

/// Adds to `api` an `.xlsx` twin of every `GET` route of `doc` whose path ends in `.csv`, and the
/// twin's operation to `doc` (the CSV's parameters and statuses, a workbook for its 200, and a
/// 422 `too_many_rows` past Excel's row limit). `state` lets the twins call the CSV routes.
pub fn twins<S: Clone + Send + Sync + 'static>(api: Router<S>, doc: &mut Document, state: &S) -> Router<S> {
    let csv_routes: Router = api.clone().with_state(state.clone());
    let csv_paths: Vec<String> = doc
        .paths
        .paths
        .iter()
        .filter(|(path, item)| path.ends_with(".csv") && item.get.is_some())
        .map(|(path, _)| path.clone())
        .collect();
    let mut api = api;
    for path in csv_paths {
        let twin_path = twin_of(&path);
        let csv_item = &doc.paths.paths[&path];
        let mut item = PathItem::default();
        item.get = csv_item.get.clone();
        item.parameters = csv_item.parameters.clone();
        if let Some(op) = item.get.as_mut() {
            describe(op);
        }
        doc.paths.paths.insert(twin_path.clone(), item);
        let routes = csv_routes.clone();
        api = api.route(
            &twin_path,
            get(move |req: Request| workbook_of(routes.clone(), req)),
        );
    }
    api
}

/// `…/x.csv` → `…/x.xlsx`.
fn twin_of(csv_path: &str) -> String {
    format!("{}.xlsx", csv_path.strip_suffix(".csv").unwrap_or(csv_path))
}

/// Turns the CSV's operation into its twin's: a workbook for the 200, and the row limit.
fn describe(op: &mut utoipa::openapi::path::Operation) {
    op.operation_id = op.operation_id.as_ref().map(|id| format!("{id}_xlsx"));
    let what = op.summary.clone().unwrap_or_default();
    op.summary = Some(if what.is_empty() {
        "The CSV's rows as an Excel workbook".into()
    } else {
        format!("{what} (as an Excel workbook)")
    });
    op.description = Some(
        "The `.xlsx` twin of the `.csv` route beside it: the same query, sort and scoping; one \
         sheet with a frozen header row; amounts as numbers in rupees (`#,##,##0.00`), dates as \
         dates (`dd-mm-yyyy`), text as text."
            .into(),
    );
    let binary = Object::builder()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
        .build();
    let mut ok = ApiResponse::new("The workbook (an attachment named like the CSV, ending in .xlsx)");
    ok.content
        .insert(CONTENT_TYPE.into(), Content::new(Some(RefOr::T(binary.into()))));
    op.responses.responses.insert("200".into(), RefOr::T(ok));
    op.responses.responses.insert(
        "422".into(),
        RefOr::T(ApiResponse::new(
            "`too_many_rows`: more rows than a worksheet holds (1,048,576); narrow the filters",
        )),
    );
}

/// Answers a twin: the CSV route's answer for the same request, as a workbook when it is a CSV.
/// The CSV route gets a fresh request (method, address, headers, body and the peer's address):
/// the twin's own routing facts (its path parameters) must not reach the CSV route's extractors.
async fn workbook_of(csv_routes: Router, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let path = parts.uri.path();
    let csv_path = format!("{}.csv", path.strip_suffix(".xlsx").unwrap_or(path));
    let uri = match parts.uri.query() {
        Some(q) => format!("{csv_path}?{q}"),
        None => csv_path,
    };
    let mut req = Request::new(body);
    match uri.parse() {
        Ok(uri) => *req.uri_mut() = uri,
        Err(e) => return AppError::internal(e).into_response(),
    }
    *req.method_mut() = parts.method;
    *req.version_mut() = parts.version;
    *req.headers_mut() = parts.headers;
    if let Some(peer) = parts.extensions.get::<ConnectInfo<SocketAddr>>() {
        req.extensions_mut().insert(*peer);
    }
    let Ok(reply) = csv_routes.oneshot(req).await;
    let is_csv = reply
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/csv"));
    if reply.status() != StatusCode::OK || !is_csv {
        return reply;
    }
    let file_name = reply
        .headers()
        .get(header::CONTENT_DISPOSITION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split("filename=\"").nth(1))
        .and_then(|v| v.split('"').next())
        .unwrap_or("export.csv")
        .to_string();
    match stream(&file_name, reply.into_body()).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    }
}

/// Streams the CSV `body` (named `csv_name`) out as a workbook named like it, ending in `.xlsx`.
/// A failure before the workbook's first bytes (too many rows, an unreadable CSV) is answered
/// as an error; one after them cuts the download short.
pub async fn stream(csv_name: &str, body: Body) -> Result<Response, AppError> {
    let stem = csv_name.strip_suffix(".csv").unwrap_or(csv_name).to_string();
    let (in_tx, in_rx) = mpsc::channel::<io::Result<Bytes>>(4);
    tokio::spawn(async move {
        let mut chunks = body.into_data_stream();
        while let Some(chunk) = chunks.next().await {
            let failed = chunk.is_err();
            if in_tx.send(chunk.map_err(io::Error::other)).await.is_err() || failed {
                break;
            }
        }
    });
    let (out_tx, out_rx) = mpsc::channel::<Result<Vec<u8>, AppError>>(4);
    let sheet_name = sheet_name(&stem);
    let errors = out_tx.clone();
    tokio::task::spawn_blocking(move || {
        let csv = ChannelReader {
            rx: in_rx,
            current: Bytes::new(),
        };
        let out = io::BufWriter::with_capacity(CHUNK, ChannelWriter { tx: out_tx });
        if let Err(e) = write_workbook(csv, out, &sheet_name) {
            let _ = errors.blocking_send(Err(e));
        }
    });
    let body = body_of(out_rx, "workbook").await?;
    Ok((headers(CONTENT_TYPE, &format!("{stem}.xlsx")), body).into_response())
}

/// A sheet's name from the file's: at most 31 characters, none of `[]:*?/\`.
fn sheet_name(stem: &str) -> String {
    let name: String = stem
        .chars()
        .filter(|c| !matches!(c, '[' | ']' | ':' | '*' | '?' | '/' | '\\'))
        .take(31)
        .collect();
    let name = name.trim_matches('\'').to_string();
    if name.is_empty() { "Sheet1".into() } else { name }
}

/// One cell of the CSV, typed.
#[derive(Debug, PartialEq)]
pub enum Cell<'a> {
    Blank,
    Text(&'a str),
    Amount(f64),
    Integer(f64),
    /// Year, month, day.
    Date(u16, u8, u8),
}

/// Types a CSV cell as the CSV writers made it (see the module's notes).
pub fn typed(value: &str) -> Cell<'_> {
    if value.is_empty() {
        return Cell::Blank;
    }
    if let Some(unguarded) = value.strip_prefix('\'')
        && unguarded.starts_with(['=', '+', '-', '@', '\t', '\r'])
    {
        return Cell::Text(unguarded);
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let unsigned = value.strip_prefix('-').unwrap_or(value);
    if let Some((whole, fraction)) = unsigned.split_once('.')
        && digits(whole)
        && fraction.len() == 2
        && digits(fraction)
        && let Ok(n) = value.parse::<f64>()
    {
        return Cell::Amount(n);
    }
    if digits(unsigned)
        && unsigned.len() <= 9
        && (unsigned == "0" || !unsigned.starts_with('0'))
        && let Ok(n) = value.parse::<f64>()
    {
        return Cell::Integer(n);
    }
    let b = value.as_bytes();
    if b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(&value[..4])
        && digits(&value[5..7])
        && digits(&value[8..])
    {
        let (y, m, d) = (value[..4].parse(), value[5..7].parse(), value[8..].parse());
        if let (Ok(y), Ok(m), Ok(d)) = (y, m, d)
            && ExcelDateTime::from_ymd(y, m, d).is_ok()
        {
            return Cell::Date(y, m, d);
        }
    }
    Cell::Text(value)
}

/// The formats of a sheet.
struct Formats {
    header: Format,
    amount: Format,
    date: Format,
}

/// Reads the CSV from `csv` and writes the workbook (one sheet named `sheet_name`) to `out`.
pub fn write_workbook(csv: impl Read, out: impl Write + Send, sheet_name: &str) -> Result<(), AppError> {
    write_capped(csv, out, sheet_name, MAX_ROWS)
}

/// [`write_workbook`] with at most `max_rows` rows (the header included).
fn write_capped(
    csv: impl Read,
    out: impl Write + Send,
    sheet_name: &str,
    max_rows: u32,
) -> Result<(), AppError> {
    let failed = |e: XlsxError| match e {
        XlsxError::RowColumnLimitError => AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_many_rows",
            "There are more rows than one Excel sheet holds (1,048,576). Narrow the filters and download again.",
        ),
        e => AppError::internal(e),
    };
    let formats = Formats {
        header: Format::new().set_bold(),
        amount: Format::new().set_num_format(AMOUNT_FORMAT),
        date: Format::new().set_num_format(DATE_FORMAT),
    };
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv);
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet_with_constant_memory().map_err(failed)?;
    sheet.set_name(sheet_name).map_err(failed)?;
    let mut records = reader.records();
    // The first rows are held to size the columns, which are set before any row is written.
    let mut sample = vec![];
    for record in records.by_ref() {
        sample.push(record.map_err(AppError::internal)?);
        if sample.len() == SAMPLE_ROWS {
            break;
        }
    }
    size_columns(sheet, &sample).map_err(failed)?;
    sheet.set_freeze_panes(1, 0).map_err(failed)?;
    let mut rows = sample.into_iter().map(Ok).chain(records);
    for (row, record) in (0..max_rows).zip(rows.by_ref()) {
        let record = record.map_err(AppError::internal)?;
        write_row(sheet, row, &record, &formats).map_err(failed)?;
    }
    if rows.next().is_some() {
        return Err(failed(XlsxError::RowColumnLimitError));
    }
    workbook.save_to_writer(out).map_err(failed)
}

/// Column widths from the header and the first rows (in characters, amounts with their commas).
fn size_columns(sheet: &mut Worksheet, sample: &[::csv::StringRecord]) -> Result<(), XlsxError> {
    let mut widths: Vec<usize> = vec![];
    for record in sample {
        for (i, value) in record.iter().enumerate() {
            let shown = match typed(value) {
                Cell::Amount(_) => value.len() + value.len() / 3,
                Cell::Date(..) => 10,
                _ => value.chars().count(),
            };
            if widths.len() <= i {
                widths.resize(i + 1, 0);
            }
            widths[i] = widths[i].max(shown);
        }
    }
    for (i, width) in widths.into_iter().enumerate() {
        let col = u16::try_from(i).map_err(|_| XlsxError::RowColumnLimitError)?;
        sheet.set_column_width(col, (width.clamp(6, 60) + 2) as f64)?;
    }
    Ok(())
}

/// One row: the first (the header) in bold text, the others typed.
fn write_row(
    sheet: &mut Worksheet,
    row: u32,
    record: &::csv::StringRecord,
    f: &Formats,
) -> Result<(), XlsxError> {
    for (i, value) in record.iter().enumerate() {
        let col = u16::try_from(i).map_err(|_| XlsxError::RowColumnLimitError)?;
        if row == 0 {
            sheet.write_string_with_format(row, col, value, &f.header)?;
            continue;
        }
        match typed(value) {
            Cell::Blank => {}
            Cell::Text(text) => {
                let text = match text.char_indices().nth(MAX_CHARS) {
                    Some((end, _)) => &text[..end],
                    None => text,
                };
                sheet.write_string(row, col, text)?;
            }
            Cell::Amount(n) => {
                sheet.write_number_with_format(row, col, n, &f.amount)?;
            }
            Cell::Integer(n) => {
                sheet.write_number(row, col, n)?;
            }
            Cell::Date(y, m, d) => {
                sheet.write_datetime_with_format(row, col, ExcelDateTime::from_ymd(y, m, d)?, &f.date)?;
            }
        }
    }
    Ok(())
}

/// The CSV's bytes as they arrive, read on a blocking thread.
struct ChannelReader {
    rx: mpsc::Receiver<io::Result<Bytes>>,
    current: Bytes,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.current.is_empty() {
            match self.rx.blocking_recv() {
                Some(chunk) => self.current = chunk?,
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current.split_to(n));
        Ok(n)
    }
}

/// The workbook's bytes handed to the response as they are packed.
struct ChannelWriter {
    tx: mpsc::Sender<Result<Vec<u8>, AppError>>,
}

impl Write for ChannelWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tx
            .blocking_send(Ok(buf.to_vec()))
            .map_err(|_| io::Error::other("the download was abandoned"))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Cell, typed};
    use std::io::{self, Read, Write};

    /// The measurement behind the streaming (run by hand: `cargo test --release --lib
    /// xlsx::tests::a_large_list -- --ignored --nocapture`): 120,000 rows shaped like
    /// documents.csv (a year of the large office is about a tenth of that), generated as read and
    /// counted as written, so the peak resident size is the converter's own.
    #[test]
    #[ignore]
    fn a_large_list_streams_in_flat_memory() {
        struct Rows(usize, Vec<u8>);
        impl Read for Rows {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.1.is_empty() {
                    if self.0 == 0 {
                        return Ok(0);
                    }
                    self.0 -= 1;
                    let n = self.0;
                    self.1 = format!(
                        "INV/2025-26/{n:05},INVOICE,Society number {} SCB,2025-{:02}-{:02},2025-{:02}-{:02},issued,partly_paid,{}.{:02},{}.00\r\n",
                        n % 5000, n % 12 + 1, n % 28 + 1, n % 12 + 1, n % 28 + 1, n * 7 % 250_000, n % 100, n % 9000
                    )
                    .into_bytes();
                }
                let k = buf.len().min(self.1.len());
                buf[..k].copy_from_slice(&self.1[..k]);
                self.1.drain(..k);
                Ok(k)
            }
        }
        struct Count(usize);
        impl Write for Count {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.0 += buf.len();
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let rss = |key: &str| {
            std::fs::read_to_string("/proc/self/status")
                .unwrap_or_default()
                .lines()
                .find(|l| l.starts_with(key))
                .map(|l| l.to_string())
                .unwrap_or_default()
        };
        let header = "Number,Type,Client,Date,Due,Status,Payment,Total,Outstanding\r\n";
        let rows = 120_000;
        let csv = io::Cursor::new(header.as_bytes().to_vec()).chain(Rows(rows, vec![]));
        let started = std::time::Instant::now();
        let mut out = Count(0);
        super::write_workbook(csv, &mut out, "documents").unwrap();
        println!(
            "{rows} rows -> {} KB of xlsx in {:.2} s; {} / {}",
            out.0 / 1024,
            started.elapsed().as_secs_f64(),
            rss("VmHWM"),
            rss("VmRSS")
        );
    }

    #[test]
    fn more_rows_than_a_sheet_holds_are_refused_before_a_byte_is_written() {
        let mut out = vec![];
        let e = super::write_capped("A,B\r\n1,2\r\n3,4\r\n".as_bytes(), &mut out, "x", 2).unwrap_err();
        assert_eq!((e.status.as_u16(), e.code), (422, "too_many_rows"));
        assert!(out.is_empty());
        super::write_capped("A,B\r\n1,2\r\n".as_bytes(), &mut out, "x", 2).unwrap();
        assert!(out.starts_with(b"PK"));
    }

    #[test]
    fn cells_are_typed_as_the_csv_writers_made_them() {
        assert_eq!(typed("-52.30"), Cell::Amount(-52.3));
        assert_eq!(typed("1234567.00"), Cell::Amount(1_234_567.0));
        assert_eq!(typed("2025-04-01"), Cell::Date(2025, 4, 1));
        assert_eq!(typed("2025-02-30"), Cell::Text("2025-02-30"));
        assert_eq!(typed("17"), Cell::Integer(17.0));
        assert_eq!(typed("0"), Cell::Integer(0.0));
        assert_eq!(typed("9847012345"), Cell::Text("9847012345"));
        assert_eq!(typed("0484"), Cell::Text("0484"));
        assert_eq!(typed("'=SUM(A1)"), Cell::Text("=SUM(A1)"));
        assert_eq!(typed("'-ok"), Cell::Text("-ok"));
        assert_eq!(typed("'plain"), Cell::Text("'plain"));
        assert_eq!(typed("2025-04"), Cell::Text("2025-04"));
        assert_eq!(typed("2025-04-01T10:00:00Z"), Cell::Text("2025-04-01T10:00:00Z"));
        assert_eq!(typed("1.5"), Cell::Text("1.5"));
        assert_eq!(typed(""), Cell::Blank);
    }
}
