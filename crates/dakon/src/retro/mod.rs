//! Retrograde databases: every position of one board size and rule set with
//! up to `K` seeds on the board, solved level by level (seeds on the board)
//! and kept in memory or in checked files of a folder.
//!
//! Inside, dependencies run one way: `error` (what can go wrong) is used
//! by `memory` (what a build needs) and `file` (the on-disk format);
//! `level` (solving one level) needs neither; `databases` (the set of
//! levels) uses all four. None of them uses this file.

pub mod databases;
pub mod error;
pub mod file;
pub mod level;
pub mod memory;

pub use databases::{solve_retrograde, Databases, RetroSolution};
pub use error::DbError;
pub use level::MAX_DB_HOLES;
