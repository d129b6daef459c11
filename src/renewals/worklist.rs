//! The renewals read: every renewal in a range priced and sorted, a page of them with the
//! total, and the count and amount due within some days (the dashboard's and the cockpit's).

use crate::catalog::{rules as catalog_rules, store as catalog_store};
use crate::plumbing::clock;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use crate::renewals::rules::{self, Renewal};
use crate::renewals::store::{self, RenewalFilter};
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

/// Every renewal `filter` selects, priced, in `sort` order.
pub fn renewals(
    conn: &Connection,
    filter: &RenewalFilter,
    sort: Option<&str>,
) -> Result<Vec<Renewal>, AppError> {
    priced(conn, filter, sort, None)
}

/// [`renewals`]; with `first`, only the first that many in the usual order (day, then id).
fn priced(
    conn: &Connection,
    filter: &RenewalFilter,
    sort: Option<&str>,
    first: Option<i64>,
) -> Result<Vec<Renewal>, AppError> {
    let today = settings::office_today(conn)?;
    let days_until = |due_on: &str| clock::date(due_on).map_or(0, |d| (d - today).num_days());
    let mut prices = Prices::default();
    let mut rows = vec![];
    for m in store::modules(conn, filter, first)? {
        let amount = prices.on(conn, &m.module_id, &m.due_on)?;
        rows.push(Renewal {
            kind: "module".into(),
            what: match &m.edition {
                Some(edition) => format!("{} ({edition})", m.module_name),
                None => m.module_name,
            },
            days_until: days_until(&m.due_on),
            id: m.id,
            client_id: m.client_id,
            client_name: m.client_name,
            module_id: Some(m.module_id),
            due_on: m.due_on,
            amount,
            document_id: None,
            doc_no: None,
            renewal_document: m.renewal_document,
        });
    }
    for c in store::contracts(conn, filter, first)? {
        rows.push(Renewal {
            kind: "contract".into(),
            days_until: days_until(&c.due_on),
            id: c.id,
            client_id: c.client_id,
            client_name: c.client_name,
            what: c.description,
            module_id: None,
            due_on: c.due_on,
            amount: Some(c.amount),
            document_id: c.document_id,
            doc_no: c.doc_no,
            renewal_document: None,
        });
    }
    rules::sort(&mut rows, sort)?;
    Ok(rows)
}

/// One page of the renewals with the range's total.
#[derive(Debug, Serialize, ToSchema)]
pub struct RenewalList {
    #[serde(flatten)]
    pub page: Paginated<Renewal>,
    /// The sum of every row's amount in the range (not only this page's), paise.
    pub total_amount: i64,
    #[schema(format = Date)]
    pub from: NaiveDate,
    #[schema(format = Date)]
    pub to: NaiveDate,
}

/// The page `page` asks for, with the total of the amounts.
pub fn page(conn: &Connection, filter: &RenewalFilter, page: &Page) -> Result<RenewalList, AppError> {
    let usual = page
        .sort
        .as_deref()
        .map(str::trim)
        .is_none_or(|s| ["", "due_on", "days_until"].contains(&s));
    if usual && page.after.is_none() && filter.q.is_none() {
        // The usual order: the rows up to this page's end, and the count and amount from the
        // kept counts (as the dashboard's tiles read them), not every row of the range priced.
        let end = page.offset() + page.limit();
        let mut rows = priced(conn, filter, None, Some(end))?;
        rows.truncate(end as usize);
        let rows = rows.split_off((page.offset() as usize).min(rows.len()));
        let (total, total_amount) = dues(
            conn,
            filter.from,
            filter.to,
            filter.kind.as_deref(),
            filter.book.as_deref(),
        )?;
        return Ok(RenewalList {
            page: page.wrap(rows, total),
            total_amount,
            from: filter.from,
            to: filter.to,
        });
    }
    let all = renewals(conn, filter, page.sort.as_deref())?;
    let total_amount = all.iter().filter_map(|r| r.amount).sum();
    let listed = match &page.after {
        // The sync cursor: rows after that id, in id order.
        Some(after) => {
            let total = all.len() as i64;
            let mut rest: Vec<Renewal> = all.into_iter().filter(|r| &r.id > after).collect();
            rest.sort_by(|a, b| a.id.cmp(&b.id));
            rest.truncate(page.limit() as usize);
            page.wrap(rest, total)
        }
        None => page.slice(all),
    };
    Ok(RenewalList {
        page: listed,
        total_amount,
        from: filter.from,
        to: filter.to,
    })
}

/// How many renewals fall in the `days` from today, and their amount (paise; a renewal without
/// a price counts as nothing), in `book`: as [`renewals`] counts and prices them, from the
/// counts of subscriptions by module and day that migrations/V29 keeps.
pub fn due_within(conn: &Connection, days: u64, book: Option<String>) -> Result<(i64, i64), AppError> {
    due_within_on(conn, days, book, settings::office_today(conn)?)
}

/// [`due_within`] from `today`.
pub fn due_within_on(
    conn: &Connection,
    days: u64,
    book: Option<String>,
    today: NaiveDate,
) -> Result<(i64, i64), AppError> {
    dues(
        conn,
        today,
        today + chrono::Days::new(days),
        None,
        book.as_deref(),
    )
}

/// How many renewals of `kind` (None: both) fall from `from` to `to` in `book`, and their amount
/// (paise; a renewal without a price counts as nothing), as [`renewals`] counts and prices them.
fn dues(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    kind: Option<&str>,
    book: Option<&str>,
) -> Result<(i64, i64), AppError> {
    let wants = |k: &str| kind.is_none_or(|kind| kind == k);
    let (mut count, mut amount) = if wants("contract") {
        store::contract_dues(conn, from, to, book)?
    } else {
        (0, 0)
    };
    if wants("module") {
        let mut prices = Prices::default();
        for (module_id, due_on, n) in store::module_dues(conn, from, to, book)? {
            count += n;
            amount += n * prices.on(conn, &module_id, &due_on)?.unwrap_or(0);
        }
    }
    Ok((count, amount))
}

/// The price books of the modules met so far: a renewal is priced at its module's price in force
/// on its day (none: no price).
#[derive(Default)]
struct Prices(HashMap<String, Vec<catalog_rules::PriceRow>>);

impl Prices {
    fn on(&mut self, conn: &Connection, module_id: &str, due_on: &str) -> Result<Option<i64>, AppError> {
        if !self.0.contains_key(module_id) {
            self.0
                .insert(module_id.to_string(), catalog_store::prices(conn, module_id)?);
        }
        Ok(clock::date(due_on)
            .and_then(|on| catalog_rules::price_on(&self.0[module_id], on))
            .map(|p| p.price))
    }
}
