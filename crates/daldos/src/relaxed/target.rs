//! The relaxed model for one side capturing one target (`Relaxed`), on
//! lines of pieces by path index; where the pieces come by one road it
//! hands the line to `Lin`, where two roads meet to `Two`, both by
//! distance and shared by the targets of a position.

use dalkon_rules::daldos::{Board, Hole, Position, Side};

use super::lin::Lin;
use super::two::Two;
use super::{bit, index, lands, reach, turn, undalt, Key, Line, Memo, Piece, PAST};

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

/// The nearest two pieces behind the target, `(distance, index in the
/// line)`, the second optional (see `Relaxed::nearest`).
type Nearest = ((u32, usize), Option<(u32, usize)>);

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
    pub(super) fn project_all(&self, pos: &Position) -> Line {
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
    pub(super) fn walk(&self, pieces: &[Piece], i: usize, s: u8) -> Option<u8> {
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
    pub(super) fn single(&self, pieces: &[Piece], i: usize, d: u8) -> Option<u8> {
        if undalt(pieces[i]) && d != 1 {
            return None;
        }
        self.walk(pieces, i, d)
    }

    /// Whether some relaxed play of `(x, y)` lands on the target, `near`
    /// being `nearest` of the pieces. Only the nearest piece has a free
    /// road to it: it lands with one die or the sum (an undalt one: the
    /// dal, or the dal and then the other die), or it jumps over the target
    /// with one die and the next nearest lands with the other. That holds
    /// when all pieces come by one road; where two roads meet (`near` is
    /// `None`) this takes `captures_general`. (The tests check both agree
    /// with scanning `plays`.)
    fn captures(&self, pieces: &[Piece], near: Option<Nearest>, x: u8, y: u8) -> bool {
        match near {
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
            // `d <= x + y <= 12` here.
            let direct = lands(d as i32, i32::from(x), i32::from(y), undalt(p));
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
    fn nearest(&self, pieces: &[Piece], r: u32) -> Option<Nearest> {
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

    fn captures_from(&self, pieces: &[Piece], near: Nearest, x: u8, y: u8) -> bool {
        let ((d1, i1), second) = near;
        // `d1` is within reach (at most 2 * 12 + 8).
        if lands(d1 as i32, i32::from(x), i32::from(y), undalt(pieces[i1])) {
            return true;
        }
        // An undalt piece's first die is the dal: it cannot jump over.
        let (false, Some((d2, i2))) = (undalt(pieces[i1]), second) else {
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
    /// The distinct lines a dal-dal that captures nothing leaves
    /// (`daldal_children`), each cut by `keep` to the pieces that matter
    /// with one rethrow less, in order. Shared by this model and
    /// `RelaxedAny`, which keep different pieces.
    pub(super) fn rethrow_lines(&self, line: &Line, keep: impl Fn(&mut Line)) -> Vec<Line> {
        let mut children = self.daldal_children(line);
        for c in children.iter_mut() {
            keep(c);
        }
        children.sort_unstable_by(|a, b| a.as_slice().cmp(b.as_slice()));
        children.dedup();
        children
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
        // By distance where no piece is both behind the target (round the
        // loop) and just past it: a `Lin` or `Two` holds each piece once,
        // and its children keep that (a dal-dal moves a piece at most 2,
        // and one within 2 of the target captures). One road gives a
        // `Lin`, two that meet a `Two`.
        let ambiguous = pieces.iter().any(|&p| {
            let at = usize::from(index(p));
            self.past[at] != 0 && self.dist[at] <= reach
        });
        if self.linear && !ambiguous {
            return match near {
                Some(_) => {
                    let l = self.to_lin(pieces, r);
                    l.value(r, &mut self.memo.borrow_mut().lin)
                }
                None => {
                    let t = self.to_two(pieces, r);
                    t.value(r, &mut self.memo.borrow_mut())
                }
            };
        }
        let key = self.key(line, r);
        if let Some(&v) = self.memo.borrow().lines.get(&(key, r)) {
            return v;
        }
        let v = turn(
            self,
            r,
            |m, x, y| m.captures(pieces, near, x, y),
            |m| {
                let children = m.rethrow_lines(line, |c| m.keep(c, r - 1));
                children
                    .iter()
                    .map(|c| m.value(c, r - 1))
                    .max()
                    .unwrap_or(0)
            },
        );
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relaxed::memo;
    use crate::testing::random_positions;
    use dalkon_rules::daldos::Throw;

    /// The shortcut `captures` agrees with scanning every relaxed play, on
    /// the lines of positions reached by random play on a small board.
    #[test]
    fn capture_shortcut_matches_the_plays() {
        let board = Board::new(7).unwrap();
        let mut checked = 0;
        for pos in random_positions(board, 40, 30, 12345) {
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
                            rel.captures(
                                line.as_slice(),
                                rel.nearest(line.as_slice(), r),
                                th.first,
                                th.second
                            ),
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
        assert!(checked > 1000);
    }

    /// One-road lines by distance (`Lin`) give the values of the same
    /// lines by path index, on the positions of random play on both a
    /// small board and the Danish one (where the targets share states).
    #[test]
    fn lines_by_distance_match_lines_by_index() {
        let mut checked = 0;
        for (board, games, turns) in [(Board::new(7).unwrap(), 15, 30), (Board::DANISH, 4, 40)] {
            for pos in random_positions(board, games, turns, 777) {
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
        assert!(checked > 1000, "{checked}");
    }
}
