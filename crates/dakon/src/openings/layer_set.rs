//! The set of positions found so far in one layer of the first turn that
//! is not yet expanded, and the compact sorted form a finished layer is
//! kept in.
//!
//! A layer starts as a vector of ranks that is sorted and deduplicated
//! whenever it has grown by a quarter (so duplicates never take more than
//! a fifth of it); when its distinct ranks would take more room
//! than one bit for every composition of the layer, it becomes that
//! bitmap (late layers of a big board are dense: 7×7 has more than 10^8
//! positions in layers whose bitmaps take a few hundred megabytes).
//! Every allocation is charged to a [`Meter`] first, so a count that does
//! not fit in memory stops with an error instead of being killed.

use rayon::slice::ParallelSliceMut;

/// Bytes of memory the count may still allocate.
#[derive(Debug)]
pub(crate) struct Meter {
    pub(crate) used: u64,
    pub(crate) budget: u64,
    /// The most `used` has been.
    pub(crate) peak: u64,
}

impl Meter {
    /// Charge `bytes` (refused, with the total it would reach, when over
    /// budget).
    pub(crate) fn charge(&mut self, bytes: u64) -> Result<(), u64> {
        let want = self.used.saturating_add(bytes);
        if want > self.budget {
            return Err(want);
        }
        self.used = want;
        self.peak = self.peak.max(want);
        Ok(())
    }

    pub(crate) fn release(&mut self, bytes: u64) {
        self.used = self.used.saturating_sub(bytes);
    }
}

/// Bitmaps bigger than this are never used (the vector stays).
const MAX_BITMAP_BYTES: u64 = 6 << 30;
/// Vectors are first compacted at this length.
const FIRST_COMPACTION: usize = 1 << 20;

/// The pending positions of one layer, as ranks.
#[derive(Debug)]
pub(crate) enum LayerSet {
    /// Ranks that fit in 64 bits; sorted and distinct up to `sorted`.
    Narrow {
        v: Vec<u64>,
        compact_at: usize,
        /// Bytes of the layer's bitmap (when allowed).
        bitmap_bytes: Option<u64>,
    },
    /// Ranks of layers with more than 2^64 compositions.
    Wide { v: Vec<u128>, compact_at: usize },
    /// One bit per composition of the layer.
    Bits { words: Vec<u64> },
}

impl LayerSet {
    /// An empty set for a layer of `size` compositions.
    pub(crate) fn new(size: u128) -> LayerSet {
        if size <= u128::from(u64::MAX) {
            let bitmap_bytes = (size.div_ceil(64) * 8) as u64;
            LayerSet::Narrow {
                v: Vec::new(),
                compact_at: FIRST_COMPACTION,
                bitmap_bytes: (bitmap_bytes <= MAX_BITMAP_BYTES).then_some(bitmap_bytes),
            }
        } else {
            LayerSet::Wide {
                v: Vec::new(),
                compact_at: FIRST_COMPACTION,
            }
        }
    }

    /// Bytes this set holds (its allocation).
    pub(crate) fn bytes(&self) -> u64 {
        match self {
            LayerSet::Narrow { v, .. } => v.capacity() as u64 * 8,
            LayerSet::Wide { v, .. } => v.capacity() as u64 * 16,
            LayerSet::Bits { words } => words.capacity() as u64 * 8,
        }
    }

    /// Add `ranks` (duplicates allowed).
    pub(crate) fn extend(&mut self, ranks: &[u128], meter: &mut Meter) -> Result<(), u64> {
        match self {
            LayerSet::Narrow { v, .. } => {
                grow(v, ranks.len(), 8, meter)?;
                v.extend(ranks.iter().map(|&r| r as u64));
            }
            LayerSet::Wide { v, .. } => {
                grow(v, ranks.len(), 16, meter)?;
                v.extend_from_slice(ranks);
            }
            LayerSet::Bits { words } => {
                for &r in ranks {
                    words[(r / 64) as usize] |= 1 << (r % 64);
                }
            }
        }
        self.maybe_compact(meter)
    }

    fn maybe_compact(&mut self, meter: &mut Meter) -> Result<(), u64> {
        match self {
            LayerSet::Narrow {
                v,
                compact_at,
                bitmap_bytes,
            } => {
                let bitmap_len = bitmap_bytes.map_or(usize::MAX, |b| (b / 8) as usize);
                if v.len() < (*compact_at).min(bitmap_len) {
                    return Ok(());
                }
                v.par_sort_unstable();
                v.dedup();
                *compact_at = v.len() + (v.len() / 4).max(FIRST_COMPACTION);
                if let Some(b) = *bitmap_bytes {
                    if v.len() as u64 * 8 >= b / 2 {
                        meter.charge(b)?;
                        let mut words = vec![0u64; (b / 8) as usize];
                        for &r in v.iter() {
                            words[(r / 64) as usize] |= 1 << (r % 64);
                        }
                        meter.release(v.capacity() as u64 * 8);
                        *self = LayerSet::Bits { words };
                    }
                }
            }
            LayerSet::Wide { v, compact_at } => {
                if v.len() >= *compact_at {
                    v.par_sort_unstable();
                    v.dedup();
                    *compact_at = v.len() + (v.len() / 4).max(FIRST_COMPACTION);
                }
            }
            LayerSet::Bits { .. } => {}
        }
        Ok(())
    }

    /// The distinct ranks so far, encoded as by [`LayerSet::finish`], the
    /// set kept (for a checkpoint).
    pub(crate) fn snapshot(&mut self) -> (Vec<u8>, u64) {
        let mut enc = Encoder::default();
        match self {
            LayerSet::Narrow { v, .. } => {
                v.par_sort_unstable();
                v.dedup();
                v.iter().for_each(|&r| enc.push(u128::from(r)));
            }
            LayerSet::Wide { v, .. } => {
                v.par_sort_unstable();
                v.dedup();
                v.iter().for_each(|&r| enc.push(r));
            }
            LayerSet::Bits { words } => encode_bits(words, &mut enc),
        }
        (enc.bytes, enc.count)
    }

    /// The distinct ranks in ascending order, encoded (see [`Encoder`]),
    /// and their number. Releases the set's memory from `meter`.
    pub(crate) fn finish(self, meter: &mut Meter) -> (Vec<u8>, u64) {
        meter.release(self.bytes());
        let mut enc = Encoder::default();
        match self {
            LayerSet::Narrow { mut v, .. } => {
                v.par_sort_unstable();
                v.dedup();
                v.iter().for_each(|&r| enc.push(u128::from(r)));
            }
            LayerSet::Wide { mut v, .. } => {
                v.par_sort_unstable();
                v.dedup();
                v.iter().for_each(|&r| enc.push(r));
            }
            LayerSet::Bits { words } => encode_bits(&words, &mut enc),
        }
        (enc.bytes, enc.count)
    }
}

fn encode_bits(words: &[u64], enc: &mut Encoder) {
    for (i, &w) in words.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let b = w.trailing_zeros();
            enc.push(i as u128 * 64 + u128::from(b));
            w &= w - 1;
        }
    }
}

/// Make room for `more` elements of `size` bytes, charging the meter.
fn grow<T>(v: &mut Vec<T>, more: usize, size: u64, meter: &mut Meter) -> Result<(), u64> {
    let need = v.len() + more;
    if need <= v.capacity() {
        return Ok(());
    }
    let cap = need.max(v.capacity() + v.capacity() / 4).max(1024);
    meter.charge((cap - v.capacity()) as u64 * size)?;
    v.reserve_exact(cap - v.len());
    Ok(())
}

/// Ascending distinct ranks, each written as its distance from the
/// previous one plus one (LEB128): the dense late layers take about a
/// byte a position.
#[derive(Debug, Default)]
pub(crate) struct Encoder {
    pub(crate) bytes: Vec<u8>,
    pub(crate) count: u64,
    next: u128,
}

impl Encoder {
    pub(crate) fn push(&mut self, rank: u128) {
        debug_assert!(rank >= self.next);
        let mut gap = rank - self.next;
        self.next = rank + 1;
        self.count += 1;
        loop {
            let b = (gap & 0x7f) as u8;
            gap >>= 7;
            if gap == 0 {
                self.bytes.push(b);
                break;
            }
            self.bytes.push(b | 0x80);
        }
    }
}

/// The ranks of an encoded layer, ascending; `None` at a truncated or
/// overlong varint (a corrupt layer).
#[derive(Debug, Clone)]
pub(crate) struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
    next: u128,
}

impl<'a> Decoder<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Decoder<'a> {
        Decoder {
            bytes,
            at: 0,
            next: 0,
        }
    }

    /// The next rank, `Ok(None)` at the end, `Err(())` on corrupt bytes.
    pub(crate) fn next_rank(&mut self) -> Result<Option<u128>, ()> {
        if self.at == self.bytes.len() {
            return Ok(None);
        }
        let mut gap = 0u128;
        let mut shift = 0;
        loop {
            let b = *self.bytes.get(self.at).ok_or(())?;
            self.at += 1;
            if shift >= 128 {
                return Err(());
            }
            gap |= u128::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        let r = self.next.checked_add(gap).ok_or(())?;
        self.next = r.checked_add(1).ok_or(())?;
        Ok(Some(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meter() -> Meter {
        Meter {
            used: 0,
            budget: 1 << 30,
            peak: 0,
        }
    }

    fn decode(bytes: &[u8]) -> Vec<u128> {
        let mut d = Decoder::new(bytes);
        let mut out = Vec::new();
        while let Some(r) = d.next_rank().unwrap() {
            out.push(r);
        }
        out
    }

    #[test]
    fn sets_deduplicate_and_encode_in_order_in_every_form() {
        let ranks: Vec<u128> = (0..5000u128).map(|i| (i * 7919) % 3001).collect();
        let mut want: Vec<u128> = ranks.clone();
        want.sort_unstable();
        want.dedup();
        // Narrow with a small universe (becomes a bitmap), narrow without a
        // bitmap, and wide.
        for size in [3001u128, u128::from(u64::MAX), u128::MAX] {
            let mut m = meter();
            let mut s = LayerSet::new(size);
            for chunk in ranks.chunks(333) {
                s.extend(chunk, &mut m).unwrap();
            }
            // Force the compaction path too.
            s.maybe_compact(&mut m).unwrap();
            let (bytes, count) = s.finish(&mut m);
            assert_eq!(count, want.len() as u64);
            assert_eq!(decode(&bytes), want);
        }
    }

    #[test]
    fn a_small_universe_turns_into_a_bitmap() {
        let mut m = meter();
        let mut s = LayerSet::new(64 * 100);
        let ranks: Vec<u128> = (0..6400).collect();
        s.extend(&ranks, &mut m).unwrap();
        assert!(matches!(s, LayerSet::Bits { .. }));
        assert_eq!(s.bytes(), 800);
    }

    #[test]
    fn the_meter_refuses_growth_over_budget() {
        let mut m = Meter {
            used: 0,
            budget: 4096,
            peak: 0,
        };
        let mut s = LayerSet::new(u128::MAX);
        let ranks: Vec<u128> = (0..1000).collect();
        assert!(s.extend(&ranks, &mut m).is_err());
    }

    #[test]
    fn big_gaps_and_corrupt_bytes() {
        let mut e = Encoder::default();
        for r in [0u128, 1, 300, u128::from(u64::MAX) * 5, u128::MAX - 1] {
            e.push(r);
        }
        assert_eq!(
            decode(&e.bytes),
            vec![0, 1, 300, u128::from(u64::MAX) * 5, u128::MAX - 1]
        );
        let mut d = Decoder::new(&[0x80, 0x80]);
        assert!(d.next_rank().is_err());
    }
}
