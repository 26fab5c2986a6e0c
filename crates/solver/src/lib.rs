//! Dakon exact solvers: retrograde databases and alpha-beta search.

pub mod search;
pub mod tt;
