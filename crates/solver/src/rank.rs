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

/// Largest number of seeds on the board a database level may hold: entries
/// are `i8` future margins, and a margin is bounded by the seeds on the board.
pub const MAX_LEVEL: u32 = 127;

/// Binomial-style table `N(p, r)` = number of compositions of `r` into `p`
/// non-negative parts, for `p <= 2n` and `r <= max_k`, saturating at
/// `u64::MAX` (values that saturate are never used by a level that fits in
/// memory).
#[derive(Debug, Clone)]
pub struct Ranker {
    holes: usize,
    max_k: u32,
    stride: usize,
    table: Vec<u64>,
}

impl Ranker {
    /// Table for boards of `holes` holes a side and levels up to `max_k`.
    pub fn new(holes: usize, max_k: u32) -> Ranker {
        let parts = 2 * holes;
        let stride = max_k as usize + 1;
        let table = composition_table(parts, stride, 1u64, u64::saturating_add);
        Ranker {
            holes,
            max_k,
            stride,
            table,
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
        self.table[parts * self.stride + sum as usize]
    }

    /// Entries of level `k` (`C(k + 2n - 1, 2n - 1)`), saturating.
    pub fn level_count(&self, k: u32) -> u64 {
        self.compositions(2 * self.holes, k)
    }

    /// Rank of the rows `(first, second)` (each `n` counts, hole 1 first)
    /// whose counts sum to `k`, among all distributions of `k` seeds.
    #[inline]
    pub fn rank(&self, first: &[u8], second: &[u8], k: u32) -> u64 {
        debug_assert_eq!(first.len(), self.holes);
        debug_assert_eq!(second.len(), self.holes);
        let parts = 2 * self.holes;
        let mut rest = k as usize;
        let mut idx = 0u64;
        // The last part is forced by the others; it contributes nothing.
        for (i, &a) in first.iter().chain(&second[..self.holes - 1]).enumerate() {
            let row = (parts - i) * self.stride;
            idx += self.table[row + rest] - self.table[row + rest - a as usize];
            rest -= a as usize;
        }
        debug_assert_eq!(rest, second[self.holes - 1] as usize);
        idx
    }

    /// `base(X)`: the first rank of level `k` whose mover row is `first`.
    #[inline]
    pub fn base(&self, first: &[u8], k: u32) -> u64 {
        let parts = 2 * self.holes;
        let mut rest = k as usize;
        let mut idx = 0u64;
        for (i, &a) in first.iter().enumerate() {
            let row = (parts - i) * self.stride;
            idx += self.table[row + rest] - self.table[row + rest - a as usize];
            rest -= a as usize;
        }
        idx
    }

    /// The distribution of rank `index` in level `k` (inverse of
    /// [`Ranker::rank`]); `None` when `index` is out of range. Used by tests
    /// and for reporting, never in the build loop.
    pub fn unrank(&self, mut index: u64, k: u32) -> Option<Vec<u8>> {
        if index >= self.level_count(k) {
            return None;
        }
        let parts = 2 * self.holes;
        let mut cells = Vec::with_capacity(parts);
        let mut rest = k;
        for i in 0..parts - 1 {
            let p = parts - i;
            // Largest `a` with N(p, rest) - N(p, rest - a) <= index.
            let mut a = 0u32;
            while a < rest {
                let below = self.compositions(p, rest) - self.compositions(p, rest - a - 1);
                if below > index {
                    break;
                }
                a += 1;
            }
            index -= self.compositions(p, rest) - self.compositions(p, rest - a);
            cells.push(a as u8);
            rest -= a;
        }
        cells.push(rest as u8);
        Some(cells)
    }
}

/// The table `N(p, r)` for `p <= parts` and `r < stride`, row `p` at
/// `p * stride`, built with `add` (saturating, in the caller's width).
pub(crate) fn composition_table<T: Copy + Default>(
    parts: usize,
    stride: usize,
    one: T,
    add: impl Fn(T, T) -> T,
) -> Vec<T> {
    let mut table = vec![T::default(); (parts + 1) * stride];
    table[0] = one; // N(0, 0) = 1, N(0, r > 0) = 0
    for p in 1..=parts {
        for r in 0..stride {
            // First part zero: N(p-1, r); first part positive: N(p, r-1).
            let zero = table[(p - 1) * stride + r];
            let positive = if r > 0 {
                table[p * stride + r - 1]
            } else {
                T::default()
            };
            table[p * stride + r] = add(zero, positive);
        }
    }
    table
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
