//! Transposition table for the expectiminimax search.
//!
//! Keyed on the full position plus the remaining depth (never on a hash
//! alone, so a collision can never change a value), storing the tightest
//! bounds `lo <= value <= hi` learnt so far; `lo == hi` is an exact value.
//! Each entry also says whether its bounds came from static evaluations
//! (hold only at that depth) or from finished games alone (hold for the
//! game itself): the search reports which of its values are exact.
//!
//! Trade-offs, stated as Stockfish does: the table belongs to one search
//! worker (no sharing, so no locks and no dependence on thread timing), and
//! when it reaches its capacity it is simply cleared. Clearing loses work but
//! is deterministic, which replacement schemes driven by timing are not; and
//! values never depend on what the table holds, only node counts do.

use std::hash::{Hash, Hasher};

use hashbrown::{Equivalent, HashMap};

/// Bounds on the value of a position at a given depth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The value is at least this.
    pub lo: f64,
    /// The value is at most this.
    pub hi: f64,
    /// The bounds depend on a static evaluation: they hold for the value
    /// at this depth, not necessarily for the game's value.
    pub estimated: bool,
}

impl Bounds {
    /// Nothing known: values lie in `[0, 1]`.
    pub const UNKNOWN: Bounds = Bounds {
        lo: 0.0,
        hi: 1.0,
        estimated: false,
    };

    /// The exact value, if known.
    pub fn exact(&self) -> Option<f64> {
        (self.lo == self.hi).then_some(self.lo)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key<P> {
    pos: P,
    depth: u32,
}

/// A borrowed key, hashed exactly like [`Key`], so probing needs no clone.
struct KeyRef<'a, P> {
    pos: &'a P,
    depth: u32,
}

impl<P: Hash> Hash for KeyRef<'_, P> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.pos.hash(state);
        self.depth.hash(state);
    }
}

impl<P: Eq> Equivalent<Key<P>> for KeyRef<'_, P> {
    fn equivalent(&self, key: &Key<P>) -> bool {
        self.depth == key.depth && *self.pos == key.pos
    }
}

/// Transposition table from (position, depth) to value bounds.
#[derive(Debug, Clone)]
pub struct Table<P> {
    map: HashMap<Key<P>, Bounds>,
    capacity: usize,
    clears: u64,
}

impl<P: Clone + Eq + Hash> Table<P> {
    /// An empty table that is cleared whenever it would exceed `capacity`
    /// entries (`capacity == 0` disables storing altogether).
    pub fn new(capacity: usize) -> Table<P> {
        Table {
            map: HashMap::new(),
            capacity,
            clears: 0,
        }
    }

    /// What is known about `pos` searched to `depth`.
    pub fn probe(&self, pos: &P, depth: u32) -> Option<Bounds> {
        self.map.get(&KeyRef { pos, depth }).copied()
    }

    /// Record bounds for `pos` at `depth`, intersected with what was known
    /// (an estimate if either was).
    pub fn store(&mut self, pos: &P, depth: u32, bounds: Bounds) {
        if self.capacity == 0 {
            return;
        }
        if let Some(old) = self.map.get_mut(&KeyRef { pos, depth }) {
            old.lo = old.lo.max(bounds.lo);
            old.hi = old.hi.min(bounds.hi);
            old.estimated |= bounds.estimated;
            return;
        }
        if self.map.len() >= self.capacity {
            self.map.clear();
            self.clears += 1;
        }
        self.map.insert(
            Key {
                pos: pos.clone(),
                depth,
            },
            bounds,
        );
    }

    /// Entries held now.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// How many times the table filled up and was cleared.
    pub fn clears(&self) -> u64 {
        self.clears
    }

    /// Take out the entries searched to `min_depth` or deeper (the others
    /// are dropped), in no particular order, leaving the table empty.
    pub fn drain_deep(&mut self, min_depth: u32) -> Vec<(P, u32, Bounds)> {
        self.map
            .drain()
            .filter(|(k, _)| k.depth >= min_depth)
            .map(|(k, b)| (k.pos, k.depth, b))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_intersect_and_depths_are_separate() {
        let mut t = Table::new(10);
        let b = |lo, hi, estimated| Bounds { lo, hi, estimated };
        t.store(&7u32, 2, b(0.25, 1.0, false));
        t.store(&7u32, 2, b(0.0, 0.5, false));
        assert_eq!(t.probe(&7, 2), Some(b(0.25, 0.5, false)));
        assert_eq!(t.probe(&7, 3), None);
        t.store(&7u32, 2, b(0.375, 0.375, true));
        assert_eq!(t.probe(&7, 2).unwrap().exact(), Some(0.375));
        // Bounds met with an estimate are an estimate.
        assert!(t.probe(&7, 2).unwrap().estimated);
    }

    #[test]
    fn draining_keeps_the_deep_entries() {
        let mut t = Table::new(10);
        let b = Bounds {
            lo: 0.5,
            hi: 0.75,
            estimated: true,
        };
        t.store(&1u32, 1, b);
        t.store(&2u32, 2, b);
        t.store(&3u32, 3, b);
        let mut kept = t.drain_deep(2);
        kept.sort_by_key(|&(p, _, _)| p);
        assert_eq!(kept, vec![(2, 2, b), (3, 3, b)]);
        assert!(t.is_empty());
    }

    #[test]
    fn full_table_is_cleared() {
        let mut t = Table::new(2);
        t.store(&1u32, 1, Bounds::UNKNOWN);
        t.store(&2u32, 1, Bounds::UNKNOWN);
        t.store(&3u32, 1, Bounds::UNKNOWN);
        assert_eq!(t.len(), 1);
        assert_eq!(t.clears(), 1);
        assert!(t.probe(&1, 1).is_none());
        let mut off = Table::new(0);
        off.store(&1u32, 1, Bounds::UNKNOWN);
        assert!(off.is_empty());
    }
}
