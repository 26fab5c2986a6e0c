//! Solving one component: the positions of a layer that share two row
//! patterns, with their mirror images in the swapped layer (module doc of
//! `index.rs`). Plays out of the component lead to positions already
//! solved; plays inside it are the cycles, and the bounds of RULES §1.8
//! are iterated over them until they meet.
//!
//! The plays are generated once (by the rules crate) into a compact list:
//! per position and throw, the best bound over the plays leaving the
//! component (a constant) and the plays staying inside (local indices).
//! Sweeps then only read that list. A sweep updates the bounds in place, in
//! local index order (Gauss–Seidel): still a bound at every step, since
//! each new value is a maximum over bounds, and about twice as fast to
//! converge as updating from the previous sweep. A component is solved by
//! one thread, so its values do not depend on the thread count.

use dalkon_rules::daldos::{play_results, Position, Side, Throw, Variants};

use super::index::{Component, LayerIndex, LayerKey};

/// Throws with their weights out of 16.
const THROWS: [(Throw, u32); 10] = Throw::DISTINCT;

/// The flag bit of an inside play whose result has the opponent to throw.
const FLIP: u32 = 1 << 31;

/// Where a position's bounds are when it is not inside the component: in
/// a component of the pair solved before, or in a lower layer. In one
/// process they are all in memory; in a job partitioned across ranks
/// (`partition.rs`) they are asked of the ranks that own them.
pub(crate) trait Lookup: Sync {
    /// Bounds `(lo, hi)` of the position of rank `r` in the pair's layer
    /// `slot`.
    fn own(&self, slot: usize, r: u64) -> (f64, f64);
    /// Bounds `(lo, hi)` of `pos` (A to throw, not finished, in a lower
    /// layer already solved).
    fn lower(&self, pos: &Position) -> (f64, f64);
}

/// One member of a component: a layer of the pair (its slot in the
/// [`Own`] list) and its component there.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Member<'a> {
    pub slot: usize,
    pub index: &'a LayerIndex,
    pub comp: Component,
    /// The pattern sizes and ranks of `comp`, as in [`super::index::Place`].
    pub k: (u8, u8),
    pub patterns: (u64, u64),
}

/// The result of solving a component: bounds per member, interleaved
/// `lo, hi` in member order, and how it went.
#[derive(Debug, Clone)]
pub(crate) struct Solved {
    pub values: Vec<f64>,
    pub sweeps: u32,
    /// The sweeps stopped changing anything before the gap closed.
    pub stalled: bool,
}

/// The plays of every position of the component, flattened, positions
/// numbered in sweep order (falling [`phase`]).
struct Plays {
    /// Per position: the sum, over the throws with no play staying inside,
    /// of weight × the best `(lo, hi)` over their plays (out of 16).
    fixed: Vec<[f64; 2]>,
    /// Per position: its range of `throws` (`first[s]..first[s + 1]`).
    first: Vec<u32>,
    /// The throws with a play staying inside.
    throws: Vec<ThrowPlays>,
    /// Sweep index of each inside result, with [`FLIP`] when the opponent
    /// throws next.
    inside: Vec<u32>,
    /// Local index (member order) of each sweep index.
    local: Vec<u32>,
}

/// One throw of one position with plays staying inside the component.
#[derive(Debug, Clone, Copy)]
struct ThrowPlays {
    /// The throw's weight out of 16.
    weight: f64,
    /// The best `(lo, hi)` over its plays leaving the component.
    outside: [f64; 2],
    /// The end of its range of `inside` (it starts where the previous
    /// throw's ends).
    end: u32,
}

/// How far round the loop the loop pieces of `pos` are, summed over both
/// sides: a loop hole's index on its piece's path counted from `ML` (0)
/// to the far end of the enemy row (`2L`). Every play inside a component
/// raises it, except where a piece passes from the end of the enemy row
/// back into the middle row, and the mirror keeps it; so a sweep in
/// falling phase mostly finds the bounds of a position's results already
/// updated, and carries news once round the loop per sweep instead of a
/// turn or two.
fn phase(pos: &Position) -> u32 {
    let l = u32::from(pos.board().len());
    let index = |h: u32| {
        if h >= l && h <= 2 * l {
            2 * l - h // Mc is hole L + c: index L - c
        } else if h < l {
            l + 1 + h // Ac is hole c - 1: index L + c
        } else {
            h - l // Bc is hole 2L + c: index L + c
        }
    };
    let row_a = (1u128 << l) - 1;
    let row_b = row_a << (2 * l + 1);
    let loop_pieces = (pos.mask(Side::A) & !row_a) | (pos.mask(Side::B) & !row_b);
    let mut m = loop_pieces;
    let mut sum = 0;
    while m != 0 {
        sum += index(m.trailing_zeros());
        m &= m - 1;
    }
    sum
}

/// The plays of the component of `members`, its outside read from
/// `outside`; `own` are the indices of the pair's layers, by slot.
fn generate(
    members: &[Member<'_>],
    v: &Variants,
    own: &[&LayerIndex],
    outside: &dyn Lookup,
) -> Plays {
    let mut offsets = Vec::with_capacity(members.len());
    let mut total = 0u64;
    let mut positions = Vec::new();
    for m in members {
        offsets.push(total);
        total += m.comp.len;
        positions.extend((0..m.comp.len).map(|r| m.index.position(&m.comp, r)));
    }
    let n = total as usize;
    // Sweep order: by falling phase (ties by local index).
    let mut local: Vec<u32> = (0..n as u32).collect();
    local.sort_by_key(|&i| std::cmp::Reverse(phase(&positions[i as usize])));
    let mut sweep_of = vec![0u32; n];
    for (k, &i) in local.iter().enumerate() {
        sweep_of[i as usize] = k as u32;
    }
    let mut plays = Plays {
        fixed: Vec::with_capacity(n),
        first: Vec::with_capacity(n + 1),
        throws: Vec::new(),
        inside: Vec::new(),
        local,
    };
    plays.first.push(0);
    let mut results = Vec::new();
    let mut here = Vec::new();
    for k in 0..n {
        let pos = positions[plays.local[k] as usize];
        let mut fixed = [0.0f64, 0.0];
        for (throw, weight) in THROWS {
            play_results(&pos, v, throw, &mut results);
            let mut best = [0.0f64, 0.0];
            here.clear();
            for res in &results {
                if res.is_over(v) {
                    // Only the mover can have captured: it has won.
                    best = [1.0, 1.0];
                    continue;
                }
                let same = res.side_to_move() == Side::A;
                let q = if same { *res } else { res.mirror() };
                let key = LayerKey::of(&q);
                let (lo, hi) = match own.iter().position(|o| o.key() == key) {
                    Some(slot) => {
                        let index = own[slot];
                        let place = index.place(&q);
                        let inside = members.iter().zip(&offsets).find(|(m, _)| {
                            m.slot == slot && place.k == m.k && place.patterns == m.patterns
                        });
                        if let Some((_, off)) = inside {
                            let i = sweep_of[(off + place.loop_rank) as usize];
                            here.push(if same { i } else { i | FLIP });
                            continue;
                        }
                        outside.own(slot, index.rank_of(place))
                    }
                    None => outside.lower(&q),
                };
                let (lo, hi) = if same { (lo, hi) } else { (1.0 - hi, 1.0 - lo) };
                best = [best[0].max(lo), best[1].max(hi)];
            }
            let w = f64::from(weight);
            // A throw whose best play leaving is a sure win needs no
            // inside plays: nothing beats 1.
            if here.is_empty() || best[0] >= 1.0 {
                fixed = [fixed[0] + w * best[0], fixed[1] + w * best[1]];
            } else {
                plays.inside.extend_from_slice(&here);
                plays.throws.push(ThrowPlays {
                    weight: w,
                    outside: best,
                    end: plays.inside.len() as u32,
                });
            }
        }
        plays.fixed.push(fixed);
        plays.first.push(plays.throws.len() as u32);
    }
    plays
}

/// Generate the plays of the component of `members` only for the lookups
/// of `outside` they make (a partitioned job records them, to ask their
/// owners for the bounds before it solves the component).
pub(crate) fn visit(
    members: &[Member<'_>],
    v: &Variants,
    own: &[&LayerIndex],
    outside: &dyn Lookup,
) {
    let _ = generate(members, v, own, outside);
}

/// Solve the component made of `members` (one, or two mirror-related
/// layers), reading every position outside it from `outside`; stop when
/// the largest gap is at most `eps`, or when a sweep changes nothing.
pub(crate) fn solve(
    members: &[Member<'_>],
    v: &Variants,
    own: &[&LayerIndex],
    outside: &dyn Lookup,
    eps: f64,
) -> Solved {
    let plays = generate(members, v, own, outside);
    let n = plays.fixed.len();
    // Bounds in sweep order, interleaved `lo, hi`.
    let mut values = vec![0.0f64; 2 * n];
    for i in 0..n {
        values[2 * i + 1] = 1.0;
    }
    let mut sweeps = 0u32;
    loop {
        sweeps += 1;
        let mut changed = false;
        let mut gap = 0.0f64;
        for s in 0..n {
            let [mut lo, mut hi] = plays.fixed[s];
            let throws = &plays.throws[plays.first[s] as usize..plays.first[s + 1] as usize];
            let mut at = if plays.first[s] == 0 {
                0
            } else {
                plays.throws[plays.first[s] as usize - 1].end as usize
            };
            for t in throws {
                let [mut blo, mut bhi] = t.outside;
                for &e in &plays.inside[at..t.end as usize] {
                    let j = (e & !FLIP) as usize;
                    let (l, h) = (values[2 * j], values[2 * j + 1]);
                    let (l, h) = if e & FLIP != 0 {
                        (1.0 - h, 1.0 - l)
                    } else {
                        (l, h)
                    };
                    // Plain comparisons: bounds are never NaN, and
                    // `f64::max`'s NaN handling costs in this loop.
                    if l > blo {
                        blo = l;
                    }
                    if h > bhi {
                        bhi = h;
                    }
                }
                at = t.end as usize;
                lo += t.weight * blo;
                hi += t.weight * bhi;
            }
            let (lo, hi) = (lo / 16.0, hi / 16.0);
            if lo != values[2 * s] || hi != values[2 * s + 1] {
                changed = true;
                values[2 * s] = lo;
                values[2 * s + 1] = hi;
            }
            gap = gap.max(hi - lo);
        }
        if gap <= eps || !changed {
            // Back to member order.
            let mut out = vec![0.0f64; 2 * n];
            for (k, &i) in plays.local.iter().enumerate() {
                let i = i as usize;
                out[2 * i] = values[2 * k];
                out[2 * i + 1] = values[2 * k + 1];
            }
            return Solved {
                values: out,
                sweeps,
                stalled: gap > eps,
            };
        }
    }
}
