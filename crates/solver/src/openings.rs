//! Openings that win outright: chains of moves of the first player's first
//! turn (a bonus move keeps the turn) that end the game (RULES.md §2.3)
//! before the opponent ever moves, with the first player ahead.
//!
//! A chain ends when a move hands the turn over (not a winning chain, even
//! if the opponent is then lost: the opponent moves) or when the game ends
//! (the mover or the opponent has no seeds left; the sweep applied). The
//! number of chains grows exponentially with their length, but what can
//! follow a position depends only on that position (stores included, as
//! they decide who wins), so a depth-first search memoises, per position:
//! the number of winning continuations, the shortest one and the one with
//! the largest final margin. Ties are broken towards the lexicographically
//! smallest chain (holes ascending), so the answer is deterministic.
//!
//! Within one turn the opponent's store cannot change (only the final sweep
//! feeds it, and that ends the chain), so the mover's store is fixed by the
//! seeds on the board: the rows alone identify a position, and the memo is
//! keyed by the packed rows (`tt::PackedKey`). The memo is a cache with a
//! cap: when it is full, the entries with the smallest subtrees are dropped
//! (as in `tt.rs`); the counts stay exact, only work is repeated.

use dalkon_rules::dakon::{Position, Rules};
use hashbrown::HashTable;

use crate::tt::{cap_within, work_of, PackedKey};

/// The winning first-turn chains of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Openings {
    /// Number of distinct winning chains (move sequences).
    pub winning_chains: u64,
    /// A shortest winning chain (empty when none).
    pub shortest: Vec<usize>,
    /// A winning chain with the largest final margin (empty when none).
    pub best: Vec<usize>,
    /// Final store difference (first player minus opponent) of `best`.
    pub best_margin: Option<i32>,
    /// Positions expanded (distinct positions, unless the memo was full
    /// and some were expanded again).
    pub positions: u64,
}

/// Why the openings could not be counted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    /// More positions expanded than the limit allows.
    #[error("more than {limit} positions expanded in the first turn; the count was abandoned")]
    TooManyPositions {
        /// The limit.
        limit: u64,
    },
    /// The count does not fit in 64 bits.
    #[error("more than 2^64 winning chains; the count was abandoned")]
    CountOverflow,
}

/// What is known of the winning continuations of one position, packed
/// into 16 bytes so that large memos fit: a first move of 0 means "none".
#[derive(Debug, Clone, Copy, Default)]
struct Summary {
    count: u64,
    /// Length of the shortest winning continuation.
    short_len: u16,
    /// First move of the shortest winning continuation (0: none).
    short_first: u8,
    /// Final margin of the best winning continuation.
    best_margin: i16,
    /// First move of the best winning continuation (0: none).
    best_first: u8,
    /// `log2` of the positions expanded below (for the cache sweeps).
    work: u8,
}

/// Limits of an openings search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpeningLimits {
    /// Memory budget of the memo in bytes (its slots never exceed it; a
    /// sweep briefly holds one extra shard, 1/64 of it).
    pub memo_bytes: usize,
    /// Give up after expanding this many positions.
    pub max_expanded: u64,
}

impl Default for OpeningLimits {
    fn default() -> Self {
        OpeningLimits {
            memo_bytes: 256 << 20,
            max_expanded: 2_000_000_000,
        }
    }
}

const MEMO_SHARDS: usize = 64;

/// The memo: 64 shards, each a hash table capped below a power-of-two
/// bucket count, swept (rebuilt with the bigger subtrees only) when full.
struct Memo<K> {
    shards: Vec<HashTable<(K, Summary)>>,
    cap: usize,
    expanded: u64,
    max_expanded: u64,
}

impl<K: PackedKey> Memo<K> {
    fn shard(h: u64) -> usize {
        ((h >> 40) as usize) & (MEMO_SHARDS - 1)
    }

    fn get(&self, k: &K) -> Option<Summary> {
        let h = k.hash64();
        self.shards[Self::shard(h)]
            .find(h, |e| e.0 == *k)
            .map(|e| e.1)
    }

    fn insert(&mut self, k: K, s: Summary) {
        let h = k.hash64();
        let cap = self.cap;
        let table = &mut self.shards[Self::shard(h)];
        if table.len() >= cap {
            let mut hist = [0usize; 256];
            for e in table.iter() {
                hist[e.1.work as usize] += 1;
            }
            let mut above = 0;
            let mut t = 255;
            while t > 0 && above + hist[t] <= cap / 2 {
                above += hist[t];
                t -= 1;
            }
            let t = t as u8;
            let mut fresh = HashTable::with_capacity(cap);
            for e in std::mem::take(table) {
                if e.1.work > t {
                    fresh.insert_unique(e.0.hash64(), e, |e| e.0.hash64());
                }
            }
            *table = fresh;
        }
        table.insert_unique(h, (k, s), |e| e.0.hash64());
    }
}

/// Count and find the winning chains of the side to move's turn in `pos`.
pub fn openings(
    pos: &Position,
    rules: &Rules,
    limits: &OpeningLimits,
) -> Result<Openings, OpeningsError> {
    if pos.holes() <= u128::MAX_HOLES {
        openings_keyed::<u128>(pos, rules, limits)
    } else {
        openings_keyed::<[u128; 2]>(pos, rules, limits)
    }
}

fn openings_keyed<K: PackedKey>(
    pos: &Position,
    rules: &Rules,
    limits: &OpeningLimits,
) -> Result<Openings, OpeningsError> {
    let slot = std::mem::size_of::<(K, Summary)>() + 1;
    let mut memo = Memo::<K> {
        shards: (0..MEMO_SHARDS).map(|_| HashTable::new()).collect(),
        cap: cap_within(limits.memo_bytes / MEMO_SHARDS, slot).max(16),
        expanded: 0,
        max_expanded: limits.max_expanded,
    };
    let root = visit(pos, rules, &mut memo)?;
    let me = pos.side_to_move();
    let mut follow = |pick: fn(&Summary) -> Option<u8>| -> Result<Vec<usize>, OpeningsError> {
        let mut chain = Vec::new();
        let mut p = *pos;
        let mut s = root;
        while let Some(h) = pick(&s) {
            chain.push(usize::from(h));
            p = p.play_unchecked(usize::from(h), rules);
            if p.is_over() || p.side_to_move() != me {
                break;
            }
            s = visit(&p, rules, &mut memo)?;
        }
        Ok(chain)
    };
    let shortest = follow(|s| (s.short_first != 0).then_some(s.short_first))?;
    let best = follow(|s| (s.best_first != 0).then_some(s.best_first))?;
    Ok(Openings {
        winning_chains: root.count,
        shortest,
        best,
        best_margin: (root.best_first != 0).then_some(i32::from(root.best_margin)),
        positions: memo.expanded,
    })
}

fn visit<K: PackedKey>(
    pos: &Position,
    rules: &Rules,
    memo: &mut Memo<K>,
) -> Result<Summary, OpeningsError> {
    let key = K::pack(pos);
    if let Some(s) = memo.get(&key) {
        return Ok(s);
    }
    if memo.expanded >= memo.max_expanded {
        return Err(OpeningsError::TooManyPositions {
            limit: memo.max_expanded,
        });
    }
    memo.expanded += 1;
    let expanded0 = memo.expanded;
    let me = pos.side_to_move();
    let mut s = Summary::default();
    for h in pos.moves() {
        let child = pos.play_unchecked(h, rules);
        let hb = h as u8;
        let (count, len, margin) = if let Some(tv) = child.terminal_value() {
            let margin = if child.side_to_move() == me { tv } else { -tv };
            if margin <= 0 {
                continue;
            }
            (1, 1, margin)
        } else if child.side_to_move() == me {
            let c = visit(&child, rules, memo)?;
            if c.short_first == 0 {
                continue;
            }
            (c.count, c.short_len + 1, i32::from(c.best_margin))
        } else {
            continue;
        };
        s.count = s
            .count
            .checked_add(count)
            .ok_or(OpeningsError::CountOverflow)?;
        if s.short_first == 0 || len < s.short_len {
            s.short_len = len;
            s.short_first = hb;
        }
        if s.best_first == 0 || margin > i32::from(s.best_margin) {
            s.best_margin = margin as i16;
            s.best_first = hb;
        }
    }
    s.work = work_of(memo.expanded - expanded0 + 1);
    memo.insert(key, s);
    Ok(s)
}
