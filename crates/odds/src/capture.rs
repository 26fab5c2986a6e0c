//! Capture odds on a real board, through the full rules (`plays`): for each
//! enemy piece, the probability that the side to move captures it during
//! this turn, extra throws after dal-dal included, playing to maximise that
//! one probability; and the same for "at least one capture".
//!
//! The value of a position is `V = x + max_c V(c) / 16`: `x` is the weight
//! (out of 16) of the throws that are not a dal-dal on which some play
//! captures the target, `c` runs over the results of the dal-dal plays.
//! Where the only dal-dal outcome is the position itself (the lost throw),
//! `V = x + V/16` is solved exactly: `V = 16x/15`. Anywhere else the
//! rethrows are followed to a depth `k`; a dal-dal thrown after `k` of them
//! counts only for a capture made with it, which leaves out a probability of
//! at most `16^-(k+1)`. With `k = 9` that is below `1e-12`.
//!
//! Arithmetic is exact integers: a value `r` rethrows from the cut is a
//! whole number of units `1 / (15 * 16^(r+1))` (the 15 from the fixed
//! point), so everything fits a `u64` for `k <= 12`. Positions are memoised
//! (hashbrown) on `(position, rethrows left)`.
//!
//! Two ways to the answer, combined per target:
//! - the full search over every dal-dal play, deepening one rethrow at a
//!   time until every value still needed is exact, `max_daldals` is reached
//!   or the node budget runs out. Its cost grows about tenfold per rethrow
//!   on a middle game (every dal-dal play of every piece is a branch);
//! - for each target, a certificate: the relaxed model (`relaxed`: only the
//!   pieces that can reach the target and those just past it that may
//!   block a jump over it, unwanted dice spent for free) is an
//!   upper bound; the board played along the relaxed model's best dal-dal
//!   plays is a lower bound. When the two are equal the board value is
//!   known, cut after `max_daldals` rethrows, for the price of one line of
//!   board positions. They differ only where the real board forbids what
//!   the relaxed one allows (both dice must be used, `dal=sternmost`, the
//!   game ending); then the full search decides, within its bound.
//!
//! - the same for "at least one capture", with every enemy piece a target
//!   of one relaxed model (`RelaxedAny`): where the full search runs out
//!   of budget before "any" is exact (sparse positions, where it is not
//!   1), this still settles it. When every value is certified the full
//!   search only gets a small budget (it may still find values exact).
//!
//! Each target (and "any") reports the narrowest interval the two give.

use std::rc::Rc;

use dalkon_rules::daldos::{play_results, Hole, Position, Side, Throw, Variants};
use hashbrown::HashMap;
use num_bigint::BigInt;
use num_traits::Zero;

use crate::ratio::{sixteenth_pow, Ratio};
use crate::relaxed::any::RelaxedAny;
use crate::relaxed::target::Relaxed;

/// Rethrow depth that brings the cut below `1e-12` (`16^-10 ≈ 9.1e-13`).
pub const EXACT_DALDALS: u32 = 9;

/// Largest rethrow depth the integer arithmetic supports.
pub const MAX_DALDALS: u32 = 12;

const DALDAL: Throw = Throw {
    first: 1,
    second: 1,
};

/// Positions the full search may spend when the certificates settled
/// every value (targets and "any").
const SETTLED_NODES: usize = 2_000;

/// How far `capture_odds_with` may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OddsLimits {
    /// Dal-dal rethrows followed (at most `MAX_DALDALS`).
    pub max_daldals: u32,
    /// Positions evaluated before the search settles for the last complete
    /// depth.
    pub max_nodes: usize,
    /// Try the relaxed-model certificate per target before the full search.
    pub certify: bool,
}

impl Default for OddsLimits {
    /// `EXACT_DALDALS` rethrows (error below `1e-12`), 50 000 positions,
    /// certificates on.
    fn default() -> Self {
        OddsLimits {
            max_daldals: EXACT_DALDALS,
            max_nodes: 50_000,
            certify: true,
        }
    }
}

/// One enemy piece and the chance of capturing it this turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Where the piece stands.
    pub hole: Hole,
    /// Probability: exact, or a lower bound within `bound`.
    pub probability: Ratio,
    /// The true probability lies in `[probability, probability + bound]`.
    pub bound: Ratio,
    /// Nothing was cut: `probability` is exact (`bound` is zero).
    pub exact: bool,
    /// The relaxed-model certificate settled it: `probability` is the
    /// board value cut after `max_daldals` rethrows, exactly.
    pub certified: bool,
}

/// The capture odds of a position for its side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureOdds {
    /// The side to move, which captures.
    pub side: Side,
    /// Every enemy piece, in hole order.
    pub targets: Vec<Target>,
    /// Probability of capturing at least one enemy piece (a lower bound
    /// within `any_bound`).
    pub any: Ratio,
    /// The true "any" probability is at most this much above `any`.
    pub any_bound: Ratio,
    /// Every probability (targets and "any") is exact.
    pub exact: bool,
    /// The largest bound of all: every true probability lies in
    /// `[probability, probability + bound]`.
    pub bound: Ratio,
    /// Dal-dal rethrows followed by the full search.
    pub daldals: u32,
    /// Targets whose value the relaxed-model certificate settled.
    pub certified: usize,
    /// Board positions evaluated (both ways, all depths).
    pub nodes: usize,
}

/// Exact odds within `1e-12` (default limits; see `capture_odds_with`).
pub fn capture_odds(pos: &Position, variants: &Variants) -> CaptureOdds {
    capture_odds_with(pos, variants, OddsLimits::default())
}

/// An interval `[lo, hi]` holding a true probability.
#[derive(Debug, Clone)]
struct Interval {
    lo: Ratio,
    hi: Ratio,
}

impl Interval {
    fn meet(self, other: Interval) -> Interval {
        Interval {
            lo: self.lo.max(other.lo),
            hi: self.hi.min(other.hi),
        }
    }
}

/// Capture odds with explicit limits. Deterministic: the same limits give
/// the same answer on any machine and thread count.
pub fn capture_odds_with(pos: &Position, variants: &Variants, limits: OddsLimits) -> CaptureOdds {
    let side = pos.side_to_move();
    let enemy = side.other();
    let targets: Vec<Hole> = pos.pieces(enemy).collect();
    let n = targets.len();
    let mut search = Search {
        variants: *variants,
        side,
        targets: targets.iter().map(|h| 1u128 << h.0).collect(),
        memo: HashMap::new(),
        weights: HashMap::new(),
        lines: HashMap::new(),
        spare: Vec::new(),
        nodes: 0,
        max_nodes: limits.max_nodes.max(1),
    };
    let max = limits.max_daldals.min(MAX_DALDALS);
    let unit = |k: u32| BigInt::from(15u64 * 16u64.pow(k + 1));
    let over = pos.is_over(variants);

    // Certificates first: they are cheap when they work. Each target (and
    // "any", index n) has its own search and an equal share of half the
    // budget, so they run in parallel (rayon) with the same result on any
    // number of threads.
    let mut cert: Vec<Option<(Interval, bool)>> = vec![None; n + 1];
    if !over && limits.certify && n > 0 {
        use rayon::prelude::*;
        let share = (search.max_nodes / (2 * (n + 1))).max(1);
        let fresh = |max_nodes| Search {
            variants: *variants,
            side,
            targets: search.targets.clone(),
            memo: HashMap::new(),
            weights: HashMap::new(),
            lines: HashMap::new(),
            spare: Vec::new(),
            nodes: 0,
            max_nodes,
        };
        let results: Vec<(Option<(Interval, bool)>, usize)> = (0..=n)
            .into_par_iter()
            .map_init(crate::relaxed::memo, |shared, i| {
                let mut own = fresh(share);
                let (lb, ub) = match targets.get(i) {
                    Some(&hole) => {
                        let mut relaxed = Relaxed::new(pos.board(), side, hole, shared.clone());
                        own.bounds(pos, max, i, &mut relaxed)
                    }
                    None => match RelaxedAny::new(pos) {
                        Some(mut relaxed) => own.bounds(pos, max, i, &mut relaxed),
                        None => return (None, 0),
                    },
                };
                let lo = Ratio::new(BigInt::from(lb), unit(max));
                let hi = Ratio::new(BigInt::from(ub), unit(max)) + sixteenth_pow(max + 1);
                let c = Some((Interval { lo, hi }, lb == ub));
                (c, own.nodes)
            })
            .collect();
        for (i, (c, used)) in results.into_iter().enumerate() {
            cert[i] = c;
            search.nodes += used;
        }
    }
    let certified = cert[..n].iter().flatten().filter(|c| c.1).count();

    // The full search, for what the certificates did not settle and "any".
    let mut needed: u64 = 1 << n;
    for (i, c) in cert.iter().enumerate() {
        if !matches!(c, Some((_, true))) {
            needed |= 1 << i;
        }
    }
    // "Any" is always followed until it is exact (which also shows where
    // nothing is cut at all), but when the certificates settled every
    // value the search only gets a small budget for that.
    if cert.iter().all(|c| matches!(c, Some((_, true)))) {
        search.max_nodes = search.max_nodes.min(search.nodes + SETTLED_NODES);
    }
    let mut done: Option<(u32, Entry)> = None;
    for k in 0..=max {
        match search.eval(pos, k) {
            Ok(e) => {
                let finished = e.1 & needed == needed;
                done = Some((k, e));
                if finished {
                    break;
                }
            }
            Err(OutOfNodes) => break,
        }
    }
    // Depth 0 needs one position, which the budget always allows unless
    // the certificates used it up: then nothing is known from the search.
    let full = |i: usize| -> Interval {
        match &done {
            Some((k, (v, exact))) => {
                let lo = Ratio::new(BigInt::from(v[i]), unit(*k));
                let hi = if exact & (1 << i) != 0 {
                    lo.clone()
                } else {
                    &lo + sixteenth_pow(k + 1)
                };
                Interval { lo, hi }
            }
            None => Interval {
                lo: Ratio::zero(),
                hi: Ratio::from_integer(1.into()),
            },
        }
    };
    let mut out_targets = Vec::with_capacity(n);
    let mut widest = Ratio::zero();
    for (i, &hole) in targets.iter().enumerate() {
        let mut iv = full(i);
        if let Some((c, _)) = &cert[i] {
            iv = iv.meet(c.clone());
        }
        // Both intervals hold the true value, so they overlap.
        debug_assert!(iv.lo <= iv.hi, "capture intervals disagree at {hole:?}");
        let bound = (&iv.hi - &iv.lo).max(Ratio::zero());
        widest = widest.max(bound.clone());
        out_targets.push(Target {
            hole,
            certified: matches!(cert[i], Some((_, true))),
            exact: bound.is_zero(),
            probability: iv.lo,
            bound,
        });
    }
    let mut any = full(n);
    if let Some((c, _)) = &cert[n] {
        any = any.meet(c.clone());
    }
    debug_assert!(any.lo <= any.hi, "\"any\" intervals disagree");
    let any_bound = &any.hi - &any.lo;
    widest = widest.max(any_bound.clone());
    CaptureOdds {
        side,
        targets: out_targets,
        any: any.lo,
        any_bound,
        exact: widest.is_zero(),
        bound: widest,
        daldals: done.as_ref().map_or(0, |d| d.0),
        certified,
        nodes: search.nodes,
    }
}

/// The node budget ran out.
#[derive(Debug)]
struct OutOfNodes;

/// Per-position values: one per target, then "any", in units of
/// `1 / (15 * 16^(r+1))`, and a mask of the values nothing below cut.
type Entry = (Rc<[u64]>, u64);

struct Search {
    variants: Variants,
    side: Side,
    /// Bit of each target's hole.
    targets: Vec<u128>,
    memo: HashMap<(Position, u32), Entry>,
    /// Per position: weight out of 16 of the throws that are not a
    /// dal-dal on which each target (then "any") can be captured.
    weights: HashMap<Position, Rc<[u64]>>,
    /// Branch-and-bound bounds per target.
    lines: HashMap<(Position, u32, usize), (u64, u64)>,
    /// Result buffers for the play generator, one per open recursion level.
    spare: Vec<Vec<Position>>,
    nodes: usize,
    max_nodes: usize,
}

impl Search {
    fn count_node(&mut self) -> Result<(), OutOfNodes> {
        if self.nodes >= self.max_nodes {
            return Err(OutOfNodes);
        }
        self.nodes += 1;
        Ok(())
    }

    fn weights(&mut self, pos: &Position) -> Rc<[u64]> {
        if let Some(w) = self.weights.get(pos) {
            return w.clone();
        }
        let n = self.targets.len();
        let enemy = self.side.other();
        let present = pos.mask(enemy);
        let mut buf = self.spare.pop().unwrap_or_default();
        let mut weight = vec![0u64; n + 1];
        for &(t, w) in Throw::DISTINCT.iter().filter(|(t, _)| !t.is_daldal()) {
            play_results(pos, &self.variants, t, &mut buf);
            let mut hit = 0u128;
            let mut any = false;
            for res in &buf {
                let taken = present & !res.mask(enemy);
                hit |= taken;
                any |= taken != 0;
            }
            for (i, &bit) in self.targets.iter().enumerate() {
                if hit & bit != 0 {
                    weight[i] += u64::from(w);
                }
            }
            if any {
                weight[n] += u64::from(w);
            }
        }
        self.spare.push(buf);
        let w: Rc<[u64]> = weight.into();
        self.weights.insert(*pos, w.clone());
        w
    }

    /// Values with `r` rethrows left.
    fn eval(&mut self, pos: &Position, r: u32) -> Result<Entry, OutOfNodes> {
        if let Some(e) = self.memo.get(&(*pos, r)) {
            return Ok(e.clone());
        }
        self.count_node()?;
        let n = self.targets.len();
        let all: u64 = (1 << (n + 1)) - 1;
        let enemy = self.side.other();
        let present = pos.mask(enemy);
        let mut out = vec![0u64; n + 1];
        if pos.is_over(&self.variants) {
            let e: Entry = (out.into(), all);
            self.memo.insert((*pos, r), e.clone());
            return Ok(e);
        }
        let weight = self.weights(pos);
        let mut buf = self.spare.pop().unwrap_or_default();
        play_results(pos, &self.variants, DALDAL, &mut buf);
        let scale = 16u64.pow(r);
        let mut exact = all;
        if buf.len() == 1 && buf[0] == *pos {
            // The lost dal-dal: V = x + V/16, so V = 16x/15.
            for (o, w) in out.iter_mut().zip(weight.iter()) {
                *o = w * 16 * scale;
            }
        } else {
            // A capture made with the dal-dal is worth 1: 15 * 16^r units
            // of the child's scale, which is what the parent adds as-is.
            let one = 15 * scale;
            let mut best = vec![0u64; n + 1];
            for res in &buf {
                let taken = present & !res.mask(enemy);
                for (i, b) in best.iter_mut().enumerate() {
                    let hit = match self.targets.get(i) {
                        Some(&bit) => taken & bit != 0,
                        None => taken != 0,
                    };
                    if hit {
                        *b = one;
                    }
                }
            }
            let maxed = best
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == one)
                .fold(0u64, |m, (i, _)| m | 1 << i);
            // Which values the rethrow can still raise: not already won by
            // a capture with the dal-dal, and within reach of some piece.
            // A value no piece can ever reach stays 0 however deep one
            // looks; one out of reach only for the rethrows left is cut.
            let mut reach = self.reachable(pos, 2 * r + 8);
            reach.push(reach.iter().copied().max().unwrap_or(Reach::Never));
            let live = r > 0 && (0..=n).any(|i| maxed & (1 << i) == 0 && reach[i] == Reach::Within);
            if live {
                for res in &buf {
                    let taken = present & !res.mask(enemy);
                    let below: Option<Entry> = if res.is_over(&self.variants) {
                        None
                    } else {
                        let e = self.eval(res, r - 1)?;
                        exact &= e.1;
                        Some(e)
                    };
                    for (i, b) in best.iter_mut().enumerate() {
                        let hit = match self.targets.get(i) {
                            Some(&bit) => taken & bit != 0,
                            None => taken != 0,
                        };
                        let v = if hit {
                            one
                        } else {
                            below.as_ref().map_or(0, |e| e.0[i])
                        };
                        *b = (*b).max(v);
                    }
                }
                exact |= maxed;
            } else if buf.iter().any(|res| !res.is_over(&self.variants)) {
                for (i, ri) in reach.iter().enumerate() {
                    if maxed & (1 << i) == 0 && *ri != Reach::Never {
                        exact &= !(1 << i);
                    }
                }
            }
            for ((o, w), b) in out.iter_mut().zip(weight.iter()).zip(&best) {
                *o = w * 15 * scale + b;
            }
        }
        self.spare.push(buf);
        let e: Entry = (out.into(), exact);
        self.memo.insert((*pos, r), e.clone());
        Ok(e)
    }

    /// Bounds `(lower, upper)` for target `i` with `r` rethrows left (cut
    /// after them, like the full search), by
    /// branch and bound over the dal-dal plays: each child's relaxed value
    /// (`relaxed`) is an upper bound on it, children are tried best bound
    /// first, and a child whose bound does not beat the best lower bound
    /// found is skipped (it cannot raise the maximum). Where the board
    /// plays like the relaxed model this follows one line of positions and
    /// the bounds meet. When the node budget runs out the rest is bounded
    /// by 0 below and the relaxed value above.
    fn bounds(
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

    /// For each target: how near the nearest piece of the side to move
    /// stands behind it along its path, against `steps` (a piece moves at
    /// most 2 holes per dal-dal and 8 on any other throw).
    fn reachable(&self, pos: &Position, steps: u32) -> Vec<Reach> {
        let board = pos.board();
        let movers: Vec<Hole> = pos.pieces(self.side).collect();
        self.targets
            .iter()
            .map(|&bit| {
                if pos.mask(self.side.other()) & bit == 0 {
                    return Reach::Never;
                }
                let t = Hole(bit.trailing_zeros() as u8);
                movers
                    .iter()
                    .filter_map(|&m| board.path_distance(self.side, m, t))
                    .map(|d| {
                        if d <= steps {
                            Reach::Within
                        } else {
                            Reach::Later
                        }
                    })
                    .max()
                    .unwrap_or(Reach::Never)
            })
            .collect()
    }
}

/// An upper bound on the board value of one target (or "any") with `r`
/// rethrows left, in the search's units: a relaxed model.
trait UpperBound {
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

/// How far a target is from the side to move's pieces. Pieces only move
/// forward, so a target no piece can reach now is out of reach for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Reach {
    /// No piece has a path to it.
    Never,
    /// Only farther than the rethrows left can carry a piece.
    Later,
    /// Some piece may still land on it this turn.
    Within,
}

/// Cheap `f64` capture risks for a heuristic: for each enemy piece of the
/// side to move in `pos` (in hole order), the probability that the side to
/// move captures it with this throw, counting a dal-dal only for a capture
/// made with the dal-dal itself (no rethrow followed). A lower bound of
/// `capture_odds`, at most `1/16` below it; ten calls of the play
/// generator. To ask "how exposed are my pieces", pass the position with
/// the opponent to move (`pos.with_side_to_move(me.other())`).
pub fn capture_risk_f64(pos: &Position, variants: &Variants) -> Vec<(Hole, f64)> {
    let enemy = pos.side_to_move().other();
    let present = pos.mask(enemy);
    let holes: Vec<Hole> = pos.pieces(enemy).collect();
    let mut weight = vec![0u32; holes.len()];
    if pos.is_over(variants) {
        return holes.into_iter().map(|h| (h, 0.0)).collect();
    }
    let mut buf = Vec::new();
    for &(t, w) in &Throw::DISTINCT {
        play_results(pos, variants, t, &mut buf);
        let hit = buf
            .iter()
            .fold(0u128, |acc, res| acc | (present & !res.mask(enemy)));
        for (i, h) in holes.iter().enumerate() {
            if hit & (1u128 << h.0) != 0 {
                weight[i] += w;
            }
        }
    }
    holes
        .into_iter()
        .zip(weight)
        .map(|(h, w)| (h, f64::from(w) / 16.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::random_positions;
    use dalkon_rules::daldos::Board;

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
            let mut search = Search {
                variants: Variants::default(),
                side,
                targets: targets.iter().map(|h| 1u128 << h.0).collect(),
                memo: HashMap::new(),
                weights: HashMap::new(),
                lines: HashMap::new(),
                spare: Vec::new(),
                nodes: 0,
                max_nodes: usize::MAX,
            };
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
