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

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::engine::game::Game;
use crate::engine::tt::{Bounds, Table};

/// The deepest search allowed: beyond it the dyadic values of the search
/// would need more than the 53 bits of an `f64` mantissa.
pub const MAX_DEPTH: u32 = 8;

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

/// A single-threaded searcher with its own transposition table.
#[derive(Debug)]
pub struct Searcher<'g, G: Game> {
    game: &'g G,
    opts: SearchOptions,
    tt: Table<G::Pos>,
    /// Throws with their probabilities, and the probability of the throws
    /// after each one (for Star1's bound on what is not yet searched).
    throws: Vec<(G::Throw, f64, f64)>,
    /// Result buffers reused across plies.
    buffers: Vec<Vec<G::Pos>>,
    /// The searcher stops before its node count would pass this.
    limit: u64,
    /// Raised by another thread to stop the search (read once per node).
    stop: Option<&'g AtomicBool>,
    /// The limit was reached (or `stop` raised): every value since is
    /// meaningless.
    stopped: bool,
    /// A value computed since this was last cleared depends on a static
    /// evaluation (see "Exact values" in the module documentation). Each
    /// node clears it for its own subtree and ors its own back in.
    estimated: bool,
    /// Counts so far.
    pub stats: Stats,
}

impl<'g, G: Game> Searcher<'g, G> {
    /// A searcher for `game`. Panics if the game's throw weights are not
    /// powers of two summing to a power of two (a programming error in the
    /// game, not an input error).
    pub fn new(game: &'g G, opts: SearchOptions) -> Searcher<'g, G> {
        let weights = game.throws();
        let total: u32 = weights.iter().map(|&(_, w)| w).sum();
        assert!(
            total.is_power_of_two() && weights.iter().all(|&(_, w)| w.is_power_of_two()),
            "throw weights must be powers of two summing to a power of two"
        );
        let mut after = total;
        let throws = weights
            .iter()
            .map(|&(t, w)| {
                after -= w;
                (t, w as f64 / total as f64, after as f64 / total as f64)
            })
            .collect();
        Searcher {
            game,
            opts,
            tt: Table::new(opts.tt_capacity),
            throws,
            buffers: Vec::new(),
            limit: opts.max_nodes.unwrap_or(u64::MAX),
            stop: None,
            stopped: false,
            estimated: false,
            stats: Stats::default(),
        }
    }

    /// A searcher that stops after `limit` nodes, whatever `opts.max_nodes`
    /// says (the root functions give each root play its share this way).
    fn with_limit(game: &'g G, opts: SearchOptions, limit: u64) -> Searcher<'g, G> {
        let mut s = Searcher::new(game, opts);
        s.limit = limit;
        s
    }

    /// The same searcher, stopping (as at its node limit) once `stop` is
    /// raised.
    pub fn with_stop(mut self, stop: &'g AtomicBool) -> Searcher<'g, G> {
        self.stop = Some(stop);
        self
    }

    /// Whether the searcher reached its node limit (or was stopped): its
    /// values since then (and the value of the search that reached it)
    /// mean nothing.
    pub fn out_of_nodes(&self) -> bool {
        self.stopped
    }

    /// Whether a value returned since the last call (or since the searcher
    /// was made) depends on a static evaluation, i.e. is an estimate rather
    /// than the game's value; and start afresh. A value that does not is the
    /// game's value (or, outside its window, a bound on it).
    pub fn take_estimated(&mut self) -> bool {
        std::mem::take(&mut self.estimated)
    }

    /// The value of `pos` for its side to move at `depth`, searched with the
    /// window `(alpha, beta)`, fail-soft: a result `<= alpha` is an upper
    /// bound, `>= beta` a lower bound, anything between is exact. With the
    /// window `(0, 1)` the result is always exact.
    pub fn value(&mut self, pos: &G::Pos, depth: u32, alpha: f64, beta: f64) -> f64 {
        // Every node passes here: stop before visiting one beyond the limit,
        // and unwind at once (the callers check `stopped` in their loops).
        if self.stopped
            || self.stats.nodes() >= self.limit
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return 0.0;
        }
        if let Some(w) = self.game.winner(pos) {
            self.stats.terminals += 1;
            return if w == self.game.to_move(pos) {
                1.0
            } else {
                0.0
            };
        }
        if let Some(k) = self.game.known(pos) {
            self.stats.table_hits += 1;
            self.estimated |= !k.exact;
            return k.value;
        }
        if depth == 0 {
            self.stats.leaves += 1;
            self.estimated = true;
            return quantize(self.game.evaluate(pos));
        }
        self.chance(pos, depth, alpha, beta)
    }

    /// A chance node: the side to move of `pos` (not finished) throws.
    fn chance(&mut self, pos: &G::Pos, depth: u32, alpha: f64, beta: f64) -> f64 {
        self.stats.chance_nodes += 1;
        if let Some(b) = self.tt.probe(pos, depth) {
            if let Some(v) = b.exact() {
                self.stats.tt_hits += 1;
                self.estimated |= b.estimated;
                return v;
            }
            if self.opts.prune && (b.lo >= beta || b.hi <= alpha) {
                self.stats.tt_hits += 1;
                self.estimated |= b.estimated;
                return if b.lo >= beta { b.lo } else { b.hi };
            }
        }
        let outer = std::mem::take(&mut self.estimated);
        let v = self.chance_search(pos, depth, alpha, beta);
        let estimated = self.estimated;
        self.estimated = outer || estimated;
        if self.stopped {
            return v;
        }
        let (lo, hi) = if !self.opts.prune {
            (v, v)
        } else if v <= alpha {
            (0.0, v)
        } else if v >= beta {
            (v, 1.0)
        } else {
            (v, v)
        };
        self.tt.store(pos, depth, Bounds { lo, hi, estimated });
        v
    }

    fn chance_search(&mut self, pos: &G::Pos, depth: u32, alpha: f64, beta: f64) -> f64 {
        // Probes only pay off against a beta they can reach.
        if self.opts.prune && self.opts.probe && beta < 1.0 {
            return self.chance_star2(pos, depth, alpha, beta);
        }
        let mut sum = 0.0;
        for i in 0..self.throws.len() {
            if self.stopped {
                return 0.0;
            }
            let (throw, p, after) = self.throws[i];
            if !self.opts.prune {
                sum += p * self.throw_value(pos, throw, depth, 0.0, 1.0);
                continue;
            }
            // Star1: children's values lie in [0, 1], so the node's value lies
            // in [sum, sum + p + after] before child i is searched.
            if sum + p + after <= alpha {
                self.stats.cutoffs += 1;
                return sum + p + after;
            }
            if sum >= beta {
                self.stats.cutoffs += 1;
                return sum;
            }
            let a = ((alpha - sum - after) / p).max(0.0);
            let b = ((beta - sum) / p).min(1.0);
            let v = self.throw_value(pos, throw, depth, a, b);
            if v <= a && a > 0.0 {
                // v bounds child i from above, so the node is at most this,
                // which is <= alpha.
                self.stats.cutoffs += 1;
                return sum + p * v + after;
            }
            if v >= b && b < 1.0 {
                self.stats.cutoffs += 1;
                return sum + p * v;
            }
            sum += p * v;
        }
        sum
    }

    /// Star2: first probe one play per throw (the first of its list),
    /// whose value is a lower bound of that throw's best play; fail high as
    /// soon as these bounds reach `beta`. Then Star1 as in `chance_search`,
    /// with the probed lower bounds in place of 0 for the throws not yet
    /// searched. The play lists are generated once for both phases.
    fn chance_star2(&mut self, pos: &G::Pos, depth: u32, alpha: f64, beta: f64) -> f64 {
        let mover = self.game.to_move(pos);
        let n = self.throws.len();
        let mut lists: Vec<Vec<G::Pos>> = Vec::with_capacity(n);
        let mut lb = vec![0.0; n];
        let mut lb_sum = 0.0;
        let mut result = None;
        // Whether a probe's value depends on a static evaluation: it counts
        // only where a probed bound decides the result.
        let outer = std::mem::take(&mut self.estimated);
        let mut probes_estimated = false;
        for (i, slot) in lb.iter_mut().enumerate() {
            if self.stopped {
                result = Some(0.0);
                break;
            }
            let (throw, p, _) = self.throws[i];
            let list = self.generate(pos, mover, throw, depth);
            let b = ((beta - lb_sum) / p).min(1.0);
            let v = match list.first() {
                Some(first) => self.child_value(mover, first, depth - 1, 0.0, b),
                None => 0.0,
            };
            probes_estimated |= std::mem::take(&mut self.estimated);
            lists.push(list);
            *slot = v;
            lb_sum += p * v;
            if lb_sum >= beta {
                self.stats.cutoffs += 1;
                self.estimated = probes_estimated;
                result = Some(lb_sum);
                break;
            }
        }
        if result.is_none() {
            result = Some(self.star1_with_bounds(
                mover,
                &lists,
                (&lb, probes_estimated),
                depth,
                alpha,
                beta,
            ));
        }
        self.estimated |= outer;
        for list in lists {
            self.buffers.push(list);
        }
        result.unwrap_or(0.0)
    }

    /// Star1 with lower bounds `lb` from the probes (and whether they are
    /// estimates, which makes a cut-off that relies on them one).
    fn star1_with_bounds(
        &mut self,
        mover: u8,
        lists: &[Vec<G::Pos>],
        (lb, lb_estimated): (&[f64], bool),
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        let mut rest_lb: f64 = self
            .throws
            .iter()
            .zip(lb)
            .map(|(&(_, p, _), &l)| p * l)
            .sum();
        let mut sum = 0.0;
        for (i, list) in lists.iter().enumerate() {
            if self.stopped {
                return 0.0;
            }
            let (_, p, after) = self.throws[i];
            rest_lb -= p * lb[i];
            if sum + p + after <= alpha {
                self.stats.cutoffs += 1;
                return sum + p + after;
            }
            if sum + p * lb[i] + rest_lb >= beta {
                self.stats.cutoffs += 1;
                self.estimated |= lb_estimated;
                return sum + p * lb[i] + rest_lb;
            }
            let a = ((alpha - sum - after) / p).max(0.0);
            let b = ((beta - sum - rest_lb) / p).min(1.0);
            let v = self.max_over(mover, list, depth, a, b);
            if v <= a && a > 0.0 {
                self.stats.cutoffs += 1;
                return sum + p * v + after;
            }
            if v >= b && b < 1.0 {
                self.stats.cutoffs += 1;
                self.estimated |= lb_estimated;
                return sum + p * v + rest_lb;
            }
            sum += p * v;
        }
        sum
    }

    /// The results of `throw` in `pos`, best first by static order when
    /// they will be searched deeper (`depth >= 2`), in a pooled buffer.
    fn generate(&mut self, pos: &G::Pos, mover: u8, throw: G::Throw, depth: u32) -> Vec<G::Pos> {
        self.stats.throw_nodes += 1;
        let mut results = self.buffers.pop().unwrap_or_default();
        self.game.results(pos, throw, &mut results);
        if depth >= 2 && self.opts.ordering && results.len() > 1 {
            self.order(mover, &mut results);
        }
        results
    }

    /// The best play's value for the side to move of `pos` after `throw`,
    /// each result searched to `depth - 1`; fail-soft in `(alpha, beta)`.
    fn throw_value(
        &mut self,
        pos: &G::Pos,
        throw: G::Throw,
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        let mover = self.game.to_move(pos);
        let results = self.generate(pos, mover, throw, depth);
        let best = self.max_over(mover, &results, depth, alpha, beta);
        self.buffers.push(results);
        best
    }

    /// The best value for `mover` among `results`, each searched to
    /// `depth - 1`; fail-soft in `(alpha, beta)`.
    fn max_over(
        &mut self,
        mover: u8,
        results: &[G::Pos],
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        let mut best = 0.0;
        let mut a = alpha;
        // A play that surely wins (1, not an estimate) settles the choice
        // whatever the estimates of the other plays; otherwise the choice
        // is an estimate if any play's value is.
        let outer = std::mem::take(&mut self.estimated);
        let mut estimated = false;
        let mut won = false;
        for result in results {
            if self.stopped {
                return 0.0;
            }
            let v = self.child_value(mover, result, depth - 1, a, beta);
            let child_estimated = std::mem::take(&mut self.estimated);
            won |= v >= 1.0 && v > a && !child_estimated;
            estimated |= child_estimated;
            if v > best {
                best = v;
            }
            if self.opts.prune {
                if best >= beta {
                    self.stats.cutoffs += 1;
                    break;
                }
                if best > a {
                    a = best;
                }
            }
        }
        self.estimated = outer || (estimated && !won);
        best
    }

    /// Value for `mover` of the result of one of its plays, searched to
    /// `depth`, fail-soft in `(alpha, beta)` (both for `mover`).
    pub fn child_value(
        &mut self,
        mover: u8,
        result: &G::Pos,
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        if self.game.to_move(result) == mover {
            self.value(result, depth, alpha, beta)
        } else {
            1.0 - self.value(result, depth, 1.0 - beta, 1.0 - alpha)
        }
    }

    /// Sort plays best first by the static value of their results for
    /// `mover` (a stable sort, so ties keep the generator's order).
    fn order(&mut self, mover: u8, results: &mut [G::Pos]) {
        let mut keyed: Vec<(f64, usize)> = results
            .iter()
            .enumerate()
            .map(|(i, r)| (self.static_value(mover, r), i))
            .collect();
        keyed.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let perm: Vec<usize> = keyed.into_iter().map(|(_, i)| i).collect();
        apply_permutation(results, &perm);
    }

    /// Static value of `result` for `mover` (exact if the game is over;
    /// the known value where the game knows one).
    pub fn static_value(&mut self, mover: u8, result: &G::Pos) -> f64 {
        if let Some(w) = self.game.winner(result) {
            return if w == mover { 1.0 } else { 0.0 };
        }
        let e = match self.game.known(result) {
            Some(k) => k.value,
            None => {
                self.stats.ordering_evals += 1;
                quantize(self.game.evaluate(result))
            }
        };
        if self.game.to_move(result) == mover {
            e
        } else {
            1.0 - e
        }
    }

    /// Choose among `plays` (for the side to move of `pos`) at `depth`:
    /// returns the index of the best play in `plays` and its exact value.
    /// The root window rises as better plays are found, so later plays are
    /// often only bounded; ties go to the play that the static ordering puts
    /// first. Used by the engine player in match play. Panics if `plays` is
    /// empty (a position whose game is not over always has a play).
    pub fn best_play(
        &mut self,
        pos: &G::Pos,
        plays: &[(G::Play, G::Pos)],
        depth: u32,
    ) -> (usize, f64) {
        let mover = self.game.to_move(pos);
        let order = root_order(self, mover, plays);
        let mut best: (usize, f64) = (order[0], -1.0);
        for &i in &order {
            if self.stopped {
                break;
            }
            let alpha = best.1.max(0.0);
            let v = if self.opts.prune {
                self.child_value(mover, &plays[i].1, depth - 1, alpha, 1.0)
            } else {
                self.child_value(mover, &plays[i].1, depth - 1, 0.0, 1.0)
            };
            if v > best.1 {
                best = (i, v);
            }
        }
        best
    }
}

/// Reorder `items` so that position `k` holds the old `items[perm[k]]`.
fn apply_permutation<T: Clone>(items: &mut [T], perm: &[usize]) {
    let old: Vec<T> = items.to_vec();
    for (slot, &i) in items.iter_mut().zip(perm) {
        *slot = old[i].clone();
    }
}

/// Indices of `plays` in static order, best first, ties by index.
fn root_order<G: Game>(
    searcher: &mut Searcher<'_, G>,
    mover: u8,
    plays: &[(G::Play, G::Pos)],
) -> Vec<usize> {
    let mut keyed: Vec<(f64, usize)> = plays
        .iter()
        .enumerate()
        .map(|(i, (_, r))| (searcher.static_value(mover, r), i))
        .collect();
    if searcher.opts.ordering {
        keyed.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    }
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// How the root of [`analyse_throw`] is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootMode {
    /// Every play gets its exact value (the full window at every root play).
    AllExact,
    /// Only the best play is guaranteed exact: the first play in static order
    /// is searched alone, then the others in parallel with its value as the
    /// lower edge of their window; a play that cannot beat it gets an upper
    /// bound instead of its value.
    BestOnly,
}

/// One root play and what the search found for it.
#[derive(Debug, Clone)]
pub struct PlayValue<G: Game> {
    /// The play.
    pub play: G::Play,
    /// Its result.
    pub result: G::Pos,
    /// Its value for the mover at the search's depth, or only an upper
    /// bound on it (`bound`).
    pub value: f64,
    /// `value` is only an upper bound (in [`RootMode::BestOnly`], for a
    /// play that cannot beat the best).
    pub bound: bool,
    /// `value` is the play's value in the game, not only at this depth:
    /// it depends on no static evaluation (see "Exact values" in the module
    /// documentation). Never together with `bound`.
    pub exact: bool,
}

/// The search of one throw: plays ranked best first.
#[derive(Debug, Clone)]
pub struct ThrowAnalysis<G: Game> {
    /// The throw.
    pub throw: G::Throw,
    /// Value of the best play (never a bound) for the side to move.
    pub value: f64,
    /// `value` is the throw's value in the game: the best play's value is
    /// exact, and either it wins outright or no other play can be worth
    /// more in the game (each is exact, or a bound that holds for the game).
    pub exact: bool,
    /// Plays, best first: by value, ties by static order. `plays[0]` is the
    /// best play.
    pub plays: Vec<PlayValue<G>>,
    /// What the search did.
    pub stats: Stats,
}

/// The search of a position before the throw.
#[derive(Debug, Clone)]
pub struct PositionAnalysis<G: Game> {
    /// Expected value for the side to move, over the throws.
    pub value: f64,
    /// `value` is the position's value in the game: every throw's is.
    pub exact: bool,
    /// One analysis per distinct throw, in [`Game::throws`] order, with the
    /// throw's weight.
    pub throws: Vec<(ThrowAnalysis<G>, u32)>,
    /// What the search did, all throws together.
    pub stats: Stats,
}

fn check<G: Game>(game: &G, pos: &G::Pos, opts: &SearchOptions) -> Result<(), SearchError> {
    if opts.depth == 0 || opts.depth > MAX_DEPTH {
        return Err(SearchError::Depth(opts.depth));
    }
    if game.winner(pos).is_some() {
        return Err(SearchError::GameOver);
    }
    Ok(())
}

/// Each root play's node limit when `root_plays` plays share `opts.max_nodes`
/// (at least 1, so that a tiny budget fails rather than divides by zero).
fn share(opts: &SearchOptions, root_plays: usize) -> u64 {
    match opts.max_nodes {
        None => u64::MAX,
        Some(budget) => (budget / root_plays.max(1) as u64).max(1),
    }
}

/// Search every play of `throw` in `pos` to `opts.depth` (see the module
/// documentation for what depth counts). Root plays are searched in
/// parallel, each by its own [`Searcher`]; the result does not depend on the
/// number of threads. With a node budget, each root play may visit
/// `max_nodes / plays` nodes; [`SearchError::NodeLimit`] if one needed more.
pub fn analyse_throw<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    opts: SearchOptions,
    mode: RootMode,
) -> Result<ThrowAnalysis<G>, SearchError> {
    analyse_throw_with_progress(game, pos, throw, opts, mode, &|| {})
}

/// [`analyse_throw`], calling `progress` once per root play searched (from
/// any worker thread; for a progress bar, never for results).
pub fn analyse_throw_with_progress<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
) -> Result<ThrowAnalysis<G>, SearchError> {
    throw_root(game, pos, throw, opts, mode, progress, None)
}

/// [`analyse_throw_with_progress`], stopping with
/// [`SearchError::Interrupted`] once `stop` is raised (module
/// documentation, "Stopping").
pub fn analyse_throw_with_stop<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<ThrowAnalysis<G>, SearchError> {
    throw_root(game, pos, throw, opts, mode, progress, Some(stop))
}

/// The error of a root search that ran out after `stats`: interrupted if
/// `stop` was raised, else out of nodes.
fn ran_out(stats: &Stats, stop: Option<&AtomicBool>) -> SearchError {
    let nodes = stats.nodes();
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        SearchError::Interrupted { nodes }
    } else {
        SearchError::NodeLimit { nodes }
    }
}

fn throw_root<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
    stop: Option<&AtomicBool>,
) -> Result<ThrowAnalysis<G>, SearchError> {
    check(game, pos, &opts)?;
    let plays = game.plays(pos, throw);
    let limit = share(&opts, plays.len());
    search_throw(game, pos, throw, plays, opts, mode, limit, progress, stop)
        .map_err(|stats| ran_out(&stats, stop))
}

/// The root search of one throw whose plays are `plays`, each root play
/// limited to `limit` nodes: the analysis, or the counts of a search that
/// ran out. Which root plays are searched never depends on which finished
/// first (all of them, to their end or their limit; in
/// [`RootMode::BestOnly`] none after a first play that ran out), so
/// neither do the counts.
#[allow(clippy::too_many_arguments)] // internal: the two root functions' common part
fn search_throw<G: Game>(
    game: &G,
    pos: &G::Pos,
    throw: G::Throw,
    plays: Vec<(G::Play, G::Pos)>,
    opts: SearchOptions,
    mode: RootMode,
    limit: u64,
    progress: &(dyn Fn() + Sync),
    stop: Option<&AtomicBool>,
) -> Result<ThrowAnalysis<G>, Stats> {
    let mover = game.to_move(pos);
    let mut stats = Stats::default();
    let order = {
        let mut s = Searcher::new(game, opts);
        let order = root_order(&mut s, mover, &plays);
        stats.add(&s.stats);
        order
    };
    // A root play's value, counts, whether it ran out of nodes and whether
    // its value is an estimate.
    let search_one = |i: usize, alpha: f64| {
        let mut s = Searcher::with_limit(game, opts, limit);
        if let Some(stop) = stop {
            s = s.with_stop(stop);
        }
        let v = s.child_value(mover, &plays[i].1, opts.depth - 1, alpha, 1.0);
        progress();
        (v, s.stats, s.out_of_nodes(), s.take_estimated())
    };
    let mut found: Vec<(f64, Stats, bool, bool)> = Vec::with_capacity(plays.len());
    let alpha = match mode {
        RootMode::AllExact => 0.0,
        RootMode::BestOnly => {
            let first = search_one(order[0], 0.0);
            // Without the first play's value there is no window for the
            // others: stop here (the same on any thread count).
            if first.2 {
                stats.add(&first.1);
                return Err(stats);
            }
            let a = if opts.prune { first.0 } else { 0.0 };
            found.push(first);
            a
        }
    };
    let start = found.len();
    found.extend(
        order[start..]
            .par_iter()
            .map(|&i| search_one(i, alpha))
            .collect::<Vec<_>>(),
    );
    let mut out_of_nodes = false;
    for &(_, st, stopped, _) in &found {
        stats.add(&st);
        out_of_nodes |= stopped;
    }
    if out_of_nodes {
        return Err(stats);
    }
    // Each play with whether its value (or bound) is an estimate.
    let mut ranked: Vec<(usize, PlayValue<G>, bool)> = order
        .iter()
        .zip(&found)
        .enumerate()
        .map(|(rank, (&i, &(v, _, _, estimated)))| {
            let bound = !(rank < start || alpha == 0.0 || v > alpha);
            (
                rank,
                PlayValue {
                    play: plays[i].0.clone(),
                    result: plays[i].1.clone(),
                    value: v,
                    bound,
                    exact: !bound && !estimated,
                },
                estimated,
            )
        })
        .collect();
    // Values first by value; a bound never outranks a value it does not
    // exceed (a bound <= alpha <= the best value).
    ranked.sort_by(|(ra, a, _), (rb, b, _)| b.value.total_cmp(&a.value).then(ra.cmp(rb)));
    let best = &ranked[0].1;
    let exact = best.exact && (best.value >= 1.0 || ranked.iter().all(|(_, _, e)| !e));
    let plays: Vec<PlayValue<G>> = ranked.into_iter().map(|(_, p, _)| p).collect();
    Ok(ThrowAnalysis {
        throw,
        value: plays[0].value,
        exact,
        plays,
        stats,
    })
}

/// Search `pos` before its throw to `opts.depth`: the expected value for the
/// side to move and the analysis of each distinct throw. Independent of the
/// number of threads. With a node budget, each root play of every throw may
/// visit `max_nodes / (root plays of all throws)` nodes.
pub fn analyse_position<G: Game>(
    game: &G,
    pos: &G::Pos,
    opts: SearchOptions,
    mode: RootMode,
) -> Result<PositionAnalysis<G>, SearchError> {
    analyse_position_with_progress(game, pos, opts, mode, &|| {})
}

/// [`analyse_position`], calling `progress` once per root play searched
/// (over all throws).
pub fn analyse_position_with_progress<G: Game>(
    game: &G,
    pos: &G::Pos,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
) -> Result<PositionAnalysis<G>, SearchError> {
    position_root(game, pos, opts, mode, progress, None)
}

/// [`analyse_position_with_progress`], stopping with
/// [`SearchError::Interrupted`] once `stop` is raised (module
/// documentation, "Stopping").
pub fn analyse_position_with_stop<G: Game>(
    game: &G,
    pos: &G::Pos,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<PositionAnalysis<G>, SearchError> {
    position_root(game, pos, opts, mode, progress, Some(stop))
}

fn position_root<G: Game>(
    game: &G,
    pos: &G::Pos,
    opts: SearchOptions,
    mode: RootMode,
    progress: &(dyn Fn() + Sync),
    stop: Option<&AtomicBool>,
) -> Result<PositionAnalysis<G>, SearchError> {
    check(game, pos, &opts)?;
    let total: u32 = game.throws().iter().map(|&(_, w)| w).sum();
    // Every throw's plays first: the budget's share needs their number.
    let all_plays: Vec<_> = game
        .throws()
        .iter()
        .map(|&(t, w)| (t, w, game.plays(pos, t)))
        .collect();
    let limit = share(&opts, all_plays.iter().map(|(_, _, p)| p.len()).sum());
    let results: Vec<(Result<ThrowAnalysis<G>, Stats>, u32)> = all_plays
        .into_par_iter()
        .map(|(t, w, plays)| {
            (
                search_throw(game, pos, t, plays, opts, mode, limit, progress, stop),
                w,
            )
        })
        .collect();
    let mut throws = Vec::with_capacity(results.len());
    let mut value = 0.0;
    let mut exact = true;
    let mut stats = Stats::default();
    let mut out_of_nodes = false;
    for (r, w) in results {
        match r {
            Ok(a) => {
                value += w as f64 / total as f64 * a.value;
                exact &= a.exact;
                stats.add(&a.stats);
                throws.push((a, w));
            }
            Err(st) => {
                stats.add(&st);
                out_of_nodes = true;
            }
        }
    }
    if out_of_nodes {
        return Err(ran_out(&stats, stop));
    }
    Ok(PositionAnalysis {
        value,
        exact,
        throws,
        stats,
    })
}
