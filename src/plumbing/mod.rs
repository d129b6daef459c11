//! The plumbing: what every area stands on and which names no area (`src/layering.rs`
//! checks this folder as one). Time and money, the data file, HTTP, the one way out,
//! mail transport, PDF drawing, QR codes, configuration and the one error type.
pub mod clock;
pub mod config;
pub mod db;
pub mod error;
pub mod flag;
pub mod gstin;
pub mod http;
pub mod mail;
pub mod money;
pub mod outbound;
pub mod pdf;
pub mod qr;
pub mod workers;
// winservice.rs (the Windows service) lives here too but belongs to the binary (`main.rs`).
