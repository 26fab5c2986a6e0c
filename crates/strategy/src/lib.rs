//! Dakon strategy files (`dalkon-strategy 1`, docs/formats.md §3): a
//! player's move in every position it can meet, written so that anyone can
//! check the claim it makes with nothing but the rules.
//!
//! - [`Strategy`] is a file in memory: the rules, the root position, the
//!   player, the final store difference it claims to secure, and one move
//!   per position (stores left out).
//! - [`read_file`] and [`Strategy::parse`] read a file (plain or gzip), line
//!   by line within [`ReadLimits`], [`Strategy::write_text`]
//!   and [`Strategy::to_gzip`] write one, byte for byte the same every time.
//! - [`verify`] plays the strategy against every reply to the end of every
//!   game and says whether the claim holds, or where it breaks;
//!   [`verify_until`] is the same check, abandoned when a flag is set.
//!
//! This crate depends on `dalkon-rules` (and on `dalkon-store` for its
//! bounded line reader and memory budget) only: no solver is trusted.

mod error;
mod key;
mod read;
mod strategy;
mod table;
mod verify;
mod write;

pub use error::{FormatError, LineProblem, ReadError};
pub use read::{read_file, table_bytes, ReadLimits, MAX_LINE_BYTES};
pub use strategy::Strategy;
pub use verify::{verify, verify_until, Failure, FailureKind, Verdict};
