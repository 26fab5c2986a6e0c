//! Exact Dakon search: MTD(f) over a fail-soft alpha-beta with a shared
//! transposition table (`search/tt.rs`), solving every root move exactly, root
//! moves in parallel.
//!
//! The value of a position (docs/rules.md §2.3) is its store difference plus its
//! **future margin**: what the side to move will still gain over the
//! opponent from the seeds on the board. The search works on future margins
//! only, so positions differing only in their stores share table entries.
//! Going from a position to a child gains `d` (the change of the store
//! difference, mover's view); a bonus move keeps the side to move, so its
//! child's margin is added (`d + f(child)`), any other move hands the turn
//! over and the child's margin is negated (`d - f(child)`). The game graph is
//! acyclic, so no repetition handling is needed and there is no horizon:
//! every search goes to the end of the game (or to a database probe).
//!
//! Move ordering: the table's best move first (it refuted this window
//! before), then bonus moves (the mover keeps the initiative), then by the
//! seeds the move banks at once (captures, sowing into the store), a move
//! that ends the game scored by its final result. MTD(f)'s first guess comes
//! from a 4-ply heuristic search ([`estimate`]). Positions with few seeds on
//! the board can be answered by a [`Probe`] (the retrograde databases).
//!
//! Threads: each root move is solved exactly (its own MTD(f)), root moves in
//! parallel on rayon, all sharing one table. A table entry is a proved
//! bound that holds whoever stored it, so the values and best moves never
//! depend on the thread count or on timing; only the work counters do.
//!
//! `engine.rs` holds the engine (table, counters, the root), `alpha_beta.rs`
//! its exact search, `estimate.rs` the heuristic first guess, `job.rs` the
//! choice of key type and move-list width by board; this module, the
//! limits, goals, errors and results they share.

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use dalkon_rules::dakon::{Position, Rules};

mod alpha_beta;
pub mod answer;
mod engine;
mod estimate;
mod job;
pub mod proof;
pub mod tt;

pub use engine::node_overshoot;
pub(crate) use engine::Engine;
pub use estimate::{
    estimate, estimate_moves, estimate_until, estimate_within, Estimate, ESTIMATE_MAX_NODES,
};
pub use job::future_margin;
pub(crate) use job::{with_engine, with_table, Job};
use job::{SolveJob, K8};

use tt::{bytes_per_entry, PackedKey, Table};

/// An exact oracle for positions with few seeds on the board (the
/// retrograde databases): the future margin for the side to move, or `None`
/// when the position is not covered.
pub trait Probe: Sync {
    /// Future margin for the side to move (final store difference minus the
    /// current one) under perfect play, if known.
    fn probe(&self, pos: &Position) -> Option<i32>;
}

impl<F> Probe for F
where
    F: Fn(&Position) -> Option<i32> + Sync,
{
    fn probe(&self, pos: &Position) -> Option<i32> {
        self(pos)
    }
}

/// Resource limits of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Memory budget of the transposition table in bytes.
    pub tt_bytes: usize,
    /// Stop (with [`SearchError::NodeLimit`]) after about this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop (with [`SearchError::NodeLimit`]) after about this long.
    pub time: Option<std::time::Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            tt_bytes: 256 << 20,
            max_nodes: None,
            time: None,
        }
    }
}

/// Why a search did not produce a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The node or time budget (`Limits::max_nodes`, `Limits::time`) ran
    /// out before the proof ended.
    #[error("the search stopped after {nodes} nodes, its limit, before proving a value")]
    NodeLimit {
        /// Nodes searched when it stopped.
        nodes: u64,
    },
    /// A proof's strategy grew past the lines allowed (`prove`'s limit).
    #[error("the proof's strategy needs more than {max} lines, its limit")]
    ProofTooLarge {
        /// The limit.
        max: u64,
    },
    /// No pool of search threads: a bad `RAYON_NUM_THREADS`, or the system
    /// refused the threads.
    #[error(transparent)]
    Threads(#[from] crate::threads::ThreadsError),
    /// The table budget is below the smallest usable table.
    #[error("a transposition table of {bytes} bytes is too small (at least {min} bytes)")]
    TableTooSmall {
        /// Requested bytes.
        bytes: usize,
        /// Smallest accepted.
        min: usize,
    },
}

/// What a search proves about the root's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Goal {
    /// The exact value of every root move (what `best` lists).
    #[default]
    EveryMove,
    /// The root's value and every move that reaches it; the other moves are
    /// only proved to fall short (an upper bound each). Much less work on a
    /// big board: a move that is not best is refuted, never solved.
    BestMoves,
}

/// Live counters a caller may poll (e.g. for a progress bar) while a search
/// runs in another thread.
#[derive(Debug, Default)]
pub struct SearchProgress {
    /// Nodes searched so far (updated every few thousand nodes).
    pub nodes: AtomicU64,
    /// Root moves solved so far.
    pub roots_done: AtomicU64,
    /// Root moves in all.
    pub roots_total: AtomicU64,
    /// The proved bounds on the root's value (final store difference for
    /// the side to move) so far, packed by [`pack_bounds`]; 0 before the
    /// first pass of a best-moves search ends.
    pub bounds: AtomicU64,
    /// Set by the caller to end the search early (e.g. on Ctrl-C): the
    /// search then stops as when its time runs out, within a few thousand
    /// nodes of every thread, and answers as it would then.
    pub stop: AtomicBool,
}

/// Two bounds in one word, for [`SearchProgress::bounds`].
pub fn pack_bounds(lower: i32, upper: i32) -> u64 {
    (1 << 63) | (u64::from(lower as u32 as u16) << 16) | u64::from(upper as u32 as u16)
}

/// The bounds of [`pack_bounds`], or `None` for none yet.
pub fn unpack_bounds(word: u64) -> Option<(i32, i32)> {
    (word >> 63 == 1).then(|| {
        (
            i32::from((word >> 16) as u16 as i16),
            i32::from(word as u16 as i16),
        )
    })
}

/// The result of an exact search.
///
/// Counters: `nodes` counts every call of the alpha-beta function (each
/// MTD(f) pass re-enters positions, each visit counts); `positions` counts
/// the distinct positions stored in the transposition table — positions
/// with their stores factored out and seen from the side to move, so the
/// same rows with either side to move are one position; a position dropped
/// by a table replacement and searched again counts again (`tt_replaced`
/// says whether that happened). Positions answered by a database probe and
/// finished games are not stored and not counted in `positions`.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveResult {
    /// Final store difference, side to move minus opponent, under perfect
    /// play (docs/rules.md §2.3), stores already banked included.
    pub value: i32,
    /// Every move reaching `value`, ascending.
    pub best_moves: Vec<usize>,
    /// Every legal move with its exact value (same meaning as `value`);
    /// under [`Goal::BestMoves`] only the best moves.
    pub moves: Vec<(usize, i32)>,
    /// Under [`Goal::BestMoves`]: every move that is not best, with a proved
    /// upper bound on its value (below `value`); empty under
    /// [`Goal::EveryMove`].
    pub refuted: Vec<(usize, i32)>,
    /// Distinct positions searched (see above).
    pub positions: u64,
    /// Alpha-beta calls.
    pub nodes: u64,
    /// Table lookups that found an entry.
    pub tt_hits: u64,
    /// Table lookups in all.
    pub tt_probes: u64,
    /// Positions answered by the database probe (a node looks its children
    /// up as it generates them: one answered there is not an alpha-beta
    /// call, so not in `nodes`).
    pub probe_hits: u64,
    /// Table entries overwritten by another position (0: nothing stored
    /// was lost, so `positions` is the number of distinct positions).
    pub tt_replaced: u64,
    /// Null-window searches made by MTD(f) (all root moves together).
    pub passes: u64,
    /// Table capacity in entries.
    pub tt_capacity: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Transposition-table bytes needed for `entries` entries on a board of
/// `holes` holes per row.
pub fn tt_bytes_for(holes: usize, entries: usize) -> usize {
    if holes <= u128::MAX_HOLES {
        entries * bytes_per_entry::<u128>()
    } else if holes <= <[u128; 2]>::MAX_HOLES {
        entries * bytes_per_entry::<[u128; 2]>()
    } else {
        entries * bytes_per_entry::<[u64; 8]>()
    }
}

/// Smallest accepted table budget in bytes.
pub fn min_tt_bytes(holes: usize) -> usize {
    tt_bytes_for(holes, Table::<u128>::MIN_ENTRIES)
}

/// Solve `pos` exactly: its value and best moves, and under
/// [`Goal::EveryMove`] every root move's value.
///
/// `probe`, when given, is trusted for every position it answers.
/// `progress`, when given, is updated while the search runs. Threads: the
/// current rayon pool's thread count (the answer does not depend on it).
pub fn solve(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    probe: Option<&dyn Probe>,
    progress: Option<&SearchProgress>,
    goal: Goal,
) -> Result<SolveResult, SearchError> {
    let start = Instant::now();
    let mut r = with_engine(pos, rules, limits, probe, progress, SolveJob { pos, goal })?;
    r.seconds = start.elapsed().as_secs_f64();
    Ok(r)
}

/// The retrograde databases answer every position of their board with at
/// most `max_k` seeds on the board.
impl Probe for crate::retro::Databases {
    #[inline]
    fn probe(&self, pos: &Position) -> Option<i32> {
        crate::retro::Databases::probe(self, pos)
    }
}
