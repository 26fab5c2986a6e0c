//! Retrograde solving of one database level (docs/rules.md §2.2–2.3).
//!
//! Level `k` holds every position with `k` seeds on the board, the side to
//! move's row first (see `rank.rs`), and for each its **future margin**: what
//! the side to move will still gain in its store minus what the opponent
//! will, under perfect play. Stores are not part of the index because they
//! never influence play.
//!
//! # Why one pass per level suffices
//!
//! A move either lowers the seeds on the board (a seed reached a store, or a
//! capture, or the end sweep) — its successor is in a lower, finished
//! level — or keeps them. When it keeps them, no seed reached a store, so
//! the lap chain never left the mover's own row (leaving it means passing
//! the mover's store, which always receives a seed) and there was no
//! capture: every seed lifted was sown into a later hole of the same row,
//! and the opponent's row is untouched. With the *potential*
//! `Φ(row) = Σ i·count(i)` (holes numbered from 0), the mover's row
//! potential strictly rises and the opponent's stays equal, so the total
//! potential of both rows strictly rises. No seed reached the store, so it
//! was not a bonus move either: the successor has the other side to move,
//! and normalising it swaps the rows, which leaves the total unchanged.
//!
//! So, processing a level in **decreasing total potential**, every
//! same-level successor is already solved. Positions of equal total
//! potential never depend on each other and are solved in parallel; the
//! buckets go one after the other. Each entry is a pure function of entries
//! already final, so the bytes do not depend on the thread count or the
//! order inside a bucket. Debug builds assert both facts (the potential rise
//! and that the successor's entry is already written) on every same-level
//! move.

use std::sync::atomic::{AtomicI8, Ordering};

use dalkon_rules::dakon::{Position, Rules, Side};
use rayon::prelude::*;

use crate::progress::Progress;
use crate::rank::Ranker;

/// The largest board (holes per row) a database is built for. Positions
/// go up to [`dalkon_rules::dakon::MAX_HOLES`]; the builder's per-batch
/// successor arrays are sized for this many holes instead, and a board this
/// wide only fits in memory with a few seeds on it anyway (levels `0..=K`
/// hold `C(K + 2n, 2n)` entries). The search solves wider boards without
/// databases.
pub const MAX_DB_HOLES: usize = 16;

/// Marks an entry not yet solved (margins lie in `-127..=127`).
const UNSOLVED: i8 = i8::MIN;

/// Units (mover rows) handed to a worker at a time; each unit is a whole
/// list of opponent rows, so a chunk is typically thousands of positions.
const CHUNK: usize = 64;

/// Every row (composition of `t` seeds into `n` holes) for `t <= max_k`,
/// stored flat, in lexicographic order within each sum, and grouped by
/// potential.
#[derive(Debug)]
pub struct RowTable {
    holes: usize,
    cells: Vec<u8>,
    /// Index of the first row of sum `t` (one more entry at the end).
    start: Vec<usize>,
    /// `by_potential[t][φ]`: row ranks (within sum `t`) of potential `φ`.
    by_potential: Vec<Vec<Vec<u32>>>,
}

impl RowTable {
    /// All rows of up to `max_k` seeds in `holes` holes.
    pub fn new(holes: usize, max_k: u32) -> RowTable {
        let mut cells = Vec::new();
        let mut start = Vec::with_capacity(max_k as usize + 2);
        let mut by_potential = Vec::with_capacity(max_k as usize + 1);
        for t in 0..=max_k {
            start.push(cells.len() / holes);
            let mut groups = vec![Vec::new(); t as usize * (holes - 1) + 1];
            let mut row = vec![0u8; holes];
            let mut rank = 0u32;
            // Lexicographic walk: the last hole takes whatever is left.
            fill(&mut row, 0, t, &mut |r| {
                cells.extend_from_slice(r);
                groups[potential(r) as usize].push(rank);
                rank += 1;
            });
            by_potential.push(groups);
        }
        start.push(cells.len() / holes);
        RowTable {
            holes,
            cells,
            start,
            by_potential,
        }
    }

    /// Row `rank` of sum `t`.
    #[inline]
    pub fn row(&self, t: u32, rank: u32) -> &[u8] {
        let at = (self.start[t as usize] + rank as usize) * self.holes;
        &self.cells[at..at + self.holes]
    }

    /// Ranks of the rows of sum `t` and potential `phi` (empty if none).
    pub fn with_potential(&self, t: u32, phi: u32) -> &[u32] {
        self.by_potential[t as usize]
            .get(phi as usize)
            .map_or(&[], |v| v.as_slice())
    }
}

fn fill(row: &mut [u8], i: usize, rest: u32, visit: &mut impl FnMut(&[u8])) {
    if i + 1 == row.len() {
        row[i] = rest as u8;
        visit(row);
        return;
    }
    for a in 0..=rest {
        row[i] = a as u8;
        fill(row, i + 1, rest - a, visit);
    }
}

/// `Φ(row) = Σ i·count(i)`, holes numbered from 0.
#[inline]
pub fn potential(row: &[u8]) -> u32 {
    row.iter()
        .enumerate()
        .map(|(i, &c)| i as u32 * u32::from(c))
        .sum()
}

/// What a level build reads: the rules, the ranking tables and the finished
/// lower levels (`lower[j]` is level `j`, entries as stored bytes).
#[derive(Debug, Clone, Copy)]
pub struct LevelInputs<'a> {
    /// The rule set.
    pub rules: Rules,
    /// Ranking tables covering at least the level being built.
    pub ranker: &'a Ranker,
    /// Rows covering at least the level being built.
    pub rows: &'a RowTable,
    /// Levels `0..k`, finished.
    pub lower: &'a [&'a [u8]],
}

/// Solve level `k = inputs.lower.len()`: the future margin of every
/// position with `k` seeds on the board, in rank order, as stored bytes.
pub fn build_level(inputs: LevelInputs<'_>, progress: &dyn Progress) -> Vec<u8> {
    let k = inputs.lower.len() as u32;
    let n = inputs.ranker.holes();
    let count = inputs.ranker.level_count(k);
    let count = usize::try_from(count).expect("level size checked against memory first");
    progress.level_started(k, count as u64);
    if k == 0 {
        progress.advance(1);
        progress.level_finished(0);
        return vec![0];
    }
    let cur: Vec<AtomicI8> = (0..count).map(|_| AtomicI8::new(UNSOLVED)).collect();
    let solver = LevelSolver {
        inputs,
        k,
        cur: &cur,
    };
    let max_phi = k * (n as u32 - 1);
    for phi in (0..=max_phi).rev() {
        // The bucket: every (mover row X, opponent rows Y) with
        // Φ(X) + Φ(Y) = phi, as units (X, the list of matching Y).
        let mut units: Vec<(u32, u32, &[u32])> = Vec::new();
        for s in 0..=k {
            let t = k - s;
            let max_x = s * (n as u32 - 1);
            for phx in 0..=max_x.min(phi) {
                let ys = inputs.rows.with_potential(t, phi - phx);
                if ys.is_empty() {
                    continue;
                }
                for &x in inputs.rows.with_potential(s, phx) {
                    units.push((s, x, ys));
                }
            }
        }
        units.par_chunks(CHUNK).for_each(|chunk| {
            solver.solve_chunk(chunk);
            progress.advance(chunk.iter().map(|u| u.2.len() as u64).sum());
        });
    }
    let out: Vec<u8> = cur.into_iter().map(|e| e.into_inner() as u8).collect();
    debug_assert!(out.iter().all(|&e| e as i8 != UNSOLVED));
    progress.level_finished(k);
    out
}

/// Positions solved together by [`LevelSolver::solve_chunk`].
const BATCH: usize = 32;

/// Positions whose successors are ranked but not yet read.
struct Batch {
    succ: [Successor; BATCH * MAX_DB_HOLES],
    /// Where each position's entry goes.
    target: [usize; BATCH],
    /// How many successors each position has in `succ`, in order.
    moves: [u8; BATCH],
    len: usize,
    succ_len: usize,
}

/// Where a move leads: the mover's store gain, and the successor's entry
/// with the sign it counts with for the mover (`-1` when the opponent moves
/// next).
#[derive(Debug, Clone, Copy, Default)]
struct Successor {
    index: usize,
    level: u32,
    gain: i16,
    sign: i16,
}

struct LevelSolver<'a> {
    inputs: LevelInputs<'a>,
    k: u32,
    cur: &'a [AtomicI8],
}

impl LevelSolver<'_> {
    /// Solve every position of the units of `chunk`: mover row `x` (rank
    /// within sum `s`) with the opponent rows `ys` (ranks within `k - s`).
    ///
    /// Positions go in batches of [`BATCH`] in two passes: the first plays
    /// every move and ranks every successor, the second only reads the
    /// successors' entries. The reads of the second pass are independent of
    /// each other, so the processor overlaps their cache misses, which
    /// otherwise dominate the build once levels outgrow the caches.
    fn solve_chunk(&self, chunk: &[(u32, u32, &[u32])]) {
        let k = self.k;
        let rows = self.inputs.rows;
        let mut batch = Batch {
            succ: [Successor::default(); BATCH * MAX_DB_HOLES],
            target: [0; BATCH],
            moves: [0; BATCH],
            len: 0,
            succ_len: 0,
        };
        for &(s, x, ys) in chunk {
            let t = k - s;
            let mover = rows.row(s, x);
            let base = self.inputs.ranker.base(mover, k) as usize;
            if s == 0 {
                // The side to move has no seeds: the game is over and the
                // opponent sweeps all k (docs/rules.md §2.3).
                for &y in ys {
                    self.cur[base + y as usize].store(-(k as i8), Ordering::Relaxed);
                }
                continue;
            }
            for &y in ys {
                let pos = Position::new(mover, rows.row(t, y), [0, 0], Side::South)
                    .expect("at most 16 holes and 127 seeds");
                let before = batch.succ_len;
                for hole in pos.moves() {
                    batch.succ[batch.succ_len] = self.successor(&pos, hole);
                    batch.succ_len += 1;
                }
                batch.target[batch.len] = base + y as usize;
                batch.moves[batch.len] = (batch.succ_len - before) as u8;
                batch.len += 1;
                if batch.len == BATCH {
                    self.flush(&mut batch);
                }
            }
        }
        self.flush(&mut batch);
    }

    /// The second pass over a batch: read the successors, store the maxima.
    fn flush(&self, batch: &mut Batch) {
        let mut e = 0;
        for j in 0..batch.len {
            let mut best = i32::MIN;
            let end = e + batch.moves[j] as usize;
            for s in &batch.succ[e..end] {
                let entry = i32::from(self.entry(s.level, s.index));
                best = best.max(i32::from(s.gain) + i32::from(s.sign) * entry);
            }
            e = end;
            debug_assert!(best.unsigned_abs() <= self.k, "margin {best}");
            self.cur[batch.target[j]].store(best as i8, Ordering::Relaxed);
        }
        batch.len = 0;
        batch.succ_len = 0;
    }

    /// Play `hole` in `pos` (South to move, empty stores, not over) and say
    /// where the successor's entry is and how it counts for the mover.
    #[inline]
    fn successor(&self, pos: &Position, hole: usize) -> Successor {
        let k = self.k;
        let next = pos.play_unchecked(hole, &self.inputs.rules);
        let south = u32::from(next.store(Side::South));
        let north = u32::from(next.store(Side::North));
        // The stores started empty, so they hold exactly what this move
        // moved off the board, and the difference is the mover's gain.
        let gain = south as i16 - north as i16;
        let left = k - south - north;
        let ranker = self.inputs.ranker;
        let (sign, level, index) = if left == 0 {
            // Game over (or nothing left): level 0's single entry is 0.
            (1, 0, 0)
        } else if next.side_to_move() == Side::South {
            // Bonus move: the same side moves again.
            let index = ranker.rank(next.pits(Side::South), next.pits(Side::North), left);
            (1, left, index as usize)
        } else {
            if left == k {
                self.check_same_level(pos, &next);
            }
            let index = ranker.rank(next.pits(Side::North), next.pits(Side::South), left);
            (-1, left, index as usize)
        };
        Successor {
            index,
            level,
            gain,
            sign,
        }
    }

    /// Entry `index` of level `level` (the current one or a finished one).
    #[inline]
    fn entry(&self, level: u32, index: usize) -> i8 {
        if level == self.k {
            let v = self.cur[index].load(Ordering::Relaxed);
            debug_assert_ne!(v, UNSOLVED, "same-level successor not yet solved");
            v
        } else {
            self.inputs.lower[level as usize][index] as i8
        }
    }

    /// The argument of the module documentation, checked (debug builds).
    #[inline]
    fn check_same_level(&self, pos: &Position, next: &Position) {
        debug_assert_eq!(
            next.pits(Side::North),
            pos.pits(Side::North),
            "a same-level move changed the opponent's row"
        );
        debug_assert!(
            potential(next.pits(Side::South)) + potential(next.pits(Side::North))
                > potential(pos.pits(Side::South)) + potential(pos.pits(Side::North)),
            "a same-level move did not raise the potential: {pos} -> {next}"
        );
        let _ = (pos, next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_table_is_lexicographic_and_grouped() {
        let rows = RowTable::new(3, 4);
        assert_eq!(rows.row(4, 0), &[0, 0, 4]);
        assert_eq!(rows.row(4, 1), &[0, 1, 3]);
        assert_eq!(rows.row(4, 14), &[4, 0, 0]);
        assert_eq!(rows.row(0, 0), &[0, 0, 0]);
        // Potential 8 = 2·4 only for [0, 0, 4]; potential 0 only [4, 0, 0].
        assert_eq!(rows.with_potential(4, 8), &[0]);
        assert_eq!(rows.with_potential(4, 0), &[14]);
        assert_eq!(rows.with_potential(4, 9), &[] as &[u32]);
        let all: usize = (0..=8).map(|p| rows.with_potential(4, p).len()).sum();
        assert_eq!(all, 15);
    }
}
