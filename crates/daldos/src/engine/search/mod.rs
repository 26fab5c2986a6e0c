//! Depth-limited expectiminimax with *-minimax pruning (Ballard's Star1 and
//! Star2), a transposition table and root parallelism, over a small
//! [`Game`] trait.
//!
//! # What a unit of depth is
//! One unit of depth is **one throw and its play**. A position is searched
//! *before* the throw of the side to move (a chance node):
//!
//! - `value(pos, 0)` is the static evaluation of `pos`;
//! - `value(pos, d)` for `d >= 1` is the average over the throws (with their
//!   weights) of the best play for that throw, each play's result valued at
//!   depth `d - 1` from the mover's point of view.
//!
//! So `depth 1` for a given throw chooses among its plays by the static value
//! of their results; `depth 2` also averages over the next throw (whoever
//! throws it: the opponent, or the same side after a dal-dal, which is not a
//! change of side but still costs one unit) and lets that side choose its
//! best play, valued statically; and so on. A finished game is worth exactly
//! 1 or 0 at any depth.
//!
//! # Values
//! Every value is the win probability, in `[0, 1]`, of the side to move at
//! the node in question (a value `v` for one side is `1 - v` for the other).
//! Static evaluations are rounded to multiples of 2^-16 and the throw weights
//! must be powers of two summing to a power of two (Daldøs: 1 or 2 out of 16),
//! so every sum, bound and window in the search is a dyadic rational computed
//! exactly in `f64` up to [`MAX_DEPTH`]. That is why pruning provably never
//! changes a value here, bit for bit, and why the tests compare with `==`.
//!
//! # Known values (solved tables)
//! Where the game knows a position's value ([`Game::known`]: Daldøs with
//! its solved tables), the search takes it at once, at any depth, instead
//! of searching or evaluating the position (a *table hit*, counted as a
//! node). Such values are not dyadic (the tables hold `f64` bounds closed
//! to 1e-12), so sums with them round. The choice made here is to take
//! them unrounded rather than quantise them: quantising to a grid fine
//! enough for exactness (2^-40) would keep the arithmetic exact only to
//! depth 3 (40 bits plus 4 bits of throw weight per unit of depth must fit
//! in 53), and a coarser grid would throw away the tables' precision. So
//! with known values in the tree, exactness means exact to 1e-12 (the
//! tables' precision; rounding adds a few units in the last place, some
//! 1e-16 each), and a pruned search agrees with the full one to within
//! rounding (tested to 1e-12), not bit for bit: plays whose values differ
//! by rounding alone may be ranked differently with and without pruning.
//! Determinism is untouched: it never rested on exact arithmetic, only on
//! each root play being searched by one single-threaded searcher with a
//! window fixed in advance, so the same operations run in the same order
//! on any thread count. Without known values (no tables, or positions
//! they do not cover) everything above holds bit for bit as before.
//!
//! # Exact values
//! A value at depth `d` is the game's own value (rules.md §1.8's `W`), not
//! only its value at that depth, when it does not depend on any static
//! evaluation: every line the search needed for it ended in a finished
//! game. The search tracks this beside each value (a depth cut, or a
//! transposition-table entry that came from one, makes a value an
//! *estimate*) and reports it as `exact` on root plays, throws and
//! positions. A known value counts as exact when the game says it is
//! (table bounds within 1e-12), else as an estimate. Values of lines the search pruned lie in `[0, 1]` for the
//! game as much as at the depth, so a cut-off needs no evaluation; and a
//! play that wins outright settles its choice whatever the other plays
//! are worth. Pruning can therefore prove more values exact than the full
//! search does (it looks at fewer estimates), never a wrong one.
//!
//! # Pruning
//! Play choices are alpha-beta (fail-soft) nodes. Chance nodes use Star1
//! with the value bounds `[0, 1]`: before each throw is searched, the node's
//! value is known to lie in `[sum, sum + rest]`, which gives the throw a
//! window and allows cut-offs. When beta < 1 (against beta = 1 probes
//! almost never cut) Star2 first probes one play per throw (the best by
//! static order at depth >= 2; at depth 1, where ordering would cost as
//! much as the search, the generator's first) for lower bounds, fails high
//! as soon as they reach beta, then runs Star1 with those bounds. On the
//! benchmark's middle game Star2 cuts a depth-2 choice from about 10 000 to
//! 1 500 nodes and a depth-3 one from 2.1 million to 0.1 million. The
//! transposition table stores (lower, upper) bounds per (position, depth).
//! Node counts with each switch off are in `benches/search.rs`.
//!
//! # Determinism
//! A [`Searcher`] is single-threaded and owns its table. The root functions
//! run one fresh searcher per root play (in parallel with rayon) and only
//! ever pass windows computed before the parallel part starts, so values,
//! best plays and node counts are the same for any number of threads.
//!
//! A [`KeptTable`] (`kept.rs`) carries bounds from one root search to the
//! next ([`analyse_position_keeping`]: the decisions of a game analysed one
//! after another); it is read-only while a search runs and filled after it
//! from a set, so it keeps this property.
//!
//! # Node budget
//! With [`SearchOptions::max_nodes`] a root search visits at most that many
//! nodes (as counted by [`Stats::nodes`]) and otherwise stops with
//! [`SearchError::NodeLimit`]. To keep the outcome independent of the number
//! of threads, the budget is not a counter shared by the workers (which
//! worker reaches it first would depend on timing): it is split beforehand
//! into equal shares, one per root play (over all throws for
//! [`analyse_position`]), and each root play's searcher stops on its own
//! share. The search fails if any root play ran out; the others are not cut
//! short, so the node count of a failed search is the same for any thread
//! count too, and at most the budget (or one node per root play, if the
//! budget is smaller than that). As a root play's first node is always
//! granted, depth 1 finishes within any budget. The price is that a budget the
//! whole search would fit in can fail when one root play needs more than
//! its share; the budget is a limit on work, not a promise of an answer.
//! Without a budget (`None`, the default) nothing is counted differently.
//!
//! # Stopping
//! The `*_with_stop` root functions also take a flag another thread may
//! raise (a Ctrl-C handler, a deadline): every searcher reads it where it
//! checks its node limit, once per node, and unwinds as it does at the
//! limit; the root function then returns [`SearchError::Interrupted`].
//! The flag is only read, so an answer that finished before it was raised
//! is the same as without it.
//!
//! # Files
//! `searcher.rs` holds the [`Searcher`] and its play choices, `chance.rs`
//! its chance nodes (Star1, Star2), `root.rs` the root functions, `kept.rs`
//! the table kept across root searches; this
//! module, the options, errors and counts they share.

mod chance;
mod kept;
mod root;
mod searcher;

pub use kept::{KeptTable, KEPT_CAPACITY, KEPT_MIN_DEPTH};
pub use root::{
    analyse_position, analyse_position_keeping, analyse_position_with_progress,
    analyse_position_with_stop, analyse_throw, analyse_throw_with_progress,
    analyse_throw_with_stop, PlayValue, PositionAnalysis, RootMode, ThrowAnalysis,
};
pub use searcher::Searcher;

/// The deepest search allowed: beyond it the dyadic values of the search
/// would need more than the 53 bits of an `f64` mantissa.
pub const MAX_DEPTH: u32 = 8;

/// The depth asked when none is given, in throws. Depth 3 with the learned
/// evaluation loses 0.15 points of win chance a decision against perfect
/// play on the held-out layer, depth 2 0.38 (docs/daldos-eval.md); measured
/// on 2 cores, depth 3 for a throw took at most 0.09 s over 164 decisions
/// of Danish games between engines (median 0.004 s;
/// `scripts/daldos_decision_time.py`) and 1.4 s on the benchmark's hardest
/// middle game (1.3 million nodes, every play exact); without a throw,
/// sixteen times that.
pub const DEFAULT_DEPTH: u32 = 3;

/// Static evaluations are rounded to multiples of `1 / EVAL_SCALE`.
pub const EVAL_SCALE: f64 = 65536.0;

/// Search switches. `Default` is everything on, depth 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Depth in throws (see the module documentation), `1..=MAX_DEPTH`.
    pub depth: u32,
    /// Star1 pruning at chance nodes and alpha-beta at play choices.
    pub prune: bool,
    /// Star2 probing at chance nodes (only with `prune`).
    pub probe: bool,
    /// Try plays in order of their static value (better bounds sooner).
    pub ordering: bool,
    /// Transposition-table capacity in entries per searcher (0 = no table).
    pub tt_capacity: usize,
    /// Node budget of a root search (see the module documentation on how it
    /// is shared between root plays); `None` for no limit. For a lone
    /// [`Searcher`] it is that searcher's own limit.
    pub max_nodes: Option<u64>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            depth: 2,
            prune: true,
            probe: true,
            ordering: true,
            tt_capacity: 1 << 18,
            max_nodes: None,
        }
    }
}

/// Why a search could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The depth was 0 or above [`MAX_DEPTH`].
    #[error("search depth {0} is out of range 1..={MAX_DEPTH}")]
    Depth(u32),
    /// The game in the given position is already over.
    #[error("the game is already over in this position")]
    GameOver,
    /// The search ran out of its node budget ([`SearchOptions::max_nodes`])
    /// after visiting `nodes` nodes, and has no answer.
    #[error("the search reached its node limit after {nodes} nodes")]
    NodeLimit {
        /// Nodes visited before the search stopped (at most the budget).
        nodes: u64,
    },
    /// The stop flag of a `*_with_stop` root function was raised after
    /// `nodes` nodes; the search has no answer.
    #[error("the search was interrupted after {nodes} nodes")]
    Interrupted {
        /// Nodes visited before the search stopped.
        nodes: u64,
    },
}

/// What a search did. `nodes()` is the headline count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions searched before a throw at depth >= 1.
    pub chance_nodes: u64,
    /// (Position, throw) pairs whose plays were generated.
    pub throw_nodes: u64,
    /// Positions valued statically at depth 0.
    pub leaves: u64,
    /// Finished games reached.
    pub terminals: u64,
    /// Static evaluations made only to order plays.
    pub ordering_evals: u64,
    /// Chance nodes answered by the transposition table.
    pub tt_hits: u64,
    /// Cut-offs (at play choices and at chance nodes).
    pub cutoffs: u64,
    /// Positions whose value the game knew ([`Game::known`]: table hits),
    /// not searched further.
    pub table_hits: u64,
}

impl Stats {
    /// Positions visited: chance nodes, leaves, finished games and table
    /// hits.
    pub fn nodes(&self) -> u64 {
        self.chance_nodes + self.leaves + self.terminals + self.table_hits
    }

    /// Add another search's counts.
    pub fn add(&mut self, other: &Stats) {
        self.chance_nodes += other.chance_nodes;
        self.throw_nodes += other.throw_nodes;
        self.leaves += other.leaves;
        self.terminals += other.terminals;
        self.ordering_evals += other.ordering_evals;
        self.tt_hits += other.tt_hits;
        self.cutoffs += other.cutoffs;
        self.table_hits += other.table_hits;
    }
}

/// Round a static evaluation into `[0, 1]` on the 2^-16 grid.
pub fn quantize(v: f64) -> f64 {
    if v.is_nan() {
        return 0.5;
    }
    (v.clamp(0.0, 1.0) * EVAL_SCALE).round() / EVAL_SCALE
}
