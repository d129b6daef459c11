//! A society's Form 16A: recorded, or replaced by a revised one for the same client and quarter
//! (audited; a refused request writes nothing), and the letter asking a society for it.

use crate::auth::session::AuthUser;
use crate::plumbing::clock::{Fy, Quarter};
use crate::plumbing::db::audit::record;
use crate::plumbing::db::settings::office_today;
use crate::plumbing::error::{AppError, Checks};
use crate::tds::rules;
use crate::tds::settings::default_section;
use crate::tds::store::{self, StoredTdsCertificate};
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

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
pub(super) enum Given {
    Missing,
    Text(String),
    /// Not text: already named in the checks.
    Wrong,
}

pub(super) fn given(field: &str, value: &Option<Value>, checks: &mut Checks) -> Given {
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

pub(super) fn required(field: &str, message: &str) -> AppError {
    AppError::invalid(field, "required", message.to_string())
}

/// The `fy` of a body, checked: `required` (saying `missing`) or `invalid_fy`, named in `checks`.
pub(super) fn given_fy(value: &Option<Value>, missing: &str, checks: &mut Checks) -> Option<Fy> {
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
