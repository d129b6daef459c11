//! What the back office hands to the vendor's accountant in other programs' formats (issue 36).
//!
//! - [`tally`]: a period's vouchers and party ledgers as TallyPrime's Import Data XML.

pub mod tally;
