//! Dakon exact solvers: retrograde databases and alpha-beta search.

pub mod atomic;
pub mod checksum;
pub mod memory;
pub mod openings;
pub mod progress;
pub mod rank;
pub mod reference;
pub mod retro;
pub mod search;

pub use progress::{NoProgress, Progress};
pub use retro::{solve_retrograde, Databases, DbError, RetroSolution};
