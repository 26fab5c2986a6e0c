//! Transposition table for the exact Dakon search (`search/`), its only user.
//!
//! What is stored: for a position *without its stores* — the two rows seen
//! from the side to move (mover's row first) — a lower and an upper bound on
//! its **future margin** (what the mover will still gain over the opponent
//! from here on, docs/rules.md §2.3 minus the stores already banked), the best
//! move found, and the size of the subtree that produced the bounds. Stores
//! never change what happens next, so positions that differ only in their
//! stores (or in which player is to move, once the rows are seen from the
//! mover) share one entry. The game has no depth horizon: a bound, once
//! proved, is true for ever, so any entry may be used by any search at any
//! time — which is why several threads can share the table without the
//! answer depending on the thread count (only the amount of work does).
//!
//! Keys are exact (the packed rows, one byte per hole), never a lossy hash,
//! so a hit can never be a different position. The key type is chosen by
//! the board: `u128` up to 8 holes a row, `[u128; 2]` up to 16, `[u64; 8]`
//! up to 32 (the most a position holds).
//!
//! Replacement (the trade-off, Stockfish-style): the table has a hard cap in
//! entries derived from a byte budget. It is split into shards (each behind a
//! mutex, selected by middle bits of the hash). When a shard is full, it is
//! *swept*: the entries with the smallest subtrees are dropped until at most
//! half the cap remains (a histogram of `log2(subtree nodes)` picks the
//! threshold). Big subtrees are the expensive ones to redo and are kept;
//! small ones near the leaves are cheap to recompute. A sweep costs one pass
//! over the shard but frees at least half of it, so its cost is amortised
//! O(1) per insertion. What is lost: recently searched small subtrees that
//! would have been hit again soon (an always-replace bucket would keep them),
//! and the sweep is a pause of one pass over a shard. What is gained: no
//! false hits, exact bounds never overwritten by weaker ones of the same
//! position, and a memory use that never exceeds the budget.

use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use dalkon_rules::dakon::{Position, MAX_HOLES};
use hashbrown::HashTable;

/// A packed, exact key: the rows seen from the side to move.
pub trait PackedKey: Copy + Eq + Hash + Send + Sync + std::fmt::Debug {
    /// Largest number of holes per row this key can hold.
    const MAX_HOLES: usize;
    /// The key of `pos` (rows only, mover's row first).
    fn pack(pos: &Position) -> Self;
    /// A well-mixed 64-bit hash of the key.
    fn hash64(&self) -> u64;
}

fn mix(mut x: u64) -> u64 {
    // murmur3 / splitmix finaliser
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The rows seen from the side to move, mover's row first, each as its
/// whole zero-padded array (so a key is read in words, not hole by hole).
fn rows_from_mover(pos: &Position) -> (&[u8; MAX_HOLES], &[u8; MAX_HOLES]) {
    let me = pos.side_to_move();
    (pos.padded_row(me), pos.padded_row(me.other()))
}

/// Bytes `8 * i .. 8 * i + 8` of a row, little-endian: hole `8 * i + 1`
/// in the lowest byte.
#[inline(always)]
fn word(row: &[u8; MAX_HOLES], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&row[8 * i..8 * i + 8]);
    u64::from_le_bytes(w)
}

// Every key holds hole `i` (0-based) of the mover's row in byte `i` of its
// first half and the opponent's in byte `i` of its second half. The holes
// past the board are zero in the padded rows, so whole words are copied.

/// Key for rows of up to 8 holes (16 bytes).
impl PackedKey for u128 {
    const MAX_HOLES: usize = 8;
    #[inline]
    fn pack(pos: &Position) -> Self {
        let (a, b) = rows_from_mover(pos);
        u128::from(word(a, 0)) | (u128::from(word(b, 0)) << 64)
    }
    fn hash64(&self) -> u64 {
        let lo = *self as u64;
        let hi = (*self >> 64) as u64;
        mix(lo.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ mix(hi))
    }
}

/// Key for rows of up to 16 holes (32 bytes).
impl PackedKey for [u128; 2] {
    const MAX_HOLES: usize = 16;
    #[inline]
    fn pack(pos: &Position) -> Self {
        let (a, b) = rows_from_mover(pos);
        let half = |r| u128::from(word(r, 0)) | (u128::from(word(r, 1)) << 64);
        [half(a), half(b)]
    }
    fn hash64(&self) -> u64 {
        self[0].hash64() ^ mix(self[1].hash64().wrapping_add(0x632b_e59b_d9b4_e019))
    }
}

/// Key for rows of up to 32 holes (64 bytes), the widest a position holds.
impl PackedKey for [u64; 8] {
    const MAX_HOLES: usize = 32;
    #[inline]
    fn pack(pos: &Position) -> Self {
        let (a, b) = rows_from_mover(pos);
        std::array::from_fn(|i| if i < 4 { word(a, i) } else { word(b, i - 4) })
    }
    fn hash64(&self) -> u64 {
        self.iter().fold(0x243f_6a88_85a3_08d3, |h, &w| {
            mix(h ^ w.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        })
    }
}

/// What the table knows about one position (future margin, mover's view).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The future margin is at least this.
    pub lower: i16,
    /// The future margin is at most this.
    pub upper: i16,
    /// Best move found (hole 1..=n), 0 if none yet.
    pub best: u8,
    /// `floor(log2(subtree nodes)) + 1` of the search that stored it.
    pub work: u8,
}

impl Entry {
    /// Whether the bounds meet (the exact value is known).
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

/// Bytes one slot costs: key, entry and hashbrown's control byte.
pub fn bytes_per_slot<K: PackedKey>() -> usize {
    std::mem::size_of::<(K, Entry)>() + 1
}

/// Average bytes per entry when full (hashbrown keeps 1/8 of the slots
/// free), for estimates; the real table never exceeds its byte budget.
pub fn bytes_per_entry<K: PackedKey>() -> usize {
    bytes_per_slot::<K>() * 8 / 7 + 1
}

/// The entry cap of one hash table of power-of-two buckets within `bytes`
/// (slots of `slot` bytes): the largest bucket count that fits, times 7/8
/// (hashbrown's load factor), so a table held at or below the cap never
/// grows past that bucket count.
pub fn cap_within(bytes: usize, slot: usize) -> usize {
    let slots = (bytes / slot).max(16);
    let buckets = 1usize << (usize::BITS - 1 - slots.leading_zeros());
    buckets / 8 * 7
}

const SHARD_BITS: u32 = 6;
const SHARDS: usize = 1 << SHARD_BITS;

struct Shard<K> {
    table: HashTable<(K, Entry)>,
    cap: usize,
}

/// A sharded, capped table shared by all search threads.
pub struct Table<K: PackedKey> {
    shards: Vec<Mutex<Shard<K>>>,
    inserted: AtomicU64,
    sweeps: AtomicU64,
    cap: usize,
}

impl<K: PackedKey> std::fmt::Debug for Table<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("cap", &self.cap)
            .field("inserted", &self.inserted())
            .finish()
    }
}

impl<K: PackedKey> Table<K> {
    /// Smallest table accepted (entries).
    pub const MIN_ENTRIES: usize = SHARDS * 64;

    /// A table using at most `bytes` of memory for its slots (never fewer
    /// than [`Self::MIN_ENTRIES`] entries). Memory is allocated as it fills;
    /// a sweep briefly holds one extra shard (1/64 of the table).
    pub fn with_bytes(bytes: usize) -> Self {
        let per = cap_within(bytes / SHARDS, bytes_per_slot::<K>());
        Self::with_entries(per * SHARDS)
    }

    /// A table holding at most `cap` entries.
    pub fn with_entries(cap: usize) -> Self {
        let cap = cap.max(Self::MIN_ENTRIES);
        let per = cap / SHARDS;
        let shards = (0..SHARDS)
            .map(|_| {
                Mutex::new(Shard {
                    table: HashTable::new(),
                    cap: per,
                })
            })
            .collect();
        Table {
            shards,
            inserted: AtomicU64::new(0),
            sweeps: AtomicU64::new(0),
            cap: per * SHARDS,
        }
    }

    /// Capacity in entries.
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Number of keys ever inserted (a key dropped by a sweep and stored
    /// again counts twice).
    pub fn inserted(&self) -> u64 {
        self.inserted.load(Ordering::Relaxed)
    }

    /// Number of sweeps done because a shard was full.
    pub fn sweeps(&self) -> u64 {
        self.sweeps.load(Ordering::Relaxed)
    }

    /// Entries currently held.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().expect("tt shard poisoned").table.len())
            .sum()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn shard(&self, h: u64) -> &Mutex<Shard<K>> {
        // hashbrown takes the bucket from the low bits and the tag from the
        // top 7: select the shard from bits neither uses, or every key of a
        // shard would share its tag.
        &self.shards[((h >> 40) as usize) & (SHARDS - 1)]
    }

    /// The entry of `key`, if stored.
    pub fn get(&self, key: &K) -> Option<Entry> {
        let h = key.hash64();
        let shard = self.shard(h).lock().expect("tt shard poisoned");
        shard.table.find(h, |e| e.0 == *key).map(|e| e.1)
    }

    /// Merge new bounds for `key`: the stored interval becomes the
    /// intersection of the old one and `[lower, upper]` (both are true, so
    /// their intersection is), `best` and `work` are taken from the larger
    /// search.
    pub fn store(&self, key: K, lower: i16, upper: i16, best: u8, work: u8) {
        let h = key.hash64();
        let mut shard = self.shard(h).lock().expect("tt shard poisoned");
        if let Some(e) = shard.table.find_mut(h, |e| e.0 == key) {
            let old = &mut e.1;
            old.lower = old.lower.max(lower);
            old.upper = old.upper.min(upper);
            if work >= old.work || old.best == 0 {
                if best != 0 {
                    old.best = best;
                }
                old.work = old.work.max(work);
            }
            return;
        }
        if shard.table.len() >= shard.cap {
            Self::sweep(&mut shard);
            self.sweeps.fetch_add(1, Ordering::Relaxed);
        }
        shard.table.insert_unique(
            h,
            (
                key,
                Entry {
                    lower,
                    upper,
                    best,
                    work,
                },
            ),
            |e| e.0.hash64(),
        );
        self.inserted.fetch_add(1, Ordering::Relaxed);
    }

    /// Drop the smallest subtrees until at most half the cap remains.
    fn sweep(shard: &mut Shard<K>) {
        let mut hist = [0usize; 256];
        for e in shard.table.iter() {
            hist[e.1.work as usize] += 1;
        }
        let keep_max = shard.cap / 2;
        // Smallest threshold t such that entries with work > t are <= keep_max.
        let mut above = 0usize;
        let mut t = 255usize;
        loop {
            if above + hist[t] > keep_max || t == 0 {
                break;
            }
            above += hist[t];
            t -= 1;
        }
        let t = t as u8;
        // Rebuild rather than erase in place: erasing leaves tombstones that
        // can make hashbrown double the table on a later insert.
        let mut fresh = HashTable::with_capacity(shard.cap);
        for e in std::mem::take(&mut shard.table) {
            if e.1.work > t {
                fresh.insert_unique(e.0.hash64(), e, |e| e.0.hash64());
            }
        }
        shard.table = fresh;
    }
}

/// `floor(log2(nodes)) + 1`, 0 for 0 nodes: the `work` of an entry.
pub fn work_of(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_is_log2_plus_one() {
        assert_eq!(work_of(0), 0);
        assert_eq!(work_of(1), 1);
        assert_eq!(work_of(2), 2);
        assert_eq!(work_of(3), 2);
        assert_eq!(work_of(1024), 11);
    }

    #[test]
    fn store_intersects_bounds_and_sweep_keeps_big_subtrees() {
        let t: Table<u128> = Table::with_entries(Table::<u128>::MIN_ENTRIES);
        t.store(7, -5, 5, 1, 3);
        t.store(7, -2, 9, 2, 4);
        let e = t.get(&7).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.work), (-2, 5, 2, 4));
        // Overfill: keys with large work must survive the sweeps.
        let n = 4 * t.capacity() as u128;
        for k in 100..100 + n {
            let work = if k % 97 == 0 { 40 } else { 1 };
            t.store(k, 0, 0, 1, work);
        }
        assert!(t.len() <= t.capacity());
        assert!(t.sweeps() > 0);
        let mut kept_big = 0;
        for k in (100..100 + n).filter(|k| k % 97 == 0) {
            if t.get(&k).is_some() {
                kept_big += 1;
            }
        }
        let big = (100..100 + n).filter(|k| k % 97 == 0).count();
        assert_eq!(kept_big, big, "big subtrees must never be swept first");
    }
}
