//! Daldøs exact dice odds and the expectiminimax engine.

// Expectiminimax engine and match play (owned by `engine`).
pub mod rng;
pub mod search;
pub mod tt;
