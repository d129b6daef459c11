//! TDS certificates tracked to the receipt (issue 21). Every TDS amount booked on a payment
//! allocation of a recorded payment is owed back as a Form 16A by the society that deducted it,
//! quarter by quarter. The operations here, one transaction or one read each, are what the
//! handlers, the daily scan, the reminders' letter and the benchmark call:
//!
//! - [`receivable`]: per client and quarter of a financial year, what was booked, what was
//!   certified and the state (awaited, received, mismatch), filtered, sorted and paged.
//! - [`record_certificate`]: records a Form 16A, or replaces the one recorded for that client
//!   and quarter (a revised certificate), audited; a refused request writes nothing.
//! - [`reminders_due`]: the `tds_certificate_due` reminders of the daily scan.
//! - [`certificate_letter`]: the letter asking a society for its certificate.
//!
//! `rules`: quarters, statutory dates, checks, sentences. `store`: the SQL. `settings`: the
//! default section. `routes`: handlers.

pub mod form26as;
pub mod routes;
pub mod rules;
pub mod settings;
pub mod store;

pub use self::settings::{TdsSettings, TdsSettingsInput, default_section, save_settings_in, settings_view};
use crate::auth::session::AuthUser;
use crate::clock::{Fy, Quarter};
use crate::db::audit::record;
use crate::db::page::{Page, Paginated};
use crate::db::query::nocase_cmp;
use crate::db::settings::office_today;
use crate::error::{AppError, Checks};
use crate::http::csv;
use crate::money;
use crate::reminders::store::{Due, blank};
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use store::{Deductor, StoredTdsCertificate};
use utoipa::ToSchema;

/// The reminder kinds this area raises: a Form 16A past its date, and TDS booked but not
/// deposited as Form 26AS shows.
pub const REMINDER_KIND: &str = "tds_certificate_due";
pub const NOT_FILED_KIND: &str = "tds_not_filed";

/// What the report is asked for, as the query gives it (checked by [`receivable`]).
#[derive(Debug, Clone, Default)]
pub struct Asked {
    /// YYYY-YY; the office's current financial year when absent.
    pub fy: Option<String>,
    /// Q1 to Q4; every quarter of the year when absent.
    pub quarter: Option<String>,
    /// awaited, received or mismatch.
    pub state: Option<String>,
    /// Part of the client's name.
    pub q: Option<String>,
}

/// One client's quarter.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TdsReceivableRow {
    pub client_id: String,
    pub client_name: String,
    /// The society's TAN, when known.
    pub tan: Option<String>,
    /// 194J or 194C: the client's, else `tds.default_section`.
    pub section: String,
    /// YYYY-YY.
    pub fy: String,
    /// Q1 to Q4.
    pub quarter: String,
    /// Paise of TDS booked on the allocations of the quarter's recorded payments.
    pub booked: i64,
    /// Paise the certificate states; null without one.
    pub certified: Option<i64>,
    /// Paise deposited against the vendor's PAN by the client's TAN in the quarter, as the last
    /// Form 26AS upload of the year shows (its F and P entries); null before an upload, for a
    /// client without a TAN on record, and for a quarter the upload shows nothing of when it was
    /// made before the quarter's TDS return was due (it could not show it yet).
    pub filed: Option<i64>,
    /// awaited, received, mismatch, short_filed or not_filed.
    pub state: String,
    pub certificate_id: Option<String>,
    pub certificate_no: Option<String>,
    #[schema(format = Date)]
    pub issued_on: Option<String>,
    /// The day the Form 16A was due from the society (15 Aug, 15 Nov, 15 Feb, 15 Jun).
    #[schema(format = Date)]
    pub due_on: String,
}

/// How many rows of each state the report holds (under its other filters).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct TdsStateCounts {
    pub awaited: i64,
    pub received: i64,
    pub mismatch: i64,
    pub short_filed: i64,
    pub not_filed: i64,
}

/// Paise over every row the filters select, not just the page.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct TdsTotals {
    pub booked: i64,
    pub certified: i64,
    pub filed: i64,
}

/// The report, whole: every row the filters select, in order.
pub struct Receivable {
    pub fy: Fy,
    pub quarter: Option<Quarter>,
    pub rows: Vec<TdsReceivableRow>,
    pub counts: TdsStateCounts,
    pub totals: TdsTotals,
}

/// One page of the report.
#[derive(Debug, Serialize, ToSchema)]
pub struct TdsReceivable {
    #[serde(flatten)]
    pub page: Paginated<TdsReceivableRow>,
    /// The financial year read.
    pub fy: String,
    /// The quarter read; null: every quarter of the year.
    pub quarter: Option<String>,
    /// Rows of each state under the other filters (`q`), whatever `state` asks.
    pub counts: TdsStateCounts,
    pub totals: TdsTotals,
}

/// What the report may be sorted by; `-name` for descending.
pub const SORTS: &[&str] = &[
    "client_name",
    "quarter",
    "booked",
    "certified",
    "filed",
    "state",
    "due_on",
    "issued_on",
    "certificate_no",
];

/// The financial year and quarter of a query: 400 `invalid_fy` / `invalid_quarter` naming the
/// parameter.
pub fn period(
    conn: &Connection,
    fy: Option<&str>,
    quarter: Option<&str>,
) -> Result<(Fy, Option<Quarter>), AppError> {
    let given = |t: Option<&str>| t.map(str::trim).filter(|t| !t.is_empty()).map(str::to_string);
    let fy = match given(fy) {
        Some(text) => Fy::param(&text)?,
        None => Fy::of(office_today(conn)?),
    };
    let quarter = given(quarter)
        .map(|text| {
            Quarter::parse(&text).ok_or_else(|| {
                AppError::bad_request("invalid_quarter", "quarter is Q1, Q2, Q3 or Q4.").on_field("quarter")
            })
        })
        .transpose()?;
    Ok((fy, quarter))
}

fn row_of(fy: Fy, q: Quarter, d: &Deductor, default_section: &str) -> TdsReceivableRow {
    TdsReceivableRow {
        client_id: d.client_id.clone(),
        client_name: d.client_name.clone(),
        tan: d.tan.clone(),
        section: d
            .tds_section
            .clone()
            .unwrap_or_else(|| default_section.to_string()),
        fy: fy.to_string(),
        quarter: q.as_str().to_string(),
        booked: 0,
        certified: None,
        filed: None,
        state: String::new(),
        certificate_id: None,
        certificate_no: None,
        issued_on: None,
        due_on: rules::certificate_due(fy, q).to_string(),
    }
}

/// Every client and quarter of `fy` (or of one quarter) with TDS booked or a certificate.
pub fn quarter_rows(
    conn: &Connection,
    fy: Fy,
    quarter: Option<Quarter>,
) -> Result<Vec<TdsReceivableRow>, AppError> {
    let section = default_section(conn)?;
    let (from, to) = match quarter {
        Some(q) => (fy.quarter_first(q), fy.quarter_last(q)),
        None => (fy.first_day(), fy.last_day()),
    };
    let mut rows: Vec<TdsReceivableRow> = vec![];
    let mut at: HashMap<(String, Quarter), usize> = HashMap::new();
    for b in store::booked(conn, from, to)? {
        let mut row = row_of(fy, b.quarter, &b.deductor, &section);
        row.booked = b.booked;
        at.insert((b.deductor.client_id, b.quarter), rows.len());
        rows.push(row);
    }
    for (d, c) in store::certificates(conn, fy, quarter)? {
        let Some(q) = Quarter::parse(&c.quarter) else {
            continue;
        };
        let i = match at.get(&(d.client_id.clone(), q)) {
            Some(i) => *i,
            None => {
                at.insert((d.client_id.clone(), q), rows.len());
                rows.push(row_of(fy, q, &d, &section));
                rows.len() - 1
            }
        };
        let row = &mut rows[i];
        row.certified = Some(c.amount);
        row.certificate_id = Some(c.id);
        row.certificate_no = Some(c.certificate_no);
        row.issued_on = Some(c.issued_on);
    }
    if let Some(upload) = store::upload_of(conn, fy)? {
        for (d, q, filed) in store::filed(conn, fy, quarter)? {
            let i = match at.get(&(d.client_id.clone(), q)) {
                Some(i) => *i,
                None if filed == 0 => continue,
                None => {
                    rows.push(row_of(fy, q, &d, &section));
                    rows.len() - 1
                }
            };
            rows[i].filed = Some(filed);
        }
        // Nothing shown for a society's quarter is nothing deposited, once the upload was made
        // after the quarter's return was due; before, the statement cannot show it yet.
        for row in rows.iter_mut().filter(|r| r.tan.is_some() && r.filed.is_none()) {
            if Quarter::parse(&row.quarter).is_some_and(|q| upload.imported_on > rules::return_due(fy, q)) {
                row.filed = Some(0);
            }
        }
    }
    for row in &mut rows {
        row.state = rules::state(row.booked, row.certified, row.filed).to_string();
    }
    Ok(rows)
}

type Order = Box<dyn Fn(&TdsReceivableRow, &TdsReceivableRow) -> Ordering>;

fn order(sort: Option<&str>) -> Result<Order, AppError> {
    let sort = sort.map(str::trim).filter(|s| !s.is_empty());
    let Some(sort) = sort else {
        return Ok(Box::new(|a, b| {
            a.quarter
                .cmp(&b.quarter)
                .then_with(|| nocase_cmp(&a.client_name, &b.client_name))
                .then_with(|| a.client_id.cmp(&b.client_id))
        }));
    };
    let (name, descending) = match sort.strip_prefix('-') {
        Some(name) => (name, true),
        None => (sort, false),
    };
    let by: fn(&TdsReceivableRow, &TdsReceivableRow) -> Ordering = match name {
        "client_name" => |a, b| nocase_cmp(&a.client_name, &b.client_name),
        "quarter" => |a, b| a.quarter.cmp(&b.quarter),
        "booked" => |a, b| a.booked.cmp(&b.booked),
        "certified" => |a, b| a.certified.cmp(&b.certified),
        "filed" => |a, b| a.filed.cmp(&b.filed),
        "state" => |a, b| a.state.cmp(&b.state),
        "due_on" => |a, b| a.due_on.cmp(&b.due_on),
        "issued_on" => |a, b| a.issued_on.cmp(&b.issued_on),
        "certificate_no" => |a, b| a.certificate_no.cmp(&b.certificate_no),
        _ => {
            return Err(AppError::bad_request(
                "invalid_sort",
                format!("sort is one of {} (with - for descending).", SORTS.join(", ")),
            )
            .on_field("sort"));
        }
    };
    // Ties on the client id, then the quarter, in the same direction.
    let full = move |a: &TdsReceivableRow, b: &TdsReceivableRow| {
        by(a, b)
            .then_with(|| a.client_id.cmp(&b.client_id))
            .then_with(|| a.quarter.cmp(&b.quarter))
    };
    Ok(if descending {
        Box::new(move |a, b| full(b, a))
    } else {
        Box::new(full)
    })
}

/// The report as `asked`, whole and in `sort` order (default: by quarter, then client name),
/// with the counts per state (under `q`) and the totals of the rows selected.
pub fn receivable_rows(conn: &Connection, asked: &Asked, sort: Option<&str>) -> Result<Receivable, AppError> {
    let (fy, quarter) = period(conn, asked.fy.as_deref(), asked.quarter.as_deref())?;
    let state = asked.state.as_deref().map(str::trim).filter(|s| !s.is_empty());
    if let Some(s) = state
        && !rules::STATES.contains(&s)
    {
        return Err(AppError::bad_request(
            "invalid_state",
            format!("state is one of {}.", rules::STATES.join(", ")),
        )
        .on_field("state"));
    }
    let by = order(sort)?;
    let q = asked
        .q
        .as_deref()
        .map(|q| q.trim().to_lowercase())
        .filter(|q| !q.is_empty());
    let mut counts = TdsStateCounts::default();
    let mut rows: Vec<TdsReceivableRow> = quarter_rows(conn, fy, quarter)?
        .into_iter()
        .filter(|r| {
            q.as_ref()
                .is_none_or(|q| r.client_name.to_lowercase().contains(q))
        })
        .inspect(|r| match r.state.as_str() {
            "awaited" => counts.awaited += 1,
            "received" => counts.received += 1,
            "short_filed" => counts.short_filed += 1,
            "not_filed" => counts.not_filed += 1,
            _ => counts.mismatch += 1,
        })
        .filter(|r| state.is_none_or(|s| r.state == s))
        .collect();
    rows.sort_by(|a, b| by(a, b));
    let totals = TdsTotals {
        booked: rows.iter().map(|r| r.booked).sum(),
        certified: rows.iter().filter_map(|r| r.certified).sum(),
        filed: rows.iter().filter_map(|r| r.filed).sum(),
    };
    Ok(Receivable {
        fy,
        quarter,
        rows,
        counts,
        totals,
    })
}

/// One page of the report as `asked`.
pub fn receivable(conn: &Connection, asked: &Asked, page: &Page) -> Result<TdsReceivable, AppError> {
    let report = receivable_rows(conn, asked, page.sort.as_deref())?;
    Ok(TdsReceivable {
        page: page.slice(report.rows),
        fy: report.fy.to_string(),
        quarter: report.quarter.map(|q| q.as_str().to_string()),
        counts: report.counts,
        totals: report.totals,
    })
}

/// The whole report as CSV (rupees with two decimals), the totals last; with its file name.
pub fn receivable_csv(
    conn: &Connection,
    asked: &Asked,
    sort: Option<&str>,
) -> Result<(String, String), AppError> {
    let report = receivable_rows(conn, asked, sort)?;
    let mut out = csv::line(&[
        "Client",
        "TAN",
        "Section",
        "Financial year",
        "Quarter",
        "Booked",
        "Certified",
        "Filed",
        "State",
        "Certificate no",
        "Issued on",
        "Due on",
    ]);
    for r in &report.rows {
        out.push_str(&csv::line(&[
            &r.client_name,
            r.tan.as_deref().unwrap_or(""),
            &r.section,
            &r.fy,
            &r.quarter,
            &money::decimal(r.booked),
            &r.certified.map(money::decimal).unwrap_or_default(),
            &r.filed.map(money::decimal).unwrap_or_default(),
            &r.state,
            r.certificate_no.as_deref().unwrap_or(""),
            r.issued_on.as_deref().unwrap_or(""),
            &r.due_on,
        ]));
    }
    let fy = report.fy.to_string();
    let quarter = report.quarter.map_or("", Quarter::as_str);
    out.push_str(&csv::line(&[
        "TOTAL",
        "",
        "",
        &fy,
        quarter,
        &money::decimal(report.totals.booked),
        &money::decimal(report.totals.certified),
        &money::decimal(report.totals.filed),
        "",
        "",
        "",
        "",
    ]));
    let name = match report.quarter {
        Some(q) => format!("tds-receivable-{fy}-{}.csv", q.as_str()),
        None => format!("tds-receivable-{fy}.csv"),
    };
    Ok((name, out))
}

/// `POST /api/tds-certificates`: what the Form 16A states. Every value is checked by
/// [`record_certificate`], so that each wrong one is named.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TdsCertificateInput {
    /// The society that deducted the TDS.
    #[schema(value_type = String)]
    pub client_id: Option<Value>,
    /// The financial year, YYYY-YY.
    #[schema(value_type = String, example = "2025-26")]
    pub fy: Option<Value>,
    /// Q1 to Q4.
    #[schema(value_type = String, example = "Q2")]
    pub quarter: Option<Value>,
    /// As printed on the Form 16A, 1 to 20 characters.
    #[schema(value_type = String, example = "QWERTYU")]
    pub certificate_no: Option<Value>,
    /// YYYY-MM-DD: from the quarter's last day to today.
    #[schema(value_type = String, format = Date)]
    pub issued_on: Option<Value>,
    /// Paise certified, a whole number above 0.
    #[schema(value_type = i64, example = 123400)]
    pub amount: Option<Value>,
}

/// A certificate with its client and how it compares with what is booked.
#[derive(Debug, Serialize, ToSchema)]
pub struct TdsCertificate {
    #[serde(flatten)]
    pub certificate: StoredTdsCertificate,
    pub client_name: String,
    /// Paise of TDS booked for the client's quarter.
    pub booked: i64,
    /// received (the amounts match) or mismatch.
    pub state: String,
    /// The day the certificate was due from the society.
    #[schema(format = Date)]
    pub due_on: String,
}

/// What [`record_certificate`] did.
pub struct Recorded {
    pub certificate: TdsCertificate,
    /// A first certificate for that client and quarter (else a revision replaced one).
    pub created: bool,
}

/// A text field of a body as given.
enum Given {
    Missing,
    Text(String),
    /// Not text: already named in the checks.
    Wrong,
}

fn given(field: &str, value: &Option<Value>, checks: &mut Checks) -> Given {
    match value {
        None | Some(Value::Null) => Given::Missing,
        Some(Value::String(s)) if s.trim().is_empty() => Given::Missing,
        Some(Value::String(s)) => Given::Text(s.clone()),
        Some(_) => {
            checks.fail(AppError::invalid(
                field,
                "invalid_value",
                format!("{field} is text."),
            ));
            Given::Wrong
        }
    }
}

fn required(field: &str, message: &str) -> AppError {
    AppError::invalid(field, "required", message.to_string())
}

/// The `fy` of a body, checked: `required` (saying `missing`) or `invalid_fy`, named in `checks`.
fn given_fy(value: &Option<Value>, missing: &str, checks: &mut Checks) -> Option<Fy> {
    match given("fy", value, checks) {
        Given::Missing => {
            checks.fail(required("fy", missing));
            None
        }
        Given::Wrong => None,
        Given::Text(text) => {
            let fy = Fy::parse(&text);
            if fy.is_none() {
                checks.fail(AppError::invalid(
                    "fy",
                    "invalid_fy",
                    "The financial year is written YYYY-YY, e.g. 2025-26.",
                ));
            }
            fy
        }
    }
}

/// The audit image of a certificate.
fn image(c: &StoredTdsCertificate, client_name: &str) -> Value {
    json!({
        "client_id": c.client_id,
        "client_name": client_name,
        "fy": c.fy,
        "quarter": c.quarter,
        "certificate_no": c.certificate_no,
        "issued_on": c.issued_on,
        "amount": c.amount,
    })
}

/// Checks every field of `input` (naming each wrong one), then records the certificate or
/// replaces the one recorded for that client and quarter, audited with before and after.
pub fn record_certificate(
    tx: &Connection,
    user: &AuthUser,
    input: TdsCertificateInput,
) -> Result<Recorded, AppError> {
    let today = office_today(tx)?;
    let mut checks = Checks::default();
    let deductor = match given("client_id", &input.client_id, &mut checks) {
        Given::Missing => {
            checks.fail(required("client_id", "Choose the society."));
            None
        }
        Given::Wrong => None,
        Given::Text(id) => {
            let found = store::deductor_of(tx, id.trim())?;
            if found.is_none() {
                checks.fail(AppError::invalid(
                    "client_id",
                    "unknown_client",
                    "No such client.",
                ));
            }
            found
        }
    };
    let fy = given_fy(&input.fy, "Give the financial year, e.g. 2025-26.", &mut checks);
    let quarter = match given("quarter", &input.quarter, &mut checks) {
        Given::Missing => {
            checks.fail(required("quarter", "Choose the quarter, Q1 to Q4."));
            None
        }
        Given::Wrong => None,
        Given::Text(text) => {
            let q = Quarter::parse(&text);
            if q.is_none() {
                checks.fail(AppError::invalid(
                    "quarter",
                    "invalid_quarter",
                    "The quarter is Q1, Q2, Q3 or Q4.",
                ));
            }
            q
        }
    };
    let certificate_no = match given("certificate_no", &input.certificate_no, &mut checks) {
        Given::Missing => {
            checks.fail(required(
                "certificate_no",
                "Enter the certificate number printed on the Form 16A.",
            ));
            None
        }
        Given::Wrong => None,
        Given::Text(text) => checks.check(rules::check_certificate_no(&text)),
    };
    let quarter_last = fy.zip(quarter).map(|(fy, q)| fy.quarter_last(q));
    let issued_on = match given("issued_on", &input.issued_on, &mut checks) {
        Given::Missing => {
            checks.fail(required("issued_on", "Give the day the certificate was issued."));
            None
        }
        Given::Wrong => None,
        Given::Text(text) => checks.check(rules::check_issued_on(&text, quarter_last, today)),
    };
    let amount = match &input.amount {
        None | Some(Value::Null) => {
            checks.fail(required("amount", "Give the amount certified, in paise."));
            None
        }
        Some(value) => checks.check(rules::check_amount(value)),
    };
    checks.done()?;
    let (Some(deductor), Some(fy), Some(q), Some(certificate_no), Some(issued_on), Some(amount)) =
        (deductor, fy, quarter, certificate_no, issued_on, amount)
    else {
        return Err(AppError::internal("a checked certificate lost a field"));
    };
    let before = store::certificate_of(tx, &deductor.client_id, fy, q)?;
    store::upsert(
        tx,
        &store::Stated {
            client_id: &deductor.client_id,
            fy,
            quarter: q,
            certificate_no: &certificate_no,
            issued_on,
            amount,
        },
        &user.id,
    )?;
    let after = store::certificate_of(tx, &deductor.client_id, fy, q)?
        .ok_or_else(|| AppError::internal("a certificate just written is gone"))?;
    record(
        tx,
        &user.id,
        "tds_certificate",
        &after.id,
        if before.is_some() { "update" } else { "create" },
        before.as_ref().map(|c| image(c, &deductor.client_name)).as_ref(),
        Some(&image(&after, &deductor.client_name)),
    )?;
    let booked = store::booked_for(tx, &deductor.client_id, fy, q)?;
    Ok(Recorded {
        created: before.is_none(),
        certificate: TdsCertificate {
            state: rules::state(booked, Some(after.amount), None).to_string(),
            certificate: after,
            client_name: deductor.client_name,
            booked,
            due_on: rules::certificate_due(fy, q).to_string(),
        },
    })
}

/// `POST /api/tds/26as`: the text download of the vendor's Form 26AS for a financial year.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Form26asInput {
    /// The financial year the statement is of, YYYY-YY.
    #[schema(value_type = String, example = "2025-26")]
    pub fy: Option<Value>,
    /// The file's text as TRACES gives it ("Export as Text"): `^`-separated, Part I read.
    #[schema(value_type = String)]
    pub text: Option<Value>,
}

/// What an upload of Form 26AS read and how it matched, per client and quarter of the year
/// (counts).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Form26asImport {
    /// Deductors (TANs) in Part I.
    pub deductors: i64,
    /// Entries (payments or credits) in Part I.
    pub entries: i64,
    /// Quarters whose deposit equals the TDS booked.
    pub matched: i64,
    /// Quarters with less deposited than booked, but something.
    pub short: i64,
    /// Quarters with TDS booked and nothing deposited.
    pub not_filed: i64,
    /// Quarters with more deposited than booked: no booking, or not all of it (a deductor no
    /// client carries the TAN of counts here too).
    pub not_booked: i64,
}

/// The vendor's PAN: the third to twelfth characters of the company's GSTIN.
fn vendor_pan(conn: &Connection) -> Result<Option<String>, AppError> {
    Ok(crate::company::profile(conn)?
        .gstin
        .and_then(|g| g.get(2..12).map(str::to_string)))
}

/// Reads `input`'s Form 26AS and keeps what its Part I shows deposited per deductor and
/// quarter in place of the year's last upload, audited with the counts only. A file that cannot
/// be read, of another financial year or of another PAN than the company's is refused (422,
/// naming the line) and nothing is written.
pub fn import_26as(
    tx: &Connection,
    user: &AuthUser,
    input: Form26asInput,
) -> Result<Form26asImport, AppError> {
    let mut checks = Checks::default();
    let fy = given_fy(
        &input.fy,
        "Give the financial year of the statement, e.g. 2025-26.",
        &mut checks,
    );
    let statement = match given("text", &input.text, &mut checks) {
        Given::Missing => {
            checks.fail(required("text", "Choose the text download of Form 26AS."));
            None
        }
        Given::Wrong => None,
        Given::Text(text) => match form26as::read(&text) {
            Ok(statement) => Some(statement),
            Err(unreadable) => {
                checks.fail(AppError::invalid("text", "invalid_26as", unreadable.to_string()));
                None
            }
        },
    };
    if let (Some(fy), Some(statement)) = (fy, &statement)
        && statement.fy != fy
    {
        checks.fail(AppError::invalid(
            "fy",
            "fy_mismatch",
            format!("The file is the Form 26AS of {}, not of {fy}.", statement.fy),
        ));
    }
    if let Some(statement) = &statement
        && let Some(pan) = vendor_pan(tx)?
        && statement.pan != pan
    {
        checks.fail(AppError::invalid(
            "text",
            "pan_mismatch",
            format!(
                "The file is the Form 26AS of PAN {}; the company's GSTIN carries PAN {pan}. Download the \
                 vendor's own statement from TRACES.",
                statement.pan
            ),
        ));
    }
    checks.done()?;
    let Some(statement) = statement else {
        return Err(AppError::internal("a checked Form 26AS was lost"));
    };
    keep_statement(tx, &user.id, &statement, office_today(tx)?)
}

/// Keeps what `statement`'s Part I shows deposited per deductor and quarter in place of its
/// year's last upload, made by `by` on the office's `today`, and counts how each client's
/// quarter matches; audited with the counts only. What [`import_26as`] does once the upload is
/// checked, and what the demo office's upload is.
pub fn keep_statement(
    tx: &Connection,
    by: &str,
    statement: &form26as::Statement,
    today: NaiveDate,
) -> Result<Form26asImport, AppError> {
    let fy = statement.fy;
    store::replace_upload(tx, statement, today, by)?;
    let mut counts = Form26asImport {
        deductors: statement.tans() as i64,
        entries: statement.entries() as i64,
        not_booked: store::filed_unclaimed(tx, fy)?,
        ..Form26asImport::default()
    };
    for row in quarter_rows(tx, fy, None)? {
        let Some(filed) = row.filed else { continue };
        match rules::filing(row.booked, filed) {
            Some(rules::Filing::Matched) => counts.matched += 1,
            Some(rules::Filing::Short) => counts.short += 1,
            Some(rules::Filing::NotFiled) => counts.not_filed += 1,
            Some(rules::Filing::NotBooked) => counts.not_booked += 1,
            None => {}
        }
    }
    record(
        tx,
        by,
        "tds_26as",
        &fy.to_string(),
        "import",
        None,
        Some(&json!({
            "fy": fy.to_string(),
            "deductors": counts.deductors,
            "entries": counts.entries,
            "matched": counts.matched,
            "short": counts.short,
            "not_filed": counts.not_filed,
            "not_booked": counts.not_booked,
        })),
    )?;
    Ok(counts)
}

/// The `tds_not_filed` reminders of the daily scan on `as_of`: every client and quarter whose
/// TDS return fell due in the year before `as_of` (at most [`rules::LOOKBACK_DAYS`] back) and
/// whose TDS booked is not all deposited, as an upload of Form 26AS made after that day shows
/// (an earlier upload cannot show the quarter yet). One per client and quarter; the client's
/// account owner owns it.
fn not_filed_due(conn: &Connection, as_of: NaiveDate) -> Result<Vec<Due>, AppError> {
    let mut out = vec![];
    for (fy, q) in rules::quarters_overdue(as_of, rules::return_due) {
        let due_on = rules::return_due(fy, q);
        if !store::upload_of(conn, fy)?.is_some_and(|u| u.imported_on > due_on) {
            continue;
        }
        for row in quarter_rows(conn, fy, Some(q))? {
            let Some(filed) = row.filed else { continue };
            if filed >= row.booked {
                continue;
            }
            out.push(Due {
                key: format!("{NOT_FILED_KIND}:{}:{fy}:{}", row.client_id, q.as_str()),
                owner_id: store::deductor_of(conn, &row.client_id)?.and_then(|d| d.owner_id),
                reason: rules::not_filed_reason(fy, q, row.booked, filed, row.tan.as_deref()),
                ..blank(NOT_FILED_KIND, row.client_id, due_on)
            });
        }
    }
    Ok(out)
}

/// The reminders of the daily scan on `as_of`: `tds_not_filed` ([`not_filed_due`]), and
/// `tds_certificate_due`: every client and quarter
/// whose Form 16A fell due in the year before `as_of` (`due_on < as_of`, at most
/// [`rules::LOOKBACK_DAYS`] back), with TDS booked and no certificate. One per client and
/// quarter (the key holds the client, the financial year and the quarter); the client's
/// account owner owns it.
pub fn reminders_due(conn: &Connection, as_of: NaiveDate) -> Result<Vec<Due>, AppError> {
    let mut out = vec![];
    for (fy, q) in rules::quarters_overdue(as_of, rules::certificate_due) {
        let certified: HashSet<String> = store::certificates(conn, fy, Some(q))?
            .into_iter()
            .map(|(d, _)| d.client_id)
            .collect();
        let due_on = rules::certificate_due(fy, q);
        for b in store::booked(conn, fy.quarter_first(q), fy.quarter_last(q))? {
            if b.booked <= 0 || certified.contains(&b.deductor.client_id) {
                continue;
            }
            let client_id = b.deductor.client_id;
            out.push(Due {
                key: format!("{REMINDER_KIND}:{client_id}:{fy}:{}", q.as_str()),
                owner_id: b.deductor.owner_id,
                reason: rules::reason(fy, q, b.booked, due_on),
                ..blank(REMINDER_KIND, client_id, due_on)
            });
        }
    }
    out.extend(not_filed_due(conn, as_of)?);
    Ok(out)
}

/// The subject and message of the letter asking `client_id` for the Form 16A that fell due on
/// `due_on` (a `tds_certificate_due` reminder's date), with what is booked and certified now.
pub fn certificate_letter(
    conn: &Connection,
    client_id: &str,
    due_on: NaiveDate,
) -> Result<(String, String), AppError> {
    let (fy, q) = rules::quarter_due_on(due_on)
        .ok_or_else(|| AppError::internal(format!("{due_on} is no certificate's statutory date")))?;
    let deductor = store::deductor_of(conn, client_id)?.ok_or_else(|| AppError::not_found("client"))?;
    let section = match &deductor.tds_section {
        Some(s) => s.clone(),
        None => default_section(conn)?,
    };
    let booked = store::booked_for(conn, client_id, fy, q)?;
    let received = store::certificate_of(conn, client_id, fy, q)?.filter(|c| c.amount != booked);
    Ok(rules::letter(&rules::Asking {
        fy,
        quarter: q,
        section: &section,
        tan: deductor.tan.as_deref(),
        booked,
        received: received.as_ref().map(|c| (c.certificate_no.as_str(), c.amount)),
    }))
}
