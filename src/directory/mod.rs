//! The portals list and the module data directory (spec 1 function 12, 4.9; decisions 5): two
//! read-only views across every client's subscriptions, each in the caller's book. The portals
//! list says who logs in where (provider and username, whether a password is stored); the
//! module data directory lays one module's subscriptions out as a table of its custom fields.
//! Passwords and secrets are in neither: they are revealed one at a time, audited, on the
//! project's own routes. The rules are in `rules`, the SQL in `store`.

pub mod routes;
pub mod rules;
pub mod store;

use crate::catalog::modules;
use crate::catalog::rules::FieldDef;
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::AppError;
use crate::plumbing::http::csv;
use rusqlite::Connection;
use serde::Serialize;
use store::{ModuleDataFilter, ModuleDataRow, PortalFilter, PortalLogin};
use utoipa::ToSchema;

/// One page of the portals list.
pub fn portals_page(
    conn: &Connection,
    filter: PortalFilter,
    page: &Page,
) -> Result<Paginated<PortalLogin>, AppError> {
    store::portals(filter).page(conn, page)
}

/// The module a directory is of.
#[derive(Debug, Serialize, ToSchema)]
pub struct DirectoryModule {
    pub id: String,
    pub code: String,
    pub name: String,
}

/// One page of a module's data directory: the module, its field spec as the table's columns,
/// and the rows.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModuleDataPage {
    pub module: DirectoryModule,
    /// The module's field spec, in its order: the columns of `values`.
    pub columns: Vec<FieldDef>,
    #[serde(flatten)]
    pub page: Paginated<ModuleDataRow>,
}

/// One page of the directory of `filter.module_id` (404 for an unknown module).
pub fn module_data_page(
    conn: &Connection,
    filter: ModuleDataFilter,
    page: &Page,
) -> Result<ModuleDataPage, AppError> {
    let module = modules::module(conn, &filter.module_id)?;
    let listed = store::module_data(filter, module.field_spec.clone()).page(conn, page)?;
    Ok(ModuleDataPage {
        module: DirectoryModule {
            id: module.id,
            code: module.code,
            name: module.name,
        },
        columns: module.field_spec,
        page: listed,
    })
}

/// The whole directory of `filter.module_id` in `sort` order as CSV: the client, then a column
/// per field of the spec under its label. Answers the file's name and its text (a module has at
/// most one row per client: a few thousand lines).
pub fn module_data_csv(
    conn: &Connection,
    filter: ModuleDataFilter,
    sort: Option<&str>,
) -> Result<(String, String), AppError> {
    let module = modules::module(conn, &filter.module_id)?;
    let mut header = vec!["Client"];
    header.extend(module.field_spec.iter().map(|f| f.label.as_str()));
    let mut out = csv::line(&header);
    let spec = &module.field_spec;
    store::module_data(filter, spec.clone()).each(conn, sort, |row| {
        let mut cells = vec![row.client_name];
        cells.extend(
            spec.iter()
                .map(|f| row.values.get(&f.key).map(rules::cell).unwrap_or_default()),
        );
        out.push_str(&csv::line(&cells.iter().map(String::as_str).collect::<Vec<_>>()));
        Ok(())
    })?;
    Ok((format!("module-data-{}.csv", module.code), out))
}
