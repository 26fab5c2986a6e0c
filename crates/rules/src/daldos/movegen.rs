//! Play generation (docs/rules.md §1.3): every distinct legal play for a throw.
//!
//! The generator works on the `Copy` bitboard position without allocating;
//! it reports each candidate play to a sink, and the public functions
//! deduplicate by resulting position. Order of candidates (and so of the
//! plays returned, and of the notation kept when several plays lead to one
//! position): separate moves with the first die first, then with the second
//! die first (each by hole index of the first piece, then of the second),
//! then added moves (by hole index, first die first).
//!
//! Choices where docs/rules.md leaves room (stated here once):
//! - a play whose capture ends the game after its first die (or, under
//!   `capture=path`, on an added move's intermediate hole) stops there and
//!   is always legal, even when other plays use both dice; it does not
//!   count as a play using both dice, so when no play uses both, every
//!   one-die play is legal beside it (the player chooses the die);
//! - on a position where the game is already over there is no play: the
//!   functions return nothing (an empty vector).

use super::paths::Paths;
use super::play::{Play, PlayOutcome, Step};
use super::position::{Bits, Position};
use super::side::Side;
use super::throw::Throw;
use super::variants::{CaptureRule, DalRule, Variants};
use super::Hole;

/// A candidate play: up to two steps and its result (side to move not yet
/// updated).
#[derive(Clone, Copy, Debug)]
struct Raw {
    steps: [Step; 2],
    n: u8,
    result: Position,
}

const NO_STEP: Step = Step {
    from: Hole(0),
    to: Hole(0),
    capture: false,
};

/// The fixed parts of one generation: path tables, mover, rules.
#[derive(Clone, Copy)]
struct Gen {
    paths: &'static Paths,
    side: Side,
    v: Variants,
}

impl Gen {
    /// Hole `k` steps after `from` along the mover's path, if every hole on
    /// the way (including the last) is free of own pieces.
    #[inline]
    fn walk(&self, own: u128, from: Hole, k: u8) -> Option<Hole> {
        if own & self.paths.reach(self.side, from, k) != 0 {
            None
        } else {
            Some(self.paths.target(self.side, from, k))
        }
    }

    /// Whether the undalt piece on `from` may be dalled under the dal rule.
    #[inline]
    fn may_dal(&self, pos: &Position, from: Hole) -> bool {
        match self.v.dal {
            DalRule::Any => true,
            DalRule::Sternmost => {
                let und = pos.undalt & pos.pieces[self.side.index()];
                // Highest bit = highest column on either start row.
                und != 0 && 127 - und.leading_zeros() == u32::from(from.0)
            }
        }
    }

    /// The own pieces that might use die `d`: dalt pieces, and for a dal
    /// the undalt pieces the dal rule allows.
    #[inline]
    fn movers(&self, pos: &Position, d: u8) -> u128 {
        let own = pos.pieces[self.side.index()];
        let dalt = own & !pos.undalt;
        if d != 1 {
            return dalt;
        }
        let und = own & pos.undalt;
        match self.v.dal {
            DalRule::Any => own,
            DalRule::Sternmost if und != 0 => dalt | 1u128 << (127 - und.leading_zeros()),
            DalRule::Sternmost => dalt,
        }
    }

    /// Move the piece on `from` to `to` (clearing its undalt bit) and
    /// capture whatever enemy piece stands on `to`.
    #[inline]
    fn relocate(&self, pos: &Position, from: Hole, to: Hole) -> (Position, bool) {
        let mut q = *pos;
        let s = self.side.index();
        let e = self.side.other().index();
        let fb = 1u128 << from.0;
        let tb = 1u128 << to.0;
        let capture = q.pieces[e] & tb != 0;
        q.pieces[s] = (q.pieces[s] & !fb) | tb;
        q.pieces[e] &= !tb;
        q.undalt &= !(fb | tb);
        (q, capture)
    }

    /// One die `d` used on the piece on `from` (an own piece).
    #[inline]
    fn single(&self, pos: &Position, from: Hole, d: u8) -> Option<(Position, Step)> {
        let own = pos.pieces[self.side.index()];
        let undalt = pos.undalt & (1u128 << from.0) != 0;
        let to = if undalt {
            if d != 1 || !self.may_dal(pos, from) {
                return None;
            }
            self.walk(own, from, 1)?
        } else {
            self.walk(own, from, d)?
        };
        let (q, capture) = self.relocate(pos, from, to);
        Some((q, Step { from, to, capture }))
    }

    /// Both dice on the piece on `from`, `x` first then `y`. For an undalt
    /// piece `x` must be the dal.
    #[inline]
    fn added(&self, pos: &Position, from: Hole, x: u8, y: u8) -> Option<Raw> {
        let own = pos.pieces[self.side.index()];
        let undalt = pos.undalt & (1u128 << from.0) != 0;
        if undalt && (x != 1 || !self.may_dal(pos, from)) {
            return None;
        }
        let mid = self.walk(own, from, x)?;
        let to = self.walk(own, mid, y)?;
        let enemy = self.side.other();
        let e = enemy.index();
        if self.v.capture == CaptureRule::Path && pos.pieces[e] & (1u128 << mid.0) != 0 {
            let (q1, _) = self.relocate(pos, from, mid);
            let first = Step {
                from,
                to: mid,
                capture: true,
            };
            if q1.has_lost(enemy, &self.v) {
                return Some(Raw {
                    steps: [first, NO_STEP],
                    n: 1,
                    result: q1,
                });
            }
            let (q2, capture) = self.relocate(&q1, mid, to);
            return Some(Raw {
                steps: [
                    first,
                    Step {
                        from: mid,
                        to,
                        capture,
                    },
                ],
                n: 2,
                result: q2,
            });
        }
        let (q, capture) = self.relocate(pos, from, to);
        Some(Raw {
            steps: [
                Step {
                    from,
                    to: mid,
                    capture: false,
                },
                Step {
                    from: mid,
                    to,
                    capture,
                },
            ],
            n: 2,
            result: q,
        })
    }

    /// Every play using both dice, and every play ending the game after its
    /// first die; returns how many of the former went to `sink`.
    fn full(&self, pos: &Position, throw: Throw, sink: &mut impl FnMut(Raw)) -> usize {
        let mut count = 0;
        let enemy = self.side.other();
        let s = self.side.index();
        let (d1, d2) = (throw.first, throw.second);
        let orders: &[(u8, u8)] = if d1 == d2 {
            &[(d1, d2)]
        } else {
            &[(d1, d2), (d2, d1)]
        };
        for &(x, y) in orders {
            for p in Bits(self.movers(pos, x)) {
                let Some((q1, st1)) = self.single(pos, Hole(p), x) else {
                    continue;
                };
                if st1.capture && q1.has_lost(enemy, &self.v) {
                    sink(Raw {
                        steps: [st1, NO_STEP],
                        n: 1,
                        result: q1,
                    });
                    continue;
                }
                let others = self.movers(&q1, y) & !(1u128 << st1.to.0);
                for r in Bits(others) {
                    if let Some((q2, st2)) = self.single(&q1, Hole(r), y) {
                        sink(Raw {
                            steps: [st1, st2],
                            n: 2,
                            result: q2,
                        });
                        count += 1;
                    }
                }
            }
        }
        for p in Bits(pos.pieces[s]) {
            let from = Hole(p);
            if pos.undalt & (1u128 << p) != 0 {
                if throw.has_dal() {
                    let other = if d1 == 1 { d2 } else { d1 };
                    if let Some(raw) = self.added(pos, from, 1, other) {
                        count += usize::from(raw.n == 2);
                        sink(raw);
                    }
                }
            } else {
                for &(x, y) in orders {
                    if let Some(raw) = self.added(pos, from, x, y) {
                        count += usize::from(raw.n == 2);
                        sink(raw);
                    }
                }
            }
        }
        count
    }

    /// Every play using one die only (legal only when `full` found none).
    fn one_die(&self, pos: &Position, throw: Throw, sink: &mut impl FnMut(Raw)) -> usize {
        let mut count = 0;
        let dice: &[u8] = if throw.first == throw.second {
            &[throw.first]
        } else {
            &[throw.first, throw.second]
        };
        for &d in dice {
            for p in Bits(self.movers(pos, d)) {
                if let Some((q, st)) = self.single(pos, Hole(p), d) {
                    sink(Raw {
                        steps: [st, NO_STEP],
                        n: 1,
                        result: q,
                    });
                    count += 1;
                }
            }
        }
        count
    }
}

/// Run the generator: every legal candidate play (not yet deduplicated)
/// goes to `sink`, its result with the next side to move already set. A
/// lost throw is one candidate with no steps. Nothing when the game is over.
fn generate(pos: &Position, variants: &Variants, throw: Throw, sink: &mut impl FnMut(Raw)) {
    if pos.is_over(variants) {
        return;
    }
    let g = Gen {
        paths: Paths::of(pos.board),
        side: pos.side,
        v: *variants,
    };
    let next = if throw.is_daldal() {
        pos.side
    } else {
        pos.side.other()
    };
    let mut fix = |mut raw: Raw| {
        raw.result.side = next;
        sink(raw)
    };
    if g.full(pos, throw, &mut fix) > 0 {
        return;
    }
    if g.one_die(pos, throw, &mut fix) > 0 {
        return;
    }
    fix(Raw {
        steps: [NO_STEP; 2],
        n: 0,
        result: *pos,
    });
}

/// Slots of the dedupe table: a power of two, well above the most distinct
/// plays a throw can have (at most 16 x 15 x 2 separate + 32 added).
const SLOTS: usize = 1024;

/// Open-addressing set of result positions (indices into a list kept by
/// the caller), on the stack: no allocation, cleared by construction.
struct Dedup {
    slots: [u16; SLOTS],
}

impl Dedup {
    fn new() -> Dedup {
        Dedup { slots: [0; SLOTS] }
    }

    #[inline]
    fn hash(p: &Position) -> usize {
        let x = p.pieces[0] ^ p.pieces[1].rotate_left(43) ^ p.undalt.rotate_left(86);
        let h = ((x as u64) ^ ((x >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 54) as usize
    }

    /// Whether `p` is new among `seen(i)` for the stored indices; if so,
    /// remember it as index `next`.
    #[inline]
    fn insert(&mut self, p: &Position, next: usize, seen: impl Fn(usize) -> Position) -> bool {
        let mut i = Self::hash(p);
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = next as u16 + 1;
                    return true;
                }
                k if seen(usize::from(k) - 1) == *p => return false,
                _ => i = (i + 1) & (SLOTS - 1),
            }
        }
    }
}

/// Results kept so far up to this many are compared one by one; beyond,
/// a [`Dedup`] table takes over (clearing its slots costs more than a
/// few comparisons, and most throws of most positions have few plays).
const LINEAR: usize = 24;

/// First-seen deduplication of results: linear while the list is short,
/// hashed once it grows.
#[derive(Default)]
struct Distinct {
    table: Option<Box<Dedup>>,
}

impl Distinct {
    /// Whether `p` is not among the results of `kept` (read with `get`);
    /// the caller pushes it if so.
    #[inline]
    fn is_new<T>(&mut self, p: &Position, kept: &[T], get: impl Fn(&T) -> Position) -> bool {
        if let Some(table) = &mut self.table {
            return table.insert(p, kept.len(), |i| get(&kept[i]));
        }
        if kept.iter().any(|k| get(k) == *p) {
            return false;
        }
        if kept.len() + 1 >= LINEAR {
            let mut table = Box::new(Dedup::new());
            for (i, k) in kept.iter().enumerate() {
                table.insert(&get(k), i, |j| get(&kept[j]));
            }
            table.insert(p, kept.len(), |j| get(&kept[j]));
            self.table = Some(table);
        }
        true
    }
}

/// Every distinct legal play for `throw` in `pos` (docs/rules.md §1.3), one per
/// distinct resulting position, in the generator's deterministic order
/// (module doc); when several plays lead to one position the first is
/// kept. A lost throw is one outcome with the empty play (`pass`). Each
/// result has the side that throws next to move: the same side after a
/// dal-dal, else the opponent. Returns an empty vector when the game is
/// already over (`pos.is_over(variants)`).
pub fn plays(pos: &Position, variants: &Variants, throw: Throw) -> Vec<PlayOutcome> {
    let mut raws: Vec<Raw> = Vec::new();
    let mut set = Distinct::default();
    generate(pos, variants, throw, &mut |r| {
        if set.is_new(&r.result, &raws, |x| x.result) {
            raws.push(r);
        }
    });
    raws.into_iter()
        .map(|r| PlayOutcome {
            play: Play {
                steps: r.steps[..usize::from(r.n)].to_vec(),
            },
            result: r.result,
        })
        .collect()
}

/// The distinct positions `plays` would return, in the same order, without
/// the plays: `out` is cleared and refilled. For engines: no allocation
/// once `out` has grown.
pub fn play_results(pos: &Position, variants: &Variants, throw: Throw, out: &mut Vec<Position>) {
    out.clear();
    let mut set = Distinct::default();
    generate(pos, variants, throw, &mut |r| {
        if set.is_new(&r.result, out, |p| *p) {
            out.push(r.result);
        }
    });
}
