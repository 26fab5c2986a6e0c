//! An upper bound on the capture odds of one target: the board relaxed to
//! the capturer's pieces that can still reach the target, with any die the
//! player does not want spent elsewhere for free (no "both dice must be
//! used"), any undalt piece dallable (`dal=any`), and no game end. Every
//! legal play of the real board is a play here with the same effect on the
//! target, so this value, cut after `r` rethrows exactly like the board
//! search, is at least the board's. It is the closed form of the published
//! tables (`closed_form`) generalised to any pieces on a real path. The
//! capture rule does not matter here: an added move whose first die lands
//! on the target can always be replaced by that die alone, the other spent
//! elsewhere, and a capture is worth the most there is.
//!
//! Pieces farther than `2r + 8` holes from the target cannot land on it in
//! the rethrows left (a piece moves at most 2 holes per dal-dal and 8 on
//! any other throw), nor stand in the way of one that can (a piece only
//! blocks pieces behind it), so they are left out; this keeps the state
//! small. Pieces up to 3 holes past the target are kept: they can block
//! the nearest piece from jumping over the target with one die so that
//! the next lands on it with the other (leaving them out would only loosen
//! the bound, which then fails to meet the board). The state is the sorted
//! list of the remaining pieces' path indices, each with a flag for undalt.
//!
//! Values are memoised in a table that several targets of one position
//! share: where all the pieces come to the target by one road (all on the
//! loop, or all on the start row with the target there too), the value
//! depends only on the distances to the target, so the key is those
//! distances and targets further along the same road reuse each other's
//! states.

use std::cell::RefCell;
use std::rc::Rc;

use dalkon_rules::daldos::{Board, Hole, Position, Side, Throw};
use hashbrown::HashMap;

/// A piece: `path index << 1 | undalt` (path indices are at most 96).
type Piece = u8;

/// The pieces that matter, sorted; at most 32 (a side has at most L).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Line {
    len: u8,
    pieces: [Piece; 32],
}

impl Line {
    pub(crate) fn as_slice(&self) -> &[Piece] {
        &self.pieces[..usize::from(self.len)]
    }
}

/// A memo key: `tag` 0 (all on the loop) or 1 (all on the start row) with
/// the pieces' distances to the target, or `2 + target path index` with
/// their path indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    tag: u8,
    line: Line,
}

/// The pieces of a one-road line by signed distance to the target along
/// that road (positive: behind it, negative: past it): bit `d + 3` of
/// `occ` for a piece at `d` (`-PAST..=32`), the same bit of `undalt` when
/// it is undalt. Pieces never pass an own piece, so a move is blocked
/// exactly when a bit lies between. The value depends on nothing else
/// (not the target, not the board), so every target of a position shares
/// these states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Lin {
    occ: u64,
    undalt: u64,
}

/// Bit of distance `d` in a `Lin`.
const fn bit(d: i32) -> u64 {
    1 << (d + PAST as i32)
}

impl Lin {
    /// The piece at distance `d` moved `s` holes on, if nothing of its own
    /// is in the way; a piece moved more than `PAST` past the target is
    /// dropped (what stands beyond that is not tracked, which only frees
    /// moves: still an upper bound).
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
}

/// A line where two roads meet before the target (pieces on the start
/// row, and pieces on the loop that come round it), by signed distance as
/// in `Lin`: `common` for the pieces from the meeting point (path index
/// L, `merge` holes behind the target) on, and past the target; `road[0]`
/// for the start row, `road[1]` for the loop, each beyond `merge`. Only
/// start-row pieces can be undalt. A piece is blocked by the pieces on
/// its own road and the common part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Two {
    common: u64,
    road: [u64; 2],
    undalt: u64,
    merge: i32,
}

/// Where a piece of a `Two` stands: `None` for the common part.
type Road = Option<usize>;

impl Two {
    /// The piece of road `k` at distance `d` moved `s` holes on (see
    /// `Lin::step`).
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
            let direct = if und {
                (x == 1 && (d == 1 || d == 1 + y)) || (y == 1 && (d == 1 || d == 1 + x))
            } else {
                d == x || d == y || d == x + y
            };
            if direct && self.step(k, d, d).is_some() {
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
}

/// Relaxed values, shared by the targets of one position: lines by path
/// index (where two roads meet) and one-road lines by distance.
#[derive(Debug, Default)]
pub(crate) struct Memos {
    lines: HashMap<(Key, u32), u64>,
    lin: HashMap<u128, u64>,
    two: HashMap<u128, u64>,
}

/// Values shared by the relaxed models of one position's targets.
pub(crate) type Memo = Rc<RefCell<Memos>>;

/// An empty shared memo.
pub(crate) fn memo() -> Memo {
    Rc::new(RefCell::new(Memos::default()))
}

/// The relaxed model for one side capturing one target.
#[derive(Debug)]
pub(crate) struct Relaxed {
    board: Board,
    side: Side,
    /// Path index of the target.
    target: u8,
    /// Holes from each path index to the target (`u32::MAX`: never).
    dist: Vec<u32>,
    /// Holes from the target to each path index, where that is 1 to
    /// `PAST` (else 0): pieces there may block a jump over the target.
    past: Vec<u8>,
    /// `next[p][k]`: path index `k` holes after `p` (k = 0..=8).
    next: Vec<[u8; 9]>,
    memo: Memo,
    /// Evaluate one-road lines by distance (`Lin`); off only in tests,
    /// to check the two ways agree.
    linear: bool,
}

/// Pieces this many holes past the target still matter: the nearest
/// piece may jump over the target with one die (at most 3 past it, the
/// target at least 1 ahead) so that the next one lands on it, and a piece
/// standing there blocks that jump. Farther ones can never block a piece
/// that is still behind the target.
const PAST: u8 = 3;

/// Holes a piece can cover with `r` rethrows left: 2 per dal-dal, 8 on
/// the last throw.
const fn reach(r: u32) -> u32 {
    2 * r + 8
}

const fn index(p: Piece) -> u8 {
    p >> 1
}

const fn undalt(p: Piece) -> bool {
    p & 1 != 0
}

impl Relaxed {
    pub(crate) fn new(board: Board, side: Side, target: Hole, memo: Memo) -> Relaxed {
        let last = 3 * board.len();
        let dist = (0..=last)
            .map(|p| {
                board
                    .path_distance(side, board.hole_at(side, p), target)
                    .unwrap_or(u32::MAX)
            })
            .collect();
        let next = (0..=last)
            .map(|p| {
                let mut row = [p; 9];
                for (k, slot) in row.iter_mut().enumerate() {
                    *slot = board.advance(p, k as u32);
                }
                row
            })
            .collect();
        let t = board.path_index(side, target);
        let mut past = vec![0u8; usize::from(last) + 1];
        for k in 1..=PAST {
            past[usize::from(board.advance(t, u32::from(k)))] = k;
        }
        Relaxed {
            board,
            side,
            target: t,
            dist,
            past,
            next,
            memo,
            linear: true,
        }
    }

    /// The pieces of `pos` that matter with `r` rethrows left.
    pub(crate) fn project(&self, pos: &Position, r: u32) -> Line {
        let mut line = self.project_all(pos);
        self.keep(&mut line, r);
        line
    }

    /// Every piece of the side, unsorted.
    fn project_all(&self, pos: &Position) -> Line {
        let und = pos.undalt_mask();
        let mut line = Line {
            len: 0,
            pieces: [0; 32],
        };
        for h in pos.pieces(self.side) {
            let p = self.board.path_index(self.side, h);
            line.pieces[usize::from(line.len)] = (p << 1) | u8::from(und & (1u128 << h.0) != 0);
            line.len += 1;
        }
        line
    }

    /// The memo key of a line (see the module doc).
    fn key(&self, line: &Line, r: u32) -> Key {
        let l = self.board.len();
        let pieces = line.as_slice();
        let tag = if self.target < l {
            Some(1)
        } else if pieces.iter().all(|&p| index(p) >= l) {
            Some(0)
        } else {
            None
        };
        match tag {
            Some(tag) => {
                let mut k = Line {
                    len: line.len,
                    pieces: [0; 32],
                };
                for (slot, &p) in k.pieces.iter_mut().zip(pieces) {
                    // Kept pieces are at most 2 * 12 + 8 holes behind, or
                    // at most `PAST` past the target (written 64 + that).
                    let at = usize::from(index(p));
                    let d = self.dist[at];
                    let code = if d <= reach(r) {
                        d as u8
                    } else {
                        64 + self.past[at]
                    };
                    *slot = (code << 1) | (p & 1);
                }
                k.pieces[..pieces.len()].sort_unstable();
                Key { tag, line: k }
            }
            None => Key {
                tag: 2 + self.target,
                line: *line,
            },
        }
    }

    /// Drop the pieces out of reach with `r` rethrows left, except those
    /// just past the target; sort.
    fn keep(&self, line: &mut Line, r: u32) {
        let reach = reach(r);
        let mut n = 0;
        for k in 0..usize::from(line.len) {
            let p = line.pieces[k];
            let at = usize::from(index(p));
            if self.dist[at] <= reach || self.past[at] != 0 {
                line.pieces[n] = p;
                n += 1;
            }
        }
        // Zero the tail: lines are compared and hashed whole.
        line.pieces[n..usize::from(line.len)].fill(0);
        line.len = n as u8;
        line.pieces[..n].sort_unstable();
    }

    /// Piece `i` of `pieces` moved `s` holes: its new path index, or
    /// `None` when another piece is on the way or on the last hole.
    fn walk(&self, pieces: &[Piece], i: usize, s: u8) -> Option<u8> {
        let row = &self.next[usize::from(index(pieces[i]))];
        for &at in &row[1..=usize::from(s)] {
            if pieces
                .iter()
                .enumerate()
                .any(|(j, &q)| j != i && index(q) == at)
            {
                return None;
            }
        }
        Some(row[usize::from(s)])
    }

    /// One die `d` on piece `i`: its new path index (undalt: only a dal).
    fn single(&self, pieces: &[Piece], i: usize, d: u8) -> Option<u8> {
        if undalt(pieces[i]) && d != 1 {
            return None;
        }
        self.walk(pieces, i, d)
    }

    /// Whether some relaxed play of `(x, y)` lands on the target. Only the
    /// nearest piece has a free road to it: it lands with one die or the
    /// sum (an undalt one: the dal, or the dal and then the other die), or
    /// it jumps over the target with one die and the next nearest lands
    /// with the other. That holds when all pieces come by one road; where
    /// two roads meet this scans `plays`. (The tests check the two agree.)
    pub(crate) fn captures(&self, pieces: &[Piece], x: u8, y: u8, r: u32) -> bool {
        match self.nearest(pieces, r) {
            Some(near) => self.captures_from(pieces, near, x, y),
            None => self.captures_general(pieces, x, y),
        }
    }

    /// Whether some relaxed play of `(x, y)` lands on the target, by any
    /// road: a piece at most `x + y` behind with a free way lands with one
    /// die, or the sum (an undalt one: the dal first); or another piece
    /// moves out of its way with one die and it lands with the other.
    /// The same as scanning `plays`, without building the positions.
    fn captures_general(&self, pieces: &[Piece], x: u8, y: u8) -> bool {
        let sum = u32::from(x + y);
        for (i, &p) in pieces.iter().enumerate() {
            let d = self.dist[usize::from(index(p))];
            if d > sum {
                continue;
            }
            let (x32, y32) = (u32::from(x), u32::from(y));
            let direct = if undalt(p) {
                (x == 1 && (d == 1 || d == 1 + y32)) || (y == 1 && (d == 1 || d == 1 + x32))
            } else {
                d == x32 || d == y32 || d == sum
            };
            if direct && self.walk(pieces, i, d as u8).is_some() {
                return true;
            }
            if undalt(p) {
                continue;
            }
            let mut after = [0u8; 32];
            for (a, b) in [(x, y), (y, x)] {
                if u32::from(b) != d {
                    continue;
                }
                for j in (0..pieces.len()).filter(|&j| j != i) {
                    let Some(to) = self.single(pieces, j, a) else {
                        continue;
                    };
                    if to == self.target {
                        return true;
                    }
                    after[..pieces.len()].copy_from_slice(pieces);
                    after[j] = to << 1;
                    if self.walk(&after[..pieces.len()], i, b).is_some() {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The nearest two pieces `(distance, index)` behind the target (within
    /// reach with `r` rethrows left; pieces past it only block) when all
    /// of them come to the target by one road; `None` when pieces on the
    /// start row and pieces on the loop behind the middle row's first hole
    /// (path index L) come by two roads that meet there, or when no piece
    /// is behind.
    #[allow(clippy::type_complexity)] // two (distance, index) pairs, the second optional
    fn nearest(&self, pieces: &[Piece], r: u32) -> Option<((u32, usize), Option<(u32, usize)>)> {
        let l = self.board.len();
        let reach = reach(r);
        let behind = |p: &Piece| self.dist[usize::from(index(*p))] <= reach;
        let start_row = pieces.iter().filter(|p| behind(p)).any(|&p| index(p) < l);
        let wrapped = pieces
            .iter()
            .filter(|p| behind(p))
            .any(|&p| index(p) >= l && index(p) > self.target);
        if start_row && wrapped {
            return None;
        }
        let mut first = (u32::MAX, 0);
        let mut second: Option<(u32, usize)> = None;
        for (k, &p) in pieces.iter().enumerate().filter(|(_, p)| behind(p)) {
            let d = (self.dist[usize::from(index(p))], k);
            if d < first {
                second = (first.0 != u32::MAX).then_some(first);
                first = d;
            } else if second.map_or(true, |s| d < s) {
                second = Some(d);
            }
        }
        (first.0 != u32::MAX).then_some((first, second))
    }

    fn captures_from(
        &self,
        pieces: &[Piece],
        near: ((u32, usize), Option<(u32, usize)>),
        x: u8,
        y: u8,
    ) -> bool {
        let ((d1, i1), second) = near;
        let (x32, y32) = (u32::from(x), u32::from(y));
        if undalt(pieces[i1]) {
            return (x == 1 && (d1 == 1 || d1 == 1 + y32))
                || (y == 1 && (d1 == 1 || d1 == 1 + x32));
        }
        if d1 == x32 || d1 == y32 || d1 == x32 + y32 {
            return true;
        }
        let Some((d2, i2)) = second else {
            return false;
        };
        if undalt(pieces[i2]) {
            return false;
        }
        [(x, y), (y, x)].iter().any(|&(a, b)| {
            u32::from(a) > d1 && d2 == u32::from(b) && self.walk(pieces, i1, a).is_some()
        })
    }

    /// Every relaxed play of throw `(x, y)` (unwanted dice spent
    /// elsewhere): `sink(None)` for a capture of the target, else
    /// `sink(Some(pieces after))` (unsorted). Stops early when `sink`
    /// returns `false`. The reference the shortcuts are tested against.
    #[cfg(test)]
    fn plays(
        &self,
        pieces: &[Piece],
        x: u8,
        y: u8,
        sink: &mut impl FnMut(Option<&[Piece]>) -> bool,
    ) {
        if !sink(Some(pieces)) {
            return;
        }
        let mut after = [0u8; 32];
        let mut two = [0u8; 32];
        let n = pieces.len();
        let orders: &[(u8, u8)] = if x == y { &[(x, y)] } else { &[(x, y), (y, x)] };
        for &(a, b) in orders {
            for i in 0..n {
                let Some(to) = self.single(pieces, i, a) else {
                    continue;
                };
                if to == self.target {
                    if !sink(None) {
                        return;
                    }
                    continue;
                }
                after[..n].copy_from_slice(pieces);
                after[i] = to << 1;
                let after = &after[..n];
                // The other die spent elsewhere.
                if !sink(Some(after)) {
                    return;
                }
                // The other die on another piece.
                for j in (0..n).filter(|&j| j != i) {
                    if let Some(to2) = self.single(after, j, b) {
                        if to2 == self.target {
                            if !sink(None) {
                                return;
                            }
                        } else {
                            two[..n].copy_from_slice(after);
                            two[j] = to2 << 1;
                            if !sink(Some(&two[..n])) {
                                return;
                            }
                        }
                    }
                }
                // Both dice on piece i: an added move (an undalt piece is
                // dalled first, so only with `a` the dal).
                if !undalt(pieces[i]) || a == 1 {
                    if let Some(to2) = self.walk(after, i, b) {
                        if to2 == self.target {
                            if !sink(None) {
                                return;
                            }
                        } else {
                            two[..n].copy_from_slice(after);
                            two[i] = to2 << 1;
                            if !sink(Some(&two[..n])) {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }

    /// The lines after every play of a dal-dal that captures nothing: both
    /// dals elsewhere, one piece one hole (the other dal elsewhere), one
    /// piece two holes (added), or two pieces one hole each (in whichever
    /// order works; when both do, the result is the same).
    fn daldal_children(&self, line: &Line) -> Vec<Line> {
        let pieces = line.as_slice();
        let n = pieces.len();
        let moved = |base: &Line, i: usize, to: u8| {
            let mut l = *base;
            l.pieces[i] = to << 1;
            l
        };
        let mut out = vec![*line];
        for i in 0..n {
            let first = self.single(pieces, i, 1).map(|to| moved(line, i, to));
            if let Some(after) = &first {
                out.push(*after);
                if let Some(to2) = self.walk(after.as_slice(), i, 1) {
                    out.push(moved(after, i, to2));
                }
            }
            for j in i + 1..n {
                let i_then_j =
                    first.and_then(|a| self.single(a.as_slice(), j, 1).map(|to| moved(&a, j, to)));
                let pair = i_then_j.or_else(|| {
                    let a = moved(line, j, self.single(pieces, j, 1)?);
                    self.single(a.as_slice(), i, 1).map(|to| moved(&a, i, to))
                });
                if let Some(p) = pair {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Value with `r` rethrows left, in units of `1 / (15 * 16^(r+1))`.
    pub(crate) fn value(&mut self, line: &Line, r: u32) -> u64 {
        let reach = reach(r);
        if !line
            .as_slice()
            .iter()
            .any(|&p| self.dist[usize::from(index(p))] <= reach)
        {
            return 0;
        }
        let pieces = line.as_slice();
        let near = self.nearest(pieces, r);
        // By distance where one road leads to the target and no piece is
        // both behind it (round the loop) and just past it: a `Lin` holds
        // each piece once, and its children keep that (a dal-dal moves a
        // piece at most 2, and one within 2 of the target captures).
        let ambiguous = pieces.iter().any(|&p| {
            let at = usize::from(index(p));
            self.past[at] != 0 && self.dist[at] <= reach
        });
        if near.is_some() && self.linear && !ambiguous {
            return self.value_lin(self.to_lin(pieces, r), r);
        }
        if near.is_none() && self.linear && !ambiguous {
            return self.value_two(self.to_two(pieces, r), r);
        }
        let key = self.key(line, r);
        if let Some(&v) = self.memo.borrow().lines.get(&(key, r)) {
            return v;
        }
        let scale = 16u64.pow(r);
        let weight: u64 = Throw::DISTINCT
            .iter()
            .filter(|(t, _)| {
                !t.is_daldal()
                    && match near {
                        Some(nr) => self.captures_from(pieces, nr, t.first, t.second),
                        None => self.captures(pieces, t.first, t.second, r),
                    }
            })
            .map(|&(_, w)| u64::from(w))
            .sum();
        let one = 15 * scale;
        // The dal-dal: by one road it captures exactly when the nearest
        // piece is 1 or 2 holes away (one dal, or both added; an undalt
        // piece is dalled first); by two, scan the plays.
        let captured = match near {
            Some(((d1, _), _)) => d1 <= 2,
            None => self.captures_general(pieces, 1, 1),
        };
        let mut best = 0u64;
        if captured {
            best = one;
        } else if r > 0 {
            let mut children = self.daldal_children(line);
            for c in children.iter_mut() {
                self.keep(c, r - 1);
            }
            children.sort_unstable_by(|a, b| a.as_slice().cmp(b.as_slice()));
            children.dedup();
            for c in &children {
                best = best.max(self.value(c, r - 1));
            }
        }
        let v = weight * 15 * scale + best;
        self.memo.borrow_mut().lines.insert((key, r), v);
        v
    }

    /// A one-road line by signed distances (see `Lin`).
    fn to_lin(&self, pieces: &[Piece], r: u32) -> Lin {
        let reach = reach(r);
        let mut l = Lin { occ: 0, undalt: 0 };
        for &p in pieces {
            let at = usize::from(index(p));
            let d = self.dist[at];
            let code = if d <= reach {
                d as i32
            } else {
                -i32::from(self.past[at])
            };
            l.occ |= bit(code);
            if undalt(p) {
                l.undalt |= bit(code);
            }
        }
        l
    }

    /// A two-road line by signed distances (see `Two`).
    fn to_two(&self, pieces: &[Piece], r: u32) -> Two {
        let reach = reach(r);
        let l = self.board.len();
        let merge = i32::from(self.target) - i32::from(l);
        let mut t = Two {
            common: 0,
            road: [0; 2],
            undalt: 0,
            merge,
        };
        for &p in pieces {
            let at = usize::from(index(p));
            let d = self.dist[at];
            if d > reach {
                t.common |= bit(-i32::from(self.past[at]));
                continue;
            }
            let d = d as i32;
            if d <= merge {
                t.common |= bit(d);
            } else if index(p) < l {
                t.road[0] |= bit(d);
                if undalt(p) {
                    t.undalt |= bit(d);
                }
            } else {
                t.road[1] |= bit(d);
            }
        }
        t
    }

    /// `value` of a two-road line (see `Two`); once one road is empty it
    /// is a one-road line (`Lin`).
    fn value_two(&mut self, t: Two, r: u32) -> u64 {
        for k in 0..2 {
            if t.road[k] == 0 {
                let occ = t.common | t.road[1 - k];
                return self.value_lin(
                    Lin {
                        occ,
                        undalt: t.undalt,
                    },
                    r,
                );
            }
        }
        let key = t.key(r);
        if let Some(&v) = self.memo.borrow().two.get(&key) {
            return v;
        }
        let weight: u64 = Throw::DISTINCT
            .iter()
            .filter(|(th, _)| {
                !th.is_daldal() && t.captures(i32::from(th.first), i32::from(th.second))
            })
            .map(|&(_, w)| u64::from(w))
            .sum();
        let scale = 16u64.pow(r);
        let one = 15 * scale;
        let mut best = 0u64;
        if t.captures(1, 1) {
            best = one;
        } else if r > 0 {
            let reach = reach(r - 1);
            let mut visit = |this: &mut Relaxed, mut c: Two| {
                c.keep(reach);
                best = best.max(this.value_two(c, r - 1));
            };
            visit(self, t);
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
                if let Some(two) = one_step.step(k1, d - 1, 1) {
                    visit(self, two);
                }
                // A piece still out of reach after one hole is dropped
                // from the child: moving it so is the same as not.
                if d - 1 > reach as i32 {
                    continue;
                }
                visit(self, one_step);
                for &(kj, e) in all[n + 1..].iter().filter(|p| p.1 - 1 <= reach as i32) {
                    let pair = one_step
                        .step(kj, e, 1)
                        .or_else(|| t.step(kj, e, 1).and_then(|a| a.step(k, d, 1)));
                    if let Some(pair) = pair {
                        visit(self, pair);
                    }
                }
            }
        }
        let v = weight * 15 * scale + best;
        self.memo.borrow_mut().two.insert(key, v);
        v
    }

    /// `value` of a one-road line (see `Lin`): the same rules, by
    /// distance. Only the nearest piece behind the target has a free road
    /// to it; it lands with one die or the sum (undalt: the dal, or the
    /// dal and then the other die), or it jumps over the target with one
    /// die (unless a piece past the target is in the way) and the next one
    /// lands with the other.
    fn value_lin(&mut self, l: Lin, r: u32) -> u64 {
        let behind = l.occ & !(bit(1) - 1);
        if behind == 0 {
            return 0;
        }
        let key = l.key(r);
        if let Some(&v) = self.memo.borrow().lin.get(&key) {
            return v;
        }
        let off = PAST as i32;
        let d1 = behind.trailing_zeros() as i32 - off;
        let near_undalt = l.undalt & bit(d1) != 0;
        let rest = behind & !bit(d1);
        let second = (rest != 0 && l.undalt & rest & rest.wrapping_neg() == 0)
            .then(|| rest.trailing_zeros() as i32 - off);
        let captures = |x: i32, y: i32| -> bool {
            if near_undalt {
                return (x == 1 && (d1 == 1 || d1 == 1 + y))
                    || (y == 1 && (d1 == 1 || d1 == 1 + x));
            }
            if d1 == x || d1 == y || d1 == x + y {
                return true;
            }
            let Some(d2) = second else {
                return false;
            };
            [(x, y), (y, x)]
                .iter()
                .any(|&(a, b)| a > d1 && d2 == b && l.step(d1, a).is_some())
        };
        let weight: u64 = Throw::DISTINCT
            .iter()
            .filter(|(t, _)| !t.is_daldal() && captures(i32::from(t.first), i32::from(t.second)))
            .map(|&(_, w)| u64::from(w))
            .sum();
        let scale = 16u64.pow(r);
        let one = 15 * scale;
        let mut best = 0u64;
        if d1 <= 2 {
            // One dal, or both added (an undalt piece is dalled first).
            best = one;
        } else if r > 0 {
            let reach = reach(r - 1);
            let mut visit = |this: &mut Relaxed, mut c: Lin| {
                c.keep(reach);
                best = best.max(this.value_lin(c, r - 1));
            };
            visit(self, l);
            let mut pieces = l.occ;
            while pieces != 0 {
                let b = pieces & pieces.wrapping_neg();
                pieces &= !b;
                let d = b.trailing_zeros() as i32 - off;
                let Some(one_step) = l.step(d, 1) else {
                    continue;
                };
                if let Some(two) = one_step.step(d - 1, 1) {
                    visit(self, two);
                }
                // A piece still out of reach after one hole is dropped
                // from the child: moving it so is the same as not.
                if d - 1 > reach as i32 {
                    continue;
                }
                visit(self, one_step);
                // Two pieces a hole each: the nearer first (it can only
                // make room for the other).
                let mut others = pieces & ((bit(reach as i32 + 1) << 1) - 1);
                while others != 0 {
                    let c = others & others.wrapping_neg();
                    others &= !c;
                    let e = c.trailing_zeros() as i32 - off;
                    if let Some(pair) = one_step.step(e, 1) {
                        visit(self, pair);
                    }
                }
            }
        }
        let v = weight * 15 * scale + best;
        self.memo.borrow_mut().lin.insert(key, v);
        v
    }
}

/// The relaxed model for "at least one capture": the same relaxation as
/// `Relaxed` (unwanted dice spent elsewhere for free, `dal=any`, no game
/// end), with every enemy piece a target; a play wins as soon as a piece
/// lands on any of them. Pieces that can reach no target in the rethrows
/// left and stand no more than `PAST` past none are left out (they block
/// nothing that matters, as for one target). An upper bound on the board
/// value of "any", cut after the same number of rethrows.
#[derive(Debug)]
pub(crate) struct RelaxedAny {
    /// Moves and blocking (target-free parts of `Relaxed`).
    moves: Relaxed,
    /// Per path index: a target stands there.
    target: Vec<bool>,
    /// Per path index: holes to the nearest target ahead (`u32::MAX`:
    /// none can be reached).
    dist: Vec<u32>,
    /// Per path index: at most `PAST` past some target.
    past: Vec<bool>,
    memo: HashMap<(Line, u32), u64>,
}

impl RelaxedAny {
    /// The model for the side to move of `pos` against every enemy piece
    /// (`None` when the enemy has none).
    pub(crate) fn new(pos: &Position) -> Option<RelaxedAny> {
        let board = pos.board();
        let side = pos.side_to_move();
        let targets: Vec<Hole> = pos.pieces(side.other()).collect();
        let moves = Relaxed::new(board, side, *targets.first()?, memo());
        let last = usize::from(3 * board.len());
        let mut target = vec![false; last + 1];
        let mut past = vec![false; last + 1];
        let mut dist = vec![u32::MAX; last + 1];
        for &t in &targets {
            let ti = board.path_index(side, t);
            target[usize::from(ti)] = true;
            for k in 1..=PAST {
                past[usize::from(board.advance(ti, u32::from(k)))] = true;
            }
            for (p, d) in dist.iter_mut().enumerate() {
                if let Some(e) = board.path_distance(side, board.hole_at(side, p as u8), t) {
                    *d = (*d).min(e);
                }
            }
        }
        Some(RelaxedAny {
            moves,
            target,
            dist,
            past,
            memo: HashMap::new(),
        })
    }

    /// The pieces of `pos` that matter with `r` rethrows left.
    pub(crate) fn project(&self, pos: &Position, r: u32) -> Line {
        let mut line = self.moves.project_all(pos);
        self.keep(&mut line, r);
        line
    }

    fn keep(&self, line: &mut Line, r: u32) {
        let reach = reach(r);
        let mut n = 0;
        for k in 0..usize::from(line.len) {
            let p = line.pieces[k];
            let at = usize::from(index(p));
            if self.dist[at] <= reach || self.past[at] {
                line.pieces[n] = p;
                n += 1;
            }
        }
        line.pieces[n..usize::from(line.len)].fill(0);
        line.len = n as u8;
        line.pieces[..n].sort_unstable();
    }

    fn hits(&self, to: u8) -> bool {
        self.target[usize::from(to)]
    }

    /// Whether some relaxed play of `(x, y)` lands on a target: a piece
    /// with one die or the sum (undalt: the dal first), or one piece moves
    /// with one die and another lands with the other.
    fn captures(&self, pieces: &[Piece], x: u8, y: u8) -> bool {
        let m = &self.moves;
        let orders: &[(u8, u8)] = if x == y { &[(x, y)] } else { &[(x, y), (y, x)] };
        let mut after = [0u8; 32];
        let n = pieces.len();
        for &(a, b) in orders {
            for i in 0..n {
                let Some(to) = m.single(pieces, i, a) else {
                    continue;
                };
                if self.hits(to) {
                    return true;
                }
                after[..n].copy_from_slice(pieces);
                after[i] = to << 1;
                let after = &after[..n];
                if (!undalt(pieces[i]) || a == 1)
                    && m.walk(after, i, b).is_some_and(|t| self.hits(t))
                {
                    return true;
                }
                for j in (0..n).filter(|&j| j != i) {
                    if m.single(after, j, b).is_some_and(|t| self.hits(t)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Value with `r` rethrows left, in units of `1 / (15 * 16^(r+1))`.
    pub(crate) fn value(&mut self, line: &Line, r: u32) -> u64 {
        let reach = reach(r);
        let pieces = line.as_slice();
        if !pieces
            .iter()
            .any(|&p| self.dist[usize::from(index(p))] <= reach)
        {
            return 0;
        }
        if let Some(&v) = self.memo.get(&(*line, r)) {
            return v;
        }
        let weight: u64 = Throw::DISTINCT
            .iter()
            .filter(|(t, _)| !t.is_daldal() && self.captures(pieces, t.first, t.second))
            .map(|&(_, w)| u64::from(w))
            .sum();
        let scale = 16u64.pow(r);
        let one = 15 * scale;
        let mut best = 0u64;
        if self.captures(pieces, 1, 1) {
            best = one;
        } else if r > 0 {
            let mut children = self.moves.daldal_children(line);
            for c in children.iter_mut() {
                self.keep(c, r - 1);
            }
            children.sort_unstable_by(|a, b| a.as_slice().cmp(b.as_slice()));
            children.dedup();
            for c in &children {
                best = best.max(self.value(c, r - 1));
            }
        }
        let v = weight * 15 * scale + best;
        self.memo.insert((*line, r), v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dalkon_rules::daldos::{plays, Throw, Variants};

    /// The shortcut `captures` agrees with scanning every relaxed play, on
    /// the lines of positions reached by random play on a small board.
    #[test]
    fn capture_shortcut_matches_the_plays() {
        let board = Board::new(7).unwrap();
        let v = Variants::default();
        let mut seed = 12345u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize
        };
        let mut checked = 0;
        for _ in 0..40 {
            let mut pos = Position::start(board);
            for _ in 0..30 {
                let moves = plays(&pos, &v, Throw::ALL[next() % 16]);
                if moves.is_empty() {
                    break;
                }
                pos = moves[next() % moves.len()].result;
                let side = pos.side_to_move();
                for t in pos.pieces(side.other()) {
                    let rel = Relaxed::new(board, side, t, memo());
                    for r in 0..3 {
                        let line = rel.project(&pos, r);
                        for &(th, _) in &Throw::DISTINCT {
                            let mut scan = false;
                            rel.plays(line.as_slice(), th.first, th.second, &mut |o| {
                                scan |= o.is_none();
                                true
                            });
                            assert_eq!(
                                rel.captures_general(line.as_slice(), th.first, th.second),
                                scan,
                                "{pos} target {} throw {th} (general)",
                                board.hole_name(t)
                            );
                            assert_eq!(
                                rel.captures(line.as_slice(), th.first, th.second, r),
                                scan,
                                "{pos} target {} throw {th}",
                                board.hole_name(t)
                            );
                            checked += 1;
                        }
                        if let Some(((d1, _), _)) = rel.nearest(line.as_slice(), r) {
                            let mut scan = false;
                            rel.plays(line.as_slice(), 1, 1, &mut |o| {
                                scan |= o.is_none();
                                true
                            });
                            assert_eq!(d1 <= 2, scan, "{pos} dal-dal");
                            if !scan {
                                let norm = |mut v: Vec<Line>| {
                                    for c in v.iter_mut() {
                                        c.pieces[..usize::from(c.len)].sort_unstable();
                                    }
                                    v.sort_unstable_by(|a, b| a.as_slice().cmp(b.as_slice()));
                                    v.dedup();
                                    v
                                };
                                let mut scanned = Vec::new();
                                rel.plays(line.as_slice(), 1, 1, &mut |o| {
                                    if let Some(after) = o {
                                        let mut l = Line {
                                            len: after.len() as u8,
                                            pieces: [0; 32],
                                        };
                                        l.pieces[..after.len()].copy_from_slice(after);
                                        scanned.push(l);
                                    }
                                    true
                                });
                                assert_eq!(
                                    norm(rel.daldal_children(&line)),
                                    norm(scanned),
                                    "{pos} dal-dal children"
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    /// One-road lines by distance (`Lin`) give the values of the same
    /// lines by path index, on the positions of random play on both a
    /// small board and the Danish one (where the targets share states).
    #[test]
    fn lines_by_distance_match_lines_by_index() {
        let v = Variants::default();
        let mut seed = 777u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize
        };
        let mut checked = 0;
        for (board, games, turns) in [(Board::new(7).unwrap(), 15, 30), (Board::DANISH, 4, 40)] {
            for _ in 0..games {
                let mut pos = Position::start(board);
                for _ in 0..turns {
                    let moves = plays(&pos, &v, Throw::ALL[next() % 16]);
                    if moves.is_empty() {
                        break;
                    }
                    pos = moves[next() % moves.len()].result;
                    let side = pos.side_to_move();
                    let (fast, slow) = (memo(), memo());
                    for t in pos.pieces(side.other()) {
                        let mut a = Relaxed::new(board, side, t, fast.clone());
                        let mut b = Relaxed::new(board, side, t, slow.clone());
                        b.linear = false;
                        for r in [0, 1, 3] {
                            let line = a.project(&pos, r);
                            assert_eq!(
                                a.value(&line, r),
                                b.value(&line, r),
                                "{pos} target {} r={r}",
                                board.hole_name(t)
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
