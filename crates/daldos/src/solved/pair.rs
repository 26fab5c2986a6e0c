//! Solving a layer and its mirror: layer `(a, b)` and layer `(b, a)` (A to
//! throw in both) are solved together, because a play that captures
//! nothing hands the throw to the other side, whose position, mirrored, is
//! in the swapped layer.
//!
//! Their components (`index.rs`) are solved in an order where every play
//! leaving a component leads to one solved before: by the pieces left on
//! the two row patterns (fewer first), then by their progress (more
//! first). A player's play either takes a piece off its row pattern or
//! raises its progress, so that order is a topological one; components
//! with the same key never lead into each other and are solved in
//! parallel (rayon), each by one thread: the same bytes for any thread
//! count.

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};

use dalkon_rules::daldos::Variants;
use rayon::prelude::*;

use dalkon_rules::daldos::Position;

use super::component::{self, Lookup, Member};
use super::index::{Component, LayerIndex, LayerKey};
use super::Tables;

/// How one layer went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerStats {
    /// The layer.
    pub key: LayerKey,
    /// Positions in it.
    pub positions: u64,
    /// The most sweeps any of its components needed.
    pub sweeps: u32,
    /// Position updates made: each component's positions times its
    /// sweeps, summed (the work of the iteration, for speed figures).
    pub updates: u64,
    /// The largest gap `hi - lo` left.
    pub gap: f64,
    /// Mean of the midpoints `(lo + hi) / 2`.
    pub mean_w: f64,
    /// Whether some component stopped changing before its gap closed
    /// (the gap is then the chance that the game never ends).
    pub stalled: bool,
}

/// The bounds of a layer being solved, interleaved `lo, hi` by rank.
pub(crate) struct Building {
    pub index: LayerIndex,
    pub values: Vec<f64>,
    pub sweeps: u32,
    pub updates: u64,
    pub stalled: bool,
}

/// A component to solve: up to two members (the component and its mirror
/// in the swapped layer) given as (layer slot, component).
pub(crate) struct Job {
    /// Its place in the order: jobs of one key form a group, solved in
    /// parallel.
    pub key: (u32, Reverse<u32>),
    pub members: Vec<(usize, Component)>,
}

/// The layers of a pair: `key`, and its swap when different.
pub(crate) fn pair_keys(key: LayerKey) -> Vec<LayerKey> {
    if key.a == key.b {
        vec![key]
    } else {
        vec![key, key.swapped()]
    }
}

/// The jobs of a pair (its layers' indices by slot), in solving order.
pub(crate) fn jobs(indices: &[&LayerIndex]) -> Vec<Job> {
    let mut jobs = Vec::new();
    for c in indices[0].components() {
        let progress = c.a.progress() + c.b.progress();
        let k = c.a.pieces() + c.b.pieces();
        let partner_slot = indices.len() - 1;
        let partner = indices[partner_slot].component(c.b, c.a);
        let mut members = vec![(0, c)];
        if partner_slot == 1 {
            members.push((1, partner));
        } else if partner.start < c.start {
            continue; // solved with its partner
        } else if partner.start > c.start {
            members.push((0, partner));
        }
        jobs.push(Job {
            key: (k, Reverse(progress)),
            members,
        });
    }
    jobs.sort_by_key(|j| j.key);
    jobs
}

/// The members of `job` as the component solver takes them.
pub(crate) fn members<'a>(job: &Job, indices: &[&'a LayerIndex]) -> Vec<Member<'a>> {
    job.members
        .iter()
        .map(|&(slot, comp)| {
            let index = indices[slot];
            let place = index.place(&index.position(&comp, 0));
            Member {
                slot,
                index,
                comp,
                k: place.k,
                patterns: place.patterns,
            }
        })
        .collect()
}

/// The outside of a component in one process: the pair's bounds so far,
/// and the lower layers of the tables.
struct InMemory<'a> {
    own: Vec<&'a [f64]>,
    tables: &'a Tables,
}

impl Lookup for InMemory<'_> {
    fn own(&self, slot: usize, r: u64) -> (f64, f64) {
        let r = r as usize;
        (self.own[slot][2 * r], self.own[slot][2 * r + 1])
    }
    fn lower(&self, pos: &Position) -> (f64, f64) {
        self.tables.lower_bounds(pos)
    }
}

/// Solve layer `key` and its swap (when different), reading captures from
/// `lower`. Returns the built layers (first `key`, then its swap).
pub(crate) fn solve_pair(
    key: LayerKey,
    v: &Variants,
    lower: &Tables,
    eps: f64,
    stop: &AtomicBool,
    mut on_done: impl FnMut(u64),
) -> Option<Vec<Building>> {
    let keys = pair_keys(key);
    let mut own: Vec<Building> = keys
        .iter()
        .map(|&k| {
            let index = LayerIndex::new(k);
            let n = index.size() as usize;
            let mut values = vec![0.0; 2 * n];
            for i in 0..n {
                values[2 * i + 1] = 1.0;
            }
            Building {
                index,
                values,
                sweeps: 0,
                updates: 0,
                stalled: false,
            }
        })
        .collect();
    let indices: Vec<LayerIndex> = own.iter().map(|b| b.index.clone()).collect();
    let indices: Vec<&LayerIndex> = indices.iter().collect();
    let jobs = jobs(&indices);
    let mut at = 0;
    while at < jobs.len() {
        let end = at + jobs[at..].partition_point(|j| j.key == jobs[at].key);
        let group = &jobs[at..end];
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let solved: Option<Vec<component::Solved>> = {
            let outside = InMemory {
                own: own.iter().map(|b| &b.values[..]).collect(),
                tables: lower,
            };
            group
                .par_iter()
                .map(|job| {
                    // Raised: the rest of the group is skipped and the
                    // pair abandoned (nothing of it is written).
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    let members = members(job, &indices);
                    Some(component::solve(&members, v, &indices, &outside, eps))
                })
                .collect()
        };
        let solved = solved?;
        let mut done = 0;
        for (job, s) in group.iter().zip(solved) {
            let mut off = 0usize;
            for &(slot, comp) in &job.members {
                let b = &mut own[slot];
                let len = comp.len as usize;
                let start = comp.start as usize;
                b.values[2 * start..2 * (start + len)]
                    .copy_from_slice(&s.values[2 * off..2 * (off + len)]);
                b.sweeps = b.sweeps.max(s.sweeps);
                b.updates += comp.len * u64::from(s.sweeps);
                b.stalled |= s.stalled;
                off += len;
                done += comp.len;
            }
        }
        on_done(done);
        at = end;
    }
    Some(own)
}

/// The statistics of a built layer.
pub(crate) fn stats(b: &Building) -> LayerStats {
    let n = b.index.size();
    let mut gap = 0.0f64;
    let mut sum = 0.0f64;
    for pair in b.values.chunks_exact(2) {
        gap = gap.max(pair[1] - pair[0]);
        sum += (pair[0] + pair[1]) / 2.0;
    }
    LayerStats {
        key: b.index.key(),
        positions: n,
        sweeps: b.sweeps,
        updates: b.updates,
        gap,
        mean_w: if n == 0 { 0.0 } else { sum / n as f64 },
        stalled: b.stalled,
    }
}
