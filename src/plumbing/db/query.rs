//! A small builder for the filtered, paged list queries every area runs.

use crate::plumbing::db::page::{Page, Paginated};
use crate::plumbing::error::AppError;
use rusqlite::types::Value;
use rusqlite::{Connection, Row, params_from_iter};

/// `WHERE` clauses joined by AND, with their positional values.
#[derive(Default, Clone)]
pub struct Filter {
    clauses: Vec<String>,
    values: Vec<Value>,
    /// Two conditions of which a row meets at least one ([`Filter::either`]), with their values.
    either: Option<[(String, Vec<Value>); 2]>,
    /// The `column = value` clauses, for a [`Tally`].
    equalities: Vec<(String, Value)>,
    /// Whether any clause is not such an equality (then only COUNT(*) gives the total).
    other: bool,
}

impl Filter {
    /// Adds `clause`, whose `?` placeholders take `values` in order.
    pub fn and(&mut self, clause: &str, values: impl IntoIterator<Item = Value>) -> &mut Self {
        self.other = true;
        self.push(clause, values)
    }

    fn push(&mut self, clause: &str, values: impl IntoIterator<Item = Value>) -> &mut Self {
        self.clauses.push(format!("({clause})"));
        self.values.extend(values);
        self
    }

    /// Adds `column = value` when a value is given.
    pub fn eq(&mut self, column: &str, value: Option<impl Into<Value>>) -> &mut Self {
        if let Some(v) = value {
            let v = v.into();
            self.equalities.push((column.to_string(), v.clone()));
            self.push(&format!("{column} = ?"), [v]);
        }
        self
    }

    /// Adds "`first` OR `second`", each with its values. The two are kept apart: a page in id
    /// order ([`fetch_page_with`] with a [`Plan::find_in`]) reads the first page's worth of each
    /// in the order of its own index and merges them, where SQLite would gather every match of
    /// the OR and sort them all for the page. A filter keeps one pair apart; a second is an
    /// ordinary clause.
    pub fn either(&mut self, first: (String, Vec<Value>), second: (String, Vec<Value>)) -> &mut Self {
        if self.either.is_some() {
            let ((a, av), (b, bv)) = (first, second);
            return self.and(&format!("({a}) OR ({b})"), av.into_iter().chain(bv));
        }
        self.other = true;
        self.either = Some([first, second]);
        self
    }

    /// The ` WHERE …` of the clauses (empty without any), for a query a store writes itself.
    pub fn sql(&self) -> String {
        self.whole().0
    }

    /// The values of [`Filter::sql`]'s placeholders, in order.
    pub fn values(&self) -> Vec<Value> {
        self.whole().1
    }

    /// The ` WHERE …` of every clause, the either's pair as one OR, with its values.
    fn whole(&self) -> (String, Vec<Value>) {
        let or = self.either.as_ref().map(|[(first, a), (second, b)]| {
            (
                format!("({first}) OR ({second})"),
                a.iter().chain(b).cloned().collect(),
            )
        });
        self.where_with(or)
    }

    /// The ` WHERE …` of `leading` (one of the either's, or its OR) and the other clauses, with
    /// the values of its placeholders in order.
    fn where_with(&self, leading: Option<(String, Vec<Value>)>) -> (String, Vec<Value>) {
        let mut clauses = vec![];
        let mut values = vec![];
        if let Some((clause, v)) = leading {
            clauses.push(format!("({clause})"));
            values.extend(v);
        }
        clauses.extend(self.clauses.iter().cloned());
        values.extend(self.values.iter().cloned());
        if clauses.is_empty() {
            (String::new(), values)
        } else {
            (format!(" WHERE {}", clauses.join(" AND ")), values)
        }
    }

    /// The WHERE on `tally` when every clause is an equality on one of its columns.
    fn tally_where(&self, tally: &Tally) -> Option<(String, Vec<Value>)> {
        if self.other {
            return None;
        }
        let mut wheres = vec!["1".to_string()];
        let mut values = vec![];
        for (column, value) in &self.equalities {
            let (_, counted) = tally.columns.iter().find(|(c, _)| c == column)?;
            wheres.push(format!("{counted} = ?"));
            values.push(value.clone());
        }
        Some((wheres.join(" AND "), values))
    }

    /// The total from `tally` when every clause is an equality on one of its columns.
    fn tally_sql(&self, tally: &Tally) -> Option<(String, Vec<Value>)> {
        let (wheres, values) = self.tally_where(tally)?;
        Some((
            format!("SELECT COALESCE(SUM(n), 0) FROM {} WHERE {wheres}", tally.table),
            values,
        ))
    }

    /// How many rows of `from` this filter selects for each value of `group` (the list's
    /// column, e.g. `t.status`): summed from `tally` when every clause is an equality on its
    /// columns and it counts `group` too, else counted (grouped by `+group`, so the rows are
    /// found by the filter's index, not walked in the group's order and read one by one).
    pub fn counts_by(
        &self,
        conn: &Connection,
        from: &str,
        group: &str,
        tally: Option<&Tally>,
    ) -> Result<Vec<(String, i64)>, AppError> {
        let tallied = tally.and_then(|t| {
            let (_, counted) = t.columns.iter().find(|(c, _)| *c == group)?;
            let (wheres, values) = self.tally_where(t)?;
            Some((
                format!(
                    "SELECT {counted}, SUM(n) FROM {} WHERE {wheres} GROUP BY {counted}",
                    t.table
                ),
                values,
            ))
        });
        let (sql, values) = tallied.unwrap_or_else(|| {
            let (where_sql, values) = self.whole();
            (
                format!("SELECT {group}, COUNT(*) FROM {from}{where_sql} GROUP BY +{group}"),
                values,
            )
        });
        let mut statement = conn.prepare_cached(&sql)?;
        let counts = statement
            .query_map(params_from_iter(values.iter()), |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        Ok(counts)
    }
}

/// A table of counts kept by triggers (migrations/V7): one row per combination of `columns`
/// with its number of rows, so an equality-filtered total is a sum of a few rows.
pub struct Tally {
    pub table: &'static str,
    /// (the column as the list's filter names it, the tally's column).
    pub columns: &'static [(&'static str, &'static str)],
}

/// Escapes `%`, `_` and `\` so user text is matched literally inside a LIKE pattern (`ESCAPE '\'`).
pub fn like_contains(text: &str) -> Value {
    let escaped = text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    Value::Text(format!("%{escaped}%"))
}

/// The FTS5 query that finds `text` as `LIKE '%text%'` does (ASCII letters fold, everything
/// else literal) in a trigram index of text lower-cased by SQLite's `lower()` with
/// `tokenize = 'trigram case_sensitive 1'` (migrations/V28): the phrase of the lower-cased
/// text's trigrams, in `columns` (e.g. `{subject}`; empty: every column). None when the text
/// has no trigram (under three characters) or holds a NUL: LIKE matches it then.
pub fn trigram_contains(columns: &str, text: &str) -> Option<Value> {
    if text.chars().count() < 3 || text.contains('\0') {
        return None;
    }
    let phrase = text.to_ascii_lowercase().replace('"', "\"\"");
    let filter = if columns.is_empty() {
        String::new()
    } else {
        format!("{columns} : ")
    };
    Some(Value::Text(format!("{filter}\"{phrase}\"")))
}

/// `column` (a suffix table's) starts with the lower-cased `text`: the rows of one range.
/// With a suffix table this is "the text contains `text`", as `LIKE '%text%'` (ASCII letters
/// fold, everything else is literal), answered from the index (migrations/V7).
pub fn starts_with(column: &str, text: &str) -> (String, Vec<Value>) {
    let low = text.to_ascii_lowercase();
    match after_prefix(&low) {
        Some(high) => (
            format!("{column} >= ? AND {column} < ?"),
            vec![Value::Text(low), Value::Text(high)],
        ),
        None => (format!("{column} >= ?"), vec![Value::Text(low)]),
    }
}

/// The least string above every string that starts with `prefix` (in UTF-8 byte order, which
/// is code point order): its last character stepped up, or None when nothing is above.
fn after_prefix(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let mut next = u32::from(last) + 1;
        if (0xD800..0xE000).contains(&next) {
            next = 0xE000;
        }
        if let Some(c) = char::from_u32(next) {
            chars.push(c);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

/// `a` against `b` as SQLite's `COLLATE NOCASE` orders them: ASCII letters folded to lower
/// case, every other byte as it is. For lists sorted in Rust rather than by SQLite's sorter.
pub fn nocase_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

/// What a paged list selects.
pub struct ListQuery<'a> {
    /// The columns, e.g. `s.id, s.name`.
    pub columns: std::borrow::Cow<'a, str>,
    /// `FROM` and joins, e.g. `staff s`.
    pub from: &'a str,
    /// Ordering without a cursor, e.g. `s.id DESC`.
    pub order_by: &'a str,
    /// The id column the sync cursor compares, e.g. `s.id`.
    pub id_column: &'a str,
    /// What `sort` may name: the column's name in the API and its SQL expression.
    pub sorts: &'a [(&'a str, &'a str)],
}

/// The ORDER BY of a list: `sort` (`name` or `-name`, one of `query.sorts`) with ties broken on
/// the id in the same direction, else the list's own order. An unknown name is 400.
fn order_by(query: &ListQuery<'_>, sort: Option<&str>) -> Result<String, AppError> {
    let Some(sort) = sort.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(query.order_by.to_string());
    };
    let (name, direction) = match sort.strip_prefix('-') {
        Some(name) => (name, "DESC"),
        None => (sort, "ASC"),
    };
    let (_, expression) = query.sorts.iter().find(|(n, _)| *n == name).ok_or_else(|| {
        let names: Vec<&str> = query.sorts.iter().map(|(n, _)| *n).collect();
        AppError::bad_request(
            "invalid_sort",
            format!("sort is one of {} (with - for descending).", names.join(", ")),
        )
        .on_field("sort")
    })?;
    Ok(format!(
        "{expression} {direction}, {} {direction}",
        query.id_column
    ))
}

/// How a row of a list reads.
pub type RowMap<T> = Box<dyn Fn(&Row<'_>) -> rusqlite::Result<T> + Send>;

/// A list as a store describes it: what to select, how to find it, the filters and how a row
/// reads. Answer one page of it ([`Listing::page`]) or every row in turn ([`Listing::each`],
/// for a CSV twin), with the same filters, sort and scoping.
pub struct Listing<T> {
    pub query: ListQuery<'static>,
    pub plan: Plan<'static>,
    pub filter: Filter,
    pub map: RowMap<T>,
}

impl<T> Listing<T> {
    pub fn new(
        query: ListQuery<'static>,
        filter: Filter,
        map: impl Fn(&Row<'_>) -> rusqlite::Result<T> + Send + 'static,
    ) -> Self {
        Listing {
            query,
            plan: Plan::default(),
            filter,
            map: Box::new(map),
        }
    }

    pub fn with_plan(mut self, plan: Plan<'static>) -> Self {
        self.plan = plan;
        self
    }

    /// One page with the honest total.
    pub fn page(self, conn: &Connection, page: &Page) -> Result<Paginated<T>, AppError> {
        fetch_page_with(conn, self.query, self.plan, self.filter, page, self.map)
    }

    /// Every matching row in `sort` order (no page, no cap), handed to `each` as it is read.
    pub fn each(
        self,
        conn: &Connection,
        sort: Option<&str>,
        mut each: impl FnMut(T) -> Result<(), AppError>,
    ) -> Result<(), AppError> {
        let order_by = order_by(&self.query, sort)?;
        let (where_sql, values) = self.filter.whole();
        let sql = format!(
            "SELECT {} FROM {}{where_sql} ORDER BY {order_by}",
            self.query.columns, self.query.from,
        );
        let mut statement = conn.prepare(&sql)?;
        let mut rows = statement.query(params_from_iter(values.iter()))?;
        while let Some(row) = rows.next()? {
            each((self.map)(row)?)?;
        }
        Ok(())
    }
}

/// How a list is found and counted, beyond its [`ListQuery`].
#[derive(Default, Clone, Copy)]
pub struct Plan<'a> {
    /// Where the rows are found, counted and paged, when that is less than `from`: the tables
    /// the filters and the ordering name, one row per row of `from` (`document d` without the
    /// client join). The page's ids are then joined to `from` for the columns, so a deep page
    /// steps over narrow index entries, not over whole joined rows.
    pub find_in: Option<&'a str>,
    /// Counts that answer the total when every filter is an equality on their columns.
    pub tally: Option<&'a Tally>,
    /// Where the total is counted, when that is less than where the rows are found (a roster
    /// found in client-name order is counted from the links alone).
    pub count_in: Option<&'a str>,
}

/// Runs a filtered list: one page of rows plus the honest total.
pub fn fetch_page<T>(
    conn: &Connection,
    query: ListQuery<'_>,
    filter: Filter,
    page: &Page,
    map: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Paginated<T>, AppError> {
    fetch_page_with(conn, query, Plan::default(), filter, page, map)
}

/// [`fetch_page`] with a [`Plan`].
pub fn fetch_page_with<T>(
    conn: &Connection,
    query: ListQuery<'_>,
    plan: Plan<'_>,
    mut filter: Filter,
    page: &Page,
    map: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Paginated<T>, AppError> {
    let order_by = match &page.after {
        Some(after) => {
            filter.and(&format!("{} > ?", query.id_column), [Value::Text(after.clone())]);
            format!("{} ASC", query.id_column)
        }
        None => order_by(&query, page.sort.as_deref())?,
    };
    let (where_sql, mut values) = filter.whole();
    let counted_in = plan.count_in.or(plan.find_in).unwrap_or(query.from);
    let total: i64 = match plan.tally.and_then(|t| filter.tally_sql(t)) {
        Some((sql, values)) => conn
            .prepare_cached(&sql)?
            .query_row(params_from_iter(values.iter()), |r| r.get(0))?,
        None => conn
            .prepare_cached(&format!("SELECT COUNT(*) FROM {counted_in}{where_sql}"))?
            .query_row(params_from_iter(values.iter()), |r| r.get(0))?,
    };
    let id = query.id_column;
    let in_id_order = order_by
        .strip_prefix(id)
        .is_some_and(|direction| [" ASC", " DESC"].contains(&direction));
    let page_ids = match (plan.find_in, &filter.either) {
        // Each of the either's pair gives its first offset + limit ids in the list's order (from
        // its own index, no sort of every match); the page is taken from their union.
        (Some(find_in), Some(pair)) if in_id_order => {
            values.clear();
            let mut found = vec![];
            for half in pair {
                let (half_where, half_values) = filter.where_with(Some(half.clone()));
                found.push(format!(
                    "SELECT page_id FROM (SELECT {id} AS page_id FROM {find_in}{half_where} ORDER BY {order_by} LIMIT ?)"
                ));
                values.extend(half_values);
                values.push(Value::Integer(page.offset() + page.limit()));
            }
            let direction = &order_by[id.len()..];
            Some(format!(
                "{} ORDER BY page_id{direction} LIMIT ? OFFSET ?",
                found.join(" UNION ")
            ))
        }
        (Some(find_in), _) => Some(format!(
            "SELECT {id} AS page_id FROM {find_in}{where_sql} ORDER BY {order_by} LIMIT ? OFFSET ?"
        )),
        (None, _) => None,
    };
    let sql = match page_ids {
        Some(page_ids) => format!(
            "SELECT {} FROM ({page_ids}) AS page CROSS JOIN {} WHERE {id} = page.page_id ORDER BY {order_by}",
            query.columns, query.from
        ),
        None => format!(
            "SELECT {} FROM {}{where_sql} ORDER BY {order_by} LIMIT ? OFFSET ?",
            query.columns, query.from
        ),
    };
    values.push(Value::Integer(page.limit()));
    values.push(Value::Integer(page.offset()));
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement
        .query_map(params_from_iter(values.iter()), map)?
        .collect::<Result<Vec<T>, _>>()?;
    Ok(page.wrap(rows, total))
}

/// Column changes for an INSERT or UPDATE: column names from code, values from checked input.
pub type Changes = Vec<(&'static str, Value)>;

/// `UPDATE table SET col = ?, ... , updated_at = now WHERE id = ?` for the given changes; returns
/// the rows changed. Column names come from code, never from input.
pub fn update_columns(conn: &Connection, table: &str, id: &str, changes: Changes) -> rusqlite::Result<usize> {
    if changes.is_empty() {
        return Ok(0);
    }
    let sets: Vec<String> = changes
        .iter()
        .map(|(column, _)| format!("{column} = ?"))
        .collect();
    let mut values: Vec<Value> = changes.into_iter().map(|(_, v)| v).collect();
    values.push(Value::Text(crate::plumbing::clock::now_timestamp()));
    values.push(Value::Text(id.to_string()));
    let sql = format!(
        "UPDATE {table} SET {}, updated_at = ? WHERE id = ?",
        sets.join(", ")
    );
    conn.prepare_cached(&sql)?
        .execute(params_from_iter(values.iter()))
}

/// The text in column `i` of `row` as its bytes, borrowed (not checked as UTF-8): for reads
/// that compare or hash thousands of values they never hand on.
pub fn bytes<'r>(row: &'r Row, i: usize) -> rusqlite::Result<&'r [u8]> {
    row.get_ref(i)?
        .as_bytes()
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e)))
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
pub fn insert_row(conn: &Connection, table: &str, fields: Changes) -> rusqlite::Result<String> {
    let id = crate::plumbing::db::ids::new_id();
    let now = crate::plumbing::clock::now_timestamp();
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
    conn.prepare_cached(&format!(
        "INSERT INTO {table} ({}) VALUES ({marks})",
        columns.join(", ")
    ))?
    .execute(params_from_iter(values.iter()))?;
    Ok(id)
}

/// Holds back the search-suffix insert triggers (V14) until [`resume_search`]: the caller
/// indexes what it inserts meanwhile itself, in key order, one statement per suffix table. For
/// thousands of rows in one transaction; an error that rolls the transaction back takes the
/// hold with it.
pub fn defer_search(tx: &Connection) -> rusqlite::Result<()> {
    tx.execute("INSERT INTO search_deferred (one) VALUES (1)", [])?;
    Ok(())
}

/// Ends [`defer_search`]'s hold.
pub fn resume_search(tx: &Connection) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM search_deferred", [])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{after_prefix, nocase_cmp, starts_with};
    use rusqlite::Connection;

    #[test]
    fn the_range_above_a_prefix_is_the_next_string() {
        assert_eq!(after_prefix("inv/25-26-01").as_deref(), Some("inv/25-26-02"));
        assert_eq!(after_prefix("a\u{d7ff}").as_deref(), Some("a\u{e000}"));
        assert_eq!(after_prefix("a\u{10ffff}").as_deref(), Some("b"));
        assert_eq!(after_prefix("\u{10ffff}"), None);
        assert_eq!(starts_with("s", "INV").1.len(), 2);
    }

    #[test]
    fn a_suffix_range_finds_what_like_finds() {
        let conn = Connection::open_in_memory().unwrap();
        let texts = [
            "INV/25-26-0101",
            "inv/25-26-0102",
            "CN/25-26-0001",
            "Adoor Service Co-op",
            "ADOORX",
            "x%y_z",
            "é-Ü",
        ];
        for q in ["INV/25-26-01", "adoor", "%", "_", "y_z", "0", "é", "ü", "Ü", "zz"] {
            let (range, values) = starts_with("suffix", q);
            let mut by_suffix = vec![];
            for t in texts {
                let suffixes: Vec<String> = t
                    .char_indices()
                    .map(|(i, _)| t[i..].to_ascii_lowercase())
                    .collect();
                let found = suffixes.iter().any(|s| {
                    let mut args = vec![rusqlite::types::Value::Text(s.clone())];
                    args.extend(values.iter().cloned());
                    conn.query_row(
                        &format!("SELECT 1 FROM (SELECT ? AS suffix) WHERE {range}"),
                        rusqlite::params_from_iter(args),
                        |_| Ok(()),
                    )
                    .is_ok()
                });
                if found {
                    by_suffix.push(t);
                }
            }
            let by_like: Vec<&str> = texts
                .into_iter()
                .filter(|t| {
                    conn.query_row(
                        "SELECT ?1 LIKE ?2 ESCAPE '\\'",
                        rusqlite::params![t, super::like_contains(q)],
                        |r| r.get::<_, bool>(0),
                    )
                    .unwrap()
                })
                .collect();
            assert_eq!(by_suffix, by_like, "{q}");
        }
    }

    /// A page of a filter with an either pair, in id order (read as two halves), forwards from a
    /// cursor (the same) and sorted (read as one OR), against the rows worked out in Rust; a
    /// second pair on the same filter narrows as an ordinary clause.
    #[test]
    fn an_either_pair_pages_as_its_or_does() {
        use super::{Filter, ListQuery, Plan, fetch_page_with};
        use crate::plumbing::db::page::Page;
        use rusqlite::types::Value;
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE t (id TEXT PRIMARY KEY, a INTEGER, b INTEGER);
             CREATE INDEX t_a ON t (a, id); CREATE INDEX t_b ON t (b, id);",
        )
        .unwrap();
        let rows: Vec<(String, i64, i64)> = (0..1000).map(|i| (format!("r{i:04}"), i % 7, i % 11)).collect();
        for (id, a, b) in &rows {
            conn.execute("INSERT INTO t VALUES (?1, ?2, ?3)", rusqlite::params![id, a, b])
                .unwrap();
        }
        let half = |column: &str, n: i64| (format!("t.{column} = ?"), vec![Value::Integer(n)]);
        let filter = |second: bool| {
            let mut f = Filter::default();
            f.either(half("a", 3), half("b", 5));
            if second {
                f.either(half("a", 1), half("b", 2));
            }
            f.and("t.id <> ?", [Value::Text("r0010".into())]);
            f
        };
        let wanted = |second: bool| -> Vec<&(String, i64, i64)> {
            rows.iter()
                .filter(|(id, a, b)| (*a == 3 || *b == 5) && (!second || *a == 1 || *b == 2) && id != "r0010")
                .collect()
        };
        let page_of = |f: Filter, page: &Page| {
            let query = ListQuery {
                columns: "t.id".into(),
                from: "t",
                order_by: "t.id DESC",
                id_column: "t.id",
                sorts: &[("a", "t.a")],
            };
            let plan = Plan {
                find_in: Some("t"),
                ..Plan::default()
            };
            let got = fetch_page_with(&conn, query, plan, f, page, |r| r.get::<_, String>(0)).unwrap();
            (got.total, got.rows)
        };
        let ids = |rows: Vec<&(String, i64, i64)>| rows.into_iter().map(|r| r.0.clone()).collect::<Vec<_>>();
        for second in [false, true] {
            let mut newest = wanted(second);
            newest.reverse();
            let total = newest.len() as i64;
            assert!(total > 12, "{total}");
            for n in 1..=4 {
                let page = Page {
                    page: n,
                    per_page: 5,
                    after: None,
                    sort: None,
                };
                let skip = (n as usize - 1) * 5;
                let want = ids(newest.iter().skip(skip).take(5).copied().collect());
                assert_eq!(page_of(filter(second), &page), (total, want), "page {n}");
            }
            let oldest = wanted(second);
            let after = Page {
                page: 1,
                per_page: 5,
                after: Some(oldest[2].0.clone()),
                sort: None,
            };
            let want = ids(oldest.iter().skip(3).take(5).copied().collect());
            assert_eq!(page_of(filter(second), &after), (total - 3, want), "after");
            let mut by_a = oldest.clone();
            by_a.sort_by(|x, y| (y.1, &y.0).cmp(&(x.1, &x.0)));
            let sorted = Page {
                page: 2,
                per_page: 5,
                after: None,
                sort: Some("-a".into()),
            };
            let want = ids(by_a.iter().skip(5).take(5).copied().collect());
            assert_eq!(page_of(filter(second), &sorted), (total, want), "sorted");
        }
    }

    #[test]
    fn nocase_orders_as_sqlite_does() {
        let conn = Connection::open_in_memory().unwrap();
        let names = [
            "abc", "ABD", "Ab", "a_b", "a[b", "ADOOR", "adoor x", "Éa", "éa", "zeta", "Z",
        ];
        let mut stmt = conn
            .prepare(&format!(
                "SELECT n FROM ({}) ORDER BY n COLLATE NOCASE, n",
                names
                    .iter()
                    .map(|n| format!("SELECT '{n}' AS n"))
                    .collect::<Vec<_>>()
                    .join(" UNION ALL ")
            ))
            .unwrap();
        let sqlite: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut ours: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        ours.sort_by(|a, b| nocase_cmp(a, b).then_with(|| a.cmp(b)));
        assert_eq!(ours, sqlite);
    }
}
