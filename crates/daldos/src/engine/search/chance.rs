//! The chance nodes of the search: the side to move throws, and the node's
//! value is the weighted average of the throws' best plays, pruned with
//! Star1 (bounds `[0, 1]` on what is not yet searched) and Star2 (one
//! probing play per throw first, for lower bounds); see "Pruning" in the
//! module documentation of `search`.

use super::searcher::Searcher;
use crate::engine::game::Game;

impl<G: Game> Searcher<'_, G> {
    pub(super) fn chance_search(&mut self, pos: &G::Pos, depth: u32, alpha: f64, beta: f64) -> f64 {
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
}
