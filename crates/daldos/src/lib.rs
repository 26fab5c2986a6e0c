//! The Daldøs engines: exact dice and capture odds, the published tables,
//! the expectiminimax engine and the solved values (`W` tables).

// Exact capture odds and the published tables.
pub mod capture;
pub mod closed_form;
pub mod ratio;
mod relaxed;
pub mod tables;
#[cfg(test)]
mod testing;

pub use capture::{
    capture_odds, capture_odds_with, capture_risk_f64, CaptureOdds, OddsLimits, Target,
};
pub use closed_form::{line_odds, line_odds_truncated, LineError, LineOdds};
pub use ratio::Ratio;
pub use tables::{capture_table, table_position, CaptureTable, TableError, TableKind, TableRow};

// Expectiminimax engine and match play (owned by `engine`).
pub mod engine;

// Exact values under perfect play (owned by `solved`).
pub mod solved;

// Every question a user can ask, as a request and its report (owned by `request`).
pub mod request;

pub use engine::{
    analyse_position, analyse_throw, play_match, Daldos, Game, MatchConfig, MatchResult, Player,
    PlayerSpec, PlayerSpecError, Rng, SearchError, SearchOptions, Searcher,
};
