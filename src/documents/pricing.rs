//! Pricing a document's lines (decisions 6): a module line takes description, SAC and GST rate
//! from the module unless given; its unit price is the explicit `unit_price`, else the module's
//! rate-card band for the quantity, else the price book, both on the document's date. Saving
//! refuses what the preview only warns about (a count under the minimum order, a missing price).

use crate::catalog::rules::{self as catalog_rules, UnderMinimum};
use crate::catalog::store as catalog_store;
use crate::documents::rules;
use crate::plumbing::db::settings;
use crate::plumbing::error::{AppError, Warning};
use crate::plumbing::money;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A line as a request gives it.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineInput {
    pub module_id: Option<String>,
    pub description: Option<String>,
    pub sac: Option<String>,
    pub qty: i64,
    /// Paise; given = an explicit override of the rate card and price book.
    pub unit_price: Option<i64>,
    /// Percent; default the module's, else 18.
    pub gst_rate: Option<i64>,
}

/// A priced line with its taxes (paise).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct PricedLine {
    pub module_id: Option<String>,
    pub description: String,
    pub sac: Option<String>,
    pub qty: i64,
    pub unit_price: i64,
    /// The override the request gave, kept through conversion.
    pub explicit_price: Option<i64>,
    pub gst_rate: i64,
    /// override, rate_card or price_book.
    pub price_source: String,
    pub taxable: i64,
    pub cgst: i64,
    pub sgst: i64,
    pub igst: i64,
    pub total: i64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Totals {
    pub subtotal: i64,
    pub cgst: i64,
    pub sgst: i64,
    pub igst: i64,
    pub round_off: i64,
    pub total: i64,
}

pub struct Priced {
    pub lines: Vec<PricedLine>,
    pub totals: Totals,
    pub warnings: Vec<Warning>,
}

/// The largest taxable value of one line: ₹1,000 crore in paise.
pub const MAX_LINE_VALUE: i64 = 1_000_000_000_000;

/// How to treat what cannot be priced.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Saving: refuse with a 422 naming the line.
    Strict,
    /// Preview: price it at zero and warn.
    Permissive,
}

/// Prices `lines` on `on`; `intra_state` picks CGST + SGST or IGST.
pub fn price(
    conn: &Connection,
    lines: &[LineInput],
    on: NaiveDate,
    intra_state: bool,
    round_to_rupee: bool,
    mode: Mode,
) -> Result<Priced, AppError> {
    if lines.len() > 500 {
        return Err(AppError::invalid(
            "lines",
            "too_many_lines",
            "A document has at most 500 lines.",
        ));
    }
    let today = settings::office_today(conn)?;
    let mut priced = vec![];
    let mut warnings = vec![];
    for (i, line) in lines.iter().enumerate() {
        let at = |field: &str| format!("lines[{i}].{field}");
        if !(1..=100_000_000).contains(&line.qty) {
            return Err(AppError::invalid(
                &at("qty"),
                "invalid_qty",
                "A quantity is a whole number from 1 to 10 crore.",
            ));
        }
        if let Some(price) = line.unit_price
            && !(0..=100_000_000_000).contains(&price)
        {
            return Err(AppError::invalid(
                &at("unit_price"),
                "invalid_price",
                "A unit price is 0 or more paise.",
            ));
        }
        if let Some(rate) = line.gst_rate
            && !(0..=28).contains(&rate)
        {
            return Err(AppError::invalid(
                &at("gst_rate"),
                "invalid_rate",
                "The GST rate is a percent from 0 to 28.",
            ));
        }
        let module = match &line.module_id {
            Some(id) => Some(catalog_store::get(conn, id, today)?.ok_or_else(|| {
                AppError::invalid(&at("module_id"), "unknown_module", "No module has that id.")
            })?),
            None => None,
        };
        let mut refuse_or_warn =
            |code: &'static str, field: &str, message: String| -> Result<i64, AppError> {
                match mode {
                    Mode::Strict => Err(AppError::invalid(&at(field), code, message)),
                    Mode::Permissive => {
                        warnings.push(Warning {
                            code,
                            message: format!("Line {}: {message}", i + 1),
                        });
                        Ok(0)
                    }
                }
            };
        let (unit_price, source) = match (line.unit_price, &module) {
            (Some(p), _) => (p, "override"),
            (None, None) => (
                refuse_or_warn(
                    "price_required",
                    "unit_price",
                    "A line without a module needs a unit price.".into(),
                )?,
                "override",
            ),
            (None, Some(m)) => match catalog_store::card_on(conn, &m.id, on)? {
                Some((_, bands)) => match catalog_rules::band_rate(&bands, line.qty) {
                    Ok(rate) => (rate, "rate_card"),
                    Err(UnderMinimum { minimum }) => (
                        refuse_or_warn(
                            "under_minimum",
                            "qty",
                            format!(
                                "{} is under the minimum order of {minimum} for {}.",
                                line.qty, m.name
                            ),
                        )?,
                        "rate_card",
                    ),
                },
                None => match catalog_rules::price_on(&catalog_store::prices(conn, &m.id)?, on) {
                    Some(row) => (row.price, "price_book"),
                    None => (
                        refuse_or_warn(
                            "no_price",
                            "unit_price",
                            format!("{} has no price on {on}.", m.name),
                        )?,
                        "price_book",
                    ),
                },
            },
        };
        let description = line
            .description
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string)
            .or_else(|| module.as_ref().map(|m| m.name.clone()))
            .ok_or_else(|| AppError::invalid(&at("description"), "required", "Describe the line."))?;
        let gst_rate = line
            .gst_rate
            .or(module.as_ref().map(|m| m.gst_rate))
            .unwrap_or(18);
        let sac = line
            .sac
            .clone()
            .filter(|s| !s.trim().is_empty())
            .or(module.as_ref().and_then(|m| m.sac.clone()));
        // Keeps every sum of a document (500 lines, taxes doubled for rounding) far inside i64.
        if line
            .qty
            .checked_mul(unit_price)
            .is_none_or(|v| v > MAX_LINE_VALUE)
        {
            return Err(AppError::invalid(
                &at("qty"),
                "line_too_large",
                "A line's value (quantity × unit price) may not pass ₹1,000 crore.",
            ));
        }
        let tax = rules::line_tax(line.qty, unit_price, gst_rate, intra_state);
        priced.push(PricedLine {
            module_id: line.module_id.clone(),
            description,
            sac,
            qty: line.qty,
            unit_price,
            explicit_price: line.unit_price,
            gst_rate,
            price_source: source.into(),
            taxable: tax.taxable,
            cgst: tax.cgst,
            sgst: tax.sgst,
            igst: tax.igst,
            total: tax.total(),
        });
    }
    let mut totals = Totals::default();
    for l in &priced {
        totals.subtotal += l.taxable;
        totals.cgst += l.cgst;
        totals.sgst += l.sgst;
        totals.igst += l.igst;
    }
    let before_round = totals.subtotal + totals.cgst + totals.sgst + totals.igst;
    totals.round_off = if round_to_rupee {
        money::round_off(before_round)
    } else {
        0
    };
    totals.total = before_round + totals.round_off;
    Ok(Priced {
        lines: priced,
        totals,
        warnings,
    })
}
