//! The staged rows checked against one another and the registry: duplicate rows, a society's
//! conflicting GSTINs, clashing invoice numbers, and the registry's client each row's client is.

use crate::imports::checks::{Verdict, check_row};
use crate::imports::reading::RawRow;
use crate::imports::rules::{Problem, client_key, problem};
use crate::plumbing::gstin::Gstin;
use chrono::NaiveDate;
use std::collections::HashMap;

/// A client of the registry, as the matching reads it.
pub struct KnownClient {
    pub id: String,
    pub name: String,
    pub gstin: Option<String>,
}

/// A number already in the registry: whose document it is and whether it came from an import.
pub struct KnownNumber {
    pub client_id: String,
    pub legacy: bool,
}

/// What the registry already holds that the checks compare the file with.
pub struct Registry {
    pub clients: Vec<KnownClient>,
    /// The documents whose numbers the file's rows give.
    pub numbers: HashMap<String, KnownNumber>,
}

/// A staged row as the owner left it: its text, and whether it is excluded.
pub struct Staged {
    pub raw: RawRow,
    pub excluded: bool,
}

struct Index<'a> {
    by_gstin: HashMap<&'a str, Vec<&'a KnownClient>>,
    by_key: HashMap<String, Vec<&'a KnownClient>>,
}

impl<'a> Index<'a> {
    fn new(clients: &'a [KnownClient]) -> Self {
        let mut by_gstin: HashMap<&str, Vec<&KnownClient>> = HashMap::new();
        let mut by_key: HashMap<String, Vec<&KnownClient>> = HashMap::new();
        for c in clients {
            if let Some(g) = c.gstin.as_deref() {
                by_gstin.entry(g).or_default().push(c);
            }
            by_key.entry(client_key(&c.name)).or_default().push(c);
        }
        Index { by_gstin, by_key }
    }

    /// The registry's client for a file client of `key` and `gstin`: the one of the same
    /// GSTIN and name, else the first of that name whose GSTIN is unset or the same. (A GSTIN
    /// alone does not match: a society and the store it runs may share one.)
    fn find(&self, key: &str, gstin: Option<&str>) -> Option<&'a KnownClient> {
        if let Some(g) = gstin
            && let Some(c) = self
                .by_gstin
                .get(g)
                .and_then(|same| same.iter().find(|c| client_key(&c.name) == key))
        {
            return Some(c);
        }
        self.by_key
            .get(key)?
            .iter()
            .copied()
            .find(|c| match (c.gstin.as_deref(), gstin) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            })
    }
}

/// Checks every staged row against the others and the registry, as of the office's `today`.
/// Excluded rows are read but neither checked nor compared with.
pub fn check(rows: &[Staged], registry: &Registry, today: NaiveDate) -> Vec<Verdict> {
    let mut verdicts: Vec<Verdict> = rows.iter().map(|s| check_row(&s.raw, today)).collect();
    let index = Index::new(&registry.clients);
    // A client's GSTIN is the first valid one its rows give.
    let mut client_gstin: HashMap<&str, String> = HashMap::new();
    for (s, v) in rows.iter().zip(&verdicts) {
        if !s.excluded
            && !v.client_key.is_empty()
            && let Ok(g) = Gstin::parse(&s.raw.gstin)
        {
            client_gstin
                .entry(v.client_key.as_str())
                .or_insert_with(|| g.into());
        }
    }
    let mut seen_rows: HashMap<(&str, &str, String), i64> = HashMap::new();
    let mut seen_numbers: HashMap<&str, (i64, &str)> = HashMap::new();
    let mut extra: Vec<(usize, Problem)> = vec![];
    let mut matches: Vec<(usize, Option<String>, bool)> = vec![];
    for (i, (s, v)) in rows.iter().zip(&verdicts).enumerate() {
        if s.excluded || v.client_key.is_empty() {
            continue;
        }
        let key = v.client_key.as_str();
        let gstin = client_gstin.get(key).map(String::as_str);
        let raw = &s.raw;
        // Rows without an invoice are one society's twice unless each names another contact.
        let contact = if raw.invoice_no.is_empty() {
            raw.contact_name.to_lowercase()
        } else {
            String::new()
        };
        let seen = (key, raw.invoice_no.as_str(), contact);
        if let Some(first) = seen_rows.get(&seen) {
            extra.push((
                i,
                problem(
                    "duplicate_row",
                    "name",
                    if raw.invoice_no.is_empty() {
                        format!("Row {first} already names this society: exclude this row or merge the two.")
                    } else {
                        format!(
                            "Row {first} already has this society's invoice {}.",
                            raw.invoice_no
                        )
                    },
                ),
            ));
        } else {
            seen_rows.insert(seen, raw.row);
        }
        if let Some(g) = gstin
            && !raw.gstin.is_empty()
            && Gstin::parse(&raw.gstin).is_ok_and(|mine| mine.as_str() != g)
        {
            extra.push((
                i,
                problem(
                    "conflicting_gstin",
                    "gstin",
                    format!("Another row of this society gives the GSTIN {g}."),
                ),
            ));
        }
        let found = index.find(key, gstin);
        let mut known = false;
        if !raw.invoice_no.is_empty() {
            match seen_numbers.get(raw.invoice_no.as_str()) {
                Some((first, other)) if *other != key => extra.push((
                    i,
                    problem(
                        "invoice_no_clash",
                        "invoice_no",
                        format!("Row {first} gives {} to another society.", raw.invoice_no),
                    ),
                )),
                Some(_) => {}
                None => {
                    seen_numbers.insert(raw.invoice_no.as_str(), (raw.row, key));
                }
            }
            if let Some(existing) = registry.numbers.get(&raw.invoice_no) {
                if existing.legacy && found.is_some_and(|c| c.id == existing.client_id) {
                    known = true;
                } else {
                    extra.push((
                        i,
                        problem(
                            "invoice_no_clash",
                            "invoice_no",
                            format!("{} is already a document in the back office.", raw.invoice_no),
                        ),
                    ));
                }
            }
        }
        matches.push((i, found.map(|c| c.id.clone()), known));
    }
    for (i, p) in extra {
        verdicts[i].problems.push(p);
    }
    for (i, found, known) in matches {
        verdicts[i].match_id = found;
        verdicts[i].invoice_known = known;
    }
    for (s, v) in rows.iter().zip(verdicts.iter_mut()) {
        if s.excluded {
            v.problems.clear();
        }
    }
    verdicts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::imports::reading::{SAMPLE, read_file};

    #[test]
    fn the_sample_file_stages_without_problems() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let (columns, rows) = read_file(SAMPLE).unwrap();
        assert!(
            columns.iter().all(|c| c.field.is_some()),
            "every sample header is read"
        );
        let staged: Vec<Staged> = rows
            .into_iter()
            .map(|raw| Staged { raw, excluded: false })
            .collect();
        let registry = Registry {
            clients: vec![],
            numbers: HashMap::new(),
        };
        let v = check(&staged, &registry, today);
        assert_eq!(v.iter().map(|v| v.problems.len()).sum::<usize>(), 0, "{v:?}");
        assert_eq!(v[1].total, Some(590_000));
        assert_eq!(v[1].balance, Some(590_000));
    }

    fn staged(name: &str, gstin: &str, invoice: (&str, &str, &str)) -> Staged {
        Staged {
            raw: RawRow {
                name: name.into(),
                gstin: gstin.into(),
                invoice_no: invoice.0.into(),
                invoice_date: invoice.1.into(),
                invoice_total: invoice.2.into(),
                ..RawRow::default()
            },
            excluded: false,
        }
    }

    fn kinds(v: &Verdict) -> Vec<&str> {
        v.problems.iter().map(|p| p.kind.as_str()).collect()
    }

    #[test]
    fn each_problem_kind_is_marked() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let right = crate::plumbing::gstin::check_char("32AAAAA0000A1Z").unwrap();
        let wrong_check = format!("32AAAAA0000A1Z{}", if right == 'X' { 'Y' } else { 'X' });
        let mut rows = vec![
            staged("", "", ("", "", "")),
            staged("Alpha PACS", &wrong_check, ("", "", "")),
            staged("Beta PACS", "", ("INV/25-26-0001", "2025-05-01", "1,180.00")),
            staged("Beta PACS", "", ("INV/25-26-0001", "2025-05-01", "1,180.00")),
            staged("Gamma PACS", "", ("INV/25-26-0001", "2025-05-02", "100")),
            staged("Delta PACS", "", ("INV 7", "2025-05-02", "100")),
            staged("Delta PACS", "", ("INV/24-25-0007", "2025-05-02", "100")),
            staged("Eps PACS", "", ("INV/25-26-0009", "2025-13-02", "abc")),
            staged("Zeta PACS", "", ("INV/25-26-0010", "", "")),
            staged("Eta PACS", "", ("INV/26-27-0001", "2026-04-02", "100")),
            staged("Theta PACS", "", ("CN/25-26-0011", "2025-05-02", "100")),
        ];
        rows.push(Staged {
            excluded: true,
            ..staged("", "", ("", "", ""))
        });
        let registry = Registry {
            clients: vec![],
            numbers: HashMap::from([(
                "INV/26-27-0001".to_string(),
                KnownNumber {
                    client_id: "C1".into(),
                    legacy: false,
                },
            )]),
        };
        let v = check(&rows, &registry, today);
        let got: Vec<Vec<&str>> = v.iter().map(kinds).collect();
        assert_eq!(
            got,
            vec![
                vec!["name_missing"],
                vec!["gstin_invalid"],
                vec![],
                vec!["duplicate_row"],
                vec!["invoice_no_clash"],
                vec!["invoice_no_shape"],
                vec!["invoice_fy_mismatch"],
                vec!["date_invalid", "amount_invalid"],
                vec!["invoice_incomplete", "invoice_incomplete"],
                vec!["invoice_no_clash"],
                vec!["invoice_no_shape"],
                vec![],
            ]
        );
        assert_eq!(v[2].total, Some(118_000));
        assert_eq!(v[2].fy.as_deref(), Some("25-26"));
    }

    #[test]
    fn registry_clients_are_matched_and_known_invoices_left_alone() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let gstin = &format!(
            "32AAACK1234A1Z{}",
            crate::plumbing::gstin::check_char("32AAACK1234A1Z").unwrap()
        );
        let registry = Registry {
            clients: vec![
                KnownClient {
                    id: "A".into(),
                    name: "Kallada SCB Ltd".into(),
                    gstin: None,
                },
                KnownClient {
                    id: "B".into(),
                    name: "Mylom PACS".into(),
                    gstin: Some(gstin.into()),
                },
            ],
            numbers: HashMap::from([(
                "INV/24-25-0001".to_string(),
                KnownNumber {
                    client_id: "B".into(),
                    legacy: true,
                },
            )]),
        };
        let rows = vec![
            staged("KALLADA S.C.B.", "", ("", "", "")),
            staged("Mylom P.A.C.S.", gstin, ("INV/24-25-0001", "2024-05-01", "100")),
            staged("Mylom Store", gstin, ("", "", "")),
            staged("New PACS", "", ("", "", "")),
        ];
        let v = check(&rows, &registry, today);
        assert_eq!(v[0].match_id.as_deref(), Some("A"));
        assert_eq!(v[1].match_id.as_deref(), Some("B"), "the same GSTIN and name");
        assert!(v[1].invoice_known && v[1].problems.is_empty());
        assert_eq!(
            v[2].match_id, None,
            "a store sharing the society's GSTIN is its own client"
        );
        assert_eq!(v[3].match_id, None);
    }
}
