//! Reads the text download of Form 26AS (issue 36, decisions 12): the annual tax statement that
//! TRACES gives a PAN holder, exported as text ("Export as Text" on the TRACES "View Tax Credit"
//! page), one record per line, fields separated by `^`, no quoting.
//!
//! The layout read here is that of the TRACES text export (www.tdscpc.gov.in), Part I "Details
//! of Tax Deducted at Source". It was taken from a public parser of these downloads (the
//! `parse_traces_text_file` of a 26AS reconciliation tool on GitHub, which reads the header row
//! after "File Creation Date", the `PART-I` heading, deductor rows with their serial number and
//! entries with an empty first field, in the columns below) and from the statement's legend of
//! the status of booking. No real download was at hand on the build machine: the fixture
//! `tests/fixtures/form26as-2025-26.txt` is built to this layout, and a real download that
//! differs is refused naming its line rather than misread.
//!
//! ```text
//! File Creation Date^Permanent Account Number (PAN)^Current Status of PAN^Financial Year^Assessment Year^Name of Assessee^Address Line 1^…
//! 06-12-2026^AAACV1234F^Active^2025-2026^2026-2027^VENDOR SOFTWARE PVT LTD^…
//! ^PART-I - Details of Tax Deducted at Source^
//! Sr. No.^Name of Deductor^TAN of Deductor^^^^^Total Amount Paid / Credited(Rs.)^Total Tax Deducted(Rs.)^Total TDS Deposited(Rs.)
//! 1^KADAKKAL SERVICE CO-OP BANK^TVDK12345B^^^^^150000.00^15000.00^15000.00
//! ^Sr. No.^Section^Transaction Date^Status of Booking^Date of Booking^Remarks^Amount Paid / Credited(Rs.)^Tax Deducted(Rs.)^TDS Deposited(Rs.)
//! ^1^194J^15-Jun-2025^F^31-Jul-2025^^100000.00^10000.00^10000.00
//! ^2^194J^10-Sep-2025^F^30-Oct-2025^^50000.00^5000.00^5000.00
//! ^PART-II - Details of Tax Deducted at Source for 15G / 15H^
//! …
//! ```
//!
//! A deductor's row has its serial number in the first field; its entries (one per payment or
//! credit) have the first field empty. Only Part I is read; the parts after it (15G/15H, TCS,
//! tax paid, refunds, SFT …) are not the TDS a client deducted.
//!
//! The status of booking (the statement's legend) says whether the deductor's deposit was
//! matched with the bank's challan: F (final) and P (provisional, government deductors) are
//! credit the vendor can claim; U (unmatched: not deposited, or deposited with wrong
//! particulars) and O (overbooked: the challan short of what the return claims) are not, until
//! the deductor corrects them. So a quarter's `filed` is the TDS deposited on its F and P
//! entries; `deducted` is over every entry.
//!
//! A file that is not this layout, cut short or edited (a deductor's totals that are not the
//! sum of its entries) is refused whole, naming the line.

use crate::plumbing::clock::{Fy, Quarter, quarter_of};
use crate::plumbing::money;
use crate::tds::rules::is_tan;
use chrono::NaiveDate;
use std::collections::BTreeMap;

/// The largest upload: a Form 26AS of tens of thousands of entries is a few MiB.
pub const BODY_LIMIT: usize = 16 * 1024 * 1024;

/// The statuses of booking whose deposit is credited to the vendor.
pub const CREDITED: &[&str] = &["F", "P"];

/// One entry of Part I: a payment or credit a deductor reported.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub section: String,
    pub on: NaiveDate,
    /// F, P, U, O …
    pub status: String,
    /// Paise paid or credited, deducted and deposited.
    pub paid: i64,
    pub deducted: i64,
    pub deposited: i64,
}

impl Entry {
    /// Paise the vendor gets credit for.
    pub fn credited(&self) -> i64 {
        if CREDITED.contains(&self.status.as_str()) {
            self.deposited
        } else {
            0
        }
    }
}

/// A deductor of Part I with its entries.
#[derive(Debug, Clone, PartialEq)]
pub struct Deductor {
    pub name: String,
    pub tan: String,
    pub entries: Vec<Entry>,
}

/// What a download states.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// The PAN the statement is of.
    pub pan: String,
    pub fy: Fy,
    pub deductors: Vec<Deductor>,
}

/// A deductor's quarter, summed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filed {
    pub deductor_name: String,
    pub deducted: i64,
    /// Paise deposited on the credited (F, P) entries.
    pub filed: i64,
    pub entries: i64,
}

impl Statement {
    /// Entries of Part I.
    pub fn entries(&self) -> usize {
        self.deductors.iter().map(|d| d.entries.len()).sum()
    }

    /// Distinct TANs of Part I.
    pub fn tans(&self) -> usize {
        let mut tans: Vec<&str> = self.deductors.iter().map(|d| d.tan.as_str()).collect();
        tans.sort_unstable();
        tans.dedup();
        tans.len()
    }

    /// Per TAN and quarter (of the entry's transaction date), in key order.
    pub fn by_quarter(&self) -> BTreeMap<(String, Quarter), Filed> {
        let mut out: BTreeMap<(String, Quarter), Filed> = BTreeMap::new();
        for d in &self.deductors {
            for e in &d.entries {
                let (_, q) = quarter_of(e.on);
                let f = out.entry((d.tan.clone(), q)).or_default();
                if f.deductor_name.is_empty() {
                    f.deductor_name = d.name.clone();
                }
                f.deducted += e.deducted;
                f.filed += e.credited();
                f.entries += 1;
            }
        }
        out
    }
}

/// Why a text is not a Form 26AS download that can be read, with the line (1-based) when one
/// is to blame.
#[derive(Debug, Clone, PartialEq)]
pub struct Unreadable {
    pub line: Option<u64>,
    pub message: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "Line {line}: {}", self.message),
            None => {
                // A sentence of its own: its first letter up.
                let mut chars = self.message.chars();
                let first = chars
                    .next()
                    .map(|c| c.to_uppercase().to_string())
                    .unwrap_or_default();
                write!(f, "{first}{}", chars.as_str())
            }
        }
    }
}

fn at(line: u64, message: impl Into<String>) -> Unreadable {
    Unreadable {
        line: Some(line),
        message: message.into(),
    }
}

/// A PAN: five letters, four digits, a letter.
pub fn is_pan(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b[..5].iter().all(u8::is_ascii_uppercase)
        && b[5..9].iter().all(u8::is_ascii_digit)
        && b[9].is_ascii_uppercase()
}

/// Rupees as 26AS writes them (`15000.00`, `-500.00`, `0`) in paise; at most eleven digits of
/// rupees (₹9,999 crore), so that the sums of a whole statement stay far inside an i64.
pub fn paise(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty()
        || whole.len() > 11
        || fraction.len() > 2
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let cents = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<i64>().ok()? * 10,
        _ => fraction.parse::<i64>().ok()?,
    };
    let value = whole.parse::<i64>().ok()? * 100 + cents;
    Some(if negative { -value } else { value })
}

/// A date as 26AS writes it: `15-Jun-2025`.
fn date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%d-%b-%Y").ok()
}

/// `2025-2026` (26AS) or `2025-26`, read as `clock::Fy` reads a year.
fn financial_year(text: &str) -> Option<Fy> {
    Fy::parse(text).or_else(|| {
        let (start, end) = text.trim().split_once('-')?;
        let fy = Fy::parse(&format!("{start}-{}", end.get(2..)?))?;
        (end == (fy.start + 1).to_string()).then_some(fy)
    })
}

fn is_serial(text: &str) -> bool {
    !text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit())
}

/// Where the reader is.
#[derive(PartialEq)]
enum Part {
    /// Before Part I: looking for the header.
    Before,
    /// In Part I, reading its deductors.
    One,
    /// Past Part I.
    After,
}

/// A deductor being read, with the line of its row and the totals it states.
struct Open {
    deductor: Deductor,
    line: u64,
    deducted: i64,
    deposited: i64,
}

fn close(open: Option<Open>, into: &mut Vec<Deductor>) -> Result<(), Unreadable> {
    let Some(open) = open else { return Ok(()) };
    let deducted: i64 = open.deductor.entries.iter().map(|e| e.deducted).sum();
    let deposited: i64 = open.deductor.entries.iter().map(|e| e.deposited).sum();
    if deducted != open.deducted || deposited != open.deposited {
        return Err(at(
            open.line,
            format!(
                "the totals of {} ({}) are not the sum of its entries: tax deducted {} against {}, \
                 TDS deposited {} against {}. Download the file again from TRACES; an edited or cut \
                 file cannot be matched.",
                open.deductor.name,
                open.deductor.tan,
                money::rupees(open.deducted),
                money::rupees(deducted),
                money::rupees(open.deposited),
                money::rupees(deposited)
            ),
        ));
    }
    into.push(open.deductor);
    Ok(())
}

/// Reads the text of a Form 26AS download.
pub fn read(text: &str) -> Result<Statement, Unreadable> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b'^')
        .has_headers(false)
        .flexible(true)
        .quoting(false)
        .comment(None)
        .from_reader(text.as_bytes());
    let mut header: Option<(String, Fy)> = None;
    let mut header_next = false;
    let mut part = Part::Before;
    let mut deductors: Vec<Deductor> = vec![];
    let mut open: Option<Open> = None;
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map(|p| p.line());
                return Err(Unreadable {
                    line,
                    message: "the file is not text (UTF-8). Upload the text download of Form 26AS as TRACES gives it.".into(),
                });
            }
        }
        let line = record.position().map_or(0, |p| p.line());
        let f: Vec<&str> = record.iter().map(str::trim).collect();
        let field = |i: usize| f.get(i).copied().unwrap_or("");
        if f.iter().all(|x| x.is_empty()) {
            continue;
        }
        if let Some(heading) = f.iter().find(|x| x.starts_with("PART-")) {
            // "PART-I - Details of Tax Deducted at Source"; PART-II and later end it.
            let part_one = heading
                .strip_prefix("PART-I")
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' ') || rest.starts_with('-'));
            part = match (part_one, &part) {
                (true, Part::Before) => {
                    if header.is_none() {
                        return Err(at(
                            line,
                            "Part I comes before the statement's header (the PAN and the financial year). \
                             Upload the whole text download of Form 26AS.",
                        ));
                    }
                    Part::One
                }
                (true, _) => return Err(at(line, "Part I appears twice in the file.")),
                (false, Part::One) => {
                    close(open.take(), &mut deductors)?;
                    Part::After
                }
                (false, _) => continue,
            };
            continue;
        }
        match part {
            Part::Before => {
                if field(0) == "File Creation Date" {
                    header_next = true;
                } else if header_next {
                    header_next = false;
                    let pan = field(1).to_ascii_uppercase();
                    if !is_pan(&pan) {
                        return Err(at(line, format!("'{}' is not a PAN.", field(1))));
                    }
                    let fy = financial_year(field(3)).ok_or_else(|| {
                        at(
                            line,
                            format!("'{}' is not a financial year (2025-2026).", field(3)),
                        )
                    })?;
                    header = Some((pan, fy));
                }
            }
            Part::After => {}
            Part::One => {
                if field(0) == "Sr. No." || field(1) == "Sr. No." {
                    continue;
                }
                if f.iter()
                    .any(|x| x.eq_ignore_ascii_case("No Transactions Present"))
                {
                    continue;
                }
                let fy = header.as_ref().map(|(_, fy)| *fy).unwrap_or(Fy { start: 0 });
                if is_serial(field(0)) {
                    close(open.take(), &mut deductors)?;
                    let tan = field(2).to_ascii_uppercase();
                    if !is_tan(&tan) {
                        return Err(at(line, format!("'{}' is not a TAN of a deductor.", field(2))));
                    }
                    let amount = |i: usize, what: &str| {
                        paise(field(i)).ok_or_else(|| {
                            at(
                                line,
                                format!("the total {what} '{}' is not an amount in rupees.", field(i)),
                            )
                        })
                    };
                    let deducted = amount(8, "tax deducted")?;
                    let deposited = amount(9, "TDS deposited")?;
                    if field(1).is_empty() {
                        return Err(at(line, "the deductor has no name."));
                    }
                    open = Some(Open {
                        deductor: Deductor {
                            name: field(1).to_string(),
                            tan,
                            entries: vec![],
                        },
                        line,
                        deducted,
                        deposited,
                    });
                } else if field(0).is_empty() && is_serial(field(1)) {
                    let Some(open) = open.as_mut() else {
                        return Err(at(line, "an entry comes before any deductor."));
                    };
                    let on = date(field(3)).ok_or_else(|| {
                        at(
                            line,
                            format!("the transaction date '{}' is not a date (15-Jun-2025).", field(3)),
                        )
                    })?;
                    if on < fy.first_day() || on > fy.last_day() {
                        return Err(at(
                            line,
                            format!(
                                "the transaction date {} is outside the financial year {fy}.",
                                field(3)
                            ),
                        ));
                    }
                    if field(4).is_empty() {
                        return Err(at(line, "the entry has no status of booking."));
                    }
                    let amount = |i: usize, what: &str| {
                        paise(field(i)).ok_or_else(|| {
                            at(
                                line,
                                format!("the {what} '{}' is not an amount in rupees.", field(i)),
                            )
                        })
                    };
                    open.deductor.entries.push(Entry {
                        section: field(2).to_string(),
                        on,
                        status: field(4).to_ascii_uppercase(),
                        paid: amount(7, "amount paid or credited")?,
                        deducted: amount(8, "tax deducted")?,
                        deposited: amount(9, "TDS deposited")?,
                    });
                } else {
                    return Err(at(
                        line,
                        "this line of Part I is neither a deductor nor one of its entries.",
                    ));
                }
            }
        }
    }
    if part == Part::One {
        close(open.take(), &mut deductors)?;
    }
    let Some((pan, fy)) = header else {
        return Err(Unreadable {
            line: None,
            message: "this is not the text download of Form 26AS: it has no header with the PAN and the \
                      financial year. On TRACES, View Tax Credit (Form 26AS), choose Text and upload that file."
                .into(),
        });
    };
    if part == Part::Before {
        return Err(Unreadable {
            line: None,
            message: "the file has no Part I (Details of Tax Deducted at Source). Upload the whole text \
                      download of Form 26AS."
                .into(),
        });
    }
    Ok(Statement { pan, fy, deductors })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "File Creation Date^Permanent Account Number (PAN)^Current Status of PAN^Financial Year^Assessment Year^Name of Assessee^Address Line 1\n\
        06-12-2026^AAACV1234F^Active^2025-2026^2026-2027^VENDOR SOFTWARE PVT LTD^MG ROAD\n";
    const PART_I: &str = "^PART-I - Details of Tax Deducted at Source^\n\
        Sr. No.^Name of Deductor^TAN of Deductor^^^^^Total Amount Paid / Credited(Rs.)^Total Tax Deducted(Rs.)^Total TDS Deposited(Rs.)\n";
    const ENTRIES: &str = "^Sr. No.^Section^Transaction Date^Status of Booking^Date of Booking^Remarks^Amount Paid / Credited(Rs.)^Tax Deducted(Rs.)^TDS Deposited(Rs.)\n";

    fn file(body: &str) -> String {
        format!(
            "{HEAD}{PART_I}{body}^PART-II - Details of Tax Deducted at Source for 15G / 15H^\nSr. No.^Name of Deductor\n1^SOMEONE ELSE^TVDX00001X^^^^^1.00^0.00^0.00\n"
        )
    }

    #[test]
    fn a_statement_reads_per_deductor_and_quarter_with_only_f_and_p_credited() {
        let text = file(&format!(
            "1^KADAKKAL SCB^TVDK12345B^^^^^250000.00^25000.00^25000.00\n{ENTRIES}\
             ^1^194J^15-Jun-2025^F^31-Jul-2025^^100000.00^10000.00^10000.00\n\
             ^2^194J^30-Jun-2025^U^31-Jul-2025^^50000.00^5000.00^5000.00\n\
             ^3^194J^10-Sep-2025^P^30-Oct-2025^^100000.00^10000.00^10000.00\n\
             2^A & B SOCIETY^CHNA00001Z^^^^^0^0^0\n{ENTRIES}^1^^^^^No Transactions Present^^^\n"
        ));
        let s = read(&text).unwrap();
        assert_eq!(s.pan, "AAACV1234F");
        assert_eq!(s.fy, Fy { start: 2025 });
        assert_eq!(s.deductors.len(), 2);
        assert_eq!(s.entries(), 3);
        assert_eq!(s.tans(), 2);
        let q = s.by_quarter();
        let q1 = &q[&("TVDK12345B".to_string(), Quarter::Q1)];
        assert_eq!((q1.deducted, q1.filed, q1.entries), (1_500_000, 1_000_000, 2));
        let q2 = &q[&("TVDK12345B".to_string(), Quarter::Q2)];
        assert_eq!((q2.deducted, q2.filed, q2.entries), (1_000_000, 1_000_000, 1));
        assert_eq!(q.len(), 2, "the deductor with no transactions has no quarter");
        assert_eq!(q1.deductor_name, "KADAKKAL SCB");
    }

    /// The realistic download of the API tests: every part's heading, Part I with four deductors.
    const FIXTURE: &str = include_str!("../../tests/fixtures/form26as-2025-26.txt");

    #[test]
    fn the_fixture_reads_as_its_lines_say_with_crlf_line_ends_too() {
        for text in [FIXTURE.to_string(), FIXTURE.replace('\n', "\r\n")] {
            let s = read(&text).unwrap();
            assert_eq!((s.pan.as_str(), s.fy), ("AABCK1234L", Fy { start: 2025 }));
            assert_eq!((s.tans(), s.entries()), (4, 5));
            let got: Vec<(String, &str, i64, i64, i64)> = s
                .by_quarter()
                .into_iter()
                .map(|((tan, q), f)| (tan, q.as_str(), f.deducted, f.filed, f.entries))
                .collect();
            assert_eq!(
                got,
                [
                    ("CHEK00999X".to_string(), "Q3", 70_000, 70_000, 1),
                    ("CHNP00456B".to_string(), "Q2", 200_000, 150_000, 2),
                    ("TVDA00789D".to_string(), "Q1", 30_000, 30_000, 1),
                    ("TVDK01234A".to_string(), "Q1", 100_000, 100_000, 1),
                ]
            );
            assert_eq!(s.deductors[1].name, "PIRAVOM WOMEN'S CO-OP SOCIETY & STORES");
        }
    }

    #[test]
    fn amounts_are_read_to_the_paisa() {
        assert_eq!(paise("15000.00"), Some(1_500_000));
        assert_eq!(paise("0.5"), Some(50));
        assert_eq!(paise("12"), Some(1200));
        assert_eq!(paise("-500.25"), Some(-50_025));
        for bad in [
            "",
            "1,000.00",
            "1.234",
            "abc",
            ".50",
            "1e3",
            "-",
            "123456789012.00",
        ] {
            assert_eq!(paise(bad), None, "{bad}");
        }
    }

    #[test]
    fn bad_files_are_refused_naming_the_line() {
        let no_header = format!("{PART_I}1^X^TVDK12345B^^^^^1.00^0.10^0.10\n");
        assert_eq!(read(&no_header).unwrap_err().line, Some(1));
        let nothing = read("Name,Amount\nA,1\n").unwrap_err();
        assert_eq!(nothing.line, None);
        assert!(
            nothing.message.contains("not the text download of Form 26AS"),
            "{}",
            nothing.message
        );
        let no_part = read(HEAD).unwrap_err();
        assert!(no_part.message.contains("no Part I"), "{}", no_part.message);

        let cut = read(&file(&format!(
            "1^KADAKKAL SCB^TVDK12345B^^^^^250000.00^25000.00^25000.00\n{ENTRIES}\
             ^1^194J^15-Jun-2025^F^31-Jul-2025^^100000.00^10000.00^10000.00\n"
        )))
        .unwrap_err();
        assert_eq!(cut.line, Some(5));
        assert!(
            cut.message.contains("not the sum of its entries"),
            "{}",
            cut.message
        );

        let bad_amount = read(&file(&format!(
            "1^KADAKKAL SCB^TVDK12345B^^^^^1000.00^100.00^100.00\n{ENTRIES}\
             ^1^194J^15-Jun-2025^F^31-Jul-2025^^1000.00^1OO.00^100.00\n"
        )))
        .unwrap_err();
        assert_eq!(bad_amount.line, Some(7));
        assert!(bad_amount.message.contains("'1OO.00'"), "{}", bad_amount.message);

        let other_year = read(&file(&format!(
            "1^KADAKKAL SCB^TVDK12345B^^^^^1000.00^100.00^100.00\n{ENTRIES}\
             ^1^194J^15-Jun-2024^F^31-Jul-2024^^1000.00^100.00^100.00\n"
        )))
        .unwrap_err();
        assert!(
            other_year.message.contains("outside the financial year 2025-26"),
            "{}",
            other_year.message
        );

        let bad_tan = read(&file("1^KADAKKAL SCB^TVD12345B^^^^^0^0^0\n")).unwrap_err();
        assert!(
            bad_tan.message.contains("'TVD12345B' is not a TAN"),
            "{}",
            bad_tan.message
        );

        let stray = read(&file("hello^world\n")).unwrap_err();
        assert_eq!(stray.line, Some(5));

        assert_eq!(financial_year("2025-2026"), Some(Fy { start: 2025 }));
        assert_eq!(financial_year("2025-26"), Some(Fy { start: 2025 }));
        assert_eq!(financial_year("2025-2126"), None);
        assert_eq!(financial_year("1999-2000"), None);
        let bad_pan = read("File Creation Date^PAN\n06-12-2026^ABC^Active^2025-2026\n").unwrap_err();
        assert_eq!(bad_pan.line, Some(2));
    }

    #[test]
    fn later_parts_are_not_read_as_part_one() {
        // Part II's deductor row must not be taken for a deductor of Part I.
        let s = read(&file("")).unwrap();
        assert!(s.deductors.is_empty());
    }
}
