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
//! (hashbrown) on `(position, rethrows left)`; the search deepens one
//! rethrow at a time and stops at `max_daldals`, when nothing was cut, or
//! when the node budget runs out (then the last complete depth is reported
//! with its honest bound).

use std::rc::Rc;

use dalkon_rules::daldos::{play_results, Hole, Position, Side, Throw, Variants};
use hashbrown::HashMap;
use num_bigint::BigInt;
use num_traits::Zero;

use crate::ratio::{sixteenth_pow, Ratio};

/// Rethrow depth that brings the cut below `1e-12` (`16^-10 ≈ 9.1e-13`).
pub const EXACT_DALDALS: u32 = 9;

/// Largest rethrow depth the integer arithmetic supports.
pub const MAX_DALDALS: u32 = 12;

const DALDAL: Throw = Throw {
    first: 1,
    second: 1,
};

/// How far `capture_odds_with` may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OddsLimits {
    /// Dal-dal rethrows followed (at most `MAX_DALDALS`).
    pub max_daldals: u32,
    /// Positions evaluated before the search settles for the last complete
    /// depth.
    pub max_nodes: usize,
}

impl Default for OddsLimits {
    /// `EXACT_DALDALS` rethrows (error below `1e-12`), 100 000 positions.
    fn default() -> Self {
        OddsLimits {
            max_daldals: EXACT_DALDALS,
            max_nodes: 100_000,
        }
    }
}

/// One enemy piece and the chance of capturing it this turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Where the piece stands.
    pub hole: Hole,
    /// Probability (a lower bound within `CaptureOdds::bound`).
    pub probability: Ratio,
}

/// The capture odds of a position for its side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureOdds {
    /// The side to move, which captures.
    pub side: Side,
    /// Every enemy piece, in hole order.
    pub targets: Vec<Target>,
    /// Probability of capturing at least one enemy piece.
    pub any: Ratio,
    /// No rethrow was cut: every probability is exact.
    pub exact: bool,
    /// Each true probability lies in `[probability, probability + bound]`;
    /// zero when `exact`, else `16^-(daldals+1)`.
    pub bound: Ratio,
    /// Dal-dal rethrows followed.
    pub daldals: u32,
    /// Positions evaluated (all depths).
    pub nodes: usize,
}

/// Exact odds within `1e-12` (default limits; see `capture_odds_with`).
pub fn capture_odds(pos: &Position, variants: &Variants) -> CaptureOdds {
    capture_odds_with(pos, variants, OddsLimits::default())
}

/// Capture odds with explicit limits. Deterministic: the same limits give
/// the same answer on any machine and thread count.
pub fn capture_odds_with(pos: &Position, variants: &Variants, limits: OddsLimits) -> CaptureOdds {
    let side = pos.side_to_move();
    let enemy = side.other();
    let targets: Vec<Hole> = pos.pieces(enemy).collect();
    let mut search = Search {
        variants: *variants,
        side,
        targets: targets.iter().map(|h| 1u128 << h.0).collect(),
        memo: HashMap::new(),
        spare: Vec::new(),
        nodes: 0,
        max_nodes: limits.max_nodes.max(1),
    };
    let max = limits.max_daldals.min(MAX_DALDALS);
    let mut done: Option<(u32, Vec<u64>, bool)> = None;
    for k in 0..=max {
        match search.eval(pos, k) {
            Ok((v, exact)) => {
                done = Some((k, v.to_vec(), exact));
                if exact {
                    break;
                }
            }
            Err(OutOfNodes) => break,
        }
    }
    // Depth 0 needs one position, which the budget always allows.
    let (k, values, exact) = done.unwrap_or_else(|| (0, vec![0; targets.len() + 1], false));
    let unit = BigInt::from(15u64 * 16u64.pow(k + 1));
    let prob = |n: u64| Ratio::new(BigInt::from(n), unit.clone());
    CaptureOdds {
        side,
        targets: targets
            .iter()
            .zip(&values)
            .map(|(&hole, &n)| Target {
                hole,
                probability: prob(n),
            })
            .collect(),
        any: prob(values[targets.len()]),
        exact,
        bound: if exact {
            Ratio::zero()
        } else {
            sixteenth_pow(k + 1)
        },
        daldals: k,
        nodes: search.nodes,
    }
}

/// The node budget ran out.
#[derive(Debug)]
struct OutOfNodes;

/// Per-position values: one per target, then "any", in units of
/// `1 / (15 * 16^(r+1))`, and whether nothing below was cut.
type Entry = (Rc<[u64]>, bool);

struct Search {
    variants: Variants,
    side: Side,
    /// Bit of each target's hole.
    targets: Vec<u128>,
    memo: HashMap<(Position, u32), Entry>,
    /// Result buffers for the play generator, one per open recursion level.
    spare: Vec<Vec<Position>>,
    nodes: usize,
    max_nodes: usize,
}

impl Search {
    /// Values with `r` rethrows left.
    fn eval(&mut self, pos: &Position, r: u32) -> Result<Entry, OutOfNodes> {
        if let Some(e) = self.memo.get(&(*pos, r)) {
            return Ok(e.clone());
        }
        if self.nodes >= self.max_nodes {
            return Err(OutOfNodes);
        }
        self.nodes += 1;
        let n = self.targets.len();
        let enemy = self.side.other();
        let present = pos.mask(enemy);
        let mut out = vec![0u64; n + 1];
        if pos.is_over(&self.variants) {
            let e: Entry = (out.into(), true);
            self.memo.insert((*pos, r), e.clone());
            return Ok(e);
        }
        let mut buf = self.spare.pop().unwrap_or_default();
        // Weight out of 16 of the capturing throws that end the turn.
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
        play_results(pos, &self.variants, DALDAL, &mut buf);
        let scale = 16u64.pow(r);
        let mut exact = true;
        if buf.len() == 1 && buf[0] == *pos {
            // The lost dal-dal: V = x + V/16, so V = 16x/15.
            for (o, w) in out.iter_mut().zip(&weight) {
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
                    let hit = if i < n {
                        taken & self.targets[i] != 0
                    } else {
                        taken != 0
                    };
                    if hit {
                        *b = one;
                    }
                }
            }
            // Which values the rethrow can still raise: not already won by
            // a capture with the dal-dal, and within reach of some piece.
            // A value no piece can ever reach stays 0 however deep one
            // looks; one out of reach only for the rethrows left is a cut.
            let reach = self.reachable(pos, 2 * r + 8);
            let mut live = false;
            let mut cut_value = false;
            let mut any_reach = Reach::Never;
            for i in 0..=n {
                let ri = if i < n { reach[i] } else { any_reach };
                if i < n {
                    any_reach = any_reach.max(ri);
                }
                if best[i] < one {
                    live |= r > 0 && ri == Reach::Within;
                    cut_value |= ri != Reach::Never;
                }
            }
            if !live && cut_value && buf.iter().any(|res| !res.is_over(&self.variants)) {
                exact = false;
            }
            let children: &[Position] = if live { &buf } else { &[] };
            for res in children {
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
            for ((o, w), b) in out.iter_mut().zip(&weight).zip(&best) {
                *o = w * 15 * scale + b;
            }
        }
        self.spare.push(buf);
        let e: Entry = (out.into(), exact);
        self.memo.insert((*pos, r), e.clone());
        Ok(e)
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
