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
//! and every hit compares the whole key, so a hit can never be a different
//! position: no proved value depends on luck. The key type is chosen by the
//! board: `u128` up to 8 holes a row, `[u128; 2]` up to 16, `[u64; 8]` up to
//! 32 (the most a position holds).
//!
//! Layout: buckets of [`SLOTS`] entries in cache-line-aligned words, the
//! bucket picked by a hash of the key. An entry is a sequence word, a data
//! word (bounds, best move, work) and the key's words; 32 bytes for 8 holes a
//! row, 48 for 16, 80 for 32, so a bucket is 2, 3 or 5 whole cache lines.
//!
//! No locks on the read path: each entry is a *seqlock*. A writer makes the
//! sequence odd (compare-and-swap; when another writer holds it, the store is
//! simply dropped — the table is a cache), writes, and makes it even again;
//! a reader takes the entry only if the sequence was even and unchanged
//! around its reads, so a torn entry (a reader racing a writer) is never
//! used: it is a miss. Unlike the "xor trick" on a hashed key, this needs
//! no luck either: with a 64-bit sequence a torn read can never pass.
//!
//! Replacement: a store of a position already held intersects the bounds
//! (both are true). A new position takes an empty slot of its bucket, else
//! the slot of least value: the smallest subtree (`work`), exact bounds
//! before one-sided ones at the same work. Big subtrees are the expensive
//! ones to redo and stay; the newest position always gets in.
//!
//! Growth: the table's byte budget is a cap, not an allocation. It starts
//! at [`INITIAL_BUCKETS`] and doubles (one thread migrates the entries that
//! move to the new half while the others go on searching; an entry written
//! to an old bucket meanwhile may be lost, which only costs work) when half
//! of its slots are filled, up to the cap; so a small search uses little
//! memory and a long one at most the budget.

use std::hash::Hash;
use std::marker::PhantomData;
use std::sync::atomic::{fence, AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

use dalkon_rules::dakon::{Position, MAX_HOLES};

/// A packed, exact key: the rows seen from the side to move.
pub trait PackedKey: Copy + Eq + Hash + Send + Sync + std::fmt::Debug {
    /// Largest number of holes per row this key can hold.
    const MAX_HOLES: usize;
    /// 64-bit words of the key (at most 8).
    const WORDS: usize;
    /// The key of `pos` (rows only, mover's row first).
    fn pack(pos: &Position) -> Self;
    /// Word `i < WORDS` of the key.
    fn word(&self, i: usize) -> u64;
    /// Where word `i` of the key sits in the common order of every key
    /// width: word `w` of the mover's row at `2 w`, of the opponent's at
    /// `2 w + 1`. Words past a narrow key's are zero, so every width hashes
    /// a position alike (and a search does the same work with each).
    fn place(i: usize) -> usize;
    /// A well-mixed 64-bit hash of the key.
    #[inline]
    fn hash64(&self) -> u64 {
        let mut acc = 0u64;
        for i in 0..Self::WORDS {
            acc = acc.wrapping_add(self.word(i).wrapping_mul(HASH_MUL[Self::place(i)]));
        }
        mix(acc)
    }
    /// [`Self::hash64`] of the key with these words.
    fn hash_words(words: &[u64; 8]) -> u64 {
        let mut acc = 0u64;
        for (i, &w) in words.iter().enumerate().take(Self::WORDS) {
            acc = acc.wrapping_add(w.wrapping_mul(HASH_MUL[Self::place(i)]));
        }
        mix(acc)
    }
}

/// Odd multipliers of the key words, by place (any 64-bit odd constants).
const HASH_MUL: [u64; 8] = [
    0x9e37_79b9_7f4a_7c15,
    0xc2b2_ae3d_27d4_eb4f,
    0x1656_67b1_9e37_79f9,
    0x27d4_eb2f_1656_67c5,
    0x85eb_ca77_c2b2_ae63,
    0xff51_afd7_ed55_8ccd,
    0xc4ce_b9fe_1a85_ec53,
    0x632b_e59b_d9b4_e019,
];

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
    const WORDS: usize = 2;
    #[inline]
    fn pack(pos: &Position) -> Self {
        let (a, b) = rows_from_mover(pos);
        u128::from(word(a, 0)) | (u128::from(word(b, 0)) << 64)
    }
    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        (*self >> (64 * i)) as u64
    }
    #[inline(always)]
    fn place(i: usize) -> usize {
        i
    }
}

/// Key for rows of up to 16 holes (32 bytes).
impl PackedKey for [u128; 2] {
    const MAX_HOLES: usize = 16;
    const WORDS: usize = 4;
    #[inline]
    fn pack(pos: &Position) -> Self {
        let (a, b) = rows_from_mover(pos);
        let half = |r| u128::from(word(r, 0)) | (u128::from(word(r, 1)) << 64);
        [half(a), half(b)]
    }
    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        (self[i / 2] >> (64 * (i % 2))) as u64
    }
    #[inline(always)]
    fn place(i: usize) -> usize {
        // [mover w0, mover w1, opponent w0, opponent w1]
        2 * (i % 2) + i / 2
    }
}

/// Key for rows of up to 32 holes (64 bytes), the widest a position holds.
impl PackedKey for [u64; 8] {
    const MAX_HOLES: usize = 32;
    const WORDS: usize = 8;
    #[inline]
    fn pack(pos: &Position) -> Self {
        let (a, b) = rows_from_mover(pos);
        std::array::from_fn(|i| if i < 4 { word(a, i) } else { word(b, i - 4) })
    }
    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        self[i]
    }
    #[inline(always)]
    fn place(i: usize) -> usize {
        // [mover w0..w3, opponent w0..w3]
        2 * (i % 4) + i / 4
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

    fn pack(&self) -> u64 {
        OCCUPIED
            | u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.work) << 40
    }

    fn unpack(d: u64) -> Entry {
        Entry {
            lower: d as u16 as i16,
            upper: (d >> 16) as u16 as i16,
            best: (d >> 32) as u8,
            work: (d >> 40) as u8,
        }
    }

    /// Worth of keeping: bigger subtrees first, exact before one-sided.
    fn worth(d: u64) -> u32 {
        if d & OCCUPIED == 0 {
            return 0;
        }
        let e = Entry::unpack(d);
        1 + 2 * u32::from(e.work) + u32::from(e.is_exact())
    }
}

/// Bit of the data word set in a used slot.
const OCCUPIED: u64 = 1 << 63;

/// Entries a bucket holds.
pub const SLOTS: usize = 4;

/// Buckets a table starts with (or its cap, if smaller).
pub const INITIAL_BUCKETS: usize = 1 << 14;

/// Bytes one entry costs (sequence, data and key words); the table never
/// holds more than its budget in entries of this size.
pub fn bytes_per_entry<K: PackedKey>() -> usize {
    8 * (K::WORDS + 2)
}

/// What a [`Table::store`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// The position was held: its bounds were intersected with the new ones.
    Merged,
    /// A new position in an empty slot.
    Filled,
    /// A new position over another one (the least worth of its bucket).
    Replaced,
    /// Another thread was writing the slot: nothing stored.
    Busy,
    /// The bounds do not fit the entry (never for Dakon positions, whose
    /// margins are at most 255): nothing stored.
    Refused,
}

/// One cache line of words.
#[repr(align(64))]
#[derive(Default)]
struct Line([AtomicU64; 8]);

/// A lock-free, growing, capped bucket table shared by all search threads.
pub struct Table<K: PackedKey> {
    /// Level 0 holds buckets `0..base`, level `l >= 1` buckets
    /// `base << (l - 1) .. base << l` (the last one maybe fewer).
    levels: Vec<OnceLock<Box<[Line]>>>,
    base: usize,
    max_buckets: usize,
    /// Buckets in use (at most `max_buckets`).
    buckets: AtomicUsize,
    growing: AtomicBool,
    filled: AtomicU64,
    replaced: AtomicU64,
    grows: AtomicU64,
    key: PhantomData<fn() -> K>,
}

impl<K: PackedKey> std::fmt::Debug for Table<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("cap", &self.capacity())
            .field("buckets", &self.buckets.load(Ordering::Relaxed))
            .field("inserted", &self.inserted())
            .finish()
    }
}

/// The bucket of hash `h` among `n` buckets: the low bits of `h` modulo the
/// next power of two, folded onto the lower half past `n` (so doubling
/// moves an entry from bucket `i` to `i + n` or leaves it).
#[inline]
fn bucket_of(h: u64, n: usize) -> usize {
    let m = n.next_power_of_two();
    let i = (h as usize) & (m - 1);
    if i >= n {
        i - m / 2
    } else {
        i
    }
}

impl<K: PackedKey> Table<K> {
    /// Smallest table accepted (entries).
    pub const MIN_ENTRIES: usize = 4096;

    const ENTRY_WORDS: usize = K::WORDS + 2;
    const BUCKET_WORDS: usize = SLOTS * Self::ENTRY_WORDS;

    /// A table using at most `bytes` of memory for its entries (never fewer
    /// than [`Self::MIN_ENTRIES`] entries). Memory is allocated as it fills.
    pub fn with_bytes(bytes: usize) -> Self {
        Self::with_entries(bytes / bytes_per_entry::<K>())
    }

    /// A table holding at most `cap` entries (rounded down to whole
    /// buckets, at least [`Self::MIN_ENTRIES`]).
    pub fn with_entries(cap: usize) -> Self {
        debug_assert_eq!(Self::BUCKET_WORDS % 8, 0, "buckets are whole lines");
        // Bucket indices are taken from a u64 hash and fit a u32 shape.
        let max_buckets = (cap.max(Self::MIN_ENTRIES) / SLOTS).min(1 << 40);
        let base = max_buckets.min(INITIAL_BUCKETS);
        let mut levels_needed = 1;
        while base << (levels_needed - 1) < max_buckets {
            levels_needed += 1;
        }
        let levels: Vec<OnceLock<Box<[Line]>>> =
            (0..levels_needed).map(|_| OnceLock::new()).collect();
        let first = levels[0].set(Self::lines(base));
        debug_assert!(first.is_ok());
        Table {
            levels,
            base,
            max_buckets,
            buckets: AtomicUsize::new(base),
            growing: AtomicBool::new(false),
            filled: AtomicU64::new(0),
            replaced: AtomicU64::new(0),
            grows: AtomicU64::new(0),
            key: PhantomData,
        }
    }

    /// The zeroed lines of `buckets` buckets, asked of the kernel on huge
    /// pages: a large table's lookups then seldom miss the translation
    /// buffer (`dalkon_store::huge`: 1.3–1.6× faster on a 2 GB table).
    fn lines(buckets: usize) -> Box<[Line]> {
        dalkon_store::huge::vec_with(buckets * Self::BUCKET_WORDS / 8, Line::default)
            .into_boxed_slice()
    }

    /// Capacity in entries (the cap; memory is allocated as it fills).
    pub fn capacity(&self) -> usize {
        self.max_buckets * SLOTS
    }

    /// Entries the table has room for now (it grows up to the capacity).
    pub fn allocated(&self) -> usize {
        self.buckets.load(Ordering::Relaxed) * SLOTS
    }

    /// Number of new keys ever stored, counted by [`Self::count`] (a key
    /// replaced and stored again counts twice).
    pub fn inserted(&self) -> u64 {
        self.filled.load(Ordering::Relaxed) + self.replaced.load(Ordering::Relaxed)
    }

    /// Number of entries overwritten by another position (counted by
    /// [`Self::count`]): 0 means nothing stored was ever lost.
    pub fn replaced(&self) -> u64 {
        self.replaced.load(Ordering::Relaxed)
    }

    /// Times the table doubled.
    pub fn grows(&self) -> u64 {
        self.grows.load(Ordering::Relaxed)
    }

    /// Entries currently held (slots filled, counted by [`Self::count`]).
    pub fn len(&self) -> usize {
        self.filled.load(Ordering::Relaxed) as usize
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The lines of bucket `i` and the bucket's first word in them.
    #[inline]
    fn locate(&self, i: usize) -> Option<(&[Line], usize)> {
        let (level, offset) = if i < self.base {
            (0, i)
        } else {
            let l = (usize::BITS - 1 - i.leading_zeros()) as usize;
            let base_log = self.base.trailing_zeros() as usize;
            (l - base_log + 1, i - (1 << l))
        };
        let lines = self.levels.get(level)?.get()?;
        Some((lines, offset * Self::BUCKET_WORDS))
    }

    #[inline(always)]
    fn word(lines: &[Line], w: usize) -> &AtomicU64 {
        &lines[w >> 3].0[w & 7]
    }

    /// The entry at word `at` if its sequence is even and unchanged around
    /// the reads and it holds `key`: (sequence, data word).
    #[inline]
    fn read(lines: &[Line], at: usize, key: &K) -> Option<(u64, u64)> {
        let s1 = Self::word(lines, at).load(Ordering::Acquire);
        if s1 & 1 == 1 {
            return None;
        }
        let d = Self::word(lines, at + 1).load(Ordering::Relaxed);
        let mut same = true;
        for t in 0..K::WORDS {
            same &= Self::word(lines, at + 2 + t).load(Ordering::Relaxed) == key.word(t);
        }
        fence(Ordering::Acquire);
        let s2 = Self::word(lines, at).load(Ordering::Relaxed);
        (s1 == s2 && same && d & OCCUPIED != 0).then_some((s1, d))
    }

    /// Take the entry at `at` for writing (its sequence odd), or `None`
    /// when another writer holds it. Returns the even sequence it had.
    #[inline]
    fn lock(lines: &[Line], at: usize) -> Option<u64> {
        let seq = Self::word(lines, at);
        let s = seq.load(Ordering::Relaxed);
        if s & 1 == 1 {
            return None;
        }
        seq.compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
            .ok()?;
        // Orders the odd sequence before the writes (readers fence on their
        // side before their second look at the sequence).
        fence(Ordering::Release);
        Some(s)
    }

    #[inline]
    fn unlock(lines: &[Line], at: usize, s: u64) {
        Self::word(lines, at).store(s + 2, Ordering::Release);
    }

    /// Ask the processor to bring `key`'s bucket into the cache, so that a
    /// [`Self::get`] or [`Self::store`] of it a little later does not wait
    /// on memory (the search calls it for each child as it generates the
    /// children, before searching the first). A hint only: no effect on
    /// what is read or stored.
    #[inline]
    pub fn prefetch(&self, key: &K) {
        let h = key.hash64();
        if let Some((lines, b)) = self.locate(bucket_of(h, self.buckets.load(Ordering::Relaxed))) {
            // A bucket is whole lines (`with_entries`).
            for line in &lines[b / 8..(b + Self::BUCKET_WORDS) / 8] {
                dalkon_store::cache::prefetch(line);
            }
        }
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn get(&self, key: &K) -> Option<Entry> {
        let h = key.hash64();
        let (lines, b) = self.locate(bucket_of(h, self.buckets.load(Ordering::Relaxed)))?;
        let k0 = key.word(0);
        for j in 0..SLOTS {
            let at = b + j * Self::ENTRY_WORDS;
            if Self::word(lines, at + 2).load(Ordering::Relaxed) != k0 {
                continue;
            }
            if let Some((_, d)) = Self::read(lines, at, key) {
                return Some(Entry::unpack(d));
            }
        }
        None
    }

    /// Merge new bounds for `key`: if held, the stored interval becomes the
    /// intersection of the old one and `[lower, upper]` (both are true, so
    /// their intersection is), `best` and `work` are taken from the larger
    /// search; otherwise the key takes the slot of least worth in its
    /// bucket. The caller counts what happened with [`Self::count`].
    #[inline]
    pub fn store(&self, key: K, lower: i32, upper: i32, best: u8, work: u8) -> Stored {
        let (Ok(lower), Ok(upper)) = (i16::try_from(lower), i16::try_from(upper)) else {
            return Stored::Refused;
        };
        let h = key.hash64();
        let Some((lines, b)) = self.locate(bucket_of(h, self.buckets.load(Ordering::Relaxed)))
        else {
            return Stored::Busy;
        };
        let k0 = key.word(0);
        for j in 0..SLOTS {
            let at = b + j * Self::ENTRY_WORDS;
            if Self::word(lines, at + 2).load(Ordering::Relaxed) != k0 {
                continue;
            }
            let Some(s) = Self::lock(lines, at) else {
                return Stored::Busy;
            };
            let d = Self::word(lines, at + 1).load(Ordering::Relaxed);
            let same = (0..K::WORDS)
                .all(|t| Self::word(lines, at + 2 + t).load(Ordering::Relaxed) == key.word(t));
            if same && d & OCCUPIED != 0 {
                let mut old = Entry::unpack(d);
                old.lower = old.lower.max(lower);
                old.upper = old.upper.min(upper);
                if work >= old.work || old.best == 0 {
                    if best != 0 {
                        old.best = best;
                    }
                    old.work = old.work.max(work);
                }
                Self::word(lines, at + 1).store(old.pack(), Ordering::Relaxed);
                Self::unlock(lines, at, s);
                return Stored::Merged;
            }
            Self::unlock(lines, at, s);
        }
        // A new key: the slot of least worth (the first empty one).
        let mut victim = 0;
        let mut least = u32::MAX;
        for j in 0..SLOTS {
            let d = Self::word(lines, b + j * Self::ENTRY_WORDS + 1).load(Ordering::Relaxed);
            let w = Entry::worth(d);
            if w < least {
                least = w;
                victim = j;
                if w == 0 {
                    break;
                }
            }
        }
        let at = b + victim * Self::ENTRY_WORDS;
        let Some(s) = Self::lock(lines, at) else {
            return Stored::Busy;
        };
        let was = Self::word(lines, at + 1).load(Ordering::Relaxed);
        for t in 0..K::WORDS {
            Self::word(lines, at + 2 + t).store(key.word(t), Ordering::Relaxed);
        }
        let e = Entry {
            lower,
            upper,
            best,
            work,
        };
        Self::word(lines, at + 1).store(e.pack(), Ordering::Relaxed);
        Self::unlock(lines, at, s);
        if was & OCCUPIED != 0 {
            Stored::Replaced
        } else {
            Stored::Filled
        }
    }

    /// Count stores ([`Stored::Filled`] and [`Stored::Replaced`] outcomes,
    /// gathered by each thread) and grow the table when half of its slots
    /// are filled. Searches call this every few thousand nodes, so with one
    /// thread the table grows at the same points every run.
    pub fn count(&self, filled: u64, replaced: u64) {
        if filled == 0 && replaced == 0 {
            return;
        }
        let now = self.filled.fetch_add(filled, Ordering::Relaxed) + filled;
        if replaced != 0 {
            self.replaced.fetch_add(replaced, Ordering::Relaxed);
        }
        let n = self.buckets.load(Ordering::Relaxed);
        if n < self.max_buckets && now >= (n * SLOTS / 2) as u64 {
            self.grow(n);
        }
    }

    /// Double the buckets in use from `n` (up to the cap), moving each
    /// entry whose bucket changes; one thread at a time, the others go on.
    fn grow(&self, n: usize) {
        if self
            .growing
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return;
        }
        if self.buckets.load(Ordering::Relaxed) != n {
            self.growing.store(false, Ordering::Release);
            return;
        }
        debug_assert!(n.is_power_of_two());
        let new_n = (2 * n).min(self.max_buckets);
        let level = (n.trailing_zeros() - self.base.trailing_zeros()) as usize + 1;
        let set = self.levels[level].set(Self::lines(new_n - n));
        debug_assert!(set.is_ok());
        let mut keys = [0u64; 8];
        for i in 0..new_n - n {
            let (Some((src, a)), Some((dst, z))) = (self.locate(i), self.locate(i + n)) else {
                continue;
            };
            for j in 0..SLOTS {
                let at = a + j * Self::ENTRY_WORDS;
                let Some(s) = Self::lock(src, at) else {
                    continue;
                };
                let d = Self::word(src, at + 1).load(Ordering::Relaxed);
                if d & OCCUPIED != 0 {
                    for (t, k) in keys.iter_mut().enumerate().take(K::WORDS) {
                        *k = Self::word(src, at + 2 + t).load(Ordering::Relaxed);
                    }
                    if bucket_of(K::hash_words(&keys), new_n) == i + n {
                        let to = z + j * Self::ENTRY_WORDS;
                        if let Some(s2) = Self::lock(dst, to) {
                            for (t, &k) in keys.iter().enumerate().take(K::WORDS) {
                                Self::word(dst, to + 2 + t).store(k, Ordering::Relaxed);
                            }
                            Self::word(dst, to + 1).store(d, Ordering::Relaxed);
                            Self::unlock(dst, to, s2);
                        }
                        Self::word(src, at + 1).store(0, Ordering::Relaxed);
                    }
                }
                Self::unlock(src, at, s);
            }
        }
        self.buckets.store(new_n, Ordering::Release);
        self.grows.fetch_add(1, Ordering::Relaxed);
        self.growing.store(false, Ordering::Release);
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

    /// Store and count, as the search does.
    fn put<K: PackedKey>(t: &Table<K>, key: K, lower: i32, upper: i32, best: u8, work: u8) {
        match t.store(key, lower, upper, best, work) {
            Stored::Filled => t.count(1, 0),
            Stored::Replaced => t.count(0, 1),
            Stored::Merged => {}
            other => panic!("{other:?} with one thread"),
        }
    }

    #[test]
    fn store_intersects_bounds_and_replacement_keeps_big_subtrees() {
        let t: Table<u128> = Table::with_entries(Table::<u128>::MIN_ENTRIES);
        put(&t, 7, -5, 5, 1, 3);
        put(&t, 7, -2, 9, 2, 4);
        let e = t.get(&7).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.work), (-2, 5, 2, 4));
        assert_eq!((t.len(), t.inserted(), t.replaced()), (1, 1, 0));
        // Overfill: keys with large work must survive the replacements.
        let n = 4 * t.capacity() as u128;
        for k in 100..100 + n {
            let work = if k % 97 == 0 { 40 } else { 1 };
            put(&t, k, 0, 0, 1, work);
        }
        assert!(t.len() <= t.capacity());
        assert_eq!(t.len(), t.capacity(), "every slot filled");
        assert_eq!(t.inserted(), 1 + n as u64);
        assert!(t.replaced() >= n as u64 - t.capacity() as u64);
        let mut kept_big = 0;
        for k in (100..100 + n).filter(|k| k % 97 == 0) {
            if t.get(&k).is_some() {
                kept_big += 1;
            }
        }
        let big = (100..100 + n).filter(|k| k % 97 == 0).count();
        assert_eq!(kept_big, big, "big subtrees must never be replaced first");
        // Exact bounds outlive one-sided ones of the same work.
        let u: Table<u128> = Table::with_entries(Table::<u128>::MIN_ENTRIES);
        for k in 0..4 * u.capacity() as u128 {
            let (lo, hi) = if k % 5 == 0 { (3, 3) } else { (3, 9) };
            put(&u, k, lo, hi, 1, 2);
        }
        let exact = (0..4 * u.capacity() as u128)
            .filter_map(|k| u.get(&k))
            .filter(|e| e.is_exact())
            .count();
        assert!(
            exact > u.capacity() / 2,
            "{exact} exact of {}",
            u.capacity()
        );
    }

    #[test]
    fn the_table_grows_to_its_cap_and_keeps_what_it_held() {
        let cap = 16 * INITIAL_BUCKETS * SLOTS;
        let t: Table<[u128; 2]> = Table::with_entries(cap);
        assert_eq!(t.capacity(), cap);
        assert_eq!(t.allocated(), INITIAL_BUCKETS * SLOTS);
        let n = cap as u128 / 2;
        let key = |k: u128| [k * 0x1_0000_0001, k ^ 0x55];
        for k in 0..n {
            put(
                &t,
                key(k),
                -(k as i32 % 200),
                k as i32 % 100,
                (k % 32) as u8,
                5,
            );
        }
        assert!(t.grows() >= 3, "grew {} times", t.grows());
        assert!(t.allocated() <= t.capacity());
        let mut missing = 0u64;
        for k in 0..n {
            match t.get(&key(k)) {
                Some(e) => assert_eq!(
                    (e.lower, e.upper, e.best, e.work),
                    (
                        -(k as i32 % 200) as i16,
                        (k as i32 % 100) as i16,
                        (k % 32) as u8,
                        5
                    )
                ),
                None => missing += 1,
            }
        }
        // Growth loses nothing with one thread: only replacements do.
        assert_eq!(missing, t.replaced());
        // At half load a few buckets overflow (about 6 % of the keys here).
        assert!(missing < n as u64 / 10, "{missing} of {n} lost");
        assert_eq!(t.len() as u64 + t.replaced(), n as u64);
    }

    #[test]
    fn bounds_that_do_not_fit_are_refused() {
        let t: Table<u128> = Table::with_entries(0);
        assert_eq!(t.capacity(), Table::<u128>::MIN_ENTRIES);
        assert_eq!(t.store(1, -40_000, 0, 1, 1), Stored::Refused);
        assert_eq!(t.store(1, 0, 40_000, 1, 1), Stored::Refused);
        assert_eq!(t.get(&1), None);
        assert_eq!(t.store(1, -255, 255, 32, 64), Stored::Filled);
        let e = t.get(&1).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.work), (-255, 255, 32, 64));
    }

    /// Threads writing and reading the same few buckets never see a torn
    /// entry: every hit is one that was stored for that very key.
    #[test]
    fn racing_threads_never_read_a_torn_entry() {
        let t: Table<[u64; 8]> = Table::with_entries(0);
        // Keys that agree in word 0 (the quick check) and differ elsewhere.
        let key = |k: u64| -> [u64; 8] {
            std::array::from_fn(|i| if i == 0 { 1 } else { k * (i as u64 + 1) })
        };
        let value = |k: u64| (k % 500) as i32 - 250;
        let hits = AtomicU64::new(0);
        std::thread::scope(|s| {
            for th in 0..4u64 {
                let (t, hits) = (&t, &hits);
                s.spawn(move || {
                    for r in 0..200_000u64 {
                        let k = (r * 7 + th) % 64;
                        if r % 2 == 0 {
                            t.store(key(k), value(k), value(k), (k % 32) as u8, (r % 60) as u8);
                        } else if let Some(e) = t.get(&key(k)) {
                            assert_eq!((e.lower, e.upper), (value(k) as i16, value(k) as i16));
                            assert_eq!(e.best, (k % 32) as u8);
                            hits.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn every_key_width_hashes_a_position_alike() {
        let rows = [[3u8, 0, 1, 0, 2, 0, 0], [0u8, 1, 0, 4, 0, 0, 5]];
        let p =
            Position::new(&rows[0], &rows[1], [0, 0], dalkon_rules::dakon::Side::North).unwrap();
        let h = u128::pack(&p).hash64();
        assert_eq!(<[u128; 2]>::pack(&p).hash64(), h);
        assert_eq!(<[u64; 8]>::pack(&p).hash64(), h);
        let p =
            Position::new(&[1; 13], &[2; 13], [0, 0], dalkon_rules::dakon::Side::South).unwrap();
        assert_eq!(
            <[u64; 8]>::pack(&p).hash64(),
            <[u128; 2]>::pack(&p).hash64()
        );
        let mut w = [0u64; 8];
        let k = <[u128; 2]>::pack(&p);
        for (i, x) in w.iter_mut().enumerate().take(4) {
            *x = k.word(i);
        }
        assert_eq!(<[u128; 2]>::hash_words(&w), k.hash64());
    }
}
