//! A page of a list (decisions 2, 10): `page` (1-based, default 1), `per_page` (default 50, at
//! most 200), the sync cursor `after={id}` and `sort`; the envelope `{ rows, total, page, per_page }` with an
//! honest total. Plain data of the query layer; `http::pagination` reads it from a request.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub const DEFAULT_PER_PAGE: u32 = 50;
pub const MAX_PER_PAGE: u32 = 200;

/// Which slice of a list to answer.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Page {
    /// 1-based page number.
    #[serde(default = "first_page")]
    pub page: u32,
    /// Rows per page, 1 to 200.
    #[serde(default = "default_per_page")]
    pub per_page: u32,
    /// Sync cursor: only rows with an id greater than this, in id order.
    pub after: Option<String>,
    /// `column` ascending or `-column` descending, from the list's own columns (decisions 10);
    /// ties break on the id. Without it, the list's usual order.
    pub sort: Option<String>,
}

fn first_page() -> u32 {
    1
}
fn default_per_page() -> u32 {
    DEFAULT_PER_PAGE
}

impl Page {
    pub fn limit(&self) -> i64 {
        i64::from(self.per_page)
    }
    /// Rows to skip; a cursor replaces the page offset.
    pub fn offset(&self) -> i64 {
        if self.after.is_some() {
            0
        } else {
            i64::from(self.page - 1) * i64::from(self.per_page)
        }
    }
    /// This page of `all`, a list read and ordered whole (the lists sorted in Rust), with its
    /// total.
    pub fn slice<T>(&self, all: Vec<T>) -> Paginated<T> {
        let total = all.len() as i64;
        let rows = all
            .into_iter()
            .skip(self.offset() as usize)
            .take(self.limit() as usize)
            .collect();
        self.wrap(rows, total)
    }

    pub fn wrap<T>(&self, rows: Vec<T>, total: i64) -> Paginated<T> {
        Paginated {
            rows,
            total,
            page: self.page,
            per_page: self.per_page,
        }
    }
}

/// One page of a list and the full matching count: every list's reply, alone or flattened into
/// a reply that says more (`#[serde(flatten)] page: Paginated<Row>`).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Paginated<T> {
    pub rows: Vec<T>,
    /// Every row matching the filters, not just this page.
    pub total: i64,
    pub page: u32,
    pub per_page: u32,
}

impl<T> Paginated<T> {
    /// The same page with each row made into another.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Paginated<U> {
        Paginated {
            rows: self.rows.into_iter().map(f).collect(),
            total: self.total,
            page: self.page,
            per_page: self.per_page,
        }
    }
}
