//! Money: integer paise everywhere (decisions 1), rounded half-up in one function, shown with
//! Indian digit grouping (₹1,23,456.00) and read out in Indian words (lakh, crore) on documents,
//! receipts, reports and emails.

/// `numerator / denominator` rounded half-up, for non-negative values.
pub fn div_round_half_up(numerator: i64, denominator: i64) -> i64 {
    debug_assert!(numerator >= 0 && denominator > 0);
    (2 * numerator + denominator) / (2 * denominator)
}

/// The amount (paise, may be negative) that brings `total` to the nearest rupee, 50 paise up.
pub fn round_off(total: i64) -> i64 {
    let paise = total.rem_euclid(100);
    if paise >= 50 { 100 - paise } else { -paise }
}

/// "₹1,23,456.00" from paise, with Indian digit grouping (for messages; the console formats its own).
pub fn rupees(paise: i64) -> String {
    let sign = if paise < 0 { "-" } else { "" };
    let paise = paise.unsigned_abs();
    let digits = (paise / 100).to_string();
    let grouped = if digits.len() <= 3 {
        digits
    } else {
        let (head, last3) = digits.split_at(digits.len() - 3);
        let mut groups: Vec<&str> = vec![];
        let mut rest = head;
        while rest.len() > 2 {
            let (h, t) = rest.split_at(rest.len() - 2);
            groups.insert(0, t);
            rest = h;
        }
        if !rest.is_empty() {
            groups.insert(0, rest);
        }
        format!("{},{last3}", groups.join(","))
    };
    format!("{sign}₹{grouped}.{:02}", paise % 100)
}

/// "1,23,456.00" from paise: the amount of a table cell, without the sign of the currency.
pub fn amount(paise: i64) -> String {
    rupees(paise).replacen('₹', "", 1)
}

/// "123456.00" from paise: rupees with two decimals and no grouping, as a spreadsheet reads them
/// (the CSV exports).
pub fn decimal(paise: i64) -> String {
    let sign = if paise < 0 { "-" } else { "" };
    let paise = paise.unsigned_abs();
    format!("{sign}{}.{:02}", paise / 100, paise % 100)
}

const ONES: [&str; 20] = [
    "",
    "One",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Eleven",
    "Twelve",
    "Thirteen",
    "Fourteen",
    "Fifteen",
    "Sixteen",
    "Seventeen",
    "Eighteen",
    "Nineteen",
];
const TENS: [&str; 10] = [
    "", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety",
];

/// Words for 0 < n < 100.
fn below_hundred(n: u64) -> String {
    match n {
        0..20 => ONES[n as usize].to_string(),
        _ if n.is_multiple_of(10) => TENS[(n / 10) as usize].to_string(),
        _ => format!("{} {}", TENS[(n / 10) as usize], ONES[(n % 10) as usize]),
    }
}

/// Indian-style words for a whole number: crore, lakh, thousand, hundred ("One Lakh Eighteen Thousand").
pub fn indian_words(n: u64) -> String {
    if n == 0 {
        return "Zero".into();
    }
    let mut parts = vec![];
    let crores = n / 10_000_000;
    if crores > 0 {
        parts.push(format!("{} Crore", indian_words(crores)));
    }
    let rest = n % 10_000_000;
    for (unit, name) in [(100_000, "Lakh"), (1_000, "Thousand"), (100, "Hundred")] {
        let count = rest / unit % if unit == 100 { 10 } else { 100 };
        if count > 0 {
            parts.push(format!("{} {name}", below_hundred(count)));
        }
    }
    if !rest.is_multiple_of(100) {
        parts.push(below_hundred(rest % 100));
    }
    parts.join(" ")
}

/// "Rupees One Lakh Eighteen Thousand Only", with "and Fifty Paise" when there are paise.
pub fn amount_in_words(paise: i64) -> String {
    let sign = if paise < 0 { "Minus " } else { "" };
    let paise = paise.unsigned_abs();
    let rupees = indian_words(paise / 100);
    match paise % 100 {
        0 => format!("Rupees {sign}{rupees} Only"),
        p => format!("Rupees {sign}{rupees} and {} Paise Only", below_hundred(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_for_spreadsheets() {
        assert_eq!(decimal(11_800_000), "118000.00");
        assert_eq!(decimal(5), "0.05");
        assert_eq!(decimal(-250_050), "-2500.50");
        assert_eq!(decimal(0), "0.00");
    }

    #[test]
    fn rounding_table() {
        for (n, d, expected) in [
            (0, 200, 0),
            (99, 200, 0),
            (100, 200, 1),
            (101, 200, 1),
            (299, 200, 1),
            (300, 200, 2),
            (5, 10, 1),
            (4, 10, 0),
            (15, 10, 2),
        ] {
            assert_eq!(div_round_half_up(n, d), expected, "{n}/{d}");
        }
    }

    #[test]
    fn round_off_to_the_rupee() {
        assert_eq!(round_off(118_000), 0);
        assert_eq!(round_off(118_049), -49);
        assert_eq!(round_off(118_050), 50);
        assert_eq!(round_off(118_099), 1);
    }

    #[test]
    fn rupees_in_indian_grouping() {
        for (paise, text) in [
            (0, "₹0.00"),
            (5, "₹0.05"),
            (12_345_600, "₹1,23,456.00"),
            (100_000_000_000, "₹1,00,00,00,000.00"),
            (-590_000, "-₹5,900.00"),
            (99_999, "₹999.99"),
        ] {
            assert_eq!(rupees(paise), text);
        }
    }

    #[test]
    fn amounts_read_in_indian_words() {
        for (paise, words) in [
            (11_800_000, "Rupees One Lakh Eighteen Thousand Only"),
            (0, "Rupees Zero Only"),
            (100, "Rupees One Only"),
            (1_999, "Rupees Nineteen and Ninety Nine Paise Only"),
            (10_050, "Rupees One Hundred and Fifty Paise Only"),
            (
                2_147_483_600,
                "Rupees Two Crore Fourteen Lakh Seventy Four Thousand Eight Hundred Thirty Six Only",
            ),
            (
                12_345_678_900,
                "Rupees Twelve Crore Thirty Four Lakh Fifty Six Thousand Seven Hundred Eighty Nine Only",
            ),
            (10_000_000, "Rupees One Lakh Only"),
            (1_000_000_000, "Rupees One Crore Only"),
            (-5_000, "Rupees Minus Fifty Only"),
        ] {
            assert_eq!(amount_in_words(paise), words, "{paise}");
        }
        assert_eq!(amount(11_800_000), "1,18,000.00");
    }
}
