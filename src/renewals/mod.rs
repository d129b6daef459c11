//! The renewals worklist (spec 1 function 10, 4.6; decisions 11): what renews in a range, priced,
//! earliest first, with the total of the amounts. A read: the handler, the CSV twin and the
//! benchmark call [`renewals`] and [`page`]; a row's one-click action is the existing renewal
//! proforma (`POST /api/client-modules/{id}/renewal-quote`) or contract renewal
//! (`POST /api/service-contracts/{id}/renew`), and a row names the renewal document it already
//! has (a subscription's live renewal proforma, a contract's renewal invoice).

pub mod routes;
pub mod rules;
pub mod store;

use crate::catalog::{rules as catalog_rules, store as catalog_store};
use crate::plumbing::clock;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::db::settings;
use crate::plumbing::error::AppError;
use chrono::NaiveDate;
use rules::Renewal;
use rusqlite::Connection;
use serde::Serialize;
use std::collections::HashMap;
use store::RenewalFilter;
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
