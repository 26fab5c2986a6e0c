//! Intervals holding a true probability: the full search and the
//! certificate each give one, and the answer is where they meet.

use crate::ratio::Ratio;

/// An interval `[lo, hi]` holding a true probability.
#[derive(Debug, Clone)]
pub(super) struct Interval {
    /// At most the true value.
    pub(super) lo: Ratio,
    /// At least the true value.
    pub(super) hi: Ratio,
}

impl Interval {
    /// Both hold: the narrower interval they share.
    pub(super) fn meet(self, other: Interval) -> Interval {
        Interval {
            lo: self.lo.max(other.lo),
            hi: self.hi.min(other.hi),
        }
    }
}
