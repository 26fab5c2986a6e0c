//! What an [`Analysis`] knows, in one place: the label of its value
//! (exact, proved bounds, or an estimate) and its moves ranked by what is
//! proved. `dakon best`, `dakon show --best`, the `dakon game` hint and the
//! Python binding all print these, so the same analysis reads the same
//! everywhere: "exact" only where the answer is proved, and never an
//! unproved move ranked above a proved best one.

use std::fmt;

use crate::best::Analysis;

/// How far an analysis's value is proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// The value and the best moves are proved.
    Exact,
    /// The budget ended the proof: the value lies between these (proved);
    /// the move is the one with the best proved bounds.
    Bounds {
        /// Proved lower bound.
        lower: i32,
        /// Proved upper bound.
        upper: i32,
    },
    /// The budget proved nothing useful: a search this many plies deep
    /// chose the move.
    Estimate {
        /// Plies of the estimate.
        depth: u32,
        /// Proved lower bound (the trivial one when nothing was proved).
        lower: i32,
        /// Proved upper bound.
        upper: i32,
    },
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Label::Exact => write!(f, "exact"),
            Label::Bounds { lower, upper } => {
                write!(f, "NOT exact: proved between {lower:+} and {upper:+}")
            }
            Label::Estimate {
                depth,
                lower,
                upper,
            } => write!(
                f,
                "ESTIMATE {depth} plies deep, NOT exact: proved between {lower:+} and {upper:+}"
            ),
        }
    }
}

/// What is known of one move's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveValue {
    /// Proved exactly.
    Exact(i32),
    /// Proved to be at most this (a refuted move of an exact answer).
    AtMost(i32),
    /// Proved to lie between the two (the budget ended the proof).
    Between(i32, i32),
}

impl MoveValue {
    /// Whether the value is proved exactly.
    pub fn is_exact(&self) -> bool {
        matches!(self, MoveValue::Exact(_))
    }
}

impl fmt::Display for MoveValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveValue::Exact(v) => write!(f, "{v:+}"),
            MoveValue::AtMost(v) => write!(f, "<= {v:+}"),
            MoveValue::Between(lo, hi) => write!(f, "{lo:+} .. {hi:+} (not proved)"),
        }
    }
}

/// One move of a ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankedMove {
    /// The hole.
    pub hole: usize,
    /// What is known of its value.
    pub value: MoveValue,
}

impl Analysis {
    /// The label of [`Analysis::value`].
    pub fn label(&self) -> Label {
        match (self.exact, self.estimate_depth) {
            (true, _) => Label::Exact,
            (false, None) => Label::Bounds {
                lower: self.lower,
                upper: self.upper,
            },
            (false, Some(depth)) => Label::Estimate {
                depth,
                lower: self.lower,
                upper: self.upper,
            },
        }
    }

    /// What is known of the value of the move from `hole`.
    fn move_value(&self, hole: usize, lower: i32, upper: i32) -> MoveValue {
        if self.moves.iter().any(|e| e.0 == hole) || (self.exact && lower == upper) {
            MoveValue::Exact(lower)
        } else if self.exact {
            MoveValue::AtMost(upper)
        } else {
            MoveValue::Between(lower, upper)
        }
    }

    /// Every legal move, best first: a move proved best (its exact value
    /// at least every other move's upper bound) first; then the move the
    /// analysis chose (its best so far, the move `best_moves` names, so the
    /// table never lists another move above the one the answer gives);
    /// then by proved lower bound, proved upper bound and hole.
    pub fn ranked(&self) -> Vec<RankedMove> {
        let values: Vec<_> = self
            .move_bounds
            .iter()
            .map(|m| {
                let value = self.move_value(m.hole, m.lower, m.upper);
                let (lo, hi) = match value {
                    MoveValue::Exact(v) => (v, v),
                    MoveValue::AtMost(v) => (m.lower.min(v), v),
                    MoveValue::Between(lo, hi) => (lo, hi),
                };
                (m.hole, value, lo, hi)
            })
            .collect();
        let mut ranked: Vec<_> = values
            .iter()
            .map(|&(hole, value, lo, hi)| {
                let proved_best = matches!(value, MoveValue::Exact(_))
                    && values
                        .iter()
                        .all(|&(h, _, _, other_hi)| h == hole || lo >= other_hi);
                let chosen = self.best_moves.contains(&hole);
                ((proved_best, chosen, lo, hi), RankedMove { hole, value })
            })
            .collect();
        ranked.sort_by(|(x, a), (y, b)| y.cmp(x).then(a.hole.cmp(&b.hole)));
        ranked.into_iter().map(|(_, m)| m).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::answer::MoveBounds;

    fn analysis(exact: bool, bounds: &[(usize, i32, i32)], best: &[usize]) -> Analysis {
        Analysis {
            value: bounds[0].1,
            lower: -80,
            upper: 98,
            best_moves: best.to_vec(),
            moves: bounds
                .iter()
                .filter(|b| exact && best.contains(&b.0))
                .map(|b| (b.0, b.1))
                .collect(),
            move_bounds: bounds
                .iter()
                .map(|&(hole, lower, upper)| MoveBounds { hole, lower, upper })
                .collect(),
            pv: best.to_vec(),
            exact,
            estimate_depth: None,
            estimates: Vec::new(),
            nodes: 1,
            positions: 1,
            seconds: 0.0,
        }
    }

    #[test]
    fn labels_say_exact_only_when_proved() {
        let mut a = analysis(false, &[(1, -14, 70)], &[1]);
        a.lower = -14;
        a.upper = 70;
        assert_eq!(
            a.label().to_string(),
            "NOT exact: proved between -14 and +70"
        );
        a.estimate_depth = Some(4);
        assert_eq!(
            a.label().to_string(),
            "ESTIMATE 4 plies deep, NOT exact: proved between -14 and +70"
        );
        a.exact = true;
        assert_eq!(a.label().to_string(), "exact");
    }

    #[test]
    fn a_proved_best_move_is_never_ranked_below_an_unproved_one() {
        // The 7×7 start as a budget leaves it: move 1 proved +98, the
        // others refuted (upper bounds) — and an unproved answer where
        // move 7 has the widest bounds.
        let a = analysis(true, &[(1, 98, 98), (2, -98, 60), (7, -98, 96)], &[1]);
        let r = a.ranked();
        assert_eq!(
            r[0],
            RankedMove {
                hole: 1,
                value: MoveValue::Exact(98)
            }
        );
        assert_eq!(r[1].value, MoveValue::AtMost(96));
        assert_eq!(r[1].value.to_string(), "<= +96");
        let b = analysis(false, &[(1, 10, 98), (7, -80, 98), (3, 10, 40)], &[1]);
        let holes: Vec<_> = b.ranked().iter().map(|m| m.hole).collect();
        assert_eq!(holes, vec![1, 3, 7]);
        assert_eq!(b.ranked()[2].value.to_string(), "-80 .. +98 (not proved)");
        // A budget that proves nothing: the move the answer names comes
        // first even where another has the higher lower bound (the docs'
        // `best --max-nodes` example: best move 4 at -42 .. +64, move 6 at
        // -12 .. +58).
        let c = analysis(false, &[(4, -42, 64), (6, -12, 58), (1, -50, 10)], &[4]);
        let holes: Vec<_> = c.ranked().iter().map(|m| m.hole).collect();
        assert_eq!(holes, vec![4, 6, 1]);
    }
}
