//! One-road lines by distance (`Lin`): where every piece that matters
//! comes to the target by one road, the value depends only on the
//! pieces' distances to it, so the targets of a position (and targets
//! further along the same road) share these states.

use hashbrown::HashMap;

use super::{bit, lands, reach, turn, PAST};

/// The pieces of a one-road line by signed distance to the target along
/// that road (positive: behind it, negative: past it): bit `d + 3` of
/// `occ` for a piece at `d` (`-PAST..=32`), the same bit of `undalt` when
/// it is undalt. Pieces never pass an own piece, so a move is blocked
/// exactly when a bit lies between. The value depends on nothing else
/// (not the target, not the board), so every target of a position shares
/// these states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Lin {
    pub(super) occ: u64,
    pub(super) undalt: u64,
}

impl Lin {
    /// The piece at distance `d` (a piece of the line, so `-PAST..`)
    /// moved `s` holes on, if nothing of its own is in the way; a piece
    /// moved more than `PAST` past the target is dropped (what stands
    /// beyond that is not tracked, which only frees moves: still an upper
    /// bound).
    #[inline]
    fn step(&self, d: i32, s: i32) -> Option<Lin> {
        let to = d - s;
        let low = to.max(-(PAST as i32));
        let between = bit(d) - bit(low);
        if self.occ & between != 0 {
            return None;
        }
        let gone = !bit(d);
        let landed = if to >= -(PAST as i32) { bit(to) } else { 0 };
        Some(Lin {
            occ: (self.occ & gone) | landed,
            undalt: self.undalt & gone,
        })
    }

    /// Drop the pieces farther than `reach` behind the target.
    #[inline]
    fn keep(&mut self, reach: u32) {
        let mask = (bit(reach as i32) << 1) - 1;
        self.occ &= mask;
        self.undalt &= mask;
    }

    /// The memo key with `r` rethrows left (`occ` uses 36 bits).
    #[inline]
    fn key(&self, r: u32) -> u128 {
        u128::from(self.occ | u64::from(r) << 56) | u128::from(self.undalt) << 64
    }

    /// The value with `r` rethrows left (as `Relaxed::value`), memoised
    /// in `memo`. Only the nearest piece behind the target has a free road
    /// to it; it lands with one die or the sum (undalt: the dal, or the
    /// dal and then the other die), or it jumps over the target with one
    /// die (unless a piece past the target is in the way) and the next one
    /// lands with the other.
    pub(super) fn value(self, r: u32, memo: &mut HashMap<u128, u64>) -> u64 {
        let l = self;
        let behind = l.occ & !(bit(1) - 1);
        if behind == 0 {
            return 0;
        }
        let key = l.key(r);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let off = PAST as i32;
        let d1 = behind.trailing_zeros() as i32 - off;
        let near_undalt = l.undalt & bit(d1) != 0;
        let rest = behind & !bit(d1);
        let second = (rest != 0 && l.undalt & rest & rest.wrapping_neg() == 0)
            .then(|| rest.trailing_zeros() as i32 - off);
        let captures = |_: &HashMap<u128, u64>, x: u8, y: u8| -> bool {
            let (x, y) = (i32::from(x), i32::from(y));
            if lands(d1, x, y, near_undalt) {
                return true;
            }
            // An undalt piece's first die is the dal: it cannot jump over.
            let (false, Some(d2)) = (near_undalt, second) else {
                return false;
            };
            [(x, y), (y, x)]
                .iter()
                .any(|&(a, b)| a > d1 && d2 == b && l.step(d1, a).is_some())
        };
        let v = turn(memo, r, captures, |memo| l.rethrow(r, memo));
        memo.insert(key, v);
        v
    }

    /// The best value of the lines a dal-dal that captures nothing leaves,
    /// with `r - 1` rethrows then left. Written apart from `Two::rethrow`
    /// because on one road only the nearer of two pieces can block the
    /// other, so each pair is tried in that one order.
    fn rethrow(self, r: u32, memo: &mut HashMap<u128, u64>) -> u64 {
        let l = self;
        let off = PAST as i32;
        let reach = reach(r - 1);
        let mut best = 0u64;
        let mut visit = |memo: &mut HashMap<u128, u64>, mut c: Lin| {
            c.keep(reach);
            best = best.max(c.value(r - 1, memo));
        };
        visit(memo, l);
        let mut pieces = l.occ;
        while pieces != 0 {
            let b = pieces & pieces.wrapping_neg();
            pieces &= !b;
            let d = b.trailing_zeros() as i32 - off;
            let Some(one_step) = l.step(d, 1) else {
                continue;
            };
            // Two holes from `-PAST`: the piece already left the line with
            // the first, so the child is `one_step`, visited below (and
            // `step` would take a bit below the mask, `bit(-PAST - 1)`).
            if d > -off {
                if let Some(two) = one_step.step(d - 1, 1) {
                    visit(memo, two);
                }
            }
            // A piece still out of reach after one hole is dropped
            // from the child: moving it so is the same as not.
            if d - 1 > reach as i32 {
                continue;
            }
            visit(memo, one_step);
            // Two pieces a hole each: the nearer first (it can only
            // make room for the other).
            let mut others = pieces & ((bit(reach as i32 + 1) << 1) - 1);
            while others != 0 {
                let c = others & others.wrapping_neg();
                others &= !c;
                let e = c.trailing_zeros() as i32 - off;
                if let Some(pair) = one_step.step(e, 1) {
                    visit(memo, pair);
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dal-dal with a piece `PAST` holes past the target: moving that
    /// piece two holes leaves the same line as one (it is gone), and must
    /// not take a bit below the mask. The piece 9 behind cannot land
    /// (at most 8 a throw), so the value is the dal-dal (1/16) bringing
    /// it to 7 and then 4+3 (2/16): 1/128, in units of 1/(15 * 16^2).
    #[test]
    fn a_piece_at_the_far_end_moves_off_the_line() {
        let l = Lin {
            occ: bit(-(PAST as i32)) | bit(9),
            undalt: 0,
        };
        assert_eq!(l.value(1, &mut HashMap::new()), 30);
    }
}
