//! Ranks of the rows within one layer of the first turn.
//!
//! Inside a layer the mover's store is fixed, so the seeds on the board are
//! fixed too (`B`), and the rows are a composition of `B` into `2n` parts
//! (mover's row first). They are ranked in lexicographic order exactly as in
//! [`crate::rank`], but in 128 bits: the early layers of the 8×8 and 9×9
//! boards hold more than 2^64 compositions.

/// `N(p, r)`, the compositions of `r` into `p` parts, for `p <= 2n` and
/// `r <= max_sum`, saturating at `u128::MAX`.
#[derive(Debug, Clone)]
pub(crate) struct Ranker {
    holes: usize,
    stride: usize,
    table: Vec<u128>,
}

impl Ranker {
    pub(crate) fn new(holes: usize, max_sum: u32) -> Ranker {
        let parts = 2 * holes;
        let stride = max_sum as usize + 1;
        let table = crate::rank::composition_table(parts, stride, 1u128, u128::saturating_add);
        Ranker {
            holes,
            stride,
            table,
        }
    }

    #[inline]
    fn n(&self, parts: usize, sum: usize) -> u128 {
        self.table[parts * self.stride + sum]
    }

    /// Compositions of `sum` seeds into the `2n` holes (`None` when that
    /// number does not fit in 128 bits).
    pub(crate) fn layer_size(&self, sum: u32) -> Option<u128> {
        let c = self.n(2 * self.holes, sum as usize);
        (c != u128::MAX).then_some(c)
    }

    /// Rank of `cells` (`2n` counts, mover's row first) summing to `sum`.
    #[inline]
    pub(crate) fn rank(&self, cells: &[u8], sum: u32) -> u128 {
        let parts = 2 * self.holes;
        let mut rest = sum as usize;
        let mut idx = 0u128;
        for (i, &a) in cells[..parts - 1].iter().enumerate() {
            idx += self.n(parts - i, rest) - self.n(parts - i, rest - a as usize);
            rest -= a as usize;
        }
        debug_assert_eq!(rest, cells[parts - 1] as usize);
        idx
    }

    /// The cells of rank `index` (inverse of [`Ranker::rank`]).
    #[inline]
    pub(crate) fn unrank(&self, mut index: u128, sum: u32, cells: &mut [u8]) {
        let parts = 2 * self.holes;
        let mut rest = sum as usize;
        for (i, cell) in cells[..parts - 1].iter_mut().enumerate() {
            let p = parts - i;
            let all = self.n(p, rest);
            // Largest `a` with N(p, rest) - N(p, rest - a) <= index.
            let mut a = 0;
            while a < rest && all - self.n(p, rest - a - 1) <= index {
                a += 1;
            }
            index -= all - self.n(p, rest - a);
            *cell = a as u8;
            rest -= a;
        }
        cells[parts - 1] = rest as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::{binomial, compositions};

    #[test]
    fn ranks_are_dense_lexicographic_and_invert() {
        for holes in 1..=3 {
            let r = Ranker::new(holes, 7);
            for sum in 0..=7 {
                let all = compositions(2 * holes, sum);
                assert_eq!(r.layer_size(sum), Some(all.len() as u128));
                let mut cells = vec![0u8; 2 * holes];
                for (i, c) in all.iter().enumerate() {
                    assert_eq!(r.rank(c, sum), i as u128, "{c:?}");
                    r.unrank(i as u128, sum, &mut cells);
                    assert_eq!(&cells, c);
                }
            }
        }
    }

    #[test]
    fn big_boards_fit_in_128_bits() {
        // 9×9 from the start: 162 seeds in 18 holes.
        let r = Ranker::new(9, 162);
        assert_eq!(r.layer_size(162), binomial(179, 17));
        assert!(r.layer_size(162).unwrap() > u128::from(u64::MAX));
        let mut cells = [9u8; 18];
        let k = r.rank(&cells, 162);
        cells = [0; 18];
        r.unrank(k, 162, &mut cells);
        assert_eq!(cells, [9u8; 18]);
    }
}
