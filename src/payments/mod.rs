//! Payments from societies: money and TDS allocated to invoices, advances, and receipts.

pub mod corrections;
pub mod receipt;
pub mod receipt_pdf;
pub mod recording;
pub mod routes;
pub mod rules;
pub mod store;
