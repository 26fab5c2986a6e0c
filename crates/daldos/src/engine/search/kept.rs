//! A transposition table kept across the root searches of one game (the
//! decisions of a game being analysed, each searched by iterative
//! deepening), so that what one search proved about a position is not
//! searched again by the next.
//!
//! Why it is sound: an entry holds bounds on the value of a position at a
//! depth (`tt.rs`), and that value depends only on the position, the depth
//! and the search options that shape values (the game, its evaluation,
//! pruning) — never on the root. A kept table is therefore only valid for
//! searches with the same game and options, which its owner guarantees by
//! keeping one per analysis.
//!
//! Why it does not depend on the thread count: during a root search the
//! kept table is only read (by every root play's [`Searcher`], alongside
//! its own table); the entries the searchers learnt are added after the
//! parallel part, from the searchers that finished (a searcher cut by its
//! node share or a stop adds nothing). What is added is a *set* of
//! (position, depth, bounds): bounds of one key are intersected, which does
//! not depend on the order, and when the table would overflow the shallowest
//! depths of the new entries are dropped (then, if still too many, the old
//! table is emptied), which depends only on the set. So the table's
//! contents, and with them every later search's node counts, are the same
//! for any number of threads.
//!
//! Trade-offs: each miss of a searcher's own table costs one more probe;
//! the entries one root search learnt are held until it ends (at most its
//! chance nodes, so bounded by its node budget). Entries are keyed by depth
//! and each decision moves the horizon one throw on, so a decision reuses
//! mostly what its shallower iterations need and what transposes; measured
//! on a 48-throw Norwegian game (`daldos analyse --max-nodes 2000000
//! --time 600 --threads 1`, engine:1 against itself, seed 1): without the
//! kept table 87.9 M nodes, depths 3/4/5 in 23/23/2 decisions; keeping
//! entries of depth >= 2 only, 86.8 M nodes and the same depths; keeping
//! every depth ([`KEPT_MIN_DEPTH`] = 1), 87.1 M nodes with a deeper search
//! in 3 decisions (22/22/4) and 16 % less CPU time (64.7 s against 77.2 s),
//! peak memory 98 MB against 8 MB.
//!
//! [`Searcher`]: super::Searcher

use std::hash::Hash;

use super::MAX_DEPTH;
use crate::engine::tt::{Bounds, Table};

/// The shallowest depth whose entries are kept.
pub const KEPT_MIN_DEPTH: u32 = 1;

/// Entries a kept table holds by default (about 100 MB on the full boards).
pub const KEPT_CAPACITY: usize = 1 << 21;

/// A table kept across root searches with the same game and options.
#[derive(Debug, Clone)]
pub struct KeptTable<P> {
    pub(super) table: Table<P>,
    capacity: usize,
    added: u64,
    emptied: u64,
}

impl<P: Clone + Eq + Hash> KeptTable<P> {
    /// An empty kept table of at most `capacity` entries.
    pub fn new(capacity: usize) -> KeptTable<P> {
        KeptTable {
            table: Table::new(capacity),
            capacity,
            added: 0,
            emptied: 0,
        }
    }

    /// Entries held now.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Entries added so far (over all root searches).
    pub fn added(&self) -> u64 {
        self.added
    }

    /// How many times the table was emptied to make room.
    pub fn emptied(&self) -> u64 {
        self.emptied
    }

    /// What the table knows about `pos` at `depth`.
    pub fn probe(&self, pos: &P, depth: u32) -> Option<Bounds> {
        self.table.probe(pos, depth)
    }

    /// Add the entries one root search learnt (each batch one searcher's),
    /// as a set: see the module documentation.
    pub(super) fn add(&mut self, batches: Vec<Vec<(P, u32, Bounds)>>) {
        let mut by_depth = [0usize; MAX_DEPTH as usize + 1];
        for &(_, d, _) in batches.iter().flatten() {
            by_depth[(d as usize).min(MAX_DEPTH as usize)] += 1;
        }
        let mut count: usize = by_depth.iter().sum();
        let mut floor = 0usize;
        while count > self.capacity && floor <= MAX_DEPTH as usize {
            count -= by_depth[floor];
            floor += 1;
        }
        if self.table.len() + count > self.capacity {
            self.table = Table::new(self.capacity);
            self.emptied += 1;
        }
        for (pos, depth, bounds) in batches.into_iter().flatten() {
            if depth as usize >= floor {
                self.table.store(&pos, depth, bounds);
                self.added += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(lo: f64, hi: f64) -> Bounds {
        Bounds {
            lo,
            hi,
            estimated: true,
        }
    }

    #[test]
    fn batches_are_added_as_a_set() {
        let mut one = KeptTable::new(8);
        let mut two = KeptTable::new(8);
        let x = vec![(1u32, 2, b(0.25, 1.0)), (2, 2, b(0.0, 0.5))];
        let y = vec![(1u32, 2, b(0.0, 0.75)), (3, 3, b(0.5, 0.5))];
        one.add(vec![x.clone(), y.clone()]);
        two.add(vec![y, x]);
        for (k, d) in [(1, 2), (2, 2), (3, 3)] {
            assert_eq!(one.probe(&k, d), two.probe(&k, d));
        }
        assert_eq!(one.probe(&1, 2), Some(b(0.25, 0.75)));
        assert_eq!(one.len(), 3);
    }

    #[test]
    fn overflow_drops_the_shallowest_new_entries_then_the_old_table() {
        let mut t = KeptTable::new(3);
        t.add(vec![vec![(1u32, 2, b(0.0, 1.0)), (2, 2, b(0.0, 1.0))]]);
        assert_eq!(t.len(), 2);
        // Four new entries: the two of depth 2 go, the two of depth 3 stay;
        // with the old two that would be four, so the old table is emptied.
        t.add(vec![vec![
            (3u32, 2, b(0.0, 1.0)),
            (4, 2, b(0.0, 1.0)),
            (5, 3, b(0.0, 1.0)),
            (6, 3, b(0.0, 1.0)),
        ]]);
        assert_eq!(t.len(), 2);
        assert_eq!(t.emptied(), 1);
        assert!(t.probe(&5, 3).is_some() && t.probe(&6, 3).is_some());
        assert!(t.probe(&1, 2).is_none() && t.probe(&3, 2).is_none());
    }
}
