//! Plays: what a player does with one throw (docs/rules.md §1.3), and their
//! notation (docs/cli.md, `daldos moves`): one step per die use, `FROM-TO`, an
//! `x` suffix on a capture, steps separated by a space, `pass` for a lost
//! throw. An activation is written from the undalt hole; an added move is
//! written as its two steps (`M9-M7 M7-M4x`), the second starting where the
//! first ended.

use super::board::Board;
use super::position::Position;
use super::Hole;

/// One die use: a piece moves from `from` to `to`; `capture` when an enemy
/// piece was taken on `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// Where the piece stood (for an activation: its undalt hole).
    pub from: Hole,
    /// Where it arrived.
    pub to: Hole,
    /// Whether an enemy piece on `to` was captured.
    pub capture: bool,
}

/// The die uses of one throw, in order. Empty = the lost throw (`pass`).
/// Two steps where the second starts on the first's `to` are one added move
/// (both dice on one piece); otherwise they move two different pieces.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Play {
    /// The steps, at most two.
    pub steps: Vec<Step>,
}

/// A legal play and the position it leads to (with the side that throws
/// next to move).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlayOutcome {
    /// The play.
    pub play: Play,
    /// The position after it.
    pub result: Position,
}

impl Step {
    /// `FROM-TO`, with `x` appended on a capture.
    pub fn notation(&self, board: Board) -> String {
        format!(
            "{}-{}{}",
            board.hole_name(self.from),
            board.hole_name(self.to),
            if self.capture { "x" } else { "" }
        )
    }
}

impl Play {
    /// The lost throw.
    pub fn pass() -> Play {
        Play { steps: Vec::new() }
    }

    /// Whether this is the lost throw.
    pub fn is_pass(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether both dice went to one piece (an added move).
    pub fn is_added(&self) -> bool {
        matches!(self.steps.as_slice(), [s, t] if s.to == t.from)
    }

    /// Number of captures made.
    pub fn captures(&self) -> usize {
        self.steps.iter().filter(|s| s.capture).count()
    }

    /// The notation, e.g. `AL-ML`, `M3-M1 B2-B5x`, `pass`.
    pub fn notation(&self, board: Board) -> String {
        if self.steps.is_empty() {
            return "pass".to_owned();
        }
        self.steps
            .iter()
            .map(|s| s.notation(board))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
