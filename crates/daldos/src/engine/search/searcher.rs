//! The searcher: one single-threaded expectiminimax over a [`Game`], with
//! its transposition table, node limit and stop flag; its play choices
//! (alpha-beta, fail-soft) and static ordering. Its chance nodes are in
//! `chance.rs`, the root functions that run one per root play in
//! `root.rs`.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{quantize, SearchOptions, Stats};
use crate::engine::game::Game;
use crate::engine::tt::{Bounds, Table};

/// A single-threaded searcher with its own transposition table.
#[derive(Debug)]
pub struct Searcher<'g, G: Game> {
    pub(super) game: &'g G,
    pub(super) opts: SearchOptions,
    pub(super) tt: Table<G::Pos>,
    /// A table kept from earlier searches of the same game, read when the
    /// searcher's own table knows nothing of a position (never written).
    pub(super) kept: Option<&'g Table<G::Pos>>,
    /// Throws with their probabilities, and the probability of the throws
    /// after each one (for Star1's bound on what is not yet searched).
    pub(super) throws: Vec<(G::Throw, f64, f64)>,
    /// Result buffers reused across plies.
    pub(super) buffers: Vec<Vec<G::Pos>>,
    /// The searcher stops before its node count would pass this.
    pub(super) limit: u64,
    /// Raised by another thread to stop the search (read once per node).
    pub(super) stop: Option<&'g AtomicBool>,
    /// The limit was reached (or `stop` raised): every value since is
    /// meaningless.
    pub(super) stopped: bool,
    /// A value computed since this was last cleared depends on a static
    /// evaluation (see "Exact values" in the module documentation). Each
    /// node clears it for its own subtree and ors its own back in.
    pub(super) estimated: bool,
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
            kept: None,
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
    pub(super) fn with_limit(game: &'g G, opts: SearchOptions, limit: u64) -> Searcher<'g, G> {
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

    /// The same searcher, also reading `kept` (the bounds of earlier
    /// searches of the same game with the same options) where its own table
    /// knows nothing of a position.
    pub fn with_kept(mut self, kept: &'g Table<G::Pos>) -> Searcher<'g, G> {
        self.kept = Some(kept);
        self
    }

    /// The entries of the searcher's own table searched to `min_depth` or
    /// deeper, leaving it empty (for a table kept across searches).
    pub fn drain_table(&mut self, min_depth: u32) -> Vec<(G::Pos, u32, Bounds)> {
        self.tt.drain_deep(min_depth)
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
    pub(super) fn chance(&mut self, pos: &G::Pos, depth: u32, alpha: f64, beta: f64) -> f64 {
        self.stats.chance_nodes += 1;
        let known = self
            .tt
            .probe(pos, depth)
            .or_else(|| self.kept.and_then(|k| k.probe(pos, depth)));
        if let Some(b) = known {
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

    /// The results of `throw` in `pos`, best first by static order when
    /// they will be searched deeper (`depth >= 2`), in a pooled buffer.
    pub(super) fn generate(
        &mut self,
        pos: &G::Pos,
        mover: u8,
        throw: G::Throw,
        depth: u32,
    ) -> Vec<G::Pos> {
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
    pub(super) fn throw_value(
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
    pub(super) fn max_over(
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
    pub(super) fn order(&mut self, mover: u8, results: &mut [G::Pos]) {
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
pub(super) fn apply_permutation<T: Clone>(items: &mut [T], perm: &[usize]) {
    let old: Vec<T> = items.to_vec();
    for (slot, &i) in items.iter_mut().zip(perm) {
        *slot = old[i].clone();
    }
}

/// Indices of `plays` in static order, best first, ties by index.
pub(super) fn root_order<G: Game>(
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
