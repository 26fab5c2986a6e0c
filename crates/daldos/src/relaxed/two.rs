//! Lines where two roads meet before the target (`Two`): pieces on the
//! start row and pieces on the loop that come round it, by distance.

use super::lin::Lin;
use super::{bit, lands, reach, turn, Memos, PAST};

/// A line where two roads meet before the target (pieces on the start
/// row, and pieces on the loop that come round it), by signed distance as
/// in `Lin`: `common` for the pieces from the meeting point (path index
/// L, `merge` holes behind the target) on, and past the target; `road[0]`
/// for the start row, `road[1]` for the loop, each beyond `merge`. Only
/// start-row pieces can be undalt. A piece is blocked by the pieces on
/// its own road and the common part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Two {
    pub(super) common: u64,
    pub(super) road: [u64; 2],
    pub(super) undalt: u64,
    pub(super) merge: i32,
}

/// Where a piece of a `Two` stands: `None` for the common part.
type Road = Option<usize>;
impl Two {
    /// The piece of road `k` at distance `d` (a piece of the line)
    /// moved `s` holes on (see `Lin::step`).
    #[inline]
    fn step(&self, k: Road, d: i32, s: i32) -> Option<Two> {
        let to = d - s;
        let low = to.max(-(PAST as i32));
        let between = bit(d) - bit(low);
        let own = self.common | k.map_or(0, |k| self.road[k]);
        if own & between != 0 {
            return None;
        }
        let mut t = *self;
        let gone = !bit(d);
        match k {
            None => t.common &= gone,
            Some(k) => t.road[k] &= gone,
        }
        t.undalt &= gone;
        if to >= -(PAST as i32) {
            match k {
                Some(k) if to > self.merge => t.road[k] |= bit(to),
                _ => t.common |= bit(to),
            }
        }
        Some(t)
    }

    /// Drop the pieces farther than `reach` behind the target.
    #[inline]
    fn keep(&mut self, reach: u32) {
        let mask = (bit(reach as i32) << 1) - 1;
        self.common &= mask;
        self.road[0] &= mask;
        self.road[1] &= mask;
        self.undalt &= mask;
    }

    /// Every piece: its road and distance (the common part, then each
    /// road, nearest first), into `out`; returns how many.
    fn pieces(&self, out: &mut [(Road, i32); 64]) -> usize {
        let mut n = 0;
        for (k, mut m) in [
            (None, self.common),
            (Some(0), self.road[0]),
            (Some(1), self.road[1]),
        ] {
            while m != 0 {
                out[n] = (k, m.trailing_zeros() as i32 - PAST as i32);
                n += 1;
                m &= m - 1;
            }
        }
        n
    }

    fn is_undalt(&self, k: Road, d: i32) -> bool {
        k == Some(0) && self.undalt & bit(d) != 0
    }

    /// Whether some relaxed play of `(x, y)` lands on the target (as
    /// `Relaxed::captures_general`).
    fn captures(&self, x: i32, y: i32) -> bool {
        // Pieces 1 to x + y behind.
        let near = (bit(x + y) << 1) - bit(1);
        for (k, mut m) in [
            (None, self.common & near),
            (Some(0), self.road[0] & near),
            (Some(1), self.road[1] & near),
        ] {
            while m != 0 {
                let d = m.trailing_zeros() as i32 - PAST as i32;
                m &= m - 1;
                if self.captures_with(k, d, x, y) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the piece of road `k` at `d` lands on the target with
    /// `(x, y)`: alone, or after the one piece in its way moved.
    fn captures_with(&self, k: Road, d: i32, x: i32, y: i32) -> bool {
        {
            let und = self.is_undalt(k, d);
            if lands(d, x, y, und) && self.step(k, d, d).is_some() {
                return true;
            }
            if und {
                return false;
            }
            for (a, b) in [(x, y), (y, x)] {
                if b != d {
                    continue;
                }
                // Only a piece between it and the target can make room.
                let between = bit(d) - bit(1);
                for (kj, mut m) in [
                    (None, self.common & between),
                    (k, k.map_or(0, |k| self.road[k]) & between),
                ] {
                    while m != 0 {
                        let e = m.trailing_zeros() as i32 - PAST as i32;
                        m &= m - 1;
                        if self.is_undalt(kj, e) && a != 1 {
                            continue;
                        }
                        let Some(after) = self.step(kj, e, a) else {
                            continue;
                        };
                        if e == a || after.step(k, d, b).is_some() {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// The memo key with `r` rethrows left: the common part and the
    /// start row share one mask (they hold different distances, told
    /// apart by `merge`); each mask uses 36 bits, `r` 4 and `merge` 8.
    fn key(&self, r: u32) -> u128 {
        u128::from(self.common | self.road[0])
            | u128::from(self.road[1]) << 36
            | u128::from(self.undalt) << 72
            | u128::from(r) << 108
            | u128::from(self.merge as u8) << 112
    }

    /// The value with `r` rethrows left (as `Relaxed::value`), memoised in
    /// `memos`; once one road is empty it is a one-road line (`Lin`).
    pub(super) fn value(self, r: u32, memos: &mut Memos) -> u64 {
        let t = self;
        for k in 0..2 {
            if t.road[k] == 0 {
                let occ = t.common | t.road[1 - k];
                return Lin {
                    occ,
                    undalt: t.undalt,
                }
                .value(r, &mut memos.lin);
            }
        }
        let key = t.key(r);
        if let Some(&v) = memos.two.get(&key) {
            return v;
        }
        let v = turn(
            memos,
            r,
            |_, x, y| t.captures(i32::from(x), i32::from(y)),
            |memos| t.rethrow(r, memos),
        );
        memos.two.insert(key, v);
        v
    }

    /// The best value of the lines a dal-dal that captures nothing leaves,
    /// with `r - 1` rethrows then left. Written apart from `Lin::rethrow`
    /// because the pieces stand in three masks (the common part and each
    /// road) and a move can take a piece from its road into the common
    /// part, so each step names the part it starts from, and a pair of
    /// one-hole moves is also tried the other way round when the first
    /// order is blocked.
    fn rethrow(self, r: u32, memos: &mut Memos) -> u64 {
        let t = self;
        let reach = reach(r - 1);
        let mut best = 0u64;
        let mut visit = |memos: &mut Memos, mut c: Two| {
            c.keep(reach);
            best = best.max(c.value(r - 1, memos));
        };
        visit(memos, t);
        let mut all = [(None, 0); 64];
        let count = t.pieces(&mut all);
        let all = &all[..count];
        for (n, &(k, d)) in all.iter().enumerate() {
            // A piece in the way of another comes first (the common
            // part, then each road, nearest first), so when a piece is
            // blocked, the pair that makes room was already tried.
            let Some(one_step) = t.step(k, d, 1) else {
                continue;
            };
            let k1 = if d - 1 > t.merge { k } else { None };
            // Two holes from `-PAST`: as in `Lin::rethrow`, the child is
            // `one_step`, visited below.
            if d > -(PAST as i32) {
                if let Some(two) = one_step.step(k1, d - 1, 1) {
                    visit(memos, two);
                }
            }
            // A piece still out of reach after one hole is dropped
            // from the child: moving it so is the same as not.
            if d - 1 > reach as i32 {
                continue;
            }
            visit(memos, one_step);
            for &(kj, e) in all[n + 1..].iter().filter(|p| p.1 - 1 <= reach as i32) {
                let pair = one_step
                    .step(kj, e, 1)
                    .or_else(|| t.step(kj, e, 1).and_then(|a| a.step(k, d, 1)));
                if let Some(pair) = pair {
                    visit(memos, pair);
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As `Lin`'s test: a piece `PAST` holes past the target moved two
    /// holes by a dal-dal leaves the line. The start-row piece at 9 is
    /// brought to 7 (1/16) and lands with 4+3 (2/16); the loop piece at
    /// 10 does no better.
    #[test]
    fn a_piece_at_the_far_end_moves_off_the_line() {
        let t = Two {
            common: bit(-(PAST as i32)),
            road: [bit(9), bit(10)],
            undalt: 0,
            merge: 5,
        };
        assert_eq!(t.value(1, &mut Memos::default()), 30);
    }
}
