//! Capture odds on a real board, through the full rules (`plays`): for each
//! enemy piece, the probability that the side to move captures it during
//! this turn, extra throws after dal-dal included, playing to maximise that
//! one probability; and the same for "at least one capture".
//!
//! The value of a position is `V = x + max_c V(c) / 16`: `x` is the weight
//! (out of 16) of the throws that are not a dal-dal on which some play
//! captures the target, `c` runs over the results of the dal-dal plays.
//! Where the only dal-dal outcome is the position itself (the lost throw),
//! `V = x + V/16` is solved exactly: `V = 16x/15`. Anywhere else the
//! rethrows are followed to a depth `k`; a dal-dal thrown after `k` of them
//! counts only for a capture made with it, which leaves out a probability of
//! at most `16^-(k+1)`. With `k = 9` that is below `1e-12`.
//!
//! Arithmetic is exact integers: a value `r` rethrows from the cut is a
//! whole number of units `1 / (15 * 16^(r+1))` (the 15 from the fixed
//! point), so everything fits a `u64` for `k <= 12`. Positions are memoised
//! (hashbrown) on `(position, rethrows left)`.
//!
//! Two ways to the answer, combined per target:
//! - the full search over every dal-dal play, deepening one rethrow at a
//!   time until every value still needed is exact, `max_daldals` is reached
//!   or the node budget runs out. Its cost grows about tenfold per rethrow
//!   on a middle game (every dal-dal play of every piece is a branch);
//! - for each target, a certificate: the relaxed model (`relaxed`: only the
//!   pieces that can reach the target and those just past it that may
//!   block a jump over it, unwanted dice spent for free) is an
//!   upper bound; the board played along the relaxed model's best dal-dal
//!   plays is a lower bound. When the two are equal the board value is
//!   known, cut after `max_daldals` rethrows, for the price of one line of
//!   board positions. They differ only where the real board forbids what
//!   the relaxed one allows (both dice must be used, `dal=sternmost`, the
//!   game ending); then the full search decides, within its bound.
//!
//! - the same for "at least one capture", with every enemy piece a target
//!   of one relaxed model (`RelaxedAny`): where the full search runs out
//!   of budget before "any" is exact (sparse positions, where it is not
//!   1), this still settles it. When every value is certified the full
//!   search only gets a small budget (it may still find values exact).
//!
//! Each target (and "any") reports the narrowest interval the two give.
//!
//! The files: this one holds the API and puts the answer together;
//! `search.rs` the full search, `bound.rs` the certificate (branch and
//! bound against the relaxed models), `interval.rs` the intervals they
//! give, `risk.rs` the cheap one-throw risks.

use dalkon_rules::daldos::{Hole, Position, Side, Variants};
use num_bigint::BigInt;
use num_traits::Zero;
use rayon::prelude::*;

use crate::ratio::{sixteenth_pow, Ratio};
use crate::relaxed::any::RelaxedAny;
use crate::relaxed::target::Relaxed;

mod bound;
mod interval;
mod risk;
mod search;

pub use risk::capture_risk_f64;

use interval::Interval;
use search::{Entry, OutOfNodes, Search};

/// Rethrow depth that brings the cut below `1e-12` (`16^-10 ≈ 9.1e-13`).
pub const EXACT_DALDALS: u32 = 9;

/// Largest rethrow depth the integer arithmetic supports.
pub const MAX_DALDALS: u32 = 12;

/// Positions the full search may spend when the certificates settled
/// every value (targets and "any").
const SETTLED_NODES: usize = 2_000;

/// How far `capture_odds_with` may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OddsLimits {
    /// Dal-dal rethrows followed (at most `MAX_DALDALS`).
    pub max_daldals: u32,
    /// Positions evaluated before the search settles for the last complete
    /// depth.
    pub max_nodes: usize,
    /// Try the relaxed-model certificate per target before the full search.
    pub certify: bool,
}

impl Default for OddsLimits {
    /// `EXACT_DALDALS` rethrows (error below `1e-12`), 50 000 positions,
    /// certificates on.
    fn default() -> Self {
        OddsLimits {
            max_daldals: EXACT_DALDALS,
            max_nodes: 50_000,
            certify: true,
        }
    }
}

/// One enemy piece and the chance of capturing it this turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Where the piece stands.
    pub hole: Hole,
    /// Probability: exact, or a lower bound within `bound`.
    pub probability: Ratio,
    /// The true probability lies in `[probability, probability + bound]`.
    pub bound: Ratio,
    /// Nothing was cut: `probability` is exact (`bound` is zero).
    pub exact: bool,
    /// The relaxed-model certificate settled it: `probability` is the
    /// board value cut after `max_daldals` rethrows, exactly.
    pub certified: bool,
}

/// The capture odds of a position for its side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureOdds {
    /// The side to move, which captures.
    pub side: Side,
    /// Every enemy piece, in hole order.
    pub targets: Vec<Target>,
    /// Probability of capturing at least one enemy piece (a lower bound
    /// within `any_bound`).
    pub any: Ratio,
    /// The true "any" probability is at most this much above `any`.
    pub any_bound: Ratio,
    /// Every probability (targets and "any") is exact.
    pub exact: bool,
    /// The largest bound of all: every true probability lies in
    /// `[probability, probability + bound]`.
    pub bound: Ratio,
    /// Dal-dal rethrows followed by the full search.
    pub daldals: u32,
    /// Targets whose value the relaxed-model certificate settled.
    pub certified: usize,
    /// Positions evaluated: board positions (both ways, all depths) and
    /// the states of the relaxed model of "any", which count against
    /// `max_nodes` alike.
    pub nodes: usize,
}

/// Exact odds within `1e-12` (default limits; see `capture_odds_with`).
pub fn capture_odds(pos: &Position, variants: &Variants) -> CaptureOdds {
    capture_odds_with(pos, variants, OddsLimits::default())
}

/// What the certificate gave for one target (or "any"): an interval, and
/// whether its bounds met (the value is settled, cut after the rethrows).
#[derive(Debug, Clone)]
struct Certificate {
    interval: Interval,
    settled: bool,
}

/// A value in units of `1 / (15 * 16^(k+1))` as a probability.
fn units(v: u64, k: u32) -> Ratio {
    Ratio::new(BigInt::from(v), BigInt::from(15u64 * 16u64.pow(k + 1)))
}

/// Capture odds with explicit limits. Deterministic: the same limits give
/// the same answer on any machine and thread count.
pub fn capture_odds_with(pos: &Position, variants: &Variants, limits: OddsLimits) -> CaptureOdds {
    let side = pos.side_to_move();
    let targets: Vec<Hole> = pos.pieces(side.other()).collect();
    let bits: Vec<u128> = targets.iter().map(|h| 1u128 << h.0).collect();
    let n = targets.len();
    let mut search = Search::new(*variants, side, bits, limits.max_nodes.max(1));
    let max = limits.max_daldals.min(MAX_DALDALS);

    let mut cert: Vec<Option<Certificate>> = vec![None; n + 1];
    if !pos.is_over(variants) && limits.certify && n > 0 {
        let used;
        (cert, used) = certify(pos, &search, &targets, max);
        search.nodes += used;
    }
    let settled = |c: &Option<Certificate>| c.as_ref().is_some_and(|c| c.settled);
    let certified = cert[..n].iter().filter(|c| settled(c)).count();

    // The full search, for what the certificates did not settle and "any".
    let mut needed: u64 = 1 << n;
    for (i, c) in cert.iter().enumerate() {
        if !settled(c) {
            needed |= 1 << i;
        }
    }
    // "Any" is always followed until it is exact (which also shows where
    // nothing is cut at all), but when the certificates settled every
    // value the search only gets a small budget for that.
    if cert.iter().all(settled) {
        search.max_nodes = search.max_nodes.min(search.nodes + SETTLED_NODES);
    }
    let done = deepen(&mut search, pos, max, needed);

    // Each value: the full search's interval, met with the certificate's.
    let interval = |i: usize| -> Interval {
        let full = full_interval(done.as_ref(), i);
        match &cert[i] {
            Some(c) => full.meet(c.interval.clone()),
            None => full,
        }
    };
    let mut out_targets = Vec::with_capacity(n);
    let mut widest = Ratio::zero();
    for (i, &hole) in targets.iter().enumerate() {
        let iv = interval(i);
        // Both intervals hold the true value, so they overlap.
        debug_assert!(iv.lo <= iv.hi, "capture intervals disagree at {hole:?}");
        let bound = (&iv.hi - &iv.lo).max(Ratio::zero());
        widest = widest.max(bound.clone());
        out_targets.push(Target {
            hole,
            certified: settled(&cert[i]),
            exact: bound.is_zero(),
            probability: iv.lo,
            bound,
        });
    }
    let any = interval(n);
    debug_assert!(any.lo <= any.hi, "\"any\" intervals disagree");
    let any_bound = &any.hi - &any.lo;
    widest = widest.max(any_bound.clone());
    CaptureOdds {
        side,
        targets: out_targets,
        any: any.lo,
        any_bound,
        exact: widest.is_zero(),
        bound: widest,
        daldals: done.as_ref().map_or(0, |d| d.0),
        certified,
        nodes: search.nodes,
    }
}

/// The certificates, first because they are cheap when they work: one per
/// target of `targets`, then "any" (index `n`), each with `max` rethrows
/// and its own search with an equal share of half of `search`'s budget,
/// so they run in parallel (rayon) with the same result on any number of
/// threads; the relaxed model of "any" may work out states up to the other
/// half. Returns them with the positions (board and relaxed) they used.
fn certify(
    pos: &Position,
    search: &Search,
    targets: &[Hole],
    max: u32,
) -> (Vec<Option<Certificate>>, usize) {
    let n = targets.len();
    // The parallel part sees only what is shared read-only (the search's
    // memos are not `Sync`).
    let (variants, side, bits) = (search.variants, search.side, &search.targets);
    let share = (search.max_nodes / (2 * (n + 1))).max(1);
    // The relaxed model of "any" has every enemy piece as a target, so on
    // a crowded board its states grow like the full search's: they count
    // against the budget too. It gets the other half: on sparse positions
    // it is what settles "any" (tens of thousands of states there).
    let any_share = (search.max_nodes / 2).max(1);
    let results: Vec<(Option<Certificate>, usize)> = (0..=n)
        .into_par_iter()
        .map_init(crate::relaxed::memo, |shared, i| {
            let mut own = Search::new(variants, side, bits.clone(), share);
            let (lb, ub) = match targets.get(i) {
                Some(&hole) => {
                    let mut relaxed = Relaxed::new(pos.board(), side, hole, shared.clone());
                    own.bounds(pos, max, i, &mut relaxed)
                }
                None => match RelaxedAny::new(pos) {
                    Some(relaxed) => {
                        let mut relaxed = relaxed.with_budget(any_share);
                        let b = own.bounds(pos, max, i, &mut relaxed);
                        own.nodes += relaxed.states;
                        b
                    }
                    None => return (None, 0),
                },
            };
            let interval = Interval {
                lo: units(lb, max),
                hi: units(ub, max) + sixteenth_pow(max + 1),
            };
            let c = Certificate {
                interval,
                settled: lb == ub,
            };
            (Some(c), own.nodes)
        })
        .collect();
    let used = results.iter().map(|r| r.1).sum();
    (results.into_iter().map(|r| r.0).collect(), used)
}

/// The full search deepened one rethrow at a time up to `max`, until
/// every value in the mask `needed` is exact or the budget runs out: the
/// last complete depth and its values (`None` when not even depth 0 fit).
fn deepen(search: &mut Search, pos: &Position, max: u32, needed: u64) -> Option<(u32, Entry)> {
    let mut done = None;
    for k in 0..=max {
        match search.eval(pos, k) {
            Ok(e) => {
                let finished = e.1 & needed == needed;
                done = Some((k, e));
                if finished {
                    break;
                }
            }
            Err(OutOfNodes) => break,
        }
    }
    done
}

/// The interval the full search gives value `i`: exact where nothing was
/// cut, else up to `16^-(k+1)` above. Depth 0 needs one position, which the
/// budget always allows unless the certificates used it up: then nothing is
/// known from the search, `[0, 1]`.
fn full_interval(done: Option<&(u32, Entry)>, i: usize) -> Interval {
    match done {
        Some((k, (v, exact))) => {
            let lo = units(v[i], *k);
            let hi = if exact & (1 << i) != 0 {
                lo.clone()
            } else {
                &lo + sixteenth_pow(k + 1)
            };
            Interval { lo, hi }
        }
        None => Interval {
            lo: Ratio::zero(),
            hi: Ratio::from_integer(1.into()),
        },
    }
}
