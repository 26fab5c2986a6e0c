//! The reports of `solve`, `openings` and `prove`: what the engines found,
//! in the shape the CLI's JSON and Python's objects share.

use std::path::Path;

use dalkon_rules::dakon::{Position, Rules};
use serde::Serialize;

use crate::error::SolveError;
use crate::openings::FirstChain;
use crate::openings::Openings;
use crate::prove::{Proved, WrittenFile};
use crate::solve::Solved;

/// Minutes between checkpoints of a long openings count.
pub const DEFAULT_CHECKPOINT_MINUTES: u64 = 10;

/// An openings count gives up beyond this many distinct positions.
pub const DEFAULT_MAX_POSITIONS: u64 = 50_000_000_000;

/// A solved initial position; serialized, the JSON of `dakon solve`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolveReport {
    /// Holes per row.
    pub holes: usize,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// The first player's final store difference under perfect play.
    pub value: i32,
    /// `win`, `draw` or `loss` for the first player.
    pub result: &'static str,
    /// Every first move reaching `value`.
    pub best_moves: Vec<usize>,
    /// `retrograde` or `search`.
    pub method: &'static str,
    /// Database entries built or loaded, or positions searched.
    pub positions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The database folder.
    pub db_dir: String,
    /// Everything the solver returned.
    #[serde(skip)]
    pub solved: Solved,
}

impl SolveReport {
    /// The report of `s`, solved with the databases in `db_dir`.
    pub fn new(s: Solved, db_dir: &Path) -> SolveReport {
        SolveReport {
            holes: s.holes,
            seeds: s.seeds,
            value: s.value,
            result: s.outcome().as_str(),
            best_moves: s.best_moves.clone(),
            method: s.method.as_str(),
            positions: s.positions,
            seconds: s.seconds,
            db_dir: db_dir.display().to_string(),
            solved: s,
        }
    }
}

/// The winning chains of a board's first turn; serialized, the JSON of
/// `dakon openings`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpeningsReport {
    /// Holes per row.
    pub holes: usize,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// Distinct winning chains.
    pub winning_chains: u64,
    /// A shortest winning chain.
    pub shortest: Vec<usize>,
    /// The chain with the largest final margin.
    pub best: Vec<usize>,
    /// Its final margin.
    pub best_margin: Option<i32>,
    /// The position after `best` (`None` when no chain wins).
    #[serde(skip)]
    pub after_best: Option<Position>,
    /// The whole count.
    #[serde(skip)]
    pub openings: Openings,
}

impl OpeningsReport {
    /// The report of the count `o` of `start`'s first turn.
    pub fn new(
        start: &Position,
        rules: &Rules,
        seeds: u32,
        o: Openings,
    ) -> Result<OpeningsReport, SolveError> {
        let after_best = if o.winning_chains == 0 {
            None
        } else {
            let mut end = *start;
            for (i, &hole) in o.best.iter().enumerate() {
                end = end.play(hole, rules).map_err(|source| SolveError::Move {
                    index: i + 1,
                    hole,
                    position: end,
                    source,
                })?;
            }
            Some(end)
        };
        Ok(OpeningsReport {
            holes: start.holes(),
            seeds,
            winning_chains: o.winning_chains,
            shortest: o.shortest.clone(),
            best: o.best.clone(),
            best_margin: o.best_margin,
            after_best,
            openings: o,
        })
    }
}

/// The first winning chain of a first turn; serialized, the JSON of
/// `dakon openings --first`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FirstReport {
    /// Holes per row.
    pub holes: usize,
    /// Seeds per hole at the start.
    pub seeds: u32,
    /// The chain (empty when none wins).
    pub first: Vec<usize>,
    /// Its final margin.
    pub first_margin: Option<i32>,
    /// Positions expanded.
    pub positions: u64,
}

impl FirstReport {
    /// The report of `f` on a `holes` × `seeds` board.
    pub fn new(holes: usize, seeds: u32, f: &FirstChain) -> FirstReport {
        FirstReport {
            holes,
            seeds,
            first: f.chain.clone().unwrap_or_default(),
            first_margin: f.margin,
            positions: f.positions,
        }
    }
}

/// One strategy file of a [`ProveReport`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProofFile {
    /// Where it was written.
    pub path: String,
    /// Whose strategy: 0 South, 1 North.
    pub player: usize,
    /// What it secures.
    pub guarantees: i32,
    /// Strategy lines (the name of docs/cli.md).
    pub positions: u64,
    /// Strategy lines.
    pub lines: u64,
    /// Positions its games reach.
    pub reached: u64,
    /// Of those, the ones already settled: what the strategy still needs
    /// there is at most minus the seeds on the board, so any play secures
    /// it, but the format asks a move in each to the end of every game.
    pub settled: u64,
    /// Bytes of the file.
    pub bytes: u64,
}

/// A proved value and the files written; serialized, the JSON of
/// `dakon prove`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProveReport {
    /// The exact value.
    pub value: i32,
    /// Every root move reaching it.
    pub best_moves: Vec<usize>,
    /// The mover's file, then the opponent's.
    pub files: Vec<ProofFile>,
    /// The search plus reading the strategies off it.
    pub seconds: f64,
    /// Seconds of the search and of the strategies.
    #[serde(skip)]
    pub parts: [f64; 2],
}

impl ProveReport {
    /// The report of `p`, written as `files`.
    pub fn new(p: &Proved, files: &[WrittenFile]) -> ProveReport {
        ProveReport {
            value: p.value,
            best_moves: p.best_moves.clone(),
            files: files
                .iter()
                .zip(p.reached.into_iter().zip(p.settled))
                .map(|(f, (reached, settled))| ProofFile {
                    path: f.path.display().to_string(),
                    player: f.player.index(),
                    guarantees: f.guarantees,
                    positions: f.lines,
                    lines: f.lines,
                    reached,
                    settled,
                    bytes: f.bytes,
                })
                .collect(),
            seconds: p.seconds[0] + p.seconds[1],
            parts: p.seconds,
        }
    }
}
