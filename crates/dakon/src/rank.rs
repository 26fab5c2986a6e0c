//! Combinatorial ranking of Dakon hole counts (the index of a database).
//!
//! A database level holds every way of putting `k` seeds into the `2n`
//! playing holes, the side to move's row first (holes `1..n`), then the
//! opponent's row. Stores are not part of the index. Such a distribution is a
//! composition of `k` into `2n` non-negative parts; there are
//! `C(k + 2n - 1, 2n - 1)` of them, and all levels `0..=k` together hold
//! `C(k + 2n, 2n)`.
//!
//! Compositions are ranked in lexicographic order, the first hole most
//! significant. With `N(p, r)` the number of compositions of `r` into `p`
//! parts, the compositions whose first part is below `a` number
//! `N(p, r) - N(p, r - a)` (hockey-stick identity), so the rank is a sum of
//! `2n - 1` table differences, no loop over values. Because the mover's row
//! comes first, the rank of `(X, Y)` splits as `base(X) + row_rank(Y)`:
//! every mover row `X` owns a contiguous block of ranks, and inside it the
//! opponent rows `Y` (compositions of `k - |X|` into `n` parts) appear in
//! their own lexicographic order. The builder walks those blocks directly,
//! so it never unranks.
//!
//! The algorithm is [`Compositions`], generic over the index width
//! ([`RankWidth`]): `u64` for database levels ([`Ranker`], which must fit in
//! memory anyway), `u128` for the layers of the openings count, whose early
//! layers on 8×8 and 9×9 hold more than 2^64 compositions.

use std::fmt::Debug;
use std::ops::{Add, Sub};

/// Largest number of seeds on the board a database level may hold: entries
/// are `i8` future margins, and a margin is bounded by the seeds on the board.
pub const MAX_LEVEL: u32 = 127;

/// An unsigned index width for ranks.
pub trait RankWidth:
    Copy + Ord + Default + Debug + Send + Sync + Add<Output = Self> + Sub<Output = Self>
{
    /// The number 1.
    const ONE: Self;
    /// The largest value, where the table saturates.
    const MAX: Self;
    /// `self + other`, `MAX` on overflow.
    fn saturating_add(self, other: Self) -> Self;
}

macro_rules! rank_width {
    ($($t:ty),*) => {$(
        impl RankWidth for $t {
            const ONE: Self = 1;
            const MAX: Self = <$t>::MAX;
            fn saturating_add(self, other: Self) -> Self {
                <$t>::saturating_add(self, other)
            }
        }
    )*};
}
rank_width!(u64, u128);

/// The table `N(p, r)`, the number of compositions of `r` into `p`
/// non-negative parts, for `p <= parts` and `r <= max_sum`, saturating at
/// `W::MAX` (a saturated count is never used as an index: its level or
/// layer would not fit in memory), and the lexicographic rank of the
/// compositions of a sum into `parts` parts.
#[derive(Debug, Clone)]
pub struct Compositions<W> {
    parts: usize,
    stride: usize,
    /// Row `p` at `p * stride`.
    table: Vec<W>,
}

impl<W: RankWidth> Compositions<W> {
    /// The table for compositions into up to `parts` parts of sums up to
    /// `max_sum`.
    pub fn new(parts: usize, max_sum: u32) -> Compositions<W> {
        let stride = max_sum as usize + 1;
        let mut table = vec![W::default(); (parts + 1) * stride];
        table[0] = W::ONE; // N(0, 0) = 1, N(0, r > 0) = 0
        for p in 1..=parts {
            for r in 0..stride {
                // First part zero: N(p-1, r); first part positive: N(p, r-1).
                let zero = table[(p - 1) * stride + r];
                let positive = if r > 0 {
                    table[p * stride + r - 1]
                } else {
                    W::default()
                };
                table[p * stride + r] = zero.saturating_add(positive);
            }
        }
        Compositions {
            parts,
            stride,
            table,
        }
    }

    /// `N(p, r)`: compositions of `r` into `p` parts (saturating).
    #[inline]
    pub fn count(&self, parts: usize, sum: u32) -> W {
        self.table[parts * self.stride + sum as usize]
    }

    /// Compositions of `sum` into all the parts, `None` when that number
    /// does not fit in `W`.
    pub fn total(&self, sum: u32) -> Option<W> {
        let c = self.count(self.parts, sum);
        (c != W::MAX).then_some(c)
    }

    /// The ranks the leading `cells` account for: the first rank of the
    /// compositions of `sum` that start with them, and the seeds left for
    /// the remaining parts.
    #[inline]
    fn prefix<'c>(&self, cells: impl IntoIterator<Item = &'c u8>, sum: u32) -> (W, usize) {
        let mut rest = sum as usize;
        let mut idx = W::default();
        for (i, &a) in cells.into_iter().enumerate() {
            let row = (self.parts - i) * self.stride;
            idx = idx + (self.table[row + rest] - self.table[row + rest - a as usize]);
            rest -= a as usize;
        }
        (idx, rest)
    }

    /// Rank of the composition `cells` (all `parts` of them) of `sum`.
    #[inline]
    pub fn rank<'c>(&self, cells: impl IntoIterator<Item = &'c u8>, sum: u32) -> W {
        let mut cells = cells.into_iter();
        // The last part is forced by the others; it contributes nothing.
        let (idx, rest) = self.prefix(cells.by_ref().take(self.parts - 1), sum);
        debug_assert_eq!(cells.next().map(|&c| usize::from(c)), Some(rest));
        idx
    }

    /// The first rank of the compositions of `sum` whose leading parts are
    /// `cells`.
    #[inline]
    pub fn rank_of_prefix(&self, cells: &[u8], sum: u32) -> W {
        self.prefix(cells, sum).0
    }

    /// The composition of `sum` of rank `index` into `cells` (all `parts`
    /// of them): the inverse of [`Compositions::rank`]. `index` must be
    /// below [`Compositions::count`] of `(parts, sum)`.
    #[inline]
    pub fn unrank(&self, mut index: W, sum: u32, cells: &mut [u8]) {
        let parts = self.parts;
        let mut rest = sum;
        for (i, cell) in cells[..parts - 1].iter_mut().enumerate() {
            let p = parts - i;
            let all = self.count(p, rest);
            // Largest `a` with N(p, rest) - N(p, rest - a) <= index.
            let mut a = 0;
            while a < rest && all - self.count(p, rest - a - 1) <= index {
                a += 1;
            }
            index = index - (all - self.count(p, rest - a));
            *cell = a as u8;
            rest -= a;
        }
        cells[parts - 1] = rest as u8;
    }
}

/// The index of a database level: compositions of `k` seeds into the `2n`
/// playing holes, the mover's row first, ranked in `u64`.
#[derive(Debug, Clone)]
pub struct Ranker {
    holes: usize,
    max_k: u32,
    comps: Compositions<u64>,
}

impl Ranker {
    /// Table for boards of `holes` holes a side and levels up to `max_k`.
    pub fn new(holes: usize, max_k: u32) -> Ranker {
        Ranker {
            holes,
            max_k,
            comps: Compositions::new(2 * holes, max_k),
        }
    }

    /// Holes per side.
    pub fn holes(&self) -> usize {
        self.holes
    }

    /// Largest level the table covers.
    pub fn max_k(&self) -> u32 {
        self.max_k
    }

    /// `N(p, r)`: compositions of `r` into `p` parts.
    #[inline]
    pub fn compositions(&self, parts: usize, sum: u32) -> u64 {
        self.comps.count(parts, sum)
    }

    /// Entries of level `k` (`C(k + 2n - 1, 2n - 1)`), saturating.
    pub fn level_count(&self, k: u32) -> u64 {
        self.comps.count(2 * self.holes, k)
    }

    /// Rank of the rows `(first, second)` (each `n` counts, hole 1 first)
    /// whose counts sum to `k`, among all distributions of `k` seeds.
    #[inline]
    pub fn rank(&self, first: &[u8], second: &[u8], k: u32) -> u64 {
        debug_assert_eq!(first.len(), self.holes);
        debug_assert_eq!(second.len(), self.holes);
        self.comps.rank(first.iter().chain(second), k)
    }

    /// `base(X)`: the first rank of level `k` whose mover row is `first`.
    #[inline]
    pub fn base(&self, first: &[u8], k: u32) -> u64 {
        self.comps.rank_of_prefix(first, k)
    }

    /// The distribution of rank `index` in level `k` (inverse of
    /// [`Ranker::rank`]); `None` when `index` is out of range. Used by tests
    /// and for reporting, never in the build loop.
    pub fn unrank(&self, index: u64, k: u32) -> Option<Vec<u8>> {
        if index >= self.level_count(k) {
            return None;
        }
        let mut cells = vec![0; 2 * self.holes];
        self.comps.unrank(index, k, &mut cells);
        Some(cells)
    }
}

/// Every composition of `sum` into `parts` parts, in lexicographic order
/// (first part most significant, ascending): the `i`-th one has row rank `i`.
pub fn compositions(parts: usize, sum: u32) -> Vec<Vec<u8>> {
    fn go(parts: usize, sum: u32, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if parts == 1 {
            prefix.push(sum as u8);
            out.push(prefix.clone());
            prefix.pop();
            return;
        }
        for a in 0..=sum {
            prefix.push(a as u8);
            go(parts - 1, sum - a, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    if parts > 0 {
        go(parts, sum, &mut Vec::with_capacity(parts), &mut out);
    }
    out
}

/// `C(n, r)` exactly, `None` on overflow of `u128`.
pub fn binomial(n: u64, r: u64) -> Option<u128> {
    if r > n {
        return Some(0);
    }
    let r = r.min(n - r);
    let mut acc: u128 = 1;
    for i in 0..r {
        // acc * (n - i) / (i + 1) stays an integer at every step.
        acc = acc.checked_mul(u128::from(n - i))? / u128::from(i + 1);
    }
    Some(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_binomials() {
        let r = Ranker::new(4, 32);
        assert_eq!(r.level_count(0), 1);
        assert_eq!(r.level_count(1), 8);
        assert_eq!(u128::from(r.level_count(32)), binomial(39, 7).unwrap());
        let total: u64 = (0..=32).map(|k| r.level_count(k)).sum();
        assert_eq!(total, 76_904_685); // C(40, 8)
        assert_eq!(binomial(40, 8), Some(76_904_685));
    }

    #[test]
    fn wide_ranks_are_dense_lexicographic_and_invert() {
        for holes in 1..=3 {
            let c = Compositions::<u128>::new(2 * holes, 7);
            for sum in 0..=7 {
                let all = compositions(2 * holes, sum);
                assert_eq!(c.total(sum), Some(all.len() as u128));
                let mut cells = vec![0u8; 2 * holes];
                for (i, comp) in all.iter().enumerate() {
                    assert_eq!(c.rank(comp, sum), i as u128, "{comp:?}");
                    c.unrank(i as u128, sum, &mut cells);
                    assert_eq!(&cells, comp);
                }
            }
        }
    }

    #[test]
    fn big_boards_fit_in_128_bits() {
        // 9×9 from the start: 162 seeds in 18 holes.
        let c = Compositions::<u128>::new(18, 162);
        assert_eq!(c.total(162), binomial(179, 17));
        assert!(c.total(162).unwrap() > u128::from(u64::MAX));
        assert_eq!(Compositions::<u64>::new(18, 162).total(162), None);
        let mut cells = [9u8; 18];
        let k = c.rank(&cells, 162);
        cells = [0; 18];
        c.unrank(k, 162, &mut cells);
        assert_eq!(cells, [9u8; 18]);
    }

    #[test]
    fn both_widths_give_the_same_ranks_where_u64_suffices() {
        let (narrow, wide) = (
            Compositions::<u64>::new(8, 12),
            Compositions::<u128>::new(8, 12),
        );
        let mut cells = [0u8; 8];
        for sum in 0..=12 {
            let total = narrow.total(sum).unwrap();
            assert_eq!(u128::from(total), wide.total(sum).unwrap());
            // Every rank of the smaller sums, a stride of ranks of the larger.
            for i in (0..total).step_by(1 + total as usize / 5000) {
                narrow.unrank(i, sum, &mut cells);
                assert_eq!(wide.rank(&cells, sum), u128::from(i), "{cells:?}");
                assert_eq!(narrow.rank(&cells, sum), i);
            }
        }
    }

    #[test]
    fn rank_is_lexicographic_and_dense() {
        for holes in 1..=3 {
            let ranker = Ranker::new(holes, 6);
            for k in 0..=6 {
                let all = compositions(2 * holes, k);
                assert_eq!(all.len() as u64, ranker.level_count(k));
                for (i, c) in all.iter().enumerate() {
                    let (a, b) = c.split_at(holes);
                    assert_eq!(ranker.rank(a, b, k), i as u64, "{c:?}");
                    assert_eq!(ranker.unrank(i as u64, k).as_deref(), Some(&c[..]));
                    let rows =
                        compositions(holes, k - a.iter().map(|&x| u32::from(x)).sum::<u32>());
                    let row_rank = rows.iter().position(|r| r[..] == *b).unwrap();
                    assert_eq!(ranker.base(a, k) + row_rank as u64, i as u64);
                }
                assert_eq!(ranker.unrank(all.len() as u64, k), None);
            }
        }
    }
}
