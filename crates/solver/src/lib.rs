//! Dakon exact solvers: retrograde databases and alpha-beta search.

pub mod atomic;
pub mod best;
pub mod databases;
pub mod db;
pub mod db_error;
pub mod error;
pub mod memory;
pub mod openings;
pub mod paths;
pub mod progress;
pub mod rank;
pub mod reference;
pub mod retro;
pub mod search;
pub mod solve;
pub mod tt;

pub use databases::{solve_retrograde, Databases, RetroSolution};
pub use db_error::DbError;
pub use error::SolveError;
pub use progress::{NoProgress, Progress};
