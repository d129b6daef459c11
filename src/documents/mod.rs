//! Quotations, proforma invoices, GST invoices and credit notes.

pub mod rules;
