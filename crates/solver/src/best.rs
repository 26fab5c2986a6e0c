//! The value and best moves of any position: exact when the search
//! finishes within its limits, otherwise a depth-limited estimate, and the
//! answer says which.

use dalkon_rules::dakon::{Position, Rules};

use crate::error::SolveError;
use crate::search::{self, Goal, Limits, SearchError, SearchProgress};

/// Nodes an exact search may take by default before it settles for an
/// estimate: a few minutes at the search's 3 to 6 million nodes a second,
/// so that a query on a board too big to prove still gets an answer (marked
/// not exact) instead of running without end.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000_000;

/// The value of a position and of each of its moves.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Final store difference for the side to move (exact, or estimated).
    pub value: i32,
    /// Every move reaching `value`, ascending (empty when the game is over).
    pub best_moves: Vec<usize>,
    /// Every legal move with its value (same meaning as `value`).
    pub moves: Vec<(usize, i32)>,
    /// Whether the values are proved; `false` when the node limit stopped
    /// the search and they are an estimate.
    pub exact: bool,
    /// Plies of the estimate (`None` when exact).
    pub estimate_depth: Option<u32>,
    /// Nodes searched (up to the limit, for an estimate).
    pub nodes: u64,
    /// Distinct positions searched (0 for an estimate).
    pub positions: u64,
    /// Wall-clock seconds of the exact search (0 for an estimate).
    pub seconds: f64,
}

/// Analyse `pos`: the exact search under `limits`, or, when it runs out of
/// nodes (`limits.max_nodes`), a plain search `estimate_depth` plies deep.
pub fn analyse(
    pos: &Position,
    rules: &Rules,
    limits: &Limits,
    estimate_depth: u32,
    progress: Option<&SearchProgress>,
) -> Result<Analysis, SolveError> {
    match search::solve(pos, rules, limits, None, progress, Goal::EveryMove) {
        Ok(r) => Ok(Analysis {
            value: r.value,
            best_moves: r.best_moves,
            moves: r.moves,
            exact: true,
            estimate_depth: None,
            nodes: r.nodes,
            positions: r.positions,
            seconds: r.seconds,
        }),
        Err(SearchError::NodeLimit { nodes }) => {
            let moves = search::estimate_moves(pos, rules, estimate_depth);
            let value = moves.iter().map(|m| m.1).max().unwrap_or(0);
            let best_moves = moves.iter().filter(|m| m.1 == value).map(|m| m.0).collect();
            Ok(Analysis {
                value,
                best_moves,
                moves,
                exact: false,
                estimate_depth: Some(estimate_depth),
                nodes,
                positions: 0,
                seconds: 0.0,
            })
        }
        Err(e) => Err(SolveError::Search(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_nodes: Option<u64>) -> Limits {
        Limits {
            tt_bytes: 16 << 20,
            max_nodes,
        }
    }

    #[test]
    fn small_boards_are_exact() {
        let rules = Rules::default();
        for (holes, value) in [(4, 32), (5, 48)] {
            let pos = Position::start(holes, holes as u8).unwrap();
            let a = analyse(&pos, &rules, &limits(None), 6, None).unwrap();
            assert!(a.exact);
            assert_eq!(a.estimate_depth, None);
            assert_eq!((a.value, a.best_moves), (value, vec![1]));
            assert_eq!(a.moves.len(), holes);
        }
    }

    #[test]
    fn a_node_limit_gives_an_estimate() {
        let rules = Rules::default();
        let pos = Position::start(6, 4).unwrap();
        let a = analyse(&pos, &rules, &limits(Some(1000)), 6, None).unwrap();
        assert!(!a.exact);
        assert_eq!(a.estimate_depth, Some(6));
        assert_eq!(a.moves.len(), 6);
        assert!(a.best_moves.iter().all(|&h| a.moves[h - 1].1 == a.value));
    }

    #[test]
    fn a_table_below_the_minimum_is_bad_input() {
        let pos = Position::start(4, 4).unwrap();
        let tiny = Limits {
            tt_bytes: 1,
            max_nodes: None,
        };
        let e = analyse(&pos, &Rules::default(), &tiny, 6, None).unwrap_err();
        assert!(e.is_bad_input(), "{e}");
    }
}
