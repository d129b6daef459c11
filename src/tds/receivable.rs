//! The TDS receivable report: per client and quarter of a financial year, the TDS booked on
//! the allocations of recorded payments, the Form 16A recorded and, after an upload of Form
//! 26AS, what the society deposited, with the state of each, filtered, sorted and paged, and its
//! CSV.

use crate::plumbing::clock::{Fy, Quarter};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::query::nocase_cmp;
use crate::plumbing::db::settings::office_today;
use crate::plumbing::error::AppError;
use crate::plumbing::http::csv;
use crate::plumbing::money;
use crate::tds::rules;
use crate::tds::settings::default_section;
use crate::tds::store::{self, Deductor};
use rusqlite::Connection;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::HashMap;
use utoipa::ToSchema;

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
