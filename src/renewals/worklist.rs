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
    let today = settings::office_today(conn)?;
    let days_until = |due_on: &str| clock::date(due_on).map_or(0, |d| (d - today).num_days());
    let mut books = HashMap::new();
    let mut rows = vec![];
    for m in store::modules(conn, filter)? {
        if !books.contains_key(&m.module_id) {
            books.insert(m.module_id.clone(), catalog_store::prices(conn, &m.module_id)?);
        }
        let amount = clock::date(&m.due_on)
            .and_then(|on| catalog_rules::price_on(&books[&m.module_id], on))
            .map(|p| p.price);
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
    for c in store::contracts(conn, filter)? {
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
/// a price counts as nothing), in `book`.
pub fn due_within(conn: &Connection, days: u64, book: Option<String>) -> Result<(i64, i64), AppError> {
    let today = settings::office_today(conn)?;
    let filter = RenewalFilter {
        from: today,
        to: today + chrono::Days::new(days),
        kind: None,
        q: None,
        book,
    };
    let rows = renewals(conn, &filter, None)?;
    Ok((rows.len() as i64, rows.iter().filter_map(|r| r.amount).sum()))
}
