//! Proving a position's value: one entry point, and the strategy files.
//!
//! [`prove`] solves a position exactly (the search's best-moves goal) and
//! reads off the two strategies whose guarantees meet at the value
//! (`search/proof.rs`): the side to move secures at least `v`, the other
//! side at least `-v`. [`Proved::write`] writes them as `mover.strategy`
//! and `opponent.strategy` (format `dalkon-strategy 1`, docs/formats.md),
//! which `dalkon-strategy` checks with the rules alone.

use std::path::{Path, PathBuf};
use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules, Side};
use dalkon_store::atomic;
use dalkon_strategy::Strategy;

use crate::error::SolveError;
use crate::search::proof::{self, Lines};
use crate::search::{SearchProgress, SolveResult};
use crate::solve::search_limits;

/// What to prove, as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProveRequest {
    /// The position (a board's start, or any position).
    pub root: Position,
    /// The rule set.
    pub rules: Rules,
    /// Transposition-table memory in MiB (`None`: as for `solve`).
    pub tt_mb: Option<usize>,
    /// Give up (an error) when a strategy needs more lines than this.
    pub max_lines: Option<u64>,
}

/// A proved value and its two strategies.
#[derive(Debug, Clone)]
pub struct Proved {
    /// Final store difference for the side to move at the root.
    pub value: i32,
    /// Every root move reaching `value`, ascending.
    pub best_moves: Vec<usize>,
    /// The side to move's strategy (secures at least `value`).
    pub mover: Strategy,
    /// The other side's strategy (secures at least `-value`).
    pub opponent: Strategy,
    /// Positions (either side to move) the games of each strategy reach:
    /// mover's, opponent's.
    pub reached: [u64; 2],
    /// The root search.
    pub search: SolveResult,
    /// Seconds: the search, then reading the strategies off it.
    pub seconds: [f64; 2],
}

/// One strategy file written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenFile {
    /// Where.
    pub path: PathBuf,
    /// Whose strategy.
    pub player: Side,
    /// What it secures.
    pub guarantees: i32,
    /// Strategy lines.
    pub lines: u64,
    /// Bytes of the file.
    pub bytes: u64,
}

/// Solve `request.root` exactly and read off the proof of its value.
pub fn prove(
    request: &ProveRequest,
    progress: Option<&SearchProgress>,
) -> Result<Proved, SolveError> {
    let limits = search_limits(request.root.holes(), request.tt_mb, None)?;
    let t0 = Instant::now();
    let p = proof::prove(
        &request.root,
        &request.rules,
        &limits,
        None,
        progress,
        request.max_lines,
    )
    .map_err(SolveError::Search)?;
    let total = t0.elapsed().as_secs_f64();
    let strategy = |lines: Lines| Strategy {
        rules: request.rules,
        root: request.root,
        player: lines.player,
        guarantees: lines.guarantees,
        moves: lines.moves,
    };
    Ok(Proved {
        value: p.search.value,
        best_moves: p.search.best_moves.clone(),
        reached: [p.mover.positions, p.opponent.positions],
        mover: strategy(p.mover),
        opponent: strategy(p.opponent),
        seconds: [total - p.extract_seconds, p.extract_seconds],
        search: p.search,
    })
}

/// The file names of the two strategies in a proof folder.
pub const FILE_NAMES: [&str; 2] = ["mover.strategy", "opponent.strategy"];

impl Proved {
    /// Write both strategies into `dir` (created if missing), atomically:
    /// `mover.strategy` and `opponent.strategy`, gzip-compressed with a
    /// `.gz` suffix when `gzip`.
    pub fn write(&self, dir: &Path, gzip: bool) -> Result<Vec<WrittenFile>, SolveError> {
        let fail = |path: &Path| {
            let path = path.to_path_buf();
            move |source| SolveError::WriteProof { path, source }
        };
        std::fs::create_dir_all(dir).map_err(fail(dir))?;
        let mut files = Vec::new();
        for (strategy, name) in [&self.mover, &self.opponent].into_iter().zip(FILE_NAMES) {
            let path = if gzip {
                dir.join(format!("{name}.gz"))
            } else {
                dir.join(name)
            };
            let bytes = if gzip {
                strategy.to_gzip().map_err(fail(&path))?
            } else {
                strategy.to_text()
            };
            atomic::write(&path, &bytes).map_err(fail(&path))?;
            files.push(WrittenFile {
                path,
                player: strategy.player,
                guarantees: strategy.guarantees,
                lines: strategy.moves.len() as u64,
                bytes: bytes.len() as u64,
            });
        }
        Ok(files)
    }
}
