//! `show`: a position to draw and, with `best`, its best moves — found by
//! the same [`BestRequest`] as `dakon best`, under a budget of its own.

use dalkon_rules::dakon::{Position, Rules};
use serde::Serialize;

use std::path::PathBuf;

use super::best::{Analyst, BestReport, BestRequest};
use crate::error::SolveError;

/// The default node budget of `show --best`: a second or so of search;
/// past it the moves of a shallow estimate are marked, and labelled so.
pub const SHOW_MAX_NODES: u64 = 2_000_000;

/// The transposition table of the `--best` search, in MiB: small, since
/// the search is cut short anyway.
pub const SHOW_TT_MB: usize = 64;

/// Plies of the estimate when the node limit is reached: 6, fewer on wide
/// boards, so that the estimate too stays within a few million positions.
pub fn show_estimate_depth(holes: usize) -> u32 {
    let mut depth = 6;
    while depth > 1 && (holes as u64).saturating_pow(depth) > 2_000_000 {
        depth -= 1;
    }
    depth
}

/// A position to show, and whether (and within how many nodes) to find
/// its best moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShowRequest {
    /// The position.
    pub position: Position,
    /// The best-move search, when asked for.
    pub best: Option<BestRequest>,
}

impl ShowRequest {
    /// `position`, with its best moves when `best` (within `max_nodes`
    /// nodes, at least 1).
    pub fn new(
        position: Position,
        rules: Rules,
        best: bool,
        max_nodes: u64,
    ) -> Result<ShowRequest, SolveError> {
        if max_nodes == 0 {
            return Err(SolveError::OutOfRange {
                flag: "--max-nodes",
                range: "at least 1",
            });
        }
        let best = best.then(|| BestRequest {
            tt_mb: Some(SHOW_TT_MB),
            estimate_depth: show_estimate_depth(position.holes()),
            ..BestRequest::new(rules).max_nodes(Some(max_nodes))
        });
        Ok(ShowRequest { position, best })
    }

    /// The same request, its search probing databases of up to `k` seeds
    /// on the board in `dir` ([`BestRequest::probe`]); nothing without
    /// `best`.
    pub fn probe(self, k: Option<u32>, dir: Option<PathBuf>) -> Result<ShowRequest, SolveError> {
        let best = self.best.map(|b| b.probe(k, dir)).transpose()?;
        Ok(ShowRequest { best, ..self })
    }

    /// Find the best moves if asked.
    pub fn run(&self) -> Result<ShowReport, SolveError> {
        self.run_in(&mut Analyst::default())
    }

    /// [`run`](ShowRequest::run) with `analyst` (its databases opened
    /// already, say).
    pub fn run_in(&self, analyst: &mut Analyst) -> Result<ShowReport, SolveError> {
        let best = match &self.best {
            Some(r) => Some(analyst.run(r, &self.position, None)?),
            None => None,
        };
        Ok(ShowReport {
            position: self.position.to_string(),
            over: self.position.is_over(),
            best_moves: best.as_ref().map(|b| b.best_moves.clone()),
            value: best.as_ref().map(|b| b.value),
            exact: best.as_ref().map(|b| b.exact),
            best,
        })
    }
}

/// What `show` draws; serialized, the JSON of `dakon show`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShowReport {
    /// The position's notation.
    pub position: String,
    /// Whether the game is over.
    pub over: bool,
    /// With `best`: the best moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_moves: Option<Vec<usize>>,
    /// With `best`: their value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// With `best`: whether it is proved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// With `best`: the whole answer, as `dakon best` gives it.
    #[serde(skip)]
    pub best: Option<BestReport>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_is_shallower_on_wide_boards() {
        assert_eq!(show_estimate_depth(7), 6);
        assert_eq!(show_estimate_depth(12), 5);
        assert_eq!(show_estimate_depth(32), 4);
    }

    #[test]
    fn a_budget_of_no_nodes_is_refused() {
        let pos = Position::start(3, 3).unwrap();
        let e = ShowRequest::new(pos, Rules::default(), true, 0).unwrap_err();
        assert_eq!(e.to_string(), "--max-nodes must be at least 1");
    }
}
