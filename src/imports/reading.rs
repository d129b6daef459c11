//! Reading the legacy file: its headers matched to the import's columns ([`FIELDS`]), its CSV
//! rows into [`RawRow`]s, and the sample file the import page offers.

use crate::imports::rules::{HEADER_SHOWN, MAX_BYTES, MAX_COLUMNS, MAX_ROWS};
use crate::plumbing::error::AppError;
use serde::Serialize;
use utoipa::ToSchema;

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

    pub(crate) fn has_invoice(&self) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
