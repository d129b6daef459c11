//! What is set up in this office (issue 34): whether public links have an address, whether mail
//! can go out, and the owner's first-run checklist. One read, `GET /api/setup`, for every
//! signed-in user; only the owner gets the checklist.
//!
//! - `checklist`: the read behind `GET /api/setup`, [`setup`].
//! - `first_start`: an office's first start (migrations, default settings, the owner).
//! - `routes`: the handler.

pub mod checklist;
pub mod first_start;
pub mod routes;

pub use checklist::{Setup, SetupItem, setup};
