//! An independent check of a solved layer: recompute one sweep of the
//! bound equations (RULES §1.8) for every position, from the stored bounds
//! and the plays of the rules crate (not the builder's compact lists), and
//! measure how far the stored bounds are from being closed under it.
//!
//! The iteration only ever raises a lower bound and lowers an upper one, so
//! a sound table satisfies `lo ≤ lo'` and `hi' ≤ hi` for the recomputed
//! `lo'`, `hi'` (up to rounding): its bounds are then also bounds of the
//! equation's solution, and its midpoint satisfies the equation within the
//! gap. [`Check::violation`] is the largest amount by which either
//! inequality fails.

use dalkon_rules::daldos::{play_results, Position, Side, Throw};
use rayon::prelude::*;

use super::index::{LayerIndex, LayerKey};
use super::Tables;

/// What the check found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Check {
    /// Positions checked.
    pub positions: u64,
    /// Largest `lo - lo'` or `hi' - hi` (≤ 0 when every bound holds; a
    /// few ulps above 0 from rounding).
    pub violation: f64,
    /// Largest `hi' - lo'`.
    pub gap: f64,
    /// Largest `|mid' - mid|`: how far the midpoint is from satisfying
    /// the equation.
    pub residual: f64,
}

/// How far above 0 [`Check::violation`] may go from rounding alone: the
/// sweep adds ten weighted terms of values in [0, 1], so its rounding is a
/// few ulps of 1 (2.2e-16 each); this allows for a hundred.
pub const ROUNDING: f64 = 1e-14;

/// The larger of `a` and `b`, NaN if either is: `f64::max` drops a NaN,
/// which would let a NaN bound pass the check unseen.
fn worst(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

impl Check {
    /// Whether the layer passes: no bound fails by more than rounding, and
    /// the midpoint satisfies the equation within `eps` (the build's gap
    /// target).
    pub fn passes(&self, eps: f64) -> bool {
        self.violation <= ROUNDING && self.residual <= eps
    }
}

/// One sweep of the bound equations at `pos` (A to throw), from `tables`.
/// `None` if a result is not covered.
pub fn sweep_once(tables: &Tables, pos: &Position) -> Option<(f64, f64)> {
    let v = tables.variants();
    let mut results = Vec::new();
    let (mut lo, mut hi) = (0.0, 0.0);
    for (throw, w) in Throw::DISTINCT {
        play_results(pos, &v, throw, &mut results);
        let (mut blo, mut bhi) = (0.0f64, 0.0f64);
        for r in &results {
            let b = tables.bounds_for(r, Side::A)?;
            blo = worst(blo, b.lo);
            bhi = worst(bhi, b.hi);
        }
        lo += f64::from(w) * blo;
        hi += f64::from(w) * bhi;
    }
    Some((lo / 16.0, hi / 16.0))
}

/// Check layer `key` (which must be present in `tables`, with the layers
/// its plays lead to).
pub fn check_layer(tables: &Tables, key: LayerKey) -> Option<Check> {
    let index = LayerIndex::new(key);
    let n = index.size();
    let chunk = 4096u64;
    let parts: Vec<Option<Check>> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut out = Check {
                positions: 0,
                violation: f64::NEG_INFINITY,
                gap: 0.0,
                residual: 0.0,
            };
            for r in c * chunk..((c + 1) * chunk).min(n) {
                let pos = index.unrank(r);
                let stored = tables.bounds(&pos)?;
                let (lo, hi) = sweep_once(tables, &pos)?;
                out.positions += 1;
                out.violation = worst(worst(out.violation, stored.lo - lo), hi - stored.hi);
                out.gap = worst(out.gap, hi - lo);
                out.residual = worst(out.residual, ((lo + hi) / 2.0 - stored.value()).abs());
            }
            Some(out)
        })
        .collect();
    let mut total = Check {
        positions: 0,
        violation: f64::NEG_INFINITY,
        gap: 0.0,
        residual: 0.0,
    };
    for p in parts {
        let p = p?;
        total.positions += p.positions;
        total.violation = worst(total.violation, p.violation);
        total.gap = worst(total.gap, p.gap);
        total.residual = worst(total.residual, p.residual);
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(violation: f64, residual: f64) -> Check {
        Check {
            positions: 1,
            violation,
            gap: 1e-13,
            residual,
        }
    }

    #[test]
    fn passing_needs_closed_bounds_and_a_small_residual() {
        assert!(check(0.0, 4e-13).passes(1e-12));
        assert!(check(-1e-3, 0.0).passes(1e-12));
        assert!(check(ROUNDING, 1e-12).passes(1e-12));
        assert!(
            !check(2e-14, 0.0).passes(1e-12),
            "a bound fails beyond rounding"
        );
        assert!(
            !check(0.0, 2e-12).passes(1e-12),
            "the midpoint is off by more than eps"
        );
        assert!(!check(f64::NAN, 0.0).passes(1e-12));
        assert!(!check(0.0, f64::NAN).passes(1e-12));
    }

    #[test]
    fn the_worst_of_a_nan_is_nan() {
        assert!(worst(f64::NEG_INFINITY, f64::NAN).is_nan());
        assert!(worst(f64::NAN, 1.0).is_nan());
        assert_eq!(worst(-1.0, 2.0), 2.0);
    }
}
