//! `play`: moves applied one after another, with what happened.

use dalkon_rules::dakon::{Event, Position, Rules, Side};
use serde::Serialize;

use crate::error::SolveError;

/// Moves to apply to a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayRequest {
    /// The start.
    pub position: Position,
    /// Holes to play in order (each of the side to move at that point).
    pub moves: Vec<usize>,
    /// The rule set.
    pub rules: Rules,
}

/// One move applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Who played it.
    pub mover: Side,
    /// The hole.
    pub hole: usize,
    /// The position after it.
    pub position: Position,
    /// What happened.
    pub events: Vec<Event>,
}

/// The positions after each move; serialized, the JSON of `dakon play`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayReport {
    /// The position after each move.
    pub positions: Vec<String>,
    /// What happened in each move.
    pub events: Vec<Vec<String>>,
    /// The moves, in full.
    #[serde(skip)]
    pub steps: Vec<Step>,
}

impl PlayRequest {
    /// Apply the moves; the first illegal one is refused with its place.
    pub fn run(&self) -> Result<PlayReport, SolveError> {
        let mut steps = Vec::new();
        let mut p = self.position;
        for (i, &hole) in self.moves.iter().enumerate() {
            let (next, events) =
                p.play_logged(hole, &self.rules)
                    .map_err(|source| SolveError::Move {
                        index: i + 1,
                        hole,
                        position: p,
                        source,
                    })?;
            steps.push(Step {
                mover: p.side_to_move(),
                hole,
                position: next,
                events,
            });
            p = next;
        }
        Ok(PlayReport {
            positions: steps.iter().map(|s| s.position.to_string()).collect(),
            events: steps
                .iter()
                .map(|s| s.events.iter().map(ToString::to_string).collect())
                .collect(),
            steps,
        })
    }
}
