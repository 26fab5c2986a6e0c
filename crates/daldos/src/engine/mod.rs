//! The expectiminimax engine and match play: a [`Game`] trait over dice
//! games, the search, its transposition table, Daldøs as a `Game` with its
//! static evaluation, players, and seeded matches.
//!
//! Data flows one way: `game` ← `search` (with `tt`) ← `players` ←
//! `matchplay`; `daldos` (with `eval`) is the one game the rest is used
//! with, `deepen` (on `search`) is the iterative deepening within a node
//! budget that answers Daldøs `best`, and `rng` draws the dice of matches.
//! `perfect` plays from the solved tables (`crate::solved`), and `loss`
//! measures the other players' decisions against it.

pub mod daldos;
pub mod deepen;
pub mod eval;
pub mod game;
pub mod learn;
pub mod loss;
pub mod matchplay;
pub mod perfect;
pub mod players;
pub mod rng;
pub mod rollout;
pub mod search;
pub mod session;
pub mod tt;

pub use daldos::{side_index, Daldos};
pub use deepen::{deepen, Analysis, DeepenError, DeepenOptions, DeepenProgress, Deepened};
pub use eval::{evaluate, evaluate_with, features, threat, EvalWeights, Features, Threat};
pub use game::{Game, Known};
pub use loss::{
    standard_sets, study, Contender, ContenderKind, Decision, LossRow, MatchRow, Source, Study,
    StudyConfig, StudyError, StudySet,
};
pub use matchplay::{
    match_game_moves, play_game, play_match, play_match_keeping, play_match_with_stop, wilson,
    GameRecord, MatchConfig, MatchResult, MatchTurns,
};
pub use perfect::{best_by_tables, check_coverage, check_layers, play_value, PerfectError};
pub use players::{
    EnginePlayer, GreedyPlayer, HandPlayer, PerfectPlayer, Player, PlayerSpec, PlayerSpecError,
    RandomPlayer,
};
pub use rng::{splitmix64, Rng};
pub use rollout::{rollout, rollout_game, RolloutGame, RolloutSummary};
pub use search::{
    analyse_position, analyse_position_keeping, analyse_position_with_progress,
    analyse_position_with_stop, analyse_throw, analyse_throw_with_progress,
    analyse_throw_with_stop, quantize, KeptTable, PlayValue, PositionAnalysis, RootMode,
    SearchError, SearchOptions, Searcher, Stats, ThrowAnalysis, DEFAULT_DEPTH, EVAL_SCALE,
    KEPT_CAPACITY, KEPT_MIN_DEPTH, MAX_DEPTH,
};
pub use session::{
    draw_throw, game_record, pick_play, random_seed, PickError, Session, Status, Thrown,
    HINT_DEPTH, HINT_MAX_NODES,
};
pub use tt::{Bounds, Table};
