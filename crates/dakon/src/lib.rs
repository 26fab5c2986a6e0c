//! Dakon exact solvers: retrograde databases and alpha-beta search.

pub mod best;
pub mod error;
pub mod game;
pub mod label;
pub mod openings;
pub mod paths;
pub mod progress;
pub mod prove;
pub mod rank;
pub mod reference;
pub mod request;
pub mod retro;
pub mod search;
pub mod solve;
pub mod threads;

pub use error::SolveError;
pub use progress::{NoProgress, Progress};
pub use retro::{solve_retrograde, Databases, DbError, RetroSolution};
