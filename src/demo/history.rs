//! The history of a demo office, planned in memory before anything is written: clients and their
//! subscriptions, then year by year the documents each client went through and how they paid.
//! Here the plan's rows and each subscription's checklist; `planner` and `billing` make it.

use chrono::NaiveDate;

pub struct Client {
    pub name: String,
    /// The name in English: what the type and the category are read from (the same as `name`
    /// but for the societies written in Malayalam).
    pub english_name: String,
    pub gstin: Option<String>,
    pub address: String,
    pub state_code: &'static str,
    pub district: &'static str,
    /// Index into the staff (0 is the manager; staff follow).
    pub owner: usize,
    pub since: NaiveDate,
    pub email: Option<String>,
    pub phone: String,
    /// 'active', 'lost' or `LEAD`.
    pub status: &'static str,
    /// (name, role, phone, email).
    pub contacts: Vec<(String, &'static str, String, Option<String>)>,
}

/// The status of a client still in the pipeline (no subscription, no document yet).
pub const LEAD: &str = "lead";

impl Client {
    pub fn is_lead(&self) -> bool {
        self.status == LEAD
    }
}

pub struct Sub {
    pub client: usize,
    pub module: usize,
    pub start: NaiveDate,
    pub active: bool,
    /// Per checklist step: when it was ticked.
    pub done: Vec<Option<NaiveDate>>,
}

#[derive(Clone)]
pub struct Line {
    pub module: Option<usize>,
    pub description: String,
    pub qty: i64,
    pub unit_price: i64,
    pub gst_rate: i64,
    pub source: &'static str,
}

pub struct Doc {
    pub doc_type: &'static str,
    pub status: &'static str,
    pub client: usize,
    pub parent: Option<usize>,
    pub source: &'static str,
    pub created: NaiveDate,
    /// The issue date (None: a draft).
    pub doc_date: Option<NaiveDate>,
    pub due_date: Option<NaiveDate>,
    pub intra: bool,
    pub lines: Vec<Line>,
    /// (kind, day, reason).
    pub events: Vec<(&'static str, NaiveDate, Option<&'static str>)>,
    pub notes: Option<String>,
    pub subtotal: i64,
    pub cgst: i64,
    pub sgst: i64,
    pub igst: i64,
    pub total: i64,
}

pub struct Payment {
    pub client: usize,
    pub received_on: NaiveDate,
    pub amount: i64,
    pub mode: &'static str,
    pub reference: Option<String>,
    /// (document index, money, tds).
    pub allocations: Vec<(usize, i64, i64)>,
    /// Entered by mistake and cancelled the same day, with this reason (it then settles nothing).
    pub cancelled: Option<&'static str>,
    /// Part of the advance given back: (amount, day, reason).
    pub refund: Option<(i64, NaiveDate, &'static str)>,
}

pub struct Plan {
    pub staff: usize,
    /// Per module: (effective_from, price in paise), in date order.
    pub prices: Vec<Vec<(NaiveDate, i64)>>,
    /// SMS rate card: (min_qty, rate in paise).
    pub sms_bands: Vec<(i64, i64)>,
    pub clients: Vec<Client>,
    pub subs: Vec<Sub>,
    pub docs: Vec<Doc>,
    pub payments: Vec<Payment>,
}

/// The checklist every demo subscription follows (the default tail; no front steps).
pub fn checklist() -> Vec<crate::projects::rules::Step> {
    crate::projects::rules::default_tail()
}

/// A subscription's installed and trained days and its status, from the days its checklist
/// steps were done (as ticking them through the API moves the status).
pub fn project_status(
    steps: &[crate::projects::rules::Step],
    done: &[Option<NaiveDate>],
) -> (Option<String>, Option<String>, &'static str) {
    let step_day = |key: &str| {
        steps
            .iter()
            .position(|st| st.key == key)
            .and_then(|i| done[i])
            .map(|d| d.to_string())
    };
    let (installed, trained) = (step_day("installed"), step_day("trained"));
    let status = if trained.is_some() {
        "trained"
    } else if installed.is_some() {
        "installed"
    } else {
        "new"
    };
    (installed, trained, status)
}
