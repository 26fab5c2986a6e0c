//! The index of a layer: every position with `a` pieces of A and `b` of B,
//! A to throw, ranked combinatorially (0 to `size - 1`).
//!
//! A position splits into
//! - A's *row pattern*: its pieces on its own start row `A1..AL`, each
//!   undalt or dalt (a dalt piece never stands on `A1`: A's path starts
//!   there and never comes back, so no game reaches it);
//! - B's row pattern on `B1..BL`, the same way;
//! - the *loop pieces*: A's pieces on the middle row or row B, B's pieces
//!   on the middle row or row A, all dalt, on the holes the patterns leave
//!   free.
//!
//! Only loop pieces can move without changing a pattern: a pattern changes
//! only forwards (a piece is dalled, moves on along its row or leaves it),
//! so positions with the same two patterns (and their mirror images) are
//! the only ones that can cycle among themselves. The rank keeps each such
//! *component* contiguous: positions are ordered by `(kA, kB)` (pieces on
//! the two patterns), then A's pattern, then B's, then the loop placement.
//!
//! Size of a layer (the formula [`LayerIndex::size`] follows; tested against
//! enumeration and against the generating function
//! `[x^a y^b] (1+x+y)^(L+3) (1+2x+y)^(L-1) (1+x+2y)^(L-1)`):
//!
//! `N(a,b) = Σ_{kA ≤ a, kB ≤ b} P(kA) · P(kB) · loops(kA, kB)` with
//! `P(k) = [x^k] (1+x)(1+2x)^(L-1)` row patterns of `k` pieces and
//! `loops(kA,kB) = Σ_{i,j} C(L-kB, a-kA-i) · C(L-kA, b-kB-j) · (L+1)! / (i! j! (L+1-i-j)!)`
//! placements with `i` of A's and `j` of B's loop pieces on the middle row.

use dalkon_rules::daldos::{Board, Position, Side};

/// A layer: the board and the pieces of each side, A to throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LayerKey {
    /// The board.
    pub board: Board,
    /// Pieces of A (the side to throw).
    pub a: u8,
    /// Pieces of B.
    pub b: u8,
}

impl LayerKey {
    /// The layer of `pos` once B-to-throw positions are mirrored (the
    /// layer its value is stored in).
    pub fn of(pos: &Position) -> LayerKey {
        let (mover, other) = (pos.side_to_move(), pos.side_to_move().other());
        LayerKey {
            board: pos.board(),
            a: pos.count(mover) as u8,
            b: pos.count(other) as u8,
        }
    }

    /// The layer with the two sides exchanged.
    pub fn swapped(self) -> LayerKey {
        LayerKey {
            board: self.board,
            a: self.b,
            b: self.a,
        }
    }
}

/// The number of positions of layer `key` in floating point, from the
/// generating function of the module doc: never saturated, so it still
/// tells layers apart (and says how large) where the exact count does not
/// fit in 64 bits, and cheap where building the index of such a layer is
/// not (its tables grow with the pieces). Within rounding of
/// [`LayerIndex::size`] wherever that is below 2^53.
pub fn approx_size(key: LayerKey) -> f64 {
    let l = i32::from(key.board.len());
    let (a, b) = (usize::from(key.a), usize::from(key.b));
    // Coefficients of x^i y^j, i ≤ a and j ≤ b: higher powers never matter.
    let mut poly = vec![0.0f64; (a + 1) * (b + 1)];
    poly[0] = 1.0;
    let factors = [
        ((1.0, 1.0), l + 3),
        ((2.0, 1.0), l - 1),
        ((1.0, 2.0), l - 1),
    ];
    for ((cx, cy), times) in factors {
        for _ in 0..times {
            // Multiply by (1 + cx x + cy y), highest powers first so that
            // each term is read before it is updated.
            for i in (0..=a).rev() {
                for j in (0..=b).rev() {
                    let mut v = poly[i * (b + 1) + j];
                    if i > 0 {
                        v += cx * poly[(i - 1) * (b + 1) + j];
                    }
                    if j > 0 {
                        v += cy * poly[i * (b + 1) + j - 1];
                    }
                    poly[i * (b + 1) + j] = v;
                }
            }
        }
    }
    poly[a * (b + 1) + b]
}

/// A start-row pattern: bit `c - 1` of `occupied` for a piece on column
/// `c`, the same bit of `undalt` when it is undalt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pattern {
    /// Columns holding a piece.
    pub occupied: u32,
    /// Columns holding an undalt piece (a subset of `occupied`).
    pub undalt: u32,
}

impl Pattern {
    /// Pieces on the row.
    pub fn pieces(self) -> u32 {
        self.occupied.count_ones()
    }

    /// A measure that every change of the pattern by its owner's play
    /// raises unless it lowers [`Pattern::pieces`]: the sum over pieces of
    /// `2 · column`, plus one for a dalt piece. Dalling (`2c` to
    /// `2(c+1) + 1`) and moving on (`2c + 1` to `2(c+d) + 1`) raise it.
    pub fn progress(self) -> u32 {
        let mut sum = 0;
        let mut m = self.occupied;
        while m != 0 {
            let c = m.trailing_zeros();
            sum += 2 * (c + 1) + u32::from(self.undalt & (1 << c) == 0);
            m &= m - 1;
        }
        sum
    }
}

/// Row patterns of one row length, ranked among those with the same
/// number of pieces.
#[derive(Debug, Clone)]
struct Patterns {
    len: usize,
    max: usize,
    /// `ways[c * (max+1) + k]`: fillings of columns `c..len` with `k` pieces.
    ways: Vec<u64>,
}

impl Patterns {
    fn new(len: usize, max: usize) -> Patterns {
        let w = max + 1;
        let mut ways = vec![0u64; (len + 1) * w];
        ways[len * w] = 1;
        for c in (0..len).rev() {
            let states = if c == 0 { 2 } else { 3 };
            for k in 0..=max {
                let mut n = ways[(c + 1) * w + k];
                if k > 0 {
                    n = n.saturating_add(
                        (states as u64 - 1).saturating_mul(ways[(c + 1) * w + k - 1]),
                    );
                }
                ways[c * w + k] = n;
            }
        }
        Patterns { len, max, ways }
    }

    fn at(&self, c: usize, k: usize) -> u64 {
        self.ways[c * (self.max + 1) + k]
    }

    /// Patterns with `k` pieces.
    fn count(&self, k: usize) -> u64 {
        self.at(0, k)
    }

    /// Rank of `p` among the patterns with its number of pieces: columns
    /// in order, each state below the actual one counting the fillings of
    /// the rest (empty < undalt < dalt).
    fn rank(&self, p: Pattern) -> u64 {
        let mut k = p.pieces() as usize;
        let mut r = 0;
        let mut m = p.occupied;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            r += self.at(c + 1, k);
            if p.undalt & (1 << c) == 0 {
                r += self.at(c + 1, k - 1);
            }
            k -= 1;
            m &= m - 1;
        }
        r
    }

    fn unrank(&self, k: usize, mut r: u64) -> Pattern {
        let mut p = Pattern {
            occupied: 0,
            undalt: 0,
        };
        let mut k = k;
        for c in 0..self.len {
            if k == 0 {
                break;
            }
            let empty = self.at(c + 1, k);
            if r < empty {
                continue;
            }
            r -= empty;
            let one = self.at(c + 1, k - 1);
            p.occupied |= 1 << c;
            if r < one {
                p.undalt |= 1 << c;
            } else {
                r -= one;
            }
            k -= 1;
        }
        p
    }
}

/// Loop placements for one pair of pattern sizes: the free holes in hole
/// order are `L - kA` on row A (B's pieces only), `L + 1` on the middle
/// row (either side), `L - kB` on row B (A's pieces only).
#[derive(Debug, Clone)]
struct Loops {
    row_a: usize,
    mid: usize,
    na: usize,
    nb: usize,
    /// `ways[(t * (na+1) + i) * (nb+1) + j]`: fillings of free holes `t..`
    /// with `i` of A's and `j` of B's loop pieces.
    ways: Vec<u64>,
}

impl Loops {
    fn new(l: usize, ka: usize, kb: usize, na: usize, nb: usize) -> Loops {
        let row_a = l - ka;
        let mid = l + 1;
        let holes = row_a + mid + (l - kb);
        let mut lp = Loops {
            row_a,
            mid,
            na,
            nb,
            ways: vec![0; (holes + 1) * (na + 1) * (nb + 1)],
        };
        let end = lp.at_index(holes, 0, 0);
        lp.ways[end] = 1;
        for t in (0..holes).rev() {
            let (may_a, may_b) = lp.allowed(t);
            for i in 0..=na {
                for j in 0..=nb {
                    let mut n = lp.ways[lp.at_index(t + 1, i, j)];
                    if may_a && i > 0 {
                        n = n.saturating_add(lp.ways[lp.at_index(t + 1, i - 1, j)]);
                    }
                    if may_b && j > 0 {
                        n = n.saturating_add(lp.ways[lp.at_index(t + 1, i, j - 1)]);
                    }
                    let at = lp.at_index(t, i, j);
                    lp.ways[at] = n;
                }
            }
        }
        lp
    }

    fn at_index(&self, t: usize, i: usize, j: usize) -> usize {
        (t * (self.na + 1) + i) * (self.nb + 1) + j
    }

    fn at(&self, t: usize, i: usize, j: usize) -> u64 {
        self.ways[self.at_index(t, i, j)]
    }

    /// Which sides may stand on free hole `t`.
    fn allowed(&self, t: usize) -> (bool, bool) {
        if t < self.row_a {
            (false, true)
        } else if t < self.row_a + self.mid {
            (true, true)
        } else {
            (true, false)
        }
    }

    fn count(&self) -> u64 {
        self.at(0, self.na, self.nb)
    }
}

/// One `(kA, kB)` block of a layer.
#[derive(Debug, Clone)]
struct Block {
    base: u64,
    patterns_a: u64,
    patterns_b: u64,
    loops: Loops,
}

/// The ranking of one layer.
#[derive(Debug, Clone)]
pub struct LayerIndex {
    key: LayerKey,
    l: u32,
    patterns: Patterns,
    /// `blocks[kA * (b+1) + kB]`.
    blocks: Vec<Block>,
    size: u64,
}

/// Where a position sits in its layer: its component (the two patterns)
/// and its place inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// Pieces on A's and B's patterns.
    pub k: (u8, u8),
    /// Ranks of the two patterns.
    pub patterns: (u64, u64),
    /// Rank of the loop placement inside the component.
    pub loop_rank: u64,
}

/// One component of a layer: the positions sharing two row patterns,
/// ranks `start .. start + len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Component {
    /// A's pattern.
    pub a: Pattern,
    /// B's pattern.
    pub b: Pattern,
    /// Rank of its first position.
    pub start: u64,
    /// Number of positions.
    pub len: u64,
}

impl LayerIndex {
    /// The index of layer `key`.
    pub fn new(key: LayerKey) -> LayerIndex {
        let l = usize::from(key.board.len());
        let (a, b) = (usize::from(key.a), usize::from(key.b));
        let patterns = Patterns::new(l, a.max(b));
        let mut blocks = Vec::with_capacity((a + 1) * (b + 1));
        let mut base = 0u64;
        for ka in 0..=a {
            for kb in 0..=b {
                let loops = Loops::new(l, ka.min(l), kb.min(l), a - ka, b - kb);
                let (pa, pb) = (patterns.count(ka), patterns.count(kb));
                let block = Block {
                    base,
                    patterns_a: pa,
                    patterns_b: pb,
                    loops,
                };
                // Saturating: a layer of 2^64 positions or more (only on
                // boards far beyond what can be solved) reads as u64::MAX,
                // which the memory check then refuses.
                base =
                    base.saturating_add(pa.saturating_mul(pb).saturating_mul(block.loops.count()));
                blocks.push(block);
            }
        }
        LayerIndex {
            key,
            l: l as u32,
            patterns,
            blocks,
            size: base,
        }
    }

    /// The layer.
    pub fn key(&self) -> LayerKey {
        self.key
    }

    /// Number of positions (`u64::MAX` for a layer too large to count in
    /// 64 bits: no such layer can be built).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Positions of the largest component.
    pub fn largest_component(&self) -> u64 {
        self.blocks
            .iter()
            .filter(|b| b.patterns_a * b.patterns_b > 0)
            .map(|b| b.loops.count())
            .max()
            .unwrap_or(0)
    }

    fn block(&self, ka: usize, kb: usize) -> &Block {
        &self.blocks[ka * (usize::from(self.key.b) + 1) + kb]
    }

    fn row_mask(&self) -> u128 {
        (1u128 << self.l) - 1
    }

    fn b_shift(&self) -> u32 {
        2 * self.l + 1
    }

    /// The two row patterns of `pos`.
    pub fn patterns_of(&self, pos: &Position) -> (Pattern, Pattern) {
        let row = self.row_mask();
        let sh = self.b_shift();
        let und = pos.undalt_mask();
        let pa = pos.mask(Side::A) & row;
        let pb = (pos.mask(Side::B) >> sh) & row;
        (
            Pattern {
                occupied: pa as u32,
                undalt: (und & pa) as u32,
            },
            Pattern {
                occupied: pb as u32,
                undalt: ((und >> sh) & pb) as u32,
            },
        )
    }

    /// Whether `pos` belongs to this layer: this board, the layer's piece
    /// counts, A to throw, and no dalt piece on its owner's first hole.
    pub fn contains(&self, pos: &Position) -> bool {
        if pos.board() != self.key.board
            || pos.side_to_move() != Side::A
            || pos.count(Side::A) != usize::from(self.key.a)
            || pos.count(Side::B) != usize::from(self.key.b)
        {
            return false;
        }
        let (pa, pb) = self.patterns_of(pos);
        pa.occupied & 1 == pa.undalt & 1 && pb.occupied & 1 == pb.undalt & 1
    }

    /// The place of `pos` (which must be in the layer: [`LayerIndex::contains`]).
    pub fn place(&self, pos: &Position) -> Place {
        let (pa, pb) = self.patterns_of(pos);
        let (ka, kb) = (pa.pieces() as usize, pb.pieces() as usize);
        let block = self.block(ka, kb);
        let lp = &block.loops;
        let sh = self.b_shift();
        let row = self.row_mask();
        let free = !(u128::from(pa.occupied) | (u128::from(pb.occupied) << sh));
        let loop_a = pos.mask(Side::A) & !row;
        let loop_b = pos.mask(Side::B) & !(row << sh);
        let (mut i, mut j) = (lp.na, lp.nb);
        let mut r = 0u64;
        let mut m = loop_a | loop_b;
        while m != 0 {
            let h = m.trailing_zeros();
            let t = (free & ((1u128 << h) - 1)).count_ones() as usize;
            if loop_a & (1u128 << h) != 0 {
                // Below "A here": the hole empty.
                r += lp.at(t + 1, i, j);
                i -= 1;
            } else {
                // Below "B here": empty, and A where A may stand.
                r += lp.at(t + 1, i, j);
                if lp.allowed(t).0 && i > 0 {
                    r += lp.at(t + 1, i - 1, j);
                }
                j -= 1;
            }
            m &= m - 1;
        }
        Place {
            k: (ka as u8, kb as u8),
            patterns: (self.patterns.rank(pa), self.patterns.rank(pb)),
            loop_rank: r,
        }
    }

    /// The rank of `pos` (which must be in the layer).
    pub fn rank(&self, pos: &Position) -> u64 {
        self.rank_of(self.place(pos))
    }

    /// The rank of a place.
    pub fn rank_of(&self, p: Place) -> u64 {
        let block = self.block(usize::from(p.k.0), usize::from(p.k.1));
        block.base
            + (p.patterns.0 * block.patterns_b + p.patterns.1) * block.loops.count()
            + p.loop_rank
    }

    /// The position of rank `r` (< [`LayerIndex::size`]).
    pub fn unrank(&self, r: u64) -> Position {
        let (c, _) = self.component_of(r);
        self.position(&c, r - c.start)
    }

    /// The component holding rank `r`, and the rank of the first position of
    /// its block.
    pub fn component_of(&self, r: u64) -> (Component, u64) {
        let bi = self
            .blocks
            .iter()
            .rposition(|b| b.base <= r && b.patterns_a * b.patterns_b * b.loops.count() > 0)
            .expect("rank below the layer size");
        let block = &self.blocks[bi];
        let kb1 = usize::from(self.key.b) + 1;
        let (ka, kb) = (bi / kb1, bi % kb1);
        let n = block.loops.count();
        let pair = (r - block.base) / n;
        let (ra, rb) = (pair / block.patterns_b, pair % block.patterns_b);
        (
            Component {
                a: self.patterns.unrank(ka, ra),
                b: self.patterns.unrank(kb, rb),
                start: block.base + pair * n,
                len: n,
            },
            block.base,
        )
    }

    /// Every component, in rank order.
    pub fn components(&self) -> impl Iterator<Item = Component> + '_ {
        let kb1 = usize::from(self.key.b) + 1;
        self.blocks.iter().enumerate().flat_map(move |(bi, block)| {
            let (ka, kb) = (bi / kb1, bi % kb1);
            let n = block.loops.count();
            let pairs = if n == 0 {
                0
            } else {
                block.patterns_a * block.patterns_b
            };
            (0..pairs).map(move |pair| Component {
                a: self.patterns.unrank(ka, pair / block.patterns_b),
                b: self.patterns.unrank(kb, pair % block.patterns_b),
                start: block.base + pair * n,
                len: n,
            })
        })
    }

    /// The component with patterns `a` and `b` (which must fit the layer).
    pub fn component(&self, a: Pattern, b: Pattern) -> Component {
        let (ka, kb) = (a.pieces() as usize, b.pieces() as usize);
        let block = self.block(ka, kb);
        let n = block.loops.count();
        let pair = self.patterns.rank(a) * block.patterns_b + self.patterns.rank(b);
        Component {
            a,
            b,
            start: block.base + pair * n,
            len: n,
        }
    }

    /// The position at loop rank `r` of component `c`.
    pub fn position(&self, c: &Component, mut r: u64) -> Position {
        let (ka, kb) = (c.a.pieces() as usize, c.b.pieces() as usize);
        let lp = &self.block(ka, kb).loops;
        let sh = self.b_shift();
        let l = self.l;
        // The free holes, in hole order.
        let free_a = (0..l).filter(|col| c.a.occupied & (1 << col) == 0);
        let mid = l..=2 * l;
        let free_b = (0..l)
            .filter(|col| c.b.occupied & (1 << col) == 0)
            .map(|col| col + sh);
        let mut pieces = [u128::from(c.a.occupied), u128::from(c.b.occupied) << sh];
        let undalt = u128::from(c.a.undalt) | (u128::from(c.b.undalt) << sh);
        let (mut i, mut j) = (lp.na, lp.nb);
        for (t, h) in free_a.chain(mid).chain(free_b).enumerate() {
            if i == 0 && j == 0 {
                break;
            }
            let (may_a, may_b) = lp.allowed(t);
            let empty = lp.at(t + 1, i, j);
            if r < empty {
                continue;
            }
            r -= empty;
            if may_a && i > 0 {
                let with_a = lp.at(t + 1, i - 1, j);
                if r < with_a {
                    pieces[0] |= 1u128 << h;
                    i -= 1;
                    continue;
                }
                r -= with_a;
            }
            debug_assert!(may_b && j > 0);
            pieces[1] |= 1u128 << h;
            j -= 1;
        }
        Position::from_masks(self.key.board, pieces, undalt, Side::A)
            .expect("an unranked placement is a position")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn key(l: u8, a: u8, b: u8) -> LayerKey {
        LayerKey {
            board: Board::new(l).unwrap(),
            a,
            b,
        }
    }

    /// `[x^a y^b] (1+x+y)^(L+3) (1+2x+y)^(L-1) (1+x+2y)^(L-1)` by polynomial
    /// multiplication in big integers.
    fn generating(l: usize, a: usize, b: usize) -> BigUint {
        let mut poly = vec![vec![BigUint::from(0u8); b + 1]; a + 1];
        poly[0][0] = BigUint::from(1u8);
        let factors: Vec<(u32, u32, u32)> = std::iter::repeat_n((1, 1, 1), l + 3)
            .chain(std::iter::repeat_n((1, 2, 1), l - 1))
            .chain(std::iter::repeat_n((1, 1, 2), l - 1))
            .collect();
        for (c0, cx, cy) in factors {
            let mut next = vec![vec![BigUint::from(0u8); b + 1]; a + 1];
            for i in 0..=a {
                for j in 0..=b {
                    let v = &poly[i][j];
                    next[i][j] += v * c0;
                    if i < a {
                        next[i + 1][j] += v * cx;
                    }
                    if j < b {
                        next[i][j + 1] += v * cy;
                    }
                }
            }
            poly = next;
        }
        poly[a][b].clone()
    }

    /// Every position of a small layer by brute force over the cells.
    fn enumerate(k: LayerKey) -> Vec<Position> {
        let board = k.board;
        let cells = board.cells();
        let mut out = Vec::new();
        fn go(
            h: usize,
            cells: usize,
            k: LayerKey,
            pieces: [u128; 2],
            undalt: u128,
            out: &mut Vec<Position>,
        ) {
            let (na, nb) = (pieces[0].count_ones(), pieces[1].count_ones());
            if h == cells {
                if na == u32::from(k.a) && nb == u32::from(k.b) {
                    if let Ok(p) = Position::from_masks(k.board, pieces, undalt, Side::A) {
                        out.push(p);
                    }
                }
                return;
            }
            let bit = 1u128 << h;
            go(h + 1, cells, k, pieces, undalt, out);
            if na < u32::from(k.a) {
                go(h + 1, cells, k, [pieces[0] | bit, pieces[1]], undalt, out);
                go(
                    h + 1,
                    cells,
                    k,
                    [pieces[0] | bit, pieces[1]],
                    undalt | bit,
                    out,
                );
            }
            if nb < u32::from(k.b) {
                go(h + 1, cells, k, [pieces[0], pieces[1] | bit], undalt, out);
                go(
                    h + 1,
                    cells,
                    k,
                    [pieces[0], pieces[1] | bit],
                    undalt | bit,
                    out,
                );
            }
        }
        go(0, cells, k, [0, 0], 0, &mut out);
        let index = LayerIndex::new(k);
        out.retain(|p| index.contains(p));
        out
    }

    #[test]
    fn the_approximate_size_follows_the_exact_one() {
        for l in [4u8, 6, 12, 16] {
            let board = Board::new(l).unwrap();
            for (a, b) in [(1, 1), (2, 1), (3, 3), (4, 2)] {
                let key = LayerKey { board, a, b };
                let exact = LayerIndex::new(key).size() as f64;
                let approx = approx_size(key);
                assert!(
                    (approx - exact).abs() <= exact * 1e-12,
                    "{key:?}: {approx} {exact}"
                );
            }
        }
        // 16 v 16 on the Danish board: beyond 64 bits, and the largest
        // of its scope.
        let big = LayerKey {
            board: Board::DANISH,
            a: 16,
            b: 16,
        };
        assert!(approx_size(big) > u64::MAX as f64);
    }

    #[test]
    fn sizes_match_enumeration_and_the_generating_function() {
        for (l, a, b) in [
            (4, 1, 1),
            (4, 2, 1),
            (4, 1, 2),
            (4, 2, 2),
            (4, 3, 1),
            (5, 2, 2),
            (4, 4, 0),
        ] {
            let k = key(l, a, b);
            let index = LayerIndex::new(k);
            let all = enumerate(k);
            assert_eq!(index.size(), all.len() as u64, "{k:?}");
            assert_eq!(
                BigUint::from(index.size()),
                generating(usize::from(l), usize::from(a), usize::from(b)),
                "{k:?}"
            );
        }
        // Pinned sizes (the same numbers the formula gives by hand).
        assert_eq!(LayerIndex::new(key(4, 4, 4)).size(), 439_908);
        assert_eq!(LayerIndex::new(key(12, 3, 3)).size(), 219_901_385);
        assert_eq!(LayerIndex::new(key(16, 2, 2)).size(), 3_697_281);
        for (l, a, b) in [(12, 3, 3), (16, 4, 4), (32, 5, 5), (5, 5, 5)] {
            assert_eq!(
                BigUint::from(LayerIndex::new(key(l, a, b)).size()),
                generating(usize::from(l), usize::from(a), usize::from(b))
            );
        }
    }

    /// The sizes `scripts/scale_model.py` projects from (its own copy of
    /// the generating function, data/scale/projection.md): Norwegian up to
    /// 4 v 4 and Danish a + b <= 5, and their largest components.
    #[test]
    fn the_scale_projections_sizes_are_the_index_sizes() {
        let norwegian = |a, b| LayerIndex::new(key(12, a, b));
        assert_eq!(norwegian(4, 4).size(), 21_278_076_050);
        assert_eq!(norwegian(4, 3).size(), 2_197_391_955);
        assert_eq!(norwegian(4, 2).size(), 164_132_430);
        assert_eq!(norwegian(4, 1).size(), 7_890_080);
        assert_eq!(norwegian(4, 4).largest_component(), 111_622_005);
        let total: u64 = (1..=4)
            .flat_map(|a| (1..=4).map(move |b| norwegian(a, b).size()))
            .sum();
        assert_eq!(total, 26_271_386_675);
        let danish = |a, b| LayerIndex::new(key(16, a, b));
        assert_eq!(danish(3, 2).size(), 72_223_590);
        assert_eq!(danish(4, 1).size(), 35_845_020);
        assert_eq!(danish(3, 2).largest_component(), 2_615_160);
        let total: u64 = (1..=4u8)
            .flat_map(|a| (1..=5 - a).map(move |b| danish(a, b).size()))
            .sum();
        assert_eq!(total, 224_996_160);
    }

    #[test]
    fn rank_is_a_bijection_and_components_are_contiguous() {
        for (l, a, b) in [(4, 2, 2), (4, 3, 1), (5, 2, 3), (4, 4, 1)] {
            let k = key(l, a, b);
            let index = LayerIndex::new(k);
            let mut seen = vec![false; index.size() as usize];
            for p in enumerate(k) {
                let r = index.rank(&p);
                assert!(!seen[r as usize], "{p} rank {r} twice");
                seen[r as usize] = true;
                assert_eq!(index.unrank(r), p);
                let (c, _) = index.component_of(r);
                assert_eq!(index.patterns_of(&p), (c.a, c.b));
                assert!(c.start <= r && r < c.start + c.len);
                assert_eq!(index.component(c.a, c.b), c);
            }
            assert!(seen.iter().all(|&s| s));
            let mut next = 0;
            for c in index.components() {
                assert_eq!(c.start, next);
                next += c.len;
            }
            assert_eq!(next, index.size());
        }
    }

    #[test]
    fn progress_rises_with_every_pattern_change() {
        let p = |occ: u32, und: u32| Pattern {
            occupied: occ,
            undalt: und,
        };
        // Dalling column 2 onto column 3, moving a dalt piece from 3 to 4.
        assert!(p(0b0010, 0b0010).progress() < p(0b0100, 0).progress());
        assert!(p(0b0100, 0).progress() < p(0b1000, 0).progress());
        assert_eq!(p(0b0011, 0b0001).progress(), 2 + 4 + 1);
    }
}
