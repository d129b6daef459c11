//! What the societies deposited: the vendor's Form 26AS uploaded for a financial year (read by
//! `form26as`), kept per deductor and quarter in place of the year's last upload, and matched
//! against the TDS booked (audited with the counts only).

use crate::auth::session::AuthUser;
use crate::plumbing::db::audit::record;
use crate::plumbing::db::settings::office_today;
use crate::plumbing::error::{AppError, Checks};
use crate::tds::certificates::{Given, given, given_fy, required};
use crate::tds::receivable::quarter_rows;
use crate::tds::store;
use crate::tds::{form26as, rules};
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

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
