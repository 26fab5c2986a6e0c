//! The verifier's hash table: each slot holds a key and its value side by
//! side, found by linear probing from the key's hash, so that a lookup
//! usually costs one memory access (a general-purpose table keeps its
//! control bytes apart from its entries: two). The tables of a big proof
//! are far larger than the processor's caches, and the check looks one up
//! for every move it follows, so this is where its time goes.
//!
//! The all-zero key marks an empty slot. For the verifier it is the
//! position with both rows empty, a finished game, which is never looked up.

/// A table from keys of `W` words (never all zero) to `V`.
#[derive(Debug)]
pub(crate) struct Table<const W: usize, V> {
    slots: Vec<([u64; W], V)>,
    /// `slots.len() - 1`; the length is a power of two.
    mask: usize,
    len: usize,
}

/// The table grows when more than this fraction of its slots is taken
/// (the numerator over 8): probe runs stay short.
const MAX_LOAD_EIGHTHS: usize = 6;

impl<const W: usize, V: Copy + Default> Table<W, V> {
    /// A table that holds `n` keys without growing.
    pub(crate) fn with_capacity(n: usize) -> Table<W, V> {
        let slots = (n * 8 / MAX_LOAD_EIGHTHS + 1).next_power_of_two().max(16);
        Table {
            slots: dalkon_store::huge::vec_with(slots, || ([0; W], V::default())),
            mask: slots - 1,
            len: 0,
        }
    }

    /// The slot of `key`: where it is, or the empty slot where it would go.
    #[inline]
    fn find(&self, key: &[u64; W]) -> usize {
        debug_assert!(*key != [0; W], "the all-zero key marks empty slots");
        let mut i = hash(key) & self.mask;
        loop {
            let k = &self.slots[i].0;
            if k == key || *k == [0; W] {
                return i;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Ask the processor to bring `key`'s home slot into the cache, so
    /// that a lookup of it a little later does not wait on memory. A hint
    /// only: nothing is read or changed.
    #[inline]
    pub(crate) fn prefetch(&self, key: &[u64; W]) {
        dalkon_store::cache::prefetch(&self.slots[hash(key) & self.mask]);
    }

    #[inline]
    pub(crate) fn get(&self, key: &[u64; W]) -> Option<&V> {
        let (k, v) = &self.slots[self.find(key)];
        (k == key).then_some(v)
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, key: &[u64; W]) -> Option<&mut V> {
        let i = self.find(key);
        let (k, v) = &mut self.slots[i];
        (k == key).then_some(v)
    }

    /// Set the value of `key`, adding the key if it is new.
    #[inline]
    pub(crate) fn insert(&mut self, key: [u64; W], value: V) {
        let i = self.find(&key);
        if self.slots[i].0 == key {
            self.slots[i].1 = value;
            return;
        }
        self.slots[i] = (key, value);
        self.len += 1;
        if self.len * 8 > self.slots.len() * MAX_LOAD_EIGHTHS {
            self.grow();
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let size = old.len() * 2;
        self.slots = dalkon_store::huge::vec_with(size, || ([0; W], V::default()));
        self.mask = size - 1;
        for (key, value) in old {
            if key != [0; W] {
                let i = self.find(&key);
                self.slots[i] = (key, value);
            }
        }
    }

    /// Every value held.
    pub(crate) fn values(&self) -> impl Iterator<Item = &V> {
        self.slots
            .iter()
            .filter(|(k, _)| *k != [0; W])
            .map(|(_, v)| v)
    }
}

/// A slot number from the key's words: each word multiplied in (the
/// constant is 2^64 over the golden ratio), the high bits folded down.
#[inline]
fn hash<const W: usize>(key: &[u64; W]) -> usize {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = 0u64;
    for &w in key {
        h = (h.rotate_left(23) ^ w).wrapping_mul(K);
    }
    (h ^ (h >> 29) ^ (h >> 47)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_kept_and_replaced_through_growth() {
        let mut t: Table<2, u32> = Table::with_capacity(4);
        for i in 1..=10_000u64 {
            t.insert([i, i * 7], i as u32);
        }
        for i in 1..=10_000u64 {
            assert_eq!(t.get(&[i, i * 7]), Some(&(i as u32)));
        }
        assert_eq!(t.get(&[3, 3]), None);
        t.insert([5, 35], 0);
        *t.get_mut(&[6, 42]).unwrap() = 1;
        assert_eq!((t.get(&[5, 35]), t.get(&[6, 42])), (Some(&0), Some(&1)));
        assert_eq!(t.values().count(), 10_000);
    }
}
