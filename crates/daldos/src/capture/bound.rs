//! The relaxed-model certificate: branch and bound over the board's
//! dal-dal plays, each child bounded above by a relaxed model, so that
//! where the board plays like the model one line of positions settles the
//! value.

use dalkon_rules::daldos::{play_results, Position};

use super::search::{Search, DALDAL};
use crate::relaxed::any::RelaxedAny;
use crate::relaxed::target::Relaxed;

/// An upper bound on the board value of one target (or "any") with `r`
/// rethrows left, in the search's units: a relaxed model.
pub(super) trait UpperBound {
    /// The bound, in the search's units.
    fn bound(&mut self, pos: &Position, r: u32) -> u64;
}

impl UpperBound for Relaxed {
    fn bound(&mut self, pos: &Position, r: u32) -> u64 {
        let line = self.project(pos, r);
        self.value(&line, r)
    }
}

impl UpperBound for RelaxedAny {
    fn bound(&mut self, pos: &Position, r: u32) -> u64 {
        let line = self.project(pos, r);
        self.value(&line, r)
    }
}

impl Search {
    /// Bounds `(lower, upper)` for target `i` with `r` rethrows left (cut
    /// after them, like the full search), by
    /// branch and bound over the dal-dal plays: each child's relaxed value
    /// (`relaxed`) is an upper bound on it, children are tried best bound
    /// first, and a child whose bound does not beat the best lower bound
    /// found is skipped (it cannot raise the maximum). Where the board
    /// plays like the relaxed model this follows one line of positions and
    /// the bounds meet. When the node budget runs out the rest is bounded
    /// by 0 below and the relaxed value above.
    pub(super) fn bounds(
        &mut self,
        pos: &Position,
        r: u32,
        i: usize,
        relaxed: &mut impl UpperBound,
    ) -> (u64, u64) {
        if let Some(&v) = self.lines.get(&(*pos, r, i)) {
            return v;
        }
        if pos.is_over(&self.variants) {
            return (0, 0);
        }
        if self.count_node().is_err() {
            // Out of budget: nothing below, the relaxed value above.
            return (0, relaxed.bound(pos, r));
        }
        let scale = 16u64.pow(r);
        let base = self.weights(pos)[i] * 15 * scale;
        let enemy = self.side.other();
        let present = pos.mask(enemy);
        // Target `i`, or (for "any", `i` = the number of targets) all.
        let bit = self
            .targets
            .get(i)
            .copied()
            .unwrap_or_else(|| self.targets.iter().fold(0, |m, b| m | b));
        let mut buf = self.spare.pop().unwrap_or_default();
        play_results(pos, &self.variants, DALDAL, &mut buf);
        let one = 15 * scale;
        let (mut lo, mut hi) = (0u64, 0u64);
        if buf.iter().any(|res| present & bit & !res.mask(enemy) != 0) {
            (lo, hi) = (one, one);
        } else if r > 0 {
            let mut children: Vec<(u64, Position)> = buf
                .iter()
                .filter(|res| !res.is_over(&self.variants))
                .map(|res| (relaxed.bound(res, r - 1), *res))
                .collect();
            // Best bound first; ties keep the generator's order.
            children.sort_by_key(|c| std::cmp::Reverse(c.0));
            for (k, &(ub, child)) in children.iter().enumerate() {
                if ub <= lo {
                    hi = hi.max(ub);
                    break;
                }
                let (l, u) = self.bounds(&child, r - 1, i, relaxed);
                lo = lo.max(l);
                hi = hi.max(u);
                if k + 1 == children.len() {
                    break;
                }
            }
        }
        self.spare.push(buf);
        let v = (base + lo, base + hi);
        self.lines.insert((*pos, r, i), v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::random_positions;
    use dalkon_rules::daldos::{Board, Hole, Variants};

    /// The relaxed model is an upper bound on the board value, cut at the
    /// same depth, for every target of positions of random play (pieces
    /// past the target that block a jump over it included), and equals it
    /// often (else certificates would rarely work); the same for "any".
    #[test]
    fn relaxed_model_bounds_the_board_from_above() {
        let board = Board::new(6).unwrap();
        let (mut checked, mut equal) = (0, 0);
        let (mut any_checked, mut any_equal) = (0, 0);
        for pos in random_positions(board, 12, 30, 0x2545_f491_4f6c_dd1d) {
            let side = pos.side_to_move();
            let targets: Vec<Hole> = pos.pieces(side.other()).collect();
            let bits = targets.iter().map(|h| 1u128 << h.0).collect();
            let mut search = Search::new(Variants::default(), side, bits, usize::MAX);
            let shared = crate::relaxed::memo();
            for r in 0..3 {
                let (board_values, _) = search.eval(&pos, r).unwrap();
                for (i, &t) in targets.iter().enumerate() {
                    let mut rel = Relaxed::new(board, side, t, shared.clone());
                    let up = rel.value(&rel.project(&pos, r), r);
                    assert!(board_values[i] <= up, "{pos} target {} r={r}", t.0);
                    checked += 1;
                    equal += usize::from(board_values[i] == up);
                }
                let mut rel = RelaxedAny::new(&pos).unwrap();
                let up = rel.bound(&pos, r);
                let n = targets.len();
                assert!(board_values[n] <= up, "{pos} any r={r}");
                any_checked += 1;
                any_equal += usize::from(board_values[n] == up);
            }
        }
        assert!(checked > 500, "{checked}");
        assert!(equal * 4 > checked * 3, "{equal} of {checked}");
        assert!(any_checked > 100, "{any_checked}");
        assert!(any_equal * 2 > any_checked, "{any_equal} of {any_checked}");
    }
}
