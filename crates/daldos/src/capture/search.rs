//! The full search of the capture odds: every dal-dal play of every
//! piece is a branch, values per target (and "any") memoised on
//! (position, rethrows left), within a node budget.

use std::rc::Rc;

use dalkon_rules::daldos::{play_results, Hole, Position, Side, Throw, Variants};
use hashbrown::HashMap;

/// The throw that is rethrown.
pub(super) const DALDAL: Throw = Throw {
    first: 1,
    second: 1,
};

/// The node budget ran out.
#[derive(Debug)]
pub(super) struct OutOfNodes;

/// Per-position values: one per target, then "any", in units of
/// `1 / (15 * 16^(r+1))`, and a mask of the values nothing below cut.
pub(super) type Entry = (Rc<[u64]>, u64);

/// The full search over every dal-dal play, memoised on (position,
/// rethrows left), within a node budget.
#[derive(Debug)]
pub(super) struct Search {
    pub(super) variants: Variants,
    pub(super) side: Side,
    /// Bit of each target's hole.
    pub(super) targets: Vec<u128>,
    pub(super) memo: HashMap<(Position, u32), Entry>,
    /// Per position: weight out of 16 of the throws that are not a
    /// dal-dal on which each target (then "any") can be captured.
    pub(super) weights: HashMap<Position, Rc<[u64]>>,
    /// Branch-and-bound bounds per target.
    pub(super) lines: HashMap<(Position, u32, usize), (u64, u64)>,
    /// Result buffers for the play generator, one per open recursion level.
    pub(super) spare: Vec<Vec<Position>>,
    /// Positions evaluated so far.
    pub(super) nodes: usize,
    /// Positions it may evaluate.
    pub(super) max_nodes: usize,
}

impl Search {
    /// A search for `side` capturing the pieces on `targets` (one bit of
    /// hole each), with nothing memoised yet.
    pub(super) fn new(
        variants: Variants,
        side: Side,
        targets: Vec<u128>,
        max_nodes: usize,
    ) -> Search {
        Search {
            variants,
            side,
            targets,
            memo: HashMap::new(),
            weights: HashMap::new(),
            lines: HashMap::new(),
            spare: Vec::new(),
            nodes: 0,
            max_nodes,
        }
    }

    /// Count one position, or fail when the budget is spent.
    pub(super) fn count_node(&mut self) -> Result<(), OutOfNodes> {
        if self.nodes >= self.max_nodes {
            return Err(OutOfNodes);
        }
        self.nodes += 1;
        Ok(())
    }

    /// Per target, then "any": weight out of 16 of the throws that are not
    /// a dal-dal on which some play captures it (memoised).
    pub(super) fn weights(&mut self, pos: &Position) -> Rc<[u64]> {
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
    pub(super) fn eval(&mut self, pos: &Position, r: u32) -> Result<Entry, OutOfNodes> {
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
