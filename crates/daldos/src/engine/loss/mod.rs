//! Error rates, gnubg-style: how much win probability a player gives away
//! per decision, measured against the solved tables (docs/rules.md §1.8), and
//! matches against the `perfect` player.
//!
//! A *decision* is a position before its throw together with the throw,
//! taken only when the throw has at least two distinct plays (a choice).
//! Its *loss* for a player is `W(best play) − W(chosen play)`: the tables'
//! value, for the mover, of the best play of the throw minus that of the
//! play the player chose ([`play_value`]; both from the same bounds, so a
//! loss is never negative and the perfect player's is 0). A set of
//! decisions is summarised by the mean loss, the 99th percentile (nearest
//! rank: the `⌈0.99 n⌉`-th smallest) and the number of decisions with a
//! loss above [`ERROR_LOSS`] (wrong plays, in gnubg's sense of an error).
//!
//! Decisions come from one of two [`Source`]s: seeded games from the start
//! (so the mix of layers is what play reaches), or positions drawn
//! uniformly from one layer (each with a uniformly drawn throw). The games
//! are played by greedy with one play in four at random on both sides, so
//! the positions depend neither on the evaluation weights nor on the
//! search: any engine can be measured on the same decisions.
//!
//! Everything is a function of the tables, the configuration and the seed:
//! decisions are drawn one by one from `Rng::for_index(seed, k)`, games and
//! decisions are evaluated in parallel but collected in order, and sums
//! are taken in that order, so the rows are the same for any thread count.
//!
//! `decisions.rs` draws the decisions, `contender.rs` defines the players
//! measured, `rows.rs` measures one player on one set (and its match
//! against `perfect`), `study.rs` runs the whole study.

mod contender;
mod decisions;
mod rows;
mod study;

pub use contender::{Contender, ContenderKind};
pub use decisions::{decisions, set_seed, Decision, Source};
pub use rows::{losses, perfect_match, summarise, LossRow, MatchRow};
pub use study::{standard_sets, study, Study, StudyConfig, StudySet};

use crate::engine::perfect::PerfectError;

/// A decision whose loss exceeds this is counted as an error (a wrong
/// play rather than one of equal value up to the tables' precision).
pub const ERROR_LOSS: f64 = 1e-9;

/// Why error rates cannot be measured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StudyError {
    /// The tables do not cover the decisions.
    #[error(transparent)]
    Tables(#[from] PerfectError),
    /// No draw from the source gave a throw with two distinct plays.
    #[error(
        "no decision in {from} of board {board}: {draws} draws of a position and a throw \
         found none with two distinct plays (a side with one piece has no choice)"
    )]
    NoChoice {
        /// The board's name.
        board: String,
        /// `layer 1 v 2`, or `games`.
        from: String,
        /// Draws made.
        draws: u64,
    },
}
