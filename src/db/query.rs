//! A small builder for the filtered, paged list queries every area runs.

use crate::http::error::AppError;
use crate::http::pagination::{Page, Paginated};
use rusqlite::types::Value;
use rusqlite::{Connection, Row, params_from_iter};

/// `WHERE` clauses joined by AND, with their positional values.
#[derive(Default)]
pub struct Filter {
    clauses: Vec<String>,
    values: Vec<Value>,
}

impl Filter {
    /// Adds `clause`, whose `?` placeholders take `values` in order.
    pub fn and(&mut self, clause: &str, values: impl IntoIterator<Item = Value>) -> &mut Self {
        self.clauses.push(format!("({clause})"));
        self.values.extend(values);
        self
    }

    /// Adds `column = value` when a value is given.
    pub fn eq(&mut self, column: &str, value: Option<impl Into<Value>>) -> &mut Self {
        if let Some(v) = value {
            self.and(&format!("{column} = ?"), [v.into()]);
        }
        self
    }

    fn sql(&self) -> String {
        if self.clauses.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", self.clauses.join(" AND "))
        }
    }
}

/// Escapes `%`, `_` and `\` so user text is matched literally inside a LIKE pattern (`ESCAPE '\'`).
pub fn like_contains(text: &str) -> Value {
    let escaped = text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    Value::Text(format!("%{escaped}%"))
}

/// What a paged list selects.
pub struct ListQuery<'a> {
    /// The columns, e.g. `s.id, s.name`.
    pub columns: &'a str,
    /// `FROM` and joins, e.g. `staff s`.
    pub from: &'a str,
    /// Ordering without a cursor, e.g. `s.id DESC`.
    pub order_by: &'a str,
    /// The id column the sync cursor compares, e.g. `s.id`.
    pub id_column: &'a str,
}

/// Runs a filtered list: one page of rows plus the honest total.
pub fn fetch_page<T>(
    conn: &Connection,
    query: ListQuery<'_>,
    mut filter: Filter,
    page: &Page,
    map: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Paginated<T>, AppError> {
    let order_by = match &page.after {
        Some(after) => {
            filter.and(&format!("{} > ?", query.id_column), [Value::Text(after.clone())]);
            format!("{} ASC", query.id_column)
        }
        None => query.order_by.to_string(),
    };
    let where_sql = filter.sql();
    let total: i64 = conn.query_row(
        &format!("SELECT COUNT(*) FROM {}{where_sql}", query.from),
        params_from_iter(filter.values.iter()),
        |r| r.get(0),
    )?;
    let mut values = filter.values;
    values.push(Value::Integer(page.limit()));
    values.push(Value::Integer(page.offset()));
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {} FROM {}{where_sql} ORDER BY {order_by} LIMIT ? OFFSET ?",
        query.columns, query.from
    ))?;
    let rows = statement
        .query_map(params_from_iter(values.iter()), map)?
        .collect::<Result<Vec<T>, _>>()?;
    Ok(page.wrap(rows, total))
}

/// `UPDATE table SET col = ?, ... , updated_at = now WHERE id = ?` for the given changes; returns
/// the rows changed. Column names come from code, never from input.
pub fn update_columns(
    conn: &Connection,
    table: &str,
    id: &str,
    changes: Vec<(&'static str, Value)>,
) -> rusqlite::Result<usize> {
    if changes.is_empty() {
        return Ok(0);
    }
    let sets: Vec<String> = changes
        .iter()
        .map(|(column, _)| format!("{column} = ?"))
        .collect();
    let mut values: Vec<Value> = changes.into_iter().map(|(_, v)| v).collect();
    values.push(Value::Text(crate::clock::now_timestamp()));
    values.push(Value::Text(id.to_string()));
    let sql = format!(
        "UPDATE {table} SET {}, updated_at = ? WHERE id = ?",
        sets.join(", ")
    );
    conn.execute(&sql, params_from_iter(values.iter()))
}

/// Text for a nullable column: empty or blank text is stored as NULL.
pub fn text_or_null(value: &str) -> Value {
    let trimmed = value.trim();
    if trimmed.is_empty() {
        Value::Null
    } else {
        Value::Text(trimmed.to_string())
    }
}

/// `INSERT INTO table` with a new id, `created_at` and `updated_at` plus the given validated
/// fields; answers the new id. Column names come from code, never from input.
pub fn insert_row(
    conn: &Connection,
    table: &str,
    fields: Vec<(&'static str, Value)>,
) -> rusqlite::Result<String> {
    let id = crate::db::ids::new_id();
    let now = crate::clock::now_timestamp();
    let mut columns = vec!["id", "created_at", "updated_at"];
    let mut values = vec![
        Value::Text(id.clone()),
        Value::Text(now.clone()),
        Value::Text(now),
    ];
    for (column, value) in fields {
        columns.push(column);
        values.push(value);
    }
    let marks = vec!["?"; columns.len()].join(", ");
    conn.execute(
        &format!("INSERT INTO {table} ({}) VALUES ({marks})", columns.join(", ")),
        params_from_iter(values.iter()),
    )?;
    Ok(id)
}
