//! A page of a list (decisions 2, 10): `page` (1-based, default 1), `per_page` (default 50, at
//! most 200), the sync cursor `after={id}` and `sort`; the envelope `{ rows, total, page, per_page }` with an
//! honest total. Plain data of the query layer; `http::pagination` reads it from a request.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
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

    /// This page of `all` in the order `by` gives, with its total: [`Page::slice`] of `all`
    /// sorted, but only the rows up to the page's end are sorted (a search's thousands of
    /// matches for a page of fifty).
    pub fn slice_ordered_by<T>(&self, mut all: Vec<T>, by: impl Fn(&T, &T) -> Ordering) -> Paginated<T> {
        let total = all.len();
        let end = (self.offset() + self.limit()).clamp(0, total as i64) as usize;
        if end < total {
            all.select_nth_unstable_by(end, &by);
            all.truncate(end);
        }
        all.sort_unstable_by(&by);
        let rows = all.into_iter().skip(self.offset() as usize).collect();
        self.wrap(rows, total as i64)
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

#[cfg(test)]
mod tests {
    use super::Page;

    /// A page ordered by sorting only up to its end is the same page of the whole list sorted,
    /// with the same total: the first, a middle, the last (short) and one past the end, both ways.
    #[test]
    fn a_page_sorted_up_to_its_end_is_that_page_of_the_list_sorted() {
        // 0..1000 in a scrambled order, with ties broken by the second field.
        let all: Vec<(u32, u32)> = (0..1000u32).map(|i| ((i * 7919) % 97, i)).collect();
        for per_page in [1, 50, 200] {
            for page in [
                1,
                2,
                7,
                1000u32.div_ceil(per_page),
                1000u32.div_ceil(per_page) + 1,
            ] {
                let p = Page {
                    page,
                    per_page,
                    after: None,
                    sort: None,
                };
                for descending in [false, true] {
                    let by = |a: &(u32, u32), b: &(u32, u32)| if descending { b.cmp(a) } else { a.cmp(b) };
                    let mut sorted = all.clone();
                    sorted.sort_by(by);
                    let want = p.slice(sorted);
                    let got = p.slice_ordered_by(all.clone(), by);
                    assert_eq!(
                        (got.rows, got.total),
                        (want.rows, want.total),
                        "{per_page} {page} {descending}"
                    );
                }
            }
        }
    }
}
