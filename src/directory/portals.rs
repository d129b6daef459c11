//! The portals list: who logs in where, one page in the caller's book.

use crate::directory::store::{self, PortalFilter, PortalLogin};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::AppError;
use rusqlite::Connection;

/// One page of the portals list.
pub fn portals_page(
    conn: &Connection,
    filter: PortalFilter,
    page: &Page,
) -> Result<Paginated<PortalLogin>, AppError> {
    store::portals(filter).page(conn, page)
}
