//! The rules of the legacy import (spec 2.10 import staging, 2.7, 4.8; issue 17), as plain
//! functions:
//! - the file is CSV read by a CSV reader (quoted commas and newlines, CRLF, an Excel byte-order
//!   mark), at most [`MAX_BYTES`] and [`MAX_ROWS`] rows; headers are matched case-insensitively
//!   and without punctuation against [`FIELDS`] and their common spellings, in any order; `name`
//!   is required, every other column optional, unknown columns are ignored and said so;
//! - a client is known by its name normalized ([`client_key`]): rows of one key are one client
//!   (a client with several legacy invoices is on several rows); it is the registry's client of
//!   the same GSTIN and name, else the only one with that GSTIN, else the one of that name;
//! - amounts are rupees as people write them (`1180`, `1,180.00`, `₹1,180.50`, `Rs. 1180/-`),
//!   read into paise exactly; dates are `YYYY-MM-DD`, `DD-MM-YYYY`, `DD/MM/YYYY`, `DD.MM.YYYY`
//!   or `01-Apr-2024`, never after the office's today;
//! - an invoice number is `<prefix>/<yy>-<yy>-<seq>` of its date's financial year, the prefix
//!   not one the other documents own (QT, PI, CN, RCT);
//! - phones and email addresses (the society's and its contact's) are checked as the client and
//!   contact forms check them; a contact's role, phone or email needs the contact's name;
//! - every problem a row has is a marker ([`PROBLEM_KINDS`]); any stops the commit. A client
//!   already in the registry is not a problem: it is offered as update or skip;
//! - numbers far past a series' own open a gap the owner is warned of before the commit
//!   ([`continuity_gaps`]).

use crate::plumbing::clock::Fy;
use crate::plumbing::error::AppError;
use crate::plumbing::gstin::Gstin;
use crate::staff::rules::{check_email, check_phone};
use chrono::{Datelike, NaiveDate};
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

/// The largest file staged, in bytes of CSV text.
pub const MAX_BYTES: usize = 20 * 1024 * 1024;
/// The stage body's limit: the file travels as JSON text, whose escapes (`\"`, `\r\n`) can
/// double a file of quoted cells; the file's own limit (`MAX_BYTES`) is checked on the
/// text, so a file under it is never refused for its escapes.
pub const STAGE_BODY_LIMIT: usize = 2 * MAX_BYTES + 64 * 1024;

/// The most data rows a file may have.
pub const MAX_ROWS: usize = 100_000;
/// The most columns a file may have. The import reads about 20 (`FIELDS`) and says which others
/// it ignores; a legacy export with a few dozen extra columns is still read, while a header
/// of 200,000 columns (a mistake or an attack) is refused before its headers are kept and
/// echoed back by every status read.
pub const MAX_COLUMNS: usize = 100;
/// How much of each header the status echoes, in characters: a real header is a few words;
/// a longer one is cut (with "…") so the status never re-sends a megabyte header cell.
pub const HEADER_SHOWN: usize = 100;
/// The problem rows the status lists (spec 8: the first 50, with honest totals).
pub const PROBLEM_ROWS_SHOWN: usize = 50;

/// The columns the import reads and the headers each is known by (compared lower-case with
/// everything but letters and digits taken out, so `GSTIN No.` is `gstinno`).
pub const FIELDS: &[(&str, &[&str])] = &[
    (
        "name",
        &[
            "name",
            "society",
            "societyname",
            "nameofsociety",
            "client",
            "clientname",
            "customer",
            "customername",
            "party",
            "partyname",
        ],
    ),
    (
        "gstin",
        &[
            "gstin",
            "gstinno",
            "gstinnumber",
            "gst",
            "gstno",
            "gstnumber",
            "gstinuin",
        ],
    ),
    ("district", &["district", "dist", "districtname"]),
    ("sector", &["sector", "sectorname"]),
    (
        "remote_access_id",
        &[
            "remoteaccessid",
            "remoteid",
            "remoteaccess",
            "anydesk",
            "anydeskid",
            "teamviewer",
            "teamviewerid",
        ],
    ),
    ("os", &["os", "operatingsystem"]),
    (
        "phone",
        &[
            "phone",
            "phoneno",
            "phonenumber",
            "mobile",
            "mobileno",
            "mobilenumber",
            "telephone",
            "tel",
        ],
    ),
    ("email", &["email", "emailid", "emailaddress", "mail"]),
    ("address", &["address", "postaladdress", "fulladdress"]),
    ("contact_name", &["contactname", "contactperson", "contact"]),
    ("contact_role", &["contactrole", "role", "designation"]),
    (
        "contact_phone",
        &["contactphone", "contactmobile", "contactno", "contactnumber"],
    ),
    (
        "contact_email",
        &["contactemail", "contactemailid", "contactmail"],
    ),
    (
        "invoice_no",
        &[
            "invoiceno",
            "invoicenumber",
            "invno",
            "invoice",
            "billno",
            "billnumber",
        ],
    ),
    ("invoice_date", &["invoicedate", "invdate", "billdate", "date"]),
    (
        "invoice_total",
        &[
            "invoicetotal",
            "invoiceamount",
            "invoicevalue",
            "total",
            "amount",
            "billamount",
            "grandtotal",
        ],
    ),
    (
        "invoice_balance",
        &[
            "invoicebalance",
            "balance",
            "balancedue",
            "outstanding",
            "amountdue",
            "dueamount",
            "pending",
        ],
    ),
];

/// The sample file the import page offers: every column, a quoted comma, a name in Malayalam,
/// a society with two legacy invoices (and its secretary as a contact) and one without any.
pub const SAMPLE: &str = "name,gstin,district,sector,remote_access_id,os,phone,email,address,contact_name,contact_role,contact_phone,contact_email,invoice_no,invoice_date,invoice_total,invoice_balance\r\n\
\"Kallada Service Co-operative Bank Ltd, No 1432\",32AABAK1234C1ZI,Kollam,Banking,123 456 789,Windows 10,0474 255 1432,kalladascb@example.in,\"Main Road, Kallada, Kollam 691500\",Suresh Kumar,secretary,94470 12345,secretary.kallada@example.in,INV/24-25-0101,15-04-2024,\"11,800.00\",0\r\n\
\"Kallada Service Co-operative Bank Ltd, No 1432\",32AABAK1234C1ZI,Kollam,Banking,123 456 789,Windows 10,,,,,,,,INV/25-26-0042,02/05/2025,\"₹5,900.00\",\"5,900.00\"\r\n\
കുണ്ടറ വനിതാ സഹകരണ സംഘം,,Kollam,Women,,Windows 11,,,,,,,,,,,\r\n";

/// Every kind of problem marker a staged row may carry.
pub const PROBLEM_KINDS: &[&str] = &[
    "name_missing",
    "name_too_long",
    "gstin_invalid",
    "duplicate_row",
    "conflicting_gstin",
    "value_too_long",
    "invoice_incomplete",
    "date_invalid",
    "amount_invalid",
    "invoice_no_shape",
    "invoice_fy_mismatch",
    "invoice_no_clash",
    "phone_invalid",
    "email_invalid",
    "contact_incomplete",
];

/// Prefixes the back office's other series own: a legacy invoice may not take them.
const RESERVED_PREFIXES: &[&str] = &["QT", "PI", "CN", "RCT"];

/// How one header of the file was read.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, ToSchema)]
pub struct Column {
    pub header: String,
    /// The import's column it fills; null when the header is not one the import reads.
    pub field: Option<String>,
}

/// One data row as the file gives it (trimmed text; empty when absent).
#[derive(Debug, Clone, Default, PartialEq, Serialize, ToSchema)]
pub struct RawRow {
    /// The spreadsheet row: the header is row 1.
    pub row: i64,
    pub name: String,
    pub gstin: String,
    pub district: String,
    pub sector: String,
    pub remote_access_id: String,
    pub os: String,
    pub phone: String,
    pub email: String,
    pub address: String,
    /// One contact of the society: a person's name, role, phone and email.
    pub contact_name: String,
    pub contact_role: String,
    pub contact_phone: String,
    pub contact_email: String,
    pub invoice_no: String,
    pub invoice_date: String,
    pub invoice_total: String,
    pub invoice_balance: String,
}

impl RawRow {
    /// The text of the import column `field`.
    pub fn field_mut(&mut self, field: &str) -> Option<&mut String> {
        Some(match field {
            "name" => &mut self.name,
            "gstin" => &mut self.gstin,
            "district" => &mut self.district,
            "sector" => &mut self.sector,
            "remote_access_id" => &mut self.remote_access_id,
            "os" => &mut self.os,
            "phone" => &mut self.phone,
            "email" => &mut self.email,
            "address" => &mut self.address,
            "contact_name" => &mut self.contact_name,
            "contact_role" => &mut self.contact_role,
            "contact_phone" => &mut self.contact_phone,
            "contact_email" => &mut self.contact_email,
            "invoice_no" => &mut self.invoice_no,
            "invoice_date" => &mut self.invoice_date,
            "invoice_total" => &mut self.invoice_total,
            "invoice_balance" => &mut self.invoice_balance,
            _ => return None,
        })
    }

    fn has_invoice(&self) -> bool {
        !(self.invoice_no.is_empty()
            && self.invoice_date.is_empty()
            && self.invoice_total.is_empty()
            && self.invoice_balance.is_empty())
    }
}

/// A header as the status echoes it: trimmed, at most [`HEADER_SHOWN`] characters.
fn shown_header(header: &str) -> String {
    let header = header.trim();
    match header.char_indices().nth(HEADER_SHOWN) {
        Some((cut, _)) => format!("{}…", &header[..cut]),
        None => header.to_string(),
    }
}

fn header_key(header: &str) -> String {
    header
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Reads the headers: which import column each fills. Refused: no `name` column, or two
/// headers for one column.
pub fn map_headers(headers: &[String]) -> Result<Vec<Column>, AppError> {
    if headers.len() > MAX_COLUMNS {
        return Err(AppError::invalid(
            "csv",
            "too_many_columns",
            format!(
                "The file has {} columns; at most {MAX_COLUMNS} are read. Remove the columns the import does not need.",
                headers.len()
            ),
        ));
    }
    let mut columns = Vec::with_capacity(headers.len());
    for header in headers {
        let key = header_key(header);
        let header = shown_header(header);
        let field = FIELDS
            .iter()
            .find(|(_, aliases)| aliases.contains(&key.as_str()))
            .map(|(field, _)| *field);
        if let Some(f) = field
            && let Some(other) = columns.iter().find(|c: &&Column| c.field.as_deref() == Some(f))
        {
            return Err(AppError::invalid(
                "csv",
                "duplicate_column",
                format!(
                    "The headers \"{}\" and \"{}\" both read as {f}: keep one.",
                    other.header, header
                ),
            ));
        }
        columns.push(Column {
            header,
            field: field.map(str::to_string),
        });
    }
    if !columns.iter().any(|c| c.field.as_deref() == Some("name")) {
        return Err(AppError::invalid(
            "csv",
            "missing_column",
            "The file has no name column: the first row must hold the headers, one of them \"name\".",
        ));
    }
    Ok(columns)
}

/// Reads the CSV text of an import: its columns and its data rows (rows of empty cells
/// skipped). Refused with the reason: an empty or oversized file, no name column, more rows
/// than [`MAX_ROWS`], or a row with more cells than there are headers (an unquoted comma).
pub fn read_file(text: &str) -> Result<(Vec<Column>, Vec<RawRow>), AppError> {
    if text.len() > MAX_BYTES {
        return Err(AppError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            "file_too_large",
            format!(
                "The file is {:.1} MB; at most {} MB is imported at once. Split it and import the parts one after the other.",
                text.len() as f64 / (1024.0 * 1024.0),
                MAX_BYTES / (1024 * 1024)
            ),
        )
        .on_field("csv"));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(AppError::invalid("csv", "empty_file", "The file is empty."));
    }
    let malformed = |e: csv::Error| {
        let row = e.position().map(|p| p.record() + 1);
        AppError::invalid(
            "csv",
            "malformed_csv",
            match row {
                Some(r) => format!("Row {r} cannot be read as CSV: {e}."),
                None => format!("The file cannot be read as CSV: {e}."),
            },
        )
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(malformed)?
        .iter()
        .map(str::to_string)
        .collect();
    let columns = map_headers(&headers)?;
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(malformed)?;
        let row = i as i64 + 2;
        if record.len() > columns.len() {
            return Err(AppError::invalid(
                "csv",
                "malformed_csv",
                format!(
                    "Row {row} has {} cells where the header has {}: a comma inside a value needs the value in double quotes.",
                    record.len(),
                    columns.len()
                ),
            ));
        }
        if record.iter().all(|cell| cell.trim().is_empty()) {
            continue;
        }
        if rows.len() == MAX_ROWS {
            return Err(AppError::invalid(
                "csv",
                "too_many_rows",
                format!(
                    "The file has more than {MAX_ROWS} rows: split it and import the parts one after the other."
                ),
            ));
        }
        let mut raw = RawRow {
            row,
            ..RawRow::default()
        };
        for (column, cell) in columns.iter().zip(record.iter()) {
            if let Some(slot) = column.field.as_deref().and_then(|f| raw.field_mut(f)) {
                *slot = cell.trim().to_string();
            }
        }
        rows.push(raw);
    }
    if rows.is_empty() {
        return Err(AppError::invalid(
            "csv",
            "no_rows",
            "The file has headers but no rows.",
        ));
    }
    Ok((columns, rows))
}

/// A client's key: the name lower-cased, punctuation and runs of spaces as one space, and a
/// trailing "ltd" or "limited" dropped, so `Kallada S.C.B. Ltd.` and `KALLADA SCB` are one.
/// Letters of every script are kept as they are (Malayalam vowel signs included).
pub fn client_key(name: &str) -> String {
    let lower = name.to_lowercase();
    let mut words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c.is_ascii_punctuation())
        .filter(|w| !w.is_empty())
        .collect();
    while matches!(words.last(), Some(&"ltd" | &"limited")) && words.len() > 1 {
        words.pop();
    }
    // "s c b" and "scb" are one: single letters run together.
    let mut key = String::new();
    let mut last_single = false;
    for w in words {
        let single = w.chars().count() == 1;
        if !(key.is_empty() || single && last_single) {
            key.push(' ');
        }
        key.push_str(w);
        last_single = single;
    }
    key
}

/// Rupees as people write them into paise, exactly: `1180`, `1,180.00`, `₹1,18,000.5`,
/// `Rs. 1180/-`, `INR 1180`. None for anything else (negative amounts included).
pub fn parse_amount(text: &str) -> Option<i64> {
    let mut s = text.trim();
    for prefix in ["₹", "rs.", "rs", "inr"] {
        if s.len() >= prefix.len()
            && s.is_char_boundary(prefix.len())
            && s[..prefix.len()].eq_ignore_ascii_case(prefix)
        {
            s = s[prefix.len()..].trim_start();
            break;
        }
    }
    let s = s.strip_suffix("/-").unwrap_or(s).trim_end();
    let (whole, fraction) = match s.split_once('.') {
        Some((w, f)) => (w, f),
        None => (s, ""),
    };
    if whole.is_empty()
        || whole.starts_with(',')
        || whole.ends_with(',')
        || whole.contains(",,")
        || !whole.bytes().all(|b| b.is_ascii_digit() || b == b',')
        || fraction.len() > 2
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let rupees: i64 = whole.replace(',', "").parse().ok()?;
    let paise: i64 = format!("{fraction:0<2}").parse().ok()?;
    rupees.checked_mul(100)?.checked_add(paise)
}

/// A date as people write it: `2024-04-01`, `01-04-2024`, `01/04/2024`, `01.04.2024`, `1-Apr-2024`,
/// with a four-digit year from 1950 (`01-04-24` is not read as the year 1).
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let s = text.trim();
    [
        "%Y-%m-%d", "%d-%m-%Y", "%d/%m/%Y", "%d.%m.%Y", "%d-%b-%Y", "%d %b %Y",
    ]
    .iter()
    .find_map(|f| NaiveDate::parse_from_str(s, f).ok())
    .filter(|d| (1950..10_000).contains(&d.year()))
}

/// A legacy number's parts: `INV/25-26-0042` is ("INV", "25-26", 42).
#[derive(Debug, PartialEq, Eq)]
pub struct LegacyNumber {
    pub prefix: String,
    pub fy: String,
    pub seq: i64,
}

/// Reads `<prefix>/<yy>-<yy>-<seq>`: a prefix of capital letters and digits (starting with a
/// letter, at most 10), two consecutive years, a sequence of 1 to 9 digits.
pub fn parse_number(text: &str) -> Option<LegacyNumber> {
    let (prefix, rest) = text.split_once('/')?;
    let ok_prefix = !prefix.is_empty()
        && prefix.len() <= 10
        && prefix.starts_with(|c: char| c.is_ascii_uppercase())
        && prefix
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
    let b = rest.as_bytes();
    if !ok_prefix || b.len() < 7 || b[2] != b'-' || b[5] != b'-' {
        return None;
    }
    let (from, to, seq) = (&rest[..2], &rest[3..5], &rest[6..]);
    let two =
        |s: &str| (s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u32>().ok())?;
    let (from, to) = (two(from)?, two(to)?);
    if (from + 1) % 100 != to || seq.len() > 9 || !seq.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(LegacyNumber {
        prefix: prefix.to_string(),
        fy: format!("{from:02}-{to:02}"),
        seq: seq.parse().ok()?,
    })
}

/// A gap the commit would open in a number series (decisions 12's warning shape, `{ code:
/// "continuity_gap", message, series, from, to, count }`): the numbers between the last one the
/// series has given and the smallest the file brings to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ContinuityGap {
    pub code: &'static str,
    pub message: String,
    /// The series: prefix and financial year, `INV/25-26`.
    pub series: String,
    /// The first and the last number left missing, `INV/25-26-0159`.
    pub from: String,
    pub to: String,
    /// How many numbers are missing.
    pub count: i64,
}

/// The gaps committing `staged` (the numbers of the invoices the commit would record) would open
/// against the numbers each series has already given (`given`: (prefix, fy) → its last
/// sequence). A series opens a gap when the smallest staged number of it lies more than one past
/// its last given number; a series that has given no number yet opens none (it begins where the
/// old system's numbers do, as the continuity report reads it).
pub fn continuity_gaps(
    staged: &[LegacyNumber],
    given: &HashMap<(String, String), i64>,
) -> Vec<ContinuityGap> {
    let mut smallest: std::collections::BTreeMap<(&str, &str), i64> = Default::default();
    for n in staged {
        let seq = smallest
            .entry((n.prefix.as_str(), n.fy.as_str()))
            .or_insert(n.seq);
        *seq = (*seq).min(n.seq);
    }
    smallest
        .into_iter()
        .filter_map(|((prefix, fy), first)| {
            let last = *given.get(&(prefix.to_string(), fy.to_string()))?;
            (last > 0 && first > last + 1).then(|| {
                let number = |seq| crate::documents::rules::number(prefix, fy, seq);
                let (from, to, count) = (number(last + 1), number(first - 1), first - last - 1);
                let series = format!("{prefix}/{fy}");
                let missing = if count == 1 {
                    format!("{from} missing")
                } else {
                    format!("{from} to {to} ({count} numbers) missing")
                };
                ContinuityGap {
                    code: "continuity_gap",
                    message: format!(
                        "Importing {} leaves {missing} in {series}: its last number so far is {}.",
                        number(first),
                        number(last)
                    ),
                    series,
                    from,
                    to,
                    count,
                }
            })
        })
        .collect()
}

/// A problem marker: what stops a row from being committed, on which column, and why.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, ToSchema)]
pub struct Problem {
    pub kind: String,
    pub field: String,
    pub message: String,
}

fn problem(kind: &str, field: &str, message: impl Into<String>) -> Problem {
    Problem {
        kind: kind.into(),
        field: field.into(),
        message: message.into(),
    }
}

/// A client of the registry, as the matching reads it.
pub struct KnownClient {
    pub id: String,
    pub name: String,
    pub gstin: Option<String>,
}

/// A number already in the registry: whose document it is and whether it came from an import.
pub struct KnownNumber {
    pub client_id: String,
    pub legacy: bool,
}

/// What the registry already holds that the checks compare the file with.
pub struct Registry {
    pub clients: Vec<KnownClient>,
    /// The documents whose numbers the file's rows give.
    pub numbers: HashMap<String, KnownNumber>,
}

/// A staged row as the owner left it: its text, and whether it is excluded.
pub struct Staged {
    pub raw: RawRow,
    pub excluded: bool,
}

/// What the checks made of a row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Verdict {
    pub client_key: String,
    pub doc_date: Option<NaiveDate>,
    pub fy: Option<String>,
    pub total: Option<i64>,
    pub balance: Option<i64>,
    pub problems: Vec<Problem>,
    /// The registry's client this row's client is.
    pub match_id: Option<String>,
    /// The invoice is already this client's legacy invoice.
    pub invoice_known: bool,
}

struct Index<'a> {
    by_gstin: HashMap<&'a str, Vec<&'a KnownClient>>,
    by_key: HashMap<String, Vec<&'a KnownClient>>,
}

impl<'a> Index<'a> {
    fn new(clients: &'a [KnownClient]) -> Self {
        let mut by_gstin: HashMap<&str, Vec<&KnownClient>> = HashMap::new();
        let mut by_key: HashMap<String, Vec<&KnownClient>> = HashMap::new();
        for c in clients {
            if let Some(g) = c.gstin.as_deref() {
                by_gstin.entry(g).or_default().push(c);
            }
            by_key.entry(client_key(&c.name)).or_default().push(c);
        }
        Index { by_gstin, by_key }
    }

    /// The registry's client for a file client of `key` and `gstin`: the one of the same
    /// GSTIN and name, else the first of that name whose GSTIN is unset or the same. (A GSTIN
    /// alone does not match: a society and the store it runs may share one.)
    fn find(&self, key: &str, gstin: Option<&str>) -> Option<&'a KnownClient> {
        if let Some(g) = gstin
            && let Some(c) = self
                .by_gstin
                .get(g)
                .and_then(|same| same.iter().find(|c| client_key(&c.name) == key))
        {
            return Some(c);
        }
        self.by_key
            .get(key)?
            .iter()
            .copied()
            .find(|c| match (c.gstin.as_deref(), gstin) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            })
    }
}

/// Checks every staged row against the others and the registry, as of the office's `today`.
/// Excluded rows are read but neither checked nor compared with.
pub fn check(rows: &[Staged], registry: &Registry, today: NaiveDate) -> Vec<Verdict> {
    let mut verdicts: Vec<Verdict> = rows.iter().map(|s| check_row(&s.raw, today)).collect();
    let index = Index::new(&registry.clients);
    // A client's GSTIN is the first valid one its rows give.
    let mut client_gstin: HashMap<&str, String> = HashMap::new();
    for (s, v) in rows.iter().zip(&verdicts) {
        if !s.excluded
            && !v.client_key.is_empty()
            && let Ok(g) = Gstin::parse(&s.raw.gstin)
        {
            client_gstin
                .entry(v.client_key.as_str())
                .or_insert_with(|| g.into());
        }
    }
    let mut seen_rows: HashMap<(&str, &str, String), i64> = HashMap::new();
    let mut seen_numbers: HashMap<&str, (i64, &str)> = HashMap::new();
    let mut extra: Vec<(usize, Problem)> = vec![];
    let mut matches: Vec<(usize, Option<String>, bool)> = vec![];
    for (i, (s, v)) in rows.iter().zip(&verdicts).enumerate() {
        if s.excluded || v.client_key.is_empty() {
            continue;
        }
        let key = v.client_key.as_str();
        let gstin = client_gstin.get(key).map(String::as_str);
        let raw = &s.raw;
        // Rows without an invoice are one society's twice unless each names another contact.
        let contact = if raw.invoice_no.is_empty() {
            raw.contact_name.to_lowercase()
        } else {
            String::new()
        };
        let seen = (key, raw.invoice_no.as_str(), contact);
        if let Some(first) = seen_rows.get(&seen) {
            extra.push((
                i,
                problem(
                    "duplicate_row",
                    "name",
                    if raw.invoice_no.is_empty() {
                        format!("Row {first} already names this society: exclude this row or merge the two.")
                    } else {
                        format!(
                            "Row {first} already has this society's invoice {}.",
                            raw.invoice_no
                        )
                    },
                ),
            ));
        } else {
            seen_rows.insert(seen, raw.row);
        }
        if let Some(g) = gstin
            && !raw.gstin.is_empty()
            && Gstin::parse(&raw.gstin).is_ok_and(|mine| mine.as_str() != g)
        {
            extra.push((
                i,
                problem(
                    "conflicting_gstin",
                    "gstin",
                    format!("Another row of this society gives the GSTIN {g}."),
                ),
            ));
        }
        let found = index.find(key, gstin);
        let mut known = false;
        if !raw.invoice_no.is_empty() {
            match seen_numbers.get(raw.invoice_no.as_str()) {
                Some((first, other)) if *other != key => extra.push((
                    i,
                    problem(
                        "invoice_no_clash",
                        "invoice_no",
                        format!("Row {first} gives {} to another society.", raw.invoice_no),
                    ),
                )),
                Some(_) => {}
                None => {
                    seen_numbers.insert(raw.invoice_no.as_str(), (raw.row, key));
                }
            }
            if let Some(existing) = registry.numbers.get(&raw.invoice_no) {
                if existing.legacy && found.is_some_and(|c| c.id == existing.client_id) {
                    known = true;
                } else {
                    extra.push((
                        i,
                        problem(
                            "invoice_no_clash",
                            "invoice_no",
                            format!("{} is already a document in the back office.", raw.invoice_no),
                        ),
                    ));
                }
            }
        }
        matches.push((i, found.map(|c| c.id.clone()), known));
    }
    for (i, p) in extra {
        verdicts[i].problems.push(p);
    }
    for (i, found, known) in matches {
        verdicts[i].match_id = found;
        verdicts[i].invoice_known = known;
    }
    for (s, v) in rows.iter().zip(verdicts.iter_mut()) {
        if s.excluded {
            v.problems.clear();
        }
    }
    verdicts
}

/// The checks a row passes or fails on its own.
pub fn check_row(raw: &RawRow, today: NaiveDate) -> Verdict {
    let mut v = Verdict {
        client_key: client_key(&raw.name),
        ..Verdict::default()
    };
    let p = &mut v.problems;
    if v.client_key.is_empty() {
        p.push(problem("name_missing", "name", "The society's name is empty."));
    } else if raw.name.chars().count() > 200 {
        p.push(problem(
            "name_too_long",
            "name",
            "A name is at most 200 characters.",
        ));
    }
    if !raw.gstin.is_empty()
        && let Err(e) = Gstin::parse(&raw.gstin)
    {
        p.push(problem("gstin_invalid", "gstin", e.message.clone()));
    }
    for (field, text) in [
        ("district", &raw.district),
        ("sector", &raw.sector),
        ("remote_access_id", &raw.remote_access_id),
        ("os", &raw.os),
        ("address", &raw.address),
        ("contact_role", &raw.contact_role),
    ] {
        if text.chars().count() > 2000 {
            p.push(problem("value_too_long", field, "At most 2000 characters."));
        }
    }
    for (field, phone) in [("phone", &raw.phone), ("contact_phone", &raw.contact_phone)] {
        if check_phone(phone).is_err() {
            p.push(problem(
                "phone_invalid",
                field,
                format!("\"{phone}\" is not a phone number of 6 to 15 digits."),
            ));
        }
    }
    for (field, email) in [("email", &raw.email), ("contact_email", &raw.contact_email)] {
        if !email.is_empty() && check_email(email).is_err() {
            p.push(problem(
                "email_invalid",
                field,
                format!("\"{email}\" is not an email address."),
            ));
        }
    }
    if raw.contact_name.is_empty()
        && !(raw.contact_role.is_empty() && raw.contact_phone.is_empty() && raw.contact_email.is_empty())
    {
        p.push(problem(
            "contact_incomplete",
            "contact_name",
            "The row gives a contact's details without the contact's name.",
        ));
    } else if raw.contact_name.chars().count() > 200 {
        p.push(problem(
            "name_too_long",
            "contact_name",
            "A contact's name is at most 200 characters.",
        ));
    }
    if !raw.has_invoice() {
        return v;
    }
    for (field, text, what) in [
        ("invoice_no", &raw.invoice_no, "number"),
        ("invoice_date", &raw.invoice_date, "date"),
        ("invoice_total", &raw.invoice_total, "total"),
    ] {
        if text.is_empty() {
            p.push(problem(
                "invoice_incomplete",
                field,
                format!("The row gives an invoice without its {what}."),
            ));
        }
    }
    if !raw.invoice_date.is_empty() {
        match parse_date(&raw.invoice_date) {
            Some(d) if d > today => p.push(problem(
                "date_invalid",
                "invoice_date",
                format!("{} is in the future.", raw.invoice_date),
            )),
            Some(d) => {
                v.doc_date = Some(d);
                v.fy = Some(Fy::of(d).short());
            }
            None => p.push(problem(
                "date_invalid",
                "invoice_date",
                format!(
                    "\"{}\" is not a date: write 2024-04-01 or 01-04-2024.",
                    raw.invoice_date
                ),
            )),
        }
    }
    if !raw.invoice_total.is_empty() {
        v.total = parse_amount(&raw.invoice_total);
        if v.total.is_none() {
            p.push(problem(
                "amount_invalid",
                "invoice_total",
                format!(
                    "\"{}\" is not an amount in rupees, such as 1,180.00.",
                    raw.invoice_total
                ),
            ));
        }
    }
    if !raw.invoice_balance.is_empty() {
        v.balance = parse_amount(&raw.invoice_balance);
        match (v.balance, v.total) {
            (None, _) => p.push(problem(
                "amount_invalid",
                "invoice_balance",
                format!(
                    "\"{}\" is not an amount in rupees, such as 1,180.00.",
                    raw.invoice_balance
                ),
            )),
            (Some(b), Some(t)) if b > t => p.push(problem(
                "amount_invalid",
                "invoice_balance",
                "The balance still owed is more than the invoice's total.",
            )),
            _ => {}
        }
    }
    if !raw.invoice_no.is_empty() {
        match parse_number(&raw.invoice_no) {
            None => p.push(problem(
                "invoice_no_shape",
                "invoice_no",
                format!("\"{}\" is not a number such as INV/24-25-0042.", raw.invoice_no),
            )),
            Some(n) if RESERVED_PREFIXES.contains(&n.prefix.as_str()) => p.push(problem(
                "invoice_no_shape",
                "invoice_no",
                format!(
                    "{}/ numbers belong to another kind of document; an invoice's may not use it.",
                    n.prefix
                ),
            )),
            Some(n) => {
                if let Some(fy) = v.fy.as_deref()
                    && fy != n.fy
                {
                    p.push(problem(
                        "invoice_fy_mismatch",
                        "invoice_no",
                        format!(
                            "{} is numbered in the financial year {} but dated in {fy}.",
                            raw.invoice_no, n.fy
                        ),
                    ));
                }
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_as_people_write_them() {
        let cases: &[(&str, Option<i64>)] = &[
            ("1180", Some(118_000)),
            ("1,180.00", Some(118_000)),
            ("₹1,180.50", Some(118_050)),
            ("₹ 1,18,000.5", Some(11_800_050)),
            ("Rs. 1180/-", Some(118_000)),
            ("INR 99.99", Some(9_999)),
            ("0", Some(0)),
            ("0.05", Some(5)),
            ("", None),
            ("-100", None),
            ("1.234", None),
            ("12a", None),
            (",100", None),
            ("1,,000", None),
            ("1e3", None),
            ("₹", None),
            ("99999999999999999999", None),
        ];
        for (text, paise) in cases {
            assert_eq!(parse_amount(text), *paise, "{text}");
        }
    }

    #[test]
    fn dates_in_the_shapes_offices_use() {
        let d = NaiveDate::from_ymd_opt(2024, 4, 1);
        for text in [
            "2024-04-01",
            "01-04-2024",
            "01/04/2024",
            "01.04.2024",
            "1-Apr-2024",
            "01 Apr 2024",
        ] {
            assert_eq!(parse_date(text), d, "{text}");
        }
        for text in ["2024-13-01", "31/02/2024", "April 1", "", "01-04-24"] {
            assert_eq!(parse_date(text), None, "{text}");
        }
    }

    #[test]
    fn legacy_numbers_and_their_shape() {
        assert_eq!(
            parse_number("INV/25-26-0042"),
            Some(LegacyNumber {
                prefix: "INV".into(),
                fy: "25-26".into(),
                seq: 42
            })
        );
        assert_eq!(parse_number("SI2/99-00-7").map(|n| n.fy), Some("99-00".into()));
        for bad in [
            "INV-25-26-0042",
            "INV/25-27-0042",
            "inv/25-26-0042",
            "INV/25-26-",
            "INV/2526-0042",
            "/25-26-1",
            "INV/25-26-12a",
        ] {
            assert_eq!(parse_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_gap_is_warned_only_past_a_series_the_office_has_numbered_in() {
        let staged: Vec<LegacyNumber> = [
            "INV/25-26-0900",
            "INV/25-26-0950",
            "INV/25-26-0160",
            "INV/24-25-0007",
            "SI/25-26-0042",
        ]
        .iter()
        .filter_map(|n| parse_number(n))
        .collect();
        let given = HashMap::from([
            (("INV".to_string(), "25-26".to_string()), 158),
            (("INV".to_string(), "24-25".to_string()), 7),
        ]);
        let gaps = continuity_gaps(&staged, &given);
        assert_eq!(
            gaps,
            vec![ContinuityGap {
                code: "continuity_gap",
                message: "Importing INV/25-26-0160 leaves INV/25-26-0159 missing in INV/25-26: its last number so far is INV/25-26-0158.".into(),
                series: "INV/25-26".into(),
                from: "INV/25-26-0159".into(),
                to: "INV/25-26-0159".into(),
                count: 1,
            }]
        );
        let far = continuity_gaps(&staged[..1], &given);
        assert_eq!(
            (far[0].from.as_str(), far[0].to.as_str(), far[0].count),
            ("INV/25-26-0159", "INV/25-26-0899", 741)
        );
        assert_eq!(
            far[0].message,
            "Importing INV/25-26-0900 leaves INV/25-26-0159 to INV/25-26-0899 (741 numbers) missing in INV/25-26: its last number so far is INV/25-26-0158."
        );
    }

    #[test]
    fn names_meet_whatever_the_punctuation() {
        assert_eq!(client_key("Kallada S.C.B. Ltd."), "kallada scb");
        assert_eq!(client_key("KALLADA  SCB"), "kallada scb");
        assert_eq!(client_key("  "), "");
        assert_eq!(client_key("കല്ലട സഹകരണ ബാങ്ക്"), "കല്ലട സഹകരണ ബാങ്ക്");
        assert_ne!(client_key("Mylom PACS No 12"), client_key("Mylom PACS No 13"));
    }

    #[test]
    fn headers_in_any_order_and_common_spellings() {
        let headers: Vec<String> = [
            "GSTIN No.",
            "Society Name",
            "District",
            "Remarks",
            "Invoice #",
            "Amount",
        ]
        .map(String::from)
        .to_vec();
        let fields: Vec<Option<String>> = map_headers(&headers)
            .unwrap()
            .into_iter()
            .map(|c| c.field)
            .collect();
        assert_eq!(
            fields,
            [
                Some("gstin"),
                Some("name"),
                Some("district"),
                None,
                Some("invoice_no"),
                Some("invoice_total")
            ]
            .map(|f| f.map(String::from))
            .to_vec()
        );
        let err = map_headers(&["District".into()]).unwrap_err();
        assert_eq!(err.code, "missing_column");
        let err = map_headers(&["Name".into(), "Society".into()]).unwrap_err();
        assert_eq!(err.code, "duplicate_column");
    }

    #[test]
    fn a_file_with_a_bom_crlf_quoted_commas_and_newlines() {
        let text = "\u{feff}Name,GSTIN,District\r\n\"Kollam Service Co-op Bank, Ltd\",,Kollam\r\n\"കല്ലട\nസഹകരണ ബാങ്ക്\",,\"Kollam\"\r\n,,\r\n";
        let (columns, rows) = read_file(text).unwrap();
        assert_eq!(columns[0].field.as_deref(), Some("name"));
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].name, "Kollam Service Co-op Bank, Ltd");
        assert_eq!((rows[0].row, rows[1].row), (2, 3));
        assert_eq!(rows[1].name, "കല്ലട\nസഹകരണ ബാങ്ക്");
        assert_eq!(read_file("Name\r\n").unwrap_err().code, "no_rows");
        assert_eq!(read_file("\u{feff}  \r\n").unwrap_err().code, "empty_file");
        assert_eq!(
            read_file("Name,District\nA,B,C\n").unwrap_err().code,
            "malformed_csv"
        );
    }

    #[test]
    fn the_sample_file_stages_without_problems() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let (columns, rows) = read_file(SAMPLE).unwrap();
        assert!(
            columns.iter().all(|c| c.field.is_some()),
            "every sample header is read"
        );
        let staged: Vec<Staged> = rows
            .into_iter()
            .map(|raw| Staged { raw, excluded: false })
            .collect();
        let registry = Registry {
            clients: vec![],
            numbers: HashMap::new(),
        };
        let v = check(&staged, &registry, today);
        assert_eq!(v.iter().map(|v| v.problems.len()).sum::<usize>(), 0, "{v:?}");
        assert_eq!(v[1].total, Some(590_000));
        assert_eq!(v[1].balance, Some(590_000));
    }

    fn staged(name: &str, gstin: &str, invoice: (&str, &str, &str)) -> Staged {
        Staged {
            raw: RawRow {
                name: name.into(),
                gstin: gstin.into(),
                invoice_no: invoice.0.into(),
                invoice_date: invoice.1.into(),
                invoice_total: invoice.2.into(),
                ..RawRow::default()
            },
            excluded: false,
        }
    }

    fn kinds(v: &Verdict) -> Vec<&str> {
        v.problems.iter().map(|p| p.kind.as_str()).collect()
    }

    #[test]
    fn each_problem_kind_is_marked() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let right = crate::plumbing::gstin::check_char("32AAAAA0000A1Z").unwrap();
        let wrong_check = format!("32AAAAA0000A1Z{}", if right == 'X' { 'Y' } else { 'X' });
        let mut rows = vec![
            staged("", "", ("", "", "")),
            staged("Alpha PACS", &wrong_check, ("", "", "")),
            staged("Beta PACS", "", ("INV/25-26-0001", "2025-05-01", "1,180.00")),
            staged("Beta PACS", "", ("INV/25-26-0001", "2025-05-01", "1,180.00")),
            staged("Gamma PACS", "", ("INV/25-26-0001", "2025-05-02", "100")),
            staged("Delta PACS", "", ("INV 7", "2025-05-02", "100")),
            staged("Delta PACS", "", ("INV/24-25-0007", "2025-05-02", "100")),
            staged("Eps PACS", "", ("INV/25-26-0009", "2025-13-02", "abc")),
            staged("Zeta PACS", "", ("INV/25-26-0010", "", "")),
            staged("Eta PACS", "", ("INV/26-27-0001", "2026-04-02", "100")),
            staged("Theta PACS", "", ("CN/25-26-0011", "2025-05-02", "100")),
        ];
        rows.push(Staged {
            excluded: true,
            ..staged("", "", ("", "", ""))
        });
        let registry = Registry {
            clients: vec![],
            numbers: HashMap::from([(
                "INV/26-27-0001".to_string(),
                KnownNumber {
                    client_id: "C1".into(),
                    legacy: false,
                },
            )]),
        };
        let v = check(&rows, &registry, today);
        let got: Vec<Vec<&str>> = v.iter().map(kinds).collect();
        assert_eq!(
            got,
            vec![
                vec!["name_missing"],
                vec!["gstin_invalid"],
                vec![],
                vec!["duplicate_row"],
                vec!["invoice_no_clash"],
                vec!["invoice_no_shape"],
                vec!["invoice_fy_mismatch"],
                vec!["date_invalid", "amount_invalid"],
                vec!["invoice_incomplete", "invoice_incomplete"],
                vec!["invoice_no_clash"],
                vec!["invoice_no_shape"],
                vec![],
            ]
        );
        assert_eq!(v[2].total, Some(118_000));
        assert_eq!(v[2].fy.as_deref(), Some("25-26"));
    }

    #[test]
    fn phone_email_and_contact_cells_are_checked_naming_the_column() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let row = |cells: &[(&str, &str)]| {
            let mut raw = RawRow {
                name: "Alpha PACS".into(),
                ..RawRow::default()
            };
            for (field, text) in cells {
                *raw.field_mut(field).unwrap() = text.to_string();
            }
            check_row(&raw, today)
                .problems
                .into_iter()
                .map(|p| (p.kind, p.field))
                .collect::<Vec<_>>()
        };
        let pair = |k: &str, f: &str| (k.to_string(), f.to_string());
        assert_eq!(
            row(&[
                ("phone", "0474 255 1432"),
                ("email", "office@alpha.in"),
                ("contact_name", "Suresh"),
                ("contact_phone", "+91 94470-12345"),
                ("contact_email", "s@alpha.in"),
            ]),
            vec![]
        );
        assert_eq!(
            row(&[("phone", "call the office"), ("email", "office at alpha")]),
            vec![pair("phone_invalid", "phone"), pair("email_invalid", "email")]
        );
        assert_eq!(
            row(&[
                ("contact_name", "Suresh"),
                ("contact_phone", "12"),
                ("contact_email", "s@")
            ]),
            vec![
                pair("phone_invalid", "contact_phone"),
                pair("email_invalid", "contact_email")
            ]
        );
        assert_eq!(
            row(&[("contact_role", "secretary")]),
            vec![pair("contact_incomplete", "contact_name")]
        );
    }

    #[test]
    fn registry_clients_are_matched_and_known_invoices_left_alone() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let gstin = &format!(
            "32AAACK1234A1Z{}",
            crate::plumbing::gstin::check_char("32AAACK1234A1Z").unwrap()
        );
        let registry = Registry {
            clients: vec![
                KnownClient {
                    id: "A".into(),
                    name: "Kallada SCB Ltd".into(),
                    gstin: None,
                },
                KnownClient {
                    id: "B".into(),
                    name: "Mylom PACS".into(),
                    gstin: Some(gstin.into()),
                },
            ],
            numbers: HashMap::from([(
                "INV/24-25-0001".to_string(),
                KnownNumber {
                    client_id: "B".into(),
                    legacy: true,
                },
            )]),
        };
        let rows = vec![
            staged("KALLADA S.C.B.", "", ("", "", "")),
            staged("Mylom P.A.C.S.", gstin, ("INV/24-25-0001", "2024-05-01", "100")),
            staged("Mylom Store", gstin, ("", "", "")),
            staged("New PACS", "", ("", "", "")),
        ];
        let v = check(&rows, &registry, today);
        assert_eq!(v[0].match_id.as_deref(), Some("A"));
        assert_eq!(v[1].match_id.as_deref(), Some("B"), "the same GSTIN and name");
        assert!(v[1].invoice_known && v[1].problems.is_empty());
        assert_eq!(
            v[2].match_id, None,
            "a store sharing the society's GSTIN is its own client"
        );
        assert_eq!(v[3].match_id, None);
    }
}
