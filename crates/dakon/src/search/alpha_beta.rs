//! The exact search of one position: MTD(f) (zero-window tests from a
//! first guess until the bounds meet) over a fail-soft alpha-beta with the
//! shared table, database probes and move ordering; see the module
//! documentation of `search` for what a value is.

use std::sync::atomic::Ordering;

use dalkon_rules::dakon::Position;

use super::engine::{Counters, Engine, Step, FLUSH_EVERY, HELPER_DEPTH};
use super::estimate::{estimate_margin_within, GUESS_DEPTH, GUESS_MAX_NODES};
use super::tt::{work_of, PackedKey, Stored};

impl<K: PackedKey, const W: usize> Engine<'_, K, W> {
    /// Exact future margin of a position (game not over) by MTD(f).
    pub(super) fn exact(&self, c: &mut Counters, pos: &Position) -> i32 {
        if let Some(t) = pos.terminal_value() {
            return t - pos.store_diff();
        }
        let s = pos.seeds_on_board() as i32;
        let (mut lo, mut hi) = (-s, s);
        let mut g = estimate_margin_within(pos, &self.rules, GUESS_DEPTH, GUESS_MAX_NODES);
        if let Some(e) = self.tt.get(&K::pack(pos)) {
            lo = lo.max(i32::from(e.lower));
            hi = hi.min(i32::from(e.upper));
            g = g.clamp(lo, hi);
        }
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            g = self.alpha_beta(c, pos, beta - 1, beta);
            self.passes.fetch_add(1, Ordering::Relaxed);
            if self.halted(c) {
                return 0;
            }
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        lo
    }

    /// Fail-soft alpha-beta on the future margin of `pos` (not over).
    #[inline]
    pub(super) fn alpha_beta(
        &self,
        c: &mut Counters,
        pos: &Position,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        c.depth += 1;
        let v = self.alpha_beta_node(c, pos, alpha, beta);
        c.depth -= 1;
        v
    }

    fn alpha_beta_node(
        &self,
        c: &mut Counters,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        c.nodes += 1;
        c.unflushed += 1;
        if c.unflushed >= FLUSH_EVERY {
            self.flush(c);
        }
        if self.halted(c) {
            return 0;
        }
        if let Some(p) = self.probe {
            if let Some(v) = p.probe(pos) {
                c.probe_hits += 1;
                return v;
            }
        }
        let s = pos.seeds_on_board() as i32;
        let key = K::pack(pos);
        let (mut lo, mut hi) = (-s, s);
        let mut tt_move = 0usize;
        c.tt_probes += 1;
        if let Some(e) = self.tt.get(&key) {
            c.tt_hits += 1;
            lo = lo.max(i32::from(e.lower));
            hi = hi.min(i32::from(e.upper));
            tt_move = usize::from(e.best);
        }
        if lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        if lo == hi {
            return lo;
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let alpha0 = alpha;
        let nodes0 = c.nodes;

        let mut best = i32::MIN;
        let mut best_move = 0usize;
        // Search one move; true when it cuts off.
        let mut try_move = |c: &mut Counters, h: usize, child: &Position, step: &Step| -> bool {
            let v = if step.over {
                step.value(step.terminal)
            } else {
                let (a, b) = step.window(alpha, beta);
                step.value(self.alpha_beta(c, child, a, b))
            };
            if v > best {
                best = v;
                best_move = h;
                if v > alpha {
                    alpha = v;
                    return alpha >= beta;
                }
            }
            false
        };

        // The table's move first, before the others are generated: when it
        // cuts off (it refuted this window before), they never are.
        let tt_move = if tt_move != 0 && pos.pit(pos.side_to_move(), tt_move) > 0 {
            let child = pos.play_unchecked(tt_move, &self.rules);
            let step = Step::new(pos, &child);
            if try_move(c, tt_move, &child, &step) {
                c.history.cut(pos, tt_move);
                return self.finish(c, key, nodes0, alpha0, lo, hi, beta, best, best_move);
            }
            tt_move
        } else {
            0
        };

        // Then the others: bonus moves first, then by the seeds banked (a
        // child the databases answer by its value), then by the history.
        let mut kids: [(i32, usize, Position, Step); W] = [(
            0,
            0,
            *pos,
            Step {
                gain: 0,
                same_side: false,
                over: false,
                terminal: 0,
            },
        ); W];
        let mut len = 0;
        for h in pos.moves().filter(|&h| h != tt_move) {
            let child = pos.play_unchecked(h, &self.rules);
            let mut step = Step::new(pos, &child);
            if !step.over {
                // A child the databases answer is known exactly without a
                // node: one that refutes this window cuts off at once.
                match self.probe.and_then(|p| p.probe(&child)) {
                    Some(v) => {
                        c.probe_hits += 1;
                        step.over = true;
                        step.terminal = v;
                        let value = step.value(v);
                        // Above what the table's move gave: that did not cut.
                        if value >= beta {
                            c.history.cut(pos, h);
                            return self.finish(c, key, nodes0, alpha0, lo, hi, beta, value, h);
                        }
                    }
                    None => self.tt.prefetch(&K::pack(&child)),
                }
            }
            let mut score = step.gain;
            if step.over {
                score += step.value(step.terminal) - step.gain;
            }
            if step.same_side && !step.over {
                score += 1 << 12;
            }
            // Ties broken by the moves' cut-offs so far (see `History`).
            score = (score << 16) + i32::from(c.history.get(pos, h));
            // Insertion into the sorted prefix, highest score first.
            let mut i = len;
            while i > 0 && kids[i - 1].0 < score {
                kids[i] = kids[i - 1];
                i -= 1;
            }
            kids[i] = (score, h, child, step);
            len += 1;
        }
        if c.helper && len > 1 && c.depth <= HELPER_DEPTH {
            kids[..len].rotate_left(1);
        }
        for (_, h, child, step) in &kids[..len] {
            // Spent budget: no more children (each would count a node).
            if self.halted(c) || try_move(c, *h, child, step) {
                break;
            }
        }
        if best >= beta && best_move != 0 {
            c.history.cut(pos, best_move);
        }
        self.finish(c, key, nodes0, alpha0, lo, hi, beta, best, best_move)
    }

    /// Store what a node found and return its fail-soft value.
    #[allow(clippy::too_many_arguments)] // the node's state, passed once from two exits
    #[inline]
    pub(super) fn finish(
        &self,
        c: &mut Counters,
        key: K,
        nodes0: u64,
        alpha0: i32,
        lo: i32,
        hi: i32,
        beta: i32,
        best: i32,
        best_move: usize,
    ) -> i32 {
        if self.halted(c) {
            return 0;
        }
        let work = work_of(c.nodes - nodes0);
        let (l, u) = if best <= alpha0 {
            (lo, best)
        } else if best >= beta {
            (best, hi)
        } else {
            (best, best)
        };
        match self.tt.store(key, l, u, best_move as u8, work) {
            Stored::Filled => c.tt_filled += 1,
            Stored::Replaced => c.tt_replaced += 1,
            Stored::Merged | Stored::Busy | Stored::Refused => {}
        }
        best
    }
}
