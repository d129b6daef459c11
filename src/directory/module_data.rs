//! The module data directory: one module's subscriptions as a table of its custom fields, a page
//! of it or the whole as CSV.

use crate::catalog::modules;
use crate::catalog::rules::FieldDef;
use crate::directory::rules;
use crate::directory::store::{self, ModuleDataFilter, ModuleDataRow};
use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::AppError;
use crate::plumbing::http::csv;
use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

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
