//! Daldøs exact dice odds and the expectiminimax engine.

// Exact capture odds and the published tables (owned by `odds`).
pub mod capture;
pub mod closed_form;
pub mod ratio;
mod relaxed;
pub mod tables;

pub use capture::{
    capture_odds, capture_odds_with, capture_risk_f64, CaptureOdds, OddsLimits, Target,
};
pub use closed_form::{line_odds, line_odds_truncated, LineError, LineOdds};
pub use ratio::Ratio;
pub use tables::{capture_table, table_position, CaptureTable, TableError, TableKind, TableRow};

// Expectiminimax engine and match play (owned by `engine`).
pub mod eval;
pub mod game;
pub mod matchplay;
pub mod players;
pub mod rng;
pub mod search;
pub mod tt;
